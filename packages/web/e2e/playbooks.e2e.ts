// Playbooks (seed 000 section 2, seed 002 section 2.16) against the real server, its run engine
// and demo data (AUTH=none: every request is the administrator, the System person): the cards,
// the spec editor with its validation, a run from a check drawer with parameters through to its
// output, its logs and a re-run, a run from a config's detail page and its Playbooks tab, the run
// list, and approvals by an approver and by someone who is not.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

/** The person AUTH=none acts as (server auth/caller.ts SYSTEM_PERSON). */
const SYSTEM_PERSON = '00000000-0000-0000-0000-00000000000a';

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${baseUrl()}/api/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', prefer: 'return=representation', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A playbook written the way a person would (through /api/db, source UI). */
async function createPlaybook(title: string, category: string | null, spec: Record<string, unknown>) {
  const name = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const [row] = await api<{ id: string }[]>('db/playbooks', {
    method: 'POST',
    body: JSON.stringify({ name, title, category, spec: { ...spec, title } }),
  });
  return row.id;
}

const checkByName = async (name: string) =>
  (await api<{ id: string }[]>(`db/checks?name=eq.${encodeURIComponent(name)}&select=id`))[0].id;

for (const width of [1440, 1024]) {
  describe(`playbooks at ${width} px`, () => {
    let browser: Browser;
    let page: Page;
    const tag = `w${width}`;

    beforeAll(async () => {
      browser = await launch();
      const context = await browser.newContext({ viewport: { width, height: 1000 }, acceptDownloads: true });
      page = await context.newPage();
    });
    afterEach(async ({ task }) => {
      if (task.result?.state === 'fail')
        await screenshot(page, `playbooks-${tag}-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    });
    afterAll(async () => {
      await browser?.close();
    });

    const toast = (text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });
    const settled = () => poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    const runId = () => /\/playbooks\/runs\/([0-9a-f-]{36})$/.exec(new URL(page.url()).pathname)?.[1];
    const runStatus = () => page.locator('dl [data-status]').first().getAttribute('data-status');
    /** Replaces the whole text of the dialog's CodeMirror editor. */
    const typeSpec = async (text: string) => {
      const editor = page.getByRole('dialog').locator('.cm-content');
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(text);
    };

    it('shows the playbooks as cards grouped by category, Other last', async () => {
      await page.goto(`${baseUrl()}/playbooks`);
      await poll(() => page.getByRole('heading', { name: 'Other', level: 2 }).count()).toBe(1);
      const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
      expect(headings).toEqual(expect.arrayContaining(['AWS', 'Database', 'Health', 'Kubernetes', 'Other']));
      expect(headings.at(-1)).toBe('Other');
      const other = page.getByRole('region', { name: 'Other' });
      expect(await other.getByRole('article', { name: 'Notify owners' }).count()).toBe(1);
      const card = page.getByRole('article', { name: 'Restart deployment' });
      for (const name of ['Edit Restart deployment', 'Delete Restart deployment', 'Run Restart deployment'])
        expect(await card.getByRole('button', { name }).count()).toBe(1);
      expect(await card.getByRole('link', { name: 'History of Restart deployment' }).getAttribute('href')).toMatch(
        /^\/playbooks\/runs\?playbook=[0-9a-f-]{36}$/,
      );
      await screenshot(page, `playbooks-${tag}-cards`);
    });

    it('creates a spec, shows what is wrong with it, and edits it', async () => {
      const title = `Smoke test ${tag}`;
      await page.goto(`${baseUrl()}/playbooks`);
      await settled();
      await page.getByRole('button', { name: 'Add Playbook' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Playbook' });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await poll(() => dialog.getByText('This field is required').count()).toBe(1);

      await dialog.getByLabel('Title').fill(title);
      // YAML that does not parse is refused before anything is sent
      await typeSpec('actions: [\n');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await poll(() => dialog.getByRole('alert').textContent()).toMatch(/flow sequence|Unexpected|end of/i);

      // a field the schema does not know is underlined in the editor, and the server names it
      await typeSpec(
        'category: Smoke\nchecks:\n  - types: [http]\nbogus: 1\nactions:\n  - name: hi\n    exec:\n      script: echo hi\n',
      );
      await poll(() => dialog.locator('.cm-lintRange-error, .cm-lint-marker-error').count(), 20_000).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await poll(() => toast(/^Unable to create playbook spec: .*bogus/).count()).toBe(1);
      expect(await dialog.getByRole('alert').textContent()).toContain('bogus');
      await screenshot(page, `playbooks-${tag}-spec-error`);

      await typeSpec(
        'category: Smoke\nchecks:\n  - types: [http]\nactions:\n  - name: hi\n    exec:\n      script: echo hi\n',
      );
      await dialog.getByRole('button', { name: 'Save' }).click();
      await poll(() => toast('Playbook Spec created successfully').count()).toBe(1);
      const card = page.getByRole('region', { name: 'Smoke' }).getByRole('article', { name: title });
      await poll(() => card.count()).toBe(1);

      await card.getByRole('button', { name: `Edit ${title}` }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${title}` });
      await poll(() => edit.locator('.cm-content').textContent()).toContain('script: echo hi');
      await typeSpec(
        'category: Smoke\ndescription: Says hi\nchecks:\n  - types: [http]\nactions:\n  - name: hi\n    exec:\n      script: echo hi\n',
      );
      await edit.getByRole('button', { name: 'Update' }).click();
      await poll(() => toast('Playbook Spec updated successfully').count()).toBe(1);
      await poll(() => card.textContent()).toContain('Says hi');
      await screenshot(page, `playbooks-${tag}-spec-saved`);
    }, 240_000);

    it('runs a playbook from a check drawer with parameters, shows its output, downloads its logs, re-runs it', async () => {
      const title = `Greet ${tag}`;
      const checkId = await checkByName('console api health');
      await createPlaybook(title, 'Smoke', {
        checks: [{ name: 'console api health' }],
        parameters: [
          { name: 'who', label: 'Who', type: 'text', required: true, properties: { format: 'dns1123' } },
          { name: 'loud', label: 'Loud', type: 'checkbox', default: 'true' },
          { name: 'size', label: 'Size', type: 'text', properties: { format: 'bytes' } },
        ],
        actions: [
          {
            name: 'greet',
            exec: {
              script:
                "printf '\\033[32mhello {{.params.who}}\\033[0m loud={{.params.loud}} size={{.params.size}}\\n'; echo 'docs: https://example.com/greet and ftp://example.com/x'; echo warn >&2",
            },
          },
          { name: 'on failure', if: 'failure', exec: { script: 'echo never' } },
        ],
      });

      await page.goto(`${baseUrl()}/health?checkId=${checkId}`);
      const drawer = page.getByTestId('check-drawer');
      await drawer.getByRole('button', { name: /Playbooks/ }).click();
      await page.getByRole('menuitem', { name: title }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await poll(() => dialog.getByLabel('Who').count()).toBe(1);
      expect(await dialog.getByLabel('Loud').isChecked()).toBe(true);
      const run = dialog.getByRole('button', { name: 'Run' });
      expect(await run.isDisabled()).toBe(true); // Who is required
      await dialog.getByLabel('Who').fill('Not_DNS');
      await poll(() => dialog.getByRole('alert').textContent()).toContain("lowercase letters, digits, '-' or '.'");
      expect(await run.isDisabled()).toBe(true);
      await dialog.getByLabel('Who').fill('world');
      await dialog.getByLabel('Size').fill('2');
      await dialog.getByLabel('Unit').selectOption('Gi');
      await screenshot(page, `playbooks-${tag}-run-dialog`);
      await run.click();

      await poll(() => runId()).toMatch(/^[0-9a-f-]{36}$/);
      const first = runId()!;
      await poll(() => runStatus(), 60_000).toBe('completed');
      await settled();
      const output = page.getByRole('region', { name: 'Output of greet' });
      await poll(() => output.locator('pre').first().textContent()).toContain('hello world loud=true size=2Gi');
      // the ANSI green is drawn as a colour, not as escape codes
      const green = output.locator('span', { hasText: 'hello world' }).first();
      expect(await green.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(21, 128, 61)');
      expect(await output.getByRole('link', { name: 'https://example.com/greet' }).count()).toBe(1);
      expect(await output.getByRole('link', { name: /ftp:/ }).count()).toBe(0);
      await screenshot(page, `playbooks-${tag}-run`);
      await output.getByRole('tab', { name: 'stderr' }).click();
      await poll(() => output.locator('pre').first().textContent()).toContain('warn');
      // the skipped step is listed but cannot be selected
      const skipped = page.getByRole('list', { name: 'Action steps' }).getByRole('button', { name: /on failure/ });
      await poll(() => skipped.getAttribute('data-status')).toBe('skipped');
      expect(await skipped.isDisabled()).toBe(true);
      for (const field of ['Started', 'Scheduled', 'Duration', 'Queued', 'Trigger source', 'Triggered by'])
        expect(await page.locator('dt', { hasText: field }).count()).toBeGreaterThan(0);
      expect(await page.locator('dd', { hasText: 'System' }).count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Params (3)' }).click();
      await poll(() => page.getByRole('dialog', { name: 'Parameters' }).textContent()).toContain('world');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Download logs' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: 'greet' }).click();
      const file = await download;
      expect(readFileSync((await file.path())!, 'utf8')).toContain('hello world');
      await poll(() => toast('Downloaded logs').count()).toBe(1);

      await page.getByRole('button', { name: 'Re-run playbook' }).click();
      await poll(() => runId()).not.toBe(first);
      await poll(() => runStatus(), 60_000).toBe('completed');
      await poll(() =>
        page.getByRole('region', { name: 'Output of greet' }).locator('pre').first().textContent(),
      ).toContain('hello world');

      // both runs are in the list of this check's runs and of this playbook's
      await page.goto(`${baseUrl()}/playbooks/runs?check_id=${checkId}`);
      await settled();
      await poll(() =>
        page.getByRole('table', { name: 'Playbook runs' }).getByRole('link', { name: title }).count(),
      ).toBe(2);
      await page.getByLabel('Playbook', { exact: true }).selectOption({ label: title });
      await poll(() => page.getByRole('button', { name: 'Edit Playbook' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Run Playbook' }).count()).toBe(1);
      await poll(() => page.getByRole('table', { name: 'Playbook runs' }).locator('tbody tr').count()).toBe(2);
      await settled();
      await screenshot(page, `playbooks-${tag}-runs`);
    }, 240_000);

    it('runs a playbook from its card: the resource first, then its parameters', async () => {
      const title = `Plain ${tag}`;
      await createPlaybook(title, 'Smoke', {
        checks: [{ name: 'console api health' }],
        actions: [{ name: 'plain', exec: { script: 'echo plain run' } }],
      });
      await page.goto(`${baseUrl()}/playbooks`);
      await page
        .getByRole('article', { name: title })
        .getByRole('button', { name: `Run ${title}` })
        .click();
      const dialog = page.getByRole('dialog', { name: title });
      await poll(() => dialog.getByText('Please select a resource to see the parameters.').count()).toBe(1);
      const picker = dialog.getByRole('combobox', { name: 'Check' });
      await poll(() => picker.locator('option', { hasText: 'console api health' }).count()).toBe(1);
      await picker.selectOption({ label: 'console api health (http)' });
      await poll(() => dialog.getByText('No parameters for this playbook.').count()).toBe(1);
      await screenshot(page, `playbooks-${tag}-run-dialog-resource`);
      await dialog.getByRole('button', { name: 'Run' }).click();
      await poll(() => runId()).toMatch(/^[0-9a-f-]{36}$/);
      await poll(() => runStatus(), 60_000).toBe('completed');
      await poll(() => page.getByRole('region', { name: 'Output of plain' }).textContent()).toContain('plain run');
    }, 240_000);

    it('runs a playbook from a config detail page and lists the run on its Playbooks tab', async () => {
      // a config of a type of this run's own: only the playbook selecting that type is offered on it
      const run = `${tag}${Date.now().toString(36)}`;
      const type = `E2EPlaybooks${run}::Deployment`;
      const name = `pb-target-${run}`;
      const [config] = await api<{ id: string }[]>('db/config_items', {
        method: 'POST',
        body: JSON.stringify({
          name,
          type,
          config_class: `E2EPlaybooks${run}`,
          status: 'Running',
          health: 'healthy',
          tags: { namespace: 'shop' },
          config: { spec: { replicas: 2 } },
        }),
      });
      const title = `Describe config ${tag}`;
      await createPlaybook(title, 'Smoke', {
        configs: [{ types: [type] }],
        actions: [{ name: 'describe', exec: { script: 'echo config={{.config.name}} ns={{.config.tags.namespace}}' } }],
      });

      await page.goto(`${baseUrl()}/catalog/${config.id}`);
      await poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()).toContain(name);
      await page.getByRole('button', { name: /Playbooks/ }).click();
      await poll(() => page.getByRole('menuitem', { name: title }).count()).toBe(1);
      // a playbook for checks only is not offered on a config
      expect(await page.getByRole('menuitem', { name: `Greet ${tag}` }).count()).toBe(0);
      expect(await page.getByRole('menuitem', { name: 'Playbook runs' }).count()).toBe(1);
      await screenshot(page, `playbooks-${tag}-config-dropdown`);
      await page.getByRole('menuitem', { name: title }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await poll(() => dialog.getByText('No parameters for this playbook.').count()).toBe(1);
      await dialog.getByRole('button', { name: 'Run' }).click();

      await poll(() => runId()).toMatch(/^[0-9a-f-]{36}$/);
      const id = runId()!;
      await poll(() => runStatus(), 60_000).toBe('completed');
      await poll(() => page.getByRole('region', { name: 'Output of describe' }).textContent()).toContain(
        `config=${name} ns=shop`,
      );
      await screenshot(page, `playbooks-${tag}-config-run`);

      // the config's Playbooks tab lists the run, with its count, and links to its page
      await page.goto(`${baseUrl()}/catalog/${config.id}/playbooks`);
      const runs = page.getByRole('table', { name: 'Playbook runs' });
      const link = runs.getByRole('link', { name: title });
      await poll(() => link.count(), 30_000).toBe(1);
      expect(await link.getAttribute('href')).toBe(`/playbooks/runs/${id}`);
      expect(await runs.locator('tbody tr').filter({ hasText: 'completed' }).count()).toBe(1);
      const tabs = page.getByRole('navigation', { name: 'Config sections' });
      await poll(() => tabs.getByRole('link', { name: /Playbooks/ }).textContent()).toBe('Playbooks1');
      await settled();
      await screenshot(page, `playbooks-${tag}-config-runs-tab`);
      await link.click();
      await poll(() => runId()).toBe(id);
    }, 240_000);

    it('lets a named approver approve a waiting run, and refuses someone who is not named', async () => {
      const checkId = await checkByName('console api health');
      const spec = (people: string[]) => ({
        checks: [{ name: 'console api health' }],
        approval: { type: 'any', approvers: { people } },
        actions: [{ name: 'approved step', exec: { script: 'echo approved' } }],
      });
      const mine = await createPlaybook(`Needs my approval ${tag}`, 'Smoke', spec([SYSTEM_PERSON]));
      const theirs = await createPlaybook(`Needs their approval ${tag}`, 'Smoke', spec(['someone.else@example.com']));
      const start = (id: string) =>
        api<{ run_id: string }>('playbook/run', { method: 'POST', body: JSON.stringify({ id, check_id: checkId }) });

      const other = await start(theirs);
      await page.goto(`${baseUrl()}/playbooks/runs/${other.run_id}`);
      await poll(() => runStatus()).toBe('pending_approval');
      await page.getByRole('button', { name: 'Approve' }).click();
      await poll(() => toast(/not one of the approvers/).count()).toBe(1);
      expect(await runStatus()).toBe('pending_approval');

      const own = await start(mine);
      await page.goto(`${baseUrl()}/playbooks/runs/${own.run_id}`);
      await poll(() => runStatus()).toBe('pending_approval');
      await screenshot(page, `playbooks-${tag}-waiting`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await poll(() => toast('Run approved').count()).toBe(1);
      await poll(() => runStatus(), 60_000).toBe('completed');
      await poll(() => page.getByRole('region', { name: 'Output of approved step' }).textContent()).toContain(
        'approved',
      );
    }, 240_000);
  });
}
