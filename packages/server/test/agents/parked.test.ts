/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AGENT_MESSAGES, AGENT_PARKED_REPORT_MAX } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { callers } from '../playbooks/support.ts';

/**
 * Parked pushes on the upstream (agents/parked.ts): an agent reports the rows it parked, the
 * agent's page lists them (agents read), an editor asks for a retry or a discard (agents write),
 * the agent receives the request in the answer to its next report and reports it carried out.
 * Each agent sees and clears only its own rows.
 */
for (const driver of testDrivers()) {
  describe(`parked pushes API (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url = '';
    let call: Awaited<ReturnType<typeof callers>>['call'];
    let agent: { id: string; access_token: string };
    let other: { id: string; access_token: string };
    const rowA = randomUUID();
    const rowB = randomUUID();
    const rowOther = randomUUID();
    const itemA = randomUUID();

    const asAgent = async (token: string | null, path: string, body?: unknown) => {
      const res = await fetch(url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body ?? {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const parkedRow = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      table: 'config_items',
      key: itemA,
      row: { id: itemA, name: 'x'.repeat(600), type: 'Service' },
      error: '400 {"message":"config_items: name is too long"}',
      parked_at: '2026-11-26T10:00:00.000Z',
      attempts: 1,
      last_attempt_at: '2026-11-26T10:00:00.000Z',
      ...extra,
    });

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db));
      ({ call } = await callers(db, url, { ed: 'editor', viewer: 'viewer', admin: 'admin' }));
      agent = (await call('ed', 'POST', '/api/agent/generate', { name: 'parked-a' })).body;
      other = (await call('ed', 'POST', '/api/agent/generate', { name: 'parked-b' })).body;
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    it("takes an agent's report only with the agent's token", async () => {
      expect((await asAgent(null, '/api/agent/parked', { parked: [] })).status).toBe(404);
      const asPerson = await call('admin', 'POST', '/api/agent/parked', { parked: [] });
      expect(asPerson.status).toBe(404);
      expect(asPerson.body.message).toBe(AGENT_MESSAGES.notAgent);

      const r = await asAgent(agent.access_token, '/api/agent/parked', {
        parked: [parkedRow(rowA), parkedRow(rowB, { table: 'check_statuses', key: 'c/t', row: { check_id: 'c' } })],
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ agent_id: agent.id, requests: [] });
      const o = await asAgent(other.access_token, '/api/agent/parked', { parked: [parkedRow(rowOther)] });
      expect(o.status).toBe(200);
    });

    it('refuses reports beyond its limits with the reason', async () => {
      const many = Array.from({ length: AGENT_PARKED_REPORT_MAX + 1 }, () => parkedRow(randomUUID()));
      const tooMany = await asAgent(agent.access_token, '/api/agent/parked', { parked: many });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toContain(`at most ${AGENT_PARKED_REPORT_MAX} parked rows`);
      const big = await asAgent(agent.access_token, '/api/agent/parked', {
        parked: [parkedRow(randomUUID(), { row: { name: 'x'.repeat(20_000) } })],
      });
      expect(big.status).toBe(400);
      expect(big.body.message).toContain('row must be at most 16384 bytes');
      const bad = await asAgent(agent.access_token, '/api/agent/parked', {
        parked: [parkedRow('nope')],
        extra: 1,
      });
      expect(bad.status).toBe(400);
      const nul = await asAgent(agent.access_token, '/api/agent/parked', {
        parked: [parkedRow(randomUUID(), { error: 'bad \u0000 byte' })],
      });
      expect(nul.status).toBe(400);
      expect(nul.body.message).toBe('a parked row has a value this console cannot store');
      // the same id twice in one report: the last copy counts, no error
      const twice = await asAgent(agent.access_token, '/api/agent/parked', {
        parked: [parkedRow(rowA), parkedRow(rowA)],
      });
      expect(twice.status).toBe(200);
      expect((await call('viewer', 'GET', `/api/agent/${agent.id}/parked`)).body.total).toBe(2);
    });

    it("lists an agent's parked rows to anyone who reads agents, newest first, paged", async () => {
      for (const who of ['viewer', 'ed', 'admin']) {
        const r = await call(who, 'GET', `/api/agent/${agent.id}/parked`);
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(2);
        expect(r.body.rows.map((x: any) => x.id).sort()).toEqual([rowA, rowB].sort());
      }
      const one = (await call('viewer', 'GET', `/api/agent/${agent.id}/parked`)).body.rows.find(
        (x: any) => x.id === rowA,
      );
      expect(one).toMatchObject({
        table: 'config_items',
        key: itemA,
        error: '400 {"message":"config_items: name is too long"}',
        attempts: 1,
        request: null,
        requested_by: null,
      });
      expect(new Date(one.parked_at).toISOString()).toBe('2026-11-26T10:00:00.000Z');
      const page = await call('viewer', 'GET', `/api/agent/${agent.id}/parked?limit=1&offset=1`);
      expect(page.body.total).toBe(2);
      expect(page.body.rows).toHaveLength(1);
      // the other agent's rows are its own
      expect((await call('viewer', 'GET', `/api/agent/${other.id}/parked`)).body.rows.map((x: any) => x.id)).toEqual([
        rowOther,
      ]);
      // the list's count
      const summary = await call('viewer', 'GET', `/api/db/agents_summary?id=eq.${agent.id}&select=parked_count`);
      expect(Number(summary.body[0].parked_count)).toBe(2);
    });

    it('refuses bad input with the reason, and unknown agents with 404', async () => {
      const bad = await call('viewer', 'GET', `/api/agent/not-a-uuid/parked`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('id must be a UUID');
      const limit = await call('viewer', 'GET', `/api/agent/${agent.id}/parked?limit=0`);
      expect(limit.status).toBe(400);
      expect(limit.body.message).toContain('limit must be a number from 1 to 100');
      expect((await call('viewer', 'GET', `/api/agent/${randomUUID()}/parked`)).status).toBe(404);
      const action = await call('ed', 'POST', `/api/agent/${agent.id}/parked/requests`, {
        action: 'drop',
        ids: [rowA],
      });
      expect(action.status).toBe(400);
      expect(action.body.message).toContain('action must be retry or discard');
      const none = await call('ed', 'POST', `/api/agent/${agent.id}/parked/requests`, { action: 'retry', ids: [] });
      expect(none.status).toBe(400);
      expect(none.body.message).toContain('ids must name at least one parked row');
      const unknown = await call('ed', 'POST', `/api/agent/${agent.id}/parked/requests`, {
        action: 'retry',
        ids: [rowA, randomUUID()],
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(AGENT_MESSAGES.parkedUnknown);
      // all or nothing: rowA got no request from that call
      const listed = (await call('viewer', 'GET', `/api/agent/${agent.id}/parked`)).body.rows;
      expect(listed.every((x: any) => x.request === null)).toBe(true);
      // another agent's row through this agent's path
      const foreign = await call('ed', 'POST', `/api/agent/${agent.id}/parked/requests`, {
        action: 'discard',
        ids: [rowOther],
      });
      expect(foreign.status).toBe(404);
    });

    it('lets editors and admins ask for a retry or a discard; viewers may not', async () => {
      const viewer = await call('viewer', 'POST', `/api/agent/${agent.id}/parked/requests`, {
        action: 'retry',
        ids: [rowA],
      });
      expect(viewer.status).toBe(403);
      const r = await call('ed', 'POST', `/api/agent/${agent.id}/parked/requests`, { action: 'retry', ids: [rowA] });
      expect(r.status).toBe(202);
      expect(r.body).toEqual({ action: 'retry', requested: 1, message: AGENT_MESSAGES.parkedRetryRequested });
      const d = await call('admin', 'POST', `/api/agent/${agent.id}/parked/requests`, {
        action: 'discard',
        ids: [rowB],
      });
      expect(d.status).toBe(202);
      const listed = (await call('viewer', 'GET', `/api/agent/${agent.id}/parked`)).body.rows;
      const a = listed.find((x: any) => x.id === rowA);
      expect(a.request).toBe('retry');
      expect(a.requested_by.name).toContain('ed');
    });

    it('hands the requests to their agent only, and clears each once carried out', async () => {
      // the other agent is asked nothing
      expect((await asAgent(other.access_token, '/api/agent/parked', {})).body.requests).toEqual([]);
      const first = await asAgent(agent.access_token, '/api/agent/parked', {});
      expect(first.status).toBe(200);
      const requests = first.body.requests as { id: string; action: string; requested_at: string }[];
      expect(requests.map((q) => [q.id, q.action]).sort()).toEqual(
        [
          [rowA, 'retry'],
          [rowB, 'discard'],
        ].sort(),
      );
      const retry = requests.find((q) => q.id === rowA)!;
      const discard = requests.find((q) => q.id === rowB)!;

      // a newer request arrives while the agent carries out the older one: it stays
      await new Promise((r) => setTimeout(r, 5));
      expect(
        (await call('ed', 'POST', `/api/agent/${agent.id}/parked/requests`, { action: 'discard', ids: [rowA] })).status,
      ).toBe(202);
      const after = await asAgent(agent.access_token, '/api/agent/parked', {
        parked: [
          parkedRow(rowA, {
            attempts: 2,
            error: '400 refused again',
            last_attempt_at: '2026-11-26T11:00:00.000Z',
            handled_request_at: retry.requested_at,
          }),
        ],
        resolved: [{ id: rowB, resolution: 'discarded' }],
      });
      expect(after.status).toBe(200);
      expect(after.body.requests.map((q: any) => [q.id, q.action])).toEqual([[rowA, 'discard']]);
      const listed = (await call('viewer', 'GET', `/api/agent/${agent.id}/parked`)).body;
      expect(listed.total).toBe(1);
      expect(listed.rows[0]).toMatchObject({ id: rowA, attempts: 2, error: '400 refused again', request: 'discard' });
      void discard;

      // carried out: the row is gone here, and no request is left
      const done = await asAgent(agent.access_token, '/api/agent/parked', {
        resolved: [{ id: rowA, resolution: 'discarded' }],
      });
      expect(done.body.requests).toEqual([]);
      expect((await call('viewer', 'GET', `/api/agent/${agent.id}/parked`)).body.total).toBe(0);
      // and the other agent's row is untouched
      expect((await call('viewer', 'GET', `/api/agent/${other.id}/parked`)).body.total).toBe(1);
    });

    it('forgets a deleted agent: its page answers 404 and its token reports nothing', async () => {
      expect(
        (
          await call('ed', 'PATCH', `/api/db/agents?id=eq.${other.id}`, {
            deleted_at: new Date().toISOString(),
          })
        ).status,
      ).toBeLessThan(300);
      expect((await call('viewer', 'GET', `/api/agent/${other.id}/parked`)).status).toBe(404);
      expect(
        (await call('ed', 'POST', `/api/agent/${other.id}/parked/requests`, { action: 'retry', ids: [rowOther] }))
          .status,
      ).toBe(404);
      expect((await asAgent(other.access_token, '/api/agent/parked', {})).status).toBe(404);
    });
  });
}
