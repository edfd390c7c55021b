import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { PlanCache } from '#server/pgrest/plan-cache.ts';
import { parseQueryString } from '#server/pgrest/parse.ts';
import { planRead, type PlanContext } from '#server/pgrest/plans.ts';
import { interpret } from '#server/pgrest/request.ts';
import { parsePrefer, parseRange } from '#server/pgrest/respond.ts';
import { loadSchemaCache, type SchemaCache } from '#server/pgrest/schema-cache.ts';
import { fixtureExposed, startFixture, type Fixture } from './support.ts';

/**
 * Reads of one shape share a plan (plan-cache.ts). The property that matters: a plan taken from
 * the cache and bound with a request's values is exactly the plan that request would have been
 * given without the cache — same SQL, same parameters — and requests whose SQL differs never
 * share an entry.
 */
const ROW_CAP = 50;

/** [first request, second request of the same shape] */
const SAME_SHAPE: [string, string, string?][] = [
  ['books?id=eq.1', 'books?id=eq.2'],
  ['books?select=id,title&id=eq.1&order=id', 'books?select=id,title&id=eq.3&order=id'],
  ['books?title=like.*Earth*&pages=gt.100', 'books?title=like.A*&pages=gt.5'],
  ['books?title=ilike.*wiz*&pages=not.lte.10', 'books?title=ilike.%25x_&pages=not.lte.300'],
  ['books?title=match.^A&summary=imatch.sea$', 'books?title=match.B&summary=imatch.c'],
  ['books?id=in.(1,2,3)', 'books?id=in.(4,"5")'],
  ['books?id=not.in.(1,2)&pages=isdistinct.100', 'books?id=not.in.(3)&pages=isdistinct.5'],
  ['books?search=fts(english).wizard', 'books?search=fts(english).sea'],
  ['books?search=wfts.wizard%20sea', 'books?search=plfts.x', 'different operators'],
  ['books?limit=5&offset=2', 'books?limit=7&offset=9'],
  ['books?limit=5', 'books?limit=1000'],
  ['books?meta->>format=eq.paper', 'books?meta->>format=eq.cloth'],
  [
    'books?select=id,author:authors!books_author_id_fkey(name,country)&author.country=eq.GB&order=id',
    'books?select=id,author:authors!books_author_id_fkey(name,country)&author.country=eq.US&order=id',
  ],
  [
    'authors?select=name,books!books_author_id_fkey(title,reviews(stars))&books.reviews.stars=gte.4&books.order=title&books.limit=2',
    'authors?select=name,books!books_author_id_fkey(title,reviews(stars))&books.reviews.stars=gte.1&books.order=title&books.limit=2',
  ],
  ['book_cards?id=eq.1&select=*', 'book_cards?id=eq.2&select=*'],
  ['books?or=(id.eq.1,id.eq.2)&id=gt.0', 'books?or=(id.eq.1,id.eq.2)&id=gt.1'],
];

/** pairs of requests that must not share a plan (their SQL differs) */
const OTHER_SHAPE: [string, string][] = [
  ['books?id=in.(1,2)', 'books?id=in.()'],
  ['books?offset=0', 'books?offset=3'],
  ['books?summary=is.null', 'books?summary=is.true'],
  ['books?status=filter.draft', 'books?status=filter.draft,!sold*'],
  ['books?tags=cs.{a}', 'books?tags=cs.{b}'],
  ['books?id=eq(any).{1,2}', 'books?id=eq(any).{1,2,3}'],
  ['books?or=(id.eq.1)', 'books?or=(id.eq.2)'],
  ['books?select=id', 'books?select=title'],
  ['books?id=eq.1', 'books?pages=eq.1'],
  ['books?id=eq.1', 'books?id=neq.1'],
  ['books?id=eq.1', 'books?id=not.eq.1'],
  ['books?order=id', 'books?order=title'],
  ['books?search=fts(english).a', 'books?search=fts(simple).a'],
];

