// The catalog screens (seed 002 sections 2.1-2.6) against the real server (AUTH=none: everyone
// is an administrator), at 1440 and 1024 px. The data each test reads is made here through
// /api/db, under a config class of this run's own, so the demo's catalog rows (being replaced by
// real scrapes) never decide an outcome: a scraper, a Deployment with four Pods, a ReplicaSet, a
// Service linked by hand, a deleted ConfigMap, changes with a unified diff, and insights.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${baseUrl()}/api/db/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
};
const post = <T>(path: string, body: unknown) =>
  api<T[]>(path, { method: 'POST', body: JSON.stringify(body), headers: { prefer: 'return=representation' } });

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const DIFF = [
  '--- a/spec.yaml',
  '+++ b/spec.yaml',
  '@@ -1,4 +1,4 @@',
  ' spec:',
  '-  replicas: 3',
  '+  replicas: 7',
  '   template:',
  '     image: web:1.4',
].join('\n');

interface Fixture {
  cls: string;
  scraper: string;
  deployment: string;
  deploymentName: string;
  replicaSet: string;
  service: string;
  serviceName: string;
  deleted: string;
  pods: string[];
  change: string;
  longInsight: string;
}

/** The run's own catalog: one class, unique names, made through the API. */
async function makeFixture(): Promise<Fixture> {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const cls = `E2E${run}`;
  const [scraper] = await post<{ id: string }>('config_scrapers', {
    name: `e2e-scraper-${run}`,
    spec: { file: [{ type: 'File', paths: ['/nonexistent/e2e.json'], format: 'json', icon: 'file' }] },
  });
  const item = (over: Record<string, unknown>) => ({
    scraper_id: scraper.id,
    config_class: cls,
    tags: { namespace: 'shop', cluster: 'e2e' },
    ...over,
  });
  const [deployment] = await post<{ id: string }>(
    'config_items',
    item({
      name: `web-${run}`,
      type: `${cls}::Deployment`,
      status: 'Running',
      health: 'healthy',
      config: {
        spec: { replicas: 7, template: { image: 'web:1.4' } },
        metadata: { name: `web-${run}` },
        apiVersion: 'apps/v1',
      },
      labels: { 'app.kubernetes.io/name': 'web', 'app.kubernetes.io/part-of': 'shop', team: 'payments' },
      cost_total_1d: 2,
      cost_total_30d: 30,
      last_scraped_time: ago(2 * HOUR),
    }),
  );
  const [replicaSet] = await post<{ id: string }>(
    'config_items',
    item({
      name: `web-rs-${run}`,
      type: `${cls}::ReplicaSet`,
      parent_id: deployment.id,
      status: 'Running',
      health: 'healthy',
      config: { spec: { replicas: 7 } },
    }),
  );
  const pods = await post<{ id: string }>(
    'config_items',
    [0, 1, 2, 3].map((i) =>
      item({
        name: `web-pod-${i}-${run}`,
        type: `${cls}::Pod`,
        parent_id: replicaSet.id,
        status: i === 3 ? 'CrashLoopBackOff' : 'Running',
        health: i === 3 ? 'unhealthy' : 'healthy',
        config: { spec: { containers: [{ name: 'web' }] } },
      }),
    ),
  );
  const [service] = await post<{ id: string }>(
    'config_items',
    item({
      name: `web-svc-${run}`,
      type: `${cls}::Service`,
      status: 'Active',
      health: 'healthy',
      config: { spec: { port: 80 } },
    }),
  );
  const [deleted] = await post<{ id: string }>(
    'config_items',
    item({
      name: `old-cm-${run}`,
      type: `${cls}::ConfigMap`,
      status: 'Gone',
      health: 'unknown',
      config: { data: {} },
      deleted_at: ago(HOUR),
    }),
  );
  await post('config_relationships', {
    config_id: deployment.id,
    related_id: service.id,
    relation: 'exposes',
    selector_id: 'manual',
  });
  const [change] = await post<{ id: string }>('config_changes', {
    config_id: deployment.id,
    change_type: 'diff',
    severity: 'medium',
    source: 'e2e',
    summary: 'spec.replicas: 3 -> 7',
    diff: DIFF,
    count: 3,
    first_observed: ago(5 * HOUR),
    external_created_by: 'ci-bot',
    created_at: ago(HOUR),
  });
  await post('config_changes', [
    {
      config_id: deployment.id,
      change_type: 'ScalingReplicaSet',
      severity: 'info',
      source: 'kubernetes',
      summary: 'scaled up',
      created_at: ago(2 * HOUR),
    },
    {
      config_id: pods[3].id,
      change_type: 'BackOff',
      severity: 'high',
      source: 'kubernetes',
      summary: 'back-off restarting',
      created_at: ago(HOUR / 2),
    },
    {
      config_id: deleted.id,
      change_type: 'deleted',
      severity: 'info',
      source: 'e2e',
      summary: 'removed',
      created_at: ago(HOUR),
    },
  ]);
  const [longInsight] = await post<{ id: string }>('config_analysis', {
    config_id: deployment.id,
    analyzer: 'no-resource-limits',
    analysis_type: 'reliability',
    severity: 'medium',
    message: `The container web has no resource limits. ${'x'.repeat(700)}`,
    source: 'e2e',
  });
  await post('config_analysis', {
    config_id: pods[3].id,
    analyzer: 'unhealthy-over-an-hour',
    analysis_type: 'availability',
    severity: 'high',
    message: 'The pod has been unhealthy for over an hour',
    source: 'e2e',
  });
  return {
    cls,
    scraper: scraper.id,
    deployment: deployment.id,
    deploymentName: `web-${run}`,
    replicaSet: replicaSet.id,
    service: service.id,
    serviceName: `web-svc-${run}`,
    deleted: deleted.id,
    pods: pods.map((p) => p.id),
    change: change.id,
    longInsight: longInsight.id,
  };
}

