/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser, csrfOf, startLoggedApp, type TestApp } from './support.ts';

/**
 * Browser protections (issue 12 point 7): a page on another site cannot make a signed-in
 * browser (or anyone's browser when sign-in is off) change anything, and the console cannot be
 * framed. Requests are made over HTTP as a browser would send them: a cross-site form post
 * carries the cookie, a foreign Origin and a form content type; a body-less POST may carry no
 * content type at all.
 */

const PASSWORD = 'browser protections test';
const EVIL = 'https://evil.example';
const NOWHERE = '7e57e57e-0000-4000-8000-000000000000';

/** A raw request with the browser's cookies and exactly the headers given (no Origin added). */
async function raw(b: Browser, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(b.base + path, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    body,
    redirect: 'manual',
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const REFUSED = {
  message: 'Cross-site request refused: send it from this site (Origin) or with Content-Type: application/json',
};

for (const driver of testDrivers()) {
  describe(`browser protections (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let admin: Browser;
    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db);
      await createIdentity(db, {
        traits: { email: 'root@example.com', name: { first: 'Root', last: 'Admin' } },
        roles: ['admin'],
        password: PASSWORD,
      });
      admin = new Browser(t.url);
      expect((await admin.login('root@example.com', PASSWORD)).status).toBe(200);
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('refuses cross-site form posts and body-less posts: sign-out, run check, connection test, /api/db', async () => {
      // sign-out from another site's form, and a body-less POST without an Origin
      expect(await raw(admin, 'POST', '/api/auth/logout', { ...FORM, origin: EVIL }, 'x=1')).toMatchObject({
        status: 403,
        body: REFUSED,
      });
      expect((await raw(admin, 'POST', '/api/auth/logout')).status).toBe(403);
      expect((await admin.get('/api/auth/whoami')).status).toBe(200); // still signed in

      // run check and connection test (body-less), a token delete, a write through /api/db
      for (const path of [`/api/canary/run/check/${NOWHERE}`, `/api/connection/test/${NOWHERE}`]) {
        expect((await raw(admin, 'POST', path, { origin: EVIL })).status, path).toBe(403);
        expect((await raw(admin, 'POST', path, { 'content-type': 'text/plain' }, 'x')).status, path).toBe(403);
      }
      const token = await admin.post('/api/auth/tokens', { name: 'kept' });
      expect(token.status).toBe(201);
      expect((await raw(admin, 'DELETE', `/api/auth/tokens/${token.body.id}`, { origin: EVIL })).status).toBe(403);
      expect((await admin.get('/api/auth/tokens')).body.map((x: any) => x.id)).toContain(token.body.id);
      const forged = await raw(admin, 'POST', '/api/db/teams', { 'content-type': 'text/plain' }, '{"name":"csrf"}');
      expect(forged).toMatchObject({ status: 403, body: REFUSED });
      // a JSON body with a foreign Origin (a misconfigured CORS proxy, a browser bug) is refused too
      const foreignJson = await raw(
        admin,
        'POST',
        '/api/db/teams',
        { 'content-type': 'application/json', origin: EVIL },
        '{"name":"csrf"}',
      );
      expect(foreignJson.status).toBe(403);
      expect((await db.query(`SELECT 1 FROM teams WHERE name = 'csrf'`)).rows).toEqual([]);
    });

    it('lets the web app through: its own Origin, or JSON without one', async () => {
      const own = new URL(t.url).origin;
      expect((await raw(admin, 'POST', `/api/canary/run/check/not-a-uuid`, { origin: own })).status).toBe(400);
      const json = await raw(
        admin,
        'POST',
        '/api/db/teams',
        { 'content-type': 'application/json', prefer: 'return=representation' },
        '{"name":"web app"}',
      );
      expect(json.status).toBe(201);
      const del = await raw(admin, 'DELETE', `/api/db/teams?id=eq.${json.body[0].id}`, { origin: own });
      expect(del.status).toBe(204);
      // the browser helper sends its Origin like a browser: sign-out works
      const other = new Browser(t.url);
      expect((await other.login('root@example.com', PASSWORD)).status).toBe(200);
      expect((await other.post('/api/auth/logout')).status).toBe(204);
      expect((await other.get('/api/auth/whoami')).status).toBe(401);
      // a script without a token marks its body-less write as JSON (an empty JSON body is no body)
      const tok = await admin.post('/api/auth/tokens', { name: 'to revoke' });
      const revoke = await raw(admin, 'DELETE', `/api/auth/tokens/${tok.body.id}`, {
        'content-type': 'application/json',
      });
      expect(revoke.status).toBe(204);
      // a malformed JSON body is still a 400
      expect((await raw(admin, 'POST', '/api/auth/tokens', { 'content-type': 'application/json' }, '{')).status).toBe(
        400,
      );
    });

    it('does not ask bearer-token callers, and keeps the identity flows form posts working', async () => {
      const token = (await admin.post('/api/auth/tokens', { name: 'script' })).body.token as string;
      const res = await fetch(`${t.url}/api/connection/test/${NOWHERE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: EVIL },
      });
      expect(res.status).toBe(404); // reached the route: no such connection

      // a login form posted without JavaScript: urlencoded, no Origin, with the flow's CSRF token
      const b = new Browser(t.url);
      const flow = await b.flow('login');
      const form = new URLSearchParams({
        csrf_token: csrfOf(flow),
        method: 'password',
        identifier: 'root@example.com',
        password: PASSWORD,
      });
      const posted = await raw(b, 'POST', `/api/auth/self-service/login?flow=${flow.id}`, FORM, form.toString());
      expect(posted.status).toBe(200);
      expect(posted.headers.getSetCookie().some((c) => c.startsWith('watchdeck_session='))).toBe(true);
      // ... and a forged one (no token) is still refused by the flow's own CSRF check
      const forged = await raw(
        new Browser(t.url),
        'POST',
        `/api/auth/self-service/login?flow=${flow.id}`,
        { ...FORM, origin: EVIL },
        'method=password&identifier=root@example.com&password=x',
      );
      expect(forged.status).toBe(403);
    });

    it('forbids framing and sniffing and trims referrers on every answer', async () => {
      for (const [method, path] of [
        ['GET', '/api/about'],
        ['GET', '/api/no/such/route?x=1'],
        ['GET', '/api/auth/whoami'],
        ['POST', '/api/auth/logout'], // refused by the CSRF check
      ]) {
        const r = await raw(new Browser(t.url), method, path);
        expect(r.headers.get('x-frame-options'), path).toBe('DENY');
        expect(r.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'");
        expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(r.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      }
    });
  });

  describe(`browser protections with sign-in off and framing allowed (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authMode: 'none', frameAncestors: "'self' https://wiki.example.com" });
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('refuses cross-site writes even though no cookie is involved', async () => {
      const b = new Browser(t.url);
      expect((await raw(b, 'POST', `/api/canary/run/check/${NOWHERE}`, { ...FORM, origin: EVIL }, 'a=1')).status).toBe(
        403,
      );
      expect((await raw(b, 'POST', `/api/canary/run/check/${NOWHERE}`, { origin: new URL(t.url).origin })).status).toBe(
        404,
      );
    });

    it('names the allowed framers in the CSP and drops X-Frame-Options', async () => {
      const r = await raw(new Browser(t.url), 'GET', '/api/about');
      expect(r.headers.get('content-security-policy')).toBe("frame-ancestors 'self' https://wiki.example.com");
      expect(r.headers.get('x-frame-options')).toBeNull();
    });
  });
}
