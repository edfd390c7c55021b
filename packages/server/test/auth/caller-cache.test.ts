import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '../../src/auth/identities.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

// Guarded routes cache the caller of a session cookie for a second (own-provider.ts). These
// check that the cache never outlives a change made in this process.
for (const driver of testDrivers()) {
  describe(`caller cache (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    const PASSWORD = 'correct horse battery staple';
    let bobId: string;

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, {});
      await createIdentity(db, { traits: { email: 'ann@example.com', name: { first: 'Ann', last: 'Admin' } }, roles: ['admin'], password: PASSWORD });
      bobId = (await createIdentity(db, { traits: { email: 'bob@example.com', name: { first: 'Bob', last: 'Editor' } }, roles: ['editor'], password: PASSWORD })).id;
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
      const replay = await fetch(`${t.url}/api/db/canaries?select=id`, { headers: { cookie: `watchdeck_session=${cookie}` } });
      expect(replay.status).toBe(401);
    });

    it('applies a role change on the very next request', async () => {
      const bob = new Browser(t.url);
      expect((await bob.login('bob@example.com', PASSWORD)).status).toBe(200);
      const write = () => bob.post('/api/db/canaries', { name: `c-${Math.random()}`, spec: {} }, { prefer: 'return=minimal' });
      expect((await write()).status).toBe(201);
      const ann = new Browser(t.url);
      expect((await ann.login('ann@example.com', PASSWORD)).status).toBe(200);
      const demoted = await ann.patch(`/api/db/people_roles?id=eq.${bobId}`, { roles: ['viewer'] });
      expect(demoted.status).toBeLessThan(300);
      expect((await write()).status).toBe(403);
    });
  });
}
