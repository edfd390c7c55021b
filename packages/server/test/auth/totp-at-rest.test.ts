/**
 * TOTP secrets are encrypted at rest with the connection secrets' key: the enrolled credential
 * and the secret a settings flow offers. Secrets an older version stored in clear are encrypted
 * when the server starts, and keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, generateSecret } from 'otplib';
import { testDrivers } from '../support/db.ts';
import { createIdentity, saveCredential } from '#server/auth/identities.ts';
import { insertFlow } from '#server/auth/flows/store.ts';
import { SecretBox } from '#server/connections/secret-box.ts';
import { Browser, node, startLoggedApp, type TestApp } from './support.ts';

const PASSWORD = 'totp at rest passphrase';
const KEY = 'totp-at-rest-test-key-0123456789';

for (const driver of testDrivers()) {
  describe(`TOTP secrets at rest (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    const box = new SecretBox(KEY);

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { secretKey: KEY, authRateLimit: 10_000 });
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    const storedSecret = async (id: string) =>
      (
        await db.query<{ secret: string }>(
          `SELECT config->>'secret' AS secret FROM identity_credentials WHERE identity_id = $1 AND type = 'totp'`,
          [id],
        )
      ).rows[0].secret;

    it('stores an enrolled secret, and the one a settings flow offers, encrypted', async () => {
      const who = await createIdentity(db, {
        traits: { email: 'gina@rest.test', name: { first: 'Gina', last: 'Rest' } },
        password: PASSWORD,
      });
      const b = new Browser(t.url);
      expect((await b.login('gina@rest.test', PASSWORD)).status).toBe(200);
      const settings = await b.flow('settings');
      const secret = node(settings, 'totp_secret_key').attributes.text.text;
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      const offered = await db.query<{ internal: string }>(
        `SELECT internal_context::text AS internal FROM identity_flows WHERE id = $1`,
        [settings.id],
      );
      expect(offered.rows[0].internal).not.toContain(secret);

      const enrolled = await b.submit('settings', settings, { method: 'totp', totp_code: await generate({ secret }) });
      expect(enrolled.status).toBe(200);
      const stored = await storedSecret(who.id);
      expect(stored).toMatch(/^enc:v1:/);
      expect(stored).not.toContain(secret);
      expect(box.decrypt(stored)).toBe(secret);
      const rows = await db.query<{ all: string }>(
        `SELECT string_agg(config::text, '') AS all FROM identity_credentials WHERE identity_id = $1`,
        [who.id],
      );
      expect(rows.rows[0].all).not.toContain(secret);

      // and it still works as a second factor
      const c = new Browser(t.url);
      expect((await c.login('gina@rest.test', PASSWORD)).status).toBe(200);
      const ok = await c.submit('login', await c.flow('login', '?aal=aal2'), {
        method: 'totp',
        totp_code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
      });
      expect(ok.status).toBe(200);
      expect(ok.body.session.authenticator_assurance_level).toBe('aal2');
    });

    it('encrypts secrets stored in clear by an older version on start, and they keep working', async () => {
      const who = await createIdentity(db, {
        traits: { email: 'hal@rest.test', name: { first: 'Hal', last: 'Legacy' } },
        password: PASSWORD,
      });
      const legacy = generateSecret();
      await saveCredential(db, who.id, 'totp', { secret: legacy });
      const pending = generateSecret();
      const flow = await insertFlow(db, { type: 'settings', identityId: who.id, internal: { totp_secret: pending } });
      expect(await storedSecret(who.id)).toBe(legacy);

      // a restart (here: a second server on the same database) seals them
      const again = await startLoggedApp(db, { secretKey: KEY, authRateLimit: 10_000 });
      try {
        const stored = await storedSecret(who.id);
        expect(stored).toMatch(/^enc:v1:/);
        expect(box.decrypt(stored)).toBe(legacy);
        const f = await db.query<{ secret: string }>(
          `SELECT internal_context->>'totp_secret' AS secret FROM identity_flows WHERE id = $1`,
          [flow.id],
        );
        expect(f.rows[0].secret).toMatch(/^enc:v1:/);
        expect(box.decrypt(f.rows[0].secret)).toBe(pending);

        const c = new Browser(again.url);
        expect((await c.login('hal@rest.test', PASSWORD)).status).toBe(200);
        const ok = await c.submit('login', await c.flow('login', '?aal=aal2'), {
          method: 'totp',
          totp_code: await generate({ secret: legacy }),
        });
        expect(ok.status).toBe(200);
        // a third start leaves the sealed value alone (no double encryption)
        const third = await startLoggedApp(db, { secretKey: KEY, authRateLimit: 10_000 });
        await third.app.close();
        expect(box.decrypt(await storedSecret(who.id))).toBe(legacy);
      } finally {
        await again.app.close();
      }
    });
  });
}
