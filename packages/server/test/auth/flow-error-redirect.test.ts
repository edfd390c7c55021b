import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { Browser, startLoggedApp, type TestApp } from './support.ts';

// A browser navigation that fails inside the identity service (an invitation link that is not
// valid, a flow page opened for the wrong state) is sent to the web app's flow-error page, which
// is an id route (/error/:id, seed 000 section 2) and fetches the stored error by that id.
for (const driver of testDrivers()) {
  describe(`flow errors on browser navigations (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db);
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('redirects to /error/<id> and the id fetches the stored error', async () => {
      const b = new Browser(t.url);
      const unknown = '00000000-0000-4000-8000-000000000001';
      const nav = await b.get(`/api/auth/self-service/recovery?flow=${unknown}&token=nope`, { accept: 'text/html' });
      expect(nav.status).toBe(303);
      const location = nav.headers.get('location')!;
      expect(location).toMatch(/^\/error\/[0-9a-f-]{36}$/);
      const stored = await b.get(`/api/auth/errors/${location.slice('/error/'.length)}`);
      expect(stored.status).toBe(200);
      expect(stored.body.error).toMatchObject({ id: 'not_found', code: 404 });

      // the same failure from a fetch (the web app) is answered as JSON, not redirected
      const json = await b.get(`/api/auth/self-service/recovery?flow=${unknown}&token=nope`);
      expect(json.status).toBe(404);
      expect(json.body.error.id).toBe('not_found');
    });

    it('redirects a navigation with a forbidden return_to to the error page with its message', async () => {
      const b = new Browser(t.url);
      const nav = await b.get(
        `/api/auth/self-service/login/browser?return_to=${encodeURIComponent('https://evil.example/')}`,
        { accept: 'text/html' },
      );
      expect(nav.status).toBe(303);
      const id = nav.headers.get('location')!.replace(/^\/error\//, '');
      const stored = await b.get(`/api/auth/self-service/errors?id=${id}`);
      expect(stored.body.error.message).toBe('The return_to address is not allowed.');
    });
  });
}
