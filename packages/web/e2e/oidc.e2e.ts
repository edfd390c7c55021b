// Sign-in through an OpenID Connect provider (AUTH=oidc): a real provider (oidc-provider, the
// server tests' one, as its own process) on a local port, a real server registered with it as a client. A signed-out
// visitor is sent from /login to the provider's own login page, comes back into the app with the
// role of their group, and signs out through the provider's logout page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, poll, screenshot } from './browser.ts';
import { freePort, startOidcProvider, startServer, type StartedOidcProvider, type StartedServer } from './server.ts';

describe('sign-in through an OpenID Connect provider', () => {
  let server: StartedServer;
  let op: StartedOidcProvider;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    op = await startOidcProvider(base);
    server = await startServer({
      PORT: String(port),
      AUTH: 'oidc',
      WATCHDECK_PUBLIC_URL: base,
      WATCHDECK_OIDC_ISSUER: op.issuer,
      WATCHDECK_OIDC_CLIENT_ID: op.clientId,
      WATCHDECK_OIDC_CLIENT_SECRET: op.clientSecret,
      WATCHDECK_OIDC_ROLE_MAP: 'wd-admins=admin',
      WATCHDECK_DEMO_DATA: 'false',
    });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await op?.stop();
  });

  const path = (page: Page) => new URL(page.url()).pathname;
  const atProvider = (page: Page) => page.url().startsWith(op.issuer);
  const whoami = async (page: Page) => page.request.get(`${base}/api/auth/whoami`);

  for (const width of [1024, 1440]) {
    it(`signs in at the provider and out again at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      // the provider's pages import a web font; this machine has no network
      await page.route(/fonts\.googleapis\.com/, (r) => r.abort());

      await page.goto(`${base}/incidents`);
      // /login -> the provider's login page, with where to come back kept
      await poll(() => atProvider(page) && path(page).startsWith('/interaction/')).toBe(true);
      await poll(() => page.locator('input[name="login"]').count()).toBe(1);
      await screenshot(page, `oidc-provider-login-${width}`);
      await page.locator('input[name="login"]').fill('alice');
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      // the provider asks to share the profile with the console
      await page.getByRole('button', { name: 'Continue' }).click();

      await poll(() => page.url()).toBe(`${base}/incidents`);
      await poll(() => page.getByRole('button', { name: 'User menu' }).count()).toBe(1);
      const me = await (await whoami(page)).json();
      expect(me).toMatchObject({ authMode: 'oidc', roles: ['admin'], user: { email: 'alice@example.com' } });
      await page.getByRole('button', { name: 'User menu' }).click();
      await poll(() => page.getByText('alice@example.com').count()).toBe(1);
      await screenshot(page, `oidc-signed-in-${width}`);

      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      // the local session is gone at once; the provider asks before ending its own
      await poll(() => atProvider(page)).toBe(true);
      expect((await whoami(page)).status()).toBe(401);
      await screenshot(page, `oidc-provider-logout-${width}`);
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      // back at /login, which sends a signed-out browser to the provider's login again
      await poll(() => atProvider(page) && path(page).startsWith('/interaction/')).toBe(true);
      await poll(() => page.locator('input[name="login"]').count()).toBe(1);
      expect((await whoami(page)).status()).toBe(401);
      await context.close();
    });
  }
});
