/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { testDrivers } from '../support/db.ts';
import {
  freePort,
  Jar,
  OIDC_CLIENT,
  signIn,
  startOidcProvider,
  type StartedProvider,
} from '../support/oidc-provider.ts';

// AUTH=oidc against a real OpenID Connect provider (oidc-provider) over real HTTP: a browser-like
// client with one cookie jar follows every redirect, console -> provider login and consent ->
// console callback, as a person's browser would.

const api = (base: string, jar: Jar, path: string, init: { method?: string } = {}) =>
  fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(jar.cookie('watchdeck_session') ? { cookie: `watchdeck_session=${jar.cookie('watchdeck_session')}` } : {}),
      ...(init.method === 'POST' ? { origin: base, 'content-type': 'application/json' } : {}),
    },
    body: init.method === 'POST' ? '{}' : undefined,
  });

describe('OpenID Connect settings', () => {
  const base = { AUTH: 'oidc', WATCHDECK_PUBLIC_URL: 'https://ops.example.com/' };
  it('refuses AUTH=oidc without its provider, client or public address', () => {
    expect(() => loadConfig({ AUTH: 'oidc' })).toThrow(
      /AUTH=oidc needs WATCHDECK_OIDC_ISSUER .*WATCHDECK_OIDC_CLIENT_ID .*WATCHDECK_PUBLIC_URL/,
    );
    expect(() => loadConfig({ ...base, WATCHDECK_OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      /WATCHDECK_OIDC_CLIENT_ID/,
    );
    expect(() =>
      loadConfig({ ...base, WATCHDECK_OIDC_ISSUER: 'http://id.example.com', WATCHDECK_OIDC_CLIENT_ID: 'x' }),
    ).toThrow(/WATCHDECK_OIDC_ISSUER: an https URL/);
    expect(() =>
      loadConfig({
        ...base,
        WATCHDECK_OIDC_ISSUER: 'https://id.example.com',
        WATCHDECK_OIDC_CLIENT_ID: 'x',
        WATCHDECK_OIDC_ROLE_MAP: 'admins=root',
      }),
    ).toThrow(/WATCHDECK_OIDC_ROLE_MAP/);
  });

  it('reads the provider, scopes, claim mapping and the addresses derived from the public URL', () => {
    const c = loadConfig({
      ...base,
      WATCHDECK_OIDC_ISSUER: 'https://id.example.com/realms/ops',
      WATCHDECK_OIDC_CLIENT_ID: 'watchdeck',
      WATCHDECK_OIDC_ROLE_MAP: 'ops-admins=admin, ops=editor, ops=responder',
    });
    expect(c.authMode).toBe('oidc');
    expect(c.oidc).toEqual({
      issuer: 'https://id.example.com/realms/ops',
      clientId: 'watchdeck',
      clientSecret: undefined,
      scopes: ['openid', 'email', 'profile'],
      roleClaim: 'groups',
      roleMap: { 'ops-admins': ['admin'], ops: ['editor', 'responder'] },
      defaultRole: 'viewer',
      redirectUri: 'https://ops.example.com/api/auth/oidc/callback',
      postLogoutRedirectUri: 'https://ops.example.com/login',
    });
    // LDAP-style values hold commas and '=': ';' separates the pairs then
    const ldap = loadConfig({
      ...base,
      WATCHDECK_OIDC_ISSUER: 'http://localhost:8081',
      WATCHDECK_OIDC_CLIENT_ID: 'watchdeck',
      WATCHDECK_OIDC_ROLE_MAP: 'cn=ops,dc=example=admin;cn=dev,dc=example=editor',
      WATCHDECK_OIDC_DEFAULT_ROLE: 'commander',
    });
    expect(ldap.oidc).toMatchObject({
      roleMap: { 'cn=ops,dc=example': ['admin'], 'cn=dev,dc=example': ['editor'] },
      defaultRole: 'commander',
    });
    expect(loadConfig({}).oidc).toBeUndefined();
  });
});

for (const driver of testDrivers()) {
  describe(`AUTH=oidc with a real provider (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: FastifyInstance;
    let op: StartedProvider;
    let base: string;

    beforeAll(async () => {
      db = await driver.open();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      op = await startOidcProvider(base);
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        AUTH: 'oidc',
        WATCHDECK_PUBLIC_URL: base,
        WATCHDECK_OIDC_ISSUER: op.issuer,
        WATCHDECK_OIDC_CLIENT_ID: OIDC_CLIENT.id,
        WATCHDECK_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        WATCHDECK_OIDC_ROLE_MAP: 'wd-admins=admin,wd-editors=editor',
        WATCHDECK_SECRET_KEY: 'oidc-test-key-0123456789',
      });
      app = await buildApp({ config, db });
      await app.listen({ port, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app?.close();
      await op?.close();
      await db?.dispose();
    });

    const sessionRow = async (jar: Jar) =>
      (
        await db.query<any>(
          `SELECT id, active, provider_tokens, provider_expires_at FROM identity_sessions
            WHERE token_hash = $1`,
          [createHash('sha256').update(jar.cookie('watchdeck_session')!).digest('hex')],
        )
      ).rows[0];

    it('signs in through the provider with PKCE, state and nonce, lands on return_to, maps the admin group', async () => {
      const jar = new Jar();
      const authorize: URL[] = [];
      const res = await signIn(jar, base, op.issuer, 'alice', { authorize: (u) => (authorize.push(u), u) });
      expect(res.status).toBe(303);
      expect(res.path).toBe('/health');
      expect(authorize[0].searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize[0].searchParams.get('state')).toBeTruthy();
      expect(authorize[0].searchParams.get('nonce')).toBeTruthy();
      expect(authorize[0].searchParams.get('scope')).toBe('openid email profile');
      expect(jar.cookie('watchdeck_oidc')).toBeUndefined(); // the sign-in state is spent

      const who = await api(base, jar, '/api/auth/whoami');
      expect(who.status).toBe(200);
      const body: any = await who.json();
      expect(body).toMatchObject({
        authMode: 'oidc',
        roles: ['admin'],
        user: { name: 'Alice Admin', email: 'alice@example.com' },
      });
      // the subject is stored as the identity's oidc credential
      const cred = await db.query<any>(
        `SELECT identifiers FROM identity_credentials WHERE identity_id = $1 AND type = 'oidc'`,
        [body.user.id],
      );
      expect(cred.rows[0].identifiers).toEqual([`${op.issuer} alice`]);
      // the provider's tokens are kept sealed
      const row = await sessionRow(jar);
      expect(row.provider_tokens).toMatch(/^enc:v1:/);
      expect(new Date(row.provider_expires_at).getTime()).toBeGreaterThan(Date.now());

      // a second sign-in finds the same person by the subject
      const again = new Jar();
      await signIn(again, base, op.issuer, 'alice');
      const body2: any = await (await api(base, again, '/api/auth/whoami')).json();
      expect(body2.user.id).toBe(body.user.id);
    });

    it('gives an unmapped group the default role and links an invited account by its verified email', async () => {
      const invited = await createIdentity(db, {
        traits: { email: 'bob@example.com', name: { first: 'Bob', last: 'B' } },
        roles: ['editor'],
      });
      const jar = new Jar();
      expect((await signIn(jar, base, op.issuer, 'bob')).path).toBe('/health');
      const body: any = await (await api(base, jar, '/api/auth/whoami')).json();
      expect(body.user.id).toBe(invited.id);
      // roles follow the provider's claim: 'staff' is not mapped, so the default role
      expect(body.roles).toEqual(['viewer']);
      expect((await api(base, jar, '/api/auth/users')).status).toBe(403);
    });

    it('refuses a tampered state: no session, the error page explains', async () => {
      const jar = new Jar();
      const res = await signIn(jar, base, op.issuer, 'bob', {
        callback: (u) => (u.searchParams.set('state', 'forged-state'), u),
      });
      expect(res.status).toBe(303);
      expect(res.path).toMatch(/^\/error\/[0-9a-f-]{36}$/);
      expect(jar.cookie('watchdeck_session')).toBeUndefined();
      const err: any = await (await fetch(`${base}/api${res.path.replace('/error/', '/auth/errors/')}`)).json();
      expect(err.error.id).toBe('security_csrf_violation');
      expect(err.error.reason).toMatch(/state/);
      expect(err.redirect_browser_to).toBe('/login');
    });

    it('refuses an ID token whose nonce is not the one this browser sent', async () => {
      const jar = new Jar();
      const res = await signIn(jar, base, op.issuer, 'bob', {
        authorize: (u) => (u.searchParams.set('nonce', 'nonce-of-someone-else'), u),
      });
      expect(res.path).toMatch(/^\/error\//);
      expect(jar.cookie('watchdeck_session')).toBeUndefined();
      const err: any = await (await fetch(`${base}/api${res.path.replace('/error/', '/auth/errors/')}`)).json();
      expect(err.error.reason).toMatch(/nonce/);
    });

    it('refuses a callback without the sealed sign-in state, or with a forged one', async () => {
      const jar = new Jar();
      const res = await signIn(jar, base, op.issuer, 'bob', {
        callback: (u) => {
          // the answer arrives in another browser (or the state cookie was made up)
          (jar as any).cookies.set('watchdeck_oidc', { value: 'eyJzdGF0ZSI6IngifQ', path: '/api/auth/oidc' });
          return u;
        },
      });
      expect(res.path).toMatch(/^\/error\//);
      expect(jar.cookie('watchdeck_session')).toBeUndefined();
      const err: any = await (await fetch(`${base}/api${res.path.replace('/error/', '/auth/errors/')}`)).json();
      expect(err.error.id).toBe('self_service_flow_expired');
    });

    it('refuses an expired session', async () => {
      const jar = new Jar();
      await signIn(jar, base, op.issuer, 'bob');
      const row = await sessionRow(jar);
      await db.query(`UPDATE identity_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [row.id]);
      expect((await api(base, jar, '/api/auth/whoami')).status).toBe(401);
      expect((await api(base, jar, '/api/db/canaries?select=id')).status).toBe(401);
    });

    it('refreshes the session from the provider when its token runs out, and ends it when refreshing fails', async () => {
      const jar = new Jar();
      await signIn(jar, base, op.issuer, 'bob');
      const first = await sessionRow(jar);
      await db.query(`UPDATE identity_sessions SET provider_expires_at = now() - interval '1 second' WHERE id = $1`, [
        first.id,
      ]);
      expect((await api(base, jar, '/api/auth/whoami')).status).toBe(200);
      const refreshed = await sessionRow(jar);
      expect(refreshed.active).toBe(true);
      expect(new Date(refreshed.provider_expires_at).getTime()).toBeGreaterThan(Date.now());
      expect(refreshed.provider_tokens).not.toBe(first.provider_tokens); // rotated refresh token

      // the spent refresh token again: the provider refuses it, so the session ends
      await db.query(
        `UPDATE identity_sessions SET provider_tokens = $2, provider_expires_at = now() - interval '1 second' WHERE id = $1`,
        [first.id, first.provider_tokens],
      );
      // a write to the identity routes drops the callers cached for a second (README "Who is calling")
      await api(base, new Jar(), '/api/auth/logout', { method: 'POST' });
      expect((await api(base, jar, '/api/auth/whoami')).status).toBe(401);
      expect((await sessionRow(jar)).active).toBe(false);
    });

    it("signs out: the local session ends and the browser goes to the provider's logout", async () => {
      const jar = new Jar();
      await signIn(jar, base, op.issuer, 'alice');
      const cookie = jar.cookie('watchdeck_session')!;
      const out = await api(base, jar, '/api/auth/logout', { method: 'POST' });
      expect(out.status).toBe(200);
      const { redirect_browser_to } = (await out.json()) as { redirect_browser_to: string };
      const end = new URL(redirect_browser_to);
      expect(`${end.origin}${end.pathname}`).toBe(`${op.issuer}/session/end`);
      expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/login`);
      expect(end.searchParams.get('id_token_hint')).toBeTruthy();
      // the old cookie is dead at once
      const replay = await fetch(`${base}/api/auth/whoami`, { headers: { cookie: `watchdeck_session=${cookie}` } });
      expect(replay.status).toBe(401);

      // the provider asks, then ends its own session and comes back to the console's /login
      const confirm = await jar.fetch(end.toString());
      expect(confirm.status).toBe(200);
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(confirm.text)![1];
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.text)![1];
      const done = await jar.fetch(new URL(action, end).toString(), {
        method: 'POST',
        body: new URLSearchParams({ xsrf, logout: 'yes' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(done.status).toBe(303);
      expect(done.location).toBe(`${base}/login`);
      // and /login goes back to the provider, which asks for a login again
      const again = await jar.fetch(`${base}/api/auth/self-service/login/browser`);
      expect(again.location).toBe('/api/auth/oidc/login');
      const toProvider = await jar.fetch(`${base}/api/auth/oidc/login`);
      const atProvider = await jar.fetch(toProvider.location!);
      const page = await jar.fetch(new URL(atProvider.location!, op.issuer).toString());
      expect(page.text).toContain('name="login"');
    });

    it('answers the web app: /login asks for the provider, other account flows are off', async () => {
      const r = await fetch(`${base}/api/auth/self-service/login/browser?return_to=%2Fincidents`, {
        headers: { accept: 'application/json' },
      });
      expect(r.status).toBe(422);
      expect(await r.json()).toMatchObject({
        error: { id: 'browser_location_change_required' },
        redirect_browser_to: '/api/auth/oidc/login?return_to=%2Fincidents',
      });
      // return_to of another site is dropped, not followed
      const evil = await fetch(`${base}/api/auth/self-service/login/browser?return_to=https%3A%2F%2Fevil.example`, {
        headers: { accept: 'application/json' },
      });
      expect(((await evil.json()) as any).redirect_browser_to).toBe('/api/auth/oidc/login');
      const rec = await fetch(`${base}/api/auth/self-service/recovery/browser`, {
        headers: { accept: 'application/json' },
      });
      expect(rec.status).toBe(403);
      expect(((await rec.json()) as any).error.id).toBe('self_service_flow_disabled');
    });
  });
}
