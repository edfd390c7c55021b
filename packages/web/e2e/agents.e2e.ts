// The agents screen (seed 000 sections 2-9 on agents) against the real server (AUTH=none:
// everyone is an administrator), at 1440 and 1024 px: the list with its breadcrumb and the
// demo's agents, create (the token shown once in the installation instructions), the token
// working against the upstream API, the catalog's Agent filter, edit with the name read-only,
// the two-step delete, toasts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

describe.each([1440, 1024])('agents at %i px', (width) => {
  let browser: Browser;
  let page: Page;
  const name = `e2e-agent-${width}-${Date.now().toString(36)}`;
  let token = '';

  beforeAll(async () => {
    browser = await launch();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `agents-${width}-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const shot = (n: string) => screenshot(page, `agents-${width}-${n}`);
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
  const table = () => page.getByRole('table', { name: 'Agents' });
  const row = (text: string) => table().getByRole('row').filter({ hasText: text });

  it('lists the agents under the breadcrumb Agents, offline until they connect', async () => {
    await page.goto(`${baseUrl()}/agents`);
    await poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toBe('Agents');
    await poll(() => row('eu-west-prod').count()).toBe(1);
    // the demo's agents never connected: offline, never seen, nothing pushed
    expect(await row('eu-west-prod').innerText()).toMatch(/Offline/);
    expect(await row('eu-west-prod').innerText()).toMatch(/Never/);
    // the settings place of the same screen
    await page.goto(`${baseUrl()}/settings/agents?pageSize=100`);
    await poll(() => row('us-east-staging').count()).toBe(1);
    await poll(() => page.getByRole('combobox').last().inputValue()).toBe('100');
    await shot('list');
  });

  it('creates an agent and shows its token once with the installation instructions', async () => {
    await page.goto(`${baseUrl()}/agents`);
    await page.getByRole('button', { name: 'Add Agent' }).click();
    await page.waitForURL(/addAgent=true/);
    const dialog = page.getByRole('dialog', { name: 'Create Agent' });
    // the name is required
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByText('This field is required').count()).toBe(1);
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByRole('button', { name: 'Add property' }).click();
    await dialog.getByLabel('Property 1 name').fill('region');
    await dialog.getByLabel('Property 1 value').fill('eu-e2e');
    await dialog.getByLabel("Scrape the cluster's Kubernetes resources").check();
    // the scrape interval options, default 30m
    expect(await dialog.getByLabel('Scrape interval').inputValue()).toBe('30m');
    expect(await dialog.getByLabel('Scrape interval').locator('option').allInnerTexts()).toEqual([
      '1m',
      '5m',
      '10m',
      '30m',
      '1h',
      '2h',
      '6h',
      '12h',
      '24h',
    ]);
    await dialog.getByLabel('Scrape interval').selectOption('1h');
    await shot('create');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Agent created').count()).toBe(1);
    const install = page.getByTestId('install-instructions');
    await poll(() => install.count()).toBe(1);
    expect(await install.innerText()).toContain(
      'Access token will be shown only once. Please copy it and store it securely.',
    );
    token = (await install.getByLabel('Access token', { exact: true }).innerText()).trim();
    expect(token).toMatch(/^wdpat_/);
    expect(await page.getByTestId('install-helm').innerText()).toContain(token);
    expect(await page.getByTestId('install-helm').innerText()).toContain('kubernetes.interval=1h');
    await page.getByRole('tab', { name: 'Flux' }).click();
    expect(await page.getByTestId('install-flux').innerText()).toContain(`token: "${token}"`);
    await page.getByRole('tab', { name: 'Command line' }).click();
    expect(await page.getByTestId('install-cli').innerText()).toContain(`--token '${token}'`);
    await shot('install');
    await page.getByRole('button', { name: 'Done' }).click();
    await poll(() => install.count()).toBe(0);
    // the token is nowhere on the page any more, and it works as an agent's token
    expect(await page.content()).not.toContain(token);
    await poll(() => row(name).count()).toBe(1);
    const ping = await fetch(`${baseUrl()}/api/agent/ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ping.status).toBe(200);
    await page.reload();
    await poll(() => row(name).innerText()).toMatch(/Online/);
    expect(await row(name).innerText()).toContain('region: eu-e2e');
  });

  it("shows the checks the agent pushed on /health with the agent's badge", async () => {
    const canary = crypto.randomUUID();
    const check = crypto.randomUUID();
    const checkName = `pushed-${width}-${Date.now().toString(36)}`;
    const push = await fetch(`${baseUrl()}/api/agent/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        canaries: [{ id: canary, name: `remote-${width}`, namespace: 'edge' }],
        checks: [
          {
            id: check,
            canary_id: canary,
            name: checkName,
            type: 'http',
            namespace: 'edge',
            status: 'unhealthy',
            last_runtime: new Date().toISOString(),
          },
        ],
        check_statuses: [{ check_id: check, time: new Date().toISOString(), status: false, message: 'down' }],
      }),
    });
    expect(push.status).toBe(200);
    await page.goto(`${baseUrl()}/health?hidePassing=false&query=${checkName}`);
    const badge = page.getByTestId('check-row-agent').filter({ hasText: name });
    await poll(() => badge.count()).toBe(1);
    await shot('health-badge');
  });

  it("lists the agent's config items under the catalog's Agent filter", async () => {
    const item = crypto.randomUUID();
    const itemName = `pushed-config-${width}-${Date.now().toString(36)}`;
    const push = await fetch(`${baseUrl()}/api/agent/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        config_items: [{ id: item, type: 'Edge::Service', config_class: 'Service', name: itemName, config: {} }],
      }),
    });
    expect(push.status).toBe(200);
    const { agent_id } = (await push.json()) as { agent_id: string };
    await page.goto(`${baseUrl()}/catalog`);
    await page.getByLabel('Agent').selectOption({ label: name });
    await poll(() => new URL(page.url()).searchParams.get('agent_id')).toBe(agent_id);
    const list = page.getByRole('table', { name: 'Catalog' });
    // the agent's item only: none of the local demo catalog
    await poll(() => list.locator('tbody tr').filter({ hasText: itemName }).count()).toBe(1);
    expect(await list.locator('tbody tr').count()).toBe(1);
    await shot('catalog-agent-filter');
  });

  it('edits an agent with its name read-only', async () => {
    await page.goto(`${baseUrl()}/agents`);
    await row(name).click();
    await page.waitForURL(/id=/);
    const dialog = page.getByRole('dialog', { name: `Edit Agent ${name}` });
    await poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByLabel(/^Name/).getAttribute('readonly')).not.toBeNull();
    await dialog.getByLabel('Description').fill('edited by the browser test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Agent updated').count()).toBe(1);
    await poll(() => dialog.count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('id')).toBeNull();
    await poll(() => row(name).innerText()).toContain('edited by the browser test');
    await shot('edited');
  });

  it('deletes an agent in two steps: the cleanup question, then the confirmation', async () => {
    const id = (await (await fetch(`${baseUrl()}/api/db/agents_summary?name=eq.${name}&select=id`)).json()) as {
      id: string;
    }[];
    await page.goto(`${baseUrl()}/agents?id=${id[0].id}`);
    const edit = page.getByRole('dialog', { name: `Edit Agent ${name}` });
    await poll(() => edit.count()).toBe(1);
    await edit.getByRole('button', { name: 'Delete' }).click();
    const question = page.getByRole('dialog', { name: 'Delete resources' });
    await poll(() => question.count()).toBe(1);
    await shot('delete-question');
    await question.getByRole('button', { name: 'Yes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete agent' });
    await poll(() => confirm.count()).toBe(1);
    expect(await confirm.innerText()).toContain('and the resources it created');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await poll(() => toast('Agent deleted').count()).toBe(1);
    await poll(() => row(name).count()).toBe(0);
    // its token is refused from now on
    const ping = await fetch(`${baseUrl()}/api/agent/ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    // no live agent behind it any more
    expect(ping.status).toBe(404);
  });
});