describe.each(testDrivers())('/api/db plan cache ($name)', (driver) => {
  let fx: Fixture;
  let schema: SchemaCache;
  beforeAll(async () => {
    fx = await startFixture(driver, { rowCap: ROW_CAP });
    schema = await loadSchemaCache(fx.db);
  });
  afterAll(async () => {
    await fx?.close();
  });

  const ctx = (): PlanContext => ({
    schema,
    touched: new Set(),
    rowCap: ROW_CAP,
    isExposed: (n) => !!fixtureExposed[n],
    secretColumns: (n) => fixtureExposed[n]?.secrets ?? [],
  });
  const split = (url: string) => {
    const q = url.indexOf('?');
    return { table: url.slice(0, q), pairs: parseQueryString(url.slice(q + 1)) };
  };
  /** the plan without the cache */
  const fresh = (url: string, prefer?: string, rangeHeader?: string) => {
    const { table, pairs } = split(url);
    const c = ctx();
    const plan = planRead(c, table, interpret(pairs), parsePrefer(prefer), parseRange(rangeHeader));
    return {
      sql: plan.statements[0].sql,
      params: plan.statements[0].params,
      offset: plan.offset,
      touched: [...c.touched].sort(),
    };
  };

  it.each(SAME_SHAPE)('shares one plan: %s and %s', (first, second, differs) => {
    const cache = new PlanCache();
    const a = split(first);
    const b = split(second);
    const shapeA = cache.shapeOf(a.table, a.pairs, {}, undefined, ROW_CAP)!;
    const shapeB = cache.shapeOf(b.table, b.pairs, {}, undefined, ROW_CAP)!;
    expect(shapeA).toBeDefined();
    if (differs) {
      expect(shapeB.key).not.toBe(shapeA.key);
      return;
    }
    expect(shapeB.key).toBe(shapeA.key);
    const c = ctx();
    cache.remember(shapeA, planRead(c, a.table, interpret(a.pairs), {}, undefined), c.touched);
    expect(cache.size).toBe(1);
    const touched = new Set<string>();
    const cached = cache.plan(shapeB, b.pairs, touched)!;
    expect(cached).toBeDefined();
    const want = fresh(second);
    expect({
      sql: cached.statements[0].sql,
      params: cached.statements[0].params,
      offset: cached.offset,
      touched: [...touched].sort(),
    }).toEqual(want);
  });

  it.each(OTHER_SHAPE)('keeps %s and %s apart', (first, second) => {
    const cache = new PlanCache();
    const a = split(first);
    const b = split(second);
    const shapeA = cache.shapeOf(a.table, a.pairs, {}, undefined, ROW_CAP);
    const shapeB = cache.shapeOf(b.table, b.pairs, {}, undefined, ROW_CAP);
    expect(shapeA?.key).toBeDefined();
    expect(shapeB?.key).not.toBe(shapeA?.key);
  });

  it('binds the page from limit/offset pairs and the Range header like the planner does', () => {
    const cache = new PlanCache();
    const a = split('books?order=id');
    const shape1 = cache.shapeOf(a.table, a.pairs, { count: 'exact' }, parseRange('2-4'), ROW_CAP)!;
    const c = ctx();
    cache.remember(shape1, planRead(c, a.table, interpret(a.pairs), { count: 'exact' }, parseRange('2-4')), c.touched);
    for (const [url, range] of [
      ['books?order=id', '5-'],
      ['books?order=id', '1-1000'],
    ] as const) {
      const b = split(url);
      const shape = cache.shapeOf(b.table, b.pairs, { count: 'exact' }, parseRange(range), ROW_CAP)!;
      expect(shape.key).toBe(shape1.key);
      const plan = cache.plan(shape, b.pairs, new Set())!;
      const want = fresh(url, 'count=exact', range);
      expect({ sql: plan.statements[0].sql, params: plan.statements[0].params, offset: plan.offset }).toEqual({
        sql: want.sql,
        params: want.params,
        offset: want.offset,
      });
    }
    // without a count, or without an offset, the SQL differs
    expect(cache.shapeOf(a.table, a.pairs, {}, parseRange('2-4'), ROW_CAP)!.key).not.toBe(shape1.key);
    expect(cache.shapeOf(a.table, a.pairs, { count: 'exact' }, parseRange('0-4'), ROW_CAP)!.key).not.toBe(shape1.key);
  });

  it('leaves malformed limits and lists to the planner, which reports them', () => {
    const cache = new PlanCache();
    for (const url of ['books?limit=x', 'books?offset=-1', 'books?id=in.("1)']) {
      const { table, pairs } = split(url);
      expect(cache.shapeOf(table, pairs, {}, undefined, ROW_CAP)).toBeUndefined();
    }
  });

  it('answers a cached shape over HTTP with the values of each request, checking every relation', async () => {
    const url = (id: number) => `/books?select=id,title,author:authors!books_author_id_fkey(name)&id=eq.${id}`;
    const first = await fx.http('GET', url(1));
    expect(first.status).toBe(200);
    fx.authorized.length = 0;
    for (const id of [2, 3, 1]) {
      const res = await fx.http('GET', url(id));
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(1);
      expect(res.json[0].id).toBe(id);
      expect(typeof res.json[0].author.name).toBe('string');
    }
    // the RBAC hook still sees the table and the embed on every request
    expect(fx.authorized).toEqual([
      ['books', 'read'],
      ['authors', 'read'],
      ['books', 'read'],
      ['authors', 'read'],
      ['books', 'read'],
      ['authors', 'read'],
    ]);
    const denied = await fx.http('GET', url(2), { headers: { 'x-deny': 'authors' } });
    expect(denied.status).toBe(403);
  });

  it('answers one object, and 406 for none, from a cached shape', async () => {
    const accept = { accept: 'application/vnd.pgrst.object+json' };
    for (const id of [1, 2]) {
      const res = await fx.http('GET', `/authors?select=id,name&id=eq.${id}`, { headers: accept });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id });
    }
    const none = await fx.http('GET', '/authors?select=id,name&id=eq.999', { headers: accept });
    expect(none.status).toBe(406);
    expect(none.json.code).toBe('PGRST116');
  });
});
