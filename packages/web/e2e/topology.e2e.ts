// The topology dashboard (seed 002 sections 2.1, 2.7, 9) against the real server (AUTH=none), at
// 1440 and 1024 px: / lands on /topology with the demo's roots (the demo topology the engine
// builds), then a tree of this run's own (made through /api/db, labelled e2e=<run> so the
// filters isolate it): filters and sort, preferences, drill-down and the breadcrumb, the sidebar
// panels and their list sizes, link to catalog, the snapshot download (unzipped), the public view.
// Expectations about which components match a filter are read from GET /api/topology itself, so
// the test checks that the screen shows what the listing answers, whatever the engine decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request, Response } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPOLOGY_HEALTH_RANK, type TopologyResponse } from '@watchdeck/core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${baseUrl()}/api/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
};
const post = <T>(table: string, body: unknown) =>
  api<T[]>(`db/${table}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { prefer: 'return=representation' },
  });
const listing = (q: string) => api<TopologyResponse>(`topology?${q}`);

interface Fixture {
  run: string;
  label: string;
  alpha: { id: string; name: string };
  beta: { id: string; name: string };
  hidden: { id: string; name: string };
  child: { id: string; name: string };
  doomed: { id: string; name: string };
  configNames: string[];
  spare: string;
  team: { id: string; name: string };
}

/** This run's components: two visible roots and a hidden one; alpha has two children, 12 configs and a team. */
async function makeFixture(width: number): Promise<Fixture> {
  const run = `${width}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const labels = { e2e: run };
  const comp = async (over: Record<string, unknown>) =>
    (await post<{ id: string; name: string }>('components', { labels, ...over }))[0];
  const alpha = await comp({
    name: `e2e-${run}-alpha`,
    type: 'E2EService',
    icon: 'server',
    status: 'unhealthy',
    path: '',
    properties: [
      { name: 'cost', type: 'currency', value: 1234.5, headline: true },
      { name: 'uptime', value: 99.456, headline: true },
      { name: 'owner', text: 'payments-team' },
      { name: 'tier', text: 'gold' },
      { name: 'region', text: 'eu-west-1' },
      { name: 'memory', value: 900, max: 1000, unit: 'bytes' },
      { name: 'version', text: '1.2.3' },
      { name: 'replicas', value: 3 },
      { name: 'language', text: 'go' },
      { name: 'secret-ish', type: 'hidden', text: 'not shown' },
    ],
  });
  const beta = await comp({ name: `e2e-${run}-beta`, type: 'E2EService', status: 'warning', path: '' });
  const hidden = await comp({ name: `e2e-${run}-hidden`, type: 'E2EService', hidden: true, path: '' });
  const child = await comp({
    name: `e2e-${run}-child`,
    type: 'E2EPod',
    status: 'healthy',
    parent_id: alpha.id,
    path: alpha.id,
  });
  const doomed = await comp({ name: `e2e-${run}-doomed`, type: 'E2EPod', parent_id: alpha.id, path: alpha.id });
  const configNames = Array.from({ length: 12 }, (_, i) => `e2e-${run}-cfg-${String(i).padStart(2, '0')}`);
  const configs = await post<{ id: string }>(
    'config_items',
    [...configNames, `e2e-${run}-spare`].map((name) => ({ name, type: 'E2E::Thing', config_class: 'E2E' })),
  );
  await post(
    'config_component_relationships',
    configs.slice(0, 12).map((c) => ({ component_id: alpha.id, config_id: c.id, selector_id: 'e2e' })),
  );
  const [team] = await post<{ id: string; name: string }>('teams', { name: `e2e-team-${run}`, spec: {} });
  await post('team_components', { team_id: team.id, component_id: alpha.id, role: 'owner' });
  return {
    run,
    label: `e2e=${run}`,
    alpha,
    beta,
    hidden,
    child,
    doomed,
    configNames,
    spare: `e2e-${run}-spare`,
    team,
  };
}

