import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import v8 from 'node:v8';
import vm from 'node:vm';
import { testDrivers } from '../support/db.ts';
import { enc, startFixture, type Fixture, type HttpResult } from './support.ts';

/**
 * Issue 12 point 4: a signed-in caller cannot exhaust the database through /api/db. Embeds per
 * request and their nesting are bounded (refused before any SQL runs), an answer over the size
 * limit is refused without its body ever reaching the server, and (PostgreSQL) a statement over
 * the statement timeout is cancelled. Each is a 400 in PostgREST's error shape.
 */
const limits = { maxEmbeds: 6, maxEmbedDepth: 3, maxResponseBytes: 256 * 1024 };

/** books -> author -> books -> author ... `levels` embeds deep */
function nested(levels: number): string {
  let inner = 'id';
  for (let i = levels; i > 0; i--)
    inner = i % 2 ? `id,author:authors!author_id(${inner})` : `id,books!author_id(${inner})`;
  return inner;
}

const expectLimit = (r: HttpResult, code: string, message: RegExp) => {
  expect(r.status, r.text.slice(0, 300)).toBe(400);
  expect(Object.keys(r.json).sort()).toEqual(['code', 'details', 'hint', 'message']);
  expect(r.json.code).toBe(code);
  expect(r.json.message).toMatch(message);
  expect(r.json.hint).toMatch(/WATCHDECK_DB_/);
};

describe.each(testDrivers())('/api/db limits ($name)', (driver) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(driver, { rowCap: 100_000, limits });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('refuses a 20-level nested read before it runs, and allows the configured depth', async () => {
    const started = performance.now();
    const deep = await fx.http('GET', `/books?select=${enc(nested(20))}`);
    expectLimit(deep, '54000', /^Embedded resources are nested 20 levels deep; at most 3 are allowed$/);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await fx.http('GET', `/books?select=${enc(nested(3))}&limit=1`)).status).toBe(200);
    expectLimit(await fx.http('GET', `/books?select=${enc(nested(4))}`), '54000', /nested 4 levels deep; at most 3/);
  });

  it('refuses more embeds than allowed, counting every level', async () => {
    const embeds = (n: number) => Array.from({ length: n }, (_, i) => `a${i}:authors!author_id(id)`).join(',');
    expect((await fx.http('GET', `/books?select=id,${embeds(6)}&limit=1`)).status).toBe(200);
    expectLimit(
      await fx.http('GET', `/books?select=id,${embeds(7)}`),
      '54000',
      /^The select has 7 embedded resources; at most 6 are allowed$/,
    );
    // five at the top and two inside one of them: seven
    const mixed = `id,${embeds(4)},books:books!author_id(id,x:authors!author_id(id),y:authors!editor_id(id))`;
    expectLimit(await fx.http('GET', `/authors?select=${enc(mixed)}`), '54000', /has 7 embedded/);
    // writes and functions are held to the same select limits
    const write = await fx.http(
      'POST',
      `/authors?select=id,${embeds(7).replace(/authors!author_id/g, 'books!author_id')}`,
      {
        headers: { 'Content-Type': 'application/json', Prefer: 'return=representation' },
        body: JSON.stringify({ id: 9001, name: 'Never Written' }),
      },
    );
    expectLimit(write, '54000', /has 7 embedded/);
    expect((await fx.http('GET', '/authors?id=eq.9001')).json).toEqual([]);
  });

  describe('answer size', () => {
    beforeAll(async () => {
      // 2,000 rows of 1 KB: a 2 MB answer against a 256 KB limit
      await fx.db.exec(
        `INSERT INTO numbers (n, parity) SELECT 10000 + g, repeat('x', 1000) FROM generate_series(1, 2000) g`,
      );
    });
    afterAll(async () => {
      await fx.db.exec(`DELETE FROM numbers WHERE n > 10000`);
    });

    it('refuses an answer over the limit with its size, and serves one within it', async () => {
      const big = await fx.http('GET', '/numbers?select=*&n=gt.10000');
      expectLimit(big, '54000', /^The answer would be 2\.\d MB; at most 0\.3 MB are allowed$/);
      const small = await fx.http('GET', '/numbers?select=*&n=gt.10000&limit=100');
      expect(small.status).toBe(200);
      expect(small.json).toHaveLength(100);
      // a write whose representation is over the limit is refused and rolled back
      const rows = Array.from({ length: 300 }, (_, i) => ({ n: 20000 + i, parity: 'y'.repeat(1000) }));
      const write = await fx.http('POST', '/numbers', {
        headers: { 'Content-Type': 'application/json', Prefer: 'return=representation' },
        body: JSON.stringify(rows),
      });
      expectLimit(write, '54000', /^The answer would be/);
      expect((await fx.http('GET', '/numbers?select=n&n=gte.20000')).json).toEqual([]);
    });

    it('keeps no memory for refused answers: the body never reaches the server', async () => {
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      // warm up the path (plan cache, JIT) before measuring
      for (let i = 0; i < 3; i++) expect((await fx.http('GET', '/numbers?select=*&n=gt.10000')).status).toBe(400);
      gc();
      const before = process.memoryUsage();
      let largest = 0;
      for (let i = 0; i < 20; i++) {
        const r = await fx.http('GET', '/numbers?select=*&n=gt.10000');
        expect(r.status).toBe(400);
        largest = Math.max(largest, process.memoryUsage().heapUsed - before.heapUsed);
      }
      gc();
      const after = process.memoryUsage();
      // twenty 2 MB answers would have passed through the heap; none did, and nothing stayed
      expect(after.heapUsed - before.heapUsed).toBeLessThan(8 * 1024 * 1024);
      expect(after.external + after.arrayBuffers - before.external - before.arrayBuffers).toBeLessThan(8 * 1024 * 1024);
      expect(largest).toBeLessThan(40 * 1024 * 1024);
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('/api/db statement timeout (PostgreSQL)', () => {
  let fx: Fixture;
  beforeAll(async () => {
    const pg = testDrivers().find((d) => d.name === 'pg')!;
    fx = await startFixture(pg, { statementTimeoutMs: 300, limits: { statementTimeoutMs: 300 } });
    // a view that takes two seconds to read, under a name the fixture exposes
    await fx.db.exec(`CREATE VIEW late_table AS SELECT 1 AS id FROM (SELECT pg_sleep(2)) s`);
    await fx.reloadSchema();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('cancels a statement over the timeout: 400 57014 saying which limit, and the next request is served', async () => {
    const started = performance.now();
    const r = await fx.http('GET', '/late_table');
    expect(performance.now() - started).toBeLessThan(1800);
    expectLimit(r, '57014', /^canceling statement due to statement timeout$/);
    expect(r.json.hint).toMatch(/\(0\.3 s\)/);
    expect((await fx.http('GET', '/authors?select=id&limit=1')).status).toBe(200);
  });
});
