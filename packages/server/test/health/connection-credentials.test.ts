import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { HealthEngine } from '#server/health/engine.ts';
import { connectionResolver } from '#server/health/connections.ts';
import type { CheckDef } from '#server/health/spec.ts';
import { SecretBox } from '#server/connections/secret-box.ts';
import { httpCall } from '#server/connections/http-call.ts';
import { testDrivers } from '../support/db.ts';

/**
 * Issue 12 point 2: a check that names a connection but sends its request to a URL of its own
 * must not carry the connection's username and password there. Two real listeners on loopback:
 * "home" is the connection's own host, "elsewhere" a second port (another origin). Each records
 * what arrived; the credentials must reach home only.
 */
interface Listener {
  url: string;
  port: number;
  seen: string[];
  close(): Promise<void>;
}

/** Records each request's Authorization header (or the raw first bytes for non-HTTP clients). */
async function httpListener(): Promise<Listener> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (req.headers['private-token']) seen.push(`token ${String(req.headers['private-token'])}`);
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: new URL(req.url, 'http://x').searchParams.get('to') ?? '/' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A TCP listener that keeps whatever a client sends (a PostgreSQL startup packet names its user). */
async function rawListener(): Promise<Listener> {
  const seen: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('data', (d) => {
      seen.push(d.toString('latin1'));
      socket.destroy();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `127.0.0.1:${port}`, port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

let home: Listener;
let elsewhere: Listener;
let pgTrap: Listener;
beforeAll(async () => {
  [home, elsewhere, pgTrap] = await Promise.all([httpListener(), httpListener(), rawListener()]);
});
afterAll(async () => {
  await Promise.all([home, elsewhere, pgTrap].map((l) => l?.close()));
});

describe('a connection lends its credentials only to its own host', () => {
  for (const driver of testDrivers()) {
    it(`http and prometheus checks (${driver.name})`, async () => {
      const db = await driver.open();
      const box = new SecretBox('test-secret-key-for-credentials');
      await db.query(
        `INSERT INTO connections (name, namespace, type, url, username, password) VALUES
           ('api', 'default', 'http', $1, 'svc', $2)`,
        [box.encrypt(`${home.url}/`), box.encrypt('s3cret-http')],
      );
      const engine = new HealthEngine(undefined as never, connectionResolver(db, box), { defaultTimeoutMs: 3000 });
      const run = async (type: string, spec: Record<string, unknown>) =>
        (await engine.execute({ type, name: `${type} test`, spec } as CheckDef)).outcome;
      try {
        // The connection's own URL, and an override on the same origin (another path): credentials go.
        home.seen.length = 0;
        expect(await run('http', { connection: 'api' })).toMatchObject({ pass: true });
        expect(await run('http', { connection: 'api', url: `${home.url}/other/path` })).toMatchObject({ pass: true });
        expect(home.seen).toEqual([basic('svc', 's3cret-http'), basic('svc', 's3cret-http')]);

        // Another port is another origin: the request goes, the connection's credentials do not.
        elsewhere.seen.length = 0;
        expect(await run('http', { connection: 'api', url: `${elsewhere.url}/steal` })).toMatchObject({ pass: true });
        expect(await run('prometheus', { connection: 'api', host: elsewhere.url, query: 'up' })).toMatchObject({
          pass: true,
        });
        expect(await run('prometheus', { connection: 'api', url: elsewhere.url, query: 'up' })).toMatchObject({
          pass: true,
        });
        expect(elsewhere.seen).toEqual(['', '', '']);
        // The spec's own credentials still apply to its own URL.
        elsewhere.seen.length = 0;
        await run('http', {
          connection: 'api',
          url: `${elsewhere.url}/x`,
          authentication: { username: 'own', password: 'mine' },
        });
        expect(elsewhere.seen).toEqual([basic('own', 'mine')]);
        // Same host name, other scheme (https): another origin too.
        expect(await run('http', { connection: 'api', url: home.url.replace('http:', 'https:') })).toMatchObject({
          pass: false,
        });
      } finally {
        await db.dispose();
      }
    });
  }

  it('postgres and redis checks: a url or addr of another host gets no connection user or password', async () => {
    const db = await testDrivers()[0].open();
    const box = new SecretBox('test-secret-key-for-credentials');
    await db.query(
      `INSERT INTO connections (name, namespace, type, url, username, password) VALUES
         ('orders-db', 'default', 'postgres', $1, 'orders_owner', $2),
         ('cache', 'default', 'redis', 'redis://127.0.0.1:1', 'cache_user', $3)`,
      [box.encrypt('postgres://127.0.0.1:1/orders'), box.encrypt('s3cret-pg'), box.encrypt('s3cret-redis')],
    );
    const engine = new HealthEngine(undefined as never, connectionResolver(db, box), { defaultTimeoutMs: 3000 });
    try {
      // sql: target() with a url of another host must not put the connection's user/password in it.
      pgTrap.seen.length = 0;
      await engine.execute({
        type: 'postgres',
        name: 'pg',
        spec: { connection: 'orders-db', url: `postgres://${pgTrap.url}/orders` },
      } as CheckDef);
      expect(pgTrap.seen.join('')).toMatch(/user/);
      expect(pgTrap.seen.join('')).not.toContain('orders_owner');
      pgTrap.seen.length = 0;
      await engine.execute({
        type: 'redis',
        name: 'redis',
        spec: { connection: 'cache', url: `redis://${pgTrap.url}` },
      } as CheckDef);
      expect(pgTrap.seen.join('')).not.toMatch(/cache_user|s3cret-redis/);
    } finally {
      await db.dispose();
    }
  });

  it('postgres and redis checks: the same host (the connection itself) gets the connection user', async () => {
    const db = await testDrivers()[0].open();
    const box = new SecretBox('test-secret-key-for-credentials');
    await db.query(
      `INSERT INTO connections (name, namespace, type, url, username, password) VALUES
         ('trap', 'default', 'postgres', $1, 'orders_owner', $2),
         ('cache', 'default', 'redis', $3, 'cache_user', $4)`,
      [
        box.encrypt(`postgres://${pgTrap.url}/orders`),
        box.encrypt('s3cret-pg'),
        box.encrypt(`redis://${pgTrap.url}`),
        box.encrypt('s3cret-redis'),
      ],
    );
    const engine = new HealthEngine(undefined as never, connectionResolver(db, box), { defaultTimeoutMs: 3000 });
    try {
      pgTrap.seen.length = 0;
      await engine.execute({ type: 'postgres', name: 'pg', spec: { connection: 'trap' } } as CheckDef);
      expect(pgTrap.seen.join('')).toContain('orders_owner');
      pgTrap.seen.length = 0;
      // postgresql:// with the default-less port spelled out is the same origin
      await engine.execute({
        type: 'postgres',
        name: 'pg',
        spec: { connection: 'trap', url: `postgresql://${pgTrap.url}/other` },
      } as CheckDef);
      expect(pgTrap.seen.join('')).toContain('orders_owner');
      pgTrap.seen.length = 0;
      await engine.execute({
        type: 'redis',
        name: 'redis',
        spec: { connection: 'cache', addr: pgTrap.url },
      } as CheckDef);
      expect(pgTrap.seen.join('')).toMatch(/cache_user[\s\S]*s3cret-redis/);
    } finally {
      await db.dispose();
    }
  });
});

describe('connection tests follow redirects without credentials to another host', () => {
  it('drops the token headers when a redirect leaves the origin, keeps them on the same origin', async () => {
    home.seen.length = 0;
    elsewhere.seen.length = 0;
    const auth = { Authorization: basic('svc', 'pw'), 'PRIVATE-TOKEN': 'tok' };
    await httpCall(`${home.url}/redirect?to=${encodeURIComponent(`${elsewhere.url}/x`)}`, {
      timeoutMs: 3000,
      headers: auth,
    });
    await httpCall(`${home.url}/redirect?to=${encodeURIComponent(`${home.url}/y`)}`, {
      timeoutMs: 3000,
      headers: auth,
    });
    expect(elsewhere.seen).toEqual(['']);
    const withToken = [basic('svc', 'pw'), 'token tok'];
    expect(home.seen).toEqual([...withToken, ...withToken, ...withToken]);
  });
});
