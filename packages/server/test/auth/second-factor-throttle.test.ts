/**
 * Guessing the second factor: TOTP codes and backup codes share one brake per account. After
 * FACTOR_FAILURE_LIMIT wrong codes the aal2 login answers 429 too_many_attempts with Retry-After
 * (without looking at the code), and every further failure doubles the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { FACTOR_FAILURE_LIMIT } from '#server/auth/login-throttle.ts';
import { Browser, node, startLoggedApp, type TestApp } from './support.ts';

const PASSWORD = 'second factor passphrase';

for (const driver of testDrivers()) {
  describe(`second-factor guessing (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authRateLimit: 10_000 });
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it("locks the account's codes after too many wrong ones, with a growing wait", async () => {
      const identity = await createIdentity(db, {
        traits: { email: 'frank@factor.test', name: { first: 'Frank', last: 'Factor' } },
        password: PASSWORD,
      });
      const key = createHash('sha256').update(`aal2:${identity.id}`).digest('hex');
      // enrol TOTP and backup codes through the settings flow
      const b = new Browser(t.url);
      expect((await b.login('frank@factor.test', PASSWORD)).status).toBe(200);
      const settings = await b.flow('settings');
      const secret = node(settings, 'totp_secret_key').attributes.text.text;
      expect(
        (await b.submit('settings', settings, { method: 'totp', totp_code: await generate({ secret }) })).status,
      ).toBe(200);
      const gen = await b.submit('settings', await b.flow('settings'), {
        method: 'lookup_secret',
        lookup_secret_regenerate: true,
      });
      const codes: string[] = node(gen.body, 'lookup_secret_codes').attributes.text.context.secrets;
      expect(
        (await b.submit('settings', gen.body, { method: 'lookup_secret', lookup_secret_confirm: true })).status,
      ).toBe(200);

      const now = Math.floor(Date.now() / 1000);
      const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((d) => generate({ secret, epoch: now + d }))));
      const wrongTotp = ['000000', '111111', '222222', '333333', '444444', '555555'].filter((c) => !valid.has(c));

      const c = new Browser(t.url);
      expect((await c.login('frank@factor.test', PASSWORD)).status).toBe(200);
      const aal2 = await c.flow('login', '?aal=aal2');
      const attempt = (values: Record<string, string>) => c.submit('login', aal2, values);

      // wrong TOTP codes and wrong backup codes count together
      for (let i = 0; i < FACTOR_FAILURE_LIMIT; i++) {
        const r =
          i % 2 === 0
            ? await attempt({ method: 'totp', totp_code: wrongTotp[i] })
            : await attempt({ method: 'lookup_secret', lookup_secret: `wrongcode${i}` });
        expect(r.status, `wrong code ${i + 1}`).toBe(400);
      }
      const rightTotp = await generate({ secret, epoch: now + 30 });
      const locked = await attempt({ method: 'totp', totp_code: rightTotp });
      expect(locked.status).toBe(429);
      expect(locked.body.error).toMatchObject({ id: 'too_many_attempts', code: 429 });
      const wait1 = Number(locked.headers.get('retry-after'));
      expect(wait1).toBeGreaterThan(0);
      expect(wait1).toBeLessThanOrEqual(60);
      expect(locked.body.error.details.retry_after_seconds).toBe(wait1);
      expect(locked.body.error.reason).toMatch(
        /^Too many wrong codes for this account: try again in \d+ minute\(s\)\.$/,
      );
      // a backup code is refused as well, and the right code was not spent by the refusal
      expect((await attempt({ method: 'lookup_secret', lookup_secret: codes[0] })).status).toBe(429);
      expect((await c.get('/api/auth/whoami')).status).toBe(403); // still aal1

      // the brake is per account: a second browser (a new session) is just as locked
      const d = new Browser(t.url);
      expect((await d.login('frank@factor.test', PASSWORD)).status).toBe(200);
      const other = await d.submit('login', await d.flow('login', '?aal=aal2'), {
        method: 'totp',
        totp_code: rightTotp,
      });
      expect(other.status).toBe(429);

      // once the wait is over one more wrong code doubles it
      await db.query(
        `UPDATE identity_login_failures SET failed_at = failed_at - interval '61 seconds' WHERE key_hash = $1`,
        [key],
      );
      expect((await attempt({ method: 'totp', totp_code: wrongTotp[FACTOR_FAILURE_LIMIT] })).status).toBe(400);
      const locked2 = await attempt({ method: 'totp', totp_code: rightTotp });
      expect(locked2.status).toBe(429);
      const wait2 = Number(locked2.headers.get('retry-after'));
      expect(wait2).toBeGreaterThan(60);
      expect(wait2).toBeLessThanOrEqual(120);

      // after that wait the right code signs in and clears the count
      await db.query(
        `UPDATE identity_login_failures SET failed_at = failed_at - interval '121 seconds' WHERE key_hash = $1`,
        [key],
      );
      const ok = await attempt({ method: 'totp', totp_code: rightTotp });
      expect(ok.status).toBe(200);
      expect(ok.body.session.authenticator_assurance_level).toBe('aal2');
      const left = await db.query(`SELECT 1 FROM identity_login_failures WHERE key_hash = $1`, [key]);
      expect(left.rows).toHaveLength(0);
    });
  });
}
