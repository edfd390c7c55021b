import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, SandboxUnavailableError } from '#server/sandbox/index.ts';

/**
 * The sandbox itself, with the real bubblewrap (/usr/bin/bwrap, Debian package bubblewrap): who
 * the script is, what it can see of the server, and the limits. The tests run as root here and
 * in CI, the case where a mistake would hand a script the most.
 */
const MB = 1024 * 1024;
let dataDir: string;
let hostDir: string;
const sandbox = createSandbox({
  limits: { timeoutMs: 20_000, memoryBytes: 64 * MB, maxProcesses: 16, maxOutputBytes: 4096 },
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-sandbox-data-'));
  writeFileSync(join(dataDir, 'secret.key'), 'the-data-dir-secret-key', { mode: 0o600 });
  hostDir = mkdtempSync(join(tmpdir(), 'watchdeck-sandbox-host-'));
  expect(await sandbox.probe()).toEqual({ available: true });
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(hostDir, { recursive: true, force: true });
});

describe('isolation', () => {
  it("runs the script as an unprivileged user, not root and not the server's user", async () => {
    const r = await sandbox.run({ script: 'id -u; id -g; grep -E "^(Uid|CapEff):" /proc/self/status' });
    expect(r.exitCode).toBe(0);
    const [uid, gid, uids, caps] = r.stdout.trim().split('\n');
    expect(uid).toBe('65534');
    expect(gid).toBe('65534');
    expect(uid).not.toBe(String(process.getuid!()));
    expect(uids).toMatch(/^Uid:\s+65534\s+65534\s+65534\s+65534$/);
    expect(caps).toMatch(/^CapEff:\s+0+$/);
  });

  it("hides the server's process: its own /proc, no server pid, empty environments, nothing inherited", async () => {
    const r = await sandbox.run({
      script: [
        'echo "ppid=$PPID"',
        'echo "pids=$(ls /proc | grep -E "^[0-9]+$" | tr "\\n" " ")"',
        `test -e /proc/${process.pid} && echo "server pid visible"`,
        'echo "ppid-env=$(tr "\\0" " " < /proc/$PPID/environ)"',
        'echo "init-env=$(tr "\\0" " " < /proc/1/environ)"',
        'ps -eo comm= | grep -cxE "node|vitest" || true',
        'env | cut -d= -f1 | sort | tr "\\n" " "',
      ].join('\n'),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain('ppid=1\n');
    // only the sandbox's own few processes
    const pids = /pids=(.*)/.exec(out)![1].trim().split(' ').map(Number);
    expect(pids.length).toBeLessThan(8);
    expect(pids).not.toContain(process.pid);
    expect(out).not.toContain('server pid visible');
    expect(out).toContain('ppid-env=\n');
    expect(out).toContain('init-env=\n');
    expect(out).toMatch(/^0$/m); // ps lists no node or vitest process
    expect(out.trim().split('\n').at(-1)).toBe('HOME LANG PATH PWD SHLVL _');
  });

  it("does not mount the data directory, the repository or /etc's secrets; hidden paths under mounted trees are masked", async () => {
    const r = await sandbox.run({
      script: [
        `cat ${dataDir}/secret.key || echo "no data dir"`,
        `ls ${process.cwd()} >/dev/null 2>&1 || echo "no repository"`,
        'cat /etc/shadow 2>/dev/null || echo "no shadow"',
        'ls /etc/ssl/private 2>/dev/null || echo "no private keys"',
        'getent hosts localhost >/dev/null && echo "resolves"',
        'touch /usr/x 2>/dev/null || echo "read-only root"',
      ].join('\n'),
    });
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'no data dir',
      'no repository',
      'no shadow',
      'no private keys',
      'resolves',
      'read-only root',
    ]);

    // A data directory or secret file inside a mounted tree (here /etc/hosts stands for one).
    const masked = createSandbox({ hide: ['/etc/hosts'] });
    const m = await masked.run({ script: 'cat /etc/hosts 2>/dev/null || echo masked' });
    expect(m.stdout).toBe('masked\n');
    expect(readFileSync('/etc/hosts', 'utf8').length).toBeGreaterThan(0);
  });

  it('gives the script its env, files in the working directory and stdin; a command runs without a shell', async () => {
    const r = await sandbox.run({
      script: 'echo "$GREETING from $(pwd) as $HOME"; cat conf/a.txt; cat',
      env: { GREETING: 'hello' },
      files: { 'conf/a.txt': 'file content\n' },
      stdin: 'from stdin',
    });
    expect(r).toMatchObject({
      exitCode: 0,
      stdout: 'hello from /tmp as /tmp\nfile content\nfrom stdin',
      timedOut: false,
      stdoutTruncated: false,
    });
    const c = await sandbox.run({ command: ['printf', '%s|', 'a b', '$HOME'] });
    expect(c.stdout).toBe('a b|$HOME|');
    await expect(sandbox.run({ script: 'true', files: { '../escape': 'x' } })).rejects.toThrow(
      'file name "../escape" must be a relative path inside the working directory',
    );
    await expect(sandbox.run({ script: 'true', env: { 'A=B': 'x' } })).rejects.toThrow(
      'environment variable name "A=B" is not valid',
    );
  });
});

