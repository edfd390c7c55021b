/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONDER_FIELDS, renderTemplate } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startLoggedApp, startMailbox, type Mailbox, type TestApp } from '../auth/support.ts';
import type { Db } from '#server/db/index.ts';
import { startTicketSystems, type TicketSystems } from './peers.ts';
import { apiAt, createConnection, createIncident, createTeam, hurryRetries, waitFor, type Api } from './support.ts';

/**
 * Incident responders through the real app (seed 001 sections 3, 5, 7; migrations/0103): the
 * browser's POST /api/db/responders is checked against the team's responder configuration (fixed
 * values win, defaults are rendered, every field is required), and a team responder's ticket is
 * really opened: an email through a real SMTP server, a Jira issue, a ServiceNow incident, a
 * Planner task and a support case on local listeners speaking those APIs; failures are retried
 * with the queue's backoff and recorded. The wizard's lookups read the same fakes.
 */
const SECRET_KEY = 'incident-responders-test-key-0123456789';
const DISPATCH = 'incident.responder.dispatch';

for (const driver of testDrivers()) {
  describe(`incident responders (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let t: TestApp;
    let api: Api;
    let peers: TicketSystems;
    let teamMail: Mailbox;
    let serverMail: Mailbox;
    const teams: Record<string, string> = {};
    const conns: Record<string, string> = {};

    beforeAll(async () => {
      db = await driver.open();
      peers = await startTicketSystems();
      teamMail = await startMailbox();
      serverMail = await startMailbox();
      t = await startLoggedApp(db, {
        authMode: 'none',
        secretKey: SECRET_KEY,
        smtpUrl: serverMail.url,
        publicUrl: 'https://ops.example.test',
      });
      api = apiAt(t.url);
      await t.app.engines.start();

      conns.jira = await createConnection(api, 'jira', {
        name: 'jira-main',
        url: `${peers.url}/jira`,
        username: 'jira-bot',
        password: 'jira-token',
      });
      conns.jiraBroken = await createConnection(api, 'jira', {
        name: 'jira-old',
        url: `${peers.url}/jira`,
        username: 'jira-bot',
        password: 'wrong',
      });
      conns.snow = await createConnection(api, 'service_now', {
        name: 'snow',
        url: `${peers.url}/snow`,
        username: 'snow-bot',
        password: 'snow-pass',
      });
      conns.planner = await createConnection(api, 'ms_planner', {
        name: 'planner',
        tenant: 'tenant-1',
        username: 'planner-app',
        password: 'planner-secret',
        group: 'group-1',
        url: `${peers.url}/graph`,
        loginUrl: `${peers.url}/login`,
      });
      conns.cases = await createConnection(api, 'case_webhook', {
        name: 'aws-cases',
        url: `${peers.url}/cases`,
        responderType: 'aws_support',
        password: 'case-token',
      });
      const smtpPort = new URL(teamMail.url).port;
      conns.mail = await createConnection(api, 'email', {
        name: 'team-mail',
        host: '127.0.0.1',
        port: Number(smtpPort),
        encryptionMethod: 'None',
        authMethod: 'None',
        from: 'incidents@example.test',
        fromName: 'Watchdeck',
      });

      teams.sre = await createTeam(api, 'SRE', {
        responder_clients: {
          jira: {
            connection: 'jira-main',
            values: { project: 'OPS', issueType: 'Incident' },
            defaults: {
              priority: 'High',
              summary: '[{{.incident.incident_id}}] {{.incident.title}}',
              description: '{{.incident.description}} ({{.priority}})',
            },
            linkUrl: 'https://jira.example.com/browse/{{.external_id}}',
          },
          email: {
            connection: 'team-mail',
            values: { to: 'sre@example.test' },
            defaults: { subject: 'Incident {{.incident.incident_id}}: {{.incident.title}}' },
          },
        },
      });
      teams.payments = await createTeam(api, 'Payments', {
        responder_clients: {
          service_now: { values: { category: 'Payments' }, defaults: { description: '{{.incident.title}}' } },
        },
      });
      teams.databases = await createTeam(api, 'Databases', {
        responder_clients: {
          ms_planner: {
            connection: 'planner',
            values: { plan_id: 'plan-1', bucket_id: 'bucket-1' },
            defaults: { priority: 'important', title: '{{.incident.title}}', description: '{{.incident.description}}' },
          },
        },
      });
      teams.cloud = await createTeam(api, 'Cloud', {
        responder_clients: {
          aws_support: {
            defaults: { category: 'technical', description: '{{.incident.title}}', body: '{{.incident.description}}' },
          },
          redhat: { values: { product: 'RHEL', category: 'kernel', description: 'x', body: 'y' } },
        },
      });
      teams.ops = await createTeam(api, 'Ops', {
        responder_clients: { email: { values: { to: 'ops@example.test' } } },
      });
      teams.platform = await createTeam(api, 'Platform', {
        responder_clients: {
          jira: {
            values: {
              project: 'PLAT',
              issueType: 'Task',
              priority: 'High',
              summary: 'CIS 4.2.6',
              description: 'kubelet flags',
            },
          },
        },
      });
      teams.empty = await createTeam(api, 'Nobody', {});
    });
    afterAll(async () => {
      await t?.app.close();
      await peers?.close();
      await teamMail?.close();
      await serverMail?.close();
      await db?.dispose();
    });

    const addResponder = (incidentId: string, teamId: string, type: string, properties: Record<string, unknown> = {}) =>
      api('POST', '/api/db/responders?select=*', {
        incident_id: incidentId,
        type,
        team_id: teamId,
        properties: { responderType: type, ...properties },
      });
    const responder = async (id: string) => (await api('GET', `/api/db/responders?id=eq.${id}`)).body[0];
    const settled = (id: string) =>
      waitFor(
        () => responder(id),
        (r) => r.dispatch_status !== 'pending',
        `responder ${id} to be dispatched`,
      );
    const countOf = async (incidentId: string) =>
      (await api('GET', `/api/db/responders?incident_id=eq.${incidentId}&select=id`)).body.length;

    it('refuses a team responder missing a field with "Please provide valid value" naming the field, and writes nothing', async () => {
      const inc = await createIncident(api);
      const r = await addResponder(inc.id, teams.payments, 'service_now', { body: '   ' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: '23514',
        message: 'Please provide valid value',
        details: 'service_now: body is required',
      });
      expect(r.body.hint).toContain('Payments');
      expect(await countOf(inc.id)).toBe(0);
      const several = await addResponder(inc.id, teams.cloud, 'redhat', { product: '' });
      expect(several.status).toBe(201); // fixed values fill them all
      const none = await api('POST', '/api/db/responders', {
        incident_id: inc.id,
        type: 'team',
        team_id: teams.ops,
        properties: { responderType: 'email', subject: 'x' },
      });
      expect(none.status).toBe(400);
      expect(none.body.details).toBe('email: body is required');
    });

    it('refuses a team without responder types, or without the chosen type', async () => {
      const inc = await createIncident(api);
      const empty = await addResponder(inc.id, teams.empty, 'email', { to: 'a@b.c', subject: 's', body: 'b' });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('There were no responders configured for this team');
      const other = await addResponder(inc.id, teams.sre, 'ms_planner');
      expect(other.status).toBe(400);
      expect(other.body).toMatchObject({
        message: 'Responder type "ms_planner" is not configured for team "SRE"',
        details: 'The team has: email, jira',
      });
      const bogus = await addResponder(inc.id, teams.sre, 'pager');
      expect(bogus.status).toBe(400);
      expect(bogus.body.message).toBe('Please provide valid value');
      expect(await countOf(inc.id)).toBe(0);
    });

    it('lets fixed values win, renders defaults for empty fields, and opens the Jira issue', async () => {
      const inc = await createIncident(api, { title: 'Checkout latency', description: 'p95 at 2.4s' });
      const r = await addResponder(inc.id, teams.sre, 'jira', {
        project: 'HACK',
        issueType: '',
        priority: 'Highest',
        summary: '',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const created = r.body[0];
      expect(created.properties).toEqual({
        responderType: 'jira',
        project: 'OPS', // fixed value, not the client's
        issueType: 'Incident',
        priority: 'Highest', // sent: the default is not used
        summary: `[${inc.incident_id}] Checkout latency`,
        description: 'p95 at 2.4s (Highest)', // templates see the form values too
      });
      expect(created).toMatchObject({ type: 'jira', dispatch_status: 'pending', created_by: expect.any(String) });

      const done = await settled(created.id);
      expect(done).toMatchObject({
        dispatch_status: 'sent',
        dispatch_error: null,
        external_id: 'OPS-1',
        external_url: 'https://jira.example.com/browse/OPS-1',
      });
      expect(done.dispatched_at).not.toBeNull();
      const sent = peers.requests.find((q) => q.method === 'POST' && q.path === '/jira/rest/api/2/issue');
      expect(sent?.body).toEqual({
        fields: {
          project: { key: 'OPS' },
          issuetype: { name: 'Incident' },
          priority: { name: 'Highest' },
          summary: `[${inc.incident_id}] Checkout latency`,
          description: 'p95 at 2.4s (Highest)',
        },
      });
      // the dispatch is the one event of the insert, consumed once (recorded done with the outcome)
      expect(
        (
          await db.query(
            `SELECT d.consumer, d.status, d.attempts FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
             WHERE e.name = $1 AND e.event_id = $2`,
            [DISPATCH, created.id],
          )
        ).rows,
      ).toEqual([{ consumer: 'incidents.responder-dispatch', status: 'done', attempts: 1 }]);
      const h = (await api('GET', `/api/db/incident_histories?incident_id=eq.${inc.id}&type=eq.responder.created`))
        .body;
      expect(h).toHaveLength(1);
    });

    it("emails through the team's email connection, and through SMTP_URL when the team names none", async () => {
      const inc = await createIncident(api, { title: 'Queue backlog' });
      const before = teamMail.mails.length;
      const r = await addResponder(inc.id, teams.sre, 'email', { body: 'Please check the consumers.' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(await settled(r.body[0].id)).toMatchObject({ dispatch_status: 'sent', dispatch_error: null });
      const raw = await teamMail.next('sre@example.test', before);
      expect(raw).toContain(`Subject: Incident ${inc.incident_id}: Queue backlog`);
      expect(raw).toContain('Please check the consumers.');
      expect(raw).toContain(`https://ops.example.test/incidents/${inc.id}`);
      expect(raw).toMatch(/From: Watchdeck <incidents@example.test>/);

      const viaServer = await addResponder(inc.id, teams.ops, 'email', {
        subject: 'Backlog',
        body: 'Ops, have a look',
      });
      expect(viaServer.status, JSON.stringify(viaServer.body)).toBe(201);
      expect(await settled(viaServer.body[0].id)).toMatchObject({ dispatch_status: 'sent' });
      expect(await serverMail.next('ops@example.test', 0)).toContain('Ops, have a look');
    });

    it('opens a ServiceNow incident on the only service_now connection, a Planner task and an AWS support case', async () => {
      const inc = await createIncident(api, { title: 'Payments 502', description: 'gateway errors' });
      const snow = await addResponder(inc.id, teams.payments, 'service_now', { body: 'Customers cannot pay' });
      const plan = await addResponder(inc.id, teams.databases, 'ms_planner');
      const aws = await addResponder(inc.id, teams.cloud, 'aws_support');
      for (const r of [snow, plan, aws]) expect(r.status, JSON.stringify(r.body)).toBe(201);

      expect(await settled(snow.body[0].id)).toMatchObject({
        dispatch_status: 'sent',
        external_id: 'INC0010042',
        external_url: `${peers.url}/snow/nav_to.do?uri=incident.do?sys_id=9d385017c611228701d22104cc95c371`,
      });
      const snowReq = peers.requests.find((q) => q.path === '/snow/api/now/table/incident');
      expect(snowReq?.body).toMatchObject({
        short_description: 'Payments 502',
        description: 'Customers cannot pay',
        category: 'Payments',
        correlation_id: inc.incident_id,
      });

      expect(await settled(plan.body[0].id)).toMatchObject({
        dispatch_status: 'sent',
        dispatch_error: null,
        external_id: 'task-1',
      });
      const taskReq = peers.requests.find((q) => q.method === 'POST' && q.path === '/graph/planner/tasks');
      expect(taskReq?.body).toEqual({ planId: 'plan-1', bucketId: 'bucket-1', title: 'Payments 502', priority: 3 });
      const detailsReq = peers.requests.find(
        (q) => q.method === 'PATCH' && q.path === '/graph/planner/tasks/task-1/details',
      );
      expect(detailsReq?.body).toEqual({ description: 'gateway errors' });

      expect(await settled(aws.body[0].id)).toMatchObject({
        dispatch_status: 'sent',
        external_id: 'CASE-77',
        external_url: 'https://support.example.com/cases/CASE-77',
      });
      const caseReq = peers.requests.find((q) => q.path === '/cases');
      expect(caseReq?.body).toMatchObject({
        type: 'aws_support',
        responder_id: aws.body[0].id,
        case: { category: 'technical', description: 'Payments 502', body: 'gateway errors' },
        incident: {
          id: inc.id,
          incident_id: inc.incident_id,
          title: 'Payments 502',
          url: `https://ops.example.test/incidents/${inc.id}`,
        },
        team: { id: teams.cloud, name: 'Cloud' },
      });
    });

    it('uses the instance picked in the wizard when the team locks none, and refuses to guess between several', async () => {
      const inc = await createIncident(api);
      const picked = await addResponder(inc.id, teams.platform, 'jira', { connection: 'jira-main' });
      expect(picked.status, JSON.stringify(picked.body)).toBe(201);
      expect(await settled(picked.body[0].id)).toMatchObject({
        dispatch_status: 'sent',
        external_id: expect.stringMatching(/^PLAT-\d+$/),
      });
      expect((await responder(picked.body[0].id)).external_url).toMatch(
        new RegExp(`^${peers.url}/jira/browse/PLAT-\\d+$`),
      );
      const unpicked = await addResponder(inc.id, teams.platform, 'jira');
      const failed = await settled(unpicked.body[0].id);
      expect(failed).toMatchObject({ dispatch_status: 'failed', external_id: null });
      expect(failed.dispatch_error).toBe(
        'Several jira connections could serve jira (jira-main, jira-old): name one in team "Platform" spec.responder_clients.jira.connection',
      );
    });

    it('fails the dispatch with a clear error when no connection serves the type', async () => {
      const inc = await createIncident(api);
      const r = await addResponder(inc.id, teams.cloud, 'redhat');
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const done = await settled(r.body[0].id);
      expect(done.dispatch_status).toBe('failed');
      expect(done.dispatch_error).toMatch(/^No case_webhook connection is configured: /);
      expect(done.external_id).toBeNull();
    });

    it("retries a failing ticket system with the queue's backoff, then records the failure", async () => {
      peers.fail.add('jira');
      try {
        const inc = await createIncident(api);
        const r = await addResponder(inc.id, teams.sre, 'jira');
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        const id = r.body[0].id;
        const retrying = await waitFor(
          () => responder(id),
          (x) => x.dispatch_error !== null,
          'a first failed attempt',
        );
        expect(retrying.dispatch_status).toBe('pending');
        expect(retrying.dispatch_error).toMatch(
          /Jira answered 500: Jira is down for maintenance \(attempt 1; retrying\)/,
        );
        const failed = await waitFor(
          async () => {
            await hurryRetries(db, DISPATCH);
            return responder(id);
          },
          (x) => x.dispatch_status === 'failed',
          'the last attempt',
        );
        expect(failed.dispatch_error).toBe('Jira answered 500: Jira is down for maintenance');
        const ev = (
          await db.query<any>(
            `SELECT d.status, d.attempts FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
             WHERE e.name = $1 AND e.event_id = $2`,
            [DISPATCH, id],
          )
        ).rows[0];
        expect(ev).toEqual({ status: 'failed', attempts: 5 });
        expect(
          peers.requests.filter(
            (q) =>
              q.method === 'POST' &&
              q.path === '/jira/rest/api/2/issue' &&
              q.body.fields.summary.includes(inc.incident_id),
          ),
        ).toHaveLength(5);
      } finally {
        peers.fail.delete('jira');
      }
    });

    it('adds a person directly, without a dispatch', async () => {
      const inc = await createIncident(api);
      const person = (
        await db.query<{ id: string }>(
          `INSERT INTO people (name, email) VALUES ('Noah Patel', 'noah@example.test') RETURNING id`,
        )
      ).rows[0].id;
      const r = await api('POST', '/api/db/responders?select=*', {
        incident_id: inc.id,
        type: 'person',
        person_id: person,
        properties: { responderType: 'person', person },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body[0]).toMatchObject({
        type: 'person',
        dispatch_status: null,
        properties: { responderType: 'person', person },
      });
    });

    it('stamps the timeline: acknowledged by the responder, signed off on resolve, closed on close, cleared on reopen', async () => {
      const inc = await createIncident(api);
      const person = (await db.query<{ id: string }>(`INSERT INTO people (name) VALUES ('Mia Kowalski') RETURNING id`))
        .rows[0].id;
      const p = (await api('POST', '/api/db/responders', { incident_id: inc.id, type: 'person', person_id: person }))
        .body[0];
      const team = (await addResponder(inc.id, teams.payments, 'service_now', { body: 'b' })).body[0];
      const gone = (await addResponder(inc.id, teams.payments, 'service_now', { body: 'c' })).body[0];
      expect(
        (await api('PATCH', `/api/db/responders?id=eq.${gone.id}`, { deleted_at: new Date().toISOString() })).status,
      ).toBe(200);

      const ack = await api('PATCH', `/api/db/responders?id=eq.${p.id}`, {
        acknowledge_time: new Date().toISOString(),
      });
      expect(ack.status, JSON.stringify(ack.body)).toBe(200);
      expect((await api('PATCH', `/api/db/incidents?id=eq.${inc.id}`, { status: 'resolved' })).status).toBe(200);
      const [a1, b1, c] = await Promise.all([responder(p.id), responder(team.id), responder(gone.id)]);
      let [a, b] = [a1, b1];
      expect(a.acknowledge_time).not.toBeNull();
      expect(a.signoff_time).not.toBeNull();
      expect(b.signoff_time).not.toBeNull();
      expect([a.close_time, b.close_time]).toEqual([null, null]);
      expect(c.signoff_time).toBeNull(); // removed responders keep their timeline

      expect((await api('PATCH', `/api/db/incidents?id=eq.${inc.id}`, { status: 'closed' })).status).toBe(200);
      [a, b] = await Promise.all([responder(p.id), responder(team.id)]);
      expect(a.close_time).not.toBeNull();
      expect(b.close_time).not.toBeNull();

      // reopened: active again
      expect((await api('PATCH', `/api/db/incidents?id=eq.${inc.id}`, { status: 'open' })).status).toBe(200);
      [a, b] = await Promise.all([responder(p.id), responder(team.id)]);
      expect([a.signoff_time, a.close_time, b.signoff_time, b.close_time]).toEqual([null, null, null, null]);
      expect(a.acknowledge_time).not.toBeNull();
    });

    it("keeps a responder's identity and dispatch outcome out of clients' reach", async () => {
      const inc = await createIncident(api);
      const other = await createIncident(api);
      const team = (await addResponder(inc.id, teams.payments, 'service_now', { body: 'b' })).body[0];
      // The dispatcher settles the status in the background; a PATCH to the value it already has
      // changes nothing (and is allowed), so wait for it and ask for the other outcome.
      let settled = (await responder(team.id)).dispatch_status;
      for (let i = 0; settled === 'pending' && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 100));
        settled = (await responder(team.id)).dispatch_status;
      }
      expect(settled).not.toBe('pending');
      for (const [col, value] of [
        ['incident_id', other.id],
        ['created_by', null],
        ['team_id', teams.sre],
        ['properties', { responderType: 'service_now', category: 'x', description: 'y', body: 'z' }],
        ['external_id', 'FAKE-1'],
        ['dispatch_status', settled === 'sent' ? 'failed' : 'sent'],
      ] as const) {
        const r = await api('PATCH', `/api/db/responders?id=eq.${team.id}`, { [col]: value });
        expect(r.status, col).toBe(400);
        expect(r.body.message).toBe(`A responder's ${col} cannot be changed`);
      }
      expect((await responder(team.id)).incident_id).toBe(inc.id);
    });

    it('keeps the changelog read-only for clients', async () => {
      const inc = await createIncident(api);
      const post = await api('POST', '/api/db/incident_histories', {
        incident_id: inc.id,
        type: 'incident.created',
        description: 'forged',
      });
      expect(post.status).toBe(405);
      const patch = await api('PATCH', `/api/db/incident_histories?incident_id=eq.${inc.id}`, {
        description: 'rewritten',
      });
      expect(patch.status).toBe(405);
      const del = await api('DELETE', `/api/db/incident_histories?incident_id=eq.${inc.id}`);
      expect(del.status).toBe(405);
      const h = (await api('GET', `/api/db/incident_histories?incident_id=eq.${inc.id}`)).body;
      expect(h.map((x: any) => x.description)).toEqual(['Checkout is down']);
    });

    it("answers the wizard's instance lookup: the team's connection locked, else every one of the type", async () => {
      const locked = await api('GET', `/api/incidents/responder-instances?type=jira&team_id=${teams.sre}`);
      expect(locked).toEqual({
        status: 200,
        body: { instances: [{ id: conns.jira, name: 'jira-main' }], locked: true },
      });
      const all = await api('GET', `/api/incidents/responder-instances?type=jira&team_id=${teams.payments}`);
      expect(all.body).toEqual({
        instances: [
          { id: conns.jira, name: 'jira-main' },
          { id: conns.jiraBroken, name: 'jira-old' },
        ],
        locked: false,
      });
      const cases = await api('GET', '/api/incidents/responder-instances?type=aws_support');
      expect(cases.body).toEqual({ instances: [{ id: conns.cases, name: 'aws-cases' }], locked: false });
      expect((await api('GET', '/api/incidents/responder-instances?type=redhat')).body.instances).toEqual([]);
      expect((await api('GET', '/api/incidents/responder-instances?type=pager')).status).toBe(400);
      expect((await api('GET', '/api/incidents/responder-instances?type=jira&team_id=nope')).status).toBe(400);
      expect(
        (await api('GET', '/api/incidents/responder-instances?type=jira&team_id=7e57e57e-0000-4000-8000-000000000000'))
          .status,
      ).toBe(404);
    });

    it('looks options up live in Jira and Planner', async () => {
      const opts = (q: string) => api('GET', `/api/incidents/responder-options?${q}`);
      expect((await opts(`connection_id=${conns.jira}&field=project`)).body).toEqual({
        options: [
          { value: 'OPS', label: 'Operations (OPS)' },
          { value: 'PLAT', label: 'Platform (PLAT)' },
        ],
      });
      expect((await opts(`connection_id=${conns.jira}&field=project&q=plat`)).body.options).toEqual([
        { value: 'PLAT', label: 'Platform (PLAT)' },
      ]);
      expect((await opts(`connection_id=${conns.jira}&field=issueType&project=OPS`)).body.options).toEqual([
        { value: 'Incident', label: 'Incident' },
        { value: 'Task', label: 'Task' },
      ]);
      expect(
        (await opts(`connection_id=${conns.jira}&field=priority&project=OPS`)).body.options.map((o: any) => o.value),
      ).toEqual(['Highest', 'High', 'Medium']);
      expect((await opts(`connection_id=${conns.planner}&field=plan`)).body.options).toEqual([
        { value: 'plan-1', label: 'Databases' },
        { value: 'plan-2', label: 'Network' },
      ]);
      expect((await opts(`connection_id=${conns.planner}&field=bucket&plan=plan-1`)).body.options).toEqual([
        { value: 'bucket-1', label: 'Incidents' },
        { value: 'bucket-2', label: 'Backlog' },
      ]);
      expect(
        (await opts(`connection_id=${conns.planner}&field=priority`)).body.options.map((o: any) => o.value),
      ).toEqual(['urgent', 'important', 'medium', 'low']);
    });

    it('answers bad lookups with 400, unknown connections with 404 and upstream failures with 502', async () => {
      const opts = (q: string) => api('GET', `/api/incidents/responder-options?${q}`);
      expect(await opts(`connection_id=${conns.jira}&field=issueType`)).toEqual({
        status: 400,
        body: { error: 'project is required' },
      });
      expect((await opts(`connection_id=${conns.jira}&field=bucket`)).status).toBe(400);
      expect((await opts(`connection_id=${conns.snow}&field=project`)).status).toBe(400);
      expect((await opts('field=project')).status).toBe(400);
      expect(await opts('connection_id=7e57e57e-0000-4000-8000-000000000000&field=project')).toEqual({
        status: 404,
        body: { error: 'connection not found' },
      });
      const refused = await opts(`connection_id=${conns.jiraBroken}&field=project`);
      expect(refused).toEqual({ status: 502, body: { error: 'Jira answered 401: You are not authenticated' } });
      expect(JSON.stringify(refused.body)).not.toContain('wrong');
      peers.fail.add('graph');
      try {
        const down = await opts(`connection_id=${conns.planner}&field=bucket&plan=plan-1`);
        expect(down).toEqual({
          status: 502,
          body: { error: 'Microsoft Graph answered 503: The service is temporarily unavailable.' },
        });
      } finally {
        peers.fail.delete('graph');
      }
    });

    it('tests Jira, ServiceNow and Planner connections against the systems', async () => {
      for (const id of [conns.jira, conns.snow, conns.planner]) {
        expect(await api('POST', `/api/connection/test/${id}`), id).toEqual({ status: 200, body: { message: 'ok' } });
      }
      expect(await api('POST', `/api/connection/test/${conns.jiraBroken}`)).toEqual({
        status: 400,
        body: { error: 'Jira answered 401: You are not authenticated' },
      });
      expect((await api('POST', `/api/connection/test/${conns.cases}`)).status).toBe(501); // it would open a case
    });

    it('guards the lookups with read on responder (incidents feature)', () => {
      for (const url of ['/api/incidents/responder-instances', '/api/incidents/responder-options']) {
        const route = t.app.declaredRoutes.find((r) => r.url === url && [r.method].flat().includes('GET'));
        expect(route?.config).toMatchObject({
          access: { resource: 'responder', action: 'read' },
          feature: 'incidents',
        });
      }
    });

    it('keeps the SQL twins of core in step: template rendering and the fields per type', async () => {
      const ctx = {
        to: 'a@b.c',
        n: 3,
        flag: true,
        empty: null,
        incident: { incident_id: 'INC0000007', title: 'Disk full', tags: ['a'] },
        team: { name: 'SRE' },
      };
      const templates = [
        '[{{.incident.incident_id}}] {{.incident.title}}',
        '{{ .team.name }}-{{.n}}-{{.flag}}-{{.empty}}-{{.missing.deep}}',
        'no fields, {{ not a field }} and {{ .incident.title.deeper }}x',
        '{{-.to-}}',
        '',
      ];
      for (const tpl of templates) {
        const r = await db.query<{ out: string }>(`SELECT render_template($1, $2::jsonb) AS out`, [
          tpl,
          JSON.stringify(ctx),
        ]);
        expect(r.rows[0].out, tpl).toBe(renderTemplate(tpl, ctx));
      }
      for (const [type, fields] of Object.entries(RESPONDER_FIELDS)) {
        const r = await db.query<{ f: string[] }>(`SELECT responder_type_fields($1) AS f`, [type]);
        expect(r.rows[0].f, type).toEqual(fields.map((f) => f.key));
      }
    });
  });

  describe(`incident responders without SMTP (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let t: TestApp;
    let api: Api;
    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authMode: 'none', secretKey: SECRET_KEY });
      api = apiAt(t.url);
      await t.app.engines.start();
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it("writes an email responder's message to the log and records that", async () => {
      const team = await createTeam(api, 'Ops', {
        responder_clients: {
          email: { values: { to: 'ops@example.test', subject: 'Disk full', body: 'Free some space' } },
        },
      });
      const inc = await createIncident(api);
      const r = await api('POST', '/api/db/responders', {
        incident_id: inc.id,
        type: 'email',
        team_id: team,
        properties: { responderType: 'email' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const done = await waitFor(
        async () => (await api('GET', `/api/db/responders?id=eq.${r.body[0].id}`)).body[0],
        (x) => x.dispatch_status !== 'pending',
        'the dispatch',
      );
      expect(done).toMatchObject({
        dispatch_status: 'logged',
        dispatch_error: 'SMTP_URL is not set: the email was written to the server log',
      });
      const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.mail?.to === 'ops@example.test');
      expect(line).toMatchObject({
        msg: 'SMTP_URL is not set: email written to the log',
        mail: { subject: 'Disk full' },
      });
      expect(line.mail.text).toContain('Free some space');
    });
  });
}
