import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

// Incidents (seed 001) against the real server with demo data (AUTH=none: everyone is an
// administrator): the list and its URL filters, creating an incident, the status workflow with
// the contributing-factors dialog, the hypothesis tree, evidence, the definition of done,
// responders, comments with mentions and the changelog.

const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${baseUrl()}/api/db/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
};

describe('incidents', () => {
  let browser: Browser;
  let page: Page;
  let incidentId = '';

  beforeAll(async () => {
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1440, height: 1100 } });
    page = await context.newPage();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `incidents-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const search = () => new URL(page.url()).searchParams;
  const rows = () => page.getByRole('table', { name: 'Incidents' }).locator('tbody tr');
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

  it('lists open incidents by default, with filters, search and sorting in the URL', async () => {
    await page.goto(`${baseUrl()}/incidents`);
    await poll(() =>
      page.getByRole('table', { name: 'Incidents' }).locator('tbody [data-status]').count(),
    ).toBeGreaterThan(0);
    const statuses = await page
      .getByRole('table', { name: 'Incidents' })
      .locator('tbody [data-status]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(new Set(statuses)).toEqual(new Set(['open']));
    await screenshot(page, 'incidents-list');

    await page.getByLabel('Status', { exact: true }).selectOption('all');
    await poll(() => search().get('status')).toBe('all');
    await poll(() => rows().count()).toBeGreaterThan(statuses.length);

    await page.getByLabel('Severity', { exact: true }).selectOption('critical');
    await poll(() => search().get('severity')).toBe('critical');
    await poll(async () => {
      const sev = await page
        .getByRole('table', { name: 'Incidents' })
        .locator('tbody [data-severity]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-severity')));
      return sev.length > 0 && sev.every((s) => s === 'critical');
    }).toBe(true);
    await page.getByLabel('Severity', { exact: true }).selectOption('');

    // the search follows the typing 400 ms later, into the URL
    await page.getByLabel('Search incidents').fill('zzz-nothing-like-this');
    await poll(() => search().get('search')).toBe('zzz-nothing-like-this');
    await poll(() => page.getByText('There are no incidents matching this criteria').count()).toBe(1);
    await screenshot(page, 'incidents-empty');
    await page.getByLabel('Search incidents').fill('Payments API returning');
    const row = rows().filter({ hasText: 'Payments API returning 502s' });
    await poll(() => row.count()).toBe(1);
    expect(await rows().count()).toBe(1);

    await row.click();
    await poll(() => page.url()).toMatch(/\/incidents\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('heading', { name: 'Payments API returning 502s' }).count()).toBe(1);
  });

  it('follows an inbound topology link: component, type and severity filters', async () => {
    // a component some open incident has evidence on
    const [withComponent] = await api<{ hypotheses: { evidences: { component_id: string }[] }[] }[]>(
      'incidents?select=hypotheses!inner(evidences!inner(component_id))&status=eq.open&hypotheses.evidences.component_id=not.is.null&limit=1',
    );
    const component = withComponent.hypotheses[0].evidences[0].component_id;
    const matching = await api<{ id: string; type: string; severity: string }[]>(
      `incidents?select=id,type,severity,hypotheses!inner(evidences!inner(component_id))&hypotheses.evidences.component_id=eq.${component}&status=eq.open`,
    );
    const { type, severity } = matching[0];
    await page.goto(`${baseUrl()}/incidents?type=${type}&component=${component}&severity=${severity}`);
    await poll(() => page.getByText(/^Component: /).textContent()).not.toContain('…');
    const shown = page.getByRole('table', { name: 'Incidents' }).locator('tbody [data-status]');
    await poll(() => shown.count()).toBe(matching.filter((m) => m.type === type && m.severity === severity).length);
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe(type);
    expect(await page.getByLabel('Severity', { exact: true }).inputValue()).toBe(severity);
    await page.getByRole('button', { name: 'Clear component filter' }).click();
    await poll(() => search().get('component')).toBeNull();
  });

  it('creates an incident: validation, defaults, and a root hypothesis', async () => {
    await page.goto(`${baseUrl()}/incidents`);
    await page.getByRole('button', { name: 'Create New Incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Incident' });
    expect(await dialog.getByLabel('Severity').inputValue()).toBe('low');
    expect(await dialog.getByLabel('Status').inputValue()).toBe('open');
    expect(await dialog.getByLabel('Type').inputValue()).toBe('availability');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await poll(() => dialog.getByRole('alert').textContent()).toBe('This field is required');
    await dialog.getByLabel('Title').fill('E2E checkout errors');
    await dialog.getByLabel('Description').fill('Checkout answers 500 for some users');
    await dialog.getByLabel('Severity').selectOption('high');
    await screenshot(page, 'incidents-create');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await poll(() => page.url()).toMatch(/\/incidents\/[0-9a-f-]{36}$/);
    incidentId = page.url().split('/').pop()!;
    await poll(() => page.getByRole('heading', { name: 'E2E checkout errors' }).count()).toBe(1);
    const [stored] = await api<
      {
        severity: string;
        status: string;
        type: string;
        hypotheses: { type: string; title: string; status: string }[];
      }[]
    >(`incidents?id=eq.${incidentId}&select=severity,status,type,hypotheses(type,title,status)`);
    expect(stored).toEqual({
      severity: 'high',
      status: 'open',
      type: 'availability',
      hypotheses: [{ type: 'root', title: 'Checkout answers 500 for some users', status: 'possible' }],
    });
  });

  it('builds the hypothesis tree: add, rename (1 s debounce), set a status, disprove', async () => {
    await page.goto(`${baseUrl()}/incidents/${incidentId}?tab=actions`);
    const root = page.locator('[data-hypothesis-type="root"]').first();
    await poll(() => root.count()).toBe(1);
    await root
      .getByRole('button', { name: /^Actions for/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Add factor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create hypothesis' });
    await dialog.getByLabel('Title').fill('Payment provider timeouts');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const factor = page.locator('[data-hypothesis-type="factor"]');
    await poll(() => factor.count()).toBe(1);
    expect(await factor.getByLabel('Hypothesis title').first().inputValue()).toBe('Payment provider timeouts');

    // title edits save one second after the last key
    const title = factor.getByLabel('Hypothesis title').first();
    await title.fill('Payment provider timeouts after deploy');
    await poll(
      async () =>
        (await api<{ title: string }[]>(`hypotheses?incident_id=eq.${incidentId}&type=eq.factor&select=title`))[0]
          ?.title,
    ).toBe('Payment provider timeouts after deploy');
    await factor.getByLabel('Hypothesis status').first().selectOption('proven');
    await poll(
      async () =>
        (await api<{ status: string }[]>(`hypotheses?incident_id=eq.${incidentId}&type=eq.factor&select=status`))[0]
          ?.status,
    ).toBe('proven');

    // a solution under the factor, then disproven through the delete dialog
    await factor
      .getByRole('button', { name: /^Actions for/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Add solution' }).click();
    await dialog.getByLabel('Title').fill('Retry with backoff');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const solution = page.locator('[data-hypothesis-type="solution"]');
    await poll(() => solution.count()).toBe(1);
    await solution.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const del = page.getByRole('dialog', { name: 'Delete hypothesis' });
    await del.getByRole('button', { name: 'Disprove' }).click();
    await poll(() => solution.getByLabel('Hypothesis status').inputValue()).toBe('disproven');
    await screenshot(page, 'incidents-action-plan');
  });

  it('adds evidence with the wizard and a manual definition of done', async () => {
    await page.goto(`${baseUrl()}/incidents/${incidentId}?tab=actions`);
    await page.getByRole('button', { name: 'Add Evidence' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Evidence' });
    await wizard.getByRole('radio', { name: 'Health check' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Search resources').fill('payments');
    await wizard.getByRole('option').filter({ hasText: 'payments-api health' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Description').fill('Gateway returns 502');
    await wizard.getByRole('button', { name: 'Add' }).click();
    await poll(() =>
      page.locator('[data-hypothesis-type="root"]').first().getByRole('link', { name: 'payments-api health' }).count(),
    ).toBe(1);

    const panel = page.getByRole('complementary', { name: 'Incident side panel' });
    await panel.getByRole('button', { name: 'Add Definition of Done' }).click();
    const dod = page.getByRole('dialog', { name: 'Add Definition of Done' });
    await dod.getByRole('radio', { name: /Manual/ }).click();
    expect(await dod.getByRole('button', { name: 'Add' }).isDisabled()).toBe(true);
    await dod.getByLabel('Comment').fill('Support confirms checkout works');
    await dod.getByRole('button', { name: 'Add' }).click();
    const item = panel
      .getByRole('list', { name: 'Definition of done' })
      .getByRole('listitem')
      .filter({ hasText: 'Support confirms checkout works' });
    await poll(() => item.getAttribute('data-done')).toBe('false');
    await item.getByRole('button', { name: 'Mark as resolved' }).click();
    await poll(() => item.getAttribute('data-done')).toBe('true');
    await poll(() => item.getByRole('button', { name: 'not resolved' }).count()).toBe(1);

    // automatic: the check evidence, with a script from the examples
    await panel.getByRole('button', { name: 'Add Definition of Done' }).click();
    const next = dod.getByRole('button', { name: 'Next' });
    expect(await next.isDisabled()).toBe(true);
    await dod.getByRole('checkbox', { name: /payments-api health/ }).check();
    await next.click();
    await dod.getByRole('button', { name: 'Check healthy for over 5 minutes' }).click();
    expect(await dod.getByLabel('Script (CEL, optional)').inputValue()).toContain('check.age > duration("5m")');
    await screenshot(page, 'incidents-dod-script');
    await dod.getByRole('button', { name: 'Add' }).click();
    await poll(() => panel.getByRole('list', { name: 'Definition of done' }).getByRole('listitem').count()).toBe(2);
    await screenshot(page, 'incidents-definition-of-done');
  });

  it('changes the status through the contributing-factors dialog', async () => {
    await page.goto(`${baseUrl()}/incidents/${incidentId}`);
    const status = page.getByLabel('Status', { exact: true });
    await poll(() => status.inputValue()).toBe('open');
    await status.selectOption('mitigated');
    const dialog = page.getByRole('dialog', { name: 'Add contributing factors to definition of done' });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await poll(() => dialog.getByRole('alert').textContent()).toBe('Please select atleast one evidence');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => dialog.count()).toBe(0);
    expect(await status.inputValue()).toBe('open');

    await status.selectOption('mitigated');
    await dialog
      .getByRole('checkbox', { name: /Gateway returns 502|payments-api health/ })
      .first()
      .check();
    await screenshot(page, 'incidents-contributing-factors');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await poll(() => toast('Incident status updated successfully').count()).toBeGreaterThan(0);
    await poll(() => status.inputValue()).toBe('mitigated');
    // mitigated offers only resolved, closed and open next
    expect(await status.locator('option').allTextContents()).toEqual(['Mitigated', 'Resolved', 'Closed', 'Open']);

    // the header toggle reopens any status but open (seed 001 section 2): mitigated reads Reopen
    const toggle = page.getByRole('button', { name: /^(Close|Reopen) Incident$/ });
    expect(await toggle.textContent()).toBe('Reopen Incident');

    // Skip saves without marking; the header toggle closes, then reopens
    await status.selectOption('resolved');
    await dialog.getByRole('button', { name: 'Skip' }).click();
    await poll(() => status.inputValue()).toBe('resolved');
    await page.getByRole('button', { name: 'Reopen Incident' }).click();
    await poll(() => status.inputValue()).toBe('open');
    await page.getByRole('button', { name: 'Close Incident' }).click();
    await poll(() => status.inputValue()).toBe('closed');
    await page.getByRole('button', { name: 'Reopen Incident' }).click();
    await poll(() => status.inputValue()).toBe('open');

    // investigating is not open either: Reopen, and the server takes the move (0200)
    await status.selectOption('investigating');
    await poll(() => status.inputValue()).toBe('investigating');
    expect(await toggle.textContent()).toBe('Reopen Incident');
    await toggle.click();
    await poll(() => status.inputValue()).toBe('open');
    expect(await toggle.textContent()).toBe('Close Incident');
  });

  it('saves severity and type from the details after a short pause', async () => {
    const panel = page.getByRole('complementary', { name: 'Incident side panel' });
    await panel.getByLabel('Severity').selectOption('critical');
    await panel.getByLabel('Type').selectOption('performance');
    await poll(
      async () =>
        (await api<{ severity: string; type: string }[]>(`incidents?id=eq.${incidentId}&select=severity,type`))[0],
    ).toEqual({
      severity: 'critical',
      type: 'performance',
    });
  });

  it('adds a person and a team responder, shows the timeline, removes one', async () => {
    await page.goto(`${baseUrl()}/incidents/${incidentId}`);
    const panel = page.getByRole('complementary', { name: 'Incident side panel' });
    await panel.getByRole('button', { name: 'Add Responder' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Responder' });
    await wizard.getByLabel('Person').selectOption({ label: 'Ava Thompson' });
    await wizard.getByRole('button', { name: 'Add' }).click();
    await poll(() => toast('Responder added successfully').count()).toBeGreaterThan(0);
    const responders = panel.getByRole('list', { name: 'Responders' });
    await poll(() => responders.getByText('Ava Thompson').count()).toBe(1);

    // a team: its responder types, then the type's fields prefilled from the team's spec
    await panel.getByRole('button', { name: 'Add Responder' }).click();
    await wizard.getByLabel('Team').selectOption({ label: 'Platform' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('radio', { name: 'Email' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    const to = wizard.getByLabel('To');
    expect(await to.inputValue()).toBe('platform@example.com');
    expect(await to.isDisabled()).toBe(true); // a fixed value of the team
    const [{ incident_id: number }] = await api<{ incident_id: string }[]>(
      `incidents?id=eq.${incidentId}&select=incident_id`,
    );
    expect(await wizard.getByLabel('Subject').inputValue()).toBe(`[${number}] E2E checkout errors`);
    await wizard.getByRole('button', { name: 'Save Team Responder' }).click();
    await poll(() => wizard.getByRole('alert').first().textContent()).toBe('Please provide valid value');
    await wizard.getByLabel('Body').fill('Please look at checkout');
    await screenshot(page, 'incidents-team-responder');
    await wizard.getByRole('button', { name: 'Save Team Responder' }).click();
    await poll(() => responders.getByText('Platform').count()).toBe(1);
    // the server sends it in the background; this server has no mail server, so it is logged
    const platform = responders.getByRole('listitem').filter({ hasText: 'Platform' });
    await poll(() => platform.getByText('logged only').count(), 30_000).toBe(1);
    const stored = await api<{ type: string; properties: Record<string, string> }[]>(
      `responders?incident_id=eq.${incidentId}&team_id=not.is.null&select=type,properties`,
    );
    expect(stored[0]).toMatchObject({
      type: 'email',
      properties: {
        responderType: 'email',
        to: 'platform@example.com',
        subject: `[${number}] E2E checkout errors`,
        body: 'Please look at checkout',
      },
    });

    // the hover card with the timeline appears after a second's rest
    await responders.getByText('Ava Thompson').hover();
    const timeline = page.getByRole('list', { name: 'Responder timeline' });
    await poll(() => timeline.count(), 5000).toBe(1);
    expect(await timeline.locator('[aria-current="step"]').textContent()).toContain('Acknowledged');
    await screenshot(page, 'incidents-responder-timeline');
    await page.mouse.move(0, 0);

    await panel.getByRole('button', { name: 'Delete responder Ava Thompson' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Responder ?' });
    await poll(() => confirm.getByText('Are you sure you want to delete the responder ?').count()).toBe(1);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await poll(() => toast('Responder deleted successfully').count()).toBeGreaterThan(0);
    await poll(() => responders.getByText('Ava Thompson').count()).toBe(0);
  });

  it('comments with a mention, validates, and shows the changelog', async () => {
    await page.goto(`${baseUrl()}/incidents/${incidentId}`);
    const box = page.getByRole('combobox', { name: 'Comment' });
    await page.getByRole('button', { name: 'Comment' }).click();
    await poll(() => page.getByText('Please add comment details').count()).toBe(1);
    await box.fill('Looping in ');
    await box.press('End');
    await box.pressSequentially('@Ava');
    await page
      .getByRole('listbox', { name: 'People' })
      .getByRole('option', { name: /Ava Thompson/ })
      .click();
    await box.pressSequentially('for the payment provider');
    await page.getByLabel('Hypothesis').selectOption('');
    await page.getByRole('button', { name: 'Comment' }).click();
    await poll(() => page.getByText('Please select any hypothesis').count()).toBe(1);
    await page.getByLabel('Hypothesis').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Comment' }).click();
    const mention = page.getByRole('list', { name: 'Comments' }).locator('[data-mention]');
    await poll(() => mention.textContent()).toBe('@Ava Thompson');
    const [comment] = await api<{ comment: string }[]>(
      `comments?incident_id=eq.${incidentId}&select=comment&order=created_at.desc&limit=1`,
    );
    expect(comment.comment).toMatch(/^Looping in @\[Ava Thompson\]\([0-9a-f-]{36}\) for the payment provider$/);
    await screenshot(page, 'incidents-comments');

    const changelog = page.getByRole('list', { name: 'Changelog' });
    await poll(() =>
      changelog
        .locator('[data-history-type]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-history-type'))),
    ).toEqual(
      expect.arrayContaining([
        'incident.created',
        'hypothesis.created',
        'evidence.created',
        'incident.status_updated',
        'responder.created',
        'responder.commented',
      ]),
    );
    expect(await changelog.getByText('commented: Looping in @Ava Thompson for the payment provider').count()).toBe(1);
  });

  it("shows 'Incident not found' for an unknown incident", async () => {
    await page.goto(`${baseUrl()}/incidents/00000000-0000-4000-8000-000000000000`);
    await poll(() => page.getByText('Incident not found', { exact: true }).count()).toBe(1);
    await page.goto(`${baseUrl()}/incidents/not-an-id`);
    await poll(() => page.getByText('Incident not found', { exact: true }).count()).toBe(1);
  });
});
