/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { permissionsOf, whoamiSchema, propertiesSchema } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { ensureFirstAdmin } from '#server/auth/first-run.ts';
import { createTableAuthorizer } from '#server/auth/authorize-table.ts';
import { exposedTables } from '#server/db/exposed.ts';
import { loadConfig } from '#server/config.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

const PASSWORD = 'correct horse battery staple';

for (const driver of testDrivers()) {
  describe(`access control (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let admin: Browser;
    let viewer: Browser;

    beforeAll(async () => {
      db = await driver.open();
      await db.query(
        `INSERT INTO properties (name, value) VALUES ('playbooks.disable', 'true'), ('logs.disable', 'false'), ('smtp.host', 'mail.internal')`,
      );
      // invitation links are built from the request's host only when it is an allowed one
      t = await startLoggedApp(db, {
        localProperties: { 'incidents.disable': 'true', 'logs.disable': 'true' },
        allowedHosts: ['127.0.0.1'],
      });
      await createIdentity(db, {
        traits: { email: 'root@example.com', name: { first: 'Root', last: 'Admin' } },
        roles: ['admin'],
        password: PASSWORD,
      });
      await createIdentity(db, {
        traits: { email: 'val@example.com', name: { first: 'Val', last: 'Viewer' } },
        roles: ['viewer'],
        password: PASSWORD,
      });
      admin = new Browser(t.url);
      viewer = new Browser(t.url);
      expect((await admin.login('root@example.com', PASSWORD)).status).toBe(200);
      expect((await viewer.login('val@example.com', PASSWORD)).status).toBe(200);
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('keeps health and about public and answers 401 {message} elsewhere', async () => {
      const anon = new Browser(t.url);
      expect((await anon.get('/api/health')).status).toBe(200);
      expect((await anon.get('/api/about')).status).toBe(200);
      const who = await anon.get('/api/auth/whoami');
      expect(who.status).toBe(401);
      expect(typeof who.body.message).toBe('string');
      expect((await anon.get('/api/auth/tokens')).status).toBe(401);
      expect((await anon.get('/api/auth/users')).status).toBe(401);
      expect((await anon.get('/api/db/people')).status).toBe(401);
    });

    it('answers whoami exactly as the contract says', async () => {
      const r = await viewer.get('/api/auth/whoami');
      expect(r.status).toBe(200);
      const parsed = whoamiSchema.parse(r.body);
      expect(parsed.roles).toEqual(['viewer']);
      expect(parsed.permissions).toEqual(permissionsOf(['viewer']));
      expect(Object.keys(r.body).sort()).toEqual(['authMode', 'permissions', 'roles', 'user']);
    });

    it('issues personal access tokens once, accepts them as Bearer, and rejects revoked ones', async () => {
      const created = await viewer.post('/api/auth/tokens', { name: 'ci', expires_in: '30d' });
      expect(created.status).toBe(201);
      const token: string = created.body.token;
      expect(token).toMatch(/^wdpat_/);
      expect(new Date(created.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);

      const list = await viewer.get('/api/auth/tokens');
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).toMatchObject({ id: created.body.id, name: 'ci' });
      expect(JSON.stringify(list.body)).not.toContain(token);
      const stored = await db.query<{ value: string }>(`SELECT value FROM access_tokens WHERE id = $1`, [
        created.body.id,
      ]);
      expect(stored.rows[0].value).not.toBe(token);

      const bearer = new Browser(t.url);
      const who = await bearer.get('/api/auth/whoami', { authorization: `Bearer ${token}` });
      expect(who.status).toBe(200);
      expect(who.body.user.email).toBe('val@example.com');
      // a token cannot mint tokens
      expect((await bearer.post('/api/auth/tokens', { name: 'x' }, { authorization: `Bearer ${token}` })).status).toBe(
        403,
      );
      expect((await bearer.get('/api/auth/whoami', { authorization: 'Bearer wdpat_nonsense' })).status).toBe(401);
      // someone else cannot revoke it
      expect((await admin.delete(`/api/auth/tokens/${created.body.id}`)).status).toBe(404);
      expect((await viewer.delete(`/api/auth/tokens/${created.body.id}`)).status).toBe(204);
      expect((await bearer.get('/api/auth/whoami', { authorization: `Bearer ${token}` })).status).toBe(401);
      expect((await viewer.post('/api/auth/tokens', {})).status).toBe(400);

      expect(t.logs.join('\n')).not.toContain(token);
      expect(t.logs.join('\n')).not.toContain(PASSWORD);
    });

    it('enforces the matrix on /api/db tables: viewer reads, viewer cannot write', async () => {
      const authorize = createTableAuthorizer({
        exposed: exposedTables,
        isFeatureDisabled: async (f) => f === 'incidents',
      });
      const req = (roles: string[]) =>
        ({ caller: { via: 'session', person: { id: 'x', name: 'x', email: null, avatar: null }, roles } }) as any;
      await expect(authorize(req(['viewer']), 'canaries', 'read')).resolves.toBeUndefined();
      await expect(authorize(req(['viewer']), 'canaries', 'write')).rejects.toMatchObject({
        statusCode: 403,
        message: expect.stringMatching(/write access to canaries/),
      });
      await expect(authorize(req(['editor']), 'connections', 'write')).rejects.toMatchObject({ statusCode: 403 });
      await expect(authorize(req(['admin']), 'connections', 'write')).resolves.toBeUndefined();
      await expect(authorize(req(['admin']), 'incidents', 'read')).rejects.toMatchObject({ statusCode: 404 });
      await expect(authorize({ caller: null } as any, 'canaries', 'read')).rejects.toMatchObject({ statusCode: 401 });

      // and over HTTP through the engine
      const read = await viewer.get('/api/db/canaries?select=id,name');
      expect(read.status).toBe(200);
      const write = await viewer.post('/api/db/canaries', { name: 'nope', spec: {} });
      expect(write.status).toBe(403);
      expect(write.body).toMatchObject({
        code: '42501',
        message: 'Forbidden: write access to canaries (table canaries) is required',
      });
      expect((await viewer.get('/api/db/connections')).status).toBe(403); // viewers do not read connections
      // an embedded table is checked too
      const embedded = await viewer.get('/api/db/teams?select=id,team_members(person_id)');
      expect(embedded.status).toBe(200);
      // a disabled feature's table is gone; secrets are not exposed at all
      expect((await admin.get('/api/db/incidents')).status).toBe(404);
      expect((await admin.get('/api/db/identity_credentials')).status).toBe(404);
      expect((await admin.get('/api/db/access_tokens')).status).toBe(404);
      const created = await admin.post(
        '/api/db/canaries',
        { name: 'by-admin', spec: {} },
        { prefer: 'return=representation' },
      );
      expect(created.status).toBe(201);
    });

    it('guards declared routes: 401, 403 naming the resource, 404 for a disabled feature', async () => {
      const users = await viewer.get('/api/auth/users');
      expect(users.status).toBe(403);
      expect(users.body).toMatchObject({ resource: 'identities', action: 'read' });
      expect(users.body.message).toMatch(/read access to identities/);
      expect((await admin.get('/api/auth/users')).status).toBe(200);
    });

    it('merges local flags over database rows and hides disabled features', async () => {
      const r = await viewer.get('/api/properties');
      expect(r.status).toBe(200);
      const props = propertiesSchema.parse(r.body);
      expect(props).toContainEqual({ name: 'incidents.disable', value: 'true', source: 'local' });
      expect(props).toContainEqual({ name: 'playbooks.disable', value: 'true', source: 'db' });
      expect(props).toContainEqual({ name: 'logs.disable', value: 'true', source: 'local' }); // local wins
      expect(props.filter((p) => p.name === 'logs.disable')).toHaveLength(1);
      expect(props).toContainEqual({ name: 'smtp.host', value: 'mail.internal', source: 'db' });
      // signed out, only the flags are visible (the web app needs them before sign-in)
      const anon = await new Browser(t.url).get('/api/properties');
      expect(anon.status).toBe(200);
      expect(anon.body.map((p: any) => p.name).sort()).toEqual([
        'incidents.disable',
        'logs.disable',
        'playbooks.disable',
      ]);
    });

    it('lets an admin invite, edit and delete users', async () => {
      const bad = await admin.post('/api/auth/invite_user', {
        firstName: '',
        lastName: 'X',
        email: 'nope',
        role: 'boss',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({
        firstName: 'Please provide valid first name',
        email: 'Entered value does not match email format',
        role: 'Please select any role',
      });
      expect(
        (await viewer.post('/api/auth/invite_user', { firstName: 'A', lastName: 'B', email: 'a@b.co', role: 'viewer' }))
          .status,
      ).toBe(403);

      const inv = await admin.post('/api/auth/invite_user', {
        firstName: 'Ivy',
        lastName: 'New',
        email: 'ivy@example.com',
        role: 'editor',
      });
      expect(inv.status).toBe(201);
      expect(inv.body.link).toMatch(new RegExp(`^${t.url}/api/auth/self-service/recovery\\?flow=[0-9a-f-]{36}&token=`));
      expect(
        (
          await admin.post('/api/auth/invite_user', {
            firstName: 'Ivy',
            lastName: 'New',
            email: 'IVY@example.com',
            role: 'editor',
          })
        ).status,
      ).toBe(409);

      // the invitee follows the link: signed in, sent to the settings page to choose a password
      const ivy = new Browser(t.url);
      const link = inv.body.link.slice(t.url.length);
      const follow = await ivy.get(link);
      expect(follow.status).toBe(303);
      expect(follow.headers.get('location')).toMatch(/^\/profile-settings\?flow=/);
      expect((await ivy.get('/api/auth/whoami')).body.roles).toEqual(['editor']);
      expect((await new Browser(t.url).get(link)).status).toBe(410); // single use
      const settings = (
        await ivy.get(`/api/auth/self-service/settings/flows?id=${follow.headers.get('location')!.split('flow=')[1]}`)
      ).body;
      expect(
        (await ivy.submit('settings', settings, { method: 'password', password: 'ivy chooses a passphrase' })).status,
      ).toBe(200);

      const list = await admin.get('/api/auth/users?pageSize=2&pageIndex=0');
      expect(list.body.totalEntries).toBe(3);
      expect(list.body.data).toHaveLength(2);
      const all = (await admin.get('/api/auth/users?pageSize=50')).body.data;
      const ivyRow = all.find((u: any) => u.email === 'ivy@example.com');
      expect(ivyRow).toMatchObject({
        name: { first: 'Ivy', last: 'New' },
        roles: ['editor'],
        role: 'editor',
        state: 'active',
      });

      const patched = await admin.patch(`/api/auth/users/${ivyRow.id}`, { role: 'viewer', lastName: 'Renamed' });
      expect(patched.status).toBe(200);
      expect(patched.body.roles).toEqual(['viewer']);
      expect(patched.body.name).toEqual({ first: 'Ivy', last: 'Renamed' });
      expect((await ivy.get('/api/auth/whoami')).body.roles).toEqual(['viewer']); // roles are read fresh

      const rootId = all.find((u: any) => u.email === 'root@example.com').id;
      expect((await admin.patch(`/api/auth/users/${rootId}`, { role: 'viewer' })).status).toBe(409); // last admin
      expect((await admin.delete(`/api/auth/users/${rootId}`)).status).toBe(400); // yourself

      expect((await admin.delete(`/api/auth/users/${ivyRow.id}`)).status).toBe(204);
      expect((await ivy.get('/api/auth/whoami')).status).toBe(401); // sessions revoked
      expect((await new Browser(t.url).login('ivy@example.com', 'ivy chooses a passphrase')).status).toBe(400);
      expect((await admin.get('/api/auth/users')).body.totalEntries).toBe(2);
      const person = await db.query<{ deleted_at: string | null }>(`SELECT deleted_at FROM people WHERE id = $1`, [
        ivyRow.id,
      ]);
      expect(person.rows[0].deleted_at).not.toBeNull(); // soft delete
      // the address can be invited again
      expect(
        (
          await admin.post('/api/auth/invite_user', {
            firstName: 'Ivy',
            lastName: 'Back',
            email: 'ivy@example.com',
            role: 'viewer',
          })
        ).status,
      ).toBe(201);
    });
  });

  describe(`AUTH=none and first run (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
    });
    afterAll(async () => {
      await db?.dispose();
    });

    it('treats every request as the admin system person; routes of a disabled feature answer 404', async () => {
      const t = await startLoggedApp(db, { authMode: 'none', localProperties: { 'settings.users.disable': 'true' } });
      try {
        const anon = new Browser(t.url);
        const who = await anon.get('/api/auth/whoami');
        expect(who.status).toBe(200);
        expect(whoamiSchema.parse(who.body)).toMatchObject({
          authMode: 'none',
          roles: ['admin'],
          user: { name: 'System' },
        });
        expect(who.body.permissions).toEqual(permissionsOf(['admin']));
        expect((await anon.get('/api/auth/tokens')).status).toBe(200);
        const users = await anon.get('/api/auth/users'); // feature settings.users is disabled
        expect(users.status).toBe(404);
        expect(users.body.message).toMatch(/not found/);
        // no sign-in flows: the browser already has a session, so the account pages go home
        const flow = await anon.get('/api/auth/self-service/login/browser?return_to=%2Fincidents');
        expect(flow.status).toBe(400);
        expect(flow.body).toMatchObject({
          error: { id: 'session_already_available' },
          redirect_browser_to: '/incidents',
        });
        const away = await anon.get('/api/auth/self-service/recovery/flows?id=x&return_to=%2F%2Fevil.example');
        expect(away.body).toMatchObject({ error: { id: 'session_already_available' }, redirect_browser_to: '/' });
      } finally {
        await t.app.close();
      }
    });

    it('creates the first admin once, with a generated password printed once on stdout, never logged', async () => {
      const lines: string[] = [];
      const printed: string[] = [];
      const log = pino({ level: 'info' }, new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
      const config = {
        ...loadConfig({ LOG_LEVEL: 'silent' }),
        adminEmail: 'first@example.com',
        adminPassword: undefined,
      };
      // an admin who cannot sign in (the demo data's: no credentials) does not count
      await createIdentity(db, {
        traits: { email: 'demo-admin@example.com', name: { first: 'Demo', last: 'Admin' } },
        roles: ['admin'],
      });
      const print = (text: string) => void printed.push(text);
      expect(await ensureFirstAdmin(db, config, log, print)).toBe('created');
      expect(await ensureFirstAdmin(db, config, log, print)).toBe('exists');
      expect(await ensureFirstAdmin(db, { ...config, adminEmail: 'second@example.com' }, log, print)).toBe('exists');
      // one plain block with the address and the password
      expect(printed).toHaveLength(1);
      const password = /^ {4}password: {2}(\S+)$/m.exec(printed[0])?.[1];
      expect(password).toMatch(/^\S{16,}$/);
      expect(printed[0]).toMatch(/^ {4}email: {5}first@example\.com$/m);
      // the log says where to look, and never carries the password
      expect(lines.map((l) => JSON.parse(l).msg)).toContainEqual(
        expect.stringMatching(/printed once on stdout \(not logged\)/),
      );
      expect(lines.some((l) => l.includes(password!))).toBe(false);
      const t = await startLoggedApp(db);
      try {
        const b = new Browser(t.url);
        expect((await b.login('first@example.com', password!)).status).toBe(200);
        expect((await b.get('/api/auth/whoami')).body.roles).toEqual(['admin']);
      } finally {
        await t.app.close();
      }
    });
  });
}

