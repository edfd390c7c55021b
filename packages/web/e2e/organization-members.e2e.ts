// Hosted mode's members screen against a real server (WATCHDECK_HOSTED=true on PostgreSQL, the
// own identity service, SMTP_URL pointing at a real SMTP peer): the admin opens the members of
// the current organisation from the switcher, invites by email with the keyboard only (the
// email arrives), the invited person accepts in the picker and lands in the organisation, the
// admin removes them (their next request sends them back to the picker) and deletes the
// organisation. PostgreSQL only.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, poll, screenshot } from './browser.ts';
import { startMailbox, type Mailbox } from './mailbox.ts';
import { startServer, type StartedServer } from './server.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin passphrase for e2e' };
const MEMBER_PASSWORD = 'member passphrase for e2e';

describe.skipIf(!process.env.TEST_DATABASE_URL)('organisation members (hosted mode)', () => {
  let server: StartedServer;
  let browser: Browser;
  let mailbox: Mailbox;
  let base: string;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startServer({
      AUTH: 'kratos',
      WATCHDECK_HOSTED: 'true',
      SMTP_URL: mailbox.url,
      WATCHDECK_ADMIN_EMAIL: ADMIN.email,
      WATCHDECK_ADMIN_PASSWORD: ADMIN.password,
      WATCHDECK_DEMO_DATA: 'false',
      // the invited people sign up on the root backend themselves
      WATCHDECK_REGISTRATION: 'true',
      WATCHDECK_AUTH_RATE_LIMIT: '1000',
      WATCHDECK_AUTH_FLOW_RATE_LIMIT: '1000',
    });
    base = server.baseUrl;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return `${el?.tagName ?? ''}:${el?.getAttribute('name') ?? el?.textContent?.trim() ?? ''}`;
    });

  for (const width of [1024, 1440]) {
    it(`invites, accepts, removes, deletes (${width} px)`, async () => {
      const viewport = { width, height: 900 };
      const adminCtx = await browser.newContext({ viewport });
      const boCtx = await browser.newContext({ viewport });
      const page = await adminCtx.newPage();
      const bo = await boCtx.newPage();
      const boEmail = `bo-${width}@example.com`;
      const org = `Members ${width}`;
      try {
        await signIn(page, ADMIN.email, ADMIN.password);
        await page.getByRole('textbox', { name: 'Name', exact: true }).fill(org);
        await page.getByRole('button', { name: 'Create', exact: true }).click();
        const switcher = page.getByRole('button', { name: 'Organisation switcher' });
        await switcher.waitFor({ timeout: 60_000 });
        await poll(() => switcher.textContent()).toContain(org);

        // the kubeconfig and an agent's install instructions point at the organisation's backend
        const orgUrl = `${base}/org/members-${width}`;
        await page.getByRole('button', { name: 'User menu' }).click();
        await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
        const kube = page.getByRole('dialog', { name: 'Download and install kubeconfig' });
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          kube.getByRole('button', { name: 'Download kubeconfig' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('watchdeck-kubeconfig.yaml');
        const file = await download.path();
        expect(await readFile(file, 'utf8')).toContain(`server: ${orgUrl}/k8s`);
        await kube.getByRole('button', { name: 'Close', exact: true }).first().click();
        await page.goto(`${base}/agents`);
        await page.getByRole('button', { name: 'Add Agent' }).click();
        const agent = page.getByRole('dialog', { name: 'Create Agent' });
        await agent.getByLabel(/^Name/).fill(`agent-${width}`);
        await agent.getByRole('button', { name: 'Save' }).click();
        const helm = page.getByTestId('install-helm');
        await poll(() => helm.count()).toBe(1);
        expect(await helm.innerText()).toContain(`upstream.url='${orgUrl}'`);
        await page.getByRole('button', { name: 'Done' }).click();

        // the members screen, from the switcher
        await switcher.click();
        await page.getByRole('menuitem', { name: `Members of ${org}` }).click();
        await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/organizations/members');
        await page.getByRole('cell', { name: ADMIN.email }).waitFor();

        // invite with the keyboard only: Enter opens, the email has focus, Tab to the role,
        // a letter picks it, Tab twice reaches the send button, Enter sends
        await page.getByRole('button', { name: 'Invite member' }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Invite a member' });
        await dialog.waitFor();
        expect(await focusedName(page)).toBe('INPUT:email');
        await page.keyboard.type('not an address');
        await page.keyboard.press('Enter');
        await dialog.getByText('email must be an email address').waitFor();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(boEmail);
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('SELECT:role');
        await page.keyboard.type('e');
        expect(await dialog.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('editor');
        await screenshot(page, `organization-members-invite-${width}`);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('BUTTON:Send invitation');
        const since = mailbox.count();
        await page.keyboard.press('Enter');
        await page.getByText(`Invitation sent to ${boEmail}.`).waitFor();
        await dialog.waitFor({ state: 'hidden' });
        const mail = await mailbox.next(boEmail, since);
        expect(mail).toMatch(new RegExp(`^Subject: You are invited to ${org} on Watchdeck`, 'm'));
        const invites = page.getByRole('region', { name: 'Open invitations' });
        await invites.getByText(boEmail).waitFor();

        // bo signs up with that address, accepts in the picker and lands in the organisation
        await bo.goto(`${base}/registration`);
        await bo.getByLabel('Email').fill(boEmail);
        await bo.getByLabel('First name').fill('Bo');
        await bo.getByLabel('Last name').fill(`Width${width}`);
        await bo.getByLabel('Password').fill(MEMBER_PASSWORD);
        await bo.getByRole('button', { name: 'Sign up' }).click();
        await poll(() => new URL(bo.url()).pathname).toBe('/verification');
        await bo.goto(`${base}/`);
        await bo.getByRole('heading', { name: 'Choose an organisation' }).waitFor();
        await bo.getByRole('button', { name: 'Accept' }).click();
        const boSwitcher = bo.getByRole('button', { name: 'Organisation switcher' });
        await boSwitcher.waitFor({ timeout: 60_000 });
        await poll(() => boSwitcher.textContent()).toContain(org);

        // the admin sees bo as an editor, then removes him
        await page.reload();
        const members = page.getByRole('region', { name: 'Members' });
        const boRow = members.getByRole('row').filter({ hasText: boEmail });
        await boRow.waitFor();
        expect(await boRow.textContent()).toContain('editor');
        await invites.getByText('No open invitations.').waitFor();
        await screenshot(page, `organization-members-${width}`);
        await boRow.getByRole('button', { name: `Remove Bo Width${width}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Remove member ?' });
        await confirm.getByRole('button', { name: 'Remove' }).click();
        await boRow.waitFor({ state: 'detached' });

        // his token is revoked: his next page load goes back to the picker, with nothing in it
        await bo.reload();
        await bo.getByRole('heading', { name: 'Choose an organisation' }).waitFor({ timeout: 30_000 });
        await bo.getByText('You belong to no organisation yet').waitFor();

        // delete, confirmed in a dialog; the picker no longer lists it
        await page.getByRole('button', { name: 'Delete organisation' }).click();
        const del = page.getByRole('dialog', { name: 'Delete organisation ?' });
        await del.getByText('This cannot be undone.').waitFor();
        await screenshot(page, `organization-members-delete-${width}`);
        await del.getByRole('button', { name: 'Delete organisation' }).click();
        await page.getByRole('heading', { name: 'Choose an organisation' }).waitFor({ timeout: 30_000 });
        await poll(() => page.getByText(org).count()).toBe(0);
      } finally {
        await adminCtx.close();
        await boCtx.close();
      }
    });
  }
});
