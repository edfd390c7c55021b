// /settings/connections against the shared server (demo data, AUTH=none): the list, the type
// chooser, per-type forms with the secret-or-value input, create / edit / validate / delete, and
// the connection test against this machine's PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

const PG = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const PG_USER = PG.username || 'postgres';
PG.username = '';
const PG_URL = PG.toString();
const SECRET = 'e2e-Secr3t-never-shown';

describe('connections', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 950 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const dialog = () => page.getByRole('dialog');
  // a required field's label ends in an asterisk
  const field = (label: string) => dialog().getByLabel(new RegExp(`^${label}\\*?$`));
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
  const toast = (text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });
  const open = async (name: string) => {
    await row(name).click();
    await poll(() => dialog().getByRole('heading', { name: 'Edit Connection' }).count()).toBe(1);
  };
  const close = async () => {
    await page.keyboard.press('Escape');
    await poll(() => dialog().count()).toBe(0);
  };

  it('lists the connections and offers every type in a grid of 5 per row', async () => {
    await page.goto(`${baseUrl()}/settings/connections`);
    await poll(() => row('orders-db').count()).toBe(1);
    await poll(() => row('sre-slack').getByText('Slack', { exact: true }).count()).toBe(1);
    await screenshot(page, 'connections-list');

    await page.getByRole('button', { name: 'Add Connection' }).click();
    await poll(() => dialog().getByRole('heading', { name: 'Add Connection' }).count()).toBe(1);
    const grid = dialog().getByTestId('connection-type-grid').first();
    const columns = await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    expect(columns).toBe(5);
    for (const title of ['Postgres', 'MySQL', 'Kubernetes', 'Slack', 'Email', 'Generic Webhook', 'Git', 'Folder']) {
      expect(await dialog().getByRole('button', { name: title, exact: true }).count(), title).toBe(1);
    }
    expect(await dialog().getByRole('button', { name: 'JMeter', exact: true }).count()).toBe(0); // hidden type
    await screenshot(page, 'connections-type-chooser');
  });

  it('validates the required fields of the type, then creates the connection', async () => {
    await dialog().getByRole('button', { name: 'Postgres', exact: true }).click();
    await poll(() => field('Namespace').inputValue()).toBe('default');
    await dialog().getByRole('button', { name: 'Save' }).click();
    // name, url, username and password are required for databases
    await poll(() => dialog().getByText('This field is required').count()).toBe(4);
    await screenshot(page, 'connections-validation');

    await field('Name').fill('e2e-postgres');
    await field('URL').fill(PG_URL);
    await field('Username').fill(PG_USER);
    // the secret source switch: a Secret reference, then back to Static, which clears it
    await dialog().getByRole('radiogroup', { name: 'Password source' }).getByRole('radio', { name: 'Secret' }).click();
    await dialog().getByLabel('Password Secret name').fill('db-creds');
    await dialog().getByLabel('Password Secret key').fill('password');
    await dialog().getByRole('radiogroup', { name: 'Password source' }).getByRole('radio', { name: 'Static' }).click();
    await poll(() => field('Password').inputValue()).toBe('');
    await field('Password').fill(SECRET);
    await poll(() => dialog().getByText('This field is required').count()).toBe(0);
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Connection added successfully').count()).toBe(1);
    await poll(() => dialog().count()).toBe(0);
    await poll(() => row('e2e-postgres').count()).toBe(1);
  });

  it('never shows the stored secret again, and tests the connection against PostgreSQL', async () => {
    await open('e2e-postgres');
    expect(await field('URL').inputValue()).toBe(PG_URL);
    expect(await field('Name').isDisabled()).toBe(true);
    expect(await field('Password').inputValue()).toBe('');
    expect(await field('Password').getAttribute('placeholder')).toMatch(/Stored securely/);
    expect(await page.content()).not.toContain(SECRET);
    await dialog().getByRole('button', { name: 'Test Connection' }).click();
    await poll(() => toast('Connection successful').count(), 15000).toBe(1);
    await screenshot(page, 'connections-test-success');
  });

  it('updates the connection (the stored password is kept) and shows the server error of a failing test', async () => {
    const bad = new URL(PG_URL);
    bad.pathname = '/e2e_no_such_database';
    await field('URL').fill(bad.toString());
    await dialog().getByRole('button', { name: 'Update' }).click();
    await poll(() => toast('Connection updated successfully').count()).toBe(1);
    await poll(() => dialog().count()).toBe(0);
    await open('e2e-postgres');
    expect(await field('URL').inputValue()).toBe(bad.toString());
    await dialog().getByRole('button', { name: 'Test Connection' }).click();
    await poll(() => toast(/e2e_no_such_database/).count(), 15000).toBe(1);
    await screenshot(page, 'connections-test-error');
    await close();
  });

  it('stores a ConfigMap reference and opens it on the ConfigMap source', async () => {
    await page.getByRole('button', { name: 'Add Connection' }).click();
    await dialog().getByRole('button', { name: 'HTTP', exact: true }).click();
    await field('Name').fill('e2e-http');
    await field('URL').fill(`${baseUrl()}/api/health`);
    await dialog()
      .getByRole('radiogroup', { name: 'Username source' })
      .getByRole('radio', { name: 'ConfigMap' })
      .click();
    await dialog().getByLabel('Username ConfigMap name').fill('http-config');
    await dialog().getByRole('button', { name: 'Save' }).click();
    // a reference needs both the name and the key
    await poll(() => dialog().getByText('This field is required').count()).toBe(1);
    await dialog().getByLabel('Username ConfigMap key').fill('user');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Connection added successfully').count()).toBeGreaterThan(0);
    await poll(() => row('e2e-http').count()).toBe(1);
    await open('e2e-http');
    const source = dialog().getByRole('radiogroup', { name: 'Username source' });
    expect(await source.getByRole('radio', { name: 'ConfigMap' }).getAttribute('aria-checked')).toBe('true');
    expect(await dialog().getByLabel('Username ConfigMap name').inputValue()).toBe('http-config');
    expect(await dialog().getByLabel('Username ConfigMap key').inputValue()).toBe('user');
    await screenshot(page, 'connections-configmap-reference');
    // the value lives in a Kubernetes config map this server cannot read: not testable here
    await dialog().getByRole('button', { name: 'Test Connection' }).click();
    await poll(() => toast('We currently do not support testing this connection type').count(), 15000).toBe(1);
    await close();
  });

  it('deletes connections after confirmation', async () => {
    for (const name of ['e2e-postgres', 'e2e-http']) {
      await open(name);
      await dialog().getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Connection ?' });
      await poll(() => confirm.count()).toBe(1);
      if (name === 'e2e-postgres') await screenshot(page, 'connections-delete-confirm');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await poll(() => row(name).count()).toBe(0);
    }
    await poll(() => toast('Connection deleted successfully').count()).toBeGreaterThan(0);
    await screenshot(page, 'connections-after-delete');
  });
});
