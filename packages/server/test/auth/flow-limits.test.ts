/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

/**
 * Anonymous callers create a self-service flow (a row) with every GET .../<type>/browser. New
 * flows are rate-limited per client address across all flow types, the rows one address holds
 * are capped (its expired, then its oldest unused flows give way), refusals write nothing, and
 * expired flows are pruned from the start.
 */

const count = async (db: { query: (sql: string) => Promise<{ rows: any[] }> }, table: string) =>
  (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;

function tooMany(r: any) {
  expect(r.status, JSON.stringify(r.body)).toBe(429);
  expect(r.body.error).toMatchObject({ id: 'too_many_requests', code: 429, status: 'Too Many Requests' });
  expect(r.body.message).toBe('Too many requests from this address. Please wait a moment before trying again.');
  expect(r.body.id).toBeUndefined(); // not stored
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
}

for (const driver of testDrivers()) {
  describe(`limits on new identity flows (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    const apps: TestApp[] = [];
    const start = async (overrides: Parameters<typeof startLoggedApp>[1]) => {
      const t = await startLoggedApp(db, overrides);
      apps.push(t);
      return t;
    };

    beforeAll(async () => {
      db = await driver.open();
    });
    afterEach(async () => {
      while (apps.length) await apps.pop()!.app.close();
      await db.query(`DELETE FROM identity_flows`);
      await db.query(`DELETE FROM identity_errors`);
    });
    afterAll(async () => {
      await db?.dispose();
    });

    it('rate-limits new flows per address, one budget for every flow type', async () => {
      const t = await start({ authFlowRateLimit: 5, authFlowsPerAddress: 1000, registrationEnabled: true });
      const b = new Browser(t.url);
      const types = ['login', 'registration', 'recovery', 'login', 'verification'];
      for (const type of types) expect((await b.get(`/api/auth/self-service/${type}/browser`)).status).toBe(200);
      const errorsBefore = await count(db, 'identity_errors');
      for (let i = 0; i < 20; i++) tooMany(await b.get('/api/auth/self-service/login/browser'));
      tooMany(await new Browser(t.url).get('/api/auth/self-service/registration/browser')); // a new cookie jar does not help
      tooMany(await b.get('/api/auth/self-service/login/browser', { accept: 'text/html' })); // nor a navigation
      // refusals that would store an error (no session for settings) count and are refused too
      tooMany(await b.get('/api/auth/self-service/settings/browser'));
      expect(await count(db, 'identity_flows')).toBe(5);
      expect(await count(db, 'identity_errors')).toBe(errorsBefore);
      // the budget is per address and minute: a flow already made still works
      const flows = await db.query<{ client_hash: string | null }>(`SELECT client_hash FROM identity_flows`);
      expect(flows.rows.every((r) => r.client_hash && !r.client_hash.includes('127.0.0.1'))).toBe(true);
    });

    it('caps the flows one address holds: expired and oldest unused ones give way, else 429', async () => {
      const t = await start({ authFlowRateLimit: 1000, authFlowsPerAddress: 4, authRateLimit: 1000 });
      const b = new Browser(t.url);
      const make = async () => {
        const r = await b.get('/api/auth/self-service/login/browser');
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body;
      };
      const use = async (flow: any) =>
        expect(
          (await b.submit('login', flow, { method: 'password', identifier: 'x@limits.test', password: 'not this one' }))
            .status,
        ).toBe(400);
      const ids = async () => (await db.query<{ id: string }>(`SELECT id FROM identity_flows`)).rows.map((r) => r.id);

      const [a, bb, c, d] = [await make(), await make(), await make(), await make()];
      await use(a);
      const e = await make(); // at the cap: b, the oldest flow never used, gives way
      expect((await ids()).sort()).toEqual([a.id, c.id, d.id, e.id].sort());
      expect((await b.get(`/api/auth/self-service/login/flows?id=${bb.id}`)).status).toBe(404);
      await use(c);
      await use(d);
      await use(e);
      // every flow of the address is in use: refused, nothing written or dropped
      tooMany(await b.get('/api/auth/self-service/login/browser'));
      expect((await ids()).sort()).toEqual([a.id, c.id, d.id, e.id].sort());
      // an expired one gives way first
      await db.query(`UPDATE identity_flows SET expires_at = now() - interval '1 minute' WHERE id = $1`, [e.id]);
      const f = await make();
      expect((await ids()).sort()).toEqual([a.id, c.id, d.id, f.id].sort());
      // the used flows still work
      await use(a);
    });

    it('prunes flows expired more than a day ago at start, not only hourly', async () => {
      const t = await start({});
      const b = new Browser(t.url);
      const old = (await b.get('/api/auth/self-service/login/browser')).body;
      const recent = (await b.get('/api/auth/self-service/login/browser')).body;
      await db.query(`UPDATE identity_flows SET expires_at = now() - interval '2 days' WHERE id = $1`, [old.id]);
      await db.query(`UPDATE identity_flows SET expires_at = now() - interval '2 hours' WHERE id = $1`, [recent.id]);
      await start({}); // a restart
      const deadline = Date.now() + 5000;
      let left: string[];
      do {
        left = (await db.query<{ id: string }>(`SELECT id FROM identity_flows`)).rows.map((r) => r.id);
        if (!left.includes(old.id)) break;
        await new Promise((r) => setTimeout(r, 50));
      } while (Date.now() < deadline);
      expect(left).toEqual([recent.id]); // a recently expired flow stays for its 410 and replacement
    });
  });
}
