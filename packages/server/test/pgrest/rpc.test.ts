import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { enc, startFixture, type Fixture } from './support.ts';

/** /rpc/<function>: GET and POST, arguments, results filtered like tables, errors. */
describe.each(testDrivers())('/api/db/rpc ($name)', (driver) => {
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

  const json = { 'Content-Type': 'application/json' };

  it('calls a scalar function with POST (JSON object) and GET (query arguments)', async () => {
    const post = await fx.client.rpc('add_numbers', { a: 1, b: 2 });
    expect(post.error).toBeNull();
    expect(post.data).toBe(3);
    const get = await fx.client.rpc('add_numbers', { a: 4, b: 5 }, { get: true });
    expect(get.status).toBe(200);
    expect(get.data).toBe(9);
    expect(fx.authorized).toContainEqual(['rpc/add_numbers', 'read']);
  });

  it('uses argument defaults', async () => {
    expect((await fx.client.rpc('book_count')).data).toBe(6);
    expect((await fx.client.rpc('book_count', { min_pages: 250 })).data).toBe(3);
    expect((await fx.client.rpc('book_count', { min_pages: 250 }, { get: true })).data).toBe(3);
  });

  it('passes arrays and JSON documents as arguments', async () => {
    expect((await fx.client.rpc('sum_array', { xs: [1, 2, 3] })).data).toBe(6);
    expect((await fx.client.rpc('sum_array', { xs: [4, 5] }, { get: true })).data).toBe(9);
    expect((await fx.client.rpc('sum_array', { xs: [] })).data).toBe(0);
    const doc = { a: [1, { b: 'two' }], c: null, 'd e': "it's" };
    expect((await fx.client.rpc('echo_json', { doc })).data).toEqual(doc);
  });

  it('filters, orders, pages, embeds and counts the rows of a set-returning function', async () => {
    const r = await fx.client.rpc('books_by_author', { author: 1 }).select('id,title');
    expect(r.data).toEqual([
      { id: 1, title: 'A Wizard of Earthsea' },
      { id: 2, title: 'The Left Hand of Darkness' },
    ]);
    const filtered = await fx.client.rpc('books_by_author', { author: 2 }).select('id').gt('pages', 280);
    expect(filtered.data).toEqual([{ id: 3 }]);
    const embedded = await fx.client
      .rpc('books_by_author', { author: 1 })
      .select('id, reviews(stars)')
      .order('id', { ascending: false })
      .order('stars', { referencedTable: 'reviews' })
      .limit(1);
    expect(embedded.data).toEqual([{ id: 2, reviews: [] }]);
    const viaGet = await fx.http(
      'GET',
      `/rpc/books_by_author?author=1&select=id,author:authors!author_id(name)&order=id.desc&title=${enc('ilike.*earth*')}`,
    );
    expect(viaGet.json).toEqual([{ id: 1, author: { name: 'Ursula K. Le Guin' } }]);
    const counted = await fx.client.rpc('books_by_author', { author: 1 }, { count: 'exact' }).select('id').limit(1);
    expect(counted.count).toBe(2);
    expect(counted.status).toBe(206);
    expect(counted.data).toEqual([{ id: 1 }]);
    const head = await fx.client.rpc('books_by_author', { author: 2 }, { head: true, count: 'exact' });
    expect(head.count).toBe(2);
  });

  it('returns a set of scalars as an array', async () => {
    expect((await fx.client.rpc('author_names')).data).toEqual([
      'Ursula K. Le Guin',
      'Terry Pratchett',
      "Flann O'Brien",
      'Anonymous',
    ]);
  });

  it('returns a single composite as an object, and can write (needs write access)', async () => {
    const r = await fx.client.rpc('rate_author', { author: 4, score: 3.5 });
    expect(r.error).toBeNull();
    expect(r.data).toMatchObject({ id: 4, name: 'Anonymous', rating: 3.5 });
    expect((await fx.db.query('SELECT rating FROM authors WHERE id = 4')).rows).toEqual([{ rating: '3.5' }]);
    expect(fx.authorized).toContainEqual(['rpc/rate_author', 'write']);
    const denied = await fx.http('POST', '/rpc/rate_author', {
      headers: { ...json, 'x-deny': 'rpc/rate_author' },
      body: '{"author":1,"score":1}',
    });
    expect(denied.status).toBe(403);
    expect((await fx.db.query('SELECT rating FROM authors WHERE id = 1')).rows).toEqual([{ rating: '4.8' }]);
  });

  it('names arguments by the IN parameters, and returns OUT parameters and TABLE columns as fields', async () => {
    expect((await fx.client.rpc('split_name', { full_name: 'Terry Pratchett' })).data).toEqual({
      first: 'Terry',
      last: 'Pratchett',
    });
    const rows = await fx.client.rpc('search_books', { q: 'the' }, { get: true });
    expect(rows.data).toEqual([
      { id: 2, title: 'The Left Hand of Darkness' },
      { id: 5, title: 'The Third Policeman' },
    ]);
  });

  it('chooses an overload by argument names, and answers 300 PGRST203 when names cannot tell', async () => {
    expect((await fx.client.rpc('greet', { name: 'Ged' })).data).toBe('hello Ged');
    expect((await fx.client.rpc('greet', { name: 'Ged', greeting: 'hail' })).data).toBe('hail Ged');
    expect((await fx.client.rpc('greet', { name: 'Ged', greeting: 'hail' }, { get: true })).data).toBe('hail Ged');
    const ambiguous = await fx.client.rpc('pick', { x: 1 });
    expect([ambiguous.status, ambiguous.error?.code]).toEqual([300, 'PGRST203']);
    const none = await fx.client.rpc('greet', { nom: 'Ged' });
    expect([none.status, none.error?.code]).toEqual([404, 'PGRST202']);
  });

  it('answers null for a void function', async () => {
    const r = await fx.http('POST', '/rpc/touch_nothing', { headers: json, body: '{}' });
    expect(r.status).toBe(200);
    expect(r.json).toBeNull();
  });

  it('applies the singular media type to function results', async () => {
    const one = await fx.client.rpc('books_by_author', { author: 3 }).select('id,title').single();
    expect(one.data).toEqual({ id: 5, title: 'The Third Policeman' });
    const many = await fx.client.rpc('books_by_author', { author: 1 }).select('id').single();
    expect(many.status).toBe(406);
    expect(many.error?.code).toBe('PGRST116');
  });

  it('forwards RAISE from the function as 400 with its message, detail and hint', async () => {
    const r = await fx.client.rpc('fail_always');
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({ code: 'P0001', message: 'I refuse', details: 'always', hint: 'do not call me' });
  });

  it('maps SQLSTATEs raised by the database to PostgREST statuses', async () => {
    const cases: [string, number][] = [
      ['23505', 409],
      ['23503', 409],
      ['42501', 403],
      ['42P01', 404],
      ['42883', 404],
      ['25006', 405],
      ['P0001', 400],
      ['22023', 400],
      ['23514', 400],
      ['0A000', 400],
      ['42P10', 400],
      ['PT402', 402],
      ['08006', 503],
      ['53100', 503],
      ['53400', 500],
      ['40001', 500],
      ['P0002', 500],
      ['XX000', 500],
    ];
    for (const [code, status] of cases) {
      const r = await fx.client.rpc('fail_with', { code });
      expect(r.status, code).toBe(status);
      expect(r.error, code).toMatchObject({ code, message: `failed with ${code}` });
    }
  });

  it('answers 404 PGRST202 for unknown, hidden or mis-called functions', async () => {
    for (const [path, body] of [
      ['/rpc/no_such_fn', '{}'],
      ['/rpc/hidden_fn', '{}'],
      ['/rpc/add_numbers', '{"a":1,"b":2,"c":3}'],
      ['/rpc/add_numbers', '{"a":1}'],
    ]) {
      const r = await fx.http('POST', path, { headers: json, body });
      expect(r.status, `${path} ${body}`).toBe(404);
      expect(r.json.code, `${path} ${body}`).toBe('PGRST202');
    }
    const hiddenGet = await fx.http('GET', '/rpc/hidden_fn');
    expect([hiddenGet.status, hiddenGet.json.code]).toEqual([404, 'PGRST202']);
  });

  it('answers 400 for arguments of the wrong type or a body that is not an object', async () => {
    const type = await fx.client.rpc('add_numbers', { a: 'x', b: 1 });
    expect([type.status, type.error?.code]).toEqual([400, '22P02']);
    for (const body of ['[1,2]', '{', '"x"']) {
      const r = await fx.http('POST', '/rpc/add_numbers', { headers: json, body });
      expect(r.status, body).toBe(400);
      expect(r.json.code, body).toBe('PGRST102');
    }
  });

  it('answers 405 PGRST101 for methods other than GET and POST', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const r = await fx.http(method, '/rpc/add_numbers?a=1&b=2', {
        headers: json,
        body: method === 'DELETE' ? undefined : '{}',
      });
      expect(r.status, method).toBe(405);
      expect(r.json.code, method).toBe('PGRST101');
    }
  });
});
