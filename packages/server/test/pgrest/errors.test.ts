import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { enc, startFixture, type Fixture, type HttpResult } from './support.ts';

/**
 * PostgREST's error codes and statuses, and injection attempts: every malicious request is
 * answered with a 4xx error body and leaves every table (and the list of tables) as it was.
 */
describe.each(testDrivers())('/api/db errors and injection ($name)', (driver) => {
  let fx: Fixture;
  let baseline: Record<string, string>;
  beforeAll(async () => {
    fx = await startFixture(driver);
    baseline = await fx.checksum();
  });
  afterAll(async () => {
    await fx?.close();
  });

  const json = { 'Content-Type': 'application/json' };

  /** An error answer: a 4xx with exactly PostgREST's four fields. */
  const expectError = (r: HttpResult, status: number | 'any4xx', code?: string, label = '') => {
    if (status === 'any4xx') {
      expect(r.status, `${label} -> ${r.status} ${r.text}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${label} -> ${r.status} ${r.text}`).toBeLessThan(500);
    } else expect(r.status, `${label} -> ${r.text}`).toBe(status);
    expect(r.headers.get('content-type'), label).toContain('application/json');
    expect(Object.keys(r.json ?? {}).sort(), label).toEqual(['code', 'details', 'hint', 'message']);
    if (code) expect(r.json.code, label).toBe(code);
  };

  describe('error catalogue', () => {
    it('404 PGRST205 for unknown tables, tables off the allow-list and odd paths', async () => {
      const r = await fx.http('GET', '/nope');
      expectError(r, 404, 'PGRST205');
      expect(r.json.message).toBe("Could not find the table 'public.nope' in the schema cache");
      for (const path of ['/hidden_notes', '/books/1', '/pg_catalog.pg_class', '/public.books', '/', '/rpc']) {
        expectError(await fx.http('GET', path), 404, undefined, path);
      }
    });

    it('400 42703 for unknown columns in select, filters and order', async () => {
      const r = await fx.http('GET', '/books?select=id,nope');
      expectError(r, 400, '42703');
      expect(r.json.message).toBe('column books.nope does not exist');
      expectError(await fx.http('GET', '/books?nope=eq.1'), 400, '42703');
      expectError(await fx.http('GET', '/books?order=nope.desc'), 400, '42703');
      expectError(await fx.http('GET', '/books?select=id,reviews(nope)'), 400, '42703');
    });

    it('400 PGRST100 for what does not parse', async () => {
      for (const q of [
        'id=1',
        'id=equals.1',
        'id=eq',
        'id=not.1',
        `or=${enc('(id.eq.1')}`,
        `or=${enc('id.eq.1')}`,
        `or=${enc('()')}`,
        'select=id,(',
        'select=id,,title',
        'order=id.sideways',
        'price=is.maybe',
        'id=%zz',
        `select=${enc('reviews(stars')}`,
      ]) {
        expectError(await fx.http('GET', `/books?${q}`), 400, 'PGRST100', q);
      }
    });

    it('400 22P02 for values of the wrong type', async () => {
      const r = await fx.http('GET', '/books?id=eq.abc');
      expectError(r, 400, '22P02');
      // PostgREST's code and status, but a sentence rather than PostgreSQL's wording
      expect(r.json.message).toBe('"abc" is not a valid integer');
      expect(r.json.details).toBe('invalid input syntax for type integer: "abc"');
      expectError(await fx.http('GET', `/books?id=in.${enc('(1,x)')}`), 400, '22P02');
      expectError(await fx.http('GET', '/books?published=gt.yesterday-ish'), 400);
    });

    it('405 PGRST117 for writes to a read-only relation', async () => {
      expectError(await fx.http('PUT', '/book_cards?id=eq.1', { headers: json, body: '{"id":1}' }), 405, 'PGRST117');
      expectError(await fx.http('POST', '/book_cards', { headers: json, body: '{"id":1}' }), 405, 'PGRST117');
    });

    it('never answers 500 with a stack or SQL text', async () => {
      const r = await fx.http('GET', `/books?select=id&title=eq.${enc("x' OR '1'='1")}&meta->>format=eq.${enc('")')}`);
      expect(r.status).toBe(200);
      expect(r.json).toEqual([]);
      const bad = await fx.http('GET', '/books?id=eq.1e999');
      expect(bad.status).toBe(400);
      expect(bad.text).not.toMatch(/SELECT|json_agg|\bat \w+ \(/);
    });
  });

  describe('injection attempts', () => {
    /** Each: a request that must be refused with a 4xx and change nothing. */
    const attempts: [string, string, { headers?: Record<string, string>; body?: string }?][] = [
      // select: identifiers, casts, comments, sub-queries, JSON paths, embeds
      ['GET', `/books?select=${enc('id;DROP TABLE books')}`],
      ['GET', `/books?select=${enc('id,"; DROP TABLE books; --"')}`],
      ['GET', `/books?select=${enc('id)--')}`],
      ['GET', `/books?select=${enc('(select 1)')}`],
      ['GET', `/books?select=${enc('*,(select password from vaults)')}`],
      ['GET', `/books?select=${enc('id/**/')}`],
      ['GET', `/books?select=${enc('title::text);DROP TABLE books;--')}`],
      ['GET', `/books?select=${enc('id::regclass')}`],
      ['GET', `/books?select=${enc('id::int; DROP TABLE books')}`],
      ['GET', `/books?select=${enc('x:id;drop')}`],
      ['GET', `/books?select=${enc('pg_sleep(1)')}`],
      ['GET', `/books?select=${enc("meta->>'format'")}`],
      ['GET', `/books?select=${enc("meta->>format';DROP TABLE books;--")}`],
      ['GET', `/books?select=${enc('meta->>(select 1)')}`],
      ['GET', `/books?select=${enc('id,authors!inner;drop(name)')}`],
      ['GET', `/books?select=${enc('id,"authors"(name)')}`],
      ['GET', `/books?select=${enc('id,authors!"books_author_id_fkey"(name)')}`],
      ['GET', `/books?select=${enc('ｉｄ')}`],
      // filter keys
      ['GET', `/books?${enc('id;DROP TABLE books')}=eq.1`],
      ['GET', `/books?${enc('"id"')}=eq.1`],
      ['GET', `/books?${enc('id)or(1=1')}=eq.1`],
      ['GET', `/books?${enc('id--')}=eq.1`],
      ['GET', `/books?${enc("meta->>'a'")}=eq.1`],
      ['GET', `/books?${enc('authors;drop.name')}=eq.1`],
      ['GET', `/books?${enc('id/*')}=eq.1`],
      // operators and modifiers
      ['GET', `/books?id=${enc('eq;drop.1')}`],
      ['GET', `/books?id=${enc('in.(1);DROP TABLE books;--')}`],
      ['GET', `/books?id=${enc('eq(any;drop).{1}')}`],
      ['GET', `/books?search=${enc("fts(english'||pg_sleep(1)||').x")}`],
      ['GET', `/books?search=${enc('fts(pg_catalog.english).x')}`],
      ['GET', `/books?id=${enc('eq.1::text')}`],
      ['GET', `/books?id=${enc("eq.1'::int")}`],
      ['GET', `/books?id=${enc('eq.1; DROP TABLE books')}`],
      // logic trees
      ['GET', `/books?or=${enc('(id.eq.1,id.eq.2);DROP TABLE books')}`],
      ['GET', `/books?or=${enc('(id.eq.1) or 1=1')}`],
      ['GET', `/books?or=${enc('(id.eq.1,"; drop table books;--".eq.1)')}`],
      ['GET', `/books?and=${enc('(id.eq.1,id.eq.1)) OR ((1=1')}`],
      // order, limit, offset
      ['GET', `/books?order=${enc('id;DROP TABLE books')}`],
      ['GET', `/books?order=${enc('id desc')}`],
      ['GET', `/books?order=${enc('(select 1)')}`],
      ['GET', `/books?order=${enc('id.desc;drop')}`],
      ['GET', `/books?order=${enc('id.desc.nullsfirst--')}`],
      ['GET', `/books?order=${enc('random()')}`],
      ['GET', `/books?order=1`],
      ['GET', `/books?limit=${enc('1;DROP TABLE books')}`],
      ['GET', `/books?offset=${enc('0 OR 1=1')}`],
      ['GET', `/books?reviews.limit=${enc('1;drop')}&select=id,reviews(stars)`],
      // paths
      ['GET', `/${enc('books;DROP TABLE books')}`],
      ['GET', `/books;DROP%20TABLE%20books`],
      ['GET', `/${enc('"books"')}`],
      ['GET', `/hidden_notes?select=note`],
      ['DELETE', `/hidden_notes?id=eq.1`],
      ['GET', `/rpc/${enc('add_numbers;DROP TABLE books')}?a=1&b=2`],
      ['GET', `/rpc/hidden_fn`],
      // writes: columns, on_conflict, body keys and values
      ['POST', `/genres?columns=${enc('id);DROP TABLE genres;--')}`, { headers: json, body: '{"id":50,"name":"x"}' }],
      [
        'POST',
        `/genres?on_conflict=${enc("id) DO UPDATE SET name='pwned' --")}`,
        { headers: { ...json, Prefer: 'resolution=merge-duplicates' }, body: '{"id":1,"name":"x"}' },
      ],
      ['POST', '/genres', { headers: json, body: JSON.stringify({ 'name"; DROP TABLE genres; --': 'x', id: 51 }) }],
      ['POST', '/genres', { headers: json, body: JSON.stringify({ id: '1); DROP TABLE genres; --', name: 'x' }) }],
      [
        'POST',
        '/genres',
        {
          headers: json,
          body: JSON.stringify([
            { id: 52, name: 'ok' },
            { id: 53, name: null },
          ]),
        },
      ],
      ['PATCH', `/genres?id=${enc('eq.1 OR 1=1')}`, { headers: json, body: '{"name":"pwned"}' }],
      ['PATCH', `/genres?${enc('id;DROP TABLE genres')}=eq.1`, { headers: json, body: '{"name":"pwned"}' }],
      ['PATCH', '/genres?id=eq.1', { headers: json, body: JSON.stringify({ 'name = $$pwned$$ --': 'x' }) }],
      ['DELETE', `/genres?id=${enc('gt.0;--')}`],
      ['DELETE', `/genres?or=${enc('(id.gt.0')}`],
      ['DELETE', `/books?id=${enc('in.(1,2) OR true')}`],
      // rpc arguments
      ['GET', `/rpc/add_numbers?a=1&b=${enc('2);DROP TABLE books;--')}`],
      [
        'POST',
        '/rpc/add_numbers',
        { headers: json, body: JSON.stringify({ a: 1, 'b => 1); DROP TABLE books; --': 2 }) },
      ],
      ['POST', '/rpc/add_numbers', { headers: json, body: JSON.stringify({ a: 1, b: '2); DROP TABLE books; --' }) }],
      ['POST', '/rpc/rate_author', { headers: json, body: JSON.stringify({ author: '1 OR 1=1', score: 0 }) }],
      // NUL bytes: in values, identifiers, JSON keys, bodies and paths
      ['GET', `/books?title=eq.${enc('Small\u0000Gods')}`],
      ['GET', `/books?title=filter.${enc('a\u0000')}`],
      ['GET', `/books?select=${enc('ti\u0000tle')}`],
      ['GET', `/books?select=${enc('meta->>for\u0000mat')}`],
      ['GET', `/books?order=${enc('id\u0000')}`],
      ['GET', `/${enc('books\u0000')}`],
      ['POST', '/genres', { headers: json, body: JSON.stringify({ id: 54, name: 'nul\u0000byte' }) }],
      ['PATCH', '/genres?id=eq.1', { headers: json, body: JSON.stringify({ name: 'nul\u0000byte' }) }],
      ['POST', '/rpc/echo_json', { headers: json, body: JSON.stringify({ doc: { k: 'nul\u0000' } }) }],
    ];

    it.each(attempts.map((a, i) => [i, ...a] as const))(
      '#%i %s %s is refused with a 4xx and changes nothing',
      async (_i, method, path, init) => {
        const r = await fx.http(method, path, init);
        expectError(r, 'any4xx', undefined, `${method} ${path}`);
        expect(await fx.checksum()).toEqual(baseline);
      },
    );

    it('treats hostile text in values as data: it is matched literally, and bound as a parameter', async () => {
      const values = [
        "x' OR '1'='1",
        "'; DROP TABLE books; --",
        '$$; DROP TABLE books; $$',
        '\\',
        '"',
        ')',
        '%',
        '*',
        '1=1--',
      ];
      for (const v of values) {
        // (%, * and _ are LIKE wildcards by design, and a trailing \ is a bad pattern: see below)
        const patterns = /[%*_\\]/.test(v) ? [] : [`title=like.${enc(v)}`, `title=ilike.${enc(`*${v}*`)}`];
        for (const q of [
          `title=eq.${enc(v)}`,
          ...patterns,
          `or=${enc(`(title.eq."${v.replace(/["\\]/g, '\\$&')}")`)}`,
        ]) {
          const r = await fx.http('GET', `/books?select=id&${q}`);
          expect(r.status, q).toBe(200);
          expect(r.json, q).toEqual([]);
        }
      }
      expectError(await fx.http('GET', `/books?title=like.${enc('\\')}`), 400, '22025');
      // a quoted JSON key is a value too
      const hostileKey = await fx.http('GET', `/books?select=id&${enc(`meta->>"'; DROP TABLE books; --"`)}=eq.1`);
      expect([hostileKey.status, hostileKey.json]).toEqual([200, []]);
      // and a title that really holds such text round-trips exactly
      const title = 'It\'s a "book"; DROP TABLE books; -- 100% *real*';
      const created = await fx.client.from('books').insert({ id: 90, title, author_id: 4 }).select('id').single();
      expect(created.data).toEqual({ id: 90 });
      expect((await fx.client.from('books').select('title').eq('title', title)).data).toEqual([{ title }]);
      expect(
        (
          await fx.client
            .from('books')
            .select('id')
            .eq('id', 90)
            .or(`title.eq."${title.replace(/["\\]/g, '\\$&')}"`)
        ).data,
      ).toEqual([{ id: 90 }]);
      await fx.client.from('books').delete().eq('id', 90);
      expect(await fx.checksum()).toEqual(baseline);
    });

    it('ignores unknown Prefer parts and odd Range headers instead of passing them anywhere', async () => {
      const r = await fx.http('GET', '/genres?select=id&order=id', {
        headers: { Prefer: 'count=exact; DROP TABLE genres, return=minimal--', Range: '0-1; DROP TABLE genres' },
      });
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
      expect(r.headers.get('content-range')).toBe('0-3/4');
      expect(await fx.checksum()).toEqual(baseline);
    });
  });
});
