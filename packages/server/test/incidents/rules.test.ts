/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { globsMatch } from '#server/incidents/rules.ts';
import { apiAt, createTeam, waitFor, type Api } from './support.ts';

/**
 * Incident rules (settings kind incident_rule; incidents/rules.ts): failing checks that match a
 * rule open an incident (root hypothesis, the check as evidence, the rule's responders), further
 * failures join it as evidence once, and with autoResolve the incident is resolved when every
 * check the rule added is healthy again. Components turning unhealthy do the same. The checks
 * really run (Run Now) against a local HTTP target; the events flow through the real queue.
 */
describe('rule globs', () => {
  it('match names with *, exclude with !, and match anything without patterns', () => {
    expect(globsMatch(['api-*'], 'api-orders')).toBe(true);
    expect(globsMatch(['api-*'], 'web')).toBe(false);
    expect(globsMatch(['*', '!api-canary'], 'api-canary')).toBe(false);
    expect(globsMatch(['!api-canary'], 'web')).toBe(true);
    expect(globsMatch(['API-*'], 'api-x')).toBe(true);
    expect(globsMatch(undefined, null)).toBe(true);
    expect(globsMatch(['a.b'], 'axb')).toBe(false);
  });
});

for (const driver of testDrivers()) {
  describe(`incident rules (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let api: Api;
    let target: http.Server;
    let targetUrl: string;
    const healthy = new Set<string>();
    const checks: Record<string, string> = {};
    let ruleId: string;

    beforeAll(async () => {
      db = await driver.open();
      target = http.createServer((req, res) => {
        const name = (req.url ?? '').slice(1);
        res.writeHead(healthy.has(name) ? 200 : 503).end(healthy.has(name) ? 'ok' : 'unavailable');
      });
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
      let url: string;
      ({ app, url } = await startApp(db, { authMode: 'none', secretKey: 'rules-test-key-0123456789' }));
      api = apiAt(url);
      await app.engines.start();

      await db.query(`INSERT INTO people (name, email) VALUES ('Rita Responder', 'rita@example.test')`);
      await createTeam(api, 'SRE', {
        responder_clients: {
          email: {
            values: { to: 'sre@example.test' },
            defaults: { subject: '{{.incident.title}}', body: '{{.incident.description}}' },
          },
        },
      });
      await createTeam(api, 'Half configured', { responder_clients: { email: { values: { to: 'x@example.test' } } } });
      const rule = await api('POST', '/api/db/incident_rules', {
        name: 'prod-api',
        priority: 10,
        spec: {
          filter: { kind: 'check', names: ['api-*', '!api-canary'], labels: { env: 'prod' } },
          autoResolve: true,
          template: {
            title: '{{.check.name}} is failing',
            severity: 'high',
            type: 'availability',
            description: '{{.check.name}} on {{.check.endpoint}}',
          },
          responders: {
            people: ['Rita Responder'],
            teams: [{ name: 'SRE', type: 'email' }, 'Half configured', 'No such team'],
          },
        },
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      ruleId = rule.body[0].id;
      // a catch-all of lower priority: only what the first rule does not take
      const fallback = await api('POST', '/api/db/incident_rules', {
        name: 'any-check',
        priority: 1,
        spec: { filter: { kind: 'check', names: ['web-*'] }, template: { title: 'Web: {{.check.name}}' } },
      });
      expect(fallback.status).toBe(201);

      const canary = await api('POST', '/api/db/canaries', {
        name: 'prod-endpoints',
        schedule: '@every 1h',
        labels: { env: 'prod' },
        spec: {
          http: ['api-orders', 'api-payments', 'api-canary', 'web-home', 'api-late'].map((name) => ({
            name,
            url: `${targetUrl}/${name}`,
            responseCodes: [200],
          })),
        },
      });
      expect(canary.status, JSON.stringify(canary.body)).toBe(201);
      for (const c of (
        await db.query<{ id: string; name: string }>(`SELECT id, name FROM checks WHERE canary_id = $1`, [
          canary.body[0].id,
        ])
      ).rows)
        checks[c.name] = c.id;
    });
    afterAll(async () => {
      await app?.close();
      await new Promise<void>((r) => (target ? target.close(() => r()) : r()));
      await db?.dispose();
    });

    const runNow = async (name: string, expected: 'healthy' | 'unhealthy') => {
      const r = await api('POST', `/api/canary/run/check/${checks[name]}`);
      expect(r.body?.status, `${name}: ${JSON.stringify(r.body)}`).toBe(expected);
    };
    const ruleIncidents = async (id = ruleId) =>
      (
        await api(
          'GET',
          `/api/db/incidents?incident_rule_id=eq.${id}&order=created_at&select=*,hypotheses(type,title,evidences(type,check_id,component_id,properties,description))`,
        )
      ).body as any[];
    /** waits until the queue has handled every transition so far */
    const settled = () =>
      waitFor(
        async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM event_deliveries WHERE consumer = 'incidents' AND status IN ('pending', 'running')`,
            )
          ).rows[0].n,
        (n) => n === 0,
        'the transitions to be handled',
      );

    it('refuses a rule whose filter it cannot apply', async () => {
      const r = await api('POST', '/api/db/incident_rules', {
        name: 'insights',
        spec: { filter: { kind: 'insight' } },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^spec\.filter\.kind/);
    });

    it('opens an incident from a failing check that matches: template, root hypothesis, evidence, responders', async () => {
      await runNow('api-orders', 'unhealthy');
      const [inc] = await waitFor(ruleIncidents, (l) => l.length === 1, 'the rule to open an incident');
      expect(inc).toMatchObject({
        title: 'api-orders is failing',
        description: `api-orders on ${targetUrl}/api-orders`,
        status: 'open',
        severity: 'high',
        type: 'availability',
        incident_rule_id: ruleId,
        created_by: null,
      });
      expect(inc.hypotheses).toHaveLength(1);
      expect(inc.hypotheses[0]).toMatchObject({ type: 'root', title: `api-orders on ${targetUrl}/api-orders` });
      expect(inc.hypotheses[0].evidences).toEqual([
        {
          type: 'check',
          check_id: checks['api-orders'],
          component_id: null,
          properties: { incident_rule_id: ruleId, source: 'incident_rule' },
          description: 'Check api-orders is unhealthy',
        },
      ]);
      const responders = (
        await api(
          'GET',
          `/api/db/responders?incident_id=eq.${inc.id}&select=type,person:person_id(name),team:team_id(name),properties&order=created_at`,
        )
      ).body;
      // the half-configured team's email lacks subject and body: skipped (logged), the rest stands
      // (one transaction: same created_at, so compare as a set)
      expect(responders.map((r: any) => [r.type, r.person?.name ?? r.team?.name]).sort()).toEqual([
        ['email', 'SRE'],
        ['person', 'Rita Responder'],
      ]);
      expect(responders.find((r: any) => r.type === 'email').properties).toMatchObject({
        to: 'sre@example.test',
        subject: 'api-orders is failing',
      });
      const h = (await api('GET', `/api/db/incident_histories?incident_id=eq.${inc.id}&select=type,created_by`)).body;
      expect(h.map((x: any) => x.type).sort()).toEqual([
        'evidence.created',
        'hypothesis.created',
        'incident.created',
        'responder.created',
        'responder.created',
      ]);
      expect(h.every((x: any) => x.created_by === null)).toBe(true);
    });

    it('adds further failing checks to the open incident, once each; other checks go elsewhere or nowhere', async () => {
      await runNow('api-payments', 'unhealthy');
      await runNow('api-canary', 'unhealthy'); // excluded by the rule
      await runNow('web-home', 'unhealthy'); // the lower-priority rule's
      await settled();
      const list = await ruleIncidents();
      expect(list).toHaveLength(1);
      expect(list[0].hypotheses[0].evidences.map((e: any) => e.check_id).sort()).toEqual(
        [checks['api-orders'], checks['api-payments']].sort(),
      );
      // a second failure of a check already in the incident adds nothing (no flip: no event)
      await runNow('api-orders', 'unhealthy');
      await settled();
      expect((await ruleIncidents())[0].hypotheses[0].evidences).toHaveLength(2);
      const other = (await api('GET', `/api/db/incidents?title=like.Web*&select=title,incident_rule_id`)).body;
      expect(other).toEqual([{ title: 'Web: web-home', incident_rule_id: expect.any(String) }]);
      expect((await api('GET', `/api/db/evidences?check_id=eq.${checks['api-canary']}`)).body).toEqual([]);
    });

    it('resolves the incident once every check the rule added is healthy again', async () => {
      healthy.add('api-orders');
      await runNow('api-orders', 'healthy');
      await settled();
      expect((await ruleIncidents())[0].status).toBe('open'); // api-payments still fails
      healthy.add('api-payments');
      await runNow('api-payments', 'healthy');
      const [inc] = await waitFor(ruleIncidents, (l) => l[0].status === 'resolved', 'the incident to be resolved');
      const h = (
        await api('GET', `/api/db/incident_histories?incident_id=eq.${inc.id}&type=eq.incident.status_updated`)
      ).body;
      expect(h.map((x: any) => [x.description, x.created_by])).toEqual([['open → resolved', null]]);
      // its responders were signed off in the same transaction
      const signed = (await api('GET', `/api/db/responders?incident_id=eq.${inc.id}&select=signoff_time`)).body;
      expect(signed.every((r: any) => r.signoff_time !== null)).toBe(true);
    });

    it('opens a new incident when a check fails after the last one was resolved', async () => {
      await runNow('api-late', 'unhealthy');
      const list = await waitFor(ruleIncidents, (l) => l.length === 2, 'a second incident');
      expect(list[1]).toMatchObject({ title: 'api-late is failing', status: 'open' });
    });

    it('opens incidents from components turning unhealthy', async () => {
      const rule = await api('POST', '/api/db/incident_rules', {
        name: 'data-stores',
        spec: {
          filter: { kind: 'component', types: ['Database'] },
          autoResolve: true,
          template: { title: '{{.component.name}}: {{.component.status_reason}}', severity: 'critical' },
        },
      });
      expect(rule.status).toBe(201);
      const comp = (
        await db.query<{ id: string }>(
          `INSERT INTO components (name, type, status) VALUES ('orders-db', 'Database', 'healthy') RETURNING id`,
        )
      ).rows[0].id;
      await db.query(`UPDATE components SET status = 'unhealthy', status_reason = 'replica lag 412s' WHERE id = $1`, [
        comp,
      ]);
      const [inc] = await waitFor(
        () => ruleIncidents(rule.body[0].id),
        (l) => l.length === 1,
        'a component incident',
      );
      expect(inc).toMatchObject({ title: 'orders-db: replica lag 412s', severity: 'critical' });
      expect(inc.hypotheses[0].evidences).toMatchObject([{ type: 'topology', component_id: comp }]);
      await db.query(`UPDATE components SET status = 'healthy' WHERE id = $1`, [comp]);
      await waitFor(
        () => ruleIncidents(rule.body[0].id),
        (l) => l[0].status === 'resolved',
        'the component incident to be resolved',
      );
    });
  });
}