const cardNames = (page: Page) =>
  page.getByTestId('topology-card').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
const select = (page: Page, label: string) => page.getByRole('group', { name: 'Filters' }).getByLabel(label);
/**
 * The listing the page itself was answered while `action` ran (its last GET /api/topology). The
 * demo's components are re-rolled whenever their checks, insights or incidents change (other
 * suites' work included, `topology.summary`), so a listing asked for separately a moment later may
 * rank them differently than the one the page shows; the page does not ask again within its
 * stale time, and a poll comparing the two could never converge.
 */
async function pageListing(page: Page, action: () => Promise<unknown>) {
  const answers: Response[] = [];
  const onResponse = (r: Response) => {
    if (new URL(r.url()).pathname === '/api/topology' && r.ok()) answers.push(r);
  };
  page.on('response', onResponse);
  try {
    await action();
    await poll(() => answers.length).toBeGreaterThan(0);
    // the first page may be followed by the whole listing: the page shows the last one
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  const last = answers.at(-1)!;
  return { search: new URL(last.url()).searchParams, body: (await last.json()) as TopologyResponse };
}

const stored = (page: Page, key: string) => page.evaluate((k) => window.localStorage.getItem(`watchdeck.${k}`), key);

describe.each([1440, 1024])('topology dashboard at %i px', (width) => {
  let browser: Browser;
  let page: Page;
  let fx: Fixture;
  const shot = (name: string) => screenshot(page, `topology-${name}-${width}`);

  beforeAll(async () => {
    fx = await makeFixture(width);
    browser = await launch();
    page = await browser.newPage({ viewport: { width, height: 900 }, acceptDownloads: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends / to /topology with the Dashboard and shows the roots the listing answers', async () => {
    const shown = await pageListing(page, async () => {
      await page.goto(`${baseUrl()}/`);
      await page.waitForURL('**/topology');
    });
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    // a fresh browser sorts by health ascending (topologyCardsSortOrder defaults to asc)
    expect(shown.search.get('sortBy')).toBe('status');
    expect(shown.search.get('sortOrder')).toBe('asc');
    const ranks = shown.body.components.map((c) => TOPOLOGY_HEALTH_RANK[c.status]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const roots = shown.body.components.map((c) => c.title || c.name);
    expect(roots).toContain('Production');
    // the same roots as a listing asked for now (their order may move with a re-roll)
    expect([...roots].sort()).toEqual(
      (await listing('sortBy=status&sortOrder=asc')).components.map((c) => c.title || c.name).sort(),
    );
    await poll(() => cardNames(page)).toEqual(roots);
    await shot('home');
  });

  it('starts the first page of the listing before the app has loaded, and sends it once', async () => {
    const sent: string[] = [];
    const onRequest = (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/topology') sent.push(u.search.slice(1));
    };
    // notes what index.html's inline script hands over to the app
    await page.addInitScript(() => {
      let value: unknown;
      Object.defineProperty(window, '__watchdeckTopology', {
        configurable: true,
        get: () => value,
        set: (v) => {
          (window as unknown as Record<string, unknown>).__earlyTopology = (v as { search: string }).search;
          value = v;
        },
      });
    });
    const early = () => page.evaluate(() => (window as unknown as Record<string, unknown>).__earlyTopology);
    await page.evaluate(() => {
      window.localStorage.setItem('watchdeck.topologyCardsSortByStandard', JSON.stringify('name'));
      window.localStorage.setItem('watchdeck.topologyCardsSortOrder', JSON.stringify('desc'));
    });
    page.on('request', onRequest);
    try {
      const labels = encodeURIComponent(fx.label);
      for (const [path, expected] of [
        [
          `/topology?labels=${labels}&sortBy=name&sortOrder=desc`,
          `labels=${labels}&sortBy=name&sortOrder=desc&limit=60`,
        ],
        // the stored sort and a drill-down
        [
          `/topology/${fx.alpha.id}?labels=${labels}`,
          `id=${fx.alpha.id}&labels=${labels}&sortBy=name&sortOrder=desc&limit=60`,
        ],
      ] as const) {
        sent.length = 0;
        await page.goto(`${baseUrl()}${path}`);
        await poll(async () => (await cardNames(page)).length).toBeGreaterThan(0);
        expect(await early()).toBe(expected);
        // the app took that call over: its first page was asked for once
        expect(sent.filter((q) => q.includes('limit='))).toEqual([expected]);
      }
    } finally {
      page.off('request', onRequest);
      await page.evaluate(() => window.localStorage.clear());
    }
  });

  it('filters by labels and health, sorts (stored locally), and shows the empty state', async () => {
    await page.goto(`${baseUrl()}/topology`);
    await poll(async () => (await select(page, 'Labels').locator('option').allTextContents()).includes(fx.label)).toBe(
      true,
    );
    await select(page, 'Labels').selectOption(fx.label);
    await poll(() => new URL(page.url()).searchParams.get('labels')).toBe(fx.label);

    await select(page, 'Sort By').selectOption('name');
    await poll(() => cardNames(page)).toEqual([fx.alpha.name, fx.beta.name]);
    await page.getByRole('button', { name: 'Sort ascending' }).click();
    await poll(() => cardNames(page)).toEqual([fx.beta.name, fx.alpha.name]);
    let url = new URL(page.url());
    expect(url.searchParams.get('sortBy')).toBe('name');
    expect(url.searchParams.get('sortOrder')).toBe('desc');
    expect(JSON.parse((await stored(page, 'topologyCardsSortByStandard'))!)).toBe('name');
    expect(JSON.parse((await stored(page, 'topologyCardsSortOrder'))!)).toBe('desc');

    // health descending is the default: choosing it clears the sort parameters
    await select(page, 'Sort By').selectOption('status');
    await poll(() => new URL(page.url()).searchParams.get('sortBy')).toBe(null);
    url = new URL(page.url());
    expect(url.searchParams.get('sortOrder')).toBe(null);
    expect(url.searchParams.get('labels')).toBe(fx.label);

    // the sort survives a visit without parameters (stored locally)
    await select(page, 'Sort By').selectOption('name');
    await page.getByRole('button', { name: 'Sort descending' }).click();
    await poll(() => new URL(page.url()).searchParams.get('sortOrder')).toBe('asc');
    await page.goto(`${baseUrl()}/topology?labels=${encodeURIComponent(fx.label)}`);
    await poll(() => select(page, 'Sort By').inputValue()).toBe('name');
    await poll(() => cardNames(page)).toEqual([fx.alpha.name, fx.beta.name]);

    // Health: what the listing answers for the same filter
    const unhealthy = (await pageListing(page, () => select(page, 'Health').selectOption('unhealthy'))).body.components;
    await poll(() => new URL(page.url()).searchParams.get('status')).toBe('unhealthy');
    // this run's components are no topology's: nothing re-rolls them, and alpha alone is unhealthy
    expect(unhealthy.map((c) => c.name)).toEqual([fx.alpha.name]);
    expect(
      (await listing(`labels=${encodeURIComponent(fx.label)}&status=unhealthy`)).components.map((c) => c.name),
    ).toEqual([fx.alpha.name]);
    await poll(() => cardNames(page)).toEqual(unhealthy.map((c) => c.title || c.name));
    for (const card of await page.getByTestId('topology-card').all()) {
      expect(await card.getAttribute('data-status')).toBe('unhealthy');
      expect(await card.getAttribute('class')).toContain('border-t-red-500');
    }
    await select(page, 'Health').selectOption('info');
    const info = (await listing(`labels=${encodeURIComponent(fx.label)}&status=info`)).components;
    expect(info).toEqual([]);
    await poll(() => page.getByText('There are no components matching this criteria').count()).toBe(1);
    await shot('empty');
    await select(page, 'Health').selectOption('All');
    await poll(() => new URL(page.url()).searchParams.get('status')).toBe(null);
    await poll(() => cardNames(page)).toEqual([fx.alpha.name, fx.beta.name]);
  });

  it('shows headline values, borders by health, and the preferences: hidden components and card width', async () => {
    await page.goto(`${baseUrl()}/topology?labels=${encodeURIComponent(fx.label)}&sortBy=name&sortOrder=asc`);
    const alpha = page.getByRole('article', { name: fx.alpha.name, exact: true });
    const beta = page.getByRole('article', { name: fx.beta.name, exact: true });
    await poll(() => alpha.getByTestId('headline-properties').textContent()).toContain('$1.2k');
    expect(await alpha.getByTestId('headline-properties').textContent()).toContain('99.46%');
    const byApi = new Map(
      (await listing(`labels=${encodeURIComponent(fx.label)}`)).components.map((c) => [c.id, c.status]),
    );
    const border = { unhealthy: 'border-t-red-500', warning: 'border-t-orange-400' } as Record<string, string>;
    for (const [card, id] of [
      [alpha, fx.alpha.id],
      [beta, fx.beta.id],
    ] as const) {
      const status = byApi.get(id)!;
      expect(await card.getAttribute('data-status')).toBe(status);
      expect(await card.getAttribute('class')).toContain(border[status] ?? 'border-t-gray-200');
    }

    await page.getByRole('button', { name: 'Preferences' }).click();
    const prefs = page.getByRole('dialog', { name: 'Preferences' });
    await prefs.getByRole('switch', { name: 'Show hidden components' }).click();
    await poll(() => cardNames(page)).toContain(fx.hidden.name);
    const slider = prefs.getByRole('slider', { name: /Card width/ });
    // a range input takes no typing: set its value as a drag would, through React's input event
    await slider.evaluate((el: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, '400');
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await poll(() => alpha.evaluate((e) => e.getBoundingClientRect().width)).toBe(400);
    expect(JSON.parse((await stored(page, 'topology_card_width'))!)).toBe(400);
    // keyboard: the slider moves by its step of 2
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await poll(() => alpha.evaluate((e) => e.getBoundingClientRect().width)).toBe(402);
    await shot('preferences');
    await prefs.getByRole('switch', { name: 'Show hidden components' }).click();
    await page.keyboard.press('Escape');
    await poll(() => cardNames(page)).not.toContain(fx.hidden.name);
  });

  it('drills down by card, carrying the query and refererId, and back by the breadcrumb', async () => {
    await page.goto(`${baseUrl()}/topology?labels=${encodeURIComponent(fx.label)}&sortBy=name&sortOrder=asc`);
    await page.getByRole('article', { name: fx.alpha.name, exact: true }).click();
    await page.waitForURL(`**/topology/${fx.alpha.id}?*`);
    let url = new URL(page.url());
    expect(url.searchParams.get('labels')).toBe(fx.label);
    expect(url.searchParams.get('sortBy')).toBe('name');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await poll(() => crumbs.textContent()).toBe(`Topology${fx.alpha.name}`);
    await poll(() => cardNames(page)).toEqual([fx.child.name, fx.doomed.name]);

    await page.getByRole('article', { name: fx.child.name, exact: true }).click();
    await page.waitForURL(`**/topology/${fx.child.id}?*`);
    url = new URL(page.url());
    expect(url.searchParams.get('refererId')).toBe(fx.alpha.id);
    expect(url.searchParams.get('labels')).toBe(fx.label);
    await poll(() => crumbs.textContent()).toBe(`Topology${fx.alpha.name}${fx.child.name}`);
    // a component without children shows itself
    await poll(() => cardNames(page)).toEqual([fx.child.name]);
    await shot('drilldown');

    await crumbs.getByRole('link', { name: fx.alpha.name }).click();
    await page.waitForURL(`**/topology/${fx.alpha.id}?*`);
    expect(new URL(page.url()).searchParams.get('labels')).toBe(fx.label);
    await poll(() => cardNames(page)).toEqual([fx.child.name, fx.doomed.name]);
    await crumbs.getByRole('link', { name: 'Topology' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/topology');
    await poll(() => cardNames(page)).toEqual([fx.alpha.name, fx.beta.name]);
  });

  it('shows the sidebar panels with their list sizes, and links and unlinks a catalog item', async () => {
    await page.goto(`${baseUrl()}/topology/${fx.alpha.id}`);
    const sidebar = page.getByTestId('component-sidebar');
    for (const name of ['Details', 'Catalog', 'Incidents', 'Changes', 'Checks', 'Playbooks', 'Teams', 'Insights']) {
      await poll(() => sidebar.getByRole('region', { name, exact: true }).count(), 15_000, name).toBe(1);
    }
    // Details: 9 visible properties, 6 before 'show more'; the hidden one never
    const props = sidebar.getByTestId('properties');
    await poll(() => props.locator('dt').count()).toBe(6);
    await props.getByRole('button', { name: 'show more' }).click();
    expect(await props.locator('dt').count()).toBe(9);
    expect(await props.textContent()).not.toContain('not shown');
    // a panel collapses from its header, with the keyboard too
    const details = sidebar.getByRole('button', { name: 'Details', exact: true });
    await details.focus();
    await page.keyboard.press('Enter');
    await poll(() => details.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await poll(() => details.getAttribute('aria-expanded')).toBe('true');

    // Catalog: 10 of 12 before 'show more'
    const catalog = sidebar.getByRole('region', { name: 'Catalog' });
    await poll(() => catalog.getByRole('listitem').count()).toBe(10);
    await catalog.getByRole('button', { name: 'show more' }).click();
    expect(await catalog.getByRole('listitem').count()).toBe(12);
    // Incidents: status open and type all by default
    const incidents = sidebar.getByRole('region', { name: 'Incidents' });
    expect(await incidents.getByLabel('Incident status').inputValue()).toBe('open');
    expect(await incidents.getByLabel('Incident type').inputValue()).toBe('all');
    // Teams links to the team's settings
    const teams = sidebar.getByRole('region', { name: 'Teams' });
    await poll(() => teams.getByRole('link', { name: fx.team.name }).getAttribute('href')).toBe(
      `/settings/teams/${fx.team.id}`,
    );
    await shot('sidebar');

    // link to catalog: a manual link, then unlinked
    await catalog.getByRole('button', { name: 'Link to Catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Catalog' });
    await dialog.getByRole('searchbox').fill(fx.spare);
    await dialog.getByRole('radio', { name: new RegExp(fx.spare) }).check();
    await dialog.getByRole('button', { name: 'Link' }).click();
    await poll(() => page.getByText('config link successful').count()).toBe(1);
    await poll(() => dialog.count()).toBe(0);
    const rows = await api<{ selector_id: string }[]>(
      `db/configs_by_component?component_id=eq.${fx.alpha.id}&name=eq.${fx.spare}&select=selector_id`,
    );
    expect(rows).toEqual([{ selector_id: 'manual' }]);
    if ((await catalog.getByRole('button', { name: 'show more' }).count()) > 0)
      await catalog.getByRole('button', { name: 'show more' }).click();
    await catalog.getByRole('button', { name: `Unlink ${fx.spare}` }).click();
    await poll(() => page.getByText('Deleted config link successfully').count()).toBe(1);
    await poll(() =>
      api<unknown[]>(`db/configs_by_component?component_id=eq.${fx.alpha.id}&name=eq.${fx.spare}&select=id`),
    ).toEqual([]);

    // Link to Incident opens its dialog; Escape closes it and focus returns
    await sidebar.getByRole('button', { name: 'Link to Incident' }).click();
    await poll(() => page.getByRole('dialog', { name: 'Link to Incident' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog', { name: 'Link to Incident' }).count()).toBe(0);
  });

  it('hides the Incidents panel and Link to Incident when the incidents feature is disabled', async () => {
    await api('properties', { method: 'POST', body: JSON.stringify({ name: 'incidents.disable', value: 'true' }) });
    try {
      await page.goto(`${baseUrl()}/topology/${fx.alpha.id}`);
      const sidebar = page.getByTestId('component-sidebar');
      await poll(() => sidebar.getByRole('region', { name: 'Checks', exact: true }).count()).toBe(1);
      expect(await sidebar.getByRole('region', { name: 'Incidents', exact: true }).count()).toBe(0);
      expect(await sidebar.getByRole('button', { name: 'Link to Incident' }).count()).toBe(0);
      await page.getByRole('button', { name: `Actions for ${fx.child.name}` }).click();
      await poll(() => page.getByRole('menuitem', { name: 'Snapshot' }).count()).toBe(1);
      expect(await page.getByRole('menuitem', { name: 'Link to Incident' }).count()).toBe(0);
      await page.keyboard.press('Escape');
    } finally {
      await api('properties/incidents.disable', { method: 'DELETE' });
    }
  });

  it('downloads a snapshot zip and reports a failed one', async () => {
    await page.goto(`${baseUrl()}/topology/${fx.alpha.id}`);
    const sidebar = page.getByTestId('component-sidebar');
    await sidebar.getByRole('button', { name: 'Snapshot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Snapshot' });
    await dialog.getByLabel('Time range').selectOption('1d');
    await dialog.getByLabel('Include related components').check();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${fx.alpha.name}-snapshot.zip`);
    const dir = mkdtempSync(join(tmpdir(), 'topology-snapshot-'));
    try {
      const zip = join(dir, 'snapshot.zip');
      await download.saveAs(zip);
      expect(readFileSync(zip).subarray(0, 2).toString()).toBe('PK');
      const out = join(dir, 'out');
      execFileSync('unzip', ['-q', zip, '-d', out]);
      const files: string[] = [];
      const walk = (d: string) => {
        for (const f of readdirSync(d)) {
          const p = join(d, f);
          if (statSync(p).isDirectory()) walk(p);
          else files.push(p);
        }
      };
      walk(out);
      expect(files.length).toBeGreaterThan(0);
      expect(files.some((f) => readFileSync(f, 'utf8').includes(fx.alpha.name))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await poll(() => dialog.count()).toBe(0);

    // a component removed while its snapshot form is open: the download fails
    await page.getByRole('button', { name: `Actions for ${fx.doomed.name}` }).click();
    await page.getByRole('menuitem', { name: 'Snapshot' }).click();
    await api(`db/components?id=eq.${fx.doomed.id}`, { method: 'DELETE' });
    await page.getByRole('dialog', { name: 'Snapshot' }).getByRole('button', { name: 'Download' }).click();
    await poll(() => page.getByText('Error downloading file').count()).toBe(1);
    await shot('snapshot-error');
    await page.keyboard.press('Escape');
  });

  it('shows the public read-only view at a given size, and Component not found', async () => {
    await page.goto(`${baseUrl()}/view/topology/${fx.alpha.id}?size=small`);
    const card = page.getByRole('article', { name: fx.alpha.name, exact: true });
    await poll(() => card.getAttribute('data-size')).toBe('small');
    expect(await card.evaluate((e) => e.getBoundingClientRect().width)).toBe(198);
    // read-only: no shell, no menu
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: /Actions for/ }).count()).toBe(0);
    await page.goto(`${baseUrl()}/view/topology/${fx.alpha.id}`);
    await poll(() => card.getAttribute('data-size')).toBe('extra_large');
    expect(await card.evaluate((e) => e.getBoundingClientRect().width)).toBe(554);
    await shot('public');
    await page.goto(`${baseUrl()}/view/topology/00000000-0000-4000-8000-00000000dead`);
    await poll(() => page.getByText('Component not found').count()).toBe(1);
    await page.goto(`${baseUrl()}/view/topology/not-a-uuid`);
    await poll(() => page.getByText('Component not found').count()).toBe(1);
  });
});
