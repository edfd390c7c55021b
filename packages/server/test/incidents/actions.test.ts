/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { mentionMarkup } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { hashAccessToken } from '#server/auth/tokens.ts';

/**
 * The incident screens' multi-row writes (migrations/0130_incident_actions.sql) through
 * /api/db/rpc: Create New Incident makes the incident and its root hypothesis in one
 * transaction; the contributing-factors dialog marks evidence and moves the status in one
 * transaction, so a refused move marks nothing. Both need write on incidents.
 */
for (const driver of testDrivers()) {
  describe(`incident actions (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    const tokens: Record<string, string> = {};
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'kratos' }));
      for (const role of ['responder', 'viewer']) {
        const id = (
          await db.query<{ id: string }>(`INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id`, [
            `${role} person`,
            `${role}@actions.test`,
          ])
        ).rows[0].id;
        await db.query(`INSERT INTO people_roles (id, roles) VALUES ($1, $2)`, [id, [role]]);
        const token = `wdpat_${randomBytes(16).toString('hex')}`;
        await db.query(`INSERT INTO access_tokens (name, value, person_id) VALUES ('test', $1, $2)`, [
          hashAccessToken(token),
          id,
        ]);
        tokens[role] = token;
        ids[role] = id;
      }
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    const call = async (role: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}/api/db/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tokens[role]}`,
          accept: 'application/json',
          prefer: 'return=representation',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const count = async (sql: string, params: unknown[] = []) =>
      Number((await db.query<{ n: string }>(sql, params)).rows[0].n);

    it('creates the incident and its root hypothesis, titled from the hypothesis, the description or the title', async () => {
      const r = await call('responder', 'POST', 'rpc/create_incident?select=id,title,severity,status,type,created_by', {
        title: '  Checkout down ',
        description: 'Orders fail at payment',
        severity: 'high',
        type: 'performance',
        status: 'open',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual([
        {
          id: expect.any(String),
          title: 'Checkout down',
          severity: 'high',
          status: 'open',
          type: 'performance',
          created_by: ids.responder,
        },
      ]);
      const incident = r.body[0].id;
      const hyp = await call(
        'responder',
        'GET',
        `hypotheses?incident_id=eq.${incident}&select=type,status,title,parent_id,created_by`,
      );
      expect(hyp.body).toEqual([
        {
          type: 'root',
          status: 'possible',
          title: 'Orders fail at payment',
          parent_id: null,
          created_by: ids.responder,
        },
      ]);
      const history = await call(
        'responder',
        'GET',
        `incident_histories?incident_id=eq.${incident}&select=type,created_by&order=type`,
      );
      expect(history.body).toEqual([
        { type: 'hypothesis.created', created_by: ids.responder },
        { type: 'incident.created', created_by: ids.responder },
      ]);

      const named = await call('responder', 'POST', 'rpc/create_incident?select=id', {
        title: 'No description',
        hypothesis: 'DNS',
      });
      const [h] = (await call('responder', 'GET', `hypotheses?incident_id=eq.${named.body[0].id}&select=title`)).body;
      expect(h.title).toBe('DNS');
      const bare = await call('responder', 'POST', 'rpc/create_incident?select=id,type,severity,status', {
        title: 'Only a title',
      });
      expect(bare.body[0]).toMatchObject({ type: 'availability', severity: 'low', status: 'open' });
      expect(
        (await call('responder', 'GET', `hypotheses?incident_id=eq.${bare.body[0].id}&select=title`)).body,
      ).toEqual([{ title: 'Only a title' }]);
    });

    it('refuses bad input whole: nothing is half-written', async () => {
      const before = await count(`SELECT count(*) AS n FROM hypotheses`);
      const badSeverity = await call('responder', 'POST', 'rpc/create_incident', { title: 'x', severity: 'urgent' });
      expect(badSeverity.status).toBe(400);
      expect(badSeverity.body.message).toBe('Unknown incident severity "urgent"');
      const noTitle = await call('responder', 'POST', 'rpc/create_incident', { title: '   ' });
      expect(noTitle.status).toBe(400);
      expect(await count(`SELECT count(*) AS n FROM hypotheses`)).toBe(before);
      const viewer = await call('viewer', 'POST', 'rpc/create_incident', { title: 'x' });
      expect(viewer.status).toBe(403);
    });

    it('marks the chosen evidences as the definition of done and moves the status, or neither', async () => {
      const incident = (await call('responder', 'POST', 'rpc/create_incident?select=id', { title: 'Factors' })).body[0]
        .id;
      const root = (await call('responder', 'GET', `hypotheses?incident_id=eq.${incident}&select=id`)).body[0].id;
      const ev = (
        await call('responder', 'POST', 'evidences?select=id', [
          { hypothesis_id: root, type: 'comment', description: 'a', evidence: { comment: 'a' } },
          { hypothesis_id: root, type: 'comment', description: 'b', evidence: { comment: 'b' } },
        ])
      ).body.map((e: any) => e.id);
      // an evidence of another incident is not touched
      const other = (await call('responder', 'POST', 'rpc/create_incident?select=id', { title: 'Other' })).body[0].id;
      const otherRoot = (await call('responder', 'GET', `hypotheses?incident_id=eq.${other}&select=id`)).body[0].id;
      const foreign = (
        await call('responder', 'POST', 'evidences?select=id', {
          hypothesis_id: otherRoot,
          type: 'comment',
          description: 'c',
        })
      ).body[0].id;

      // a refused move (open -> new is not in the table) marks nothing
      const refused = await call('responder', 'POST', 'rpc/update_incident_status', {
        id: incident,
        status: 'new',
        definition_of_done: [ev[0]],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Incident status cannot change from "open" to "new"');
      expect(await count(`SELECT count(*) AS n FROM evidences WHERE definition_of_done`)).toBe(0);

      const ok = await call('responder', 'POST', 'rpc/update_incident_status?select=status,resolved', {
        id: incident,
        status: 'resolved',
        definition_of_done: [ev[0], foreign],
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body[0].status).toBe('resolved');
      const marked = (await db.query<{ id: string }>(`SELECT id FROM evidences WHERE definition_of_done`)).rows.map(
        (r) => r.id,
      );
      expect(marked).toEqual([ev[0]]);
      const types = (
        await call('responder', 'GET', `incident_histories?incident_id=eq.${incident}&select=type`)
      ).body.map((h: any) => h.type);
      expect(types).toEqual(expect.arrayContaining(['evidence.done_definition_added', 'incident.status_updated']));

      // Skip: a status move alone; reopening clears the resolved and closed stamps
      expect(
        (await call('responder', 'POST', 'rpc/update_incident_status', { id: incident, status: 'closed' })).status,
      ).toBe(200);
      const stamps = async () =>
        (await call('responder', 'GET', `incidents?id=eq.${incident}&select=acknowledged,resolved,closed`)).body[0];
      expect(await stamps()).toEqual({
        acknowledged: expect.any(String),
        resolved: expect.any(String),
        closed: expect.any(String),
      });
      expect((await call('responder', 'PATCH', `incidents?id=eq.${incident}`, { status: 'open' })).status).toBe(200);
      expect(await stamps()).toEqual({ acknowledged: expect.any(String), resolved: null, closed: null });
      const missing = await call('responder', 'POST', 'rpc/update_incident_status', {
        id: '00000000-0000-4000-8000-000000000000',
        status: 'open',
      });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Incident not found');
      expect(
        (await call('viewer', 'POST', 'rpc/update_incident_status', { id: incident, status: 'open' })).status,
      ).toBe(403);
    });

    it('writes a mention into the changelog as @Name', async () => {
      const incident = (await call('responder', 'POST', 'rpc/create_incident?select=id', { title: 'Mentions' })).body[0]
        .id;
      const root = (await call('responder', 'GET', `hypotheses?incident_id=eq.${incident}&select=id`)).body[0].id;
      const text = `Looping in ${mentionMarkup('Viewer Person', ids.viewer)} for the payment provider timeouts we saw`;
      expect(
        (await call('responder', 'POST', 'comments', { incident_id: incident, hypothesis_id: root, comment: text }))
          .status,
      ).toBe(201);
      const [entry] = (
        await call(
          'responder',
          'GET',
          `incident_histories?incident_id=eq.${incident}&type=eq.responder.commented&select=description`,
        )
      ).body;
      expect(entry.description).toBe('Looping in @Viewer Person for the payment provider timeouts we saw'.slice(0, 80));
    });
  });
}
