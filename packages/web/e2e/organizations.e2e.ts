// Hosted mode's organisations against a real server (WATCHDECK_HOSTED=true on PostgreSQL, sign-in
// through the own identity service): the organisation picker, creating one, the provisioning wait
// until its migrations finish, and the app landing in it with the switcher in the top bar and
// every API call going to the organisation's backend with its bearer token. PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import pg from 'pg';
import { launch, poll, screenshot } from './browser.ts';
import { startServer, type StartedServer } from './server.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin passphrase for e2e' };

describe.skipIf(!process.env.TEST_DATABASE_URL)('organisations (hosted mode)', () => {
  let server: StartedServer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    server = await startServer({
      AUTH: 'kratos',
      WATCHDECK_HOSTED: 'true',
      WATCHDECK_ADMIN_EMAIL: ADMIN.email,
      WATCHDECK_ADMIN_PASSWORD: ADMIN.password,
      WATCHDECK_DEMO_DATA: 'false',
      WATCHDECK_AUTH_RATE_LIMIT: '1000',
      WATCHDECK_AUTH_FLOW_RATE_LIMIT: '1000',
    });
    base = server.baseUrl;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signIn(page: Page) {
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  for (const width of [1024, 1440]) {
    it(`creates an organisation, waits while it is provisioned, lands in it (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const orgCalls: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes(`/org/acme-${width}/api/`)) orgCalls.push(r.headers().authorization ?? '');
      });
      try {
        await signIn(page);
        await page.getByRole('heading', { name: 'Choose an organisation' }).waitFor();
        await screenshot(page, `organizations-picker-${width}`);

        // the migrator's advisory lock, held here, keeps the new organisation provisioning
        const holder = new pg.Client({ connectionString: server.databaseUrl });
        await holder.connect();
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock(727274)');
        try {
          await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Acme ${width}`);
          await page.getByRole('button', { name: 'Create', exact: true }).click();
          await page.getByText('Please wait, instance provisioning in-progress ...').waitFor();
          await screenshot(page, `organizations-provisioning-${width}`);
          // still waiting a poll later: nothing lands before the migrations finish
          await page.waitForTimeout(2500);
          expect(await page.getByText('Please wait, instance provisioning in-progress ...').isVisible()).toBe(true);
        } finally {
          await holder.query('COMMIT');
          await holder.end();
        }

        // lands through /organizations/orgs-switched at the app's home, inside the organisation
        await poll(() => new URL(page.url()).pathname, 60_000).not.toMatch(/^\/(organizations|$)/);
        const switcher = page.getByRole('button', { name: 'Organisation switcher' });
        await switcher.waitFor({ timeout: 30_000 });
        await poll(() => switcher.textContent()).toContain(`Acme ${width}`);
        await poll(() => orgCalls.length).toBeGreaterThan(0);
        expect(orgCalls.every((h) => /^Bearer wdpat_/.test(h))).toBe(true);
        await screenshot(page, `organizations-landed-${width}`);

        await switcher.click();
        await page.getByRole('menuitem', { name: 'Create or join an organisation' }).waitFor();
        await screenshot(page, `organizations-switcher-${width}`);
        await page.keyboard.press('Escape');
      } finally {
        await context.close();
      }
    });
  }
});
