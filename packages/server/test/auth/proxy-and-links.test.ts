/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { LOGIN_FAILURE_LIMIT } from '#server/auth/login-throttle.ts';
import type { Config } from '#server/config.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

/**
 * Behind a reverse proxy (issue 12 point 9) and where links come from (point 16), over HTTP:
 *   - WATCHDECK_TRUST_PROXY makes the forwarded client address count for the sign-in rate limit
 *     and the password lockout, and the forwarded protocol for the cookie's Secure flag and for
 *     links; unset, forwarded headers are ignored (a client cannot pick its own budget);
 *   - links in invitations come from WATCHDECK_PUBLIC_URL, else from an allowed host, else
 *     http://localhost:PORT with a warning: never from a Host header someone made up;
 *   - tokens and flow ids in URLs do not reach the request log.
 */

const PASSWORD = 'proxy test passphrase';

/** node:http, because fetch will not send a Host header of our choosing. */
function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }> {
  const u = new URL(base);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        method,
        path,
        headers: {
          accept: 'application/json',
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed: any = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const cookieOf = (b: Browser) => [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

for (const driver of testDrivers()) {
  describe(`behind a reverse proxy, links and the request log (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    const apps: TestApp[] = [];
    const start = async (overrides: Partial<Config>) => {
      const t = await startLoggedApp(db, overrides);
      apps.push(t);
      return t;
    };
    beforeAll(async () => {
      db = await driver.open();
      await createIdentity(db, {
        traits: { email: 'root@proxy.test', name: { first: 'Root', last: 'Admin' } },
        roles: ['admin'],
        password: PASSWORD,
      });
      for (const who of ['ann', 'ben'])
        await createIdentity(db, {
          traits: { email: `${who}@proxy.test`, name: { first: who, last: 'User' } },
          roles: ['viewer'],
          password: PASSWORD,
        });
    });
    afterAll(async () => {
      for (const t of apps) await t.app.close();
      await db?.dispose();
    });

    const submitLogin = async (b: Browser, identifier: string, password: string, headers: Record<string, string>) => {
      const f = await b.flow('login');
      const csrf = f.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token').attributes.value;
      return b.post(
        `/api/auth/self-service/login?flow=${f.id}`,
        { csrf_token: csrf, method: 'password', identifier, password },
        headers,
      );
    };

    it('trusted: each forwarded client has its own sign-in budget and lockout; https makes the cookie Secure', async () => {
      const t = await start({ trustProxy: ['127.0.0.1'], authRateLimit: 3 });
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const b = new Browser(t.url);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await submitLogin(b, `x${i}@proxy.test`, 'wrong wrong', from('203.0.113.1'))).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      // another client behind the same proxy still has its budget
      expect((await submitLogin(new Browser(t.url), 'x@proxy.test', 'wrong wrong', from('203.0.113.2'))).status).toBe(
        400,
      );

      // the forwarded protocol decides the cookie's Secure flag
      const viaHttps = new Browser(t.url);
      const ok = await submitLogin(viaHttps, 'ann@proxy.test', PASSWORD, {
        ...from('203.0.113.3'),
        'x-forwarded-proto': 'https',
      });
      expect(ok.status).toBe(200);
      const cookie = viaHttps.setCookieLines.find((l) => l.startsWith('watchdeck_session='))!;
      expect(cookie).toMatch(/;\s*Secure/i);
      // the request log names the forwarded client
      expect(t.logs.join('\n')).toContain('"remoteAddress":"203.0.113.3"');
    });

    it('trusted: the password lockout is per forwarded client', async () => {
      const t = await start({ trustProxy: true, authRateLimit: 1000 });
      const b = new Browser(t.url);
      const attacker = { 'x-forwarded-for': '198.51.100.66' };
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++)
        expect((await submitLogin(b, 'ben@proxy.test', `guess ${i} wrong`, attacker)).status).toBe(400);
      expect((await submitLogin(b, 'ben@proxy.test', PASSWORD, attacker)).status).toBe(429);
      // ben himself, from his own address behind the proxy, is not locked out
      const ben = await submitLogin(new Browser(t.url), 'ben@proxy.test', PASSWORD, {
        'x-forwarded-for': '198.51.100.7',
      });
      expect(ben.status).toBe(200);
      await db.query(`DELETE FROM identity_login_failures`);
    });

    it('a hop count or a proxy list decides which forwarded address counts', async () => {
      const hops = await start({ trustProxy: 1 });
      await call(hops.url, 'GET', '/api/about', { 'x-forwarded-for': '192.0.2.1, 192.0.2.2' });
      expect(hops.logs.join('\n')).toContain('"remoteAddress":"192.0.2.2"');
      const other = await start({ trustProxy: ['10.0.0.0/8'] }); // our peer, 127.0.0.1, is not a trusted proxy
      await call(other.url, 'GET', '/api/about', { 'x-forwarded-for': '192.0.2.9' });
      const lines = other.logs.join('\n');
      expect(lines).not.toContain('192.0.2.9');
      expect(lines).toContain('"remoteAddress":"127.0.0.1"');
    });

    it('untrusted (the default): forwarded headers change nothing', async () => {
      const t = await start({ authRateLimit: 2 });
      const b = new Browser(t.url);
      const s1 = await submitLogin(b, 'y1@proxy.test', 'wrong wrong', { 'x-forwarded-for': '203.0.113.10' });
      const s2 = await submitLogin(b, 'y2@proxy.test', 'wrong wrong', { 'x-forwarded-for': '203.0.113.11' });
      const s3 = await submitLogin(b, 'y3@proxy.test', 'wrong wrong', { 'x-forwarded-for': '203.0.113.12' });
      expect([s1.status, s2.status, s3.status]).toEqual([400, 400, 429]);
      const c = await start({ authRateLimit: 100 });
      const viaHttps = new Browser(c.url);
      expect((await submitLogin(viaHttps, 'ann@proxy.test', PASSWORD, { 'x-forwarded-proto': 'https' })).status).toBe(
        200,
      );
      expect(viaHttps.setCookieLines.find((l) => l.startsWith('watchdeck_session='))).not.toMatch(/Secure/i);
    });

    /** An admin session on app t, and an invitation made with the given headers (Host included). */
    const invite = async (t: TestApp, email: string, headers: Record<string, string>) => {
      const admin = new Browser(t.url);
      expect((await admin.login('root@proxy.test', PASSWORD)).status).toBe(200);
      const r = await call(
        t.url,
        'POST',
        '/api/auth/invite_user',
        { cookie: cookieOf(admin), ...headers },
        { firstName: 'In', lastName: 'Vited', email, role: 'viewer' },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.link as string;
    };

    it('builds invitation links from the public URL, an allowed host, or localhost: never from a made-up Host', async () => {
      const plain = await start({});
      const poisoned = await invite(plain, 'i1@proxy.test', { host: 'evil.example' });
      expect(poisoned).toMatch(/^http:\/\/localhost:8080\/api\/auth\/self-service\/recovery\?flow=/);
      expect(plain.logs.join('\n')).toMatch(/set WATCHDECK_PUBLIC_URL/);

      const listed = await start({ allowedHosts: ['ops.example.com'] });
      expect(await invite(listed, 'i2@proxy.test', { host: 'ops.example.com:8443' })).toMatch(
        /^http:\/\/ops\.example\.com:8443\/api\/auth\//,
      );
      expect(await invite(listed, 'i3@proxy.test', { host: 'evil.example' })).toMatch(/^http:\/\/localhost:8080\//);

      // behind a trusted proxy: the forwarded host (if allowed) and protocol
      const proxied = await start({ allowedHosts: ['ops.example.com'], trustProxy: true });
      expect(
        await invite(proxied, 'i4@proxy.test', { 'x-forwarded-host': 'ops.example.com', 'x-forwarded-proto': 'https' }),
      ).toMatch(/^https:\/\/ops\.example\.com\/api\/auth\//);
      expect(
        await invite(proxied, 'i5@proxy.test', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }),
      ).toMatch(/^http:\/\/localhost:8080\//);

      const pub = await start({ publicUrl: 'https://ops.example.com/console', allowedHosts: ['other.example'] });
      expect(await invite(pub, 'i6@proxy.test', { host: 'other.example' })).toMatch(
        /^https:\/\/ops\.example\.com\/console\/api\/auth\//,
      );
    });

    it('keeps tokens and flow ids in URLs out of the request log', async () => {
      const t = await start({ allowedHosts: ['127.0.0.1'] });
      const link = await invite(t, 'i7@proxy.test', {});
      const u = new URL(link);
      const token = u.searchParams.get('token')!;
      const flowId = u.searchParams.get('flow')!;
      expect((await new Browser(t.url).get(u.pathname + u.search)).status).toBe(303);
      const login = await new Browser(t.url).flow('login');
      await new Browser(t.url).get(`/api/auth/self-service/login/flows?id=${login.id}`);
      await new Browser(t.url).get(`/api/auth/self-service/logout?token=secret-logout-token&return_to=/x`);
      await new Browser(t.url).get(`/api/nothing/here?token=unrouted-secret&page=2`);
      const logs = t.logs.join('\n');
      expect(logs).toContain('/api/auth/self-service/recovery?flow=[REDACTED]&token=[REDACTED]');
      for (const secret of [token, flowId, login.id, 'secret-logout-token', 'unrouted-secret'])
        expect(logs, secret).not.toContain(secret);
      expect(logs).toContain('return_to=/x'); // other parameters stay readable
    });
  });
}
