/** The machine is shared and at times slow: wait up to 10 s for the page to catch up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, poll } from './browser.ts';
import { startServer, type StartedServer } from './server.ts';

// The users page (seed 002 section 2.17) and what roles and feature flags hide, against a real
// server with sign-in on (AUTH=kratos) and the demo people. Sign-in goes through the API flow in
// each browser context, so the pages see a real session cookie.

const ADMIN = { email: 'admin@example.com', password: 'admin passphrase for users e2e' };

/** The login flow over HTTP inside a context: its cookies (CSRF, then session) stay in the context. */
async function signIn(request: APIRequestContext, base: string, email: string, password: string) {
  const flow = await (
    await request.get(`${base}/api/auth/self-service/login/browser`, { headers: { accept: 'application/json' } })
  ).json();
  const csrf = flow.ui.nodes.find((n: { attributes: { name: string } }) => n.attributes.name === 'csrf_token')
    .attributes.value;
  const res = await request.post(`${base}/api/auth/self-service/login?flow=${flow.id}`, {
    headers: { accept: 'application/json' },
    data: { csrf_token: csrf, method: 'password', identifier: email, password },
  });
  if (res.status() !== 200) throw new Error(`sign-in as ${email}: ${res.status()} ${await res.text()}`);
}

describe('users page', () => {
  let server: StartedServer;
  let browser: Browser;
  let base: string;
  let admin: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({
      AUTH: 'kratos',
      WATCHDECK_ADMIN_EMAIL: ADMIN.email,
      WATCHDECK_ADMIN_PASSWORD: ADMIN.password,
      WATCHDECK_AUTH_RATE_LIMIT: '1000',
      WATCHDECK_AUTH_FLOW_RATE_LIMIT: '1000',
      WATCHDECK_AUTH_FLOWS_PER_ADDRESS: '10000',
    });
    base = server.baseUrl;
    browser = await launch();
    admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await signIn(admin.request, base, ADMIN.email, ADMIN.password);
    page = await admin.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const row = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('cell').getByText(name, { exact: true }) });
  const toast = (text: string) => page.getByText(text, { exact: true });

  /** A person invited by the admin and signed in through their invitation link, in a context of their own. */
  async function invitedPerson(role: string, email: string): Promise<BrowserContext> {
    const inv = await admin.request.post(`${base}/api/auth/invite_user`, {
      data: { firstName: 'Vic', lastName: role, email, role },
    });
    expect(inv.status()).toBe(201);
    const { link } = await inv.json();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const follow = await ctx.request.get(link, { maxRedirects: 0 });
    expect(follow.status()).toBe(303);
    return ctx;
  }

  it('lists the users with the highest of admin, editor, viewer as their role', async () => {
    await page.goto(`${base}/settings/users`);
    await poll(() => row('Ava Thompson').count()).toBe(1);
    const roleOf = (name: string) => row(name).getByRole('cell').nth(2).textContent();
    expect(await roleOf('Ava Thompson')).toBe('admin');
    expect(await roleOf('Liam Chen')).toBe('editor');
    expect(await roleOf('Olivia Nguyen')).toBe('viewer'); // commander + responder: shown as viewer
    expect(await roleOf('Ethan Brooks')).toBe('viewer');
    await poll(() => page.getByText('Page 1 of 1').count()).toBe(1);
    await screenshot(page, 'users-list');
  });

  it('invites a user: the seed messages for a bad form, then the link, copied to the clipboard', async () => {
    await page.goto(`${base}/settings/users`);
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    for (const message of [
      'Please provide valid first name',
      'Please provide valid last name',
      'Please provide valid email',
      'Please select any role',
    ]) {
      await poll(() => dialog.getByText(message).count(), 10_000, message).toBe(1);
    }
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByLabel('First Name').click(); // leave the field: validated once touched
    await poll(() => dialog.getByText('Entered value does not match email format').count()).toBe(1);
    await screenshot(page, 'users-invite-errors');

    await dialog.getByLabel('First Name').fill('Ivy');
    await dialog.getByLabel('Last Name').fill('New');
    await dialog.getByLabel('Email').fill('ivy.new@example.com');
    await dialog.getByLabel('Role').selectOption('editor');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await poll(() =>
      toast('User has been invited successfully. Please share the link with the user.').count(),
    ).toBeGreaterThan(0);
    const link = await dialog.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${base}/api/auth/self-service/recovery\\?flow=[0-9a-f-]{36}&token=`));
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await poll(() => toast('Link copied to clipboard').count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, 'users-invite-link');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await poll(() => row('Ivy New').count()).toBe(1);

    // the link signs the invitee in and opens the account settings to choose a password
    const invitee = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const ivy = await invitee.newPage();
    await ivy.goto(link);
    await ivy.waitForURL((u) => u.pathname === '/profile-settings');
    const who = await (await invitee.request.get(`${base}/api/auth/whoami`)).json();
    expect(who.roles).toEqual(['editor']);
    await invitee.close();

    // the link again, now used: the catalogue's message and the way to recover the account,
    // not the stored error's JSON
    const again = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const used = await again.newPage();
    await used.goto(link);
    await used.waitForURL((u) => u.pathname.startsWith('/error/'));
    await poll(() => used.getByTestId('flow-error-body').locator('p').allInnerTexts()).toEqual([
      'Your interaction expired, please fill out the form again.',
      'The recovery link was already used or has expired.',
    ]);
    expect(await used.locator('body').innerText()).not.toMatch(/[{}]|self_service_flow_expired/);
    await screenshot(used, 'users-invite-link-used');
    await used.getByRole('link', { name: 'Recover account' }).click();
    await poll(() => used.getByRole('heading', { name: 'Recover account' }).count()).toBe(1);
    await again.close();
  });

  it('edits a user: name and role', async () => {
    await page.goto(`${base}/settings/users`);
    await page.getByRole('button', { name: 'Edit Ivy New' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    expect(await dialog.getByLabel('Role').inputValue()).toBe('editor');
    await dialog.getByLabel('Last Name').fill('');
    await dialog.getByLabel('First Name').click();
    await poll(() => dialog.getByText('Please provide valid last name').count()).toBe(1);
    await dialog.getByLabel('Last Name').fill('Renamed');
    await dialog.getByLabel('Role').selectOption('viewer');
    await screenshot(page, 'users-edit');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Ivy Renamed updated successfully').count()).toBe(1);
    await poll(() => dialog.count()).toBe(0);
    await poll(() => row('Ivy Renamed').getByRole('cell').nth(2).textContent()).toBe('viewer');
  });

  it('deletes a user after the confirmation', async () => {
    await page.goto(`${base}/settings/users`);
    await page.getByRole('button', { name: 'Delete Ivy Renamed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete User ?' });
    await poll(() => dialog.getByText('ivy.new@example.com', { exact: false }).count()).toBe(1);
    await screenshot(page, 'users-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await poll(() => toast('user deleted successfully').count()).toBe(1);
    await poll(() => row('Ivy Renamed').count()).toBe(0);
    // the admin cannot delete themselves: their own row's button is off
    expect(await page.getByRole('button', { name: 'Delete Watchdeck Admin' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete Ava Thompson' }).isDisabled()).toBe(false);
  });

  it("lists a user's access tokens for the admin, who revokes one", async () => {
    const person = await invitedPerson('commander', 'tom.tokens@example.com');
    const mint = async (data: Record<string, unknown>) => {
      const r = await person.request.post(`${base}/api/auth/tokens`, { data });
      expect(r.status()).toBe(201);
      return (await r.json()) as { token: string };
    };
    const laptop = await mint({ name: 'laptop' });
    const pager = await mint({ name: 'pager bot', role: 'responder', expires_in: '90d' });
    const whoami = (token: string) =>
      fetch(`${base}/api/auth/whoami`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

    await page.goto(`${base}/settings/users`);
    await page.getByRole('button', { name: 'Access tokens of Vic commander' }).click();
    const dialog = page.getByRole('dialog', { name: 'Access tokens of Vic commander' });
    const tokenRow = (name: string) => dialog.getByRole('row').filter({ hasText: name });
    await poll(() => tokenRow('laptop').count()).toBe(1);
    expect(await tokenRow('laptop').getByRole('cell').nth(1).textContent()).toBe('Their roles');
    expect(await tokenRow('pager bot').getByRole('cell').nth(1).textContent()).toBe('responder');
    expect(await dialog.textContent()).not.toContain(laptop.token);
    await screenshot(page, 'users-access-tokens');

    await dialog.getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByRole('dialog', { name: 'Revoke access token' }).getByRole('button', { name: 'Revoke' }).click();
    await poll(() => toast('laptop revoked').count()).toBe(1);
    await poll(() => tokenRow('laptop').count()).toBe(0);
    expect(await tokenRow('pager bot').count()).toBe(1);
    expect(await whoami(laptop.token)).toBe(401);
    expect(await whoami(pager.token)).toBe(200);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await poll(() => dialog.count()).toBe(0);
    await person.close();
  });

  it('hides Settings from a viewer and refuses them the users page', async () => {
    const viewer = await invitedPerson('viewer', 'vic.viewer@example.com');
    const vp = await viewer.newPage();
    await vp.goto(`${base}/health`);
    const nav = vp.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => nav.getByRole('link', { name: 'Health' }).count()).toBe(1);
    expect(await nav.getByRole('button', { name: 'Settings' }).count()).toBe(0);
    expect(await nav.getByText('Settings').count()).toBe(0);
    await screenshot(vp, 'users-viewer-sidebar');
    await vp.goto(`${base}/settings/users`);
    await poll(() => vp.getByRole('alert').filter({ hasText: 'Unauthorized' }).count()).toBe(1);
    expect((await viewer.request.get(`${base}/api/auth/users`)).status()).toBe(403);
    await screenshot(vp, 'users-viewer-unauthorized');

    // an editor sees Settings and may read the users (editors read everything), but not change them
    const editor = await invitedPerson('editor', 'vic.editor@example.com');
    const ep = await editor.newPage();
    await ep.goto(`${base}/health`);
    const enav = ep.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => enav.getByRole('button', { name: 'Settings' }).count()).toBe(1);
    if ((await enav.getByRole('button', { name: 'Settings' }).getAttribute('aria-expanded')) === 'false')
      await enav.getByRole('button', { name: 'Settings' }).click();
    await enav.getByRole('link', { name: 'Users' }).click();
    await ep.waitForURL((u) => u.pathname === '/settings/users');
    await poll(() => ep.getByRole('row').filter({ hasText: 'Ava Thompson' }).count()).toBe(1);
    expect(await ep.getByRole('button', { name: 'Invite User' }).count()).toBe(0);
    expect(await ep.getByRole('button', { name: 'Edit Ava Thompson' }).count()).toBe(0);
    expect(await ep.getByRole('button', { name: 'Delete Ava Thompson' }).count()).toBe(0);
    expect(await ep.getByRole('button', { name: 'Access tokens of Ava Thompson' }).count()).toBe(0);
    await screenshot(ep, 'users-editor-read-only');
    await viewer.close();
    await editor.close();
  });

  it('drops a disabled feature from the sidebar, and its routes answer 404 on the server', async () => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const openSettings = async () => {
      const button = nav.getByRole('button', { name: 'Settings' });
      await poll(() => button.count()).toBe(1);
      if ((await button.getAttribute('aria-expanded')) === 'false') await button.click();
    };
    await page.goto(`${base}/health`);
    await openSettings();
    await poll(() => nav.getByRole('link', { name: 'Users' }).count()).toBe(1);

    const set = await admin.request.post(`${base}/api/properties`, {
      data: { name: 'settings.users.disable', value: 'true' },
    });
    expect(set.status()).toBe(201);
    try {
      // the flag routes drop the server's flag cache: off on the next request
      await poll(async () => (await admin.request.get(`${base}/api/auth/users`)).status(), 15_000).toBe(404);
      const invite = await admin.request.post(`${base}/api/auth/invite_user`, {
        data: { firstName: 'No', lastName: 'One', email: 'no.one@example.com', role: 'viewer' },
      });
      expect(invite.status()).toBe(404);

      await page.goto(`${base}/health`);
      await openSettings();
      await poll(() => nav.getByRole('link', { name: 'Teams' }).count()).toBe(1);
      expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
      await screenshot(page, 'users-feature-disabled-sidebar');
      await page.goto(`${base}/settings/users`);
      await poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    } finally {
      // a script's body-less write says it is JSON (the server's cross-site check, README "Security")
      const del = await admin.request.delete(`${base}/api/properties/settings.users.disable`, {
        headers: { 'content-type': 'application/json' },
      });
      expect(del.status()).toBe(204);
    }
    await poll(async () => (await admin.request.get(`${base}/api/auth/users`)).status(), 15_000).toBe(200);
  });
});
