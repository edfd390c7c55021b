import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { RestError } from '#server/pgrest/errors.ts';
import { enc, startFixture, type Fixture } from './support.ts';

/**
 * The points of issue 15 where /api/db differed from PostgREST 12/13, each checked over HTTP
 * against the documented behaviour (status, headers, body shape, error code).
 */
describe.each(testDrivers())('/api/db PostgREST compatibility ($name)', (driver) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(driver);
  });
  afterAll(async () => {
    await fx?.close();
  });
  beforeEach(async () => {
    await fx.reset();
  });

  const json = { 'Content-Type': 'application/json' };
  const get = async (path: string, headers?: Record<string, string>) => {
    const r = await fx.http('GET', path, { headers });
    expect(r.status, r.text).toBeLessThan(300);
    return r.json;
  };
  const rows = async (sql: string) => (await fx.db.query<Record<string, unknown>>(sql)).rows;

  describe('1. recursive embeds on one table', () => {
    it('embeds the children by the table name (one-to-many, an array)', async () => {
      expect(await get('/topics?select=id,topics(id)&id=in.(1,2,4)&order=id&topics.order=id')).toEqual([
        { id: 1, topics: [{ id: 2 }, { id: 3 }] },
        { id: 2, topics: [{ id: 4 }] },
        { id: 4, topics: [] },
      ]);
      const viaClient = await fx.client.from('topics').select('id, kids:topics(name)').eq('id', 2);
      expect(viaClient.data).toEqual([{ id: 2, kids: [{ name: 'grandchild' }] }]);
    });

    it('embeds the parent by the key column (many-to-one, an object or null), nested', async () => {
      expect(await get('/topics?select=id,parent:parent_id(name)&id=in.(1,4)&order=id')).toEqual([
        { id: 1, parent: null },
        { id: 4, parent: { name: 'child a' } },
      ]);
      expect(await get('/topics?select=name,parent_id(name,parent_id(name))&id=eq.4')).toEqual([
        { name: 'grandchild', parent_id: { name: 'child a', parent_id: { name: 'root' } } },
      ]);
    });

    it('takes the key column as a hint for the children (`topics!parent_id`)', async () => {
      expect(
        await get(
          '/topics?select=id,children:topics!parent_id(id,children:topics!parent_id(id))&id=eq.1&children.order=id',
        ),
      ).toEqual([
        {
          id: 1,
          children: [
            { id: 2, children: [{ id: 4 }] },
            { id: 3, children: [] },
          ],
        },
      ]);
    });
  });

  describe('2. null filters on embeds and empty embeds', () => {
    it('keeps the parents without embedded rows (is.null) or with some (not.is.null); rel() is not in the answer', async () => {
      expect(await get('/books?select=id,reviews()&reviews=is.null&order=id')).toEqual([{ id: 2 }, { id: 6 }]);
      expect(await get('/books?select=id,reviews()&reviews=not.is.null&order=id')).toEqual([
        { id: 1 },
        { id: 3 },
        { id: 4 },
        { id: 5 },
      ]);
      const viaClient = await fx.client.from('books').select('id, reviews()').is('reviews', null).order('id');
      expect(viaClient.data).toEqual([{ id: 2 }, { id: 6 }]);
      // a select of empty embeds only: rows without keys
      expect(await get('/books?select=reviews()&reviews=is.null')).toEqual([{}, {}]);
    });

    it("counts the embed's own filters, works on to-one embeds and inside or=()", async () => {
      expect(await get('/books?select=id,reviews()&reviews.stars=eq.5&reviews=not.is.null&order=id')).toEqual([
        { id: 1 },
        { id: 3 },
        { id: 5 },
      ]);
      expect(await get('/books?select=id,editor:authors!editor_id(name)&editor=not.is.null&order=id')).toEqual([
        { id: 1, editor: { name: 'Terry Pratchett' } },
        { id: 3, editor: { name: 'Ursula K. Le Guin' } },
      ]);
      const either = await get(
        `/books?select=id,reviews(),editor:authors!editor_id()&or=${enc('(reviews.is.null,editor.not.is.null)')}&order=id`,
      );
      expect(either).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 6 }]);
      const r = await fx.http('GET', '/books?select=id,reviews()&reviews=not.is.null&limit=2', {
        headers: { Prefer: 'count=exact' },
      });
      expect(r.headers.get('content-range')).toBe('0-1/4');
    });
  });

  describe('3. ordering by a to-one embed', () => {
    it('orders the parents by a column of a many-to-one embed, by its alias', async () => {
      const asc = await get('/books?select=id,author:authors!author_id(name)&order=author(name).asc,id');
      expect(asc.map((b: { id: number }) => b.id)).toEqual([6, 5, 3, 4, 1, 2]);
      const desc = await get('/books?select=id,author:authors!author_id(name)&order=author(name).desc,id.desc');
      expect(desc.map((b: { id: number }) => b.id)).toEqual([2, 1, 4, 3, 5, 6]);
      const nulls = await get('/books?select=id,editor:authors!editor_id(name)&order=editor(name).desc.nullslast,id');
      expect(nulls.map((b: { id: number }) => b.id)).toEqual([3, 1, 2, 4, 5, 6]);
    });

    it('answers 400 PGRST118 for a to-many embed and PGRST108 for one not in select', async () => {
      const many = await fx.http('GET', '/authors?select=id,books!author_id(id)&order=books(id)');
      expect(many.status).toBe(400);
      expect(many.json).toEqual({
        code: 'PGRST118',
        message: "A related order on 'books' is not possible",
        details: "'authors' and 'books' do not form a many-to-one or one-to-one relationship",
        hint: null,
      });
      const missing = await fx.http('GET', '/books?select=id&order=authors(name)');
      expect([missing.status, missing.json.code]).toEqual([400, 'PGRST108']);
    });
  });

  describe('4. spread embeds', () => {
    it('lifts the columns of a to-one embed into the parent row (null without a match), nested', async () => {
      expect(await get('/books?select=title,...authors!author_id(name,country)&id=in.(1,6)&order=id')).toEqual([
        { title: 'A Wizard of Earthsea', name: 'Ursula K. Le Guin', country: 'US' },
        { title: 'Untitled, draft', name: 'Anonymous', country: null },
      ]);
      expect(await get('/books?select=id,...authors!editor_id(editor:name)&id=in.(1,2)&order=id')).toEqual([
        { id: 1, editor: 'Terry Pratchett' },
        { id: 2, editor: null },
      ]);
      expect(await get('/reviews?select=stars,...books(title,...authors!author_id(author:name))&id=eq.1')).toEqual([
        { stars: 5, title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin' },
      ]);
    });

    it('answers 400 PGRST119 for a to-many spread', async () => {
      const r = await fx.http('GET', '/authors?select=name,...books!author_id(title)');
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('PGRST119');
    });
  });

  describe('5. the ambiguous embed', () => {
    it('answers 300 PGRST201 with the candidates in details and the ! hint', async () => {
      const r = await fx.http('GET', '/authors?select=name,books(title)');
      expect(r.status).toBe(300);
      expect(r.json).toEqual({
        code: 'PGRST201',
        message: "Could not embed because more than one relationship was found for 'authors' and 'books'",
        details: [
          {
            cardinality: 'one-to-many',
            embedding: 'authors with books',
            relationship: 'books_author_id_fkey using authors(id) and books(author_id)',
          },
          {
            cardinality: 'one-to-many',
            embedding: 'authors with books',
            relationship: 'books_editor_id_fkey using authors(id) and books(editor_id)',
          },
        ],
        hint: "Try changing 'books' to one of the following: 'books!books_author_id_fkey', 'books!books_editor_id_fkey'. Find the desired relationship in the 'details' key.",
      });
      const viaClient = await fx.client.from('authors').select('name, books(title)');
      expect(viaClient.error?.code).toBe('PGRST201');
      expect(viaClient.status).toBe(300);
    });
  });

  describe('6. casts', () => {
    it('casts to any type PostgreSQL knows', async () => {
      expect(
        await get(
          '/books?select=id::text,price::float8,published::text,pages::int8,title::varchar,meta::jsonb&id=eq.2',
        ),
      ).toEqual([
        {
          id: '2',
          price: 9.99,
          published: '1969-03-01',
          pages: 304,
          title: 'The Left Hand of Darkness',
          meta: expect.objectContaining({ format: 'paperback' }),
        },
      ]);
    });

    it("gives the database's error for an unknown type, and refuses the catalog types", async () => {
      const r = await fx.http('GET', '/books?select=id::nosuchtype');
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('42704');
      expect(r.json.message).toBe('There is no type named "nosuchtype"');
      expect(r.json.details).toContain('type "nosuchtype" does not exist');
      const catalog = await fx.http('GET', '/books?select=id::regclass');
      expect([catalog.status, catalog.json.code]).toEqual([400, 'PGRST100']);
      const odd = await fx.http('GET', `/books?select=${enc('id::text);drop table books;--')}`);
      expect([odd.status, odd.json.code]).toEqual([400, 'PGRST100']);
    });
  });

  describe('7. JSON paths ending in an array index', () => {
    it('are named after the last key unless aliased', async () => {
      expect(await get('/authors?select=profile->langs->>1,second:profile->langs->0&id=eq.3')).toEqual([
        { langs: 'ga', second: 'en' },
      ]);
    });
  });

  describe('8. paths with extra segments', () => {
    it('answer 404 PGRST125', async () => {
      for (const path of ['/books/1/x', '/books/1', '/rpc/add_numbers/x']) {
        const r = await fx.http('GET', path);
        expect(r.status, path).toBe(404);
        expect(r.json, path).toEqual({
          code: 'PGRST125',
          message: 'Invalid path specified in request URL',
          details: null,
          hint: null,
        });
      }
    });
  });

  describe('9. writes', () => {
    it('PATCH with {} (or [] or [{}]) updates nothing: 204, or 200 [] with return=representation', async () => {
      const before = await fx.checksum();
      for (const body of ['{}', '[]', '[{}]']) {
        const r = await fx.http('PATCH', '/books?id=eq.1', { headers: json, body });
        expect(r.status, body).toBe(204);
        expect(r.headers.get('content-range')).toBe('*/*');
      }
      const rep = await fx.http('PATCH', '/books?id=eq.1', {
        headers: { ...json, Prefer: 'return=representation' },
        body: '{}',
      });
      expect(rep.status).toBe(200);
      expect(rep.json).toEqual([]);
      expect(await fx.checksum()).toEqual(before);
    });

    it('POST of objects with different keys without columns= is 400 PGRST102', async () => {
      const r = await fx.http('POST', '/genres', { headers: json, body: '[{"id":10,"name":"a"},{"id":11}]' });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ code: 'PGRST102', message: 'All object keys must match', details: null, hint: null });
      expect(await rows('SELECT id FROM genres WHERE id >= 10')).toEqual([]);
      const withColumns = await fx.http('POST', '/genres?columns=id,name', {
        headers: json,
        body: '[{"id":10,"name":"a"},{"id":11,"name":"b","x":1}]',
      });
      expect(withColumns.status, withColumns.text).toBe(201);
    });

    it('PUT inserts (201) or replaces (200) the one row named by the full primary key', async () => {
      const rep = { ...json, Prefer: 'return=representation' };
      const created = await fx.http('PUT', '/genres?id=eq.20', { headers: rep, body: '{"id":20,"name":"poetry"}' });
      expect(created.status, created.text).toBe(201);
      expect(created.json).toEqual([{ id: 20, name: 'poetry' }]);
      const replaced = await fx.http('PUT', '/genres?id=eq.20', { headers: rep, body: '{"id":20,"name":"verse"}' });
      expect(replaced.status).toBe(200);
      expect(replaced.json).toEqual([{ id: 20, name: 'verse' }]);
      const minimal = await fx.http('PUT', '/genres?id=eq.20', {
        headers: json,
        body: '[{"id":20,"name":"odes"},{"id":21,"name":"ignored"}]',
      });
      expect(minimal.status).toBe(204);
      expect(await rows('SELECT id, name FROM genres WHERE id >= 20')).toEqual([{ id: 20, name: 'odes' }]);
      const composite = await fx.http('PUT', '/book_genres?book_id=eq.2&genre_id=eq.1', {
        headers: rep,
        body: '{"book_id":2,"genre_id":1}',
      });
      expect(composite.status).toBe(201);
      const again = await fx.http('PUT', '/book_genres?genre_id=eq.1&book_id=eq.2', {
        headers: { ...rep, Accept: 'application/vnd.pgrst.object+json' },
        body: '{"book_id":2,"genre_id":1}',
      });
      expect(again.status).toBe(200);
      expect(again.json).toEqual({ book_id: 2, genre_id: 1 });
    });

    it('PUT refuses other filters (405 PGRST105), limit/offset (400 PGRST114) and a body key unlike the URL (400 PGRST115)', async () => {
      const before = await fx.checksum();
      const body = '{"id":1,"name":"x"}';
      for (const q of [
        'name=eq.x',
        'id=gt.0',
        'id=not.eq.1',
        'id=in.(1)',
        `or=${enc('(id.eq.1)')}`,
        'id=eq.1&name=eq.x',
        'id=eq.1&id=eq.1',
        '',
      ]) {
        const r = await fx.http('PUT', `/genres?${q}`, { headers: json, body });
        expect(r.status, q).toBe(405);
        expect(r.json, q).toEqual({
          code: 'PGRST105',
          message: "Filters must include all and only primary key columns with 'eq' operators",
          details: null,
          hint: null,
        });
      }
      const partial = await fx.http('PUT', '/book_genres?book_id=eq.1', {
        headers: json,
        body: '{"book_id":1,"genre_id":1}',
      });
      expect([partial.status, partial.json.code]).toEqual([405, 'PGRST105']);
      for (const q of ['limit=1', 'offset=1']) {
        const r = await fx.http('PUT', `/genres?id=eq.1&${q}`, { headers: json, body });
        expect(r.status, q).toBe(400);
        expect(r.json, q).toEqual({
          code: 'PGRST114',
          message: 'limit/offset querystring parameters are not allowed for PUT',
          details: null,
          hint: null,
        });
      }
      for (const b of ['{"id":2,"name":"x"}', '{"name":"x"}']) {
        const r = await fx.http('PUT', '/genres?id=eq.1', { headers: json, body: b });
        expect(r.status, b).toBe(400);
        expect(r.json, b).toEqual({
          code: 'PGRST115',
          message: 'Payload values do not match URL in primary key column(s)',
          details: null,
          hint: null,
        });
      }
      expect(await fx.checksum()).toEqual(before);
    });
  });

  describe("9. PUT and the areas' write checks", () => {
    it('a PUT is checked as the POST of a whole row: a refused body writes nothing', async () => {
      const seen: string[] = [];
      const effects: string[] = [];
      const checked = await startFixture(driver, {
        writes: [
          {
            table: 'genres',
            check: (table, method, body) => {
              seen.push(`${method} ${table}`);
              if ((body as { name?: string }).name === 'forbidden')
                throw new RestError(400, '23514', 'name is not valid');
            },
            afterCommit: (table, method) => void effects.push(`${method} ${table}`),
          },
        ],
      });
      try {
        const refused = await checked.http('PUT', '/genres?id=eq.50', {
          headers: json,
          body: '{"id":50,"name":"forbidden"}',
        });
        expect([refused.status, refused.json.code]).toEqual([400, '23514']);
        const ok = await checked.http('PUT', '/genres?id=eq.50', { headers: json, body: '{"id":50,"name":"fine"}' });
        expect(ok.status).toBe(204);
        expect(seen).toEqual(['POST genres', 'POST genres']);
        // the effect runs for the committed PUT only, and not for a tx=rollback dry run
        const dryRun = await checked.http('PUT', '/genres?id=eq.51', {
          headers: { ...json, Prefer: 'tx=rollback' },
          body: '{"id":51,"name":"dry"}',
        });
        expect(dryRun.status).toBe(204);
        expect(effects).toEqual(['PUT genres']);
        expect((await checked.db.query('SELECT name FROM genres WHERE id = 50')).rows).toEqual([{ name: 'fine' }]);
      } finally {
        await checked.close();
      }
    });
  });

  describe('10. status and headers of writes', () => {
    it('an upsert that only merged existing rows is 200; one that inserted is 201', async () => {
      const merge = { ...json, Prefer: 'resolution=merge-duplicates,return=representation' };
      const existing = await fx.http('POST', '/genres', {
        headers: merge,
        body: '[{"id":1,"name":"fantasy!"},{"id":2,"name":"sf"}]',
      });
      expect(existing.status).toBe(200);
      expect(existing.json).toHaveLength(2);
      const mixed = await fx.http('POST', '/genres', {
        headers: merge,
        body: '[{"id":1,"name":"fantasy"},{"id":30,"name":"new"}]',
      });
      expect(mixed.status).toBe(201);
      const minimal = await fx.http('POST', '/genres', {
        headers: { ...json, Prefer: 'resolution=merge-duplicates' },
        body: '{"id":30,"name":"newer"}',
      });
      expect(minimal.status).toBe(200);
      const viaClient = await fx.client.from('genres').upsert({ id: 30, name: 'newest' });
      expect(viaClient.status).toBe(200);
    });

    it('POST and DELETE answer Content-Range */* (or */n with a count); PATCH the rows it changed', async () => {
      const post = await fx.http('POST', '/genres', {
        headers: json,
        body: '[{"id":40,"name":"a"},{"id":41,"name":"b"}]',
      });
      expect([post.status, post.headers.get('content-range')]).toEqual([201, '*/*']);
      const counted = await fx.http('POST', '/genres', {
        headers: { ...json, Prefer: 'count=exact' },
        body: '[{"id":42,"name":"c"},{"id":43,"name":"d"}]',
      });
      expect(counted.headers.get('content-range')).toBe('*/2');
      const patch = await fx.http('PATCH', '/books?id=in.(1,2)', { headers: json, body: '{"pages":100}' });
      expect([patch.status, patch.headers.get('content-range')]).toEqual([204, '0-1/*']);
      const del = await fx.http('DELETE', '/genres?id=in.(40,41)', { headers: { Origin: fx.api } });
      expect([del.status, del.headers.get('content-range')]).toEqual([204, '*/*']);
      const delCounted = await fx.http('DELETE', '/genres?id=in.(42,43)', {
        headers: { Prefer: 'count=exact', Origin: fx.api },
      });
      expect(delCounted.headers.get('content-range')).toBe('*/2');
    });

    it('Preference-Applied echoes the preferences applied, in PostgREST order', async () => {
      const post = await fx.http('POST', '/counters', {
        headers: {
          ...json,
          Prefer: 'count=exact, return=representation, missing=default, resolution=merge-duplicates, tx=rollback',
        },
        body: '{"id":"6f1f0a2c-8c1e-4d3e-9b44-0d3f2f7c1a10","label":"kappa"}',
      });
      expect(post.status, post.text).toBe(201);
      expect(post.headers.get('preference-applied')).toBe(
        'resolution=merge-duplicates, missing=default, return=representation, count=exact, tx=rollback',
      );
      expect(post.json).toMatchObject([{ label: 'kappa', n: 7 }]);
      // tx=rollback: the answer of the write, and nothing written
      expect(await rows(`SELECT id FROM counters WHERE label = 'kappa'`)).toEqual([]);
      const committed = await fx.http('PATCH', '/genres?id=eq.1', {
        headers: { ...json, Prefer: 'tx=commit' },
        body: '{"name":"fantasy!"}',
      });
      expect(committed.headers.get('preference-applied')).toBe('tx=commit');
      expect(await rows('SELECT name FROM genres WHERE id = 1')).toEqual([{ name: 'fantasy!' }]);
      const read = await fx.http('GET', '/genres?select=id', {
        headers: { Prefer: 'count=exact, return=representation' },
      });
      expect(read.headers.get('preference-applied')).toBe('count=exact');
      const patch = await fx.http('PATCH', '/genres?id=eq.1', {
        headers: { ...json, Prefer: 'return=minimal, resolution=ignore-duplicates' },
        body: '{"name":"f"}',
      });
      expect(patch.headers.get('preference-applied')).toBe('return=minimal');
      const plain = await fx.http('GET', '/genres?select=id');
      expect(plain.headers.get('preference-applied')).toBeNull();
    });
  });

  describe('refused on purpose (README table)', () => {
    it('aggregates answer 400 PGRST123, as a PostgREST with aggregates disabled', async () => {
      for (const select of ['count()', 'pages.sum()', 'total:pages.avg()', 'id,count()']) {
        const r = await fx.http('GET', `/books?select=${enc(select)}`);
        expect(r.status, select).toBe(400);
        expect(r.json, select).toEqual({
          code: 'PGRST123',
          message: 'Use of aggregate functions is not allowed',
          details: null,
          hint: null,
        });
      }
    });
  });

  describe('11. ranges', () => {
    it('intersects the Range header with limit and offset', async () => {
      const a = await fx.http('GET', '/numbers?select=n&order=n&limit=5', { headers: { Range: '2-10' } });
      expect([a.status, a.headers.get('content-range'), a.json]).toEqual([
        200,
        '2-4/*',
        [{ n: 3 }, { n: 4 }, { n: 5 }],
      ]);
      const b = await fx.http('GET', '/numbers?select=n&order=n&offset=5', {
        headers: { Range: '0-9', Prefer: 'count=exact' },
      });
      expect([b.status, b.headers.get('content-range')]).toEqual([206, '5-9/120']);
      expect(b.json.map((r: { n: number }) => r.n)).toEqual([6, 7, 8, 9, 10]);
    });

    it('answers 416 PGRST103 for limit=-1, a backwards range and a range outside limit/offset', async () => {
      const cases: [string, Record<string, string>, string][] = [
        ['limit=-1', {}, 'Limit should be greater than or equal to zero.'],
        ['offset=20', { Range: '0-9' }, 'Limit should be greater than or equal to zero.'],
        [
          '',
          { Range: '5-2' },
          'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
        ],
      ];
      for (const [q, headers, details] of cases) {
        const r = await fx.http('GET', `/numbers?select=n&${q}`, { headers });
        expect(r.status, q).toBe(416);
        expect(r.json, q).toEqual({
          code: 'PGRST103',
          message: 'Requested range not satisfiable',
          details,
          hint: null,
        });
      }
    });

    it('answers 416 with Content-Range */n for an offset past a counted total, 206 */n at its end', async () => {
      const past = await fx.http('GET', '/numbers?select=n&offset=121', { headers: { Prefer: 'count=exact' } });
      expect([past.status, past.headers.get('content-range')]).toEqual([416, '*/120']);
      expect(past.json).toEqual({
        code: 'PGRST103',
        message: 'Requested range not satisfiable',
        details: 'An offset of 121 was requested, but there are only 120 rows.',
        hint: null,
      });
      const atEnd = await fx.http('GET', '/numbers?select=n', { headers: { Prefer: 'count=exact', Range: '120-' } });
      expect([atEnd.status, atEnd.headers.get('content-range'), atEnd.json]).toEqual([206, '*/120', []]);
    });
  });
});
