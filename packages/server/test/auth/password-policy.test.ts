/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { ensureFirstAdmin } from '#server/auth/first-run.ts';
import { Browser, codeFrom, node, startLoggedApp, startMailbox, type Mailbox, type TestApp } from './support.ts';

/**
 * The password policy wherever a password is chosen: registration, the settings flow (also
 * where recovery and an accepted invitation lead), and the first-run admin password. The most
 * common passwords and passwords of only spaces or control characters are refused with the
 * identity flow's message (id 4000005 on the password field).
 */

const PASSWORD = 'policy test passphrase';
const COMMON = ['password1', 'Iloveyou1', 'qwertyuiop', 'football1'];
const BLANK = [
  '          ',
  '\t\t\t\t\t\t\t\t\t',
  '\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0',
  '\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008',
];
const COMMON_TEXT =
  'The password can not be used because it is one of the most common passwords and is easily guessed.';
const BLANK_TEXT = 'The password can not be used because it consists only of spaces or control characters.';

function refused(r: any, text: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  const msg = node(r.body, 'password').messages[0];
  expect(msg).toMatchObject({ id: 4000005, type: 'error', text });
  // the refused password is never echoed back into the form
  expect(node(r.body, 'password').attributes.value).toBeUndefined();
}

for (const driver of testDrivers()) {
  describe(`password policy (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let mailbox: Mailbox;

    beforeAll(async () => {
      db = await driver.open();
      mailbox = await startMailbox();
      t = await startLoggedApp(db, { smtpUrl: mailbox.url, registrationEnabled: true, authRateLimit: 10_000 });
      await createIdentity(db, {
        traits: { email: 'admin@policy.test', name: { first: 'Ada', last: 'Admin' } },
        roles: ['admin'],
        password: PASSWORD,
      });
    });
    afterAll(async () => {
      await t?.app.close();
      await mailbox?.close();
      await db?.dispose();
    });

    it('registration refuses common and blank passwords, and creates no account', async () => {
      const b = new Browser(t.url);
      const traits = { 'traits.email': 'reg@policy.test', 'traits.name.first': 'Reg', 'traits.name.last': 'Ister' };
      for (const password of COMMON) {
        refused(
          await b.submit('registration', await b.flow('registration'), { method: 'password', ...traits, password }),
          COMMON_TEXT,
        );
      }
      for (const password of BLANK) {
        refused(
          await b.submit('registration', await b.flow('registration'), { method: 'password', ...traits, password }),
          BLANK_TEXT,
        );
      }
      const none = await db.query(`SELECT 1 FROM identities WHERE traits->>'email' = 'reg@policy.test'`);
      expect(none.rows).toHaveLength(0);
      const ok = await b.submit('registration', await b.flow('registration'), {
        method: 'password',
        ...traits,
        password: PASSWORD,
      });
      expect(ok.status).toBe(200);
    });

    it('the settings flow refuses them as a new password and keeps the old one', async () => {
      await createIdentity(db, {
        traits: { email: 'set@policy.test', name: { first: 'Set', last: 'Tings' } },
        password: PASSWORD,
      });
      const b = new Browser(t.url);
      expect((await b.login('set@policy.test', PASSWORD)).status).toBe(200);
      for (const password of [...COMMON, ...BLANK]) {
        const r = await b.submit('settings', await b.flow('settings'), { method: 'password', password });
        refused(r, COMMON.includes(password) ? COMMON_TEXT : BLANK_TEXT);
      }
      expect((await new Browser(t.url).login('set@policy.test', PASSWORD)).status).toBe(200);
      expect((await new Browser(t.url).login('set@policy.test', 'password1')).status).toBe(400);
    });

    it('recovery leads to a settings flow that refuses them too', async () => {
      await createIdentity(db, {
        traits: { email: 'rec@policy.test', name: { first: 'Rec', last: 'Overy' } },
        password: PASSWORD,
      });
      const b = new Browser(t.url);
      const since = mailbox.mails.length;
      const sent = await b.submit('recovery', await b.flow('recovery'), { method: 'code', email: 'rec@policy.test' });
      const code = codeFrom(await mailbox.next('rec@policy.test', since));
      const r = await b.submit('recovery', sent.body, { method: 'code', code });
      expect(r.status).toBe(422);
      const settings = (await b.get(`/api/auth/self-service/settings/flows?id=${r.body.continue_with[0].flow.id}`))
        .body;
      refused(await b.submit('settings', settings, { method: 'password', password: 'letmein1' }), COMMON_TEXT);
      refused(
        await b.submit('settings', settings, { method: 'password', password: ' \n \r\n \t \u2003 ' }),
        BLANK_TEXT,
      );
      expect(
        (await b.submit('settings', settings, { method: 'password', password: 'my own recovered phrase' })).status,
      ).toBe(200);
    });

    it('an accepted invitation chooses its password under the same policy', async () => {
      const admin = new Browser(t.url);
      expect((await admin.login('admin@policy.test', PASSWORD)).status).toBe(200);
      const inv = await admin.post('/api/auth/invite_user', {
        firstName: 'Ina',
        lastName: 'Vited',
        email: 'ina@policy.test',
        role: 'viewer',
      });
      expect(inv.status).toBe(201);
      const b = new Browser(t.url);
      // the link's host is the public URL's (here the localhost fallback): follow its path here
      const link = new URL(inv.body.link);
      const landed = await b.get(link.pathname + link.search);
      expect(landed.status).toBe(303);
      const flowId = new URL(landed.headers.get('location')!, t.url).searchParams.get('flow');
      const settings = (await b.get(`/api/auth/self-service/settings/flows?id=${flowId}`)).body;
      refused(await b.submit('settings', settings, { method: 'password', password: 'sunshine' }), COMMON_TEXT);
      refused(
        await b.submit('settings', settings, {
          method: 'password',
          password: '\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000',
        }),
        BLANK_TEXT,
      );
      expect(
        (await b.submit('settings', settings, { method: 'password', password: 'invited and chosen well' })).status,
      ).toBe(200);
    });

    it('a first-run admin password from the environment must pass the policy', async () => {
      const other = await driver.open();
      try {
        const log = pino({ level: 'silent' });
        const cfg = { authMode: 'kratos' as const, adminEmail: 'first@policy.test' };
        await expect(ensureFirstAdmin(other, { ...cfg, adminPassword: 'Password1' }, log)).rejects.toThrow(
          `WATCHDECK_ADMIN_PASSWORD: ${COMMON_TEXT}`,
        );
        await expect(ensureFirstAdmin(other, { ...cfg, adminPassword: '            ' }, log)).rejects.toThrow(
          `WATCHDECK_ADMIN_PASSWORD: ${BLANK_TEXT}`,
        );
        expect((await other.query(`SELECT 1 FROM identities`)).rows).toHaveLength(0);
        expect(await ensureFirstAdmin(other, { ...cfg, adminPassword: PASSWORD }, log)).toBe('created');
      } finally {
        await other.dispose();
      }
    });
  });
}
