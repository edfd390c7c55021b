import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { enc, startFixture, type Fixture } from './support.ts';

/** Resource embedding: many-to-one, one-to-many, many-to-many, hints, !inner, nesting, views. */
describe.each(testDrivers())('/api/db embeds ($name)', (driver) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(driver);
  });
  afterAll(async () => {
    await fx?.close();
  });
  beforeEach(() => {
    fx.authorized.length = 0;
  });

  const get = async (path: string) => {
    const r = await fx.http('GET', path);
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

  describe('many-to-one', () => {
    it('embeds as an object, or null when the key is null, disambiguated by column or constraint name', async () => {
      const { data, error } = await fx.client
        .from('books')
        .select('id, author:authors!author_id(name), editor:authors!books_editor_id_fkey(name)')
        .in('id', [1, 2])
        .order('id');
      expect(error).toBeNull();
      expect(data).toEqual([
        { id: 1, author: { name: 'Ursula K. Le Guin' }, editor: { name: 'Terry Pratchett' } },
        { id: 2, author: { name: 'Ursula K. Le Guin' }, editor: null },
      ]);
    });

    it('embeds through a key column named as the relation (person_id(*) style)', async () => {
      expect(await get('/books?select=id,author_id(name,country)&id=eq.3')).toEqual([
        { id: 3, author_id: { name: 'Terry Pratchett', country: 'GB' } },
      ]);
    });

    it('answers 300 PGRST201 when two keys link the tables, naming the hints to use', async () => {
      const r = await fx.http('GET', '/books?select=id,authors(name)');
      expect(r.status).toBe(300);
      expect(r.json.code).toBe('PGRST201');
      // PostgREST's shape: the candidates as objects, and the hint naming `target!constraint`
      expect(r.json.details).toEqual([
        {
          cardinality: 'many-to-one',
          embedding: 'books with authors',
          relationship: 'books_author_id_fkey using books(author_id) and authors(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'books with authors',
          relationship: 'books_editor_id_fkey using books(editor_id) and authors(id)',
        },
      ]);
      expect(r.json.hint).toBe(
        "Try changing 'authors' to one of the following: 'authors!books_author_id_fkey', 'authors!books_editor_id_fkey'. Find the desired relationship in the 'details' key.",
      );
      const viaClient = await fx.client.from('books').select('id, authors(name)');
      expect(viaClient.error?.code).toBe('PGRST201');
    });

    it('nulls the object when an embed filter fails, without dropping the parent row', async () => {
      const rows = await get(`/books?select=id,author:authors!author_id(name)&author.country=eq.GB&order=id`);
      expect(rows.map((r: { author: unknown }) => r.author)).toEqual([
        null,
        null,
        { name: 'Terry Pratchett' },
        { name: 'Terry Pratchett' },
        null,
        null,
      ]);
    });
  });

  describe('one-to-many', () => {
    it('embeds as an array, empty when there are no rows', async () => {
      const { data } = await fx.client
        .from('books')
        .select('id, reviews(stars, reviewer)')
        .in('id', [1, 2])
        .order('id')
        .order('stars', { referencedTable: 'reviews', ascending: false });
      expect(data).toEqual([
        {
          id: 1,
          reviews: [
            { stars: 5, reviewer: 'ann' },
            { stars: 4, reviewer: 'bob' },
          ],
        },
        { id: 2, reviews: [] },
      ]);
    });

    it('needs a hint when two keys point back, and takes one by column or constraint name', async () => {
      const ambiguous = await fx.http('GET', '/authors?select=name,books(title)');
      expect(ambiguous.status).toBe(300);
      expect(ambiguous.json.code).toBe('PGRST201');
      const rows = await get(
        `/authors?select=name,written:books!author_id(id),edited:books!books_editor_id_fkey(id)&id=eq.1&written.order=id`,
      );
      expect(rows).toEqual([{ name: 'Ursula K. Le Guin', written: [{ id: 1 }, { id: 2 }], edited: [{ id: 3 }] }]);
    });

    it('filters, orders, limits and offsets the embedded rows (rel.col, rel.order, rel.limit, rel.offset, rel.or)', async () => {
      const { data } = await fx.client
        .from('books')
        .select('id, reviews(stars)')
        .in('id', [1, 3])
        .order('id')
        .order('stars', { referencedTable: 'reviews' })
        .limit(1, { referencedTable: 'reviews' });
      expect(data).toEqual([
        { id: 1, reviews: [{ stars: 4 }] },
        { id: 3, reviews: [{ stars: 2 }] },
      ]);
      expect(await get('/books?select=id,reviews(stars)&id=eq.1&reviews.order=stars.desc&reviews.offset=1')).toEqual([
        { id: 1, reviews: [{ stars: 4 }] },
      ]);
      expect(await get('/books?select=id,reviews(reviewer)&id=eq.3&reviews.stars=gte.3')).toEqual([
        { id: 3, reviews: [{ reviewer: 'cid' }] },
      ]);
      const or = await fx.client
        .from('books')
        .select('id, reviews(stars)')
        .eq('id', 3)
        .or('stars.eq.2,stars.eq.4', { referencedTable: 'reviews' });
      expect(or.data).toEqual([{ id: 3, reviews: [{ stars: 2 }] }]);
    });

    it('addresses embed filters through the alias', async () => {
      expect(await get('/books?select=id,top:reviews(stars)&id=eq.1&top.stars=eq.5')).toEqual([
        { id: 1, top: [{ stars: 5 }] },
      ]);
    });
  });

  describe('many-to-many', () => {
    it('embeds through a junction table whose primary key holds both keys', async () => {
      const { data } = await fx.client
        .from('books')
        .select('id, genres(name)')
        .eq('id', 3)
        .order('name', { referencedTable: 'genres' });
      expect(data).toEqual([{ id: 3, genres: [{ name: 'fantasy' }, { name: 'humour' }] }]);
      const back = await get('/genres?select=name,books(id)&name=eq.fantasy&books.order=id');
      expect(back).toEqual([{ name: 'fantasy', books: [{ id: 1 }, { id: 3 }, { id: 4 }] }]);
    });

    it('accepts the junction as hint, and filters the far side', async () => {
      expect(await get('/books?select=id,genres!book_genres(name)&id=eq.4&genres.name=eq.humour')).toEqual([
        { id: 4, genres: [{ name: 'humour' }] },
      ]);
    });
  });

  describe('!inner, !left, nesting', () => {
    it('!inner drops parent rows without a matching embedded row', async () => {
      const { data } = await fx.client
        .from('books')
        .select('id, reviews!inner(stars)')
        .eq('reviews.stars', 5)
        .order('id');
      expect(data).toEqual([
        { id: 1, reviews: [{ stars: 5 }] },
        { id: 3, reviews: [{ stars: 5 }] },
        { id: 5, reviews: [{ stars: 5 }] },
      ]);
      const m2o = await get('/books?select=id,author:authors!author_id!inner(country)&author.country=eq.GB&order=id');
      expect(m2o).toEqual([
        { id: 3, author: { country: 'GB' } },
        { id: 4, author: { country: 'GB' } },
      ]);
      const m2m = await get('/books?select=id,genres!inner(name)&genres.name=eq.humour&order=id');
      expect(m2m.map((b: { id: number }) => b.id)).toEqual([3, 4]);
    });

    it('!inner with count=exact counts only the kept parents', async () => {
      const r = await fx.client
        .from('books')
        .select('id, reviews!inner(stars)', { count: 'exact' })
        .gte('reviews.stars', 4);
      expect(r.count).toBe(3);
    });

    it('!left (the default) keeps every parent', async () => {
      const rows = await get('/books?select=id,reviews!left(stars)&reviews.stars=eq.5&order=id');
      expect(rows.map((b: { id: number }) => b.id)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('nests embeds several levels deep, with filters at each level', async () => {
      const rows = await get(
        `/authors?select=name,books!author_id(title,reviews(stars),genres(name),editor:authors!editor_id(name))&id=eq.2&books.order=id&books.reviews.stars=gt.2`,
      );
      expect(rows).toEqual([
        {
          name: 'Terry Pratchett',
          books: [
            {
              title: 'Guards! Guards!',
              reviews: [{ stars: 5 }],
              genres: expect.arrayContaining([{ name: 'fantasy' }, { name: 'humour' }]),
              editor: { name: 'Ursula K. Le Guin' },
            },
            {
              title: 'Small Gods',
              reviews: [{ stars: 3 }],
              genres: expect.arrayContaining([{ name: 'fantasy' }, { name: 'humour' }]),
              editor: null,
            },
          ],
        },
      ]);
    });

    it('combines * with embeds', async () => {
      const rows = await get('/genres?select=*,book_genres(book_id)&id=eq.2');
      expect(rows).toEqual([{ id: 2, name: 'science fiction', book_genres: [{ book_id: 2 }] }]);
    });
  });

  describe('views', () => {
    it('a view inherits the keys of the base table columns it exposes (both directions)', async () => {
      expect(await get('/book_cards?select=title,authors(name)&id=eq.5')).toEqual([
        { title: 'The Third Policeman', authors: { name: "Flann O'Brien" } },
      ]);
      expect(await get('/authors?select=name,book_cards(title)&id=eq.2')).toEqual([
        { name: 'Terry Pratchett', book_cards: [{ title: 'Guards! Guards!' }] },
      ]);
      expect(await get('/book_cards?select=id,reviews(stars)&id=eq.1&reviews.order=stars')).toEqual([
        { id: 1, reviews: [{ stars: 4 }, { stars: 5 }] },
      ]);
    });

    it('a join view gets the keys of the table its id comes from, not of every table it reads', async () => {
      const rows = await get('/author_stats?select=name,books!author_id(id)&id=eq.1&books.order=id');
      expect(rows).toEqual([{ name: 'Ursula K. Le Guin', books: [{ id: 1 }, { id: 2 }] }]);
      // author_stats.id is authors.id: reviews (keyed to books.id) are not related to it
      const wrong = await fx.http('GET', '/author_stats?select=name,reviews(stars)');
      expect(wrong.status).toBe(400);
      expect(wrong.json.code).toBe('PGRST200');
    });

    it('a join view takes its identity from the table its key columns come from', async () => {
      // review_cards.id is reviews.id; book_id is reviews.book_id -> books
      expect(await get('/review_cards?select=id,books(title)&id=eq.3')).toEqual([
        { id: 3, books: { title: 'Guards! Guards!' } },
      ]);
      expect(await get('/books?select=id,review_cards(stars)&id=eq.3&review_cards.order=stars')).toEqual([
        { id: 3, review_cards: [{ stars: 2 }, { stars: 5 }] },
      ]);
      // keys pointing at books.id must not be read as pointing at review_cards.id
      const wrong = await fx.http('GET', '/review_cards?select=id,book_genres(genre_id)');
      expect(wrong.status).toBe(400);
      expect(wrong.json.code).toBe('PGRST200');
    });
  });

  describe('row cap', () => {
    it('bounds every embedded array by the server row cap, like the root', async () => {
      const small = await startFixture(driver, { rowCap: 2 });
      try {
        const r = await small.http(
          'GET',
          '/genres?select=name,books(id)&name=eq.fantasy&books.order=id&books.limit=10',
        );
        expect(r.json).toEqual([{ name: 'fantasy', books: [{ id: 1 }, { id: 3 }] }]);
        const root = await small.http('GET', '/genres?select=id&order=id', { headers: { Prefer: 'count=exact' } });
        expect(root.json).toEqual([{ id: 1 }, { id: 2 }]);
        expect(root.headers.get('content-range')).toBe('0-1/4');
      } finally {
        await small.close();
      }
    });
  });

  describe('errors and access', () => {
    it('answers 400 PGRST200 when no relationship exists', async () => {
      const r = await fx.http('GET', '/books?select=id,numbers(n)');
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('PGRST200');
      expect(r.json.message).toBe("Could not find a relationship between 'books' and 'numbers' in the schema cache");
    });

    it('treats a table off the allow-list as absent, even with a foreign key to it', async () => {
      const r = await fx.http('GET', '/books?select=id,hidden_notes(note)');
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('PGRST200');
      expect(r.text).not.toContain('top secret');
      const byKey = await fx.http('GET', '/books?select=id,hidden_notes!hidden_notes_book_id_fkey(note)');
      expect(byKey.status).toBe(400);
      expect(byKey.text).not.toContain('secret');
    });

    it('answers 400 PGRST108 for filters, order or limit on a relation not embedded in select', async () => {
      for (const q of [
        'reviews.stars=eq.5',
        'reviews.order=stars',
        'reviews.limit=1',
        `reviews.or=${enc('(stars.eq.1)')}`,
      ]) {
        const r = await fx.http('GET', `/books?select=id&${q}`);
        expect(r.status, q).toBe(400);
        expect(r.json.code, q).toBe('PGRST108');
      }
    });

    it('asks the RBAC hook about every relation it reads, junctions included, before running SQL', async () => {
      await get('/books?select=id,reviews(stars),genres(name),author:authors!author_id(name)&id=eq.1');
      expect(fx.authorized).toEqual(
        expect.arrayContaining([
          ['books', 'read'],
          ['reviews', 'read'],
          ['genres', 'read'],
          ['book_genres', 'read'],
          ['authors', 'read'],
        ]),
      );
      const denied = await fx.http('GET', '/books?select=id,reviews(stars)', { headers: { 'x-deny': 'reviews' } });
      expect(denied.status).toBe(403);
      const deniedJunction = await fx.http('GET', '/books?select=id,genres(name)', {
        headers: { 'x-deny': 'book_genres' },
      });
      expect(deniedJunction.status).toBe(403);
    });
  });
});
