/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import type { ConsumedEvent } from '#server/jobs/index.ts';
import { apiAt, waitFor, type Api } from '../incidents/support.ts';

/**
 * The event bus end to end (issue 14): a real check fails (Run Now against a local target that
 * answers 503), health publishes check.failed, and two consumers get it: the incidents area (an
 * incident rule opens an incident) and a consumer of this test that fails its first three
 * attempts. Each is delivered exactly once to completion; the failing one is retried with
 * backoff after incidents has long finished, and incidents is not repeated.
 */
for (const driver of testDrivers()) {
  describe(`event bus: check.failed to two consumers (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let api: Api;
    let target: http.Server;
    let checkId: string;
    let ruleId: string;
    const attempts: { at: number; event: ConsumedEvent }[] = [];
    const BACKOFF_MS = 200;

    beforeAll(async () => {
      db = await driver.open();
      target = http.createServer((_req, res) => res.writeHead(503).end('unavailable'));
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
      let url: string;
      ({ app, url } = await startApp(db, { authMode: 'none', secretKey: 'bus-test-key-0123456789' }));
      api = apiAt(url);
      app.engines.queue.consume(
        'test.flaky',
        ['check.failed'],
        async (event) => {
          attempts.push({ at: Date.now(), event });
          if (event.attempt <= 3) throw new Error(`flaky ${event.attempt}`);
        },
        { backoff: { baseMs: BACKOFF_MS } },
      );
      await app.engines.start();

      const rule = await api('POST', '/api/db/incident_rules', {
        name: 'bus',
        spec: { filter: { kind: 'check', names: ['bus-*'] }, template: { title: '{{.check.name}} is failing' } },
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      ruleId = rule.body[0].id;
      const canary = await api('POST', '/api/db/canaries', {
        name: 'bus',
        schedule: '@every 1h',
        spec: { http: [{ name: 'bus-orders', url: `${targetUrl}/orders`, responseCodes: [200] }] },
      });
      expect(canary.status, JSON.stringify(canary.body)).toBe(201);
      checkId = (await db.query<{ id: string }>(`SELECT id FROM checks WHERE canary_id = $1`, [canary.body[0].id]))
        .rows[0].id;
    });
    afterAll(async () => {
      await app?.close();
      await new Promise<void>((r) => (target ? target.close(() => r()) : r()));
      await db?.dispose();
    });

    it('delivers it to incidents once and to a consumer failing three times four times, with backoff', async () => {
      const r = await api('POST', `/api/canary/run/check/${checkId}`);
      expect(r.body?.status, JSON.stringify(r.body)).toBe('unhealthy');

      const deliveries = () =>
        db
          .query<any>(
            `SELECT d.consumer, d.status, d.attempts, d.error, d.done_at, d.id FROM event_deliveries d
             JOIN event_queue e ON e.id = d.event_id
             WHERE e.name = 'check.failed' AND e.properties ->> 'check_id' = $1
               AND d.consumer IN ('incidents', 'test.flaky') -- notifications consumes it too (no rule here)
             ORDER BY d.consumer`,
            [checkId],
          )
          .then((x) => x.rows);
      const all = await waitFor(
        deliveries,
        (rows) => rows.length === 2 && rows.every((d: any) => d.status === 'done'),
        'both consumers to finish',
      );
      expect(all.map((d: any) => [d.consumer, d.status, d.attempts])).toEqual([
        ['incidents', 'done', 1],
        ['test.flaky', 'done', 4],
      ]);
      expect(all[1].error).toBe('flaky 3'); // the last failure stays on the delivery

      // incidents: one incident with the check as evidence, and nothing repeated
      const incidents = (
        await api('GET', `/api/db/incidents?incident_rule_id=eq.${ruleId}&select=title,hypotheses(evidences(check_id))`)
      ).body;
      expect(incidents).toEqual([
        { title: 'bus-orders is failing', hypotheses: [{ evidences: [{ check_id: checkId }] }] },
      ]);
      // incidents had finished before the flaky consumer's first retry
      expect(new Date(all[0].done_at).getTime()).toBeLessThanOrEqual(attempts[1].at);

      // the flaky consumer: four attempts of one delivery, waiting 200, 400, 800 ms in between
      expect(attempts.map((a) => a.event.attempt)).toEqual([1, 2, 3, 4]);
      expect(new Set(attempts.map((a) => a.event.key))).toEqual(new Set([all[1].id]));
      expect(attempts[0].event).toMatchObject({
        name: 'check.failed',
        properties: { check_id: checkId, status: 'unhealthy' },
      });
      const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i].at);
      gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(BACKOFF_MS * 2 ** i - 20));
    });

    it('stores no event that nobody consumes: the Event Queue page shows real backlog only', async () => {
      // incident.dod.* and component events have no consumer here but incidents' own
      await db.query(`INSERT INTO components (name, type, status) VALUES ('bus-db', 'database', 'unhealthy')`);
      // once incidents have handled it, nothing is left: no pile of events nobody will take
      await waitFor(
        async () => (await api('GET', '/api/db/event_queue_summary')).body,
        (rows) => Array.isArray(rows) && rows.length === 0,
        'an empty backlog',
        5000,
      );
      const names = await db.query<{ name: string }>(`SELECT DISTINCT name FROM event_queue ORDER BY name`);
      // the component's event went to incidents, its consumer
      expect(names.rows.map((x) => x.name)).toEqual(['check.failed', 'component.status.unhealthy']);
      expect(
        await db.query(`SELECT publish_event('incident.dod.passed', 'x', '{}') AS id`).then((x) => x.rows),
      ).toEqual([{ id: null }]);
    });
  });
}
