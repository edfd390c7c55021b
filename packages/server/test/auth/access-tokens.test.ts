/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

/**
 * Personal access tokens: scoped to a role no higher than the owner's, revoked for good when the
 * owner is deactivated, listed and revoked by administrators, and a lifetime that is too long is
 * a 400 rather than a 500.
 */

const PASSWORD = 'access token passphrase';

for (const driver of testDrivers()) {
  describe(`access tokens (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    const ids: Record<string, string> = {};
    const sessions: Record<string, Browser> = {};

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const asToken = (token: string, method: string, path: string, body?: unknown) =>
      new Browser(t.url).request(method, path, body, bearer(token));
    const mint = async (who: string, body: Record<string, unknown>) => sessions[who].post('/api/auth/tokens', body);

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authRateLimit: 10_000 });
      for (const [name, role] of [
        ['ada', 'admin'],
        ['eve', 'editor'],
        ['vic', 'viewer'],
        ['ron', 'responder'],
      ] as const) {
        const i = await createIdentity(db, {
          traits: { email: `${name}@tokens.test`, name: { first: name, last: 'Token' } },
          roles: [role],
          password: PASSWORD,
        });
        ids[name] = i.id;
        sessions[name] = new Browser(t.url);
        expect((await sessions[name].login(`${name}@tokens.test`, PASSWORD)).status).toBe(200);
      }
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('a scoped token acts with its role, never above its owner', async () => {
      const full = await mint('ada', { name: 'full' });
      expect(full.status).toBe(201);
      expect(full.body.role).toBeNull();
      const viewer = await mint('ada', { name: 'read only', role: 'viewer' });
      expect(viewer.status).toBe(201);
      expect(viewer.body.role).toBe('viewer');

      expect((await asToken(full.body.token, 'GET', '/api/auth/users')).status).toBe(200);
      const who = await asToken(viewer.body.token, 'GET', '/api/auth/whoami');
      expect(who.status).toBe(200);
      expect(who.body.roles).toEqual(['viewer']);
      expect(who.body.permissions.identities).toEqual([]);
      expect((await asToken(viewer.body.token, 'GET', '/api/auth/users')).status).toBe(403);
      const write = await asToken(viewer.body.token, 'POST', '/api/db/incidents', { title: 'by a viewer token' });
      expect(write.status).toBe(403);
      const editor = await mint('ada', { name: 'editor', role: 'editor' });
      const invite = await asToken(editor.body.token, 'POST', '/api/auth/invite_user', {
        firstName: 'No',
        lastName: 'Way',
        email: 'noway@tokens.test',
        role: 'admin',
      });
      expect(invite.status).toBe(403);
      expect(invite.body.message).toBe('Forbidden: write access to identities is required');
      // the listing shows each token's role
      const mine = await sessions.ada.get('/api/auth/tokens');
      expect(Object.fromEntries(mine.body.map((x: any) => [x.name, x.role]))).toMatchObject({
        full: null,
        'read only': 'viewer',
        editor: 'editor',
      });
    });

    it("refuses a role higher than the owner's with a clear 400", async () => {
      const up = await mint('eve', { name: 'escalate', role: 'admin' });
      expect(up.status).toBe(400);
      expect(up.body.message).toBe(
        "A token's role cannot be higher than your own: choose one of editor, commander, responder, viewer.",
      );
      expect((await mint('vic', { name: 'escalate', role: 'responder' })).status).toBe(400);
      expect((await mint('ron', { name: 'sideways', role: 'commander' })).status).toBe(400); // commander may run checks
      expect((await mint('eve', { name: 'incidents only', role: 'commander' })).status).toBe(201);
      const bad = await mint('eve', { name: 'what', role: 'superuser' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('role must be one of admin, editor, commander, responder, viewer');
      const rows = await db.query(`SELECT 1 FROM access_tokens WHERE name IN ('escalate', 'sideways', 'what')`);
      expect(rows.rows).toHaveLength(0);
    });

    it('a scoped token follows its owner down when the owner is demoted', async () => {
      const tok = await mint('eve', { name: 'editor scoped', role: 'editor' });
      expect((await asToken(tok.body.token, 'GET', '/api/auth/whoami')).body.roles).toEqual(['editor']);
      expect((await sessions.ada.patch(`/api/auth/users/${ids.eve}`, { role: 'viewer' })).status).toBe(200);
      expect((await asToken(tok.body.token, 'GET', '/api/auth/whoami')).body.roles).toEqual(['viewer']);
      expect((await sessions.ada.patch(`/api/auth/users/${ids.eve}`, { role: 'editor' })).status).toBe(200);
    });

    it("a deactivated user's tokens stay revoked after reactivation", async () => {
      const tok = await mint('vic', { name: 'script' });
      expect((await asToken(tok.body.token, 'GET', '/api/auth/whoami')).status).toBe(200);
      expect((await sessions.ada.patch(`/api/auth/users/${ids.vic}`, { active: false })).status).toBe(200);
      expect((await asToken(tok.body.token, 'GET', '/api/auth/whoami')).status).toBe(401);
      expect((await sessions.ada.patch(`/api/auth/users/${ids.vic}`, { active: true })).status).toBe(200);
      expect((await asToken(tok.body.token, 'GET', '/api/auth/whoami')).status).toBe(401);
      const vic = new Browser(t.url);
      expect((await vic.login('vic@tokens.test', PASSWORD)).status).toBe(200); // the account itself works again
      expect((await vic.get('/api/auth/tokens')).body).toEqual([]);
      sessions.vic = vic;
    });

    it("administrators list and revoke any user's tokens", async () => {
      const tok = await mint('ron', { name: 'ron laptop', expires_in: '30d' });
      const list = await sessions.ada.get(`/api/auth/users/${ids.ron}/tokens`);
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).toMatchObject({ id: tok.body.id, name: 'ron laptop', role: null });
      expect(Object.keys(list.body[0]).sort()).toEqual([
        'created_at',
        'expires_at',
        'id',
        'last_used_at',
        'name',
        'role',
      ]);
      expect(JSON.stringify(list.body)).not.toContain(tok.body.token);

      // others may not
      expect((await sessions.eve.get(`/api/auth/users/${ids.ron}/tokens`)).status).toBe(403);
      expect((await sessions.ron.get(`/api/auth/users/${ids.ron}/tokens`)).status).toBe(403);
      expect((await sessions.eve.delete(`/api/auth/users/${ids.ron}/tokens/${tok.body.id}`)).status).toBe(403);
      // a token id must belong to the user in the path
      expect((await sessions.ada.delete(`/api/auth/users/${ids.eve}/tokens/${tok.body.id}`)).status).toBe(404);
      expect((await sessions.ada.get(`/api/auth/users/7e57e57e-0000-4000-8000-000000000000/tokens`)).status).toBe(404);

      expect((await sessions.ada.delete(`/api/auth/users/${ids.ron}/tokens/${tok.body.id}`)).status).toBe(204);
      expect((await asToken(tok.body.token, 'GET', '/api/auth/whoami')).status).toBe(401);
      expect((await sessions.ada.get(`/api/auth/users/${ids.ron}/tokens`)).body).toEqual([]);
      expect((await sessions.ada.delete(`/api/auth/users/${ids.ron}/tokens/${tok.body.id}`)).status).toBe(404);
    });

    it('answers 400, not 500, for a lifetime past ten years or one that is not a duration', async () => {
      for (const expires_in of ['99999999d', '3651d', 1e308, 999999999999, '11y']) {
        const r = await mint('ada', { name: 'forever', expires_in });
        expect(r.status, String(expires_in)).toBe(400);
        expect(r.body.message).toBe('expires_in must be at most 10 years (3650d)');
      }
      for (const expires_in of ['soon', -5, '0', true, { days: 3 }]) {
        const r = await mint('ada', { name: 'odd', expires_in });
        expect(r.status, JSON.stringify(expires_in)).toBe(400);
        expect(r.body.message).toBe("expires_in must be a number of seconds or a duration such as '30d'");
      }
      expect((await mint('ada', { name: '' })).body.message).toBe('name is required (at most 200 characters)');
      const ok = await mint('ada', { name: 'ten years', expires_in: '3650d' });
      expect(ok.status).toBe(201);
      const years = (new Date(ok.body.expires_at).getTime() - Date.now()) / (365 * 86_400_000);
      expect(years).toBeGreaterThan(9.99);
      expect(years).toBeLessThanOrEqual(10);
      expect((await mint('ada', { name: 'no expiry', expires_in: null })).body.expires_at).toBeNull();
    });
  });
}
