// /settings/playbook-sources on a server of its own, because a directory source must lie under
// the server's WATCHDECK_PLAYBOOK_ROOTS: an admin adds a directory source, syncs it (a good file
// and a bad one named with its field), and the synced playbook reads as such on /playbooks and
// opens read-only. At 1440 and 1024 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, poll } from './browser.ts';
import { startServer, type StartedServer } from './server.ts';

describe('playbook sources', () => {
  let server: StartedServer;
  let browser: Browser;
  let roots: string;
  beforeAll(async () => {
    roots = mkdtempSync(join(tmpdir(), 'e2e-playbook-roots-'));
    server = await startServer({ AUTH: 'none', WATCHDECK_PLAYBOOK_ROOTS: roots });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(roots, { recursive: true, force: true });
  });

  for (const width of [1440, 1024]) {
    it(`adds a directory source, syncs it and shows its playbooks read-only (${width} px)`, async () => {
      const page: Page = await browser.newPage({ viewport: { width, height: 900 } });
      const dialog = () => page.getByRole('dialog');
      const toast = (text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });
      const dir = join(roots, `runbooks-${width}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, `restart-web-${width}.yaml`),
        `title: Restart web ${width}\ndescription: Kept in git, synced\ncategory: Synced\nactions:\n  - name: restart\n    exec:\n      script: echo restarting\n`,
      );
      writeFileSync(join(dir, 'broken.yaml'), 'title: Broken\nactions:\n  - name: x\n    http: {}\n');

      await page.goto(`${server.baseUrl}/settings/playbook-sources`);
      await page.getByRole('button', { name: 'Add Playbook Source' }).click();
      await poll(() => dialog().getByRole('heading', { name: 'Add Playbook Source' }).count()).toBe(1);
      await dialog().getByLabel('Name').fill(`runbooks-${width}`);
      await dialog().getByLabel('Directory on the server').check();
      await dialog().getByLabel('Directory', { exact: true }).fill('/etc');
      await dialog().getByRole('button', { name: 'Save' }).click();
      await poll(() => dialog().getByRole('alert').innerText()).toMatch(
        /^directory: \/etc is outside the allowed roots/,
      );
      await dialog().getByLabel('Directory', { exact: true }).fill(dir);
      await dialog().getByRole('button', { name: 'Save' }).click();
      await poll(() => toast('Playbook source added').count()).toBe(1);
      const row = page.getByRole('row').filter({ hasText: `runbooks-${width}` });
      await poll(() => row.count()).toBe(1);
      expect(await row.innerText()).toMatch(/never/);

      await row.click();
      await poll(() =>
        dialog()
          .getByRole('heading', { name: `Edit runbooks-${width}` })
          .count(),
      ).toBe(1);
      await dialog().getByRole('button', { name: 'Sync now' }).click();
      await poll(() => toast(/1 added, 0 updated, 0 unchanged, 0 deleted, 1 errors/).count()).toBe(1);
      const errors = dialog().getByRole('list', { name: 'Sync errors' });
      await poll(() => errors.innerText()).toBe('broken.yaml: spec.actions[0].http.url: url or connection is required');
      await screenshot(page, `playbook-sources-${width}-synced`);
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await poll(() => row.innerText()).toMatch(/warning[\s\S]*1 errors/);
      await screenshot(page, `playbook-sources-${width}-list`);

      await page.goto(`${server.baseUrl}/playbooks`);
      const card = page.getByRole('article', { name: `Restart web ${width}` });
      await poll(() => card.count()).toBe(1);
      expect(await card.getByLabel('Synced from GitOps').getAttribute('title')).toBe(
        `Synced from GitOps: restart-web-${width}.yaml; change it there`,
      );
      expect(await card.getByRole('button', { name: `Delete Restart web ${width}` }).count()).toBe(0);
      await screenshot(page, `playbook-sources-${width}-cards`);
      await card.getByRole('button', { name: `View Restart web ${width}` }).click();
      await poll(() =>
        dialog()
          .getByRole('heading', { name: `Restart web ${width} (read-only)` })
          .count(),
      ).toBe(1);
      expect(await dialog().getByRole('note').innerText()).toBe(
        `Synced from GitOps file restart-web-${width}.yaml: it is changed in its source, not here.`,
      );
      expect(await dialog().getByRole('button', { name: 'Update' }).count()).toBe(0);
      expect(await dialog().getByLabel('Title').isDisabled()).toBe(true);
      await poll(() => dialog().locator('.cm-content').innerText()).toMatch(/script: echo restarting/);
      await screenshot(page, `playbook-sources-${width}-read-only`);
      await page.close();
    });
  }
});
