// Incidents (seed 001) against the real server with demo data (AUTH=none: everyone is an
// administrator): the list and its URL filters, creating an incident, the status workflow with
// the contributing-factors dialog, the hypothesis tree, evidence, the definition of done,
// responders, comments with mentions and the changelog.
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
  /** the id of a demo incident by its title */
  const demoIncident = async (title: string) =>
    (await api<{ id: string }[]>(`incidents?title=eq.${encodeURIComponent(title)}&select=id`))[0].id;

  /**
   * Every avatar of every responder stack on the page: its initials, and whether they are drawn
   * whole, i.e. inside its own circle and clear of the next avatar (which covers the previous one
   * by its overlap plus its white ring).
   */
  const avatarStacks = () =>
    page.locator('[data-avatar-stack]').evaluateAll((stacks) =>
      stacks.flatMap((stack) => {
        const faces = [...stack.children] as HTMLElement[];
        return faces.map((face, i) => {
          const own = face.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(face);
          const text = range.getBoundingClientRect();
          const next = faces[i + 1];
          // the ring is a box-shadow's spread (its 4th length): the largest of the next face's visible shadows
          const shadows = next ? getComputedStyle(next).boxShadow.split(/,(?![^(]*\))/) : [];
          const ring = Math.max(
            0,
            ...shadows
              .filter((sh) => !/rgba\([^)]*,\s*0\)/.test(sh))
              .map((sh) => Number(sh.match(/-?[\d.]+px/g)?.[3]?.slice(0, -2) ?? 0)),
          );
          const visibleRight = next ? next.getBoundingClientRect().left - ring : own.right;
          return {
            label: face.getAttribute('aria-label') ?? face.getAttribute('title') ?? '',
            text: face.textContent ?? '',
            whole: text.left >= own.left && text.right <= Math.min(own.right, visibleRight) + 0.01,
            textRight: Math.round(text.right * 10) / 10,
            visibleRight: Math.round(visibleRight * 10) / 10,
          };
        });
      }),
    );

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

  it("draws whole initials in the responders' avatar stacks", async () => {
    await page.goto(`${baseUrl()}/incidents?status=all`);
    await poll(() => page.locator('[data-avatar-stack]').count()).toBeGreaterThan(3);
    const faces = await avatarStacks();
    // the demo has stacks of two and three people, with two-letter initials such as MK and NP
    expect(faces.filter((f) => f.text.length === 2).length).toBeGreaterThan(3);
    for (const f of faces) {
      if (f.text.startsWith('+')) continue;
      const words = f.label.trim().split(/\s+/);
      expect(f.text, f.label).toBe((words[0][0] + (words.length > 1 ? words.at(-1)![0] : '')).toUpperCase());
      expect(f, `${f.label}: initials end at ${f.textRight}, visible up to ${f.visibleRight}`).toMatchObject({
        whole: true,
      });
    }
  });

  it("links each evidence's resource to its screen: a component to /topology/{id}, a check to /health", async () => {
    // a component (topology) and a check on one incident: both have their screens
    const post = <T>(path: string, body: unknown) =>
      api<T[]>(path, { method: 'POST', body: JSON.stringify(body), headers: { prefer: 'return=representation' } });
    const [component] = await api<{ id: string; name: string }[]>(
      'components?select=id,name&deleted_at=is.null&order=name&limit=1',
    );
    const [check] = await api<{ id: string; name: string }[]>(
      'checks?select=id,name&deleted_at=is.null&order=name&limit=1',
    );
    const [incident] = await post<{ id: string }>('incidents', { title: `Links e2e ${Date.now()}` });
    const [hypothesis] = await post<{ id: string }>('hypotheses', {
      incident_id: incident.id,
      title: 'root',
      type: 'root',
    });
    await post('evidences', {
      hypothesis_id: hypothesis.id,
      type: 'topology',
      component_id: component.id,
      description: '',
    });
    await post('evidences', { hypothesis_id: hypothesis.id, type: 'check', check_id: check.id, description: '' });
    await page.goto(`${baseUrl()}/incidents/${incident.id}?tab=actions`);
    await poll(() => page.locator('[data-evidence-id]').count()).toBe(2);
    expect(await page.locator('[data-evidence-title]').filter({ hasText: component.name }).count()).toBe(1);
    // a component has its screen now (the topology dashboard): a link to it
    expect(await page.locator(`[data-evidence-id] a[href="/topology/${component.id}"]`).count()).toBe(1);
    // a health check has its screen: still a link
    expect(await page.getByRole('link', { name: check.name }).first().getAttribute('href')).toMatch(
      /^\/health\?checkId=[0-9a-f-]{36}$/,
    );

    const [withConfig] = await api<{ description: string; hypothesis: { incident_id: string } }[]>(
      'evidences?type=eq.config&config_id=not.is.null&select=description,hypothesis:hypotheses(incident_id)&limit=1',
    );
    await page.goto(`${baseUrl()}/incidents/${withConfig.hypothesis.incident_id}?tab=actions`);
    await poll(() => page.locator('[data-evidence-id]').count()).toBeGreaterThan(0);
    const configTitles = page
      .locator('[data-evidence-id]')
      .filter({ hasText: 'Config' })
      .locator('[data-evidence-title]');
    await poll(() => configTitles.count()).toBeGreaterThan(0);
    // the catalog has its screens: a config evidence links to /catalog/{id}
    await poll(() => page.locator('[data-evidence-id] a[href^="/catalog/"]').count()).toBeGreaterThan(0);
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
    await wizard.getByLabel('Search resources').fill('console');
    await wizard.getByRole('option').filter({ hasText: 'console api health' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Description').fill('Gateway returns 502');
    await wizard.getByRole('button', { name: 'Add' }).click();
    await poll(() =>
      page.locator('[data-hypothesis-type="root"]').first().getByRole('link', { name: 'console api health' }).count(),
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
    await dod.getByRole('checkbox', { name: /console api health/ }).check();
    await next.click();
    await dod.getByRole('button', { name: 'Check healthy for over 5 minutes' }).click();
    expect(await dod.getByLabel('Script (CEL, optional)').inputValue()).toContain('check.age > duration("5m")');
    await screenshot(page, 'incidents-dod-script');
    await dod.getByRole('button', { name: 'Add' }).click();
    await poll(() => panel.getByRole('list', { name: 'Definition of done' }).getByRole('listitem').count()).toBe(2);
    await screenshot(page, 'incidents-definition-of-done');
  });

  it('judges a config change in the definition of done by its config, as soon as it is added', async () => {
    // a change of a healthy config (the demo seeds none: changes come from scrapers); plain words,
    // as the resource search takes them as typed
    const [healthy] = await api<{ id: string }[]>('configs?select=id&health=eq.healthy&deleted_at=is.null&limit=1');
    await api('config_changes', {
      method: 'POST',
      body: JSON.stringify({
        config_id: healthy.id,
        change_type: 'diff',
        summary: `replicas scaled from three to five ${Date.now()}`,
        source: 'e2e',
      }),
    });
    const changes = await api<
      { change_type: string; summary: string | null; config: { name: string; health: string | null } | null }[]
    >('config_changes?select=change_type,summary,config:config_id(name,health)&order=created_at.desc&limit=200');
    const change = changes.find((c) => c.config?.health === 'healthy' && /^[\w -]{8,}$/.test(c.summary ?? ''))!;
    const title = `${change.change_type}: ${change.summary}`;
    await page.goto(`${baseUrl()}/incidents/${incidentId}?tab=actions`);
    await page.getByRole('button', { name: 'Add Evidence' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Evidence' });
    await wizard.getByRole('radio', { name: 'Config change' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Search resources').fill(change.summary!);
    await wizard
      .getByRole('option')
      .filter({ hasText: title })
      .filter({ hasText: change.config!.name })
      .first()
      .click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Add' }).click();
    await poll(() => page.locator('[data-evidence-title]').filter({ hasText: title }).count()).toBe(1);

    // offered under Automatic, and judged by the server at once: its config is healthy
    const panel = page.getByRole('complementary', { name: 'Incident side panel' });
    await panel.getByRole('button', { name: 'Add Definition of Done' }).click();
    const dod = page.getByRole('dialog', { name: 'Add Definition of Done' });
    await dod.getByRole('checkbox', { name: title }).check();
    await dod.getByRole('button', { name: 'Next' }).click();
    await dod.getByRole('button', { name: 'Add' }).click();
    const item = panel
      .getByRole('list', { name: 'Definition of done' })
      .getByRole('listitem')
      .filter({ hasText: title });
    await poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain('automatic (config change)');
    await poll(() => item.getAttribute('data-done'), 20_000).toBe('true');
    await screenshot(page, 'incidents-dod-config-change');
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
      .getByRole('checkbox', { name: /Gateway returns 502|console api health/ })
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

  it('says that no Jira connection is configured, with a link to add one', async () => {
    expect(await api('connections?type=eq.jira&select=id')).toEqual([]); // the demo has none
    await page.goto(`${baseUrl()}/incidents/${incidentId}`);
    const panel = page.getByRole('complementary', { name: 'Incident side panel' });
    await panel.getByRole('button', { name: 'Add Responder' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Responder' });
    await wizard.getByLabel('Team').selectOption({ label: 'Platform' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('radio', { name: 'Jira' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await poll(() => wizard.getByRole('alert').textContent()).toContain('No Jira connection is configured.');
    // no empty instance list, no locked fields waiting for it
    expect(await wizard.getByLabel('Instance').count()).toBe(0);
    expect(await wizard.getByLabel(/^Project/).count()).toBe(0);
    expect(await wizard.getByRole('button', { name: 'Save Team Responder' }).isDisabled()).toBe(true);
    const link = wizard.getByRole('link', { name: 'Add a Jira connection' });
    expect(await link.getAttribute('href')).toBe('/settings/connections');
    await screenshot(page, 'incidents-jira-without-connection');
    await link.click();
    await poll(() => new URL(page.url()).pathname).toBe('/settings/connections');
    await poll(() => page.getByRole('table', { name: 'Connections' }).count()).toBe(1);
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
    // the comment shows at once (optimistically); the stored one follows its save
    const stored = async () =>
      (
        await api<{ comment: string }[]>(
          `comments?incident_id=eq.${incidentId}&select=comment&order=created_at.desc&limit=1`,
        )
      )[0]?.comment;
    await poll(stored).toMatch(/^Looping in @\[Ava Thompson\]\([0-9a-f-]{36}\) for the payment provider$/);
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

  it('fits the list, the detail page and its side panel at 1024, 1280 and 1440 px', async () => {
    // an action plan three levels deep with long titles; a team responder with a long type and ticket
    const checkout = await demoIncident('Checkout latency above 2s p95');
    const replicaLag = await demoIncident('orders-db replica lag above 5 minutes');
    /** where the detail page's parts landed, measured in the browser */
    const detailGeometry = () =>
      page.evaluate(() => {
        const box = (el: Element) => el.getBoundingClientRect();
        const overlap = (a: DOMRect, b: DOMRect) =>
          Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
          Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
        const h1 = document.querySelector('h1')!;
        const select = document.querySelector('select[aria-label="Status"]')!;
        const aside = document.querySelector('aside[aria-label="Incident side panel"]')!;
        // text cut off: an element whose content is wider or taller than what it shows
        const cut = (el: Element) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
        const titles = [...document.querySelectorAll('textarea[aria-label="Hypothesis title"]')];
        const evidence = [...document.querySelectorAll('[data-evidence-title]')].map((e) => e.parentElement!);
        // a responder's avatar, name and type (the hover card's trigger)
        const responders = [...aside.querySelectorAll('[data-responder-id] [tabindex]')];
        return {
          titleStatusOverlap: overlap(box(h1), box(select)),
          titleWidth: box(h1).width,
          titleLines: Math.round(box(h1).height / parseFloat(getComputedStyle(h1).lineHeight)),
          hypothesisTitles: titles.map((t) => ({
            text: (t as HTMLTextAreaElement).value,
            width: box(t).width,
            cut: cut(t),
          })),
          evidenceTitles: evidence.map((e) => ({ text: e.textContent, width: box(e).width, cut: cut(e) })),
          responderNames: responders.map((r) => ({ text: r.textContent, cut: [...r.children].some(cut) })),
          panelInside: box(aside).right <= window.innerWidth + 0.5 && aside.scrollWidth <= aside.clientWidth,
          page: document.documentElement.scrollWidth - window.innerWidth,
        };
      });
    try {
      for (const width of [1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });

        // the list: no sideways scrolling, a readable name column, whole initials
        await page.goto(`${baseUrl()}/incidents?status=all`);
        const table = page.getByRole('table', { name: 'Incidents' });
        await poll(() => table.locator('tbody [data-status]').count()).toBeGreaterThan(5);
        const list = await table.evaluate((t) => {
          const scroller = t.parentElement!;
          const nameCol = [...t.querySelectorAll('thead th')].findIndex((th) => th.textContent?.trim() === 'Name');
          const names = [...t.querySelectorAll('tbody tr')].map(
            (tr) => tr.children[nameCol].getBoundingClientRect().width,
          );
          return {
            overflow: scroller.scrollWidth - scroller.clientWidth,
            page: document.documentElement.scrollWidth - window.innerWidth,
            narrowestName: Math.min(...names),
          };
        });
        expect(list, `list at ${width}`).toMatchObject({ overflow: 0, page: 0 });
        expect(list.narrowestName, `name column at ${width}`).toBeGreaterThanOrEqual(170);
        for (const f of await avatarStacks())
          if (!f.text.startsWith('+')) expect(f.whole, `${f.label} at ${width}`).toBe(true);
        await screenshot(page, `incidents-list-${width}`);

        for (const [id, tab] of [
          [checkout, 'actions'],
          [replicaLag, 'comments'],
        ] as const) {
          await page.goto(`${baseUrl()}/incidents/${id}${tab === 'actions' ? '?tab=actions' : ''}`);
          const panel = page.getByRole('complementary', { name: 'Incident side panel' });
          await poll(() =>
            panel.getByRole('list', { name: 'Responders' }).getByRole('listitem').count(),
          ).toBeGreaterThan(1);
          if (tab === 'actions')
            await poll(() => page.locator('[data-hypothesis-type="solution"]').count()).toBeGreaterThan(0);
          const g = await detailGeometry();
          const at = `${tab === 'actions' ? 'checkout' : 'replica lag'} at ${width}`;
          expect(g.titleStatusOverlap, `title and status select overlap, ${at}`).toBe(0);
          expect(g.titleWidth, `title width, ${at}`).toBeGreaterThan(300);
          expect(g.titleLines, `title lines, ${at}`).toBeLessThanOrEqual(2);
          if (tab === 'actions') {
            expect(g.hypothesisTitles.length).toBeGreaterThan(3);
            expect(g.evidenceTitles.length).toBeGreaterThan(3);
          }
          for (const t of g.hypothesisTitles) {
            expect(t.cut, `hypothesis "${t.text}" cut, ${at}`).toBe(false);
            expect(t.width, `hypothesis "${t.text}" width, ${at}`).toBeGreaterThan(150);
          }
          for (const t of g.evidenceTitles) {
            expect(t.cut, `evidence "${t.text}" cut, ${at}`).toBe(false);
            expect(t.width, `evidence "${t.text}" width, ${at}`).toBeGreaterThan(60);
          }
          expect(g.responderNames.length).toBeGreaterThan(1);
          for (const r of g.responderNames) expect(r.cut, `responder "${r.text}" cut, ${at}`).toBe(false);
          expect(g.panelInside, `side panel, ${at}`).toBe(true);
          expect(g.page, `page overflow, ${at}`).toBe(0);
          await screenshot(page, `incidents-detail-${tab === 'actions' ? 'checkout' : 'replica-lag'}-${width}`);
        }
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 1100 });
    }
  });

  it("shows 'Incident not found' for an unknown incident", async () => {
    await page.goto(`${baseUrl()}/incidents/00000000-0000-4000-8000-000000000000`);
    await poll(() => page.getByText('Incident not found', { exact: true }).count()).toBe(1);
    await page.goto(`${baseUrl()}/incidents/not-an-id`);
    await poll(() => page.getByText('Incident not found', { exact: true }).count()).toBe(1);
  });
});
