// The account pages against a real server with sign-in on (AUTH=kratos), registration open and
// its emails going to a real SMTP peer started here. Each test uses its own browser context
// (its own cookies), like a separate person at a separate computer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generate } from 'otplib';
import pg from 'pg';
import { launch, screenshot, poll } from './browser.ts';
import { codeFrom, startMailbox, type Mailbox } from './mailbox.ts';
import { startServer, type StartedServer } from './server.ts';

// A busy machine (2 cores, other suites running) can take seconds per navigation.

const ADMIN = { email: 'admin@example.com', password: 'admin passphrase for e2e' };
const PASSWORD = 'correct horse battery staple';

describe('account pages', () => {
  let server: StartedServer;
  let mailbox: Mailbox;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startServer({
      AUTH: 'kratos',
      SMTP_URL: mailbox.url,
      WATCHDECK_ADMIN_EMAIL: ADMIN.email,
      WATCHDECK_ADMIN_PASSWORD: ADMIN.password,
      WATCHDECK_REGISTRATION: 'true',
      WATCHDECK_DEMO_DATA: 'false',
      // many sign-ins from one address within a minute is this test, not an attack
      WATCHDECK_AUTH_RATE_LIMIT: '1000',
      WATCHDECK_AUTH_FLOW_RATE_LIMIT: '1000',
      WATCHDECK_AUTH_FLOWS_PER_ADDRESS: '10000',
    });
    base = server.baseUrl;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  const fresh = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    return { context, page: await context.newPage() };
  };
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
  const path = (page: Page) => new URL(page.url()).pathname;
  const whoamiStatus = async (page: Page) => (await page.request.get(`${base}/api/auth/whoami`)).status();

  /** The shell scrolls inside its main area, so a tall window is what shows every section. */
  async function tallScreenshot(page: Page, name: string) {
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: size.width, height: 2400 });
    await screenshot(page, name);
    await page.setViewportSize(size);
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** Registers an account in its own browser context; returns that (signed-in) context. */
  async function register(email: string, first = 'Test', last = 'User') {
    const { context, page } = await fresh();
    const since = mailbox.count();
    await page.goto(`${base}/registration`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill(first);
    await page.getByLabel('Last name').fill(last);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await poll(() => path(page)).toBe('/verification');
    return { context, page, since };
  }

  it('sends a signed-out visitor to /login, refuses a wrong password and comes back after signing in', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/profile-settings`);
    await poll(() => path(page)).toBe('/login');
    await poll(() => new URL(page.url()).searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await heading(page)).toBe('Sign in');
    await poll(() => page.getByRole('link', { name: 'Reset password' }).getAttribute('href')).toBe('/recovery');
    await screenshot(page, 'account-login');

    await signIn(page, ADMIN.email, 'not the password');
    const alert = page.getByRole('alert').filter({ hasText: 'The provided credentials are invalid' });
    await poll(() => alert.count()).toBe(1);
    await poll(() => page.getByLabel('Email').inputValue()).toBe(ADMIN.email); // kept for the retry
    await screenshot(page, 'account-login-error');

    await signIn(page, ADMIN.email, ADMIN.password);
    await poll(() => path(page)).toBe('/profile-settings');
    await poll(() => page.getByRole('heading', { name: 'Profile Settings', level: 2 }).count()).toBe(1);
    await context.close();
  });

  it('signs out from the user menu through the server', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/login`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await poll(() => path(page)).toBe('/topology');
    expect(await whoamiStatus(page)).toBe(200);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await poll(() => path(page)).toBe('/login');
    expect(await whoamiStatus(page)).toBe(401);
    await page.goto(`${base}/health`);
    await poll(() => path(page)).toBe('/login');
    await context.close();
  });

  it('signs in by itself with username and password in the query, then forgets them', async () => {
    const { context, page } = await fresh();
    const q = new URLSearchParams({ username: ADMIN.email, password: ADMIN.password, return_to: '/profile-settings' });
    // every address the page shows, including history.replaceState changes
    const seen: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) seen.push(f.url());
    });
    await page.goto(`${base}/login?${q}`);
    await poll(() => path(page)).toBe('/profile-settings');
    expect(await whoamiStatus(page)).toBe(200);
    // the credentials were taken out of the address (the entry replaced, not kept in the history)
    const logins = seen.filter((u) => new URL(u).pathname === '/login');
    expect(logins.length).toBeGreaterThan(1);
    expect(logins.at(-1)).not.toContain('password');
    await context.close();
  });

  it('asks to confirm the password on refresh (Confirm Action)', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/login`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await poll(() => path(page)).toBe('/topology');
    await page.goto(`${base}/login?refresh=true&return_to=/profile-settings`);
    await poll(() => heading(page)).toBe('Confirm Action');
    await poll(() =>
      page.getByRole('status').filter({ hasText: 'Please confirm this action by verifying that it is you.' }).count(),
    ).toBe(1);
    expect(await page.getByLabel('Email').count()).toBe(0); // it knows who you are
    await screenshot(page, 'account-confirm-action');
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => path(page)).toBe('/profile-settings');
    await context.close();
  });

  it('registers an account and verifies its address with the emailed code', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/registration`);
    expect(await heading(page)).toBe('Create account');
    await poll(() => page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    await page.getByLabel('Email').fill('rita@example.com');
    await page.getByLabel('First name').fill('Rita');
    await page.getByLabel('Last name').fill('Reg');
    await page.getByLabel('Password').fill('short');
    const since = mailbox.count();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await poll(() => page.getByRole('alert').filter({ hasText: 'at least 8 characters' }).count()).toBe(1);
    expect(await page.getByLabel('First name').inputValue()).toBe('Rita');
    await screenshot(page, 'account-registration-error');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await poll(() => path(page)).toBe('/verification');
    await poll(() => heading(page)).toBe('Verify your account');
    const code = codeFrom(await mailbox.next('rita@example.com', since));
    await screenshot(page, 'account-verification');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await poll(() =>
      page.getByRole('status').filter({ hasText: 'You successfully verified your email address.' }).count(),
    ).toBe(1);
    await page.getByRole('link', { name: 'Continue' }).click();
    await poll(() => path(page)).toBe('/topology');
    await page.getByRole('button', { name: 'User menu' }).click();
    await poll(() => page.getByRole('menu').textContent()).toContain('Rita Reg');
    await context.close();
  });

  it('follows a link away from /login even when its flow arrives while the next page loads', async () => {
    const { context, page } = await fresh();
    // the login flow's answer comes late, and the recovery page's code later still: the flow
    // arrives while the click's navigation is still on its way
    await page.route('**/api/auth/self-service/login/browser*', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.route('**/assets/recovery-page-*.js', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Reset password' }).click();
    await poll(() => heading(page)).toBe('Recover account');
    expect(path(page)).toBe('/recovery');
    await context.close();
  });

  it('recovers an account by an emailed code and sets a new password', async () => {
    const reg = await register('carl@example.com', 'Carl', 'Rec');
    await reg.context.close();

    const { context, page } = await fresh();
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Reset password' }).click();
    await poll(() => path(page)).toBe('/recovery');
    await poll(() => heading(page)).toBe('Recover account');
    await page.getByLabel('Email').fill('carl@example.com');
    const since = mailbox.count();
    await page.getByRole('button', { name: 'Send recovery code' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'recovery code has been sent' }).count()).toBe(1);
    await screenshot(page, 'account-recovery-sent');

    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await poll(() => page.getByRole('alert').filter({ hasText: 'The recovery code is invalid' }).count()).toBe(1);

    const code = codeFrom(await mailbox.next('carl@example.com', since));
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await poll(() => path(page)).toBe('/profile-settings');

    const section = page.getByTestId('settings-password');
    await section.getByLabel('Password').fill('a completely fresh passphrase');
    await section.getByRole('button', { name: 'Save' }).click();
    await poll(() => section.getByRole('status').filter({ hasText: 'Your changes have been saved!' }).count()).toBe(1);
    await tallScreenshot(page, 'account-recovery-new-password');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await poll(() => path(page)).toBe('/login');
    await signIn(page, 'carl@example.com', PASSWORD);
    await poll(() => page.getByRole('alert').filter({ hasText: 'credentials are invalid' }).count()).toBe(1);
    await signIn(page, 'carl@example.com', 'a completely fresh passphrase');
    await poll(() => path(page)).toBe('/topology');
    await context.close();
  });

  it('edits the profile', async () => {
    const reg = await register('paul@example.com', 'Paul', 'Prof');
    const page = reg.page;
    await page.goto(`${base}/profile-settings`);
    const section = page.getByTestId('settings-profile');
    await poll(() => section.getByLabel('First name').inputValue()).toBe('Paul');
    await section.getByLabel('First name').fill('');
    await section.getByRole('button', { name: 'Save' }).click();
    await poll(() => section.getByRole('alert').filter({ hasText: 'traits.name.first is missing' }).count()).toBe(1);
    await section.getByLabel('First name').fill('Pauline');
    await section.getByRole('button', { name: 'Save' }).click();
    await poll(() => section.getByRole('status').filter({ hasText: 'Your changes have been saved!' }).count()).toBe(1);
    await page.reload();
    await page.getByRole('button', { name: 'User menu' }).click();
    await poll(() => page.getByRole('menu').textContent()).toContain('Pauline Prof');
    await page.keyboard.press('Escape');
    for (const title of [
      'Profile Settings',
      'Change Password',
      'Manage Social Sign In',
      '2FA backup recovery codes',
      '2FA TOTP authenticator',
      'Hardware tokens and biometrics',
    ]) {
      expect(await page.getByRole('heading', { name: title, level: 2 }).count(), title).toBe(1);
    }
    expect(await page.getByRole('button', { name: 'Go back' }).count()).toBe(1);
    await tallScreenshot(page, 'account-profile-settings');
    await reg.context.close();
  });

  it('creates a personal access token shown once, uses it as a Bearer token, then revokes it', async () => {
    const reg = await register('otto@example.com', 'Otto', 'Token');
    const page = reg.page;
    await page.goto(`${base}/profile-settings`);
    const section = page.getByTestId('settings-tokens');
    await poll(() => section.getByText('No access tokens yet.').count()).toBe(1);
    await section.getByLabel('Token name').fill('ci pipeline');
    await section.getByLabel('Expires in').selectOption('90d');
    // a registered person is a viewer: a token may act with their roles or as a viewer, no higher
    const roleOptions = await section.getByLabel('Role').locator('option').allTextContents();
    expect(roleOptions).toEqual(['My roles', 'viewer']);
    await section.getByLabel('Role').selectOption('viewer');
    await section.getByRole('button', { name: 'Create token' }).click();
    await poll(() =>
      section.getByText('Access token will be shown only once. Please copy it and store it securely.').count(),
    ).toBe(1);
    const token = (await section.getByLabel('Access token', { exact: true }).textContent())!.trim();
    expect(token.length).toBeGreaterThan(20);
    await poll(() => section.getByRole('row').filter({ hasText: 'ci pipeline' }).count()).toBe(1);
    expect(
      await section.getByRole('row').filter({ hasText: 'ci pipeline' }).getByRole('cell').nth(1).textContent(),
    ).toBe('viewer');
    await tallScreenshot(page, 'account-access-token-created');

    // the token signs a script in as Tina, without any cookie
    const bearer = { authorization: `Bearer ${token}` };
    const me = await fetch(`${base}/api/auth/whoami`, { headers: bearer });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain('otto@example.com');

    // shown once: after a reload only its name, dates and last use remain
    await page.reload();
    await poll(() => section.getByRole('row').filter({ hasText: 'ci pipeline' }).count()).toBe(1);
    expect(await section.getByLabel('Access token', { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(token);

    await section.getByRole('button', { name: 'Revoke ci pipeline' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await poll(() => section.getByText('No access tokens yet.').count()).toBe(1);
    expect((await fetch(`${base}/api/auth/whoami`, { headers: bearer })).status).toBe(401);
    await reg.context.close();
  });

  it('enrols a TOTP app, then signs in with a code from it (Two-Factor Authentication)', async () => {
    const reg = await register('tina@example.com', 'Tina', 'Totp');
    const page = reg.page;
    await page.goto(`${base}/profile-settings`);
    const section = page.getByTestId('settings-totp');
    await poll(() => section.getByRole('img', { name: 'Authenticator app QR code' }).count()).toBe(1);
    const secret = (await section.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await tallScreenshot(page, 'account-totp-enrol');

    await section.getByLabel('Verify code').fill('123456' === (await generate({ secret })) ? '654321' : '123456');
    await section.getByRole('button', { name: 'Save' }).click();
    await poll(() => section.getByRole('alert').filter({ hasText: 'authentication code is invalid' }).count()).toBe(1);
    await section.getByLabel('Verify code').fill(await generate({ secret }));
    await section.getByRole('button', { name: 'Save' }).click();
    await poll(() => section.getByTestId('totp-linked').count()).toBe(1);
    expect(await section.getByRole('button', { name: 'Unlink TOTP Authenticator App' }).count()).toBe(1);
    await reg.context.close();

    const { context, page: other } = await fresh();
    await other.goto(`${base}/login?return_to=/profile-settings`);
    await signIn(other, 'tina@example.com', PASSWORD);
    await poll(() => heading(other)).toBe('Two-Factor Authentication');
    expect(await whoamiStatus(other)).toBe(403); // password alone is not enough any more
    await screenshot(other, 'account-two-factor');
    // the enrolment used this time step's code, which is not accepted twice; the next one is
    // within the clock drift the server allows
    await other
      .getByLabel('Authentication code')
      .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await other.getByRole('button', { name: 'Use authenticator' }).click();
    await poll(() => path(other)).toBe('/profile-settings');
    expect(await whoamiStatus(other)).toBe(200);

    // an aal1 session opening the app is sent to the second factor by the session check
    const { context: third, page: p3 } = await fresh();
    await p3.goto(`${base}/login`);
    await signIn(p3, 'tina@example.com', PASSWORD);
    await poll(() => heading(p3)).toBe('Two-Factor Authentication');
    await p3.goto(`${base}/health`);
    await poll(() => new URL(p3.url()).pathname).toBe('/login');
    await poll(() => heading(p3)).toBe('Two-Factor Authentication');
    await p3.getByRole('button', { name: 'Sign out' }).click();
    await poll(() => heading(p3)).toBe('Sign in');
    await third.close();
    await context.close();
  });

  it('generates backup recovery codes and signs in with one', async () => {
    const reg = await register('bea@example.com', 'Bea', 'Backup');
    const page = reg.page;
    await page.goto(`${base}/profile-settings`);
    const section = page.getByTestId('settings-lookup_secret');
    await section.getByRole('button', { name: 'Generate new backup recovery codes' }).click();
    const codes = section.getByTestId('lookup-codes').getByRole('listitem');
    await poll(() => codes.count()).toBe(12);
    const first = (await codes.first().textContent())!.trim();
    await tallScreenshot(page, 'account-backup-codes');
    await section.getByRole('button', { name: 'Confirm backup recovery codes' }).click();
    await poll(() => section.getByText('12 backup recovery codes left').count()).toBe(1);
    await reg.context.close();

    const { context, page: other } = await fresh();
    await other.goto(`${base}/login`);
    await signIn(other, 'bea@example.com', PASSWORD);
    await poll(() => heading(other)).toBe('Two-Factor Authentication');
    await other.getByLabel('Backup recovery code').fill(first);
    await other.getByRole('button', { name: 'Use backup recovery code' }).click();
    await poll(() => path(other)).toBe('/topology');
    await context.close();
  });

  it('adds a security key (a virtual authenticator) and signs in with it', async () => {
    // WebAuthn needs a domain as relying party, not an IP address: use localhost
    const local = base.replace('127.0.0.1', 'localhost');
    const reg = await register('kim@example.com', 'Kim', 'Key');
    await reg.context.close();
    const { context, page } = await fresh();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'usb',
        hasResidentKey: false,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto(`${local}/login?return_to=/profile-settings`);
    await signIn(page, 'kim@example.com', PASSWORD);
    await poll(() => path(page)).toBe('/profile-settings');
    const section = page.getByTestId('settings-webauthn');
    await section.getByLabel('Name of the security key').fill('my usb key');
    await section.getByRole('button', { name: 'Add security key' }).click();
    await poll(() => section.getByRole('button', { name: 'Remove security key "my usb key"' }).count()).toBe(1);
    await tallScreenshot(page, 'account-security-key');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await poll(() => path(page)).toBe('/login');

    // the same browser (the same virtual key) signs in again: password, then the key
    await signIn(page, 'kim@example.com', PASSWORD);
    await poll(() => heading(page)).toBe('Two-Factor Authentication');
    await page.getByRole('button', { name: 'Use security key' }).click();
    await poll(() => path(page)).toBe('/topology');
    expect((await page.request.get(`${local}/api/auth/whoami`)).status()).toBe(200);

    // and removes the key again
    await page.goto(`${local}/profile-settings`);
    const keys = page.getByTestId('security-keys');
    await keys.getByRole('button', { name: 'Remove security key "my usb key"' }).click();
    await poll(() => page.getByTestId('security-keys').count()).toBe(0);
    await context.close();
  });

  it('starts a flow over when it belongs to another browser, and shows flow errors on the error page', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/login`);
    await poll(() => new URL(page.url()).searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
    const foreign = new URL(page.url()).searchParams.get('flow')!;

    // another browser opens that flow: a CSRF violation, so it gets a fresh flow and a notice
    const { context: other, page: p2 } = await fresh();
    await p2.goto(`${base}/login?flow=${foreign}`);
    await poll(() =>
      p2
        .getByRole('alert')
        .filter({ hasText: 'A security violation was detected, please fill out the form again.' })
        .count(),
    ).toBe(1);
    await poll(() => new URL(p2.url()).searchParams.get('flow')).not.toBe(foreign);
    await screenshot(p2, 'account-flow-restarted');
    // and the fresh flow works
    await signIn(p2, ADMIN.email, ADMIN.password);
    await poll(() => path(p2)).toBe('/topology');
    await other.close();

    // an unknown flow id in the address just starts a new flow
    const unknown = '00000000-0000-4000-8000-0000000000aa';
    await page.goto(`${base}/recovery?flow=${unknown}`);
    const flowNow = () => new URL(page.url()).searchParams.get('flow') ?? '';
    await poll(() => /^[0-9a-f-]{36}$/.test(flowNow()) && flowNow() !== unknown).toBe(true);
    expect(await heading(page)).toBe('Recover account');

    // a recovery (invitation) link for an unknown flow: the server sends the browser to the
    // flow-error page, which fetches the stored error by its id
    await page.goto(`${base}/api/auth/self-service/recovery?flow=${unknown}&token=nope`);
    await poll(() => path(page)).toMatch(/^\/error\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('heading', { name: 'An error occurred' }).count()).toBe(1);
    // the catalogue's message and a way forward, never the stored JSON
    expect(await page.getByTestId('flow-error-body').locator('p').allInnerTexts()).toEqual([
      'Your interaction expired, please fill out the form again.',
      'The recovery link is not valid.',
    ]);
    expect(await page.getByRole('link', { name: 'Recover account' }).getAttribute('href')).toBe('/recovery');
    await screenshot(page, 'account-flow-error');
    await page.getByRole('link', { name: 'Go back' }).click();
    await poll(() => path(page)).toBe('/login');

    // an error id that does not exist (or was pruned) leads home
    await page.goto(`${base}/error/${unknown}`);
    await poll(() => path(page)).not.toMatch(/^\/error/);
    await context.close();
  });

  // Ageing a flow needs the database; PGlite lives inside the server process, so only on PostgreSQL.
  it.skipIf(!process.env.TEST_DATABASE_URL)('starts an expired flow over with the catalogue message', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/login`);
    await poll(() => new URL(page.url()).searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
    const id = new URL(page.url()).searchParams.get('flow')!;
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      await db.query(`UPDATE identity_flows SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    } finally {
      await db.end();
    }
    await signIn(page, ADMIN.email, ADMIN.password);
    await poll(() =>
      page.getByRole('alert').filter({ hasText: 'Your interaction expired, please fill out the form again.' }).count(),
    ).toBe(1);
    // the server made a replacement flow: the page moved on to it
    await poll(() => new URL(page.url()).searchParams.get('flow')).not.toBe(id);
    await screenshot(page, 'account-flow-expired');
    await signIn(page, ADMIN.email, ADMIN.password);
    await poll(() => path(page)).toBe('/topology');
    await context.close();
  });

  it('refuses a return_to of another site with the catalogue message', async () => {
    const { context, page } = await fresh();
    await page.goto(`${base}/login?return_to=${encodeURIComponent('https://evil.example/phish')}`);
    await poll(() => page.getByRole('alert').filter({ hasText: 'The return_to address is not allowed.' }).count()).toBe(
      1,
    );
    await poll(() => new URL(page.url()).searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
    await signIn(page, ADMIN.email, ADMIN.password);
    await poll(() => path(page)).toBe('/topology');
    await context.close();
  });
});
