import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { enc, startFixture, type Fixture } from './support.ts';

/** Writes: POST (single, bulk, upsert), PATCH, DELETE, every Prefer option, columns, on_conflict. */
describe.each(testDrivers())('/api/db writes ($name)', (driver) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(driver);
  });
  afterAll(async () => {
    await fx?.close();
  });
  beforeEach(async () => {
    await fx.reset();
    fx.authorized.length = 0;
  });

  const row = async (sql: string, params: unknown[] = []) =>
    (await fx.db.query<Record<string, unknown>>(sql, params)).rows;
  const json = { 'Content-Type': 'application/json' };

  describe('POST', () => {
    it('inserts one object: 201 with no body by default (return=minimal)', async () => {
      const r = await fx.client.from('genres').insert({ id: 10, name: 'horror' });
      expect(r.error).toBeNull();
      expect(r.status).toBe(201);
      expect(r.data).toBeNull();
      expect(await row('SELECT name FROM genres WHERE id = 10')).toEqual([{ name: 'horror' }]);
      expect(fx.authorized).toContainEqual(['genres', 'write']);
    });

    it('returns the inserted rows with return=representation, shaped by select (embeds included)', async () => {
      const r = await fx.client
        .from('books')
        .insert({ id: 20, title: 'Mort', author_id: 2, tags: ['fantasy'], meta: { format: 'ebook' } })
        .select('id, title, tags, meta, status, author:authors!author_id(name)')
        .single();
      expect(r.error).toBeNull();
      expect(r.status).toBe(201);
      expect(r.data).toEqual({
        id: 20,
        title: 'Mort',
        tags: ['fantasy'],
        meta: { format: 'ebook' },
        status: 'draft',
        author: { name: 'Terry Pratchett' },
      });
      expect(fx.authorized).toEqual(
        expect.arrayContaining([
          ['books', 'write'],
          ['authors', 'read'],
        ]),
      );
    });

    it('inserts an array in one statement and returns every row', async () => {
      const r = await fx.client
        .from('genres')
        .insert([
          { id: 11, name: 'poetry' },
          { id: 12, name: 'essays' },
        ])
        .select('id,name')
        .order('id');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([
        { id: 11, name: 'poetry' },
        { id: 12, name: 'essays' },
      ]);
    });

    it('is all or nothing: one bad row in a bulk insert inserts none', async () => {
      const r = await fx.client.from('genres').insert([
        { id: 13, name: 'drama' },
        { id: 1, name: 'duplicate id' },
      ]);
      expect(r.status).toBe(409);
      expect(r.error?.code).toBe('23505');
      expect(await row('SELECT count(*)::int AS n FROM genres')).toEqual([{ n: 4 }]);
    });

    it('missing=default: absent keys take the column default; without it they are null', async () => {
      const withDefaults = await fx.client
        .from('counters')
        .insert([{ label: 'gamma' }, { label: 'delta', n: 4 }], { defaultToNull: false })
        .select('label,n,note')
        .order('label');
      expect(withDefaults.error).toBeNull();
      expect(withDefaults.data).toEqual([
        { label: 'delta', n: 4, note: 'none' },
        { label: 'gamma', n: 7, note: 'none' },
      ]);
      // default behaviour: a key missing from one object of the array is NULL for that row
      const nulls = await fx.client
        .from('counters')
        .insert([
          { label: 'eps', note: 'x' },
          { label: 'zeta', n: 1 },
        ])
        .select('label,n,note');
      expect(nulls.status).toBe(400);
      expect(nulls.error?.code).toBe('23502'); // n is NOT NULL: the absent n of 'eps' was sent as null
      expect(await row(`SELECT count(*)::int AS n FROM counters WHERE label IN ('eps', 'zeta')`)).toEqual([{ n: 0 }]);
    });

    it('columns= limits the inserted keys (quoted or not) and rejects unknown ones with PGRST204', async () => {
      const r = await fx.http('POST', `/counters?columns=${enc('"label"')},note`, {
        headers: { ...json, Prefer: 'return=representation' },
        body: JSON.stringify({ label: 'eta', n: 99, note: 'kept', ignored: true }),
      });
      expect(r.status, r.text).toBe(201);
      expect(r.json).toMatchObject([{ label: 'eta', n: 7, note: 'kept' }]);
      const bad = await fx.http('POST', '/counters?columns=label,nope', {
        headers: json,
        body: JSON.stringify({ label: 'theta' }),
      });
      expect(bad.status).toBe(400);
      expect(bad.json.code).toBe('PGRST204');
    });

    it('answers 400 PGRST204 for a body key that is not a column', async () => {
      const r = await fx.client.from('genres').insert({ id: 14, name: 'x', colour: 'red' });
      expect(r.status).toBe(400);
      expect(r.error).toMatchObject({
        code: 'PGRST204',
        message: "Could not find the 'colour' column of 'genres' in the schema cache",
      });
    });

    it('maps constraint violations: unique and foreign key 409, not-null, check and bad input 400', async () => {
      const unique = await fx.client.from('authors').insert({ id: 50, name: 'Terry Pratchett' });
      expect([unique.status, unique.error?.code]).toEqual([409, '23505']);
      const fk = await fx.client.from('books').insert({ id: 50, title: 'Orphan', author_id: 999 });
      expect([fk.status, fk.error?.code]).toEqual([409, '23503']);
      const notNull = await fx.client.from('books').insert({ id: 51, author_id: 1 });
      expect([notNull.status, notNull.error?.code]).toEqual([400, '23502']);
      const check = await fx.client.from('reviews').insert({ book_id: 1, stars: 9 });
      expect([check.status, check.error?.code]).toEqual([400, '23514']);
      const type = await fx.client.from('books').insert({ id: 'abc', title: 'x', author_id: 1 });
      expect([type.status, type.error?.code]).toEqual([400, '22P02']);
      expect(await row('SELECT count(*)::int AS n FROM books')).toEqual([{ n: 6 }]);
      // PostgreSQL's wording never reaches a screen: a sentence instead, the database's own text
      // in details for whoever reads the API
      expect(unique.error).toMatchObject({ message: 'A record with this name already exists' });
      expect(unique.error?.details).toContain('duplicate key value violates unique constraint');
      expect(fk.error?.message).toBe('author_id refers to a record that does not exist');
      expect(notNull.error?.message).toBe('title is required');
      expect(check.error?.message).toBe('stars is not valid');
      expect(type.error?.message).toBe('"abc" is not a valid integer');
      expect(type.error?.details).toContain('invalid input syntax for type integer');
      const referenced = await fx.client.from('authors').delete().eq('id', 1);
      expect([referenced.status, referenced.error?.code, referenced.error?.message]).toEqual([
        409,
        '23503',
        'Other records still refer to this one',
      ]);
    });

    it('return=headers-only answers 201 with a Location built from the primary key', async () => {
      const r = await fx.http('POST', '/book_genres', {
        headers: { ...json, Prefer: 'return=headers-only' },
        body: JSON.stringify({ book_id: 6, genre_id: 2 }),
      });
      expect(r.status).toBe(201);
      expect(r.text).toBe('');
      expect(r.headers.get('location')).toBe('/book_genres?book_id=eq.6&genre_id=eq.2');
    });

    it('accepts an empty array (nothing to insert)', async () => {
      const r = await fx.http('POST', '/genres', { headers: { ...json, Prefer: 'return=representation' }, body: '[]' });
      expect(r.status).toBe(201);
      expect(r.json).toEqual([]);
    });

    it('rejects malformed bodies with 400 PGRST102', async () => {
      for (const body of ['', '{', '"text"', '42', '[1,2]', '[{"id":1},"x"]', 'null']) {
        const r = await fx.http('POST', '/genres', { headers: json, body });
        expect(r.status, body).toBe(400);
        expect(r.json.code, body).toBe('PGRST102');
      }
    });

    it('refuses a body that is not JSON with 415 PGRST107', async () => {
      const r = await fx.http('POST', '/genres', { headers: { 'Content-Type': 'text/csv' }, body: 'id,name\n30,csv' });
      expect(r.status).toBe(415);
      expect(r.json.code).toBe('PGRST107');
      expect(await row('SELECT count(*)::int AS n FROM genres')).toEqual([{ n: 4 }]);
    });

    it('refuses writes to read-only views with 405', async () => {
      for (const method of ['POST', 'PATCH', 'DELETE']) {
        const r = await fx.http(method, '/book_cards?id=eq.1', {
          headers: json,
          body: method === 'DELETE' ? undefined : '{"title":"x"}',
        });
        expect(r.status, method).toBe(405);
        expect(r.json.code, method).toBe('PGRST117');
      }
    });
  });

  describe('upsert (resolution=merge-duplicates | ignore-duplicates, on_conflict)', () => {
    it('merges on the primary key by default', async () => {
      const r = await fx.client
        .from('genres')
        .upsert([
          { id: 1, name: 'high fantasy' },
          { id: 15, name: 'satire' },
        ])
        .select('id,name')
        .order('id');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([
        { id: 1, name: 'high fantasy' },
        { id: 15, name: 'satire' },
      ]);
      expect(await row('SELECT count(*)::int AS n FROM genres')).toEqual([{ n: 5 }]);
    });

    it('merges on a unique column named by on_conflict', async () => {
      const r = await fx.client
        .from('counters')
        .upsert({ label: 'alpha', n: 100 }, { onConflict: 'label' })
        .select('label,n');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([{ label: 'alpha', n: 100 }]);
      expect(await row(`SELECT n FROM counters WHERE label = 'alpha'`)).toEqual([{ n: 100 }]);
    });

    it('ignore-duplicates leaves existing rows alone and returns only the inserted ones', async () => {
      const r = await fx.client
        .from('genres')
        .upsert(
          [
            { id: 2, name: 'changed?' },
            { id: 16, name: 'westerns' },
          ],
          { ignoreDuplicates: true },
        )
        .select('id,name');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([{ id: 16, name: 'westerns' }]);
      expect(await row('SELECT name FROM genres WHERE id = 2')).toEqual([{ name: 'science fiction' }]);
    });

    it('keeps column defaults for absent keys with missing=default', async () => {
      const r = await fx.client
        .from('counters')
        .upsert([{ label: 'beta', note: 'merged' }, { label: 'iota' }], { onConflict: 'label', defaultToNull: false })
        .select('label,n,note')
        .order('label');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([
        { label: 'beta', n: 2, note: 'merged' },
        { label: 'iota', n: 7, note: 'none' },
      ]);
    });

    it('answers 400 when on_conflict names no unique constraint, and PGRST204 when it names no column', async () => {
      const noUnique = await fx.client.from('counters').upsert({ label: 'alpha', n: 1 }, { onConflict: 'n' });
      expect(noUnique.status).toBe(400);
      expect(noUnique.error?.code).toBe('42P10');
      const noColumn = await fx.client.from('counters').upsert({ label: 'alpha' }, { onConflict: 'nope' });
      expect(noColumn.status).toBe(400);
      expect(noColumn.error?.code).toBe('PGRST204');
    });
  });

  describe('PATCH', () => {
    it('updates the filtered rows: 204 by default, 200 with the rows on return=representation', async () => {
      const minimal = await fx.client.from('books').update({ status: 'archived' }).eq('author_id', 2);
      expect(minimal.status).toBe(204);
      expect(await row(`SELECT id FROM books WHERE status = 'archived' ORDER BY id`)).toEqual([{ id: 3 }, { id: 4 }]);
      const rep = await fx.client
        .from('books')
        .update({ pages: 190, tags: ['fantasy', 'ya'], meta: { format: 'audio' } })
        .eq('id', 1)
        .select('id,pages,tags,meta');
      expect(rep.status).toBe(200);
      expect(rep.data).toEqual([{ id: 1, pages: 190, tags: ['fantasy', 'ya'], meta: { format: 'audio' } }]);
      expect(fx.authorized).toContainEqual(['books', 'write']);
    });

    it('reports the number of affected rows with Prefer: count=exact', async () => {
      const r = await fx.client.from('books').update({ status: 'counted' }, { count: 'exact' }).eq('author_id', 1);
      expect(r.count).toBe(2);
      const none = await fx.client.from('books').delete({ count: 'exact' }).eq('id', 999);
      expect(none.count).toBe(0);
      const inserted = await fx.client.from('genres').insert(
        [
          { id: 60, name: 'a' },
          { id: 61, name: 'b' },
        ],
        { count: 'exact' },
      );
      expect(inserted.count).toBe(2);
    });

    it('updates nothing when nothing matches', async () => {
      const r = await fx.client.from('books').update({ status: 'x' }).eq('id', 999).select();
      expect(r.status).toBe(200);
      expect(r.data).toEqual([]);
    });

    it('applies columns= to the body', async () => {
      const r = await fx.http('PATCH', '/authors?id=eq.4&columns=country', {
        headers: { ...json, Prefer: 'return=representation' },
        body: JSON.stringify({ country: 'FR', name: 'Not Renamed' }),
      });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject([{ id: 4, name: 'Anonymous', country: 'FR' }]);
    });

    it('shapes the representation with embed filters', async () => {
      const r = await fx.http('PATCH', '/books?id=eq.3&select=id,reviews(stars)&reviews.stars=gt.3', {
        headers: { ...json, Prefer: 'return=representation' },
        body: '{"pages":289}',
      });
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ id: 3, reviews: [{ stars: 5 }] }]);
    });

    it('rejects an array of changes and unknown columns', async () => {
      const arr = await fx.http('PATCH', '/books?id=eq.1', { headers: json, body: '[{"pages":1}]' });
      expect([arr.status, arr.json.code]).toEqual([400, 'PGRST102']);
      const unknown = await fx.client.from('books').update({ colour: 'red' }).eq('id', 1);
      expect([unknown.status, unknown.error?.code]).toEqual([400, 'PGRST204']);
    });

    it('rolls back a singular (vnd.pgrst.object) update that touched more than one row: 406 PGRST116', async () => {
      const r = await fx.client.from('books').update({ status: 'gone' }).eq('author_id', 1).select('id').single();
      expect(r.status).toBe(406);
      expect(r.error?.code).toBe('PGRST116');
      expect(await row(`SELECT count(*)::int AS n FROM books WHERE status = 'gone'`)).toEqual([{ n: 0 }]);
      const one = await fx.client.from('books').update({ status: 'gone' }).eq('id', 1).select('id,status').single();
      expect(one.data).toEqual({ id: 1, status: 'gone' });
    });
  });

  describe('DELETE', () => {
    it('deletes the filtered rows: 204, or 200 with the deleted rows', async () => {
      const minimal = await fx.client.from('reviews').delete().eq('reviewer', 'ann');
      expect(minimal.status).toBe(204);
      expect(await row(`SELECT count(*)::int AS n FROM reviews`)).toEqual([{ n: 4 }]);
      const rep = await fx.client.from('counters').delete().eq('label', 'beta').select('label,n');
      expect(rep.status).toBe(200);
      expect(rep.data).toEqual([{ label: 'beta', n: 2 }]);
      expect(fx.authorized).toEqual(
        expect.arrayContaining([
          ['reviews', 'write'],
          ['counters', 'write'],
        ]),
      );
    });

    it('cascades like the database says, and answers 409 when a key still points at the row', async () => {
      const blocked = await fx.client.from('authors').delete().eq('id', 1);
      expect([blocked.status, blocked.error?.code]).toEqual([409, '23503']);
      expect(await row('SELECT count(*)::int AS n FROM authors')).toEqual([{ n: 4 }]);
      const cascade = await fx.client.from('books').delete().eq('id', 1);
      expect(cascade.status).toBe(204);
      expect(await row('SELECT count(*)::int AS n FROM reviews WHERE book_id = 1')).toEqual([{ n: 0 }]);
    });

    it('rolls back a singular delete that matched several rows', async () => {
      const r = await fx.client.from('numbers').delete().lt('n', 5).select().single();
      expect(r.status).toBe(406);
      expect(await row('SELECT count(*)::int AS n FROM numbers')).toEqual([{ n: 120 }]);
    });

    it('refuses filters on relations not embedded (PGRST108) instead of deleting more than asked', async () => {
      const r = await fx.http('DELETE', '/books?reviews.stars=eq.5');
      expect([r.status, r.json.code]).toEqual([400, 'PGRST108']);
      expect(await row('SELECT count(*)::int AS n FROM books')).toEqual([{ n: 6 }]);
    });
  });

  describe('limited PATCH and DELETE', () => {
    it('touches only the first rows of the given order', async () => {
      const r = await fx.http('DELETE', '/numbers?parity=eq.even&order=n.desc&limit=3', {
        headers: { Prefer: 'return=representation' },
      });
      expect(r.status).toBe(200);
      expect(r.json).toEqual([
        { n: 120, parity: 'even' },
        { n: 118, parity: 'even' },
        { n: 116, parity: 'even' },
      ]);
      expect(await row('SELECT count(*)::int AS n FROM numbers')).toEqual([{ n: 117 }]);
      const p = await fx.http('PATCH', '/numbers?order=n&limit=2&offset=1', {
        headers: { ...json, Prefer: 'return=representation' },
        body: '{"parity":"x"}',
      });
      expect(p.json).toEqual([
        { n: 2, parity: 'x' },
        { n: 3, parity: 'x' },
      ]);
    });

    it('refuses a limit without an order (PGRST109), touching nothing', async () => {
      const r = await fx.http('DELETE', '/numbers?limit=1');
      expect([r.status, r.json.code]).toEqual([400, 'PGRST109']);
      expect(await row('SELECT count(*)::int AS n FROM numbers')).toEqual([{ n: 120 }]);
    });
  });

  describe('secret columns', () => {
    it('encrypts on write, masks on read and in representations', async () => {
      const r = await fx.client
        .from('vaults')
        .insert({ id: 2, name: 'db', password: 'hunter2' })
        .select('id,password')
        .single();
      expect(r.data).toEqual({ id: 2, password: '********' });
      const [stored] = await row('SELECT password FROM vaults WHERE id = 2');
      expect(stored.password).not.toContain('hunter2');
      expect(fx.box.decrypt(stored.password as string)).toBe('hunter2');
      const read = await fx.client.from('vaults').select('*').order('id');
      expect(read.data).toEqual([
        { id: 1, name: 'empty', password: null, note: 'no secret yet' },
        { id: 2, name: 'db', password: '********', note: null },
      ]);
      const cast = await fx.http('GET', '/vaults?select=p:password::text&id=eq.2');
      expect(cast.json).toEqual([{ p: '********' }]);
    });

    it('treats the mask sent back as "unchanged"', async () => {
      await fx.client.from('vaults').insert({ id: 3, name: 'api', password: 's3cret' });
      const [before] = await row('SELECT password FROM vaults WHERE id = 3');
      const r = await fx.client.from('vaults').update({ name: 'api v2', password: '********' }).eq('id', 3);
      expect(r.status).toBe(204);
      const [after] = await row('SELECT name, password FROM vaults WHERE id = 3');
      expect(after).toEqual({ name: 'api v2', password: before.password });
      expect(fx.box.decrypt(after.password as string)).toBe('s3cret');
    });

    it('can be tested for presence only: other filters and orders on a secret are refused', async () => {
      await fx.client.from('vaults').insert({ id: 4, name: 'k', password: 'abc' });
      const present = await fx.client.from('vaults').select('id').not('password', 'is', null);
      expect(present.data).toEqual([{ id: 4 }]);
      for (const q of [
        'password=like.enc*',
        'password=eq.abc',
        'order=password',
        `or=${enc('(password.gt.a,id.eq.1)')}`,
        'select=password->>x',
      ]) {
        const r = await fx.http('GET', `/vaults?${q}`);
        expect(r.status, q).toBe(400);
        expect(r.text, q).not.toContain('enc:v1');
      }
    });
  });

  describe('RBAC', () => {
    it('checks write on the table and read on embedded relations before any SQL runs', async () => {
      const denied = await fx.http('POST', '/genres', {
        headers: { ...json, 'x-deny': 'genres' },
        body: '{"id":40,"name":"denied"}',
      });
      expect(denied.status).toBe(403);
      const deniedEmbed = await fx.http('PATCH', '/books?id=eq.1&select=id,reviews(stars)', {
        headers: { ...json, 'x-deny': 'reviews', Prefer: 'return=representation' },
        body: '{"status":"denied"}',
      });
      expect(deniedEmbed.status).toBe(403);
      expect(await row(`SELECT count(*)::int AS n FROM genres WHERE id = 40`)).toEqual([{ n: 0 }]);
      expect(await row(`SELECT status FROM books WHERE id = 1`)).toEqual([{ status: 'published' }]);
    });
  });
});