// A route of a disabled feature answers 404, one without permission 403: checked on a bare
// Fastify with the same guard, so the test does not depend on other areas' routes.
describe('route guard', () => {
  it('declares feature and access per route', async () => {
    const { createGuard, needs } = await import('#server/auth/guard.ts');
    const app = Fastify();
    app.decorateRequest('caller', null);
    const roles = { current: ['viewer'] as string[] };
    app.addHook(
      'preHandler',
      createGuard({
        resolveCaller: async (req) =>
          req.headers['x-anon']
            ? null
            : { via: 'session', person: { id: '1', name: 'n', email: null, avatar: null }, roles: roles.current },
        isFeatureDisabled: async (f) => f === 'incidents',
        aal2Redirect: '/login',
      }),
    );
    app.get('/api/incidents/x', { config: needs('incident', 'read', { feature: 'incidents' }) }, async () => ({
      ok: true,
    }));
    app.post('/api/canary/run', { config: needs('canaries', 'write', { feature: 'health' }) }, async () => ({
      ok: true,
    }));
    app.get('/api/open', { config: { public: true } }, async () => ({ ok: true }));
    app.get('/index.html', async () => 'page');
    await app.ready();
    expect((await app.inject({ url: '/api/incidents/x' })).statusCode).toBe(404);
    const denied = await app.inject({ method: 'POST', url: '/api/canary/run' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Forbidden: write access to canaries is required');
    roles.current = ['editor'];
    expect((await app.inject({ method: 'POST', url: '/api/canary/run' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/canary/run', headers: { 'x-anon': '1' } })).statusCode).toBe(
      401,
    );
    expect((await app.inject({ url: '/api/open', headers: { 'x-anon': '1' } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/index.html', headers: { 'x-anon': '1' } })).statusCode).toBe(200);
    await app.close();
  });
});
