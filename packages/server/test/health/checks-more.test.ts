import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealthEngine } from '#server/health/engine.ts';
import { connectionResolver, type ConnectionResolver } from '#server/health/connections.ts';
import type { CheckDef } from '#server/health/spec.ts';
import { SecretBox } from '#server/connections/secret-box.ts';
import { createSandbox, type Sandbox } from '#server/sandbox/index.ts';
import { setCheckRoots } from '#server/git/index.ts';
import { testDrivers } from '../support/db.ts';
import { closedPort, startHttp, type Peer } from './peers.ts';

/**
 * exec, PostgreSQL (127.0.0.1:5432), MariaDB (127.0.0.1:3306, root), Redis (127.0.0.1:6379),
 * Prometheus and Alertmanager API answers from a local HTTP server, folders in a temp directory,
 * and connections used by name (stored encrypted, as the settings area stores them).
 */
const PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';
const REDIS_ADDR = '127.0.0.1:6379';

const noConnections: ConnectionResolver = {
  get: async (ref) => Promise.reject(new Error(`connection ${ref} not found`)),
};
const engineWith = (c: ConnectionResolver) => new HealthEngine(undefined as never, c, { defaultTimeoutMs: 5000 });
const engine = engineWith(noConnections);
const engineWithSandbox = (sandbox: Sandbox) =>
  new HealthEngine(undefined as never, noConnections, { defaultTimeoutMs: 5000, sandbox });
const run = async (type: string, spec: Record<string, unknown>, e = engine) =>
  (await e.execute({ type, name: `${type} test`, spec } as CheckDef)).outcome;

