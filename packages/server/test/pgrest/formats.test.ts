import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { startFixture, type Fixture } from './support.ts';

/** Response formats: singular objects (406 otherwise), CSV, content negotiation, HEAD. */
describe.each(testDrivers())('/api/db formats ($name)', (driver) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(driver);
  });
  afterAll(async () => {
    await fx?.close();
  });

  describe('singular (Accept: application/vnd.pgrst.object+json)', () => {
    it('answers one row as an object', async () => {
      const r = await fx.client.from('authors').select('id,name').eq('id', 3).single();
      expect(r.error).toBeNull();
      expect(r.data).toEqual({ id: 3, name: "Flann O'Brien" });
      const raw = await fx.http('GET', '/authors?select=id&id=eq.3', {
        headers: { Accept: 'application/vnd.pgrst.object+json' },
      });
      expect(raw.headers.get('content-type')).toContain('application/vnd.pgrst.object+json');
      expect(raw.json).toEqual({ id: 3 });
      const short = await fx.http('GET', '/authors?select=id&id=eq.3', {
        headers: { Accept: 'application/vnd.pgrst.object' },
      });
      expect(short.json).toEqual({ id: 3 });
    });

    it('answers 406 PGRST116 for no row or several rows', async () => {
      const none = await fx.client.from('authors').select('id').eq('id', 99).single();
      expect(none.status).toBe(406);
      expect(none.error).toMatchObject({
        code: 'PGRST116',
        message: 'JSON object requested, multiple (or no) rows returned',
        details: 'The result contains 0 rows',
      });
      const many = await fx.http('GET', '/authors?select=id', {
        headers: { Accept: 'application/vnd.pgrst.object+json' },
      });
      expect(many.status).toBe(406);
      expect(many.json).toMatchObject({ code: 'PGRST116', details: 'The result contains 4 rows' });
    });

    it('maybeSingle gives null for no row', async () => {
      const r = await fx.client.from('authors').select('id').eq('id', 99).maybeSingle();
      expect(r.error).toBeNull();
      expect(r.data).toBeNull();
    });
  });

  describe('CSV (Accept: text/csv)', () => {
    it('answers a header row and one line per row, quoting what needs quoting', async () => {
      const r = await fx.client
        .from('books')
        .select('id,title,tags,price,summary')
        .in('id', [3, 5, 6])
        .order('id')
        .csv();
      expect(r.error).toBeNull();
      expect(r.data).toBe(
        [
          'id,title,tags,price,summary',
          '3,Guards! Guards!,"[""fantasy"",""humour""]",8.99,The night watch of Ankh-Morpork faces a dragon',
          '5,The Third Policeman,"[""absurdist""]",15,"A policeman obsessed with bicycles, ""atoms"" and eternity"',
          '6,"Untitled, draft",[],,',
        ].join('\n'),
      );
      const raw = await fx.http('GET', '/genres?select=name&id=eq.1', { headers: { Accept: 'text/csv' } });
      expect(raw.headers.get('content-type')).toContain('text/csv');
      expect(raw.text).toBe('name\nfantasy');
    });

    it('honours Range and counts in CSV too', async () => {
      const r = await fx.http('GET', '/numbers?select=n&order=n', {
        headers: { Accept: 'text/csv', Range: '0-2', Prefer: 'count=exact' },
      });
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe('0-2/120');
      expect(r.text).toBe('n\n1\n2\n3');
    });
  });

  describe('negotiation', () => {
    it('answers JSON for */*, application/json or no Accept, and takes the first supported type of a list', async () => {
      for (const accept of [
        undefined,
        '*/*',
        'application/json',
        'application/json; charset=utf-8',
        'text/html, */*;q=0.1',
      ]) {
        const r = await fx.http('GET', '/genres?select=id&id=eq.1', { headers: accept ? { Accept: accept } : {} });
        expect(r.status, accept).toBe(200);
        expect(r.json, accept).toEqual([{ id: 1 }]);
      }
      const csvFirst = await fx.http('GET', '/genres?select=id&id=eq.1', {
        headers: { Accept: 'text/csv, application/json' },
      });
      expect(csvFirst.text).toBe('id\n1');
    });

    it('answers 406 PGRST107 for media types it cannot produce', async () => {
      const r = await fx.http('GET', '/genres', { headers: { Accept: 'application/xml' } });
      expect(r.status).toBe(406);
      expect(r.json.code).toBe('PGRST107');
    });

    it('strips null fields on request (nulls=stripped, postgrest-js stripNulls())', async () => {
      const r = await fx.client.from('authors').select('id,country,born').eq('id', 4).stripNulls();
      expect(r.error).toBeNull();
      expect(r.data).toEqual([{ id: 4 }]);
      const one = await fx.client.from('authors').select('id,country').eq('id', 4).single().stripNulls();
      expect(one.data).toEqual({ id: 4 });
    });

    it('answers HEAD with the headers of the GET and no body', async () => {
      const r = await fx.http('HEAD', '/numbers?select=n&limit=5', { headers: { Prefer: 'count=exact' } });
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe('0-4/120');
      expect(r.text).toBe('');
    });
  });
});
