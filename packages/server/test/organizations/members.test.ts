/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser, startMailbox, type Mailbox } from '../auth/support.ts';

/**
 * Hosted mode's members (issue 21): an organisation's admin invites by email (the email really
 * goes out through SMTP, to a real SMTP peer here), the invited person accepts with that email,
 * admins list and remove members (never the last admin) and delete the organisation (its schema
 * dropped, its tokens with it). Editors and viewers get 403 for all of it. Signing out of the
 * root backend revokes the organisation tokens that session was given. PostgreSQL only.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const PASSWORD = 'members passphrase here';

/** The text of a raw message: quoted-printable soft breaks and escapes undone. */
const textOf = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

describe.skipIf(!adminUrl)('organisation members (pg)', () => {
  const dbName = `watchdeck_test_${randomBytes(6).toString('hex')}`;
  let url: string;
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  let mailbox: Mailbox;
  const people: Record<string, Browser> = {};
  const ids: Record<string, string> = {};

  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  const bearer = (token: string, path: string) =>
    new Browser(base).request('GET', path, undefined, { authorization: `Bearer ${token}` });
  const signIn = async (name: string) => {
    const b = new Browser(base);
    expect((await b.login(`${name}@members.test`, PASSWORD)).status).toBe(200);
    return b;
  };
  const ready = async (b: Browser, slug: string) => {
    for (let i = 0; i < 300; i++) {
      const r = await b.get(`/api/organizations/${slug}`);
      if (r.body?.status === 'ready') return;
      expect(r.body?.status, JSON.stringify(r.body)).not.toBe('failed');
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`${slug} was not provisioned`);
  };
  const switchIn = async (b: Browser, slug: string): Promise<string> => {
    const sw = await b.post(`/api/organizations/${slug}/switch`);
    expect(sw.status, JSON.stringify(sw.body)).toBe(200);
    return sw.body.token;
  };
  const schemaExists = async (name: string) =>
    (await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [name])).rows.length === 1;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const u = new URL(adminUrl!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    db = await openDb({ databaseUrl: url });
    await migrate(db);
    for (const name of ['ada', 'bob', 'cy', 'dee']) {
      const created = await createIdentity(db, {
        traits: { email: `${name}@members.test`, name: { first: name, last: 'Member' } },
        roles: ['viewer'],
        password: PASSWORD,
      });
      ids[name] = created.id;
    }
    mailbox = await startMailbox();
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url, WATCHDECK_HOSTED: 'true' }),
      allowedHosts: ['127.0.0.1'],
      demoData: false,
      authRateLimit: 10_000,
      smtpUrl: mailbox.url,
      smtpFrom: 'watchdeck@members.test',
    };
    app = await buildApp({ config, db });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const name of ['ada', 'bob', 'cy', 'dee']) people[name] = await signIn(name);
    expect((await people.ada.post('/api/organizations', { name: 'Gamma Ops', slug: 'gamma' })).status).toBe(201);
    await ready(people.ada, 'gamma');
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await mailbox?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('sends the invitation through SMTP; the person with that email accepts it with its role', async () => {
    const since = mailbox.mails.length;
    const inv = await people.ada.post('/api/organizations/gamma/invites', {
      email: 'Bob@Members.test',
      role: 'editor',
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect(inv.body).toMatchObject({ email: 'bob@members.test', role: 'editor', mail: 'sent' });
    const mail = textOf(await mailbox.next('bob@members.test', since));
    expect(mail).toMatch(/^Subject: You are invited to Gamma Ops on Watchdeck/m);
    expect(mail).toContain('ada Member invited you to join the organisation Gamma Ops (gamma) on Watchdeck as editor.');
    expect(mail).toContain(`Sign in at ${base}/ with this email address (bob@members.test)`);
    expect(mail).toMatch(/^From: watchdeck@members\.test/m);

    // only the person with that email sees and accepts it
    expect((await people.cy.post('/api/organizations/gamma/accept')).status).toBe(404);
    expect((await people.bob.get('/api/organizations')).body).toEqual([
      expect.objectContaining({ slug: 'gamma', invited: true, role: null }),
    ]);
    const accepted = await people.bob.post('/api/organizations/gamma/accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ slug: 'gamma', role: 'editor', invited: false });
    const who = await bearer(await switchIn(people.bob, 'gamma'), '/org/gamma/api/auth/whoami');
    expect(who.body).toMatchObject({ user: { email: 'bob@members.test' }, roles: ['editor'], organization: 'gamma' });
    // accepted once: no second acceptance
    expect((await people.bob.post('/api/organizations/gamma/accept')).status).toBe(404);

    for (const [email, role] of [
      ['cy@members.test', 'viewer'],
      ['dee@members.test', 'viewer'],
    ]) {
      expect((await people.ada.post('/api/organizations/gamma/invites', { email, role })).status).toBe(201);
    }
    expect((await people.cy.post('/api/organizations/gamma/accept')).status).toBe(200);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const bad = await people.ada.post('/api/organizations/gamma/invites', { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/email must be an email address/);
    const role = await people.ada.post('/api/organizations/gamma/invites', { email: 'x@members.test', role: 'owner' });
    expect(role.status).toBe(400);
    expect(JSON.stringify(role.body)).toMatch(/role/);
    const member = await people.ada.post('/api/organizations/gamma/invites', { email: 'bob@members.test' });
    expect(member.status).toBe(409);
    expect(member.body.message).toBe('bob@members.test is a member already');
    expect((await people.ada.delete('/api/organizations/gamma/members/not-a-uuid')).status).toBe(400);
    expect((await people.ada.delete('/api/organizations/Bad_Slug')).status).toBe(400);
    const nobody = await people.ada.delete(`/api/organizations/gamma/members/${ids.dee}`);
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toBe('not a member of this organisation');
    // not a member at all: the organisation does not exist for them
    expect((await people.dee.get('/api/organizations/gamma/members')).status).toBe(404);
    expect((await people.dee.delete('/api/organizations/gamma')).status).toBe(404);
  });

  it('bounds the emails an admin can make the server send', async () => {
    const first = await people.ada.post('/api/organizations/gamma/invites', { email: 'flo@members.test' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await people.ada.post('/api/organizations/gamma/invites', { email: 'flo@members.test' });
    expect(again.status).toBe(429);
    expect(again.body.message).toBe(
      'An invitation to flo@members.test went out less than a minute ago; wait before sending it again.',
    );
    // open invitations are capped per organisation (200)
    await db.query(`INSERT INTO watchdeck_control.organization_invites (organization_id, email, role, invited_by)
      SELECT o.id, 'bulk' || g || '@members.test', 'viewer', '${ids.ada}'
        FROM watchdeck_control.organizations o, generate_series(1, 200) g WHERE o.slug = 'gamma'`);
    const over = await people.ada.post('/api/organizations/gamma/invites', { email: 'gus@members.test' });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe(
      'An organisation has at most 200 open invitations; withdraw some before inviting more.',
    );
    await db.query(
      `DELETE FROM watchdeck_control.organization_invites WHERE email LIKE 'bulk%@members.test' OR email = 'flo@members.test'`,
    );
  });

  it('answers 403 to an editor or a viewer doing an admin’s work', async () => {
    for (const who of ['bob', 'cy']) {
      const b = people[who];
      const calls = [
        () => b.get('/api/organizations/gamma/members'),
        () => b.post('/api/organizations/gamma/invites', { email: 'eve@members.test', role: 'admin' }),
        () => b.delete(`/api/organizations/gamma/members/${ids.ada}`),
        () => b.delete('/api/organizations/gamma'),
      ];
      for (const call of calls) {
        const r = await call();
        expect(r.status, `${who}: ${JSON.stringify(r.body)}`).toBe(403);
        expect(r.body.message).toBe('Only an administrator of the organisation may do this.');
      }
    }
    // nothing happened: the organisation and its members are all there
    const list = await people.ada.get('/api/organizations/gamma/members');
    expect(list.body.members.map((m: any) => m.email)).toEqual([
      'ada@members.test',
      'bob@members.test',
      'cy@members.test',
    ]);
  });

  it('lists members and open invitations; withdraws an invitation', async () => {
    const list = await people.ada.get('/api/organizations/gamma/members');
    expect(list.status).toBe(200);
    expect(list.body.members).toEqual([
      expect.objectContaining({ person_id: ids.ada, name: 'ada Member', role: 'admin' }),
      expect.objectContaining({ person_id: ids.bob, role: 'editor' }),
      expect.objectContaining({ person_id: ids.cy, role: 'viewer' }),
    ]);
    expect(list.body.invites).toEqual([expect.objectContaining({ email: 'dee@members.test', role: 'viewer' })]);
    const id = list.body.invites[0].id;
    expect((await people.ada.delete(`/api/organizations/gamma/invites/${id}`)).status).toBe(204);
    expect((await people.ada.delete(`/api/organizations/gamma/invites/${id}`)).status).toBe(404);
    expect((await people.dee.post('/api/organizations/gamma/accept')).status).toBe(404);
  });

  it('removes a member: their tokens there stop working; the last admin stays', async () => {
    const last = await people.ada.delete(`/api/organizations/gamma/members/${ids.ada}`);
    expect(last.status).toBe(409);
    expect(last.body.message).toMatch(/^The last administrator cannot be removed/);

    const bobToken = await switchIn(people.bob, 'gamma');
    expect((await bearer(bobToken, '/org/gamma/api/auth/whoami')).status).toBe(200);
    expect((await people.ada.delete(`/api/organizations/gamma/members/${ids.bob}`)).status).toBe(204);
    expect((await bearer(bobToken, '/org/gamma/api/auth/whoami')).status).toBe(401);
    expect((await people.bob.post('/api/organizations/gamma/switch')).status).toBe(404);
    expect((await people.bob.get('/api/organizations')).body).toEqual([]);

    // invited again as viewer, he comes back with that role, not his old one
    expect(
      (await people.ada.post('/api/organizations/gamma/invites', { email: 'bob@members.test', role: 'viewer' })).status,
    ).toBe(201);
    expect((await people.bob.post('/api/organizations/gamma/accept')).status).toBe(200);
    const again = await bearer(await switchIn(people.bob, 'gamma'), '/org/gamma/api/auth/whoami');
    expect(again.body.roles).toEqual(['viewer']);

    // with a second admin, the first may leave, and the second is then the last
    expect(
      (await people.ada.post('/api/organizations/gamma/invites', { email: 'dee@members.test', role: 'admin' })).status,
    ).toBe(201);
    expect((await people.dee.post('/api/organizations/gamma/accept')).status).toBe(200);
    expect((await people.dee.delete(`/api/organizations/gamma/members/${ids.ada}`)).status).toBe(204);
    expect((await people.dee.delete(`/api/organizations/gamma/members/${ids.dee}`)).status).toBe(409);
  });

  it('revokes the organisation tokens of a root session when it signs out, and only those', async () => {
    const other = await signIn('cy'); // cy's second browser
    const here = await switchIn(people.cy, 'gamma');
    const there = await switchIn(other, 'gamma');
    expect((await bearer(here, '/org/gamma/api/auth/whoami')).status).toBe(200);
    const out = await people.cy.post('/api/auth/logout');
    expect(out.status).toBe(204);
    const refused = await bearer(here, '/org/gamma/api/db/teams');
    expect(refused.status, JSON.stringify(refused.body)).toBe(401);
    expect((await bearer(here, '/org/gamma/api/auth/whoami')).status).toBe(401);
    // the other browser's session and its organisation token live on
    expect((await bearer(there, '/org/gamma/api/auth/whoami')).status).toBe(200);
    expect((await other.get('/api/organizations')).status).toBe(200);
    people.cy = other;
  });

  it('gives a kubeconfig for the organisation’s backend to its switch token, not to other tokens', async () => {
    const token = await switchIn(people.dee, 'gamma');
    const r = await new Browser(base).request('GET', '/org/gamma/api/kubeconfig', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const yaml = String(r.body);
    expect(yaml).toContain(`server: ${base}/org/gamma/k8s`);
    const minted = /token: (wdpat_\S+)/.exec(yaml)?.[1];
    expect(minted).toBeTruthy();
    // the kubeconfig's token opens the organisation's Kubernetes-style API, there only
    expect((await bearer(minted!, '/org/gamma/k8s/version')).status).toBe(200);
    expect((await bearer(minted!, '/org/delta/k8s/version')).status).not.toBe(200);
    // and, not standing for a session, mints nothing further
    const again = await bearer(minted!, '/org/gamma/api/kubeconfig');
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('A kubeconfig can only be downloaded from a signed-in session.');
  });

  it('deletes an organisation: its schema dropped, its tokens refused, gone from every list', async () => {
    // still provisioning (the migrator's lock held here): not yet
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(727274)');
    try {
      expect((await people.dee.post('/api/organizations', { name: 'Delta', slug: 'delta' })).status).toBe(201);
      const early = await people.dee.delete('/api/organizations/delta');
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('The organisation is still being provisioned. Delete it once it is ready.');
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    await ready(people.dee, 'delta');

    const deeToken = await switchIn(people.dee, 'gamma');
    const cyToken = await switchIn(people.cy, 'gamma');
    expect((await bearer(cyToken, '/org/gamma/api/auth/whoami')).status).toBe(200);
    expect(await schemaExists('org_gamma')).toBe(true);

    expect((await people.dee.delete('/api/organizations/gamma')).status).toBe(204);
    expect(await schemaExists('org_gamma')).toBe(false);
    for (const token of [deeToken, cyToken])
      expect((await bearer(token, '/org/gamma/api/auth/whoami')).status).toBe(404);
    expect((await people.dee.get('/api/organizations/gamma')).status).toBe(404);
    expect((await people.cy.get('/api/organizations')).body).toEqual([]);
    expect((await people.dee.get('/api/organizations')).body.map((o: any) => o.slug)).toEqual(['delta']);
    expect((await people.dee.delete('/api/organizations/gamma')).status).toBe(404);
    // the other organisation is untouched
    expect(await schemaExists('org_delta')).toBe(true);
    const delta = await switchIn(people.dee, 'delta');
    expect((await bearer(delta, '/org/delta/api/auth/whoami')).status).toBe(200);
    const left = await db.query(`SELECT count(*)::int AS n FROM watchdeck_control.organization_tokens`);
    expect(left.rows[0]).toEqual({ n: 1 });
    // the slug is free again
    expect((await people.dee.post('/api/organizations', { name: 'Gamma again', slug: 'gamma' })).status).toBe(201);
    await ready(people.dee, 'gamma');
  });

  it('tells the admin when the invitation email could not be sent', async () => {
    await mailbox.close();
    const r = await people.dee.post('/api/organizations/delta/invites', { email: 'bob@members.test', role: 'viewer' });
    expect(r.status, JSON.stringify(r.body)).toBe(502);
    expect(r.body.message).toBe(
      'The invitation to bob@members.test is saved, but its email could not be sent. Check the mail server and invite again to resend it.',
    );
    // saved all the same: bob sees it in the picker
    expect((await people.bob.get('/api/organizations')).body.map((o: any) => o.slug)).toContain('delta');
  });
});
