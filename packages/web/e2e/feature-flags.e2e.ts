// /settings/feature-flags on a server of its own, because local flags come from the server's
// environment (WATCHDECK_PROPERTIES): list, add with the seed's validation, update, the read-only
// local flag, a flag that switches a screen off, and removal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, poll } from './browser.ts';
import { startServer, type StartedServer } from './server.ts';

describe('feature flags', () => {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    server = await startServer({ AUTH: 'none', WATCHDECK_PROPERTIES: 'e2e.pinned=from-env' });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
  const nav = () => page.getByRole('navigation', { name: 'Main navigation' });

  it('lists database flags and the local ones from the environment', async () => {
    await page.goto(`${server.baseUrl}/settings/feature-flags`);
    await poll(() => row('demo.seeded').count()).toBe(1);
    await poll(() => row('e2e.pinned').count()).toBe(1);
    expect(await row('e2e.pinned').innerText()).toMatch(/from-env[\s\S]*local/);
    expect(await row('demo.seeded').innerText()).toMatch(/database/);
    await screenshot(page, 'feature-flags-list');
  });

  it("asks for both a name and a value: 'please provide all details'", async () => {
    await page.getByRole('button', { name: 'Add Feature Flag' }).click();
    await poll(() => dialog().getByRole('heading', { name: 'Add Feature Flag' }).count()).toBe(1);
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog().getByRole('alert').innerText()).toBe('please provide all details');
    await dialog().getByLabel('Name').fill('e2e.flag');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog().getByRole('alert').innerText()).toBe('please provide all details');
    await screenshot(page, 'feature-flags-validation');
    await dialog().getByLabel('Value').fill('on');
    await dialog().getByLabel('Description').fill('Created by the browser test');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Feature flag added successfully').count()).toBe(1);
    await poll(() => dialog().count()).toBe(0);
    await poll(() => row('e2e.flag').count()).toBe(1);
    expect(await row('e2e.flag').innerText()).toMatch(
      /on[\s\S]*Created by the browser test[\s\S]*database[\s\S]*System/,
    );
  });

  it('updates a flag; its name stays', async () => {
    await row('e2e.flag').click();
    await poll(() => dialog().getByRole('heading', { name: 'Edit Feature Flag' }).count()).toBe(1);
    expect(await dialog().getByLabel('Name').isDisabled()).toBe(true);
    await dialog().getByLabel('Value').fill('off');
    await dialog().getByRole('button', { name: 'Update' }).click();
    await poll(() => toast('Feature flag updated successfully').count()).toBe(1);
    await poll(() => row('e2e.flag').innerText()).toMatch(/off/);
  });

  it('shows a local flag read-only, without Save', async () => {
    await row('e2e.pinned').click();
    await poll(() => dialog().getByText('Cannot edit local feature flags', { exact: false }).count()).toBe(1);
    expect(await dialog().getByLabel('Value').isDisabled()).toBe(true);
    expect(
      await dialog()
        .getByRole('button', { name: /Save|Update|Delete/ })
        .count(),
    ).toBe(0);
    await screenshot(page, 'feature-flags-local');
    await dialog().getByRole('button', { name: 'Close', exact: true }).last().click(); // the footer's, not the corner X
    await poll(() => dialog().count()).toBe(0);
  });

  it('switches a screen off and on again with a flag', async () => {
    await poll(() => nav().getByRole('link', { name: 'Event Queue' }).count()).toBe(1);
    await row('settings.event_queue_status.disable').click();
    await dialog().getByLabel('Value').fill('true');
    await dialog().getByRole('button', { name: 'Update' }).click();
    await poll(() => nav().getByRole('link', { name: 'Event Queue' }).count()).toBe(0);
    await screenshot(page, 'feature-flags-event-queue-off');
    await row('settings.event_queue_status.disable').click();
    await dialog().getByLabel('Value').fill('false');
    await dialog().getByRole('button', { name: 'Update' }).click();
    await poll(() => nav().getByRole('link', { name: 'Event Queue' }).count()).toBe(1);
  });

  it('removes a flag', async () => {
    await row('e2e.flag').click();
    await dialog().getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Yes, remove' }).click();
    await poll(() => toast('Feature flag removed successfully').count()).toBe(1);
    await poll(() => row('e2e.flag').count()).toBe(0);
    await screenshot(page, 'feature-flags-after-remove');
  });
});
