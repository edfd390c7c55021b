/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers and recorded payloads are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { apiAt, createConnection, waitFor, type Api } from '../incidents/support.ts';
import { startListener, type Listener } from './support.ts';
import type { Db } from '#server/db/index.ts';
import { publish } from '#server/jobs/index.ts';
import { EVENTS_REQUIRED, RESOURCE_REQUIRED } from '#server/notifications/validate.ts';

/**
 * What a rule decides before and after a send, on real events through the bus to a local
 * webhook listener: the filter, silences (a check's, a component's recursive), the repeat
 * interval, waitFor cancelled by a recovery and sent when none comes, retries after the
 * listener's errors, a provider's refusal, the rate limit, and two rules with the incident rules
 * on one event; and the write checks of rules and silences.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const driver of testDrivers()) {
  describe(`notification rules (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let api: Api;
    let peer: Listener;
    let canaryId: string;

    const history = async (rule: string) =>
      (
        await db.query<any>(
          `SELECT status, count, error, silenced_by, resource_id, source_event, send_at, duration_millis
           FROM notification_send_history WHERE notification_id = $1 ORDER BY created_at`,
          [rule],
        )
      ).rows;

    async function check(name: string, status: 'healthy' | 'unhealthy' = 'unhealthy'): Promise<string> {
      const r = await db.query<{ id: string }>(
        `INSERT INTO checks (canary_id, name, type, status) VALUES ($1, $2, 'http', $3) RETURNING id`,
        [canaryId, name, status],
      );
      return r.rows[0].id;
    }
    let seq = 0;
    async function fail(checkId: string, name: string, event = 'check.failed') {
      seq++;
      await publish(db, event, `${checkId}/${seq}`, {
        check_id: checkId,
        canary_id: canaryId,
        name,
        error: 'HTTP 503',
      });
    }
    /** all the bus has for the notifications consumer is done */
    const settled = () =>
      waitFor(
        async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM event_deliveries WHERE consumer = 'notifications' AND status <> 'done'`,
            )
          ).rows[0].n,
        (n) => n === 0,
        'the notifications consumer to finish',
      );

    async function rule(name: string, path: string, o: Record<string, unknown>): Promise<string> {
      await createConnection(api, 'generic_webhook', {
        name: `hook-${name}`,
        url: `${peer.url}${path}`,
        requestMethod: 'POST',
        contentType: 'application/json',
        messageKey: 'message',
        titleKey: 'title',
      });
      const r = await api('POST', '/api/db/notifications', {
        name,
        events: ['check.failed'],
        custom_services: [{ name: 'hook', connection: `connection://default/hook-${name}` }],
        ...o,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body[0].id;
    }

    beforeAll(async () => {
      db = await driver.open();
      peer = await startListener();
      let url: string;
      ({ app, url } = await startApp(db, {
        authMode: 'none',
        secretKey: 'notification-rules-key-0123456789',
        notifications: { rateLimitPerMinute: 2, apiUrls: {} },
      }));
      api = apiAt(url);
      await app.engines.start();
      canaryId = (await db.query<{ id: string }>(`INSERT INTO canaries (name) VALUES ('rules') RETURNING id`)).rows[0]
        .id;
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      await peer?.close();
      await db?.dispose();
    });

    it('sends only what the filter lets through', async () => {
      const id = await rule('filtered', '/filter', {
        filter: "check.name == 'f-included' && check.status == 'unhealthy'",
      });
      await fail(await check('f-excluded'), 'f-excluded');
      const included = await check('f-included');
      await fail(included, 'f-included');
      await settled();
      expect((await history(id)).map((h) => [h.status, h.resource_id])).toEqual([['sent', included]]);
      expect(peer.at('/filter')).toHaveLength(1);
    });

    it('records an event of a silenced check, or of a recursively silenced component’s child, as silenced', async () => {
      const silenced = await check('s-one');
      const s = await api('POST', '/api/db/notification_silences', {
        check_id: silenced,
        description: 'maintenance',
        from: new Date(Date.now() - 60_000).toISOString(),
        until: new Date(Date.now() + 3600_000).toISOString(),
      });
      expect(s.status, JSON.stringify(s.body)).toBe(201);
      const id = await rule('silenced', '/silence', { filter: "check.name.startsWith('s-')" });
      await fail(silenced, 's-one');
      await settled();
      expect((await history(id)).map((h) => [h.status, h.silenced_by])).toEqual([['silenced', s.body[0].id]]);
      expect(peer.at('/silence')).toHaveLength(0);

      // a component turning unhealthy (topology publishes component.status.unhealthy) under a
      // recursive silence of its parent
      const parent = (
        await db.query<{ id: string }>(
          `INSERT INTO components (name, type, status) VALUES ('cluster', 'cluster', 'healthy') RETURNING id`,
        )
      ).rows[0].id;
      const child = (
        await db.query<{ id: string }>(
          `INSERT INTO components (name, type, status, parent_id) VALUES ('pod', 'pod', 'healthy', $1) RETURNING id`,
          [parent],
        )
      ).rows[0].id;
      const cs = await api('POST', '/api/db/notification_silences', {
        component_id: parent,
        recursive: true,
        until: new Date(Date.now() + 3600_000).toISOString(),
      });
      expect(cs.status, JSON.stringify(cs.body)).toBe(201);
      await createConnection(api, 'generic_webhook', {
        name: 'hook-components',
        url: `${peer.url}/components`,
        requestMethod: 'POST',
        messageKey: 'message',
        titleKey: 'title',
      });
      const cr = await api('POST', '/api/db/notifications', {
        name: 'components',
        events: ['component.unhealthy'],
        custom_services: [{ connection: 'connection://default/hook-components' }],
      });
      expect(cr.status, JSON.stringify(cr.body)).toBe(201);
      await db.query(`UPDATE components SET status = 'unhealthy' WHERE id = $1`, [child]);
      await waitFor(
        () => history(cr.body[0].id),
        (h) => h.length === 1,
        'the component event',
      );
      expect((await history(cr.body[0].id)).map((h) => [h.status, h.silenced_by, h.resource_id])).toEqual([
        ['silenced', cs.body[0].id, child],
      ]);
      expect(peer.at('/components')).toHaveLength(0);
    });

    it('does not send the same rule, resource and event again within the repeat interval, and counts it', async () => {
      const id = await rule('repeat', '/repeat', { filter: "check.name == 'r-one'", repeat_interval: '1h' });
      const c = await check('r-one');
      for (let i = 0; i < 3; i++) {
        await fail(c, 'r-one');
        await settled();
      }
      expect((await history(id)).map((h) => [h.status, h.count])).toEqual([
        ['sent', 1],
        ['repeat-interval', 2],
      ]);
      expect(peer.at('/repeat')).toHaveLength(1);
    });

    it('holds a send for waitFor: a recovery within it cancels it, otherwise it is sent once due', async () => {
      const id = await rule('waiting', '/wait', {
        filter: "check.name.startsWith('w-')",
        properties: { waitFor: '2s' },
      });
      const flapping = await check('w-flap');
      await fail(flapping, 'w-flap');
      await settled();
      expect((await history(id)).map((h) => h.status)).toEqual(['pending']);
      await db.query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [flapping]);
      await fail(flapping, 'w-flap', 'check.passed');
      await settled();
      expect((await history(id)).map((h) => h.status)).toEqual(['cancelled']);

      const down = await check('w-down');
      await fail(down, 'w-down');
      await settled();
      const sent = await waitFor(
        () => history(id),
        (h) => h.some((x) => x.resource_id === down && x.status === 'sent'),
        'the due send',
        20_000,
      );
      expect(sent.map((h) => [h.resource_id, h.status])).toEqual([
        [flapping, 'cancelled'],
        [down, 'sent'],
      ]);
      await sleep(500);
      expect(peer.at('/wait')).toHaveLength(1);
      expect((peer.at('/wait')[0].body as any).title).toBe('Check w-down has failed');
    }, 40_000);

    it('retries after the listener’s errors and records the provider’s refusal as the error', async () => {
      peer.fail('/retry', 2, 503);
      const id = await rule('retry', '/retry', { filter: "check.name == 'x-retry'" });
      await fail(await check('x-retry'), 'x-retry');
      await settled();
      expect((await history(id)).map((h) => [h.status, h.error])).toEqual([['sent', null]]);
      const calls = peer.at('/retry');
      expect(calls).toHaveLength(3);
      expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(1);

      peer.fail('/refused', 5, 401, '{"message":"invalid token"}');
      const bad = await rule('refused', '/refused', { filter: "check.name == 'x-refused'" });
      await fail(await check('x-refused'), 'x-refused');
      await settled();
      expect((await history(bad)).map((h) => [h.status, h.error])).toEqual([['error', 'HTTP 401: invalid token']]);
      expect(peer.at('/refused')).toHaveLength(1); // a 4xx is not retried
      const s = await api('GET', `/api/db/notifications_summary?id=eq.${bad}&select=sent,failed,most_common_error`);
      expect(s.body).toEqual([{ sent: 0, failed: 1, most_common_error: 'HTTP 401: invalid token' }]);
    });

    it('holds sends over the rule’s rate limit until it frees up', async () => {
      const id = await rule('limited', '/limited', { filter: "check.name.startsWith('l-')" });
      for (const n of ['l-1', 'l-2', 'l-3']) await fail(await check(n), n);
      await settled();
      const h = await history(id);
      expect(h.filter((x) => x.status === 'sent')).toHaveLength(2);
      const waiting = h.filter((x) => x.status === 'pending');
      expect(waiting).toHaveLength(1);
      expect(new Date(waiting[0].send_at).getTime()).toBeGreaterThan(Date.now() + 5_000);
      expect(peer.at('/limited')).toHaveLength(2);
    });

    it('two rules and the incident rules each act once on one event', async () => {
      const incidentRule = await api('POST', '/api/db/incident_rules', {
        name: 'both',
        spec: { filter: { kind: 'check', names: ['i-*'] }, template: { title: '{{.check.name}} is failing' } },
      });
      expect(incidentRule.status, JSON.stringify(incidentRule.body)).toBe(201);
      const a = await rule('both-a', '/bothA', { filter: "check.name == 'i-db'" });
      const b = await rule('both-b', '/bothB', { filter: "check.name == 'i-db'" });
      await fail(await check('i-db'), 'i-db');
      await settled();
      await waitFor(
        async () =>
          (await db.query(`SELECT 1 FROM event_deliveries WHERE consumer = 'incidents' AND status <> 'done'`)).rows
            .length,
        (n) => n === 0,
        'incidents to finish',
      );
      expect((await history(a)).map((h) => h.status)).toEqual(['sent']);
      expect((await history(b)).map((h) => h.status)).toEqual(['sent']);
      expect(peer.at('/bothA')).toHaveLength(1);
      expect(peer.at('/bothB')).toHaveLength(1);
      const incidents = await api(
        'GET',
        `/api/db/incidents?incident_rule_id=eq.${incidentRule.body[0].id}&select=title`,
      );
      expect(incidents.body).toEqual([{ title: 'i-db is failing' }]);
    });

    it('refuses a rule without events, a silence without a resource, and edits of rules from other sources', async () => {
      const noEvents = await api('POST', '/api/db/notifications', { name: 'x', events: [] });
      expect(noEvents.status).toBe(400);
      expect(noEvents.body.message).toBe(EVENTS_REQUIRED);
      const missing = await api('POST', '/api/db/notifications', { name: 'x' });
      expect(missing.body.message).toBe(EVENTS_REQUIRED);
      const unknown = await api('POST', '/api/db/notifications', { name: 'x', events: ['check.exploded'] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/^events: unknown event 'check.exploded'/);
      const badFilter = await api('POST', '/api/db/notifications', {
        name: 'x',
        events: ['check.failed'],
        filter: 'check.name ==',
      });
      expect(badFilter.status).toBe(400);
      expect(badFilter.body.message).toMatch(/^filter: invalid CEL expression/);
      const twoRecipients = await api('POST', '/api/db/notifications', {
        events: ['check.failed'],
        person_id: '00000000-0000-0000-0000-000000000001',
        custom_services: [{ connection: 'connection://default/x' }],
      });
      expect(twoRecipients.body.message).toBe('Only one recipient applies: a person, a team or a connection');

      const noResource = await api('POST', '/api/db/notification_silences', {
        until: new Date(Date.now() + 3600_000).toISOString(),
      });
      expect(noResource.status).toBe(400);
      expect(noResource.body.message).toBe(RESOURCE_REQUIRED);
      expect((await db.query(`SELECT 1 FROM notifications WHERE name = 'x'`)).rows).toHaveLength(0);

      const crd = await api('POST', '/api/db/notifications', {
        name: 'from-git',
        events: ['check.failed'],
        source: 'KubernetesCRD',
      });
      expect(crd.status, JSON.stringify(crd.body)).toBe(201);
      const edit = await api('PATCH', `/api/db/notifications?id=eq.${crd.body[0].id}`, { title: 'mine now' });
      expect(edit.status).toBe(409);
      expect(edit.body.message).toBe('Notification "from-git" comes from KubernetesCRD and can only be changed there');
      const sil = await api('POST', '/api/db/notification_silences', {
        check_id: await check('g-one'),
        source: 'KubernetesCRD',
        description: 'from git',
        until: new Date(Date.now() + 3600_000).toISOString(),
      });
      expect(sil.status, JSON.stringify(sil.body)).toBe(201);
      const silEdit = await api('PATCH', `/api/db/notification_silences?id=eq.${sil.body[0].id}`, { description: 'x' });
      expect(silEdit.status).toBe(409);
      expect(silEdit.body.message).toBe(
        'Notification silence "from git" comes from KubernetesCRD and can only be changed there',
      );
    });
  });
}
