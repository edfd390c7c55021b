// Resources as code in the browser (issue 22): the kubeconfig modal's Download gives
// watchdeck-kubeconfig.yaml, kubectl applies a canary with it, the check engine runs it and
// /health shows it passing; its settings page is read-only (source kubectl). At 1440 and 1024 px.
// The shared server runs with AUTH=none: kubectl sends no token over plain HTTP, and needs none.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import YAML from 'yaml';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

const run = promisify(execFile);
const CHECK = 'e2e kubectl about';

interface SummaryCheck {
  id: string;
  name: string;
  status: 'healthy' | 'unhealthy' | null;
}

describe('resources as code', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let kubeconfig = '';

  const kubectl = (...args: string[]) =>
    run('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } }).catch(
      (err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? 'failed' }),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'watchdeck-e2e-kube-'));
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    if (kubeconfig) await kubectl('delete', 'canary', 'kubectl-e2e', '--ignore-not-found');
    await browser?.close();
  });

  it('downloads the kubeconfig from the user menu', async () => {
    await page.goto(`${baseUrl()}/health`);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download and install kubeconfig' });
    await poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByRole('link', { name: /Learn more/ }).getAttribute('href')).toMatch(/#resources-as-code$/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: 'Download kubeconfig' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('watchdeck-kubeconfig.yaml');
    kubeconfig = join(dir, 'watchdeck-kubeconfig.yaml');
    await download.saveAs(kubeconfig);
    const doc = YAML.parse(readFileSync(kubeconfig, 'utf8'));
    expect(doc.clusters[0].cluster.server).toBe(`${baseUrl()}/k8s`);
    expect(doc.users[0].user.token).toMatch(/^wdpat_/);
    await page.keyboard.press('Escape');
  });

  it('applies a canary with kubectl; it runs and shows on /health, read-only in settings', async () => {
    const file = join(dir, 'canary.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: watchdeck.io/v1',
        'kind: Canary',
        'metadata:',
        '  name: kubectl-e2e',
        '  labels: {app: kubectl-e2e}',
        'spec:',
        '  schedule: "@every 10s"',
        '  http:',
        `    - name: ${CHECK}`,
        `      url: ${baseUrl()}/api/about`,
        '',
      ].join('\n'),
    );
    const applied = await kubectl('apply', '-f', file);
    expect(applied.stdout.trim(), applied.stderr).toBe('canary.watchdeck.io/kubectl-e2e created');

    // the engine runs it (the scheduler reloads on the write): healthy within a few runs
    const status = async () => {
      const r = await fetch(`${baseUrl()}/api/canary/api/summary`);
      const checks = ((await r.json()) as { checks_summary: SummaryCheck[] }).checks_summary;
      return checks.find((c) => c.name === CHECK)?.status ?? 'absent';
    };
    await poll(status, 60_000).toBe('healthy');

    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(`${baseUrl()}/health?query=${encodeURIComponent(CHECK)}`);
      // Hide Passing is on by default: the passing check shows once it is off
      await page.getByRole('switch', { name: 'Hide Passing' }).click();
      await poll(() => page.getByTestId('check-row-name').filter({ hasText: CHECK }).count()).toBe(1);
      await screenshot(page, `kube-health-${width}`);
    }

    const rows = (await (await fetch(`${baseUrl()}/api/db/canaries?name=eq.kubectl-e2e&select=id,source`)).json()) as {
      id: string;
      source: string;
    }[];
    expect(rows).toEqual([{ id: expect.any(String), source: 'kubectl' }]);
    await page.goto(`${baseUrl()}/settings/canaries/${rows[0].id}`);
    await poll(() => page.getByLabel('Source').count()).toBe(1);
    expect(await page.getByLabel('Source').inputValue()).toBe('kubectl');
    // the spec as applied, in the read-only editor
    await page.getByRole('tab', { name: 'Code' }).click();
    await poll(() => page.getByText(`${baseUrl()}/api/about`).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await screenshot(page, 'kube-settings-read-only');
  });
});
