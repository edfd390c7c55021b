/** The machine is shared and at times slow: wait up to 10 s for the page to catch up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

// The Members tab of a team (seed 002 section 2.18) on the shared e2e server (AUTH=none: the
// system person is an admin) with the demo people. Each run makes its own team through /api/db,
// so the demo teams stay as they are.

describe('team members', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let teamId: string;
  const teamName = `E2E Team ${Date.now()}`;

  beforeAll(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    const res = await context.request.post(`${baseUrl()}/api/db/teams`, {
      headers: { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
      data: { name: teamName, spec: {} },
    });
    expect(res.status()).toBe(201);
    teamId = (await res.json()).id;
  });
  afterAll(async () => {
    // a script's body-less write says it is JSON (the server's cross-site check, README "Security")
    if (teamId)
      await context.request.delete(`${baseUrl()}/api/db/teams?id=eq.${teamId}`, {
        headers: { 'content-type': 'application/json' },
      });
    await browser?.close();
  });

  const members = () => page.getByRole('region', { name: 'Team members' });
  const memberRow = (name: string) => members().getByRole('row').filter({ hasText: name });
  const storedMembers = async () => {
    const r = await context.request.get(
      `${baseUrl()}/api/db/team_members?team_id=eq.${teamId}&select=person:person_id(name)`,
    );
    return ((await r.json()) as { person: { name: string } }[]).map((m) => m.person.name).sort();
  };

  it('opens the Members tab from the teams list and shows the empty state', async () => {
    await page.goto(`${baseUrl()}/settings/teams`);
    await page.getByRole('row').filter({ hasText: teamName }).click();
    await page.waitForURL((u) => u.pathname === `/settings/teams/${teamId}`);
    await page.getByRole('tab', { name: 'Members' }).click();
    await poll(() => members().getByText("You haven't added any team members to the team yet.").count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('manageTeam');
    await screenshot(page, 'team-members-empty');
  });

  it('adds several people at once', async () => {
    await page.goto(`${baseUrl()}/settings/teams/${teamId}?tab=manageTeam`);
    await members().getByRole('button', { name: 'Add Members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Members' });
    const people = dialog.getByRole('list', { name: 'People' });
    await poll(() => people.getByRole('checkbox').count()).toBeGreaterThan(5);
    expect(await dialog.getByRole('button', { name: 'Add', exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel('Search people').fill('liam');
    await poll(() => people.getByRole('listitem').count()).toBe(1);
    await people.getByLabel('Liam Chen').check();
    await dialog.getByLabel('Search people').fill('mia.k');
    await people.getByLabel('Mia Kowalski').check();
    await dialog.getByLabel('Search people').fill('');
    await screenshot(page, 'team-members-add');
    await dialog.getByRole('button', { name: 'Add 2 members' }).click();
    await poll(() =>
      page.getByText('Liam Chen, Mia Kowalski added to the team successfully', { exact: true }).count(),
    ).toBe(1);
    await poll(() => dialog.count()).toBe(0);
    await poll(() => memberRow('Liam Chen').count()).toBe(1);
    await poll(() => memberRow('Mia Kowalski').count()).toBe(1);
    expect(await storedMembers()).toEqual(['Liam Chen', 'Mia Kowalski']);

    // people already on the team are not offered again
    await members().getByRole('button', { name: 'Add Members' }).click();
    await dialog.getByLabel('Search people').fill('liam');
    await poll(() => dialog.getByText('No options found').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'team-members-list');
  });

  it('removes a member', async () => {
    await page.goto(`${baseUrl()}/settings/teams/${teamId}?tab=manageTeam`);
    await members().getByRole('button', { name: 'Remove Liam Chen' }).click();
    await poll(() => page.getByText('Liam Chen removed from team successfully', { exact: true }).count()).toBe(1);
    await poll(() => memberRow('Liam Chen').count()).toBe(0);
    expect(await memberRow('Mia Kowalski').count()).toBe(1);
    expect(await storedMembers()).toEqual(['Mia Kowalski']);
    // and the last one: back to the empty state
    await members().getByRole('button', { name: 'Remove Mia Kowalski' }).click();
    await poll(() => members().getByText("You haven't added any team members to the team yet.").count()).toBe(1);
    expect(await storedMembers()).toEqual([]);
  });

  it('shows a demo team with its members', async () => {
    await page.goto(`${baseUrl()}/settings/teams`);
    await page.getByRole('row').filter({ hasText: 'Platform' }).first().click();
    await page.getByRole('tab', { name: 'Members' }).click();
    await poll(() => members().getByRole('row').count()).toBeGreaterThan(1);
    await screenshot(page, 'team-members-demo');
  });
});
