/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AGENT_MESSAGES, LOCAL_AGENT_ID } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';

/**
 * The agents area through the real app: generate (token once, hashed at rest), the list view,
 * PATCH and the two kinds of delete through /api/db, and the upstream API an agent's token
 * reaches (ping, push, pull), with the refusals each owes.
 */
const ROLES = ['admin', 'editor', 'viewer'] as const;
type Role = (typeof ROLES)[number];

for (const driver of testDrivers()) {
  describe(`agents API (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    const cookies = {} as Record<Role, string>;

    const call = async (who: Role | { token: string } | null, method: string, path: string, body?: unknown) => {
      const auth: Record<string, string> =
        who === null
          ? {}
          : typeof who === 'string'
            ? { cookie: cookies[who] }
            : { authorization: `Bearer ${who.token}` };
      const res = await fetch(url + path, {
        method,
        headers: {
          accept: 'application/json',
          origin: new URL(url).origin,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...auth,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
    };
    const count = async (table: string, where = 'true', params: unknown[] = []) =>
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, params)).rows[0].n);

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db));
      for (const role of ROLES) {
        const identity = await createIdentity(db, {
          traits: { email: `${role}@agents.test`, name: { first: role, last: 'Tester' } },
          roles: [role],
        });
        const { token } = await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 });
        cookies[role] = `${SESSION_COOKIE}=${token}`;
      }
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    let agent: { id: string; person_id: string; access_token: string };
    let other: { id: string; access_token: string };

    it('generates an agent, its identity and a token shown once and stored hashed', async () => {
      const r = await call('editor', 'POST', '/api/agent/generate', {
        name: 'eu-prod',
        description: 'the production cluster',
        properties: { region: 'eu' },
        kubernetes: { enabled: true },
        pushTelemetry: { enabled: true, topologyName: 'eu' },
      });
      expect(r.status, r.text).toBe(201);
      agent = r.body;
      expect(agent.access_token).toMatch(/^wdpat_/);
      const row = (await db.query<any>(`SELECT * FROM agents WHERE id = $1`, [agent.id])).rows[0];
      expect(row).toMatchObject({ name: 'eu-prod', properties: { region: 'eu' }, person_id: agent.person_id });
      // the form's defaults: interval 30m (seed 000 section 9)
      expect(row.spec).toEqual({
        kubernetes: { enabled: true, interval: '30m' },
        pushTelemetry: { enabled: true, topologyName: 'eu' },
      });
      expect((await db.query<any>(`SELECT type FROM people WHERE id = $1`, [agent.person_id])).rows[0].type).toBe(
        'agent',
      );
      const tokens = (await db.query<any>(`SELECT value FROM access_tokens WHERE person_id = $1`, [agent.person_id]))
        .rows;
      expect(tokens).toHaveLength(1);
      expect(tokens[0].value).not.toContain(agent.access_token);
      expect(tokens[0].value).toMatch(/^[0-9a-f]{64}$/);
      // the token is nowhere to be read again
      const list = await call('admin', 'GET', `/api/db/agents_summary?id=eq.${agent.id}`);
      expect(list.text).not.toContain(agent.access_token);
      const o = await call('admin', 'POST', '/api/agent/generate', { name: 'us-staging' });
      expect(o.status).toBe(201);
      other = o.body;
    });

    it('refuses a nameless or malformed agent, a taken name, and a viewer', async () => {
      const nameless = await call('editor', 'POST', '/api/agent/generate', { name: '  ' });
      expect(nameless.status).toBe(400);
      expect(nameless.body.errors).toEqual({ name: AGENT_MESSAGES.nameRequired });
      const badInterval = await call('editor', 'POST', '/api/agent/generate', {
        name: 'x',
        kubernetes: { enabled: true, interval: '3m' },
      });
      expect(badInterval.status).toBe(400);
      expect(badInterval.body.message).toBe(AGENT_MESSAGES.interval);
      const unknownField = await call('editor', 'POST', '/api/agent/generate', { name: 'x', person_id: randomUUID() });
      expect(unknownField.status).toBe(400);
      const taken = await call('editor', 'POST', '/api/agent/generate', { name: 'eu-prod' });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe(AGENT_MESSAGES.nameTaken);
      const viewer = await call('viewer', 'POST', '/api/agent/generate', { name: 'mine' });
      expect(viewer.status).toBe(403);
      const anonymous = await call(null, 'POST', '/api/agent/generate', { name: 'mine' });
      expect(anonymous.status).toBe(401);
      expect(await count('agents', `name = 'mine'`)).toBe(0);
    });

    it('lists agents with their counts, creator and online status', async () => {
      const r = await call(
        'viewer',
        'GET',
        '/api/db/agents_summary?select=id,name,online,last_seen,checks_count,config_count,config_scrapper_count,playbook_runs_count,created_by(id,name)&order=name.asc',
      );
      expect(r.status, r.text).toBe(200);
      const eu = r.body.find((a: any) => a.id === agent.id);
      expect(eu).toMatchObject({
        name: 'eu-prod',
        online: false,
        last_seen: null,
        checks_count: 0,
        config_count: 0,
        created_by: { name: 'editor Tester' },
      });
    });

    it('marks the agent seen on ping, and refuses a person calling the agent API', async () => {
      const r = await call({ token: agent.access_token }, 'POST', '/api/agent/ping', {
        hostname: 'node-1',
        version: '1.2.3',
      });
      expect(r.status, r.text).toBe(200);
      const row = (
        await call('viewer', 'GET', `/api/db/agents_summary?id=eq.${agent.id}&select=online,hostname,version`)
      ).body[0];
      expect(row).toEqual({ online: true, hostname: 'node-1', version: '1.2.3' });
      const person = await call('admin', 'POST', '/api/agent/ping', {});
      expect(person.status).toBe(404);
      expect(person.body.message).toBe(AGENT_MESSAGES.notAgent);
      const badBody = await call({ token: agent.access_token }, 'POST', '/api/agent/ping', { hostname: 7 });
      expect(badBody.status).toBe(400);
      const noToken = await call({ token: 'wdpat_nothing' }, 'POST', '/api/agent/ping', {});
      expect(noToken.status).toBe(404);
      // the agent's token opens the agent API only
      expect((await call({ token: agent.access_token }, 'GET', '/api/db/incidents?limit=1')).status).toBe(401);
      expect((await call({ token: agent.access_token }, 'GET', '/api/auth/whoami')).status).toBe(401);
    });

    const canaryId = randomUUID();
    const checkId = randomUUID();
    const itemId = randomUUID();
    const childId = randomUUID();
    const pushBody = () => {
      const t0 = Date.parse('2026-01-01T00:00:00Z');
      return {
        canaries: [{ id: canaryId, name: 'remote-http', namespace: 'edge', spec: { http: [{ name: 'site' }] } }],
        checks: [
          {
            id: checkId,
            canary_id: canaryId,
            name: 'site',
            type: 'http',
            namespace: 'edge',
            status: 'healthy',
            last_runtime: new Date(t0 + 9 * 60_000).toISOString(),
          },
        ],
        check_statuses: Array.from({ length: 10 }, (_, i) => ({
          check_id: checkId,
          time: new Date(t0 + i * 60_000).toISOString(),
          duration: 10 + i,
          status: i % 3 !== 0,
          message: `run ${i}`,
        })),
        config_items: [
          { id: itemId, type: 'Kubernetes::Namespace', config_class: 'Namespace', name: 'edge', config: { a: 1 } },
          { id: childId, parent_id: itemId, type: 'Kubernetes::Pod', config_class: 'Pod', name: 'web-0' },
        ],
        config_changes: [{ id: randomUUIDFor('change'), config_id: childId, change_type: 'diff', summary: 'scaled' }],
        config_relationships: [{ config_id: itemId, related_id: childId, relation: 'NamespacePod' }],
        job_history: [{ id: randomUUIDFor('job'), name: 'CanaryRun', status: 'SUCCESS', success_count: 1 }],
      };
    };
    // fixed per test run so a second push carries the same rows
    const fixed = new Map<string, string>();
    function randomUUIDFor(key: string) {
      if (!fixed.has(key)) fixed.set(key, randomUUID());
      return fixed.get(key)!;
    }

    it('stores a push stamped with the agent, and a retried push duplicates nothing', async () => {
      // a consumer of check transitions, so publish_event() stores them (no engine consumes here)
      await db.query(
        `INSERT INTO event_consumers (name, events) VALUES ('agents-test', ARRAY['check.passed', 'check.failed'])`,
      );
      const first = await call({ token: agent.access_token }, 'POST', '/api/agent/push', pushBody());
      expect(first.status, first.text).toBe(200);
      expect(first.body.counts).toMatchObject({ canaries: 1, checks: 1, check_statuses: 10, config_items: 2 });
      const snapshot = async () => ({
        canaries: await count('canaries', 'agent_id = $1', [agent.id]),
        checks: await count('checks', 'agent_id = $1', [agent.id]),
        statuses: await count('check_statuses', 'check_id = $1', [checkId]),
        items: await count('config_items', 'agent_id = $1', [agent.id]),
        changes: await count('config_changes', 'config_id = $1', [childId]),
        relationships: await count('config_relationships', 'config_id = $1', [itemId]),
        jobs: await count('job_history', 'agent_id = $1', [agent.id]),
      });
      const once = await snapshot();
      expect(once).toEqual({ canaries: 1, checks: 1, statuses: 10, items: 2, changes: 1, relationships: 1, jobs: 1 });
      const again = await call({ token: agent.access_token }, 'POST', '/api/agent/push', pushBody());
      expect(again.status, again.text).toBe(200);
      expect(await snapshot()).toEqual(once);
      const summary = (await call('admin', 'GET', `/api/db/agents_summary?id=eq.${agent.id}`)).body[0];
      expect(summary).toMatchObject({ checks_count: 1, config_count: 2 });
      expect(summary.last_received).not.toBeNull();
    });

    it('publishes check.passed/failed for the runs a push adds that flip the check, once', async () => {
      const events = async () =>
        (
          await db.query<any>(
            `SELECT name, event_id, properties FROM event_queue WHERE properties->>'check_id' = $1 ORDER BY event_id`,
            [checkId],
          )
        ).rows;
      // the statuses of the first push: F P P F P P F P P F, a first run counting only when it fails
      const first = await events();
      expect(first.map((e) => e.name)).toEqual([
        'check.failed',
        'check.passed',
        'check.failed',
        'check.passed',
        'check.failed',
        'check.passed',
        'check.failed',
      ]);
      expect(first[0].event_id).toBe(`${checkId}/2026-01-01T00:00:00.000Z`);
      expect(first[1].properties).toMatchObject({
        canary_id: canaryId,
        name: 'site',
        status: 'healthy',
        previous: 'unhealthy',
        message: 'run 1',
        agent_id: agent.id,
      });
      // a later push: one run passing again (a flip), one still passing (none), retried twice
      const later = {
        check_statuses: [10, 11].map((i) => ({
          check_id: checkId,
          time: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString(),
          status: true,
          message: `run ${i}`,
        })),
      };
      for (let i = 0; i < 3; i++) {
        const r = await call({ token: agent.access_token }, 'POST', '/api/agent/push', later);
        expect(r.status, r.text).toBe(200);
      }
      const after = await events();
      expect(after).toHaveLength(first.length + 1);
      expect(after.at(-1)).toMatchObject({ name: 'check.passed', event_id: `${checkId}/2026-01-01T00:10:00.000Z` });
      // the events reach consumers: one delivery each for the test's consumer
      expect(await count('event_deliveries', `consumer = 'agents-test'`)).toBe(after.length);
    });

    it('publishes the catalog events of pushed config items upstream, once', async () => {
      await db.query(
        `INSERT INTO event_consumers (name, events)
         VALUES ('agents-config-test', ARRAY['config.created', 'config.updated', 'config.deleted', 'config.healthy', 'config.unhealthy'])`,
      );
      const id = randomUUID();
      const events = async () =>
        (
          await db.query<any>(
            `SELECT name, event_id, properties FROM event_queue WHERE properties->>'id' = $1 ORDER BY created_at, name`,
            [id],
          )
        ).rows;
      const item = (over: Record<string, unknown>) => ({
        id,
        type: 'Kubernetes::Deployment',
        config_class: 'Deployment',
        name: 'api',
        config: { replicas: 1 },
        health: 'healthy',
        updated_at: '2026-02-01T00:00:00.000Z',
        ...over,
      });
      const push = async (body: unknown, times = 1) => {
        for (let i = 0; i < times; i++) {
          const r = await call({ token: agent.access_token }, 'POST', '/api/agent/push', body);
          expect(r.status, r.text).toBe(200);
        }
      };
      // new upstream: created and its health; retried: nothing more
      await push({ config_items: [item({})] }, 2);
      expect((await events()).map((e) => [e.name, e.event_id])).toEqual([
        ['config.created', `${id}/created`],
        ['config.healthy', `${id}/healthy/${Date.parse('2026-02-01T00:00:00Z')}`],
      ]);
      expect((await events())[0].properties).toEqual({
        id,
        type: 'Kubernetes::Deployment',
        name: 'api',
        agent_id: agent.id,
      });
      // a changed body and health, with the change that describes it; sent twice at once, then again
      const changed = {
        config_items: [item({ config: { replicas: 3 }, health: 'unhealthy', updated_at: '2026-02-01T00:05:00.000Z' })],
        config_changes: [{ id: randomUUID(), config_id: id, change_type: 'diff', summary: 'replicas: 1 -> 3' }],
      };
      await Promise.all([push(changed), push(changed)]);
      await push(changed);
      const stamp = Date.parse('2026-02-01T00:05:00Z');
      const after = await events();
      expect(after.slice(2).map((e) => [e.name, e.event_id])).toEqual([
        ['config.unhealthy', `${id}/unhealthy/${stamp}`],
        ['config.updated', `${id}/${stamp}`],
      ]);
      expect(after.find((e) => e.name === 'config.updated').properties).toMatchObject({
        summary: 'replicas: 1 -> 3',
        agent_id: agent.id,
      });
      expect(after.find((e) => e.name === 'config.unhealthy').properties).toMatchObject({
        health: 'unhealthy',
        previous: 'healthy',
      });
      // deleted on the agent: one config.deleted
      const deleted = item({
        config: { replicas: 3 },
        health: 'unhealthy',
        deleted_at: '2026-02-01T00:09:00.000Z',
        updated_at: '2026-02-01T00:09:00.000Z',
      });
      await push({ config_items: [deleted] }, 2);
      const last = await events();
      expect(last.slice(4).map((e) => e.name)).toEqual(['config.deleted']);
      // each reaches the consumers once
      expect(await count('event_deliveries', `consumer = 'agents-config-test'`)).toBe(5);
    });

    it('refuses rows of another agent, whether named or owned by it', async () => {
      const named = await call({ token: agent.access_token }, 'POST', '/api/agent/push', {
        canaries: [{ id: randomUUID(), name: 'sneaky', agent_id: other.id }],
      });
      expect(named.status).toBe(403);
      // the other agent may not overwrite the first one's check, nor add statuses to it
      const owned = await call({ token: other.access_token }, 'POST', '/api/agent/push', {
        checks: [{ id: checkId, canary_id: canaryId, name: 'site', type: 'http' }],
      });
      expect(owned.status).toBe(403);
      const statuses = await call({ token: other.access_token }, 'POST', '/api/agent/push', {
        check_statuses: [{ check_id: checkId, time: new Date().toISOString(), status: false }],
      });
      expect(statuses.status).toBe(403);
      const local = await call({ token: agent.access_token }, 'POST', '/api/agent/push', {
        canaries: [{ id: randomUUID(), name: 'as-local', agent_id: LOCAL_AGENT_ID }],
      });
      expect(local.status).toBe(403);
      expect(await count('canaries', `name IN ('sneaky', 'as-local')`)).toBe(0);
      expect(await count('check_statuses', 'check_id = $1', [checkId])).toBe(12);
    });

    it('refuses malformed pushes with a 400 and writes nothing of them', async () => {
      const cases: unknown[] = [
        { checks: [{ id: 'nope', canary_id: canaryId, name: 'x', type: 'http' }] },
        { nonsense: [] },
        { check_statuses: [{ check_id: randomUUID(), time: new Date().toISOString(), status: true }] }, // unknown check
        { checks: [{ id: randomUUID(), canary_id: canaryId, name: 'x', type: 'http', status: 'great' }] }, // check constraint
        { canaries: [{ id: randomUUID(), name: 'x', owner: 'me' }] },
        '[1,2,3]',
      ];
      for (const body of cases) {
        const r = await call({ token: agent.access_token }, 'POST', '/api/agent/push', body);
        expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
        expect(r.text).not.toMatch(/violates|SQLSTATE|relation "/);
      }
      const tooMany = await call({ token: agent.access_token }, 'POST', '/api/agent/push', {
        job_history: Array.from({ length: 20_001 }, () => ({ id: randomUUID(), name: 'x' })),
      });
      expect(tooMany.status).toBe(400);
      expect(await count('checks', 'agent_id = $1', [agent.id])).toBe(1);
    });

    it('pulls the canaries, scrapers and topologies assigned to the agent only', async () => {
      await db.query(
        `INSERT INTO canaries (name, agent_id, spec) VALUES ('assigned', $1, '{}'), ('theirs', $2, '{}')`,
        [agent.id, other.id],
      );
      await db.query(`INSERT INTO topologies (name, agent_id) VALUES ('topo', $1)`, [agent.id]);
      const r = await call({ token: agent.access_token }, 'GET', '/api/agent/pull');
      expect(r.status, r.text).toBe(200);
      expect(r.body.canaries.map((c: any) => c.name).sort()).toEqual(['assigned', 'remote-http']);
      expect(r.body.topologies.map((c: any) => c.name)).toEqual(['topo']);
      expect(r.body.scrapers).toEqual([]);
    });

    it('patches properties through /api/db, and nothing an agent must keep', async () => {
      const ok = await call('editor', 'PATCH', `/api/db/agents?id=eq.${agent.id}`, { properties: { region: 'eu-2' } });
      expect(ok.status, ok.text).toBeLessThan(300);
      expect(
        (await db.query<any>(`SELECT properties FROM agents WHERE id = $1`, [agent.id])).rows[0].properties,
      ).toEqual({
        region: 'eu-2',
      });
      const rename = await call('editor', 'PATCH', `/api/db/agents?id=eq.${agent.id}`, { name: 'renamed' });
      expect(rename.status).toBe(400);
      const seen = await call('editor', 'PATCH', `/api/db/agents?id=eq.${agent.id}`, { last_seen: null });
      expect(seen.status).toBe(400);
      const viewer = await call('viewer', 'PATCH', `/api/db/agents?id=eq.${agent.id}`, { properties: {} });
      expect(viewer.status).toBe(403);
      const forged = await call('admin', 'POST', `/api/db/agents`, { name: 'backdoor', person_id: agent.person_id });
      expect(forged.status).toBe(400);
      const hard = await call('admin', 'DELETE', `/api/db/agents?id=eq.${LOCAL_AGENT_ID}`);
      expect(hard.status).toBe(400);
      const local = await call('admin', 'PATCH', `/api/db/agents?id=eq.${LOCAL_AGENT_ID}`, {
        deleted_at: new Date().toISOString(),
      });
      expect(local.status).toBe(400);
    });

    it('deletes without cleanup: the token is refused, the pushed resources stay', async () => {
      const r = await call('editor', 'PATCH', `/api/db/agents?id=eq.${other.id}`, {
        deleted_at: new Date().toISOString(),
      });
      expect(r.status, r.text).toBeLessThan(300);
      expect((await call({ token: other.access_token }, 'POST', '/api/agent/ping', {})).status).toBe(404);
      expect(await count('canaries', `agent_id = $1 AND deleted_at IS NULL`, [other.id])).toBe(1);
      const list = (await call('admin', 'GET', `/api/db/agents_summary?select=id`)).body.map((a: any) => a.id);
      expect(list).not.toContain(other.id);
      expect(list).toContain(agent.id);
    });

    it('deletes with cleanup: the resources the agent pushed are soft-deleted too', async () => {
      const r = await call('editor', 'PATCH', `/api/db/agents?id=eq.${agent.id}`, {
        deleted_at: new Date().toISOString(),
        cleanup: true,
      });
      expect(r.status, r.text).toBeLessThan(300);
      for (const table of ['canaries', 'checks', 'config_items', 'topologies'])
        expect(await count(table, `agent_id = $1 AND deleted_at IS NULL`, [agent.id]), table).toBe(0);
      expect(await count('checks', `agent_id = $1`, [agent.id])).toBe(1); // soft: history stays
      const push = await call({ token: agent.access_token }, 'POST', '/api/agent/push', pushBody());
      expect(push.status).toBe(404);
      const revive = await call('admin', 'PATCH', `/api/db/agents?id=eq.${agent.id}`, { deleted_at: null });
      expect(revive.status).toBe(400);
    });
  });
}

for (const driver of testDrivers()) {
  describe(`agents API with AUTH=none (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'none' }));
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });
    const post = (path: string, body: unknown, token?: string) =>
      fetch(url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: new URL(url).origin,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });

    it('still asks agents for their token: sign-in being off makes no caller an agent', async () => {
      const created = (await (await post('/api/agent/generate', { name: 'open' })).json()) as { access_token: string };
      expect((await post('/api/agent/ping', {}, created.access_token)).status).toBe(200);
      expect((await post('/api/agent/ping', {})).status).toBe(404);
      expect((await post('/api/agent/ping', {}, 'wdpat_guess')).status).toBe(404);
      // the agents feature switched off switches the agent API off
      // (the flags are cached for 5 s: poll past that)
      await db.query(`INSERT INTO properties (name, value) VALUES ('agents.disable', 'true')`);
      await expect
        .poll(async () => (await post('/api/agent/ping', {}, created.access_token)).status, { timeout: 15_000 })
        .toBe(404);
    });
  });
}