const state = { alerts: [] as unknown[] };
let web: Peer;
let dir: string;
beforeAll(async () => {
  web = await startHttp(state);
  dir = mkdtempSync(join(tmpdir(), 'watchdeck-folder-'));
  // folder checks read only under the check roots (folder-roots.test.ts)
  setCheckRoots([dir]);
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exec check', () => {
  it('passes on exit 0 with a CEL test over stdout; fails on a non-zero exit with stderr', async () => {
    const ok = await run('exec', {
      script: 'echo 61; echo note >&2',
      test: { expr: 'int(results.stdout) < 85 && exitCode == 0 && stderr == "note"' },
    });
    expect(ok).toMatchObject({ pass: true, message: '61' });
    const bad = await run('exec', { script: 'echo "disk full" >&2; exit 3' });
    expect(bad).toMatchObject({ pass: false, error: 'script exited with code 3: disk full' });
    const test = await run('exec', { script: 'echo 91', test: { expr: 'int(stdout) < 85' } });
    expect(test).toMatchObject({ pass: false, error: 'test failed: int(stdout) < 85' });
  });

  it("does not hand the server's secrets to scripts, only the env the spec gives", async () => {
    process.env.WATCHDECK_SECRET_KEY_PROBE = 'do-not-leak';
    const o = await run('exec', {
      script: 'echo "[${WATCHDECK_SECRET_KEY_PROBE:-}] [$GREETING]"',
      env: [{ name: 'GREETING', value: 'hi' }],
    });
    delete process.env.WATCHDECK_SECRET_KEY_PROBE;
    expect(o).toMatchObject({ pass: true, message: '[] [hi]' });
  });

  it('kills a script that outlives its timeout', async () => {
    const started = Date.now();
    const o = await run('exec', { script: 'sleep 5; echo late', timeout: '300ms' });
    expect(o).toMatchObject({ pass: false, error: 'timed out after 0.3s (timeout)' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("runs the script isolated: nobody, its own /proc, none of this process's environment", async () => {
    const o = await run('exec', {
      script: [
        'id -u',
        `test -e /proc/${process.pid} && echo "server visible" || echo "server hidden"`,
        // the parent's environment names: this process's before the sandbox, none now
        "tr '\\0' '\\n' < /proc/$PPID/environ | cut -d= -f1 | grep -c . || true",
      ].join('\n'),
    });
    expect(o).toMatchObject({ pass: true, message: '65534\nserver hidden\n0' });
  });

  it("cuts output past the sandbox's cap and says so; a memory hog fails", async () => {
    const small = engineWithSandbox(createSandbox({ limits: { maxOutputBytes: 1024, memoryBytes: 64 * 1024 * 1024 } }));
    const big = await run(
      'exec',
      { script: 'head -c 100000 /dev/zero | tr "\\0" a; exit 4', test: { expr: 'results.stdoutTruncated' } },
      small,
    );
    expect(big.pass).toBe(false);
    expect(big.error).toBe(`script exited with code 4: ${'a'.repeat(1024)} (output truncated)`);
    const ok = await run(
      'exec',
      {
        script: 'head -c 100000 /dev/zero | tr "\\0" a',
        test: { expr: 'results.stdoutTruncated && size(stdout) == 1024' },
      },
      small,
    );
    expect(ok).toMatchObject({ pass: true, detail: { stdoutTruncated: true, stderrTruncated: false } });
    const hog = await run('exec', { script: 'a=$(head -c 200000000 /dev/zero | tr "\\0" x); echo "${#a}"' }, small);
    expect(hog.pass).toBe(false);
    expect(hog.error).toMatch(/^script exited with code \d+: .*cannot allocate/);
  });

  it('refuses without isolation and does not run the script', async () => {
    const marker = join(dir, 'ran-bare');
    const none = engineWithSandbox(createSandbox({ bwrap: join(dir, 'no-bwrap') }));
    const o = await run('exec', { script: `touch ${marker}` }, none);
    expect(o.pass).toBe(false);
    expect(o.error).toMatch(/^script isolation unavailable: install bubblewrap/);
    expect(existsSync(marker)).toBe(false);
  });

  it('says which expression languages it does not run', async () => {
    const o = await run('exec', { script: 'true', test: { javascript: 'true' } });
    expect(o).toMatchObject({
      pass: false,
      error: 'test.javascript is not supported by this server; write the test as a CEL expression in test.expr',
    });
  });
});

describe('database and cache checks', () => {
  it('postgres: a query with the expected rows passes; a bad query, a wrong count and a refused port fail', async () => {
    const ok = await run('postgres', {
      url: PG_URL,
      query: 'SELECT 1 AS one, 2 AS two',
      results: 1,
      test: { expr: 'results.rows[0].two == 2' },
    });
    expect(ok).toMatchObject({ pass: true, message: 'query returned 1 row' });
    expect(
      await run('postgres', { url: PG_URL, query: 'SELECT * FROM generate_series(1, 3)', results: 1 }),
    ).toMatchObject({
      pass: false,
      error: 'query returned 3 rows, expected 1',
    });
    expect(await run('postgres', { url: PG_URL, query: 'SELECT * FROM no_such_table' })).toMatchObject({
      pass: false,
      error: 'query failed: relation "no_such_table" does not exist',
    });
    const port = await closedPort();
    expect(await run('postgres', { url: `postgres://postgres@127.0.0.1:${port}/postgres` })).toMatchObject({
      pass: false,
      error: 'cannot connect to PostgreSQL: connection refused: is the server running and listening there?',
    });
  });

  it('mysql (MariaDB): passes on a query, fails on a bad one and on a wrong user', async () => {
    expect(
      await run('mysql', { url: MYSQL_URL, query: 'SELECT 1 AS one', results: 1, test: { expr: 'rows[0].one == 1' } }),
    ).toMatchObject({ pass: true });
    const bad = await run('mysql', { url: MYSQL_URL, query: 'SELECT * FROM no_such_table' });
    expect(bad.pass).toBe(false);
    expect(bad.error).toMatch(/^query failed: Table 'test\.no_such_table' doesn't exist$/);
    const denied = await run('mysql', { url: 'mysql://nobody-here@127.0.0.1:3306/test' });
    expect(denied.pass).toBe(false);
    expect(denied.error).toMatch(/^cannot connect to MySQL: Access denied for user 'nobody-here'/);
  });

  it('redis: PING passes; a query with an unexpected reply and a refused port fail', async () => {
    expect(await run('redis', { addr: REDIS_ADDR, db: 0 })).toMatchObject({ pass: true, message: 'PING: PONG' });
    const key = `watchdeck:test:${Date.now()}`;
    expect(await run('redis', { addr: REDIS_ADDR, query: `SET ${key} green EX 60`, results: 'OK' })).toMatchObject({
      pass: true,
    });
    expect(await run('redis', { addr: REDIS_ADDR, query: `GET ${key}`, results: 'green' })).toMatchObject({
      pass: true,
      message: 'GET: green',
    });
    expect(await run('redis', { addr: REDIS_ADDR, query: `GET ${key}`, results: 'blue' })).toMatchObject({
      pass: false,
      error: `GET ${key} answered green, expected blue`,
    });
    const port = await closedPort();
    expect(await run('redis', { addr: `127.0.0.1:${port}` })).toMatchObject({
      pass: false,
      error: `cannot connect to Redis at 127.0.0.1:${port}: connection refused`,
    });
  });
});

describe('prometheus and alertmanager checks (their HTTP APIs served locally)', () => {
  it("prometheus: the result reaches the test; a rejected query fails with Prometheus' reason", async () => {
    const host = `${web.url}/prometheus`;
    expect(
      await run('prometheus', {
        host,
        query: 'sum(rate(errors[5m]))',
        test: { expr: 'results[0].value < 0.01 && results[0].service == "payments"' },
      }),
    ).toMatchObject({ pass: true });
    expect(
      await run('prometheus', { host, query: 'sum(rate(errors[5m]))', test: { expr: 'results[0].value < 0.001' } }),
    ).toMatchObject({ pass: false });
    expect(await run('prometheus', { host, query: 'bad(' })).toMatchObject({
      pass: false,
      error: 'Prometheus answered 400: parse error at char 5: unclosed left parenthesis',
    });
  });

  it('alertmanager: every firing alert becomes a failing child check; ignored names are dropped', async () => {
    state.alerts = [
      {
        labels: { alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-1' },
        annotations: { summary: 'api-1 restarts' },
        startsAt: '2026-11-23T10:00:00Z',
      },
      { labels: { alertname: 'Watchdog' }, annotations: { summary: 'always firing' } },
    ];
    const o = await run('alertmanager', { host: `${web.url}/alertmanager`, ignore: ['Watch*'] });
    expect(o).toMatchObject({ pass: true, message: '1 alert firing' });
    expect(o.children).toEqual([
      expect.objectContaining({
        name: 'KubePodCrashLooping payments/api-1',
        pass: false,
        message: 'api-1 restarts',
        labels: { namespace: 'payments', pod: 'api-1' },
      }),
    ]);
    const port = await closedPort();
    expect(await run('alertmanager', { host: `http://127.0.0.1:${port}` })).toMatchObject({
      pass: false,
      error: `Alertmanager at 127.0.0.1:${port} refused the connection`,
    });
  });
});

describe('folder check', () => {
  it('passes with fresh files within the limits; fails when the newest file is too old or too few exist', async () => {
    writeFileSync(join(dir, 'backup-1.tar'), 'x'.repeat(2048));
    writeFileSync(join(dir, 'backup-2.tar'), 'x'.repeat(1024));
    writeFileSync(join(dir, 'notes.txt'), 'ignore me');
    const old = Date.now() / 1000 - 3 * 86_400;
    utimesSync(join(dir, 'backup-1.tar'), old, old);
    const ok = await run('folder', {
      path: dir,
      filter: { regex: '\\.tar$' },
      minCount: 2,
      maxAge: '1h',
      minSize: '2Ki',
      availableSize: '1Mi',
    });
    expect(ok.pass).toBe(true);
    expect(ok.message).toMatch(/^2 files, 3\.0KiB, newest backup-2\.tar/);
    utimesSync(join(dir, 'backup-2.tar'), old, old);
    const stale = await run('folder', { path: dir, filter: { regex: '\\.tar$' }, maxAge: '1h' });
    expect(stale).toMatchObject({ pass: false });
    expect(stale.error).toMatch(/^the newest file backup-[12]\.tar is 3\.0d old, older than maxAge 1h$/);
    expect(await run('folder', { path: dir, filter: { regex: '\\.tar$' }, minCount: 5 })).toMatchObject({
      pass: false,
      error: `${dir} has 2 files, expected at least 5`,
    });
    expect(await run('folder', { path: join(dir, 'nope') })).toMatchObject({
      pass: false,
      error: `folder ${join(dir, 'nope')} does not exist`,
    });
  });
});

describe('connections by name', () => {
  for (const driver of testDrivers()) {
    it(`postgres and redis checks use a stored connection, secrets decrypted (${driver.name})`, async () => {
      const db = await driver.open();
      const box = new SecretBox('test-secret-key-for-health');
      await db.query(
        `INSERT INTO connections (name, namespace, type, url, username, password) VALUES
           ('orders-db', 'data', 'postgres', $1, 'postgres', $2),
           ('cache', 'default', 'redis', 'redis://127.0.0.1:6379', NULL, NULL)`,
        [box.encrypt(PG_URL), box.encrypt('not-needed-with-trust-auth')],
      );
      const e = engineWith(connectionResolver(db, box));
      expect(await run('postgres', { connection: 'connection://data/orders-db', query: 'SELECT 1' }, e)).toMatchObject({
        pass: true,
      });
      expect(await run('redis', { connection: 'cache' }, e)).toMatchObject({ pass: true });
      expect(await run('postgres', { connection: 'data/missing' }, e)).toMatchObject({
        pass: false,
        error: 'connection data/missing not found: create it under Settings > Connections',
      });
      await db.dispose();
    });
  }
});
