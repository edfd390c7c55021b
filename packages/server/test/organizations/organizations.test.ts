/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser } from '../auth/support.ts';

/**
 * Hosted mode's organisations (issue 21): two organisations provisioned side by side on one
 * PostgreSQL, each in its own schema behind its own backend (/org/{slug}). Data made in one is
 * invisible from the other through /api/db, health, incidents and settings; a bearer token of one
 * is refused by the other; whoami answers 404 while an organisation is provisioned. PostgreSQL
 * only (PGlite holds one schema's worth of app): skipped without TEST_DATABASE_URL.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const PASSWORD = 'organisations passphrase';

describe('hosted mode settings', () => {
  it('refuses to start on PGlite and with AUTH=none', () => {
    expect(() => loadConfig({ WATCHDECK_HOSTED: 'true' })).toThrow(/needs PostgreSQL/);
    expect(() => loadConfig({ WATCHDECK_HOSTED: 'true', DATABASE_URL: 'postgres://x/y', AUTH: 'none' })).toThrow(
      /signed-in callers/,
    );
  });
});

describe.skipIf(!adminUrl)('organisations (pg)', () => {
  const dbName = `watchdeck_test_${randomBytes(6).toString('hex')}`;
  let url: string;
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  const ada = () => new Browser(base);
  let adaB: Browser;
  let bobB: Browser;
  const tokens: Record<string, string> = {};

  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  const as = (token: string, method: string, path: string, body?: unknown) =>
    new Browser(base).request(method, path, body, { authorization: `Bearer ${token}` });

  /** Waits until the organisation is ready (provisioning runs in the background). */
  const ready = async (b: Browser, slug: string) => {
    for (let i = 0; i < 300; i++) {
      const r = await b.get(`/api/organizations/${slug}`);
      if (r.body?.status === 'ready') return;
      expect(r.body?.status, JSON.stringify(r.body)).not.toBe('failed');
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`${slug} was not provisioned`);
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const u = new URL(adminUrl!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    db = await openDb({ databaseUrl: url });
    await migrate(db);
    for (const name of ['ada', 'bob']) {
      await createIdentity(db, {
        traits: { email: `${name}@orgs.test`, name: { first: name, last: 'Org' } },
        roles: ['viewer'],
        password: PASSWORD,
      });
    }
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url, WATCHDECK_HOSTED: 'true' }),
      allowedHosts: ['127.0.0.1'],
      demoData: false,
      registrationEnabled: true,
      authRateLimit: 10_000,
    };
    app = await buildApp({ config, db });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    adaB = ada();
    bobB = new Browser(base);
    expect((await adaB.login('ada@orgs.test', PASSWORD)).status).toBe(200);
    expect((await bobB.login('bob@orgs.test', PASSWORD)).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('answers 404 on whoami while provisioning, then the organisation, its slug and backend URL', async () => {
    // the migrator's advisory lock held elsewhere keeps the organisation provisioning
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(727274)');
    try {
      const created = await adaB.post('/api/organizations', { name: 'Acme' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ slug: 'acme', name: 'Acme', status: 'provisioning', role: 'admin' });
      const early = await adaB.post('/api/organizations/acme/switch');
      expect(early.body).toMatchObject({ status: 'provisioning', backend_url: null, token: null });
      expect((await new Browser(base).get('/org/acme/api/auth/whoami')).status).toBe(404);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    await ready(adaB, 'acme');
    const sw = await adaB.post('/api/organizations/acme/switch');
    expect(sw.status, JSON.stringify(sw.body)).toBe(200);
    expect(sw.body.backend_url).toBe(`${base}/org/acme`);
    tokens.acme = sw.body.token;
    const who = await as(tokens.acme, 'GET', '/org/acme/api/auth/whoami');
    expect(who.status, JSON.stringify(who.body)).toBe(200);
    expect(who.body).toMatchObject({
      user: { email: 'ada@orgs.test' },
      roles: ['admin'],
      organization: 'acme',
      backendUrl: `${base}/org/acme`,
    });
  });

  it('provisions a second organisation side by side; lists only the caller’s', async () => {
    expect((await bobB.post('/api/organizations', { name: 'Beta Corp', slug: 'beta' })).status).toBe(201);
    expect((await bobB.post('/api/organizations', { name: 'Again', slug: 'beta' })).status).toBe(409);
    expect((await bobB.post('/api/organizations', { name: 'x', slug: 'Bad_Slug' })).status).toBe(400);
    await ready(bobB, 'beta');
    tokens.beta = (await bobB.post('/api/organizations/beta/switch')).body.token;
    expect((await adaB.get('/api/organizations')).body.map((o: any) => o.slug)).toEqual(['acme']);
    expect((await bobB.get('/api/organizations')).body.map((o: any) => o.slug)).toEqual(['beta']);
    // not a member: no switch, no invitation rights
    expect((await adaB.post('/api/organizations/beta/switch')).status).toBe(404);
    expect((await adaB.post('/api/organizations/beta/invites', { email: 'ada@orgs.test' })).status).toBe(404);
  });

  it('keeps each organisation’s data apart: /api/db, health, incidents, settings', async () => {
    const a = (m: string, p: string, b?: unknown) => as(tokens.acme, m, `/org/acme${p}`, b);
    const b = (m: string, p: string, body?: unknown) => as(tokens.beta, m, `/org/beta${p}`, body);

    // /api/db
    expect((await a('POST', '/api/db/teams', { name: 'acme-team' })).status).toBe(201);
    expect((await a('GET', '/api/db/teams?select=name')).body).toEqual([{ name: 'acme-team' }]);
    expect((await b('GET', '/api/db/teams?select=name')).body).toEqual([]);

    // incidents
    const inc = await a('POST', '/api/db/incidents', { title: 'Acme checkout down', description: 'p95 above 2s' });
    expect(inc.status, JSON.stringify(inc.body)).toBe(201);
    expect((await a('GET', '/api/db/incidents?select=title')).body).toEqual([{ title: 'Acme checkout down' }]);
    expect((await b('GET', '/api/db/incidents?select=title')).body).toEqual([]);
    const incId = (await a('GET', '/api/db/incidents?select=id')).body[0].id;
    expect((await b('GET', `/api/db/incidents?id=eq.${incId}`)).body).toEqual([]);

    // settings: a feature flag turned off in one organisation only
    const flag = await a('POST', '/api/properties', { name: 'logs.disable', value: 'true' });
    expect(flag.status, JSON.stringify(flag.body)).toBe(201);
    const names = async (call: typeof a) =>
      ((await call('GET', '/api/properties')).body as any[]).map((p) => p.name).filter((n) => n === 'logs.disable');
    expect(await names(a)).toEqual(['logs.disable']);
    expect(await names(b)).toEqual([]);

    // health: a check (as the engine records one) in acme's schema, on a connection that resolves
    // names there as the organisation's backend does (its triggers call unqualified functions)
    const acmeDb = await openDb({ databaseUrl: url, poolSize: 1, searchPath: 'org_acme' });
    try {
      const canary = await acmeDb.query<{ id: string }>(
        `INSERT INTO canaries (name, spec) VALUES ('acme-canary', '{}') RETURNING id`,
      );
      await acmeDb.query(`INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', 'acme-http')`, [
        canary.rows[0].id,
      ]);
    } finally {
      await acmeDb.close();
    }
    const checks = async (call: typeof a) =>
      JSON.stringify((await call('GET', '/api/canary/api/summary?start=1h')).body).includes('acme-http');
    expect(await checks(a)).toBe(true);
    expect(await checks(b)).toBe(false);
    expect((await b('GET', '/api/db/checks?select=name')).body).toEqual([]);

    // the root backend's own tables saw none of it
    expect((await db.query(`SELECT 1 FROM public.teams WHERE name = 'acme-team'`)).rows).toEqual([]);
  });

  it('refuses a bearer token of one organisation on the other’s backend', async () => {
    expect((await as(tokens.acme, 'GET', '/org/beta/api/auth/whoami')).status).toBe(401);
    expect((await as(tokens.beta, 'GET', '/org/acme/api/db/teams')).status).toBe(401);
    // nor is it a token of the root backend
    expect((await as(tokens.acme, 'GET', '/api/auth/whoami')).status).toBe(401);
    // unknown organisation
    expect((await as(tokens.acme, 'GET', '/org/nobody/api/auth/whoami')).status).toBe(404);
    // nobody signs up into an organisation's backend, even where the root backend allows sign-up
    const signUp = await new Browser(base).get('/org/acme/api/auth/self-service/registration/browser');
    expect(signUp.body?.error?.id ?? signUp.body?.id, JSON.stringify(signUp.body)).toBe('self_service_flow_disabled');
    // nor signs in there: its callers are the switch's bearer tokens (the root's cookie is not read)
    const signIn = await adaB.get('/org/acme/api/auth/self-service/login/browser');
    expect(signIn.body?.error?.id, JSON.stringify(signIn.body)).toBe('self_service_flow_disabled');
    expect((await adaB.get('/org/acme/api/auth/whoami')).status).toBe(401);
  });

  it('invites by email; the invited person accepts and switches in with the role given', async () => {
    const inv = await adaB.post('/api/organizations/acme/invites', { email: 'BOB@orgs.test', role: 'editor' });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect(inv.body).toMatchObject({ email: 'bob@orgs.test', role: 'editor' });
    expect((await adaB.post('/api/organizations/acme/invites', { email: 'not-an-email' })).status).toBe(400);
    const listed = (await bobB.get('/api/organizations')).body;
    expect(listed.find((o: any) => o.slug === 'acme')).toMatchObject({ invited: true, role: null });
    expect((await bobB.post('/api/organizations/acme/switch')).status).toBe(404);
    expect((await bobB.post('/api/organizations/acme/accept')).status).toBe(200);
    const sw = await bobB.post('/api/organizations/acme/switch');
    expect(sw.status).toBe(200);
    const who = await as(sw.body.token, 'GET', '/org/acme/api/auth/whoami');
    expect(who.body).toMatchObject({ user: { email: 'bob@orgs.test' }, roles: ['editor'], organization: 'acme' });
    // bob is no admin of acme: no invitations from him
    expect((await bobB.post('/api/organizations/acme/invites', { email: 'eve@orgs.test' })).status).toBe(403);
    expect((await adaB.post('/api/organizations/acme/invites', { email: 'bob@orgs.test' })).status).toBe(409);
  });

  it('runs each organisation’s engines in its own schema, under this process’s lease', async () => {
    // the sweep (every 20 s) leases ready organisations and starts their engines
    const leased = async () =>
      (
        await db.query<{ slug: string }>(
          `SELECT slug FROM watchdeck_control.organizations WHERE engines_process IS NOT NULL ORDER BY slug`,
        )
      ).rows.map((r) => r.slug);
    await expect.poll(leased, { timeout: 60_000, interval: 500 }).toEqual(['acme', 'beta']);
    // each engine process row lives in its organisation's schema (started right after the lease)
    for (const schema of ['org_acme', 'org_beta']) {
      const count = async () => (await db.query(`SELECT 1 FROM ${schema}.engine_processes`)).rows.length;
      await expect.poll(count, { timeout: 30_000, interval: 250, message: schema }).toBe(1);
    }
    // the root backend's engines are main.ts's to start (not started in this test)
    expect((await db.query(`SELECT 1 FROM public.engine_processes`)).rows).toEqual([]);
  }, 90_000);

  it('signed out: the control plane answers 401', async () => {
    expect((await new Browser(base).get('/api/organizations')).status).toBe(401);
    expect((await new Browser(base).post('/api/organizations', { name: 'x' })).status).toBe(401);
  });
});
