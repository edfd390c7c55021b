-- The fixture's rows; re-run after TRUNCATE to reset between write tests.
INSERT INTO authors (id, name, country, born, rating, active, profile) VALUES
  (1, 'Ursula K. Le Guin', 'US', '1929-10-21', 4.8, true, '{"langs": ["en"], "awards": {"hugo": 5}}'),
  (2, 'Terry Pratchett', 'GB', '1948-04-28', 4.7, false, '{"langs": ["en"], "awards": {"carnegie": 1}}'),
  (3, 'Flann O''Brien', 'IE', '1911-10-05', 4.1, true, '{"langs": ["en", "ga"]}'),
  (4, 'Anonymous', NULL, NULL, NULL, true, NULL);

INSERT INTO books (id, title, author_id, editor_id, tags, meta, pages, price, published, summary, on_sale, status) VALUES
  (1, 'A Wizard of Earthsea', 1, 2, '{fantasy,classic}', '{"format": "hardcover", "dims": {"w": 15, "h": 23}, "isbn": "111"}', 183, 12.50, '1968-11-01',
   'A young wizard named Ged battles a shadow', '[2024-01-01,2024-02-01)', 'published'),
  (2, 'The Left Hand of Darkness', 1, NULL, '{scifi,classic}', '{"format": "paperback", "dims": {"w": 11, "h": 18}, "k8s.io/part-of": "hainish", "7": "seven"}', 304, 9.99, '1969-03-01',
   'An envoy visits the planet Gethen in winter', '[2024-03-01,2024-04-01)', 'published'),
  (3, 'Guards! Guards!', 2, 1, '{fantasy,humour}', '{"format": "paperback"}', 288, 8.99, '1989-11-01',
   'The night watch of Ankh-Morpork faces a dragon', '[2024-02-01,2024-03-01)', 'published'),
  (4, 'Small Gods', 2, NULL, '{fantasy,humour,religion}', NULL, 272, NULL, '1992-05-01',
   'A tortoise god and his last believer', NULL, 'draft'),
  (5, 'The Third Policeman', 3, NULL, '{absurdist}', '{"format": "hardcover"}', 200, 15.00, '1967-01-01',
   'A policeman obsessed with bicycles, "atoms" and eternity', '[2023-06-01,2023-07-01)', 'published'),
  (6, 'Untitled, draft', 4, NULL, '{}', '{}', NULL, NULL, NULL, NULL, NULL, 'draft');

INSERT INTO genres (id, name) VALUES (1, 'fantasy'), (2, 'science fiction'), (3, 'humour'), (4, 'absurdism');
INSERT INTO book_genres (book_id, genre_id) VALUES (1, 1), (2, 2), (3, 1), (3, 3), (4, 1), (4, 3), (5, 4);

INSERT INTO reviews (book_id, stars, body, reviewer) VALUES
  (1, 5, 'Timeless', 'ann'),
  (1, 4, 'Lovely', 'bob'),
  (3, 5, 'Hilarious', 'cid'),
  (3, 2, 'Not my thing', 'dee'),
  (4, 3, 'Clever', NULL),
  (5, 5, 'Strange and brilliant', 'ann');

INSERT INTO hidden_notes (id, book_id, note) VALUES (1, 1, 'top secret'), (2, 3, 'also secret');

INSERT INTO numbers (n, parity) SELECT g, CASE WHEN g % 2 = 0 THEN 'even' ELSE 'odd' END FROM generate_series(1, 120) g;

INSERT INTO vaults (id, name, password, note) VALUES (1, 'empty', NULL, 'no secret yet');

INSERT INTO counters (label, n) VALUES ('alpha', 1), ('beta', 2);

INSERT INTO topics (id, name, parent_id) VALUES (1, 'root', NULL), (2, 'child a', 1), (3, 'child b', 1), (4, 'grandchild', 2);
