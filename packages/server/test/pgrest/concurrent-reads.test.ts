import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { startFixture, type Fixture } from './support.ts';

/**
 * Reads of one shape that arrive together are sent to PostgreSQL as one statement
 * (db/read-batch.ts). Whatever a read's neighbours are, its answer must be the one it gets alone:
 * same status, body and headers, its own error included.
 */
const READS: [string, Record<string, string>?][] = [
  ['books?id=eq.1'],
  ['books?id=eq.2'],
  ['books?id=eq.6'],
  ['books?id=eq.999'],
  ['books?id=eq.abc'], // 22P02: fails alone, must not fail its neighbours
  ['books?id=eq.1%00'], // a NUL byte
  ['books?select=id,title&title=like.*Wizard*'],
  ['books?select=id,title&title=like.*"atoms"*'],
  ["books?select=id,title&title=like.*'*"],
  ['books?select=id,title&title=ilike.*gods*'],
  ['books?select=id&id=in.(1,2,3)&order=id'],
  ['books?select=id&id=in.(4,"5")&order=id'],
  ['books?select=id&id=in.(6,x)&order=id'], // 22P02 inside a list
  ['books?select=id,meta&meta->>format=eq.paperback&order=id'],
  ['books?select=id,meta&meta->>format=eq.hard,cover&order=id'],
  ['books?select=id,title&search=fts(english).wizard'],
  ['books?select=id,title&search=fts(english).bicycles'],
  ['books?select=id&order=id&limit=2&offset=1', { prefer: 'count=exact' }],
  ['books?select=id&order=id&limit=3&offset=3', { prefer: 'count=exact' }],
  ['books?select=id&order=id&limit=3&offset=30', { prefer: 'count=exact' }], // 416
  ['books?select=id,title,author:authors!books_author_id_fkey(name)&author.country=eq.GB&order=id'],
  ['books?select=id,title,author:authors!books_author_id_fkey(name)&author.country=eq.US&order=id'],
  ['authors?select=name,books!books_author_id_fkey(title)&books.pages=gt.250&order=id'],
  ['authors?select=name,books!books_author_id_fkey(title)&books.pages=gt.280&order=id'],
  ['authors?select=name&born=lt.1930-01-01&order=id'],
  ['authors?select=name&born=lt.1950-01-01&order=id'],
  ['authors?select=name&born=lt.not-a-date&order=id'],
  ['authors?id=eq.3', { accept: 'application/vnd.pgrst.object+json' }],
  ['authors?id=eq.9', { accept: 'application/vnd.pgrst.object+json' }], // 406
  ['book_cards?id=eq.3&select=*'],
  ['book_cards?id=eq.5&select=*'],
];

describe.each(testDrivers())('concurrent reads on $name', (driver) => {
  let fx: Fixture;
  const alone = new Map<string, string>();
  const answer = async (path: string, headers?: Record<string, string>) => {
    const r = await fx.http('GET', `/${path}`, { headers });
    return JSON.stringify([r.status, r.headers.get('content-range'), r.headers.get('content-type'), r.text]);
  };

  beforeAll(async () => {
    fx = await startFixture(driver);
    for (const [path, headers] of READS) alone.set(path, await answer(path, headers));
  });
  afterAll(async () => {
    await fx.close();
  });

  it('answers each read as it is answered alone, whatever arrives with it', async () => {
    // the alone answers cover successes and errors alike
    const statuses = new Set([...alone.values()].map((a) => JSON.parse(a)[0] as number));
    expect([...statuses].sort()).toEqual([200, 206, 400, 406, 416]);
    const before = fx.db.batchStats?.().batched ?? 0;
    for (let round = 0; round < 3; round++) {
      // every read several times, shuffled, all in flight at once
      const order = READS.flatMap((r) => [r, r, r, r]).sort(() => Math.random() - 0.5);
      const answers = await Promise.all(order.map(([path, headers]) => answer(path, headers)));
      answers.forEach((a, i) => expect(a, order[i][0]).toBe(alone.get(order[i][0])));
    }
    // on PostgreSQL they really went in batches; how many share a turn depends on the machine's
    // load, so this only asks that batching happened, not how much
    if (driver.name === 'pg') expect((fx.db.batchStats?.().batched ?? 0) - before).toBeGreaterThan(10);
  });
});
