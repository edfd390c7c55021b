// The machine is shared and busy: give the page time to load its chunks and data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

/** Replaces the whole document of the CodeMirror editor labelled `label` (typing as a person would). */
async function setEditor(page: Page, label: string, text: string) {
  const editor = page.locator(`.cm-content[aria-label="${label}"]`).first();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const headers = async (page: Page) =>
  (await page.getByRole('table', { name: 'Resources' }).locator('thead th').allInnerTexts()).map((t) => t.trim());

describe('generic settings resources', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists health checks with the seed columns (Namespace hidden) and their job status', async () => {
    await page.goto(`${baseUrl()}/settings/canaries`);
    const table = page.getByRole('table', { name: 'Resources' });
    // the demo canary that watches this console
    await poll(() => table.getByRole('row', { name: /^console / }).count()).toBe(1);
    expect(await headers(page)).toEqual([
      'NAME',
      'SOURCE',
      'SCHEDULE',
      'JOB STATUS',
      'LAST RUN',
      'LAST FAILED',
      'TAGS',
      'CREATED',
      'UPDATED',
      'CREATED BY',
    ]);
    const row = table.getByRole('row', { name: /^console / });
    await poll(() => row.innerText()).toMatch(/@every 1m/);
    await poll(() => row.innerText()).toMatch(/env: demo/);
    await poll(() => row.innerText()).toMatch(/\+1 more/);
    // its job status is the engine's: it runs every minute and all its checks pass
    await poll(async () => {
      if (
        (await row
          .locator('[data-status]')
          .getAttribute('data-status', { timeout: 5000 })
          .catch(() => null)) === 'SUCCESS'
      )
        return true;
      await page.reload();
      await row.waitFor({ timeout: 15_000 });
      return false;
    }, 90_000).toBe(true);
    await screenshot(page, 'settings-canaries-list');
  }, 120_000);

  it('hides Schedule and Namespace on teams and Schedule on topologies', async () => {
    await page.goto(`${baseUrl()}/settings/teams`);
    await poll(() => page.getByRole('row', { name: /Platform/ }).count()).toBe(1);
    const teams = await headers(page);
    expect(teams).not.toContain('SCHEDULE');
    expect(teams).not.toContain('NAMESPACE');
    await page.goto(`${baseUrl()}/settings/topologies`);
    await poll(() => page.getByRole('row', { name: /production/ }).count()).toBeGreaterThan(0);
    const topo = await headers(page);
    expect(topo).not.toContain('SCHEDULE');
    expect(topo).toContain('NAMESPACE');
  });

  it('adds a health check: an invalid spec shows the field error, a valid one is saved', async () => {
    await page.goto(`${baseUrl()}/settings/canaries`);
    await page.getByRole('button', { name: 'Add Health Check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Health Check' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByText('This field is required').count()).toBe(1);

    await dialog.getByLabel(/^Name\*?$/).fill('e2e-web-check');
    await dialog.getByLabel('Schedule').selectOption('@every 5m');
    await setEditor(page, 'Labels', '{"env": "e2e", "team": "qa"}');
    await setEditor(page, 'Spec', 'http:\n  - name: home\n    method: GET\n');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByRole('alert').allInnerTexts()).toContain('spec.http[0].url is required');
    await screenshot(page, 'settings-canary-add-invalid');

    await setEditor(
      page,
      'Spec',
      'http:\n  - name: home\n    method: GET\n    url: http://127.0.0.1:9/\n    responseCodes: [200]\n',
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => page.getByText('e2e-web-check created successfully').count()).toBe(1);
    const row = page.getByRole('row', { name: /e2e-web-check/ });
    await poll(() => row.count()).toBe(1);
    await poll(() => row.innerText()).toMatch(/UI[\s\S]*@every 5m/);
    await poll(() => row.innerText()).toMatch(/env: e2e/);
  });

  it('keeps a schedule typed in the Spec YAML in step with the Schedule select', async () => {
    await page.getByRole('button', { name: 'Add Health Check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Health Check' });
    await dialog.waitFor();
    await dialog.getByLabel(/^Name\*?$/).fill('e2e-yaml-schedule');
    expect(await dialog.getByLabel('Schedule').inputValue()).toBe('');
    await setEditor(page, 'Spec', 'schedule: "@every 1m"\ntcp:\n  - name: yaml port\n    endpoint: 127.0.0.1:9\n');
    await poll(() => dialog.getByLabel('Schedule').inputValue()).toBe('@every 1m');
    await dialog.getByLabel('Schedule').selectOption('@hourly');
    const spec = page.locator('.cm-content[aria-label="Spec"]');
    await poll(() => spec.innerText()).toMatch(/schedule: "?@hourly/);
    await screenshot(page, 'settings-canary-yaml-schedule');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => page.getByRole('row', { name: /e2e-yaml-schedule/ }).innerText()).toMatch(/@hourly/);
  });

  it('edits it: Form and Code tabs, Update returns to the list', async () => {
    await page.getByRole('row', { name: /e2e-web-check/ }).click();
    await page.waitForURL(/\/settings\/canaries\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('tab', { name: 'Spec' }).count()).toBe(1);
    expect(await page.getByRole('tab', { name: 'Job History' }).count()).toBe(1);
    expect(await page.getByRole('tab', { name: 'Form' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByLabel(/^Name\*?$/).isDisabled()).toBe(true);
    expect(await page.getByLabel(/^Namespace$/).isDisabled()).toBe(true);
    expect(await page.getByLabel('Source').inputValue()).toBe('UI');
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);

    await page.getByLabel('Schedule').selectOption('@every 30m');
    await page.getByRole('tab', { name: 'Code' }).click();
    const code = page.locator('.cm-content[aria-label="Resource YAML"]');
    await poll(() => code.innerText()).toMatch(/name: e2e-web-check/);
    await poll(() => code.innerText()).toMatch(/schedule: "?@every 30m/);
    await screenshot(page, 'settings-canary-code-tab');
    await page.getByRole('tab', { name: 'Form' }).click();
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(/\/settings\/canaries$/);
    await poll(() => page.getByText('e2e-web-check updated successfully').count()).toBe(1);
    await poll(() => page.getByRole('row', { name: /e2e-web-check/ }).innerText()).toMatch(/@every 30m/);
  });

  it('shows a resource job history tab whose rows open the details modal', async () => {
    // the demo's database canary: one check fails on purpose, so its runs are WARNING
    await page.goto(`${baseUrl()}/settings/canaries`);
    await page.getByRole('row', { name: /^database / }).click();
    await page.getByRole('tab', { name: 'Job History' }).click();
    await poll(() => page.url()).toMatch(/tab=jobHistory/);
    const jobs = page.getByRole('table', { name: 'Job history' });
    // its first run comes within its interval (2 minutes) of the server's start
    // (counted once the reloaded table has its answer: a busy machine is slower than the count)
    const settled = page.locator('table[aria-label="Job history"]:not([aria-busy])');
    await poll(async () => {
      await page.reload();
      await settled.waitFor({ timeout: 30_000 });
      // (a run in progress shows as RUNNING first)
      return jobs.locator('tbody tr [data-status="WARNING"]').count();
    }, 150_000).toBeGreaterThan(0);
    // SUCCESS is excluded by default
    expect(await jobs.locator('tbody [data-status="SUCCESS"]').count()).toBe(0);
    await jobs
      .locator('tbody tr', { has: page.locator('[data-status="WARNING"]') })
      .first()
      .click();
    const modal = page.getByRole('dialog');
    await poll(() => modal.getByRole('tab', { name: 'Errors' }).getAttribute('aria-selected')).toBe('true');
    await poll(() => modal.innerText()).toMatch(
      /deliberately failing: PostgreSQL on a closed port[\s\S]*cannot connect to PostgreSQL: connection refused/,
    );
    await screenshot(page, 'settings-canary-job-history-modal');
    await page.keyboard.press('Escape');
  }, 180_000);

  it('deletes it (soft delete) and shows No resources found for it afterwards', async () => {
    await page.goto(`${baseUrl()}/settings/canaries`);
    await page.getByRole('row', { name: /e2e-web-check/ }).click();
    await page.waitForURL(/\/settings\/canaries\/[0-9a-f-]{36}$/);
    const detailUrl = page.url();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Health Check' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/settings\/canaries$/);
    await poll(() => page.getByText('e2e-web-check deleted successfully').count()).toBe(1);
    await poll(() => page.getByRole('row', { name: /^console / }).count()).toBe(1);
    await poll(() => page.getByRole('row', { name: /e2e-web-check/ }).count()).toBe(0);
    await page.goto(detailUrl);
    await poll(() => page.getByText('No resources found').count()).toBe(1);
  });

  it("shows 'No resources found' for an id that is not a uuid; no database text anywhere", async () => {
    for (const path of ['/settings/canaries/not-a-uuid', '/settings/integrations/topologies/not-a-uuid']) {
      await page.goto(`${baseUrl()}${path}`);
      await poll(() => page.getByText('No resources found').count(), 15_000, path).toBe(1);
      expect(await page.getByRole('alert').count(), path).toBe(0);
      expect(await page.locator('body').innerText(), path).not.toMatch(/invalid input syntax|type uuid/i);
    }
    await screenshot(page, 'settings-malformed-id');
    // the API keeps PostgREST's status and code, with a sentence for a person as its message
    const res = await fetch(`${baseUrl()}/api/db/canaries?id=eq.not-a-uuid`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body).toMatchObject({ code: '22P02', message: '"not-a-uuid" is not a valid uuid' });
  });

  it("asks for a notification rule's events instead of sending a rule the database refuses", async () => {
    await page.goto(`${baseUrl()}/settings/notifications`);
    await page.getByRole('button', { name: 'Add Notification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Notification' });
    await dialog.waitFor();
    await setEditor(page, 'Resource YAML', 'name: e2e-no-events\ntitle: Checks down\n');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByRole('alert').allInnerTexts()).toContain('events: This field is required');
    await screenshot(page, 'settings-notification-no-events');
    await setEditor(page, 'Resource YAML', 'name: e2e-no-events\nevents: []\n');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByRole('alert').allInnerTexts()).toContain('events: This field is required');
    expect(await page.locator('body').innerText()).not.toMatch(/violates|null value|constraint/);
    await setEditor(page, 'Resource YAML', 'name: e2e-no-events\nevents: [check.failed]\n');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => page.getByRole('row', { name: /e2e-no-events/ }).count()).toBe(1);
  });

  it('offers no Save, Update or Delete for a rule or canary from another source, and the server refuses it', async () => {
    const post = async (table: string, body: object) => {
      const res = await fetch(`${baseUrl()}/api/db/${table}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'return=representation' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }[])[0].id;
    };
    const canaryId = await post('canaries', {
      name: 'e2e-crd-canary',
      source: 'KubernetesCRD',
      spec: { tcp: [{ name: 'crd port', endpoint: '127.0.0.1:9' }] },
    });
    const ruleId = await post('notifications', {
      name: 'e2e-crd-rule',
      source: 'KubernetesCRD',
      events: ['check.failed'],
    });
    for (const [path, what] of [
      [`/settings/canaries/${canaryId}`, 'health check'],
      [`/settings/notifications/${ruleId}`, 'notification'],
    ]) {
      await page.goto(`${baseUrl()}${path}`);
      await poll(() => page.getByRole('note').innerText(), 15_000, path).toBe(
        `This ${what} comes from KubernetesCRD: it can only be changed there.`,
      );
      for (const name of ['Save', 'Update', 'Delete']) {
        expect(await page.getByRole('button', { name }).count(), `${path} ${name}`).toBe(0);
      }
    }
    expect(await page.locator('.cm-content[aria-label="Resource YAML"]').getAttribute('contenteditable')).toBe('false');
    await screenshot(page, 'settings-notification-from-crd');
    const patch = await fetch(`${baseUrl()}/api/db/notifications?id=eq.${ruleId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'changed here' }),
    });
    expect(patch.status).toBe(409);
    expect(((await patch.json()) as { message: string }).message).toBe(
      'Notification "e2e-crd-rule" comes from KubernetesCRD and can only be changed there',
    );
  });

  it('reads Add and Update on the Log Backend form, disabled while the form is invalid', async () => {
    await page.goto(`${baseUrl()}/settings/logging_backends`);
    await page.getByRole('button', { name: 'Add Log Backend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Log Backend' });
    await dialog.waitFor();
    const add = dialog.getByRole('button', { name: 'Add', exact: true });
    await poll(() => add.count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await add.isDisabled()).toBe(true); // no name yet
    await dialog.getByLabel(/^Name\*?$/).fill('e2e-logs');
    await poll(() => add.isDisabled()).toBe(false);
    await setEditor(page, 'Spec', 'loki: [');
    await poll(() => add.isDisabled()).toBe(true);
    await screenshot(page, 'settings-log-backend-invalid');
    await setEditor(page, 'Spec', 'loki:\n  url: http://127.0.0.1:3100\n');
    await poll(() => add.isDisabled()).toBe(false);
    await add.click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /e2e-logs/ }).click();
    const update = page.getByRole('button', { name: 'Update', exact: true });
    await poll(() => update.isDisabled()).toBe(false);
    await setEditor(page, 'Spec', 'loki: [');
    await poll(() => update.isDisabled()).toBe(true);
  });

  it('opens specless resources (notifications) on the Code tab', async () => {
    await page.goto(`${baseUrl()}/settings/notifications`);
    const first = page.getByRole('table', { name: 'Resources' }).locator('tbody tr').first();
    await poll(() => first.locator('td').count()).toBeGreaterThan(1);
    await first.click();
    await poll(() => page.getByRole('tab', { name: 'Code' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tab', { name: 'Form' }).count()).toBe(0);
    await poll(() => page.locator('.cm-content[aria-label="Resource YAML"]').innerText()).toMatch(/events:/);
    await screenshot(page, 'settings-notification-code');
  });
});