describe('limits', () => {
  it('kills the whole sandbox at the timeout, background children included', async () => {
    const started = Date.now();
    const r = await sandbox.run({
      script: 'sleep 3141.59 & (sleep 2718.28 &); sleep 60; echo late',
      limits: { timeoutMs: 400 },
    });
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((res) => setTimeout(res, 200));
    const left = execFileSync('ps', ['-eo', 'args'])
      .toString()
      .split('\n')
      .filter((l) => /^sleep (3141\.59|2718\.28)$/.test(l));
    expect(left).toEqual([]);
  });

  it("stops at the caller's signal", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await sandbox.run({ script: 'sleep 30', signal: ac.signal });
    expect(r.timedOut).toBe(true);
    expect(r.durationMs).toBeLessThan(3000);
  });

  it('keeps at most maxOutputBytes of each stream and says it cut them; the script is not blocked', async () => {
    const r = await sandbox.run({
      script: 'head -c 1000000 /dev/zero | tr "\\0" a; head -c 300000 /dev/zero | tr "\\0" b >&2; echo done >&2',
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('a'.repeat(4096));
    expect(r.stderr).toBe('b'.repeat(4096));
    expect(r).toMatchObject({ stdoutTruncated: true, stderrTruncated: true, timedOut: false });
  });

  it('refuses memory past the limit: an allocation fails, and /tmp is as small', async () => {
    const hog = await sandbox.run({ script: 'a=$(head -c 100000000 /dev/zero | tr "\\0" x); echo "${#a}"' });
    expect(hog.exitCode).not.toBe(0);
    expect(hog.stdout).not.toContain('100000000');
    expect(hog.stderr).toMatch(/cannot allocate/);
    const disk = await sandbox.run({ script: 'head -c 100000000 /dev/zero > /tmp/big' });
    expect(disk.exitCode).not.toBe(0);
    expect(disk.stderr).toMatch(/No space left on device/);
  });

  it('limits the number of processes', async () => {
    const r = await sandbox.run({
      script: 'n=0; for i in $(seq 40); do (sleep 2) 2>/dev/null & done; sleep 0.5; ls /proc | grep -cE "^[0-9]+$"',
      limits: { maxProcesses: 8 },
    });
    const count = Number(r.stdout.trim().split('\n').at(-1));
    expect(count).toBeLessThanOrEqual(10);
    expect(r.stderr).toMatch(/Resource temporarily unavailable/);
  });
});

describe('without isolation', () => {
  it('refuses to run, and never runs the script bare', async () => {
    const marker = join(hostDir, 'ran-bare');
    const missing = createSandbox({ bwrap: join(hostDir, 'no-such-bwrap') });
    const status = await missing.probe();
    expect(status).toEqual({ available: false, reason: `${join(hostDir, 'no-such-bwrap')} not found` });
    const run = missing.run({ script: `touch ${marker}` });
    await expect(run).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(run).rejects.toThrow(/^script isolation unavailable: install bubblewrap/);
    // a binary that exists but cannot make the sandbox is refused the same way
    const broken = createSandbox({ bwrap: '/bin/false' });
    expect((await broken.probe()).available).toBe(false);
    await expect(broken.run({ script: `touch ${marker}` })).rejects.toThrow(/script isolation unavailable/);
    // and so is one that runs the command without isolating it
    const fake = join(hostDir, 'fake-bwrap');
    writeFileSync(fake, '#!/bin/sh\nid -u; echo $$\n', { mode: 0o755 });
    chmodSync(hostDir, 0o755);
    const bare = createSandbox({ bwrap: fake });
    expect((await bare.probe()).reason).toMatch(/ran the probe without isolating it/);
    await expect(bare.run({ script: `touch ${marker}` })).rejects.toThrow(/script isolation unavailable/);
    expect(existsSync(marker)).toBe(false);
  });
});
