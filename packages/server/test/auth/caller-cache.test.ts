/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

// Guarded routes cache the caller of a session cookie for a second (own-provider.ts). These
// check that the cache never outlives a change made in this process.
for (const driver of testDrivers()) {
  describe(`caller cache (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    const PASSWORD = 'correct horse battery staple';
    let bobId: string;
    let annId: string;

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, {});
      annId = (
        await createIdentity(db, {
          traits: { email: 'ann@example.com', name: { first: 'Ann', last: 'Admin' } },
          roles: ['admin'],
          password: PASSWORD,
        })
      ).id;
      bobId = (
        await createIdentity(db, {
          traits: { email: 'bob@example.com', name: { first: 'Bob', last: 'Editor' } },
          roles: ['editor'],
          password: PASSWORD,
        })
      ).id;
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('refuses a signed-out session on the very next request', async () => {
      const b = new Browser(t.url);
      expect((await b.login('bob@example.com', PASSWORD)).status).toBe(200);
      const cookie = b.cookies.get('watchdeck_session')!;
      expect((await b.get('/api/db/canaries?select=id')).status).toBe(200);
      expect((await b.post('/api/auth/logout')).status).toBe(204);
      // replay the old cookie at once: the cached caller must be gone
      const replay = await fetch(`${t.url}/api/db/canaries?select=id`, {
        headers: { cookie: `watchdeck_session=${cookie}` },
      });
      expect(replay.status).toBe(401);
    });

    it('applies a role change on the very next request', async () => {
      const bob = new Browser(t.url);
      expect((await bob.login('bob@example.com', PASSWORD)).status).toBe(200);
      const write = () =>
        bob.post('/api/db/canaries', { name: `c-${Math.random()}`, spec: {} }, { prefer: 'return=minimal' });
      expect((await write()).status).toBe(201);
      const ann = new Browser(t.url);
      expect((await ann.login('ann@example.com', PASSWORD)).status).toBe(200);
      const demoted = await ann.patch(`/api/db/people_roles?id=eq.${bobId}`, { roles: ['viewer'] });
      expect(demoted.status).toBeLessThan(300);
      expect((await write()).status).toBe(403);
    });

    // Each change below is made while Bob's caller is cached (a request of his answered the old
    // way first), and the next request of his must see it: only the dropped cache explains that.
    it('drops cached callers after a committed write to the team tables through /api/db', async () => {
      const ann = new Browser(t.url);
      expect((await ann.login('ann@example.com', PASSWORD)).status).toBe(200);
      const bob = new Browser(t.url);
      expect((await bob.login('bob@example.com', PASSWORD)).status).toBe(200);
      const [component] = (
        await db.query<{ id: string }>(`INSERT INTO components (name) VALUES ('cache-component') RETURNING id`)
      ).rows;
      const write = async () =>
        (await bob.post('/api/db/canaries', { name: `c-${Math.random()}`, spec: {} }, { prefer: 'return=minimal' }))
          .status;
      // roles changed behind the engine's back, so only the table write can drop the cache
      const setBobRoles = (roles: string[]) =>
        db.query(`UPDATE people_roles SET roles = $2 WHERE id = $1`, [bobId, roles]);

      await setBobRoles(['editor']);
      expect(await write()).toBe(201);
      let teamId = '';
      const steps: [string, string[], () => Promise<{ status: number; body: any }>][] = [
        [
          'teams',
          ['viewer'],
          () => ann.post('/api/db/teams', { name: 'cache-team', spec: {} }, { prefer: 'return=representation' }),
        ],
        ['team_members', ['editor'], () => ann.post('/api/db/team_members', { team_id: teamId, person_id: annId })],
        [
          'team_components',
          ['viewer'],
          () => ann.post('/api/db/team_components', { team_id: teamId, component_id: component.id }),
        ],
      ];
      for (const [table, roles, change] of steps) {
        const cached = await write();
        await setBobRoles(roles);
        expect(await write(), `${table}: still the cached caller before the write`).toBe(cached);
        const res = await change();
        expect(res.status, `${table}: ${JSON.stringify(res.body)}`).toBe(201);
        if (table === 'teams') teamId = res.body[0].id;
        expect(await write(), `${table}: the next request sees the new roles`).toBe(
          roles.includes('editor') ? 201 : 403,
        );
      }
    });

    it('applies a role change made through the users routes on the very next request', async () => {
      const ann = new Browser(t.url);
      expect((await ann.login('ann@example.com', PASSWORD)).status).toBe(200);
      const bob = new Browser(t.url);
      expect((await bob.login('bob@example.com', PASSWORD)).status).toBe(200);
      const write = async () =>
        (await bob.post('/api/db/canaries', { name: `c-${Math.random()}`, spec: {} }, { prefer: 'return=minimal' }))
          .status;
      for (const role of ['editor', 'viewer', 'editor']) {
        expect((await ann.patch(`/api/auth/users/${bobId}`, { role })).status).toBe(200);
        expect(await write(), role).toBe(role === 'editor' ? 201 : 403);
      }
    });
  });
}
