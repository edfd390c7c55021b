import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { ROW_CAP, enc, startFixture, type Fixture } from './support.ts';

/** Reads: select (aliases, casts, JSON paths), every filter operator, order, paging, counts. */
describe.each(testDrivers())('/api/db reads ($name)', (driver) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(driver);
  });
  afterAll(async () => {
    await fx?.close();
  });

  /** ids of the books a filter keeps, via postgrest-js */
  const ids = (rows: { id: number }[] | null) => (rows ?? []).map((r) => r.id).sort((a, b) => a - b);

  describe('select', () => {
    it('returns every column for * and the listed ones otherwise', async () => {
      const all = await fx.client.from('authors').select('*').eq('id', 1);
      expect(all.error).toBeNull();
      expect(Object.keys(all.data![0]).sort()).toEqual([
        'active',
        'born',
        'country',
        'id',
        'name',
        'profile',
        'rating',
      ]);
      const some = await fx.client.from('authors').select('id,name').order('id');
      expect(some.data).toEqual([
        { id: 1, name: 'Ursula K. Le Guin' },
        { id: 2, name: 'Terry Pratchett' },
        { id: 3, name: "Flann O'Brien" },
        { id: 4, name: 'Anonymous' },
      ]);
    });

    it('renames with alias:col and converts with col::cast', async () => {
      const { data, error } = await fx.client
        .from('books')
        .select('book:title, pages_text:pages::text, price::text, id')
        .eq('id', 1);
      expect(error).toBeNull();
      expect(data).toEqual([{ book: 'A Wizard of Earthsea', pages_text: '183', price: '12.50', id: 1 }]);
    });

    it('reads JSON paths with -> (json) and ->> (text), named after the last key unless aliased', async () => {
      const { data } = await fx.client
        .from('books')
        .select('id, meta->format, fmt:meta->>format, width:meta->dims->w, meta->dims->>h')
        .in('id', [1, 3])
        .order('id');
      expect(data).toEqual([
        { id: 1, format: 'hardcover', fmt: 'hardcover', width: 15, h: '23' },
        { id: 3, format: 'paperback', fmt: 'paperback', width: null, h: null },
      ]);
      // array elements by index, and a cast on a path
      const langs = await fx.client
        .from('authors')
        .select('id, first:profile->langs->>0, hugo:profile->awards->hugo::int')
        .eq('id', 1);
      expect(langs.data).toEqual([{ id: 1, first: 'en', hugo: 5 }]);
    });

    it('takes double-quoted JSON keys holding dots, slashes, dashes or digits', async () => {
      const key = enc('meta->>"k8s.io/part-of"');
      expect(
        (await fx.http('GET', `/books?select=id,part:${key},seven:${enc('meta->>"7"')}&${key}=eq.hainish`)).json,
      ).toEqual([{ id: 2, part: 'hainish', seven: 'seven' }]);
      const or = await fx.client
        .from('books')
        .select('id')
        .or('meta->>"k8s.io/part-of".eq.hainish,id.eq.1')
        .order('id');
      expect(or.data).toEqual([{ id: 1 }, { id: 2 }]);
      const ordered = await fx.http(
        'GET',
        `/books?select=id&order=${enc('meta->>"k8s.io/part-of".desc.nullslast,id')}&limit=3`,
      );
      expect(ordered.json).toEqual([{ id: 2 }, { id: 1 }, { id: 3 }]);
      expect((await fx.http('GET', `/books?select=id&${enc('meta->>"unterminated')}=eq.1`)).status).toBe(400);
    });

    it('returns arrays, jsonb, ranges and numerics in their JSON form', async () => {
      const { data } = await fx.client
        .from('books')
        .select('tags, meta, on_sale, price, published')
        .eq('id', 1)
        .single();
      expect(data).toEqual({
        tags: ['fantasy', 'classic'],
        meta: { format: 'hardcover', dims: { w: 15, h: 23 }, isbn: '111' },
        on_sale: '[2024-01-01,2024-02-01)',
        price: 12.5,
        published: '1968-11-01',
      });
    });

    it('reads views like tables', async () => {
      const { data } = await fx.client.from('book_cards').select('id,title').order('id');
      expect(ids(data)).toEqual([1, 2, 3, 5]);
      const stats = await fx.client
        .from('author_stats')
        .select('name,book_count')
        .order('book_count', { ascending: false })
        .order('name');
      expect(stats.data).toEqual([
        { name: 'Terry Pratchett', book_count: 2 },
        { name: 'Ursula K. Le Guin', book_count: 2 },
        { name: 'Anonymous', book_count: 1 },
        { name: "Flann O'Brien", book_count: 1 },
      ]);
    });
  });

  describe('filters', () => {
    it('compares with eq neq gt gte lt lte', async () => {
      expect(ids((await fx.client.from('books').select('id').eq('author_id', 2)).data)).toEqual([3, 4]);
      expect(ids((await fx.client.from('books').select('id').neq('status', 'draft')).data)).toEqual([1, 2, 3, 5]);
      expect(ids((await fx.client.from('books').select('id').gt('pages', 272)).data)).toEqual([2, 3]);
      expect(ids((await fx.client.from('books').select('id').gte('pages', 272)).data)).toEqual([2, 3, 4]);
      expect(ids((await fx.client.from('books').select('id').lt('price', 9.99)).data)).toEqual([3]);
      expect(ids((await fx.client.from('books').select('id').lte('published', '1968-11-01')).data)).toEqual([1, 5]);
    });

    it('finds values with quotes, commas and spaces exactly (values are bound, not spliced)', async () => {
      expect((await fx.client.from('authors').select('id').eq('name', "Flann O'Brien")).data).toEqual([{ id: 3 }]);
      expect((await fx.client.from('books').select('id').eq('title', 'Untitled, draft')).data).toEqual([{ id: 6 }]);
      expect((await fx.client.from('books').select('id').eq('title', 'Guards! Guards!')).data).toEqual([{ id: 3 }]);
    });

    it('matches patterns with like / ilike (* or % as wildcard) and regexes with match / imatch', async () => {
      expect(ids((await fx.client.from('books').select('id').like('title', '*Guards*')).data)).toEqual([3]);
      expect(ids((await fx.client.from('books').select('id').like('title', 'the%')).data)).toEqual([]);
      expect(ids((await fx.client.from('books').select('id').ilike('title', 'the*')).data)).toEqual([2, 5]);
      expect(ids((await fx.client.from('books').select('id').regexMatch('title', '^[AS]')).data)).toEqual([1, 4]);
      expect(ids((await fx.client.from('books').select('id').regexIMatch('title', 'DARK|police')).data)).toEqual([
        2, 5,
      ]);
    });

    it('applies any/all modifiers to eq, like, ilike and comparisons', async () => {
      expect(ids((await fx.client.from('books').select('id').likeAnyOf('title', ['A*', 'S*'])).data)).toEqual([1, 4]);
      expect(ids((await fx.client.from('books').select('id').ilikeAllOf('title', ['*the*', '*left*'])).data)).toEqual([
        2,
      ]);
      const eqAny = await fx.http('GET', `/books?select=id&id=eq(any).${enc('{2,4,99}')}&order=id`);
      expect(eqAny.json).toEqual([{ id: 2 }, { id: 4 }]);
      const gtAll = await fx.http('GET', `/books?select=id&pages=gt(all).${enc('{199,250}')}&order=id`);
      expect(gtAll.json).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);
    });

    it('takes lists with in, quoted items keeping their commas', async () => {
      expect(ids((await fx.client.from('books').select('id').in('id', [1, 3, 5])).data)).toEqual([1, 3, 5]);
      expect(
        ids((await fx.client.from('books').select('id').in('title', ['Untitled, draft', 'Small Gods'])).data),
      ).toEqual([4, 6]);
      const raw = await fx.http('GET', `/books?select=id&title=in.${enc('("Untitled, draft","Small Gods")')}&order=id`);
      expect(raw.json).toEqual([{ id: 4 }, { id: 6 }]);
      expect((await fx.client.from('books').select('id').in('id', [])).data).toEqual([]);
    });

    it('tests null and booleans with is, and distinctness with isdistinct', async () => {
      expect(ids((await fx.client.from('books').select('id').is('price', null)).data)).toEqual([4, 6]);
      expect(ids((await fx.client.from('books').select('id').not('editor_id', 'is', null)).data)).toEqual([1, 3]);
      expect((await fx.client.from('authors').select('id').is('active', false)).data).toEqual([{ id: 2 }]);
      expect((await fx.client.from('authors').select('id').is('active', true).order('id')).data).toEqual([
        { id: 1 },
        { id: 3 },
        { id: 4 },
      ]);
      const unknown = await fx.http('GET', '/authors?select=id&country=is.unknown');
      expect(unknown.status).toBe(400); // unknown applies to booleans only
      // isdistinct: null is distinct from 'US', unlike neq
      expect(ids((await fx.client.from('authors').select('id').isDistinct('country', 'US')).data)).toEqual([2, 3, 4]);
      expect(ids((await fx.client.from('authors').select('id').neq('country', 'US')).data)).toEqual([2, 3]);
    });

    it('compares arrays with cs cd ov', async () => {
      expect(ids((await fx.client.from('books').select('id').contains('tags', ['fantasy', 'humour'])).data)).toEqual([
        3, 4,
      ]);
      expect(
        ids((await fx.client.from('books').select('id').containedBy('tags', ['fantasy', 'classic', 'scifi'])).data),
      ).toEqual([1, 2, 6]);
      expect(ids((await fx.client.from('books').select('id').overlaps('tags', ['scifi', 'absurdist'])).data)).toEqual([
        2, 5,
      ]);
      // ov also takes the (a,b) list form
      const paren = await fx.http('GET', `/books?select=id&tags=ov.${enc('(religion,classic)')}&order=id`);
      expect(paren.json).toEqual([{ id: 1 }, { id: 2 }, { id: 4 }]);
    });

    it('compares jsonb with cs and cd', async () => {
      expect(ids((await fx.client.from('books').select('id').contains('meta', { format: 'hardcover' })).data)).toEqual([
        1, 5,
      ]);
      expect(
        ids(
          (
            await fx.client
              .from('authors')
              .select('id')
              .contains('profile', { langs: ['ga'] })
          ).data,
        ),
      ).toEqual([3]);
      expect(
        ids((await fx.client.from('books').select('id').containedBy('meta', { format: 'paperback', extra: 1 })).data),
      ).toEqual([3, 6]);
    });

    it('compares ranges with cs cd ov sl sr nxl nxr adj', async () => {
      const q = () => fx.client.from('books').select('id');
      expect(ids((await q().rangeLt('on_sale', '[2024-02-01,2024-02-15)')).data)).toEqual([1, 5]); // sl
      expect(ids((await q().rangeGt('on_sale', '[2024-02-01,2024-02-15)')).data)).toEqual([2]); // sr
      expect(ids((await q().rangeGte('on_sale', '[2024-02-01,2024-02-15)')).data)).toEqual([2, 3]); // nxl
      expect(ids((await q().rangeLte('on_sale', '[2024-02-01,2024-02-15)')).data)).toEqual([1, 5]); // nxr
      expect(ids((await q().rangeAdjacent('on_sale', '[2024-02-01,2024-03-01)')).data)).toEqual([1, 2]); // adj
      expect(ids((await q().overlaps('on_sale', '[2024-01-15,2024-02-15)')).data)).toEqual([1, 3]);
      // an exclusive-bound range literal in parentheses is a range, not a list
      expect(ids((await q().overlaps('on_sale', '(2024-01-31,2024-03-02)')).data)).toEqual([2, 3]);
      expect(ids((await q().contains('on_sale', '[2024-01-10,2024-01-20)')).data)).toEqual([1]);
      expect(ids((await q().containedBy('on_sale', '[2023-01-01,2024-02-01)')).data)).toEqual([1, 5]);
    });

    it('searches text with fts plfts phfts wfts, on a tsvector or a text column, with a language', async () => {
      const q = () => fx.client.from('books').select('id');
      expect(ids((await q().textSearch('search', 'wizard & shadow')).data)).toEqual([1]);
      expect(ids((await q().textSearch('search', 'dragon | tortoise')).data)).toEqual([3, 4]);
      expect(ids((await q().textSearch('search', 'young wizards', { type: 'plain', config: 'english' })).data)).toEqual(
        [1],
      );
      expect(ids((await q().textSearch('search', 'night watch', { type: 'phrase', config: 'english' })).data)).toEqual([
        3,
      ]);
      expect(ids((await q().textSearch('search', 'watch night', { type: 'phrase', config: 'english' })).data)).toEqual(
        [],
      );
      expect(
        ids(
          (
            await q().textSearch('search', '"last believer" or bicycles -wizard', {
              type: 'websearch',
              config: 'english',
            })
          ).data,
        ),
      ).toEqual([4, 5]);
      expect(ids((await q().textSearch('summary', 'planets', { config: 'english' })).data)).toEqual([2]);
      const bad = await fx.http('GET', `/books?select=id&search=fts(klingon).${enc('dragon')}`);
      expect(bad.status).toBe(400);
    });

    it('negates any operator with not.', async () => {
      expect(ids((await fx.client.from('books').select('id').not('id', 'in', '(1,2,3)')).data)).toEqual([4, 5, 6]);
      expect(
        ids((await fx.client.from('books').select('id').notIn('title', ['Small Gods', 'Untitled, draft'])).data),
      ).toEqual([1, 2, 3, 5]);
      expect(ids((await fx.client.from('books').select('id').not('title', 'ilike', '*the*')).data)).toEqual([
        1, 3, 4, 6,
      ]);
      expect(ids((await fx.client.from('books').select('id').not('tags', 'cs', '{fantasy}')).data)).toEqual([2, 5, 6]);
      expect(ids((await fx.client.from('books').select('id').not('search', 'fts', 'wizard')).data)).toEqual([
        2, 3, 4, 5, 6,
      ]);
    });

    it('combines with or=() and and=(), nested and negated', async () => {
      expect(ids((await fx.client.from('books').select('id').or('pages.lt.200,price.gt.14')).data)).toEqual([1, 5]);
      const nested = await fx.client.from('books').select('id').or('id.eq.6,and(author_id.eq.2,pages.gt.280)');
      expect(ids(nested.data)).toEqual([3, 6]);
      const deep = await fx.http(
        'GET',
        `/books?select=id&and=${enc('(status.eq.published,or(tags.cs.{humour},not.and(pages.gt.190,pages.lt.300)))')}&order=id`,
      );
      expect(deep.json).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      const notOr = await fx.http('GET', `/books?select=id&not.or=${enc('(status.eq.draft,pages.gt.250)')}&order=id`);
      expect(notOr.json).toEqual([{ id: 1 }, { id: 5 }]);
      // quoted values inside or=()
      const quoted = await fx.client
        .from('books')
        .select('id')
        .or('title.eq."Untitled, draft",title.in.("Small Gods","Nope")');
      expect(ids(quoted.data)).toEqual([4, 6]);
      // braces (array literals) inside or=() keep their commas
      const braces = await fx.client.from('books').select('id').or('tags.cs.{fantasy,humour},tags.cd.{scifi,classic}');
      expect(ids(braces.data)).toEqual([2, 3, 4, 6]);
    });

    it('filters on JSON paths, as text (->>) or as json (->)', async () => {
      expect(ids((await fx.client.from('books').select('id').eq('meta->>format', 'paperback')).data)).toEqual([2, 3]);
      expect(ids((await fx.client.from('books').select('id').gt('meta->dims->w', 12)).data)).toEqual([1]);
      expect(ids((await fx.client.from('books').select('id').ilike('meta->>format', 'HARD*')).data)).toEqual([1, 5]);
      expect(ids((await fx.client.from('authors').select('id').eq('profile->awards->>hugo', '5')).data)).toEqual([1]);
      expect(
        ids((await fx.client.from('books').select('id').or('meta->>format.eq.hardcover,meta->>isbn.eq.111')).data),
      ).toEqual([1, 5]);
    });

    it('ANDs repeated filters on one column', async () => {
      const r = await fx.http('GET', '/numbers?select=n&n=gt.10&n=lte.13&order=n');
      expect(r.json).toEqual([{ n: 11 }, { n: 12 }, { n: 13 }]);
    });
  });

  describe('the tri-state filter extension (col=filter.a,!b,c*)', () => {
    const tri = async (path: string) => {
      const r = await fx.http('GET', path);
      expect(r.status, r.text).toBe(200);
      return (r.json as { id: number }[]).map((x) => x.id);
    };

    it('includes plain values (OR, case-insensitive), excludes !values (AND NOT), with * globs', async () => {
      expect(await tri(`/books?select=id&status=filter.${enc('PUBLISHED')}&order=id`)).toEqual([1, 2, 3, 5]);
      expect(await tri(`/books?select=id&title=filter.${enc('the*,small*')}&order=id`)).toEqual([2, 4, 5]);
      expect(await tri(`/books?select=id&title=filter.${enc('!the*,!*gods')}&order=id`)).toEqual([1, 3, 6]);
      expect(await tri(`/books?select=id&title=filter.${enc('*o*,!*gods*')}&order=id`)).toEqual([1, 2, 5]);
    });

    it('keeps rows without a value when only excluding, and treats % and _ literally', async () => {
      expect(await tri(`/authors?select=id&country=filter.${enc('!US')}&order=id`)).toEqual([2, 3, 4]);
      expect(await tri(`/books?select=id&title=filter.${enc('%')}&order=id`)).toEqual([]);
      expect(await tri(`/books?select=id&title=filter.${enc('small_gods')}&order=id`)).toEqual([]);
    });

    it('unescapes \\, and \\! so values may hold commas and a leading !', async () => {
      expect(await tri(`/books?select=id&title=filter.${enc('untitled\\, draft')}&order=id`)).toEqual([6]);
      expect(await tri(`/books?select=id&title=filter.${enc('guards\\! *')}&order=id`)).toEqual([3]);
      expect(await tri(`/books?select=id&title=filter.${enc('\\!nothing')}&order=id`)).toEqual([]);
    });

    it('works on JSON paths and under not.', async () => {
      expect(await tri(`/books?select=id&meta->>format=filter.${enc('hard*')}&order=id`)).toEqual([1, 5]);
      expect(await tri(`/books?select=id&meta->>format=filter.${enc('!hard*')}&order=id`)).toEqual([2, 3, 4, 6]);
      expect(await tri(`/books?select=id&status=not.filter.${enc('draft')}&order=id`)).toEqual([1, 2, 3, 5]);
    });

    it('is reachable from postgrest-js through .filter(col, "filter", value)', async () => {
      const { data, error } = await fx.client
        .from('books')
        .select('id')
        .filter('status', 'filter', '!draft')
        .filter('title', 'filter', 'the*,a*')
        .order('id');
      expect(error).toBeNull();
      expect(data).toEqual([{ id: 1 }, { id: 2 }, { id: 5 }]);
    });

    it('matches the elements of an array column', async () => {
      expect(await tri(`/books?select=id&tags=filter.${enc('class*')}&order=id`)).toEqual([1, 2]);
      expect(await tri(`/books?select=id&tags=filter.${enc('fan*,!humour')}&order=id`)).toEqual([1]);
      expect(await tri(`/books?select=id&tags=filter.${enc('!fantasy,!classic')}&order=id`)).toEqual([5, 6]);
    });

    it('is an empty condition when the value is empty', async () => {
      expect(await tri('/books?select=id&status=filter.&order=id')).toEqual([1, 2, 3, 4, 5, 6]);
    });
  });

  describe('order', () => {
    it('orders by several columns, asc/desc, nullsfirst/nullslast', async () => {
      const r = await fx.http('GET', '/books?select=id&order=price.desc.nullslast,id.asc');
      expect((r.json as { id: number }[]).map((x) => x.id)).toEqual([5, 1, 2, 3, 4, 6]);
      const first = await fx.http('GET', '/books?select=id&order=price.asc.nullsfirst,id.desc');
      expect((first.json as { id: number }[]).map((x) => x.id)).toEqual([6, 4, 3, 2, 1, 5]);
      const viaClient = await fx.client
        .from('books')
        .select('id')
        .order('pages', { ascending: false, nullsFirst: true })
        .order('id');
      expect(viaClient.data!.map((x) => x.id)).toEqual([6, 2, 3, 4, 5, 1]);
    });

    it('orders by a JSON path', async () => {
      const r = await fx.http(
        'GET',
        `/books?select=id&meta->>format=not.is.null&order=${enc('meta->>format.desc,id.desc')}`,
      );
      expect((r.json as { id: number }[]).map((x) => x.id)).toEqual([3, 2, 5, 1]);
    });
  });

  describe('paging, Range and counts', () => {
    it('pages with limit and offset', async () => {
      const r = await fx.http('GET', '/numbers?select=n&order=n&limit=3&offset=10');
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ n: 11 }, { n: 12 }, { n: 13 }]);
      expect(r.headers.get('content-range')).toBe('10-12/*');
      const viaClient = await fx.client.from('numbers').select('n').order('n').range(5, 7);
      expect(viaClient.data).toEqual([{ n: 6 }, { n: 7 }, { n: 8 }]);
    });

    it('pages with the Range header and answers 206 with Content-Range when a count shows more', async () => {
      const r = await fx.http('GET', '/numbers?select=n&order=n', {
        headers: { Range: '0-24', 'Range-Unit': 'items', Prefer: 'count=exact' },
      });
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe('0-24/120');
      expect((r.json as unknown[]).length).toBe(25);
      const open = await fx.http('GET', '/numbers?select=n&order=n&parity=eq.odd', { headers: { Range: '55-' } });
      expect(open.status).toBe(200);
      expect(open.json).toEqual([{ n: 111 }, { n: 113 }, { n: 115 }, { n: 117 }, { n: 119 }]);
      expect(open.headers.get('content-range')).toBe('55-59/*');
    });

    it('answers 200 with the full count when everything fits', async () => {
      const r = await fx.http('GET', '/authors?select=id', { headers: { Prefer: 'count=exact' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-range')).toBe('0-3/4');
    });

    it('counts with count=exact, planned and estimated through the client', async () => {
      for (const count of ['exact', 'planned', 'estimated'] as const) {
        const r = await fx.client.from('numbers').select('n', { count }).eq('parity', 'even').limit(5);
        expect(r.error).toBeNull();
        expect(r.count, count).toBe(60);
        expect(r.data!.length).toBe(5);
        expect(r.status).toBe(206);
      }
      const head = await fx.client.from('books').select('*', { count: 'exact', head: true }).eq('status', 'draft');
      expect(head.status).toBe(200);
      expect(head.count).toBe(2);
      expect(head.data).toBeNull();
    });

    it('answers 416 PGRST103 for a range past the end or ending before it starts', async () => {
      const past = await fx.http('GET', '/numbers?select=n&offset=500', { headers: { Prefer: 'count=exact' } });
      expect(past.status).toBe(416);
      expect(past.json.code).toBe('PGRST103');
      expect(past.headers.get('content-range')).toBe('*/120');
      const backwards = await fx.http('GET', '/numbers?select=n', { headers: { Range: '10-5' } });
      expect(backwards.status).toBe(416);
      expect(backwards.json.code).toBe('PGRST103');
    });

    it('answers an empty page inside the count with */total', async () => {
      const r = await fx.http('GET', '/numbers?select=n&limit=0', { headers: { Prefer: 'count=exact' } });
      expect(r.json).toEqual([]);
      expect(r.headers.get('content-range')).toBe('*/120');
    });

    it('never returns more than the server row cap', async () => {
      const r = await fx.http('GET', '/numbers?select=n&order=n&limit=1000', { headers: { Prefer: 'count=exact' } });
      expect((r.json as unknown[]).length).toBe(ROW_CAP);
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe(`0-${ROW_CAP - 1}/120`);
      const noLimit = await fx.client.from('numbers').select('n');
      expect(noLimit.data!.length).toBe(ROW_CAP);
    });

    it('rejects negative or non-numeric limits and offsets with PGRST100', async () => {
      for (const q of ['limit=abc', 'offset=-5', 'offset=1e3', 'limit=1.5']) {
        const r = await fx.http('GET', `/numbers?select=n&${q}`);
        expect(r.status, q).toBe(400);
        expect(r.json.code, q).toBe('PGRST100');
      }
    });
  });

  describe('schema cache', () => {
    it('finds a relation created at run time once the schema is reloaded', async () => {
      expect((await fx.http('GET', '/late_table')).status).toBe(404);
      await fx.db.exec(
        'CREATE TABLE late_table (id integer PRIMARY KEY, author_id integer REFERENCES authors (id)); INSERT INTO late_table VALUES (1, 3);',
      );
      try {
        await fx.reloadSchema();
        expect((await fx.http('GET', '/late_table?select=id,authors(name)')).json).toEqual([
          { id: 1, authors: { name: "Flann O'Brien" } },
        ]);
      } finally {
        await fx.db.exec('DROP TABLE late_table');
        await fx.reloadSchema();
      }
      expect((await fx.http('GET', '/late_table')).status).toBe(404);
    });
  });

  describe('tolerance', () => {
    it('uses the first of duplicated select and order parameters', async () => {
      const r = await fx.http('GET', '/authors?select=id&select=name,country&order=id.desc&order=id.asc&limit=2');
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ id: 4 }, { id: 3 }]);
    });

    it('ignores empty query pieces', async () => {
      const r = await fx.http('GET', '/authors?&select=id&&order=id&&limit=1&');
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ id: 1 }]);
    });

    it('treats an empty select as *, including when repeated', async () => {
      const r = await fx.http('GET', '/genres?select=&select=&order=id&limit=1');
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ id: 1, name: 'fantasy' }]);
    });

    it('accepts + as a space and a trailing slash on the table', async () => {
      const r = await fx.http('GET', '/books/?select=id&title=eq.Small+Gods');
      expect(r.json).toEqual([{ id: 4 }]);
    });
  });
});
