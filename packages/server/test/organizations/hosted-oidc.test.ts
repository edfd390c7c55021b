import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import {
  freePort,
  Jar,
  OIDC_CLIENT,
  signIn,
  startOidcProvider,
  type StartedProvider,
} from '../support/oidc-provider.ts';

/**
 * Hosted mode as deployed (issue 21): AUTH=oidc + WATCHDECK_HOSTED=true, people signing in through
 * a real OpenID Connect provider on the root backend, then working inside their organisations'
 * backends with the bearer token of a switch. An organisation's backend has no browser sign-in of
 * its own. PostgreSQL only (organisations are schemas): skipped without TEST_DATABASE_URL.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('hosted mode with AUTH=oidc (pg)', () => {
  const dbName = `watchdeck_test_${randomBytes(6).toString('hex')}`;
  let db: Db;
  let app: FastifyInstance;
  let op: StartedProvider;
  let base: string;
  const alice = new Jar();
  const bob = new Jar();
  const tokens: Record<string, string> = {};

  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };

  /** A JSON call of the web app on the root backend with the jar's session cookie. */
  const call = async (jar: Jar, method: string, path: string, body?: unknown) => {
    const session = jar.cookie('watchdeck_session');
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(session ? { cookie: `watchdeck_session=${session}` } : {}),
        ...(method !== 'GET' ? { origin: base, 'content-type': 'application/json' } : {}),
      },
      body: method !== 'GET' ? JSON.stringify(body ?? {}) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const bearer = async (token: string, path: string, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...extra },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const ready = async (jar: Jar, slug: string) => {
    for (let i = 0; i < 300; i++) {
      const r = await call(jar, 'GET', `/api/organizations/${slug}`);
      if (r.body?.status === 'ready') return;
      expect(r.body?.status, JSON.stringify(r.body)).not.toBe('failed');
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`${slug} was not provisioned`);
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${dbName}`;
    db = await openDb({ databaseUrl: url.toString() });
    await migrate(db);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    op = await startOidcProvider(base);
    const config = {
      ...loadConfig({
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.toString(),
        WATCHDECK_HOSTED: 'true',
        AUTH: 'oidc',
        WATCHDECK_PUBLIC_URL: base,
        WATCHDECK_OIDC_ISSUER: op.issuer,
        WATCHDECK_OIDC_CLIENT_ID: OIDC_CLIENT.id,
        WATCHDECK_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        WATCHDECK_OIDC_ROLE_MAP: 'wd-admins=admin',
        WATCHDECK_SECRET_KEY: 'hosted-oidc-test-key-0123456789',
      }),
      demoData: false,
      authRateLimit: 10_000,
    };
    app = await buildApp({ config, db });
    await app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await op?.close();
    await db?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('signs alice in through the provider; she creates an organisation and works in it with its token', async () => {
    expect((await signIn(alice, base, op.issuer, 'alice')).path).toBe('/health');
    const root = await call(alice, 'GET', '/api/auth/whoami');
    expect(root.body).toMatchObject({ authMode: 'oidc', hosted: true, user: { email: 'alice@example.com' } });
    expect(root.body.organization).toBeUndefined();

    const created = await call(alice, 'POST', '/api/organizations', { name: 'Alice Works' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ slug: 'alice-works', status: 'provisioning', role: 'admin' });
    await ready(alice, 'alice-works');

    const sw = await call(alice, 'POST', '/api/organizations/alice-works/switch');
    expect(sw.status, JSON.stringify(sw.body)).toBe(200);
    expect(sw.body.backend_url).toBe(`${base}/org/alice-works`);
    tokens.alice = sw.body.token;
    const who = await bearer(tokens.alice, '/org/alice-works/api/auth/whoami');
    expect(who.status, JSON.stringify(who.body)).toBe(200);
    expect(who.body).toMatchObject({
      user: { id: root.body.user.id, email: 'alice@example.com', name: 'Alice Admin' },
      roles: ['admin'],
      authMode: 'oidc',
      organization: 'alice-works',
      backendUrl: `${base}/org/alice-works`,
    });
    // her data lands in the organisation's schema
    const team = await fetch(`${base}/org/alice-works/api/db/teams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}`, 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ name: 'alice-team' }),
    });
    expect(team.status).toBe(201);
    expect((await db.query(`SELECT name FROM org_alice_works.teams`)).rows).toEqual([{ name: 'alice-team' }]);
  });

  it('gives an organisation backend no browser sign-in: bearer tokens only', async () => {
    // the root's session cookie reaches /org/{slug} (same origin) but is no caller there
    const cookie = `watchdeck_session=${alice.cookie('watchdeck_session')}`;
    const viaCookie = await fetch(`${base}/org/alice-works/api/auth/whoami`, {
      headers: { accept: 'application/json', cookie },
    });
    expect(viaCookie.status).toBe(401);
    // no OpenID Connect login or callback of its own (the provider knows the root's callback only)
    for (const path of ['/api/auth/oidc/login', '/api/auth/oidc/callback?code=x&state=y']) {
      const r = await fetch(`${base}/org/alice-works${path}`, { redirect: 'manual', headers: { cookie } });
      expect(r.status, path).toBe(404);
    }
    // the account flows are off there, whatever the root backend does
    for (const type of ['login', 'registration', 'settings', 'recovery']) {
      const r = await bearer(tokens.alice, `/org/alice-works/api/auth/self-service/${type}/browser`);
      expect(r.status, type).toBe(403);
      expect(r.body.error.id).toBe('self_service_flow_disabled');
    }
    // while the root backend still sends the browser to the provider
    const rootLogin = await fetch(`${base}/api/auth/self-service/login/browser`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(rootLogin.headers.get('location')).toBe('/api/auth/oidc/login');
  });

  it('keeps bob out of alice’s organisation until invited; his own organisation’s token is refused there', async () => {
    expect((await signIn(bob, base, op.issuer, 'bob')).path).toBe('/health');
    expect((await call(bob, 'GET', '/api/auth/whoami')).body).toMatchObject({ user: { email: 'bob@example.com' } });
    expect((await call(bob, 'POST', '/api/organizations', { name: 'Bob Builds', slug: 'bob-builds' })).status).toBe(
      201,
    );
    await ready(bob, 'bob-builds');
    const own = await call(bob, 'POST', '/api/organizations/bob-builds/switch');
    expect(own.status).toBe(200);
    tokens.bob = own.body.token;
    expect((await bearer(tokens.bob, '/org/bob-builds/api/auth/whoami')).body).toMatchObject({
      user: { email: 'bob@example.com' },
      organization: 'bob-builds',
    });

    // not a member: no switch, no view of it; his token is nothing on alice's backend (nor hers on his)
    expect((await call(bob, 'POST', '/api/organizations/alice-works/switch')).status).toBe(404);
    expect((await call(bob, 'GET', '/api/organizations/alice-works')).status).toBe(404);
    expect((await bearer(tokens.bob, '/org/alice-works/api/auth/whoami')).status).toBe(401);
    expect((await bearer(tokens.bob, '/org/alice-works/api/db/teams')).status).toBe(401);
    expect((await bearer(tokens.alice, '/org/bob-builds/api/auth/whoami')).status).toBe(401);
    // nor is an organisation's token a caller of the root backend
    expect((await bearer(tokens.bob, '/api/auth/whoami')).status).toBe(401);

    // invited by the email the provider gave him, he accepts and switches in with the role given
    const inv = await call(alice, 'POST', '/api/organizations/alice-works/invites', {
      email: 'bob@example.com',
      role: 'editor',
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect((await call(bob, 'POST', '/api/organizations/alice-works/switch')).status).toBe(404);
    expect((await call(bob, 'POST', '/api/organizations/alice-works/accept')).status).toBe(200);
    const sw = await call(bob, 'POST', '/api/organizations/alice-works/switch');
    expect(sw.status, JSON.stringify(sw.body)).toBe(200);
    const who = await bearer(sw.body.token, '/org/alice-works/api/auth/whoami');
    expect(who.body).toMatchObject({
      user: { email: 'bob@example.com' },
      roles: ['editor'],
      organization: 'alice-works',
      backendUrl: `${base}/org/alice-works`,
    });
    expect((await bearer(sw.body.token, '/org/alice-works/api/db/teams?select=name')).body).toEqual([
      { name: 'alice-team' },
    ]);
    // the token of his own organisation is still refused by alice's backend
    expect((await bearer(tokens.bob, '/org/alice-works/api/db/teams')).status).toBe(401);
  });

  it('signed out at the root, the organisations are out of reach, their tokens too', async () => {
    expect((await bearer(tokens.bob, '/org/bob-builds/api/auth/whoami')).status).toBe(200);
    const out = await call(bob, 'POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    expect((await call(bob, 'GET', '/api/organizations')).status).toBe(401);
    expect((await call(bob, 'POST', '/api/organizations/alice-works/switch')).status).toBe(401);
    // the token his provider session was given is revoked with it; alice's session is not his
    expect((await bearer(tokens.bob, '/org/bob-builds/api/auth/whoami')).status).toBe(401);
    expect((await bearer(tokens.bob, '/org/bob-builds/api/db/teams')).status).toBe(401);
    expect((await bearer(tokens.alice, '/org/alice-works/api/auth/whoami')).status).toBe(200);
  });
});
