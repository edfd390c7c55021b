/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { SYSTEM_PERSON } from '#server/auth/caller.ts';
import { INCIDENT_STATUSES, acceptedStatusMoves, statusToggleTarget } from '#server/incidents/workflow.ts';

/**
 * Incidents over /api/db on a real app and database: the status workflow of seed 001 section 4,
 * the severity/type vocabularies, hypothesis defaults and cascade delete, and the changelog the
 * database writes for every change (migrations/0102_incident_workflow.sql).
 */

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + '/api/db/' + path, {
    method,
    headers: {
      accept: 'application/json',
      prefer: 'return=representation',
      origin: new URL(url).origin, // as the web app's fetch sends it (the CSRF check reads it)
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

for (const driver of testDrivers()) {
  describe(`incidents workflow (${driver.name})`, () => {
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

    const createIncident = async (o: Record<string, unknown> = {}) => {
      const r = await call(url, 'POST', 'incidents', { title: 'Checkout is down', ...o });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body[0];
    };
    const history = async (incidentId: string) => {
      const r = await call(url, 'GET', `incident_histories?incident_id=eq.${incidentId}&order=created_at.asc,type.asc`);
      expect(r.status).toBe(200);
      return r.body as any[];
    };
    /** an incident already in `status` (new -> any status is a move the table offers) */
    const incidentIn = async (status: string) => {
      const inc = await createIncident({ status: 'new' });
      if (status !== 'new') {
        const r = await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { status });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      return inc;
    };

    it('creates incidents with human-readable numbers, the defaults and the caller as creator', async () => {
      const a = await createIncident();
      const b = await createIncident({ title: 'Second' });
      expect(a.incident_id).toMatch(/^INC\d{7}$/);
      expect(Number(b.incident_id.slice(3))).toBe(Number(a.incident_id.slice(3)) + 1);
      expect(a).toMatchObject({ status: 'open', severity: 'low', type: 'availability', created_by: SYSTEM_PERSON.id });
      const h = await history(a.id);
      expect(h.map((r) => r.type)).toEqual(['incident.created']);
      expect(h[0]).toMatchObject({ created_by: SYSTEM_PERSON.id, description: 'Checkout is down' });
    });

    it('gives numbers only to incidents that are stored: refused creates use none up', async () => {
      const before = await createIncident({ title: 'Before the refusals' });
      // refused by the database's checks (unknown severity) and by a NOT NULL/CHECK on the title
      const refused1 = await call(url, 'POST', 'incidents', { title: 'Bad severity', severity: 'apocalyptic' });
      expect(refused1.status).toBe(400);
      const refused2 = await call(url, 'POST', 'incidents', { title: '   ' });
      expect(refused2.status).toBe(400);
      // a batch whose second row is refused stores neither row and numbers neither
      const batch = await call(url, 'POST', 'incidents', [
        { title: 'Good one', type: 'availability' },
        { title: 'Bad one', type: 'nope' },
      ]);
      expect(batch.status).toBe(400);
      expect(batch.body.code).not.toBe('PGRST102');
      const after = await createIncident({ title: 'After the refusals' });
      expect(Number(after.incident_id.slice(3))).toBe(Number(before.incident_id.slice(3)) + 1);
      // a rolled-back transaction gives its number back too
      await db
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO incidents (title) VALUES ('rolled back')`);
          throw new Error('abort');
        })
        .catch(() => {});
      const next = await createIncident({ title: 'After the rollback' });
      expect(Number(next.incident_id.slice(3))).toBe(Number(after.incident_id.slice(3)) + 1);
      // many in one statement get consecutive numbers
      const many = await call(url, 'POST', 'incidents', [{ title: 'one' }, { title: 'two' }, { title: 'three' }]);
      expect(many.status).toBe(201);
      expect(many.body.map((r: any) => Number(r.incident_id.slice(3)))).toEqual(
        [1, 2, 3].map((k) => Number(next.incident_id.slice(3)) + k),
      );
    });

    it('applies every move of the status table and refuses every other one with a 400 naming from and to', async () => {
      let allowedCount = 0;
      let refusedCount = 0;
      for (const from of INCIDENT_STATUSES) {
        for (const to of INCIDENT_STATUSES) {
          if (from === to) continue; // not a move: nothing changes
          const inc = await incidentIn(from);
          const r = await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { status: to });
          const stored = (await call(url, 'GET', `incidents?id=eq.${inc.id}&select=status`)).body[0].status;
          if (acceptedStatusMoves(from).includes(to)) {
            allowedCount++;
            expect(r.status, `${from} -> ${to}: ${JSON.stringify(r.body)}`).toBe(200);
            expect(stored).toBe(to);
            const h = await history(inc.id);
            expect(h.filter((e) => e.type === 'incident.status_updated').at(-1)).toMatchObject({
              description: `${from} → ${to}`,
              created_by: SYSTEM_PERSON.id,
            });
          } else {
            refusedCount++;
            expect(r.status, `${from} -> ${to}`).toBe(400);
            expect(r.body.message).toBe(`Incident status cannot change from "${from}" to "${to}"`);
            expect(r.body.details).toContain(`From ${from} the status can move to:`);
            expect(stored).toBe(from);
          }
        }
      }
      // the table of seed 001 section 4, off the diagonal, plus the header toggle's investigating -> open
      expect(allowedCount).toBe(5 + 4 + 3 + 3 + 2 + 1 + 1);
      expect(refusedCount).toBe(30 - allowedCount);
    });

    it("accepts the header toggle's move from every status: close an open incident, reopen any other", async () => {
      for (const from of INCIDENT_STATUSES) {
        const inc = await incidentIn(from);
        const to = statusToggleTarget(from);
        expect(to).toBe(from === 'open' ? 'closed' : 'open');
        const r = await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { status: to });
        expect(r.status, `${from} -> ${to}: ${JSON.stringify(r.body)}`).toBe(200);
        expect(r.body[0].status).toBe(to);
      }
    });

    it('stamps acknowledged, resolved and closed when the status first reaches them', async () => {
      const inc = await createIncident();
      expect(inc.acknowledged).toBeNull();
      await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { status: 'investigating' });
      await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { status: 'closed' });
      const row = (await call(url, 'GET', `incidents?id=eq.${inc.id}`)).body[0];
      expect(row.acknowledged).not.toBeNull();
      expect(row.resolved).not.toBeNull();
      expect(row.closed).not.toBeNull();
    });

    it('enforces the severity and type vocabularies and maps numeric severity codes', async () => {
      const bad = await call(url, 'POST', 'incidents', { title: 'x', severity: 'urgent' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Unknown incident severity "urgent"');
      const badType = await call(url, 'POST', 'incidents', { title: 'x', type: 'outage' });
      expect(badType.status).toBe(400);
      expect(badType.body.message).toBe('Unknown incident type "outage"');
      const badStatus = await call(url, 'POST', 'incidents', { title: 'x', status: 'done' });
      expect(badStatus.status).toBe(400);
      expect(badStatus.body.message).toBe('Unknown incident status "done"');

      const codes: [unknown, string][] = [
        [1, 'medium'],
        [2, 'high'],
        ['3', 'blocker'],
        [4, 'critical'],
        [0, 'low'],
        [9, 'low'],
      ];
      for (const [code, severity] of codes) {
        const inc = await createIncident({ severity: code });
        expect(inc.severity, String(code)).toBe(severity);
      }

      const inc = await createIncident({ severity: 'low' });
      const patchBad = await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { severity: 'huge' });
      expect(patchBad.status).toBe(400);
      expect(
        (await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { severity: 'high', type: 'security' })).status,
      ).toBe(200);
      const h = await history(inc.id);
      expect(h.find((e) => e.type === 'incident.severity_updated')).toMatchObject({ description: 'low → high' });
      expect(h.find((e) => e.type === 'incident.type_updated')).toMatchObject({
        description: 'availability → security',
      });
    });

    it('writes a changelog row for every hypothesis, evidence, responder and comment event, with the actor', async () => {
      const inc = await createIncident();
      const root = await call(url, 'POST', 'hypotheses', { incident_id: inc.id, title: 'Root cause', type: 'root' });
      expect(root.status).toBe(201);
      expect(root.body[0]).toMatchObject({ status: 'possible', created_by: SYSTEM_PERSON.id });
      const hyp = root.body[0];
      // an explicit null still starts as possible
      const nullStatus = await call(url, 'POST', 'hypotheses', {
        incident_id: inc.id,
        parent_id: hyp.id,
        title: 'Factor',
        status: null,
      });
      expect(nullStatus.body[0].status).toBe('possible');

      expect((await call(url, 'PATCH', `hypotheses?id=eq.${hyp.id}`, { status: 'likely' })).status).toBe(200);
      const ev = (
        await call(url, 'POST', 'evidences', { hypothesis_id: hyp.id, type: 'log', description: 'error lines' })
      ).body[0];
      expect(ev.created_by).toBe(SYSTEM_PERSON.id);
      expect((await call(url, 'PATCH', `evidences?id=eq.${ev.id}`, { definition_of_done: true })).status).toBe(200);
      expect((await call(url, 'PATCH', `evidences?id=eq.${ev.id}`, { definition_of_done: false })).status).toBe(200);
      const manual = (
        await call(url, 'POST', 'evidences', {
          hypothesis_id: hyp.id,
          type: 'comment',
          description: 'customers can pay',
          definition_of_done: true,
        })
      ).body[0];

      // a team responder needs the team's configuration of its type (migrations/0103)
      const spec = {
        responder_clients: { email: { values: { to: 'sre@example.com', subject: 'Incident', body: 'Please look' } } },
      };
      const team = (
        await db.query<{ id: string }>(`INSERT INTO teams (name, spec) VALUES ('SRE', $1::jsonb) RETURNING id`, [
          JSON.stringify(spec),
        ])
      ).rows[0].id;
      const responder = (
        await call(url, 'POST', 'responders', { incident_id: inc.id, type: 'person', person_id: SYSTEM_PERSON.id })
      ).body[0];
      expect(responder.created_by).toBe(SYSTEM_PERSON.id);
      const teamResponder = (
        await call(url, 'POST', 'responders', {
          incident_id: inc.id,
          type: 'email',
          team_id: team,
          properties: { responderType: 'email' },
        })
      ).body[0];
      expect(
        (await call(url, 'PATCH', `responders?id=eq.${teamResponder.id}`, { deleted_at: new Date().toISOString() }))
          .status,
      ).toBe(200);
      const comment = (
        await call(url, 'POST', 'comments', {
          incident_id: inc.id,
          hypothesis_id: hyp.id,
          comment: 'Looking at the logs',
        })
      ).body[0];
      expect(comment.created_by).toBe(SYSTEM_PERSON.id);

      const h = await history(inc.id);
      const rows = h.map((e) => [e.type, e.description, e.hypothesis_id, e.evidence_id, e.responder_id, e.comment_id]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ['incident.created', 'Checkout is down', null, null, null, null],
          ['hypothesis.created', 'Root cause', hyp.id, null, null, null],
          ['hypothesis.created', 'Factor', nullStatus.body[0].id, null, null, null],
          ['hypothesis.status_updated', 'possible → likely', hyp.id, null, null, null],
          ['evidence.created', 'error lines', hyp.id, ev.id, null, null],
          ['evidence.done_definition_added', 'error lines', hyp.id, ev.id, null, null],
          ['evidence.done_definition_removed', 'error lines', hyp.id, ev.id, null, null],
          ['evidence.created', 'customers can pay', hyp.id, manual.id, null, null],
          ['evidence.done_definition_added', 'customers can pay', hyp.id, manual.id, null, null],
          ['responder.created', SYSTEM_PERSON.name, null, null, responder.id, null],
          ['responder.created', 'SRE', null, null, teamResponder.id, null],
          ['responder.deleted', 'SRE', null, null, teamResponder.id, null],
          ['responder.commented', 'Looking at the logs', hyp.id, null, null, comment.id],
        ]),
      );
      expect(h).toHaveLength(13);
      expect(h.every((e) => e.created_by === SYSTEM_PERSON.id)).toBe(true);
    });

    it('rolls the changelog back with a refused change (same transaction)', async () => {
      const inc = await incidentIn('closed');
      const before = await history(inc.id);
      const r = await call(url, 'PATCH', `incidents?id=eq.${inc.id}`, { status: 'investigating', severity: 'high' });
      expect(r.status).toBe(400);
      expect(await history(inc.id)).toEqual(before);
      expect((await call(url, 'GET', `incidents?id=eq.${inc.id}&select=severity`)).body[0].severity).toBe('low');
    });

    it('deleting a hypothesis removes its comments, evidence and sub-hypotheses in one statement', async () => {
      const inc = await createIncident();
      const keep = (await call(url, 'POST', 'hypotheses', { incident_id: inc.id, title: 'keep', type: 'root' }))
        .body[0];
      const gone = (await call(url, 'POST', 'hypotheses', { incident_id: inc.id, parent_id: keep.id, title: 'gone' }))
        .body[0];
      const child = (
        await call(url, 'POST', 'hypotheses', {
          incident_id: inc.id,
          parent_id: gone.id,
          title: 'child',
          type: 'solution',
        })
      ).body[0];
      await call(url, 'POST', 'evidences', [
        { hypothesis_id: gone.id, type: 'log', description: 'a' },
        { hypothesis_id: child.id, type: 'config', description: 'b' },
        { hypothesis_id: keep.id, type: 'check', description: 'kept' },
      ]);
      await call(url, 'POST', 'comments', [
        { incident_id: inc.id, hypothesis_id: gone.id, comment: 'on gone' },
        { incident_id: inc.id, hypothesis_id: keep.id, comment: 'on keep' },
      ]);
      const del = await call(url, 'DELETE', `hypotheses?id=eq.${gone.id}`);
      expect(del.status).toBe(200);
      const hyps = (await call(url, 'GET', `hypotheses?incident_id=eq.${inc.id}&select=title`)).body.map(
        (h: any) => h.title,
      );
      expect(hyps).toEqual(['keep']);
      const evs = (
        await call(url, 'GET', `evidences?hypothesis_id=in.(${keep.id},${gone.id},${child.id})&select=description`)
      ).body;
      expect(evs.map((e: any) => e.description)).toEqual(['kept']);
      const comments = (await call(url, 'GET', `comments?incident_id=eq.${inc.id}&select=comment`)).body;
      expect(comments.map((c: any) => c.comment)).toEqual(['on keep']);
      // the changelog keeps its rows; their links to deleted rows are cleared
      const h = await history(inc.id);
      expect(h.filter((e) => e.type === 'hypothesis.created')).toHaveLength(3);
      expect(h.filter((e) => e.type === 'evidence.created' && e.evidence_id === null)).toHaveLength(2);
    });

    it('incident_summary, incidents_by_component and incidents_by_config reflect the incident', async () => {
      const inc = await createIncident({ title: 'Views', severity: 'high' });
      const hyp = (await call(url, 'POST', 'hypotheses', { incident_id: inc.id, title: 'r', type: 'root' })).body[0];
      const comp = (await db.query<{ id: string }>(`INSERT INTO components (name) VALUES ('api') RETURNING id`)).rows[0]
        .id;
      const cfg = (
        await db.query<{ id: string }>(
          `INSERT INTO config_items (type, config_class, name) VALUES ('Kubernetes::Pod', 'Pod', 'api-0') RETURNING id`,
        )
      ).rows[0].id;
      // one set of keys for every object of a bulk insert, as PostgREST requires (PGRST102)
      const added = await call(url, 'POST', 'evidences', [
        { hypothesis_id: hyp.id, type: 'topology', component_id: comp, config_id: null },
        { hypothesis_id: hyp.id, type: 'topology', component_id: comp, config_id: null },
        { hypothesis_id: hyp.id, type: 'config', component_id: null, config_id: cfg },
      ]);
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      await call(url, 'POST', 'responders', { incident_id: inc.id, type: 'person', person_id: SYSTEM_PERSON.id });
      await call(url, 'POST', 'comments', { incident_id: inc.id, hypothesis_id: hyp.id, comment: 'hi' });

      const s = (await call(url, 'GET', `incident_summary?id=eq.${inc.id}`)).body[0];
      expect(s).toMatchObject({
        incident_id: inc.incident_id,
        title: 'Views',
        severity: 'high',
        hypotheses_count: 1,
        evidences_count: 3,
        comments_count: 1,
      });
      expect(s.responders).toEqual([expect.objectContaining({ id: SYSTEM_PERSON.id, type: 'person' })]);
      expect(s.commenters).toEqual([expect.objectContaining({ id: SYSTEM_PERSON.id })]);

      const byComp = (
        await call(url, 'GET', `incidents_by_component?component_id=eq.${comp}&status=eq.open&type=eq.availability`)
      ).body;
      expect(byComp).toEqual([expect.objectContaining({ id: inc.id, incident_id: inc.incident_id })]);
      const byCfg = (await call(url, 'GET', `incidents_by_config?config_id=eq.${cfg}`)).body;
      expect(byCfg).toEqual([expect.objectContaining({ id: inc.id, severity: 'high' })]);
      expect((await call(url, 'GET', `incidents_by_config?config_id=eq.${cfg}&status=eq.closed`)).body).toEqual([]);
    });
  });
}
