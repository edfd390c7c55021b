// Feature flags over real HTTP: database flags are created, updated and deleted through
// /api/properties; local flags (WATCHDECK_PROPERTIES) are listed but refuse every edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { Browser, startLoggedApp, type TestApp } from '../auth/support.ts';
import { createIdentity } from '#server/auth/identities.ts';

const LOCAL = { 'incidents.disable': 'true', 'banner.text': 'from the environment' };
const PASSWORD = 'correct horse battery staple';

for (const driver of testDrivers()) {
  describe(`feature flags API (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let api: Browser;

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authMode: 'none', localProperties: LOCAL });
      api = new Browser(t.url);
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    const list = async () =>
      (await api.get('/api/properties')).body as { name: string; value: string; source: string }[];

    it('creates a flag with its creator, lists it beside the local ones, updates and deletes it', async () => {
      const created = await api.post('/api/properties', {
        name: 'canary.runner.threads',
        value: '8',
        description: 'Workers per canary',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'canary.runner.threads',
        value: '8',
        description: 'Workers per canary',
      });
      const who = await api.get('/api/auth/whoami');
      expect(created.body.created_by).toBe(who.body.user.id);

      expect(await list()).toEqual(
        expect.arrayContaining([
          { name: 'canary.runner.threads', value: '8', source: 'db' },
          { name: 'incidents.disable', value: 'true', source: 'local' },
          { name: 'banner.text', value: 'from the environment', source: 'local' },
        ]),
      );
      const rows = await api.get(
        '/api/db/properties?select=name,value,description,created_by(id,name)&name=eq.canary.runner.threads',
      );
      expect(rows.body).toEqual([
        {
          name: 'canary.runner.threads',
          value: '8',
          description: 'Workers per canary',
          created_by: { id: who.body.user.id, name: who.body.user.name },
        },
      ]);

      const updated = await api.patch('/api/properties/canary.runner.threads', { value: '16' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ value: '16', description: 'Workers per canary' });
      const cleared = await api.patch('/api/properties/canary.runner.threads', { value: '16', description: '' });
      expect(cleared.body.description).toBeNull();
      expect(new Date(cleared.body.updated_at).getTime()).toBeGreaterThanOrEqual(
        new Date(created.body.updated_at).getTime(),
      );

      expect((await api.delete('/api/properties/canary.runner.threads')).status).toBe(204);
      expect((await list()).map((p) => p.name)).not.toContain('canary.runner.threads');
      expect((await api.delete('/api/properties/canary.runner.threads')).status).toBe(404);
      expect((await api.patch('/api/properties/canary.runner.threads', { value: '1' })).status).toBe(404);
    });

    it("needs both a name and a value: 'please provide all details'", async () => {
      for (const body of [
        { name: 'x.y' },
        { value: 'true' },
        { name: '  ', value: 'true' },
        { name: 'x.y', value: '   ' },
        {},
      ]) {
        const r = await api.post('/api/properties', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'please provide all details' });
      }
      await api.post('/api/properties', { name: 'needs.value', value: 'a' });
      const r = await api.patch('/api/properties/needs.value', { value: '' });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('please provide all details');
      expect(r.body.errors).toEqual({ value: 'please provide all details' });
      expect((await api.post('/api/properties', { name: 'has space', value: 'a' })).status).toBe(400);
      expect((await api.patch('/api/properties/needs.value', { name: 'other.name', value: 'a' })).status).toBe(400);
      const dup = await api.post('/api/properties', { name: 'needs.value', value: 'b' });
      expect(dup.status).toBe(409);
    });

    it("refuses to create, edit or delete a local flag: 'Cannot edit local feature flags'", async () => {
      for (const r of [
        await api.post('/api/properties', { name: 'incidents.disable', value: 'false' }),
        await api.patch('/api/properties/incidents.disable', { value: 'false' }),
        await api.delete('/api/properties/banner.text'),
      ]) {
        expect(r.status).toBe(409);
        expect(r.body).toEqual({
          statusCode: 409,
          code: 'local_flag',
          error: 'Conflict',
          message: 'Cannot edit local feature flags',
        });
      }
      expect(await list()).toContainEqual({ name: 'incidents.disable', value: 'true', source: 'local' });
      const { rows } = await db.query(`SELECT name FROM properties WHERE name IN ('incidents.disable', 'banner.text')`);
      expect(rows).toEqual([]);
    });

    it('writes go through /api/properties only', async () => {
      const r = await api.post('/api/db/properties', { name: 'sneaky', value: 'true' });
      expect(r.status).toBe(405);
      expect((await api.request('DELETE', '/api/db/properties?name=eq.banner.text')).status).toBe(405);
    });

    it('applies a new flag on the next request (the flag cache is dropped)', async () => {
      expect((await api.get('/api/db/playbooks?limit=1')).status).toBe(200);
      expect((await api.post('/api/properties', { name: 'playbooks.disable', value: 'true' })).status).toBe(201);
      expect((await api.get('/api/db/playbooks?limit=1')).status).toBe(404);
      expect((await api.patch('/api/properties/playbooks.disable', { value: 'false' })).status).toBe(200);
      expect((await api.get('/api/db/playbooks?limit=1')).status).toBe(200);
      expect(
        (await api.post('/api/properties', { name: 'settings.feature_flags.disable', value: 'true' })).status,
      ).toBe(201);
      // the feature flags page itself can be switched off: its writes are gone then
      expect((await api.delete('/api/properties/settings.feature_flags.disable')).status).toBe(404);
      await db.query(`DELETE FROM properties WHERE name = 'settings.feature_flags.disable'`);
    });
  });

  describe(`feature flags API permissions (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    const as: Record<string, Browser> = {};

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { logLevel: 'silent' });
      for (const role of ['editor', 'viewer']) {
        await createIdentity(db, {
          traits: { email: `${role}@example.com`, name: { first: role, last: 'User' } },
          roles: [role],
          password: PASSWORD,
        });
        as[role] = new Browser(t.url);
        expect((await as[role].login(`${role}@example.com`, PASSWORD)).status).toBe(200);
      }
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('lets editors write flags and refuses viewers and anonymous callers', async () => {
      expect((await as.editor.post('/api/properties', { name: 'team.flag', value: 'on' })).status).toBe(201);
      const denied = await as.viewer.post('/api/properties', { name: 'viewer.flag', value: 'on' });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toMatch(/write access to properties/);
      expect((await as.viewer.patch('/api/properties/team.flag', { value: 'off' })).status).toBe(403);
      expect((await as.viewer.delete('/api/properties/team.flag')).status).toBe(403);
      expect((await new Browser(t.url).post('/api/properties', { name: 'anon.flag', value: 'on' })).status).toBe(401);
      expect((await as.editor.delete('/api/properties/team.flag')).status).toBe(204);
    });
  });
}
