/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import {
  Browser,
  codeFrom,
  node,
  SoftKey,
  startLoggedApp,
  startMailbox,
  type Mailbox,
  type TestApp,
} from './support.ts';

// The self-service flows over real HTTP against a real database, with a real SMTP peer.
for (const driver of testDrivers()) {
  describe(`identity flows (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let mailbox: Mailbox;
    const PASSWORD = 'correct horse battery staple';

    beforeAll(async () => {
      db = await driver.open();
      mailbox = await startMailbox();
      t = await startLoggedApp(db, { smtpUrl: mailbox.url, registrationEnabled: true });
      await createIdentity(db, {
        traits: { email: 'alice@example.com', name: { first: 'Alice', last: 'Doe' } },
        roles: ['editor'],
        password: PASSWORD,
      });
    });
    afterAll(async () => {
      await t?.app.close();
      await mailbox?.close();
      await db?.dispose();
    });

    it('logs in with a password: session cookie, whoami, logout', async () => {
      const b = new Browser(t.url);
      expect((await b.get('/api/auth/whoami')).status).toBe(401);
      const flow = await b.flow('login', '?return_to=/health');
      expect(flow.return_to).toBe('/health');
      expect(flow.ui.action).toBe(`/api/auth/self-service/login?flow=${flow.id}`);
      expect(node(flow, 'identifier')).toBeTruthy();
      const csrfCookie = b.setCookieLines.find((l) => l.startsWith('watchdeck_csrf='))!;
      expect(csrfCookie).toMatch(/HttpOnly/i);

      // fetching the flow by id gives the same form
      const again = await b.get(`/api/auth/self-service/login/flows?id=${flow.id}`);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(flow.id);

      const r = await b.submit('login', flow, {
        method: 'password',
        identifier: 'Alice@Example.com',
        password: PASSWORD,
      });
      expect(r.status).toBe(200);
      expect(r.body.session.authenticator_assurance_level).toBe('aal1');
      expect(r.body.session.identity.traits.email).toBe('alice@example.com');
      expect(r.body.continue_with).toEqual([{ action: 'redirect_browser_to', redirect_browser_to: '/health' }]);
      const sessionCookie = b.setCookieLines.find((l) => l.startsWith('watchdeck_session='))!;
      expect(sessionCookie).toMatch(/HttpOnly/i);
      expect(sessionCookie).toMatch(/SameSite=Lax/i);
      expect(sessionCookie).not.toMatch(/Secure/i); // plain http here

      const who = await b.get('/api/auth/whoami');
      expect(who.status).toBe(200);
      expect(who.body).toMatchObject({
        user: { name: 'Alice Doe', email: 'alice@example.com' },
        roles: ['editor'],
        authMode: 'kratos',
      });
      expect(who.body.permissions.canaries).toEqual(['read', 'write']);
      expect(who.body.permissions.connections).toEqual(['read']);
      expect((await b.get('/api/auth/sessions/whoami')).body.identity.id).toBe(who.body.user.id);

      // a second login flow while signed in: session_already_available
      const again2 = await b.get('/api/auth/self-service/login/browser');
      expect(again2.status).toBe(400);
      expect(again2.body.error.id).toBe('session_already_available');

      expect((await b.post('/api/auth/logout')).status).toBe(204);
      expect((await b.get('/api/auth/whoami')).status).toBe(401);
    });

    it('refuses a wrong password with 400 and the form message; unknown users alike', async () => {
      const b = new Browser(t.url);
      for (const identifier of ['alice@example.com', 'nobody@example.com']) {
        const flow = await b.flow('login');
        const r = await b.submit('login', flow, { method: 'password', identifier, password: 'wrong password!' });
        expect(r.status).toBe(400);
        expect(r.body.id).toBe(flow.id);
        expect(r.body.ui.messages[0]).toMatchObject({ id: 4000006, type: 'error' });
        expect(r.body.ui.messages[0].text).toMatch(/credentials are invalid/);
        expect(node(r.body, 'identifier').attributes.value).toBe(identifier); // kept for the retry
        expect(node(r.body, 'password').attributes.value).toBeUndefined(); // never echoed
        const stored = await db.query(`SELECT ui::text AS ui FROM identity_flows WHERE id = $1`, [flow.id]);
        expect(JSON.stringify(stored.rows)).not.toContain('wrong password!'); // nor stored
      }
      const flow = await b.flow('login');
      const missing = await b.submit('login', flow, { method: 'password', identifier: '' });
      expect(missing.status).toBe(400);
      expect(node(missing.body, 'identifier').messages[0].text).toBe('Property identifier is missing.');
    });

    it('answers 410 self_service_flow_expired for an expired flow, with a replacement and a stored error', async () => {
      const b = new Browser(t.url);
      const flow = await b.flow('login');
      await db.query(`UPDATE identity_flows SET expires_at = now() - interval '1 minute' WHERE id = $1`, [flow.id]);
      const r = await b.submit('login', flow, {
        method: 'password',
        identifier: 'alice@example.com',
        password: PASSWORD,
      });
      expect(r.status).toBe(410);
      expect(r.body.error).toMatchObject({
        id: 'self_service_flow_expired',
        code: 410,
        message: 'Your interaction expired, please fill out the form again.',
      });
      expect(r.body.use_flow_id).toBeTruthy();
      const stored = await b.get(`/api/auth/errors/${r.body.id}`);
      expect(stored.status).toBe(200);
      expect(stored.body.error.id).toBe('self_service_flow_expired');
      // the replacement flow works
      const fresh = await b.get(`/api/auth/self-service/login/flows?id=${r.body.use_flow_id}`);
      const ok = await b.submit('login', fresh.body, {
        method: 'password',
        identifier: 'alice@example.com',
        password: PASSWORD,
      });
      expect(ok.status).toBe(200);
      expect((await b.get(`/api/auth/errors/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
      expect((await b.get(`/api/auth/errors/not-a-uuid`)).status).toBe(404);
    });

    it('answers 403 security_csrf_violation for a wrong token or another browser', async () => {
      const b = new Browser(t.url);
      const flow = await b.flow('login');
      const wrong = await b.post(`/api/auth/self-service/login?flow=${flow.id}`, {
        csrf_token: 'forged',
        method: 'password',
        identifier: 'alice@example.com',
        password: PASSWORD,
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toMatchObject({
        id: 'security_csrf_violation',
        message: 'A security violation was detected, please fill out the form again.',
      });
      // right token, but sent from a browser without the flow's cookie
      const other = new Browser(t.url);
      const stolen = await other.submit('login', flow, {
        method: 'password',
        identifier: 'alice@example.com',
        password: PASSWORD,
      });
      expect(stolen.status).toBe(403);
      expect(stolen.body.error.id).toBe('security_csrf_violation');
      expect((await other.get(`/api/auth/self-service/login/flows?id=${flow.id}`)).status).toBe(403);
    });

    it('allows only same-origin return_to', async () => {
      const b = new Browser(t.url);
      for (const bad of ['https://evil.example/phish', '//evil.example/x', 'javascript:alert(1)']) {
        const r = await b.get(`/api/auth/self-service/login/browser?return_to=${encodeURIComponent(bad)}`);
        expect(r.status).toBe(400);
        expect(r.body.error).toMatchObject({
          id: 'self_service_flow_return_to_forbidden',
          message: 'The return_to address is not allowed.',
        });
        expect((await b.get(`/api/auth/errors/${r.body.id}`)).body.error.id).toBe(
          'self_service_flow_return_to_forbidden',
        );
      }
      expect(
        (await b.get(`/api/auth/self-service/login/browser?return_to=${encodeURIComponent(`${t.url}/catalog`)}`))
          .status,
      ).toBe(200);
      // a browser navigation is redirected to the web app's page for the flow
      const nav = await b.get('/api/auth/self-service/login/browser', { accept: 'text/html' });
      expect(nav.status).toBe(303);
      expect(nav.headers.get('location')).toMatch(/^\/login\?flow=[0-9a-f-]{36}$/);
    });

    it('registers a new account, signs it in and emails a verification code', async () => {
      const b = new Browser(t.url);
      const flow = await b.flow('registration');
      const weak = await b.submit('registration', flow, {
        method: 'password',
        traits: { email: 'bob@example.com', name: { first: 'Bob', last: 'Roe' } },
        password: 'short',
      });
      expect(weak.status).toBe(400);
      expect(node(weak.body, 'password').messages[0].text).toMatch(/at least 8 characters/);
      expect(node(weak.body, 'traits.email').attributes.value).toBe('bob@example.com');

      const since = mailbox.mails.length;
      const r = await b.submit('registration', flow, {
        method: 'password',
        'traits.email': 'bob@example.com',
        'traits.name.first': 'Bob',
        'traits.name.last': 'Roe',
        password: 'a much better passphrase',
      });
      expect(r.status).toBe(200);
      expect(r.body.identity.traits).toEqual({ email: 'bob@example.com', name: { first: 'Bob', last: 'Roe' } });
      expect(r.body.identity.verifiable_addresses[0].verified).toBe(false);
      const who = await b.get('/api/auth/whoami');
      expect(who.body.roles).toEqual(['viewer']);

      // the verification code of the registration email proves the address
      const cont = r.body.continue_with.find((c: any) => c.action === 'show_verification_ui');
      const vflow = (await b.get(`/api/auth/self-service/verification/flows?id=${cont.flow.id}`)).body;
      expect(vflow.state).toBe('sent_email');
      const code = codeFrom(await mailbox.next('bob@example.com', since));
      const done = await b.submit('verification', vflow, { method: 'code', code });
      expect(done.status).toBe(200);
      expect(done.body.state).toBe('passed_challenge');
      expect(done.body.ui.messages[0].text).toBe('You successfully verified your email address.');
      expect((await b.get('/api/auth/sessions/whoami')).body.identity.verifiable_addresses[0].verified).toBe(true);

      const dup = new Browser(t.url);
      const dflow = await dup.flow('registration');
      const d = await dup.submit('registration', dflow, {
        method: 'password',
        traits: { email: 'BOB@example.com', name: { first: 'B', last: 'R' } },
        password: 'another good passphrase',
      });
      expect(d.status).toBe(400);
      expect(d.body.ui.messages[0].id).toBe(4000007);
    });

    it('verifies an address through the verification flow, with a single-use code', async () => {
      const b = new Browser(t.url);
      const flow = await b.flow('verification');
      const since = mailbox.mails.length;
      const sent = await b.submit('verification', flow, { method: 'code', email: 'alice@example.com' });
      expect(sent.status).toBe(200);
      expect(sent.body.state).toBe('sent_email');
      expect(sent.body.ui.messages[0].id).toBe(1080003);
      const code = codeFrom(await mailbox.next('alice@example.com', since));
      const wrong = await b.submit('verification', sent.body, {
        method: 'code',
        code: code === '000000' ? '111111' : '000000',
      });
      expect(wrong.status).toBe(400);
      expect(node(wrong.body, 'code').messages[0].id).toBe(4070006);
      const ok = await b.submit('verification', sent.body, { method: 'code', code });
      expect(ok.body.state).toBe('passed_challenge');
      const { rows } = await db.query<{ verified_at: string | null }>(
        `SELECT verified_at FROM identities WHERE traits->>'email' = 'alice@example.com'`,
      );
      expect(rows[0].verified_at).not.toBeNull();
      const codes = await db.query<{ token_hash: string }>(
        `SELECT token_hash FROM identity_tokens WHERE flow_id = $1`,
        [flow.id],
      );
      expect(codes.rows.every((r) => !r.token_hash.includes(code))).toBe(true); // stored hashed
    });

    it('recovers an account by an emailed code, then sets a new password in the settings flow', async () => {
      await createIdentity(db, {
        traits: { email: 'carol@example.com', name: { first: 'Carol', last: 'Poe' } },
        password: 'forgotten passphrase',
      });
      const b = new Browser(t.url);
      const flow = await b.flow('recovery');
      const since = mailbox.mails.length;
      const sent = await b.submit('recovery', flow, { method: 'code', email: 'carol@example.com' });
      expect(sent.status).toBe(200);
      expect(sent.body.state).toBe('sent_email');
      // an unknown address gets the very same answer and no mail
      const other = await b.submit('recovery', await b.flow('recovery'), {
        method: 'code',
        email: 'nobody@example.com',
      });
      expect(other.body.ui.messages).toEqual(sent.body.ui.messages);

      const raw = await mailbox.next('carol@example.com', since);
      expect(raw).toMatch(/Recover access/);
      const code = codeFrom(raw);
      const r = await b.submit('recovery', sent.body, { method: 'code', code });
      expect(r.status).toBe(422);
      expect(r.body.error.id).toBe('browser_location_change_required');
      expect(r.body.redirect_browser_to).toMatch(/^\/profile-settings\?flow=/);
      // single use
      expect((await new Browser(t.url).submit('recovery', sent.body, { method: 'code', code })).status).toBe(403); // other browser: csrf
      const reuse = await b.submit('recovery', sent.body, { method: 'code', code });
      expect(reuse.status).toBe(200); // flow already passed: nothing happens again
      expect(reuse.body.state).toBe('passed_challenge');

      const settingsId = r.body.continue_with[0].flow.id;
      const settings = (await b.get(`/api/auth/self-service/settings/flows?id=${settingsId}`)).body;
      expect(settings.identity.traits.email).toBe('carol@example.com');
      const pw = await b.submit('settings', settings, { method: 'password', password: 'a brand new passphrase' });
      expect(pw.status).toBe(200);
      expect(pw.body.state).toBe('success');
      expect(pw.body.ui.messages[0].text).toBe('Your changes have been saved!');
      expect((await new Browser(t.url).login('carol@example.com', 'a brand new passphrase')).status).toBe(200);
      expect((await new Browser(t.url).login('carol@example.com', 'forgotten passphrase')).status).toBe(400);
    });

    it('voids recovery codes after too many wrong guesses', async () => {
      const b = new Browser(t.url);
      const since = mailbox.mails.length;
      const sent = (
        await b.submit('recovery', await b.flow('recovery'), { method: 'code', email: 'alice@example.com' })
      ).body;
      const code = codeFrom(await mailbox.next('alice@example.com', since));
      const wrong = code === '999999' ? '888888' : '999999';
      for (let i = 0; i < 5; i++)
        expect((await b.submit('recovery', sent, { method: 'code', code: wrong })).status).toBe(400);
      const late = await b.submit('recovery', sent, { method: 'code', code });
      expect(late.status).toBe(400);
      expect(node(late.body, 'code').messages[0].id).toBe(4060006);
    });

    it('enrols TOTP, then requires aal2 (session_aal2_required) until a code is given', async () => {
      await createIdentity(db, {
        traits: { email: 'dave@example.com', name: { first: 'Dave', last: 'Moe' } },
        roles: ['viewer'],
        password: PASSWORD,
      });
      const b = new Browser(t.url);
      expect((await b.login('dave@example.com', PASSWORD)).status).toBe(200);
      const settings = await b.flow('settings');
      const secret = node(settings, 'totp_secret_key').attributes.text.text;
      expect(node(settings, 'totp_url').attributes.text.text).toMatch(
        /^otpauth:\/\/totp\/Watchdeck:dave%40example\.com\?secret=/,
      );
      const bad = await b.submit('settings', settings, { method: 'totp', totp_code: '123' });
      expect(bad.status).toBe(400);
      const enrolCode = await generate({ secret });
      const enrolled = await b.submit('settings', settings, { method: 'totp', totp_code: enrolCode });
      expect(enrolled.status).toBe(200);
      expect(node(enrolled.body, 'totp_unlink')).toBeTruthy();

      // a new sign-in with the password alone is aal1 and not enough
      const c = new Browser(t.url);
      const pw = await c.login('dave@example.com', PASSWORD);
      expect(pw.status).toBe(200);
      expect(pw.body.continue_with[0].redirect_browser_to).toContain('aal=aal2');
      const who = await c.get('/api/auth/whoami');
      expect(who.status).toBe(403);
      expect(who.body.error.id).toBe('session_aal2_required');
      expect(who.body.redirect_browser_to).toContain('aal=aal2');
      expect((await c.get('/api/auth/sessions/whoami')).status).toBe(403);
      expect((await c.get('/api/properties')).status).toBe(200); // public routes still answer

      const aal2 = await c.flow('login', '?aal=aal2');
      expect(aal2.requested_aal).toBe('aal2');
      expect(node(aal2, 'totp_code')).toBeTruthy();
      expect(node(aal2, 'password')).toBeUndefined();
      const wrong = await c.submit('login', aal2, {
        method: 'totp',
        totp_code: enrolCode === '000000' ? '111111' : '000000',
      });
      expect(wrong.status).toBe(400);
      // the enrolment used this time step's code; a used step is refused (replay), the next one
      // is within the tolerated clock drift
      const replay = await c.submit('login', aal2, { method: 'totp', totp_code: enrolCode });
      expect(replay.status).toBe(400);
      const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
      const ok = await c.submit('login', aal2, { method: 'totp', totp_code: next });
      expect(ok.status).toBe(200);
      expect(ok.body.session.authenticator_assurance_level).toBe('aal2');
      expect((await c.get('/api/auth/whoami')).status).toBe(200);
      // the stored secret is not in any answer
      expect(JSON.stringify(ok.body)).not.toContain(secret);
    });

    it('uses a backup code once as second factor', async () => {
      await createIdentity(db, {
        traits: { email: 'erin@example.com', name: { first: 'Erin', last: 'Loe' } },
        password: PASSWORD,
      });
      const b = new Browser(t.url);
      await b.login('erin@example.com', PASSWORD);
      const settings = await b.flow('settings');
      const gen = await b.submit('settings', settings, { method: 'lookup_secret', lookup_secret_regenerate: true });
      expect(gen.status).toBe(200);
      const codes: string[] = node(gen.body, 'lookup_secret_codes').attributes.text.context.secrets;
      expect(codes).toHaveLength(12);
      // shown once: fetching the flow again does not show them
      expect(
        node((await b.get(`/api/auth/self-service/settings/flows?id=${settings.id}`)).body, 'lookup_secret_codes'),
      ).toBeUndefined();
      expect(
        (await b.submit('settings', settings, { method: 'lookup_secret', lookup_secret_confirm: true })).status,
      ).toBe(200);
      const stored = await db.query<{ config: unknown }>(
        `SELECT config FROM identity_credentials WHERE type = 'lookup_secret'`,
      );
      expect(JSON.stringify(stored.rows)).not.toContain(codes[0]);

      const c = new Browser(t.url);
      await c.login('erin@example.com', PASSWORD);
      const flow = await c.flow('login', '?aal=aal2');
      const ok = await c.submit('login', flow, { method: 'lookup_secret', lookup_secret: codes[0] });
      expect(ok.status).toBe(200);
      expect(ok.body.session.authenticator_assurance_level).toBe('aal2');

      const d = new Browser(t.url);
      await d.login('erin@example.com', PASSWORD);
      const flow2 = await d.flow('login', '?aal=aal2');
      const reused = await d.submit('login', flow2, { method: 'lookup_secret', lookup_secret: codes[0] });
      expect(reused.status).toBe(400);
      expect(node(reused.body, 'lookup_secret').messages[0].text).toBe(
        'This backup recovery code has already been used.',
      );
      expect((await d.submit('login', flow2, { method: 'lookup_secret', lookup_secret: 'not-a-code' })).status).toBe(
        400,
      );
      expect((await d.submit('login', flow2, { method: 'lookup_secret', lookup_secret: codes[1] })).status).toBe(200);
    });

    it('registers a WebAuthn key, rejects a bogus attestation and signs in with the key as second factor', async () => {
      await createIdentity(db, {
        traits: { email: 'fay@example.com', name: { first: 'Fay', last: 'Hoe' } },
        password: PASSWORD,
      });
      const b = new Browser(t.url);
      await b.login('fay@example.com', PASSWORD);
      const settings = await b.flow('settings');
      const options = JSON.parse(node(settings, 'webauthn_register_options').attributes.value);
      expect(options.rp).toEqual({ name: 'Watchdeck', id: '127.0.0.1' });
      expect(options.user.name).toBe('fay@example.com');
      expect(typeof options.challenge).toBe('string');

      const key = new SoftKey();
      const bogus = key.register(options, t.url);
      bogus.response.attestationObject = Buffer.from('not cbor at all').toString('base64url');
      const rejected = await b.submit('settings', settings, {
        method: 'webauthn',
        webauthn_register: JSON.stringify(bogus),
      });
      expect(rejected.status).toBe(400);
      expect(rejected.body.ui.messages[0].id).toBe(4000015);
      // a genuine answer to the spent challenge is refused too: one attempt per challenge
      const stale = await b.submit('settings', settings, {
        method: 'webauthn',
        webauthn_register: key.register(options, t.url),
      });
      expect(stale.status).toBe(400);

      const fresh = JSON.parse(node(stale.body, 'webauthn_register_options').attributes.value);
      const ok = await b.submit('settings', stale.body, {
        method: 'webauthn',
        webauthn_register: key.register(fresh, t.url),
        webauthn_register_displayname: 'YubiKey',
      });
      expect(ok.status).toBe(200);
      expect(node(ok.body, 'webauthn_remove').attributes.value).toBe(key.id);

      const c = new Browser(t.url);
      await c.login('fay@example.com', PASSWORD);
      expect((await c.get('/api/auth/whoami')).status).toBe(403);
      const flow = await c.flow('login', '?aal=aal2');
      const req = JSON.parse(node(flow, 'webauthn_login_options').attributes.value);
      expect(req.allowCredentials[0].id).toBe(key.id);
      const forged = new SoftKey();
      (forged as any).credentialId = Buffer.from(key.id, 'base64url'); // same id, other private key
      expect(
        (await c.submit('login', flow, { method: 'webauthn', webauthn_login: forged.assert(req, t.url) })).status,
      ).toBe(400);
      const flow2 = (await c.get(`/api/auth/self-service/login/flows?id=${flow.id}`)).body;
      const req2 = JSON.parse(node(flow2, 'webauthn_login_options').attributes.value);
      expect(req2.challenge).not.toBe(req.challenge);
      const signedIn = await c.submit('login', flow2, { method: 'webauthn', webauthn_login: key.assert(req2, t.url) });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.session.authenticator_assurance_level).toBe('aal2');
      expect((await c.get('/api/auth/whoami')).status).toBe(200);
    });

    it('asks for the password again before changing settings on an old session', async () => {
      const b = new Browser(t.url);
      await b.login('alice@example.com', PASSWORD);
      const settings = await b.flow('settings');
      await db.query(
        `UPDATE identity_sessions SET authenticated_at = now() - interval '1 hour' WHERE identity_id = (SELECT id FROM identities WHERE traits->>'email' = 'alice@example.com')`,
      );
      const r = await b.submit('settings', settings, {
        method: 'profile',
        traits: { email: 'alice@example.com', name: { first: 'Alicia', last: 'Doe' } },
      });
      expect(r.status).toBe(403);
      expect(r.body.error.id).toBe('session_refresh_required');
      expect(r.body.redirect_browser_to).toContain('refresh=true');
      const refresh = await b.flow('login', '?refresh=true');
      expect(refresh.refresh).toBe(true);
      expect(node(refresh, 'identifier').attributes.value).toBe('alice@example.com');
      expect(
        (await b.submit('login', refresh, { method: 'password', identifier: 'alice@example.com', password: PASSWORD }))
          .status,
      ).toBe(200);
      const ok = await b.submit('settings', settings, {
        method: 'profile',
        traits: { email: 'alice@example.com', name: { first: 'Alicia', last: 'Doe' } },
      });
      expect(ok.status).toBe(200);
      expect((await b.get('/api/auth/whoami')).body.user.name).toBe('Alicia Doe');
    });

    it('never writes passwords, codes or session tokens to the log', () => {
      const all = t.logs.join('\n');
      expect(all).not.toContain(PASSWORD);
      expect(all).not.toContain('a brand new passphrase');
      expect(all).not.toMatch(/watchdeck_session=/);
    });
  });
}