describe.each([1440, 1024])('catalog at %i px', (width) => {
  let browser: Browser;
  let page: Page;
  let f: Fixture;

  beforeAll(async () => {
    f = await makeFixture();
    browser = await launch();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `catalog-${width}-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const search = () => new URL(page.url()).searchParams;
  const settled = async () => poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  const shot = (name: string) => screenshot(page, `catalog-${width}-${name}`);
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

  it('is in the sidebar; /configs redirects; tabs Catalog, Changes, Insights, Scrapers in that order', async () => {
    await page.goto(`${baseUrl()}/configs`);
    await page.waitForURL('**/catalog');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => nav.getByRole('link', { name: 'Catalog' }).getAttribute('aria-current')).toBe('page');
    const tabs = page.getByRole('navigation', { name: 'Catalog sections' }).getByRole('link');
    await poll(() => tabs.allInnerTexts()).toEqual(['Catalog', 'Changes', 'Insights', 'Scrapers']);
  });

  it('shows the summary by provider and type; a favourite sorts first; a row click filters', async () => {
    await page.goto(`${baseUrl()}/catalog`);
    const summary = page.getByRole('table', { name: 'Catalog summary' });
    const mine = summary.locator('tbody tr').filter({ hasText: `${f.cls}::Pod` });
    await poll(() => mine.count()).toBe(1);
    // four pods, one unhealthy; the deleted ConfigMap is not counted
    expect(await mine.locator('td').nth(2).innerText()).toBe('4');
    expect(await mine.getByText('unhealthy').count()).toBe(1);
    expect(
      await summary
        .locator('tbody tr')
        .filter({ hasText: `${f.cls}::ConfigMap` })
        .count(),
    ).toBe(0);
    // the Deployment's cost: $30 (no decimals above 10) with a red badge (1-day $2 is 100% over
    // the $1 daily average)
    const dep = summary.locator('tbody tr').filter({ hasText: `${f.cls}::Deployment` });
    await poll(() => dep.innerText()).toMatch(/\$30(?!\.)/);
    expect(await dep.innerText()).toContain('+100%');

    await mine.getByRole('button', { name: `Pin ${f.cls}::Pod as favourite` }).click();
    await poll(() => summary.locator('tbody tr').first().innerText()).toContain(`${f.cls}::Pod`);
    expect(await page.evaluate(() => localStorage.getItem('watchdeck.catalog.favouriteTypes'))).toContain(
      `${f.cls}::Pod`,
    );
    await shot('summary');
    // unpin so the other width starts from the same place
    await summary
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: `Unpin ${f.cls}::Pod` })
      .click();

    await summary
      .locator('tbody tr')
      .filter({ hasText: `${f.cls}::Pod` })
      .locator('td')
      .nth(1)
      .click();
    await poll(() => search().get('configType')).toBe(`${f.cls}::Pod`);
    const list = page.getByRole('table', { name: 'Catalog' });
    await poll(() => list.locator('tbody tr').count()).toBe(4);
    await settled();
    const headers = await list.locator('thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual([
      'NAME',
      'TYPE',
      'STATUS',
      'CHANGES',
      'TAGS',
      'ANALYSIS',
      'COST',
      'CREATED',
      'UPDATED',
      'CHANGED',
    ]);
    await shot('list');
  });

  it('filters the flat list by health, search, and shows deleted items when Hide Deleted Catalog is off', async () => {
    await page.goto(`${baseUrl()}/catalog?configType=${encodeURIComponent(`${f.cls}::Pod`)}&health=unhealthy:1`);
    const list = page.getByRole('table', { name: 'Catalog' });
    await poll(() => list.locator('tbody tr').filter({ hasText: 'CrashLoopBackOff' }).count()).toBe(1);
    await settled();
    expect(await list.locator('tbody tr').count()).toBe(1);

    // search (debounced into the URL) for the run's class: every live item of it
    await page.goto(`${baseUrl()}/catalog`);
    await page.getByRole('searchbox', { name: 'Search' }).fill(f.cls);
    await poll(() => search().get('search')).toBe(f.cls);
    await poll(() => list.locator('tbody tr').count()).toBe(7);
    await settled();
    // default sort: by type ascending (then name)
    const types = await list.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(types).toEqual([...types].sort());
    expect(types).not.toContain('ConfigMap');

    await page.getByRole('button', { name: 'Preferences' }).click();
    const toggle = page.getByRole('switch', { name: 'Hide Deleted Catalog' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await page.keyboard.press('Escape');
    await poll(() => list.locator('tbody tr').count()).toBe(8);
    expect(await list.locator('thead th').allInnerTexts()).toContain('DELETED AT');
    await shot('list-with-deleted');
    await page.getByRole('button', { name: 'Preferences' }).click();
    await page.getByRole('switch', { name: 'Hide Deleted Catalog' }).click();
    await page.keyboard.press('Escape');
    await poll(() => list.locator('tbody tr').count()).toBe(7);

    // group by type: one expandable group row per type
    await page.getByLabel('Group By').selectOption('type');
    await poll(() => search().get('groupBy')).toBe('type');
    await poll(() => list.locator('tbody tr[aria-expanded]').count()).toBe(4);
    await shot('list-grouped');
  });

  it('summarises on the server by any Group By choice with the filters applied; a tag row filters by the tag', async () => {
    const bodies: Record<string, unknown>[] = [];
    const onRequest = (r: import('playwright-core').Request) => {
      if (r.url().endsWith('/api/catalog/summary')) bodies.push(r.postDataJSON() as Record<string, unknown>);
    };
    page.on('request', onRequest);
    try {
      await page.goto(`${baseUrl()}/catalog?groupBy=tag:cluster&health=unhealthy:1`);
      const summary = page.getByRole('table', { name: 'Catalog summary' });
      const e2e = summary.locator('tbody tr').filter({ has: page.getByRole('cell', { name: 'e2e', exact: true }) });
      await poll(() => e2e.count()).toBe(1);
      await settled();
      // the request of seed 002 section 7.1, grouped and filtered on the server
      expect(bodies.at(-1)).toEqual({
        groupBy: ['tags.cluster'],
        deleted: false,
        health: 'unhealthy:1',
        changes: { since: '30d' },
        analysis: { since: '30d' },
        cost: '30d',
      });
      expect((await summary.locator('thead th').allInnerTexts()).map((h) => h.trim())).toEqual([
        'CLUSTER',
        'COUNT',
        'HEALTH',
        'ANALYSIS',
        'CHANGES',
        'COST',
      ]);
      // what the server answers for the same request is what the row shows: unhealthy items only
      const res = await fetch(`${baseUrl()}/api/catalog/summary`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(bodies.at(-1)),
      });
      const rows = (await res.json()) as { 'tags.cluster': string | null; count: number; health: object }[];
      const row = rows.find((r) => r['tags.cluster'] === 'e2e');
      expect(row?.health).toEqual({ unhealthy: row?.count });
      expect(await e2e.locator('td').nth(1).innerText()).toBe(String(row?.count));
      expect(await e2e.getByText('healthy', { exact: true }).count()).toBe(0);
      await shot('summary-by-tag');

      // Changed: items with changes in 30 days against the rest
      await page.goto(`${baseUrl()}/catalog`);
      await page.getByLabel('Group By').selectOption('changed');
      await poll(() => search().get('groupBy')).toBe('changed');
      await poll(() => summary.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['Unchanged', 'Changed']);
      expect(bodies.at(-1)?.groupBy).toEqual(['changed']);
      await shot('summary-by-changed');

      // Analysis: one row per set of open insight types, the rest under No insights
      await page.getByLabel('Group By').selectOption('analysis');
      await poll(() => search().get('groupBy')).toBe('analysis');
      await poll(() => summary.getByText('No insights').count()).toBe(1);
      await poll(() =>
        summary
          .locator('tbody tr')
          .filter({ hasText: /availability/ })
          .count(),
      ).toBeGreaterThan(0);
      expect((await summary.locator('thead th').allInnerTexts()).map((h) => h.trim())).toEqual([
        'COUNT',
        'HEALTH',
        'ANALYSIS',
        'CHANGES',
        'COST',
      ]);
      await shot('summary-by-analysis');

      // a tag row sets the tag filter; the summary stays (no type or search)
      await page.goto(`${baseUrl()}/catalog?groupBy=tag:cluster`);
      await poll(() => e2e.count()).toBe(1);
      await e2e.locator('td').nth(1).click();
      await poll(() => search().get('tags')).toBe('cluster____e2e:1');
      await poll(() => bodies.at(-1)?.tags).toBe('cluster____e2e:1');
      await poll(() => summary.locator('tbody tr').count()).toBe(1);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('opens a config: breadcrumb, tabs with counts, the body sorted with lines selected in the URL, the sidebar', async () => {
    await page.goto(`${baseUrl()}/catalog/${f.deployment}`);
    const crumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await poll(() => crumb.innerText()).toContain(f.deploymentName);
    expect(await crumb.innerText()).toContain('Deployment');
    const tabs = page.getByRole('navigation', { name: 'Config sections' }).getByRole('link');
    expect((await tabs.allInnerTexts()).map((t) => t.replace(/\d+/g, '').trim())).toEqual([
      'Config',
      'Changes',
      'Insights',
      'Relationships',
      'Playbooks',
      'Checks',
    ]);
    // two changes and one open insight on the Deployment itself
    expect(await page.locator('[data-count="changes"]').innerText()).toBe('2');
    expect(await page.locator('[data-count="analysis"]').innerText()).toBe('1');

    // the body sorted by key: apiVersion, metadata, spec
    const body = page.getByRole('region', { name: 'Config body' });
    const lines = body.locator('tr[data-line] td:nth-child(2)');
    await poll(() => lines.first().innerText()).toBe('{');
    const text = (await lines.allInnerTexts()).join('\n');
    expect(text.indexOf('apiVersion')).toBeLessThan(text.indexOf('metadata'));
    expect(text.indexOf('metadata')).toBeLessThan(text.indexOf('spec'));
    await body.getByRole('button', { name: 'Line 2' }).click();
    await body.getByRole('button', { name: 'Line 4' }).click();
    await poll(() => search().getAll('selected')).toEqual(['2', '4']);
    await poll(() => body.locator('tr[data-selected]').count()).toBe(2);
    await page.reload();
    await poll(() => body.locator('tr[data-selected]').count()).toBe(2);
    await page.getByRole('radio', { name: 'Raw' }).click();
    await poll(() => search().get('view')).toBe('raw');
    // raw: as stored (spec first)
    await poll(async () => (await lines.allInnerTexts()).join('\n').indexOf('"spec"')).toBeLessThan(
      (await lines.allInnerTexts()).join('\n').indexOf('"apiVersion"'),
    );

    // the sidebar: beside the tabs at 1440, behind a button at 1024
    if (width < 1280) {
      expect(await page.getByRole('complementary', { name: 'Config sidebar' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Show details' }).click();
    }
    const side = page.getByRole('complementary', { name: 'Config sidebar' });
    await poll(() => side.count()).toBe(1);
    const sideText = await side.innerText();
    expect(sideText).toContain('Last scraped more than an hour ago');
    expect(sideText).toMatch(/\$30(?!\.)/);
    expect(sideText).toContain('app.kubernetes.io');
    expect(await side.getByRole('link', { name: f.cls + '::Deployment' }).getAttribute('href')).toBe(
      `/catalog?type=${encodeURIComponent(`${f.cls}::Deployment`)}`,
    );
    expect(await side.getByRole('link', { name: /e2e-scraper-/ }).getAttribute('href')).toBe(
      `/catalog/scrapers/${f.scraper}`,
    );
    await shot('detail');

    // Link to Incident from the config: the shared dialog
    await page.getByRole('button', { name: 'Attach as Evidence' }).click();
    await poll(() => page.getByRole('dialog', { name: 'Link to Incident' }).count()).toBe(1);
    await page.keyboard.press('Escape');

    // a deleted config: red marker, Deleted, Last status
    await page.goto(`${baseUrl()}/catalog/${f.deleted}`);
    await poll(() => page.locator('[data-deleted-marker]').count()).toBe(1);
    expect(await page.locator('[data-deleted-marker]').getAttribute('aria-label')).toMatch(/^Deleted: \d{4}-/);
    if (width < 1280) await page.getByRole('button', { name: 'Show details' }).click();
    await poll(() => page.getByRole('complementary', { name: 'Config sidebar' }).innerText()).toContain('LAST STATUS');
    await shot('detail-deleted');

    await page.goto(`${baseUrl()}/catalog/00000000-0000-4000-8000-000000000001`);
    await poll(() => page.getByText('Details not found').count()).toBe(1);
  });

  it('lists changes with filters in the URL, click-to-filter chips, and the diff dialog', async () => {
    await page.goto(`${baseUrl()}/catalog/changes?configTypes=${encodeURIComponent(`${f.cls}::Deployment`)}:1`);
    const table = page.getByRole('table', { name: 'Changes' });
    await poll(() => table.locator('tbody tr').count()).toBe(2);
    await settled();
    expect((await table.locator('thead th').allInnerTexts()).map((h) => h.trim())).toEqual([
      'LAST SEEN',
      'CATALOG',
      'TYPE',
      'SUMMARY',
      'TAGS',
      'CREATED BY',
    ]);
    // the folded change: its count and first observed
    const diffRow = table.locator('tbody tr').filter({ hasText: 'spec.replicas: 3 -> 7' });
    expect(await diffRow.innerText()).toMatch(/×3 since/);
    expect(await diffRow.innerText()).toContain('ci-bot');

    // a click on a value filters by it and shows a removable chip
    await diffRow.getByRole('button', { name: 'ci-bot' }).click();
    await poll(() => search().get('external_created_by')).toBe('ci-bot');
    await poll(() => table.locator('tbody tr').count()).toBe(1);
    const chips = page.getByLabel('Active filters');
    await poll(() => chips.innerText()).toContain('Created By: ci-bot');
    await shot('changes-filtered');
    await chips.getByRole('button', { name: 'Remove Created By filter' }).click();
    await poll(() => search().get('external_created_by')).toBeNull();
    await poll(() => table.locator('tbody tr').count()).toBe(2);

    // the row opens the change detail with the diff, added lines green and removed red
    await table.locator('tbody tr').filter({ hasText: 'spec.replicas: 3 -> 7' }).locator('td').first().click();
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.getByLabel('Diff').count()).toBe(1);
    await poll(() => search().get('changeId')).toBe(f.change);
    expect(await dialog.locator('[data-diff="add"]').allInnerTexts()).toEqual(['+  replicas: 7']);
    expect(await dialog.locator('[data-diff="remove"]').allInnerTexts()).toEqual(['-  replicas: 3']);
    const colours = await dialog
      .locator('[data-diff="add"], [data-diff="remove"]')
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
    expect(colours[0]).not.toBe(colours[1]);
    expect(colours.every((c) => c !== 'rgba(0, 0, 0, 0)')).toBe(true);
    await shot('change-diff');
    await page.keyboard.press('Escape');
    await poll(() => search().get('changeId')).toBeNull();

    // deleted configs' changes hide by default; the preference shows them
    await page.goto(`${baseUrl()}/catalog/changes?configTypes=${encodeURIComponent(`${f.cls}::ConfigMap`)}:1`);
    await settled();
    await poll(() => table.innerText()).toContain('No data available');
    await page.getByRole('button', { name: 'Preferences' }).click();
    await page.getByRole('switch', { name: 'Hide Deleted Catalog Changes' }).click();
    await page.keyboard.press('Escape');
    await poll(() => table.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Preferences' }).click();
    await page.getByRole('switch', { name: 'Hide Deleted Catalog Changes' }).click();
    await page.keyboard.press('Escape');
  });

  it("shows a config's changes with upstream and downstream toggles", async () => {
    await page.goto(`${baseUrl()}/catalog/${f.deployment}/changes`);
    const table = page.getByRole('table', { name: 'Changes' });
    // downstream on by default: the Deployment's two and its Pod's back-off
    await poll(() => table.locator('tbody tr').count()).toBe(3);
    expect(await page.getByRole('switch', { name: 'Downstream' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('switch', { name: 'Upstream' }).getAttribute('aria-checked')).toBe('false');
    await page.getByRole('switch', { name: 'Downstream' }).click();
    await poll(() => search().get('downstream')).toBe('false');
    await poll(() => table.locator('tbody tr').count()).toBe(2);
    await shot('config-changes');
    // a Pod with upstream on sees the Deployment's changes
    await page.goto(`${baseUrl()}/catalog/${f.pods[3]}/changes?upstream=true`);
    await poll(() => table.locator('tbody tr').count()).toBe(3);
  });

  it('pages insights, cuts long messages at 500 characters and opens the detail', async () => {
    await page.goto(`${baseUrl()}/catalog/insights?configType=${encodeURIComponent(`${f.cls}::Deployment`)}`);
    const list = page.getByRole('list', { name: 'Insights' });
    await poll(() => list.getByRole('listitem').count()).toBe(1);
    const message = await list.locator('[data-message]').first().innerText();
    expect(message.length).toBe(501);
    expect(message.endsWith('…')).toBe(true);
    await shot('insights');
    await list.getByRole('listitem').first().click();
    await poll(() => search().get('insightId')).toBe(f.longInsight);
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.innerText()).toContain('no-resource-limits');
    expect(await dialog.innerText()).toContain('x'.repeat(700));
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl()}/catalog/insights?severity=high&analyzer=unhealthy-over-an-hour`);
    // the unhealthy Pod's insight (its name: web-pod-3-<run>)
    const pod3 = `web-pod-3-${f.deploymentName.slice('web-'.length)}`;
    await poll(() => list.getByRole('listitem').filter({ hasText: pod3 }).count()).toBe(1);
  });

  it('loads the next 50 insights within 300 px of the end', async () => {
    // 60 insights on one pod: the first page has 50, scrolling to the end brings the other 10
    const pod = f.pods[0];
    const existing = await api<unknown[]>(`config_analysis?config_id=eq.${pod}&select=id`);
    if (existing.length < 60)
      await post(
        'config_analysis',
        Array.from({ length: 60 }, (_, i) => ({
          config_id: pod,
          analyzer: `e2e-${String(i).padStart(2, '0')}`,
          analysis_type: 'other',
          severity: 'low',
          message: `insight ${i}`,
          last_observed: ago(i * 60_000),
        })),
      );
    const req: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/db/config_analysis_items')) req.push(r.url());
    });
    await page.goto(`${baseUrl()}/catalog/${pod}/insights`);
    const list = page.getByRole('list', { name: 'Insights' });
    await poll(() => page.getByText(/^\d+ of 60$/).count()).toBe(1);
    expect(await page.getByText('50 of 60').count()).toBe(1);
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await poll(() => page.getByText('60 of 60').count()).toBe(1);
    expect(req.some((u) => /offset=50\b/.test(u))).toBe(true);
  });

  it('shows relationships as a table grouped by type, with the Outgoing/Incoming/Soft rules and unlink', async () => {
    await page.goto(`${baseUrl()}/catalog/${f.deployment}/relationships`);
    const table = page.getByRole('table', { name: 'Relationships' });
    // hard: the ReplicaSet and its four Pods, grouped by type
    await poll(() => table.locator('tbody tr[aria-expanded]').count()).toBe(2);
    await poll(() => table.locator('tbody tr:not([aria-expanded])').count()).toBe(5);
    const outgoing = page.getByRole('switch', { name: 'Outgoing' });
    const incoming = page.getByRole('switch', { name: 'Incoming' });
    // Incoming off forces Outgoing on and locks it
    await incoming.click();
    await poll(() => search().get('incoming')).toBe('false');
    // the switches follow the URL on the next render: poll, do not read once
    await poll(() => outgoing.getAttribute('aria-checked')).toBe('true');
    await poll(() => outgoing.isDisabled()).toBe(true);
    await incoming.click();
    await poll(() => outgoing.isDisabled()).toBe(false);

    // soft: the manual link to the Service shows, and can be unlinked
    await page.getByRole('switch', { name: 'Soft' }).click();
    await poll(() => search().get('soft')).toBe('true');
    const svc = table.locator('tbody tr').filter({ hasText: f.serviceName });
    await poll(() => svc.count()).toBe(1);
    await poll(() => svc.innerText()).toContain('manual');
    await shot('relationships-table');

    // filters: only the Pods
    await page.goto(
      `${baseUrl()}/catalog/${f.deployment}/relationships?soft=true&configTypes=${encodeURIComponent(`${f.cls}::Pod`)}:1`,
    );
    await poll(() => table.locator('tbody tr:not([aria-expanded])').count()).toBe(4);
    await page.goto(`${baseUrl()}/catalog/${f.deployment}/relationships?soft=true&health=unhealthy:1`);
    await poll(() => table.locator('tbody tr:not([aria-expanded])').count()).toBe(1);
  });

  it('draws the relationship graph: groups expand on click, layout and edge style toggle', async () => {
    await page.goto(`${baseUrl()}/catalog/${f.deployment}/relationships?view=graph&soft=true`);
    const graph = page.getByTestId('relationship-graph');
    await poll(() => graph.locator('[data-graph-node]').count()).toBeGreaterThan(0);
    // four Pods under the ReplicaSet: one group node, collapsed (more than 3)
    const group = graph.locator(`[data-graph-group="${f.cls}::Pod"]`);
    await poll(() => group.count()).toBe(1);
    expect(await group.getAttribute('aria-expanded')).toBe('false');
    const names = () =>
      graph.locator('[data-graph-node]').evaluateAll((els) => els.map((e) => e.getAttribute('data-graph-node')));
    expect(await names()).toEqual(expect.arrayContaining([f.deploymentName, f.serviceName]));
    expect((await names()).filter((n) => n?.startsWith('web-pod-'))).toHaveLength(0);
    await shot('graph-collapsed');
    await group.click();
    await poll(async () => (await names()).filter((n) => n?.startsWith('web-pod-')).length).toBe(4);
    expect(await group.getAttribute('aria-expanded')).toBe('true');
    // edges: bezier by default, then smooth-step
    const edgePaths = () =>
      graph.locator('.react-flow__edge-path').evaluateAll((els) => els.map((e) => e.getAttribute('d') ?? ''));
    await poll(async () => (await edgePaths()).length).toBeGreaterThan(3);
    expect((await edgePaths()).some((d) => d.includes('C'))).toBe(true);
    // horizontal: the ReplicaSet is right of the Deployment
    const box = async (name: string) => graph.locator(`[data-graph-node="${name}"]`).boundingBox();
    const depBox = await box(f.deploymentName);
    const rsName = (await names()).find((n) => n?.startsWith('web-rs-'))!;
    expect((await box(rsName))!.x).toBeGreaterThan(depBox!.x);
    await shot('graph-expanded');

    await page.getByRole('radio', { name: 'Smooth step' }).click();
    await poll(() => search().get('edge')).toBe('smoothstep');
    await poll(async () => (await edgePaths()).every((d) => !d.includes('C'))).toBe(true);
    await page.getByRole('radio', { name: 'Vertical' }).click();
    await poll(() => search().get('layout')).toBe('vertical');
    await poll(() => graph.locator(`[data-graph-node="${f.deploymentName}"]`).count()).toBe(1);
    await poll(async () => (await box(rsName))!.y > (await box(f.deploymentName))!.y).toBe(true);
    await shot('graph-vertical');
  });

  it('unlinks a manual link', async () => {
    if (width !== 1024) return; // the link is removed once; the other width has checked it shows
    await page.goto(`${baseUrl()}/catalog/${f.deployment}/relationships?soft=true`);
    const table = page.getByRole('table', { name: 'Relationships' });
    const svc = table.locator('tbody tr').filter({ hasText: f.serviceName });
    await poll(() => svc.count()).toBe(1);
    await svc.getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click();
    await poll(() => toast('Deleted config link successfully').count()).toBe(1);
    await poll(() => svc.count()).toBe(0);
    const rows = await api<unknown[]>(`config_relationships?config_id=eq.${f.deployment}&selector_id=eq.manual`);
    expect(rows).toHaveLength(0);
  });

  it('lists scrapers under the catalog; a scraper has Spec, Job History and Run now', async () => {
    await page.goto(`${baseUrl()}/catalog/scrapers`);
    await poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toMatch(
      /Catalog\s*\/\s*Catalog Scrapers/,
    );
    const tabs = page.getByRole('navigation', { name: 'Catalog sections' });
    expect(await tabs.getByRole('link', { name: 'Scrapers' }).getAttribute('aria-current')).toBe('page');
    const row = page
      .getByRole('row')
      .filter({ hasText: /e2e-scraper-/ })
      .first();
    await poll(() => row.count()).toBe(1);
    await shot('scrapers');
    await page.goto(`${baseUrl()}/catalog/scrapers/${f.scraper}`);
    await poll(() => page.getByRole('tab', { name: 'Spec' }).count()).toBe(1);
    expect(await page.getByRole('tab', { name: 'Job History' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Run now' }).count()).toBe(1);
    await shot('scraper-detail');
    // the generic settings route is not for config scrapers
    await page.goto(`${baseUrl()}/settings/config_scrapers`);
    await poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
  });

  it("lands an incident's config, change and insight evidence on these screens", async () => {
    if (width !== 1440) return;
    const [incident] = await post<{ id: string }>('incidents', { title: `Catalog links e2e ${Date.now()}` });
    const [hypothesis] = await post<{ id: string }>('hypotheses', {
      incident_id: incident.id,
      title: 'root',
      type: 'root',
    });
    // one row a call: a bulk insert takes one set of keys
    await post('evidences', {
      hypothesis_id: hypothesis.id,
      type: 'config',
      config_id: f.deployment,
      description: 'the deployment',
    });
    await post('evidences', {
      hypothesis_id: hypothesis.id,
      type: 'config_change',
      config_change_id: f.change,
      description: 'the scale-up',
    });
    await post('evidences', {
      hypothesis_id: hypothesis.id,
      type: 'config_analysis',
      config_analysis_id: f.longInsight,
      description: 'no limits',
    });
    await page.goto(`${baseUrl()}/incidents/${incident.id}?tab=actions`);
    const links = page.locator('[data-evidence-id] a[href^="/catalog/"]');
    await poll(() => links.count()).toBe(3);
    const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(hrefs).toEqual(
      expect.arrayContaining([
        `/catalog/${f.deployment}`,
        `/catalog/${f.deployment}/changes?changeId=${f.change}`,
        `/catalog/${f.deployment}/insights?insightId=${f.longInsight}`,
      ]),
    );
    await page.locator(`[data-evidence-id] a[href="/catalog/${f.deployment}/changes?changeId=${f.change}"]`).click();
    await poll(() => page.getByRole('dialog').getByLabel('Diff').count()).toBe(1);
    await shot('evidence-change');
  });
});
