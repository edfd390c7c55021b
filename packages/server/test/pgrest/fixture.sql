-- The /api/db engine's own test schema: small, but with every shape the engine must handle.
--   authors 1-n books (two keys: author_id and editor_id -> ambiguous without a !hint)
--   books n-n genres through book_genres (primary key = both keys, PostgREST's junction rule)
--   books 1-n reviews; books 1-n hidden_notes (hidden_notes is NOT on the allow-list)
--   arrays, jsonb, tsvector, daterange, numeric, dates, a uuid key with defaults
--   views: book_cards (one base table), author_stats (a join + aggregate), review_cards (a join)
--   functions for /rpc: scalar, set of a table type, set of scalars, defaults, a writer, a raiser

CREATE TABLE authors (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  country text,
  born date,
  rating numeric,
  active boolean NOT NULL DEFAULT true,
  profile jsonb
);

CREATE TABLE books (
  id integer PRIMARY KEY,
  title text NOT NULL,
  author_id integer NOT NULL REFERENCES authors (id),
  editor_id integer REFERENCES authors (id),
  tags text[] NOT NULL DEFAULT '{}',
  meta jsonb,
  pages integer CHECK (pages > 0),
  price numeric(8, 2),
  published date,
  summary text,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || coalesce(summary, ''))) STORED,
  on_sale daterange,
  status text NOT NULL DEFAULT 'draft'
);
CREATE INDEX books_author_id_idx ON books (author_id);
CREATE INDEX books_editor_id_idx ON books (editor_id);

CREATE TABLE genres (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE book_genres (
  book_id integer NOT NULL REFERENCES books (id) ON DELETE CASCADE,
  genre_id integer NOT NULL REFERENCES genres (id),
  PRIMARY KEY (book_id, genre_id)
);
CREATE INDEX book_genres_genre_id_idx ON book_genres (genre_id);

CREATE TABLE reviews (
  id serial PRIMARY KEY,
  book_id integer NOT NULL REFERENCES books (id) ON DELETE CASCADE,
  stars integer NOT NULL CHECK (stars BETWEEN 1 AND 5),
  body text,
  reviewer text
);
CREATE INDEX reviews_book_id_idx ON reviews (book_id);

-- Not exposed: must behave as if it did not exist, even though a key links it to books.
CREATE TABLE hidden_notes (
  id integer PRIMARY KEY,
  book_id integer NOT NULL REFERENCES books (id) ON DELETE CASCADE,
  note text NOT NULL
);
CREATE INDEX hidden_notes_book_id_idx ON hidden_notes (book_id);

-- A key to itself: topics nest (recursive embeds: the children by the table's name, the parent
-- by the key column).
CREATE TABLE topics (
  id integer PRIMARY KEY,
  name text NOT NULL,
  parent_id integer REFERENCES topics (id)
);
CREATE INDEX topics_parent_id_idx ON topics (parent_id);

-- 120 rows for paging, ranges and the row cap.
CREATE TABLE numbers (
  n integer PRIMARY KEY,
  parity text NOT NULL
);

-- `password` is a secret column: encrypted on write, masked on read.
CREATE TABLE vaults (
  id integer PRIMARY KEY,
  name text NOT NULL,
  password text,
  note text
);

-- uuid key and defaults, for missing=default and upserts on a unique column.
CREATE TABLE counters (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  label text NOT NULL UNIQUE,
  n integer NOT NULL DEFAULT 7,
  note text DEFAULT 'none'
);

CREATE VIEW book_cards AS
  SELECT b.id, b.title, b.author_id, b.pages FROM books b WHERE b.status = 'published';

CREATE VIEW author_stats AS
  SELECT a.id, a.name, count(b.id)::integer AS book_count
  FROM authors a LEFT JOIN books b ON b.author_id = a.id
  GROUP BY a.id, a.name;

-- A join view whose identity (reviews) is not the first base table by name (books).
CREATE VIEW review_cards AS
  SELECT r.id, r.stars, r.book_id, b.title AS book_title
  FROM reviews r JOIN books b ON b.id = r.book_id;

CREATE FUNCTION add_numbers(a integer, b integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;

CREATE FUNCTION books_by_author(author integer) RETURNS SETOF books
  LANGUAGE sql STABLE AS $$ SELECT * FROM books WHERE author_id = author ORDER BY id $$;

CREATE FUNCTION author_names() RETURNS SETOF text
  LANGUAGE sql STABLE AS $$ SELECT name FROM authors ORDER BY id $$;

CREATE FUNCTION book_count(min_pages integer DEFAULT 0) RETURNS bigint
  LANGUAGE sql STABLE AS $$ SELECT count(*) FROM books WHERE coalesce(pages, 0) >= min_pages $$;

CREATE FUNCTION sum_array(xs integer[]) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(sum(x), 0)::integer FROM unnest(xs) x $$;

CREATE FUNCTION echo_json(doc jsonb) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$ SELECT doc $$;

CREATE FUNCTION rate_author(author integer, score numeric) RETURNS authors
  LANGUAGE sql VOLATILE AS $$ UPDATE authors SET rating = score WHERE id = author RETURNING * $$;

CREATE FUNCTION touch_nothing() RETURNS void
  LANGUAGE sql VOLATILE AS $$ SELECT $$;

CREATE FUNCTION fail_always() RETURNS integer
  LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'I refuse' USING DETAIL = 'always', HINT = 'do not call me'; END $$;

CREATE FUNCTION fail_with(code text) RETURNS integer
  LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'failed with %', code USING ERRCODE = code; END $$;

-- OUT parameters before an IN one: argument names must be the IN ones
CREATE FUNCTION split_name(OUT first text, IN full_name text, OUT last text)
  LANGUAGE sql IMMUTABLE AS $$ SELECT split_part(full_name, ' ', 1), split_part(full_name, ' ', 2) $$;

CREATE FUNCTION search_books(q text) RETURNS TABLE (id integer, title text)
  LANGUAGE sql STABLE AS $$ SELECT b.id, b.title FROM books b WHERE b.title ILIKE '%' || q || '%' ORDER BY b.id $$;

-- overloads told apart by argument names, and two that cannot be
CREATE FUNCTION greet(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'hello ' || name $$;
CREATE FUNCTION greet(name text, greeting text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT greeting || ' ' || name $$;
CREATE FUNCTION pick(x integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'integer' $$;
CREATE FUNCTION pick(x text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'text' $$;

-- Not exposed as rpc/
CREATE FUNCTION hidden_fn() RETURNS integer LANGUAGE sql AS $$ SELECT 42 $$;
