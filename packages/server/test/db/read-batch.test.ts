import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { batchStatement, parameterTexts, ReadBatcher, type BatchPool } from '#server/db/read-batch.ts';

/**
 * db/read-batch.ts: reads of one statement text sent together. What matters: a batched read
 * answers exactly what the statement answers alone (values of every kind, errors included), and
 * statements whose text the rewrite cannot vouch for are never batched.
 */
describe('batchStatement', () => {
  it('runs the statement once per parameter set, every $n read from its column', () => {
    const sql = batchStatement(`SELECT count(*) AS n FROM t WHERE a = $1::uuid AND b > $2::int LIMIT $1::bigint`, 2);
    expect(sql).toBe(
      `SELECT _wd_q.*, _wd_in._wd_ord, extract(epoch FROM clock_timestamp())::float8 * 1000 AS _wd_t` +
        ` FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS _wd_in(p1, p2, _wd_ord)` +
        ` CROSS JOIN LATERAL (SELECT count(*) AS n FROM t WHERE a = _wd_in.p1::uuid AND b > _wd_in.p2::int LIMIT _wd_in.p1::bigint) AS _wd_q`,
    );
  });

  it('leaves quoted identifiers and literals alone, doubled quotes included', () => {
    const sql = batchStatement(`SELECT count(*) FROM "we""ird$1" t WHERE t."$2" = $1::text AND t.x <> 'it''s $1'`, 1)!;
    expect(sql).toContain(`FROM "we""ird$1" t WHERE t."$2" = _wd_in.p1::text AND t.x <> 'it''s $1'`);
  });

  it('refuses what it cannot vouch for', () => {
    // a parameter whose type comes from its context would arrive as text
    expect(batchStatement(`SELECT count(*) FROM t WHERE a = $1`, 1)).toBeUndefined();
    expect(batchStatement(`SELECT count(*) FROM t WHERE a = $1 ::int`, 1)).toBeUndefined();
    // dollar quoting, comments, unterminated quotes
    expect(batchStatement(`SELECT $x$a$x$, $1::int`, 1)).toBeUndefined();
    expect(batchStatement(`SELECT $1::int -- note`, 1)).toBeUndefined();
    expect(batchStatement(`SELECT $1::int /* note */`, 1)).toBeUndefined();
    expect(batchStatement(`SELECT $1::int, 'open`, 1)).toBeUndefined();
    // parameters that do not match the count given
    expect(batchStatement(`SELECT $1::int, $3::int`, 2)).toBeUndefined();
    expect(batchStatement(`SELECT $1::int`, 2)).toBeUndefined();
    expect(batchStatement(`SELECT 1`, 0)).toBeUndefined();
  });
});

describe('parameterTexts', () => {
  it('spells values as node-postgres sends them, and gives up on binary ones', () => {
    expect(parameterTexts(['a', 5, true, null, undefined, ['x', 'y,z', null]])).toEqual([
      'a',
      '5',
      'true',
      null,
      null,
      '{"x","y,z",NULL}',
    ]);
    expect(parameterTexts([Buffer.from('x')])).toBeUndefined();
  });
});

