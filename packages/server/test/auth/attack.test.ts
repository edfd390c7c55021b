/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { exposedTables } from '#server/db/exposed.ts';
import { LOGIN_FAILURE_LIMIT } from '#server/auth/login-throttle.ts';
import { Browser, csrfOf, startLoggedApp, type TestApp } from './support.ts';

/**
 * What an attacker would try against sign-in and sessions, each answered with a clear status and
 * message: forged or missing CSRF tokens, replayed and expired flows, password guessing, session
 * fixation, and fishing for an access token after it was shown.
 */

const PASSWORD = 'attack test passphrase';
const SESSION = 'watchdeck_session';
const CSRF = 'watchdeck_csrf';
const NOWHERE = '7e57e57e-0000-4000-8000-000000000000';

/** A second browser holding copies of some of another's cookies (what a thief would have). */
function cloneWith(b: Browser, names: string[]): Browser {
  const c = new Browser(b.base);
  for (const n of names) if (b.cookies.has(n)) c.cookies.set(n, b.cookies.get(n)!);
  return c;
}

for (const driver of testDrivers()) {
  describe(`attacks on sign-in and sessions (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;

    const person = async (email: string, roles = ['viewer']) =>
      createIdentity(db, { traits: { email, name: { first: 'A', last: 'Target' } }, roles, password: PASSWORD });

    beforeAll(async () => {
      db = await driver.open();
      // the per-address flood brake has its own test below; here it would only get in the way
      t = await startLoggedApp(db, { authRateLimit: 10_000, allowedHosts: ['127.0.0.1'] });
      await person('alice@attack.test', ['admin']);
      await person('bob@attack.test');
      await person('carol@attack.test');
      await person('dave@attack.test');
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    describe('CSRF', () => {
      const creds = { method: 'password', identifier: 'bob@attack.test', password: PASSWORD };
      const violation = (r: any) => {
        expect(r.status).toBe(403);
        expect(r.body.error).toMatchObject({
          id: 'security_csrf_violation',
          code: 403,
          message: 'A security violation was detected, please fill out the form again.',
        });
        expect(r.headers.getSetCookie().some((c: string) => c.startsWith(`${SESSION}=`))).toBe(false);
      };

      it('refuses a forged token, a missing token and the token of another flow', async () => {
        const b = new Browser(t.url);
        const flow = await b.flow('login');
        const other = await b.flow('login');
        violation(await b.post(`/api/auth/self-service/login?flow=${flow.id}`, { ...creds, csrf_token: 'forged' }));
        violation(await b.post(`/api/auth/self-service/login?flow=${flow.id}`, creds));
        violation(
          await b.post(`/api/auth/self-service/login?flow=${flow.id}`, { ...creds, csrf_token: csrfOf(other) }),
        );
        expect(b.cookies.has(SESSION)).toBe(false);
        // the flow itself is still good for its own token
        expect((await b.submit('login', flow, creds)).status).toBe(200);
      });

      it('refuses the right token from a browser without the flow cookie, or with another one', async () => {
        const victim = new Browser(t.url);
        const flow = await victim.flow('login');
        violation(await new Browser(t.url).submit('login', flow, creds)); // no cookie at all
        const attacker = new Browser(t.url);
        await attacker.flow('login'); // has a CSRF cookie of its own
        violation(await attacker.submit('login', flow, creds));
        // nor can the attacker read the victim's flow to learn its token
        expect((await attacker.get(`/api/auth/self-service/login/flows?id=${flow.id}`)).status).toBe(403);
      });

      it('keeps the CSRF cookie HttpOnly, SameSite=Lax and scoped to /api/auth', async () => {
        const b = new Browser(t.url);
        await b.flow('login');
        const line = b.setCookieLines.find((l) => l.startsWith(`${CSRF}=`))!;
        expect(line).toMatch(/HttpOnly/i);
        expect(line).toMatch(/SameSite=Lax/i);
        expect(line).toMatch(/Path=\/api\/auth/i);
      });
    });

    describe('replayed and expired flows', () => {
      it('signs in once per login flow: replaying the same submission mints no second session', async () => {
        const b = new Browser(t.url);
        const flow = await b.flow('login');
        const values = { method: 'password', identifier: 'carol@attack.test', password: PASSWORD };
        const ok = await b.submit('login', flow, values);
        expect(ok.status).toBe(200);
        // someone who captured the request and the CSRF cookie (but not the new session) replays it
        const replayer = cloneWith(b, [CSRF]);
        const replay = await replayer.submit('login', flow, values);
        expect(replay.status).toBe(410);
        expect(replay.body.error).toMatchObject({
          id: 'self_service_flow_expired',
          message: 'Your interaction expired, please fill out the form again.',
        });
        expect(replayer.cookies.has(SESSION)).toBe(false);
        expect((await replayer.get('/api/auth/whoami')).status).toBe(401);
        // the legitimate session is untouched; one session exists
        expect((await b.get('/api/auth/whoami')).status).toBe(200);
        const sessions = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM identity_sessions s JOIN identities i ON i.id = s.identity_id
            WHERE i.traits->>'email' = 'carol@attack.test' AND s.active`,
        );
        expect(sessions.rows[0].n).toBe(1);
      });

      it('answers 410 with a fresh flow for an expired one, and never signs in through it', async () => {
        const b = new Browser(t.url);
        const flow = await b.flow('login');
        await db.query(`UPDATE identity_flows SET expires_at = now() - interval '1 second' WHERE id = $1`, [flow.id]);
        const r = await b.submit('login', flow, {
          method: 'password',
          identifier: 'carol@attack.test',
          password: PASSWORD,
        });
        expect(r.status).toBe(410);
        expect(r.body.error.id).toBe('self_service_flow_expired');
        expect(r.body.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
        expect(r.body.use_flow_id).not.toBe(flow.id);
        expect(b.cookies.has(SESSION)).toBe(false);
      });

      it('uses an invitation link once; a replay answers 410 and signs nobody in', async () => {
        const admin = new Browser(t.url);
        expect((await admin.login('alice@attack.test', PASSWORD)).status).toBe(200);
        const inv = await admin.post('/api/auth/invite_user', {
          firstName: 'Ina',
          lastName: 'Vited',
          email: 'ina@attack.test',
          role: 'viewer',
        });
        expect(inv.status).toBe(201);
        const link = inv.body.link.slice(t.url.length);
        const first = new Browser(t.url);
        expect((await first.get(link)).status).toBe(303);
        const again = new Browser(t.url);
        const replay = await again.get(link);
        expect(replay.status).toBe(410);
        expect(again.cookies.has(SESSION)).toBe(false);
      });

      it('refuses an expired session and an expired access token (401)', async () => {
        const b = new Browser(t.url);
        expect((await b.login('dave@attack.test', PASSWORD)).status).toBe(200);
        const token = (await b.post('/api/auth/tokens', { name: 'short' })).body.token as string;
        await db.query(
          `UPDATE identity_sessions SET expires_at = now() - interval '1 second'
            WHERE identity_id = (SELECT id FROM identities WHERE traits->>'email' = 'dave@attack.test')`,
        );
        // changed behind the server's back: a session's caller may be cached for a moment
        await expect.poll(async () => (await b.get('/api/auth/whoami')).status, { timeout: 3000 }).toBe(401);
        await db.query(`UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE name = 'short'`);
        const r = await new Browser(t.url).get('/api/auth/whoami', { authorization: `Bearer ${token}` });
        expect(r.status).toBe(401);
        expect(r.body.message).toMatch(/Authentication required/);
      });
    });

    describe('password guessing', () => {
      const guess = (b: Browser, identifier: string, password: string) =>
        b.flow('login').then((f) => b.submit('login', f, { method: 'password', identifier, password }));

      it(`locks one identifier after ${LOGIN_FAILURE_LIMIT} wrong passwords from one address, with 429 and Retry-After`, async () => {
        await person('erin@attack.test');
        const b = new Browser(t.url);
        for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
          const r = await guess(b, 'erin@attack.test', `wrong guess ${i}`);
          expect(r.status, `guess ${i + 1}`).toBe(400);
          expect(r.body.ui.messages[0].id).toBe(4000006);
        }
        const locked = await guess(b, 'Erin@Attack.test ', 'wrong again'); // case and spaces do not help
        expect(locked.status).toBe(429);
        expect(locked.body.error).toMatchObject({ id: 'too_many_attempts', code: 429, status: 'Too Many Requests' });
        expect(locked.body.message).toBe(
          'Too many failed sign-in attempts. Please wait a few minutes before trying again.',
        );
        const retryAfter = Number(locked.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
        expect(locked.body.error.details.retry_after_seconds).toBe(retryAfter);
        expect(locked.body.error.reason).toBe(
          `Too many failed sign-in attempts: try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
        );
        // even the right password is refused while locked: the brake does not check it
        const right = await guess(b, 'erin@attack.test', PASSWORD);
        expect(right.status).toBe(429);
        expect(b.cookies.has(SESSION)).toBe(false);
        // another identifier from the same address is not affected
        expect((await guess(new Browser(t.url), 'bob@attack.test', PASSWORD)).status).toBe(200);
        // nothing identifying is stored: only hashes
        const rows = await db.query<{ key_hash: string }>(`SELECT key_hash FROM identity_login_failures`);
        expect(rows.rows.length).toBeGreaterThanOrEqual(LOGIN_FAILURE_LIMIT);
        expect(JSON.stringify(rows.rows)).not.toMatch(/erin|127\.0\.0\.1/);

        // once the failures leave the window, the right password works and clears the count
        await db.query(`UPDATE identity_login_failures SET failed_at = failed_at - interval '16 minutes'`);
        expect((await guess(b, 'erin@attack.test', PASSWORD)).status).toBe(200);
        const left = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM identity_login_failures WHERE failed_at > now() - interval '15 minutes'`,
        );
        expect(left.rows[0].n).toBe(0);
      });

      it('counts unknown identifiers the same way (no hint about who exists)', async () => {
        const b = new Browser(t.url);
        for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++)
          expect((await guess(b, 'nobody@attack.test', `x${i}-password`)).status).toBe(400);
        const r = await guess(b, 'nobody@attack.test', 'one more try');
        expect(r.status).toBe(429);
        expect(r.body.error.id).toBe('too_many_attempts');
      });

      it('never writes the guessed passwords to the log', () => {
        const logs = t.logs.join('\n');
        expect(logs).not.toContain('wrong guess');
        expect(logs).not.toContain(PASSWORD);
      });
    });

    describe('session fixation', () => {
      it('does not adopt a session id planted before sign-in', async () => {
        const b = new Browser(t.url);
        const planted = 'attacker-chosen-session-value-0123456789abcdef';
        b.cookies.set(SESSION, planted);
        expect((await b.get('/api/auth/whoami')).status).toBe(401);
        expect((await b.login('bob@attack.test', PASSWORD)).status).toBe(200);
        const issued = b.cookies.get(SESSION)!;
        expect(issued).toBeTruthy();
        expect(issued).not.toBe(planted);
        // the planted value is still nobody's session
        const attacker = new Browser(t.url);
        attacker.cookies.set(SESSION, planted);
        expect((await attacker.get('/api/auth/whoami')).status).toBe(401);
        // and the database holds only a hash of the issued one
        const stored = await db.query<{ token_hash: string }>(`SELECT token_hash FROM identity_sessions`);
        expect(stored.rows.map((r) => r.token_hash)).not.toContain(issued);
        expect(stored.rows.map((r) => r.token_hash)).not.toContain(planted);
      });

      it('issues a new session id at every sign-in and revokes the old one at sign-out', async () => {
        const b = new Browser(t.url);
        expect((await b.login('bob@attack.test', PASSWORD)).status).toBe(200);
        const first = b.cookies.get(SESSION)!;
        expect((await b.post('/api/auth/logout')).status).toBe(204);
        expect(b.cookies.has(SESSION)).toBe(false);
        const thief = new Browser(t.url);
        thief.cookies.set(SESSION, first);
        expect((await thief.get('/api/auth/whoami')).status).toBe(401); // revoked server-side, not just forgotten
        expect((await b.login('bob@attack.test', PASSWORD)).status).toBe(200);
        expect(b.cookies.get(SESSION)).not.toBe(first);
      });

      it('sets the session cookie HttpOnly and SameSite=Lax', async () => {
        const b = new Browser(t.url);
        await b.login('bob@attack.test', PASSWORD);
        const line = b.setCookieLines.find((l) => l.startsWith(`${SESSION}=`))!;
        expect(line).toMatch(/HttpOnly/i);
        expect(line).toMatch(/SameSite=Lax/i);
        expect(line).toMatch(/Path=\//i);
      });
    });

    describe('personal access tokens', () => {
      it('shows a token once: no route answers it (or its hash) again', async () => {
        const admin = new Browser(t.url);
        expect((await admin.login('alice@attack.test', PASSWORD)).status).toBe(200);
        const created = await admin.post('/api/auth/tokens', { name: 'shown-once' });
        expect(created.status).toBe(201);
        const token: string = created.body.token;
        expect(token).toMatch(/^wdpat_[A-Za-z0-9_-]{40,}$/);
        const hash = createHash('sha256').update(token).digest('hex');
        const bearer = { authorization: `Bearer ${token}` };

        // every GET route the app registered and every /api/db table, as the owner (an admin),
        // by cookie and by the token itself
        const gets = t.app.declaredRoutes
          .filter((r) => r.url.startsWith('/api/') && [r.method].flat().includes('GET') && !r.url.startsWith('/api/db'))
          .map((r) => r.url.replace(/:[A-Za-z_]+/g, NOWHERE).replace(/\*/g, 'x'));
        const tables = Object.keys(exposedTables)
          .filter((x) => !x.startsWith('rpc/'))
          .map((x) => `/api/db/${x}`);
        expect(gets).toContain('/api/auth/tokens');
        let answered = 0;
        for (const path of [...gets, ...tables]) {
          for (const headers of [{}, bearer]) {
            const r = await admin.get(path, headers);
            const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '');
            expect(text, path).not.toContain(token);
            expect(text, path).not.toContain(hash);
            if (r.status === 200) answered++;
          }
        }
        expect(answered).toBeGreaterThan(tables.length); // the reads really happened
        // the listing names it without the secret, and the token still works
        const list = await admin.get('/api/auth/tokens');
        expect(list.body.find((x: any) => x.id === created.body.id)).toEqual({
          id: created.body.id,
          name: 'shown-once',
          role: null,
          expires_at: null,
          last_used_at: expect.anything(),
          created_at: expect.any(String),
        });
        expect((await new Browser(t.url).get('/api/auth/whoami', bearer)).status).toBe(200);
        // the token table is not reachable through /api/db at all
        expect((await admin.get('/api/db/access_tokens')).status).toBe(404);
        expect(t.logs.join('\n')).not.toContain(token);
      });

      it('does not let a token mint tokens (a leak stays one token)', async () => {
        const admin = new Browser(t.url);
        await admin.login('alice@attack.test', PASSWORD);
        const token = (await admin.post('/api/auth/tokens', { name: 'leaked' })).body.token;
        const r = await new Browser(t.url).post(
          '/api/auth/tokens',
          { name: 'more' },
          { authorization: `Bearer ${token}` },
        );
        expect(r.status).toBe(403);
        expect(r.body.message).toBe('Access tokens can only be created from a signed-in session.');
      });
    });
  });

  describe(`flood brake per address (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authRateLimit: 6 });
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('answers 429 with a message once an address posts too many forms in a minute', async () => {
      const b = new Browser(t.url);
      const statuses: number[] = [];
      let last: any;
      for (let i = 0; i < 8; i++) {
        const f = await b.flow('login');
        last = await b.submit('login', f, {
          method: 'password',
          identifier: `u${i}@flood.test`,
          password: 'nope nope',
        });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 6)).toEqual([400, 400, 400, 400, 400, 400]);
      expect(statuses.slice(6)).toEqual([429, 429]);
      expect(typeof last.body.message).toBe('string');
      expect(last.body.message).toMatch(/Rate limit exceeded/);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
}
