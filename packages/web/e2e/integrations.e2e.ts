// /settings/integrations and /settings/integrations/{type}/{id} against the shared server (demo
// scrapers and topologies, run once at seeding, and log backends, never run): search, the add dialog with both groups, a GitOps
// option's generated Flux manifests and Helm command, adding a topology directly, editing and
// deleting it from its detail page, and 'Unknown type'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

/** Replaces the whole document of the CodeMirror editor labelled `label`, as a person would. */
async function setEditor(page: Page, label: string, text: string) {
  const editor = page.locator(`.cm-content[aria-label="${label}"]`).first();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

describe('integrations', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const table = () => page.getByRole('table', { name: 'Integrations' });
  const row = (name: string) =>
    table()
      .getByRole('row')
      .filter({ has: page.getByText(name, { exact: true }) });
  const dialog = () => page.getByRole('dialog');

  it('lists scrapers, topologies and log backends, with a search kept in the URL', async () => {
    await page.goto(`${baseUrl()}/settings/integrations`);
    await poll(() => row('kubernetes-prod-eu-1').count()).toBe(1);
    expect(await row('production').innerText()).toMatch(/Topology/);
    expect(await row('app-logs').innerText()).toMatch(/Log Backend/);
    expect(await row('kubernetes-prod-eu-1').innerText()).toMatch(/Catalog Scraper/);
    // the demo's catalog scrapers and topologies ran once during seeding (real runs): their status
    // shows; the log backend has not run, so it claims none
    await poll(() => row('kubernetes-prod-eu-1').locator('[data-status]').getAttribute('data-status')).toBe('SUCCESS');
    expect(await row('production').locator('[data-status]').getAttribute('data-status')).toBe('SUCCESS');
    expect(await row('app-logs').locator('[data-status]').count()).toBe(0);
    await screenshot(page, 'integrations-list');

    await page.getByRole('searchbox', { name: 'Search integrations' }).fill('app-lo');
    await page.waitForURL(/search=app-lo/);
    await poll(() => table().locator('tbody tr').count()).toBe(1);
    expect(await row('app-logs').count()).toBe(1);
    await page.reload();
    await poll(() => page.getByRole('searchbox', { name: 'Search integrations' }).inputValue()).toBe('app-lo');
    await poll(() => table().locator('tbody tr').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search integrations' }).fill('');
    await poll(() => row('production').count()).toBe(1);
  });

  it('offers both groups in a full-size dialog', async () => {
    await page.getByRole('button', { name: 'Add Integration' }).click();
    await poll(() => dialog().getByRole('heading', { name: 'Add Integration' }).count()).toBe(1);
    expect(await dialog().getAttribute('data-size')).toBe('full');
    const gitops = dialog().getByRole('region', { name: 'Add via GitOps' });
    const direct = dialog().getByRole('region', { name: 'Add Directly' });
    expect((await gitops.getByRole('button').allInnerTexts()).map((t) => t.trim())).toEqual([
      'AWS',
      'Azure',
      'Prometheus',
      'Flux',
      'Kubernetes',
      'Mission Control',
    ]);
    expect((await direct.getByRole('button').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Custom Topology',
      'Catalog Scraper',
      'Log Backends',
    ]);
    await screenshot(page, 'integrations-add-chooser');
  });

  it('generates Flux manifests and a Helm command from the GitOps form', async () => {
    await dialog().getByRole('button', { name: 'Kubernetes', exact: true }).click();
    const namespace = dialog().getByLabel(/^Namespace\*?$/);
    await poll(() => namespace.inputValue()).toBe('mission-control');
    expect(await dialog().getByRole('note').innerText()).toMatch(/The chart must be installed in Flux/);
    await setEditor(page, 'Values', 'clusterName: e2e-cluster\nscraper:\n  schedule: "@every 30m"\n');
    const flux = dialog().getByLabel('Flux manifests', { exact: true });
    await poll(() => flux.innerText()).toMatch(/clusterName: e2e-cluster/);
    const manifests = await flux.innerText();
    expect(manifests).toMatch(/kind: HelmRepository[\s\S]*url: https:\/\/flanksource\.github\.io\/charts/);
    expect(manifests).toMatch(
      /kind: HelmRelease[\s\S]*name: mission-control-kubernetes\n\s+namespace: mission-control/,
    );
    expect(manifests).toMatch(/interval: 30m/);
    expect(manifests).toMatch(/chart: mission-control-kubernetes/);
    await screenshot(page, 'integrations-gitops-flux');

    await namespace.fill('platform');
    await dialog().getByRole('tab', { name: 'Helm CLI' }).click();
    const helm = dialog().getByLabel('Helm command', { exact: true });
    await poll(() => helm.innerText()).toMatch(/-n platform --create-namespace/);
    const command = await helm.innerText();
    expect(command).toMatch(/^helm repo add flanksource https:\/\/flanksource\.github\.io\/charts/);
    expect(command).toMatch(/helm install mission-control-kubernetes flanksource\/mission-control-kubernetes/);
    expect(command).toMatch(/--set clusterName=e2e-cluster/);
    expect(command).toMatch(/--set 'scraper\.schedule=@every 30m'/);
    await screenshot(page, 'integrations-gitops-helm');

    // values that are not YAML are reported, nothing is generated from them
    await setEditor(page, 'Values', 'clusterName: [unclosed');
    await poll(() =>
      dialog()
        .getByText(/Values are not valid YAML/)
        .count(),
    ).toBe(1);
    expect(await dialog().getByLabel('Helm command', { exact: true }).count()).toBe(0);

    await dialog().getByRole('button', { name: 'Back' }).click();
    await poll(() => dialog().getByRole('region', { name: 'Add Directly' }).count()).toBe(1);
  });

  it('adds a custom topology directly', async () => {
    await dialog().getByRole('button', { name: 'Custom Topology', exact: true }).click();
    await dialog()
      .getByLabel(/^Name\*?$/)
      .fill('e2e-integration-topology');
    await setEditor(page, 'Spec', 'components:\n  - name: e2e-api\n    type: API\n');
    await screenshot(page, 'integrations-add-topology');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog().count()).toBe(0);
    await poll(() => row('e2e-integration-topology').count()).toBe(1);
    expect(await row('e2e-integration-topology').innerText()).toMatch(/Topology/);
  });

  it('opens the detail page with Spec and Job History tabs, and returns to the list after an update', async () => {
    await row('e2e-integration-topology').click();
    await page.waitForURL(/\/settings\/integrations\/topologies\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('tab', { name: 'Spec' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tab', { name: 'Job History' }).count()).toBe(1);
    await poll(() => page.getByLabel(/^Name\*?$/).inputValue()).toBe('e2e-integration-topology');
    await screenshot(page, 'integrations-detail');
    await page.getByRole('tab', { name: 'Job History' }).click();
    await page.waitForURL(/tab=jobHistory/);
    await poll(() => page.getByRole('table', { name: 'Job history' }).count()).toBe(1);
    await page.getByRole('tab', { name: 'Spec' }).click();
    await page.getByLabel('Schedule').selectOption('@every 30m');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(/\/settings\/integrations$/);
    await poll(() => row('e2e-integration-topology').count()).toBe(1);
  });

  it('deletes it from the detail page and returns to the list', async () => {
    await row('e2e-integration-topology').click();
    await page.waitForURL(/\/settings\/integrations\/topologies\//);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/settings\/integrations$/);
    await poll(() => row('production').count()).toBe(1);
    // the list may show its cached rows for a moment while the refetch after the delete runs
    await poll(() => row('e2e-integration-topology').count()).toBe(0);
  });

  it("shows 'Unknown type' for other types, and 'No resources found' for an unknown id", async () => {
    await page.goto(`${baseUrl()}/settings/integrations/canaries/00000000-0000-4000-8000-000000000000`);
    await poll(() => page.getByText('Unknown type', { exact: true }).count()).toBe(1);
    await screenshot(page, 'integrations-unknown-type');
    await page.goto(`${baseUrl()}/settings/integrations/scrapers/00000000-0000-4000-8000-000000000000`);
    await poll(() => page.getByText('No resources found', { exact: true }).count()).toBe(1);
  });
});