/** A pg.Pool behind the batcher, counting the statements it is sent. */
function countingPool(pool: pg.Pool) {
  const sent: string[] = [];
  const batchPool: BatchPool = {
    async query<T>(sql: string, params: unknown[]) {
      sent.push(sql);
      return (await pool.query(sql, params)).rows as T[];
    },
    async acquire() {
      const client = await pool.connect();
      return {
        async query<T>(sql: string, params: unknown[]) {
          sent.push(sql);
          return (await client.query(sql, params)).rows as T[];
        },
        release: () => client.release(),
      };
    },
  };
  return { sent, batchPool };
}

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('ReadBatcher on PostgreSQL', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 3 });
    await pool.query(`SELECT 1`);
  });
  afterAll(async () => {
    await pool.end();
  });

  // one row whatever the values: an aggregate, like every /api/db read
  const READ = `SELECT count(*) AS n, string_agg(v, '|') AS joined, min(e) AS echo, min(nx) AS next, min(items) AS items,
                       min(second) AS second, min(at) AS at
                  FROM (SELECT v, $1::text AS e, $2::int + 1 AS nx, array_length($3::text[], 1) AS items,
                               ($3::text[])[2] AS second, $4::timestamptz AS at
                          FROM unnest($3::text[]) v WHERE $1::text IS NOT NULL) s`;
  const values = (i: number): unknown[] => [
    `it's "${i}", \\ a;b -- c`,
    i,
    [`x${i}`, `a,b "q" \\ ${i}`, null, 'ü€'],
    new Date(Date.UTC(2026, 10, 25, 10, i % 60)),
  ];

  it('answers many concurrent reads in few statements, each with its own values', async () => {
    const { sent, batchPool } = countingPool(pool);
    const batcher = new ReadBatcher(batchPool);
    const alone = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pool.query(READ, values(i)).then((r) => r.rows[0])),
    );
    const together = await Promise.all(Array.from({ length: 20 }, (_, i) => batcher.read(READ, values(i))));
    expect(together).toEqual(alone);
    expect(together[7]).toMatchObject({
      n: '4',
      echo: `it's "7", \\ a;b -- c`,
      next: 8,
      items: 4,
      second: 'a,b "q" \\ 7',
    });
    // the first batch of an untimed statement holds at most 8
    expect(sent.length).toBeLessThanOrEqual(20 / 2);
    expect(batcher.stats.batched).toBeGreaterThanOrEqual(10);

    // timed now (cheap): later batches hold more than the first ones could
    sent.length = 0;
    const before = batcher.stats.batched;
    const again = await Promise.all(Array.from({ length: 60 }, (_, i) => batcher.read(READ, values(i % 20))));
    expect(again).toEqual(Array.from({ length: 60 }, (_, i) => alone[i % 20]));
    expect(sent.length).toBeLessThan(60 / 8);
    expect(batcher.stats.batched - before).toBeGreaterThanOrEqual(55);
  });

  it('gives each read its own error when one value fails the batch, and the others their answers', async () => {
    const { batchPool } = countingPool(pool);
    const batcher = new ReadBatcher(batchPool);
    const sql = `SELECT count(*) AS n, min(id::text) AS id FROM (SELECT $1::uuid AS id) x`;
    const ids = Array.from({ length: 6 }, (_, i) => `00000000-0000-0000-0000-00000000000${i}`);
    ids[3] = 'not-a-uuid';
    const results = await Promise.allSettled(ids.map((id) => batcher.read<{ id: string }>(sql, [id])));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: '22P02' });
    expect((results[5] as PromiseFulfilledResult<{ id: string }>).value.id).toBe(ids[5]);
  });

  it('sends a statement it cannot rewrite one read at a time, with the same answers', async () => {
    const { sent, batchPool } = countingPool(pool);
    const batcher = new ReadBatcher(batchPool);
    const sql = `SELECT count(*) AS n, max(g) AS top FROM generate_series(1, $1) g`;
    const rows = await Promise.all([3, 5, 7].map((k) => batcher.read<{ top: number }>(sql, [k])));
    expect(rows.map((r) => r.top)).toEqual([3, 5, 7]);
    expect(sent).toEqual([sql, sql, sql]);
    expect(batcher.stats.batches).toBe(0);
  });

  it('keeps statements that are slow to run out of batches, after timing them once', async () => {
    const { sent, batchPool } = countingPool(pool);
    const batcher = new ReadBatcher(batchPool);
    // the sleep depends on the parameter, so each member sleeps (a set-returning function that
    // depends on nothing outside runs once per statement)
    const slow = `SELECT count(*) AS n, max(k) AS k FROM (SELECT $1::int AS k FROM pg_sleep(0.005 + $1::int * 0)) s`;
    await Promise.all([1, 2, 3].map((k) => batcher.read(slow, [k])));
    expect(batcher.stats.batches).toBe(1); // untimed: batched, and timed at ~5 ms a read
    sent.length = 0;
    const ks = await Promise.all([4, 5, 6, 7].map((k) => batcher.read<{ k: number }>(slow, [k])));
    expect(ks.map((r) => r.k)).toEqual([4, 5, 6, 7]);
    expect(sent).toEqual([slow, slow, slow, slow]);
  });

  it('answers an aggregate of parameters alone (batched, it would be the outer query’s and fail)', async () => {
    const { sent, batchPool } = countingPool(pool);
    const batcher = new ReadBatcher(batchPool);
    const sql = `SELECT count(*) AS n, max($1::int) AS k FROM generate_series(1, 3)`;
    const rows = await Promise.all([4, 5, 6].map((k) => batcher.read<{ k: number }>(sql, [k])));
    expect(rows.map((r) => r.k)).toEqual([4, 5, 6]);
    expect(batcher.stats.batches).toBe(0);
    // and it is not tried in a batch again
    sent.length = 0;
    const more = await Promise.all([7, 8].map((k) => batcher.read<{ k: number }>(sql, [k])));
    expect(more.map((r) => r.k)).toEqual([7, 8]);
    expect(sent).toEqual([sql, sql]);
  });

  it('refuses a statement that does not answer one row per read', async () => {
    const { batchPool } = countingPool(pool);
    const batcher = new ReadBatcher(batchPool);
    const sql = `SELECT g FROM generate_series(1, $1::int) g`;
    const results = await Promise.allSettled([2, 1, 0].map((k) => batcher.read(sql, [k])));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect((results[1] as PromiseFulfilledResult<{ g: number }>).value).toEqual({ g: 1 });
  });
});
