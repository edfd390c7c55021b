import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// The real CLI: `watchdeck serve` on PGlite, then SIGTERM; it must exit 0 and leave a database
// that opens again (the PGlite directory was closed cleanly).
describe('watchdeck serve process', () => {
  it('starts, answers, and shuts down cleanly on SIGTERM, twice on the same data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-main-'));
    try {
      for (let round = 0; round < 2; round++) {
        const port = await freePort();
        const child = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
          env: {
            ...process.env,
            DATABASE_URL: '',
            PORT: String(port),
            HOST: '127.0.0.1',
            WATCHDECK_DATA_DIR: dataDir,
            LOG_LEVEL: 'info',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const deadline = Date.now() + 120_000;
        let ok = false;
        while (!ok && Date.now() < deadline && child.exitCode === null) {
          ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.ok,
            () => false,
          );
          if (!ok) await new Promise((r) => setTimeout(r, 200));
        }
        expect(ok, out).toBe(true);
        child.kill('SIGTERM');
        const code = await new Promise((r) => child.once('exit', r));
        expect(code, out).toBe(0);
        expect(out).toContain('shutting down');
        // structured request logs: pino JSON lines with the request's URL
        expect(out).toMatch(/"url":"\/api\/health"/);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});

// First start with sign-in on and no WATCHDECK_ADMIN_PASSWORD: the generated password is printed
// as a plain block on stdout for the person starting the server, never inside a (JSON) log line.
describe('first run', () => {
  it('prints the generated admin password plainly, outside the JSON log lines', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-first-run-'));
    try {
      const port = await freePort();
      const child = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
        env: {
          ...process.env,
          DATABASE_URL: '',
          PORT: String(port),
          HOST: '127.0.0.1',
          WATCHDECK_DATA_DIR: dataDir,
          WATCHDECK_DEMO_DATA: 'false',
          AUTH: 'kratos',
          WATCHDECK_ADMIN_PASSWORD: '',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const deadline = Date.now() + 150_000;
      let ok = false;
      while (!ok && Date.now() < deadline && child.exitCode === null) {
        ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ok) await new Promise((r) => setTimeout(r, 200));
      }
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      expect(ok, out).toBe(true);
      const password = /^ {4}password: {2}(\S+)$/m.exec(out)?.[1];
      expect(password, out).toMatch(/^\S{16,}$/);
      expect(out).toMatch(/^ {4}email: {5}admin@watchdeck\.local$/m);
      // not a terminal: the log is JSON lines, and none of them holds the password
      const logLines = out.split('\n').filter((l) => l.startsWith('{'));
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.every((l) => typeof JSON.parse(l).level === 'number')).toBe(true);
      expect(logLines.filter((l) => l.includes(password!))).toEqual([]);
      expect(logLines.some((l) => /printed once on stdout/.test(l))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
