import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { RestError } from '#server/pgrest/errors.ts';
import { startFixture, type Fixture } from './support.ts';

/**
 * The write pipeline (write-pipeline.ts): per-table checks run after authorisation and before any
 * SQL, and may refuse with their own 4xx; per-table effects run once the write has committed,
 * before the answer, and never for reads, refused or rolled-back writes.
 */
describe.each(testDrivers())('/api/db write pipeline ($name)', (driver) => {
  let fx: Fixture;
  const calls: string[] = [];
  const bodies: unknown[] = [];
  /** authors counted by a query of its own inside the effect: what has been committed */
  const countsSeen: number[] = [];

  beforeAll(async () => {
    fx = await startFixture(driver, {
      writes: [
        {
          table: 'authors',
          check: (table, method, body) => {
            calls.push(`check ${table} ${method}`);
            bodies.push(body);
            if ((body as { name?: string } | undefined)?.name === 'Refused')
              throw new RestError(422, 'PT422', 'An author named Refused is refused');
          },
        },
        {
          table: 'authors',
          afterCommit: async (table, method) => {
            // slow on purpose: the answer must wait for it
            await new Promise((r) => setTimeout(r, 50));
            const r = await fx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM authors');
            countsSeen.push(r.rows[0].n);
            calls.push(`after ${table} ${method}`);
          },
        },
        {
          table: 'counters',
          check: async () => {
            await Promise.resolve();
            throw Object.assign(new Error('Counters are closed today'), { code: 'PT409' });
          },
          afterCommit: () => void calls.push('after counters'),
        },
        {
          table: 'rpc/rate_author',
          check: (table, method, body) => {
            calls.push(`check ${table} ${method}`);
            bodies.push(body);
          },
          afterCommit: (table, method) => void calls.push(`after ${table} ${method}`),
        },
        {
          table: 'genres',
          afterCommit: () => {
            throw new Error('the effect broke');
          },
        },
        { table: 'genres', afterCommit: () => void calls.push('after genres, second effect') },
      ],
    });
  });
  afterAll(async () => {
    await fx?.close();
  });
  beforeEach(async () => {
    await fx.reset();
    calls.length = 0;
    bodies.length = 0;
    countsSeen.length = 0;
  });

  const json = { 'Content-Type': 'application/json' };
  const authors = async () => (await fx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM authors')).rows[0].n;

  it('runs a table check with the parsed body, and its effect after the commit, before the answer', async () => {
    const before = await authors();
    const r = await fx.http('POST', '/authors', { headers: json, body: JSON.stringify({ id: 10, name: 'Borges' }) });
    expect(r.status).toBe(201);
    expect(calls).toEqual(['check authors POST', 'after authors POST']);
    expect(bodies).toEqual([{ id: 10, name: 'Borges' }]);
    // the effect's own query saw the new row: the transaction had committed
    expect(countsSeen).toEqual([before + 1]);

    const p = await fx.http('PATCH', '/authors?id=eq.10', { headers: json, body: JSON.stringify({ country: 'AR' }) });
    expect(p.status).toBe(204);
    const d = await fx.http('DELETE', '/authors?id=eq.10');
    expect(d.status).toBe(204);
    expect(calls.slice(2)).toEqual([
      'check authors PATCH',
      'after authors PATCH',
      'check authors DELETE',
      'after authors DELETE',
    ]);
    expect(bodies.slice(1)).toEqual([{ country: 'AR' }, undefined]);
    expect(countsSeen).toEqual([before + 1, before + 1, before]);
  });

  it("answers a refusing check's 4xx in the engine's shape and writes nothing", async () => {
    const sum = await fx.checksum();
    const r = await fx.http('POST', '/authors', { headers: json, body: JSON.stringify({ id: 11, name: 'Refused' }) });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 'PT422', message: 'An author named Refused is refused' });
    const c = await fx.http('POST', '/counters', { headers: json, body: JSON.stringify({ label: 'x' }) });
    expect(c.status).toBe(409);
    expect(c.json).toMatchObject({ code: 'PT409', message: 'Counters are closed today' });
    expect(await fx.checksum()).toEqual(sum);
    expect(calls).toEqual(['check authors POST']);
  });

  it('checks only a caller authorised for every relation the write touches', async () => {
    const body = JSON.stringify({ id: 12, name: 'Refused' });
    const denied = await fx.http('POST', '/authors', { headers: { ...json, 'x-deny': 'authors' }, body });
    expect(denied.status).toBe(403);
    const embed = await fx.http('POST', '/authors?select=id,books!author_id(id)', {
      headers: { ...json, 'x-deny': 'books', prefer: 'return=representation' },
      body,
    });
    expect(embed.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('runs no effect for reads, writes the database refuses or writes rolled back', async () => {
    expect((await fx.http('GET', '/authors?select=id')).status).toBe(200);
    expect((await fx.http('HEAD', '/authors')).status).toBe(200);
    const dup = await fx.http('POST', '/authors', {
      headers: json,
      body: JSON.stringify({ id: 13, name: 'Terry Pratchett' }),
    });
    expect(dup.status).toBe(409);
    // two rows where one object was asked for: 406 and the update rolled back
    const many = await fx.http('PATCH', '/authors?id=in.(1,2)', {
      headers: { ...json, accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' },
      body: JSON.stringify({ country: 'XX' }),
    });
    expect(many.status).toBe(406);
    expect(calls).toEqual(['check authors POST', 'check authors PATCH']);
    expect(countsSeen).toEqual([]);
  });

  it('keys a writing function by rpc/<name>, with its arguments as the body', async () => {
    const r = await fx.http('POST', '/rpc/rate_author', {
      headers: json,
      body: JSON.stringify({ author: 3, score: 2.5 }),
    });
    expect(r.status).toBe(200);
    expect(calls).toEqual(['check rpc/rate_author POST', 'after rpc/rate_author POST']);
    expect(bodies).toEqual([{ author: 3, score: 2.5 }]);
    // a read-only function and a GET are reads
    expect((await fx.http('POST', '/rpc/add_numbers', { headers: json, body: '{"a":1,"b":2}' })).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('keeps a committed write when an effect fails, and still runs the next effect', async () => {
    const r = await fx.http('POST', '/genres', { headers: json, body: JSON.stringify({ id: 20, name: 'noir' }) });
    expect(r.status).toBe(201);
    expect((await fx.db.query('SELECT name FROM genres WHERE id = 20')).rows).toEqual([{ name: 'noir' }]);
    expect(calls).toEqual(['after genres, second effect']);
  });
});
