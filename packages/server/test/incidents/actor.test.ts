/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { hashAccessToken } from '#server/auth/tokens.ts';
import { exposedTables } from '#server/db/exposed.ts';

/**
 * With sign-in on, the changelog's actor is the caller of each /api/db write (request.person_id
 * set by the engine), not the incident's creator; creators default to the caller.
 */

for (const driver of testDrivers()) {
  describe(`incident changelog actor (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'kratos' }));
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    /** a person with a role and a personal access token for it */
    const personWithToken = async (name: string, role: string) => {
      const id = (
        await db.query<{ id: string }>(`INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id`, [
          name,
          `${name}@example.test`,
        ])
      ).rows[0].id;
      await db.query(`INSERT INTO people_roles (id, roles) VALUES ($1, $2)`, [id, [role]]);
      const token = `wdpat_${randomBytes(16).toString('hex')}`;
      await db.query(`INSERT INTO access_tokens (name, value, person_id) VALUES ('test', $1, $2)`, [
        hashAccessToken(token),
        id,
      ]);
      const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`${url}/api/db/${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            prefer: 'return=representation',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      };
      return { id, call };
    };

    it('records who made each change', async () => {
      const ana = await personWithToken('ana', 'commander');
      const ben = await personWithToken('ben', 'responder');
      const created = await ana.call('POST', 'incidents', { title: 'Queue backlog' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const inc = created.body[0];
      expect(inc.created_by).toBe(ana.id);

      const moved = await ben.call('PATCH', `incidents?id=eq.${inc.id}`, { status: 'investigating' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const comment = await ben.call('POST', 'comments', { incident_id: inc.id, comment: 'on it' });
      expect(comment.status, JSON.stringify(comment.body)).toBe(201);
      expect(comment.body[0].created_by).toBe(ben.id);

      const h = (await ana.call('GET', `incident_histories?incident_id=eq.${inc.id}&select=type,created_by`))
        .body as any[];
      const by = Object.fromEntries(h.map((e) => [e.type, e.created_by]));
      expect(by).toEqual({
        'incident.created': ana.id,
        'incident.status_updated': ben.id,
        'responder.commented': ben.id,
      });
    });

    it('ignores a created_by sent by the client: a responder cannot post as the admin', async () => {
      const admin = await personWithToken('ada', 'admin');
      const eve = await personWithToken('eve', 'responder');
      const inc = await eve.call('POST', 'incidents', { title: 'Forged', created_by: admin.id });
      expect(inc.status, JSON.stringify(inc.body)).toBe(201);
      expect(inc.body[0].created_by).toBe(eve.id);
      const incId = inc.body[0].id;

      const hyp = await eve.call('POST', 'hypotheses', {
        incident_id: incId,
        title: 'h',
        type: 'root',
        created_by: admin.id,
      });
      expect(hyp.body[0].created_by).toBe(eve.id);
      const ev = await eve.call('POST', 'evidences', {
        hypothesis_id: hyp.body[0].id,
        type: 'comment',
        description: 'seen',
        created_by: admin.id,
      });
      expect(ev.status, JSON.stringify(ev.body)).toBe(201);
      expect(ev.body[0].created_by).toBe(eve.id);
      const responder = await eve.call('POST', 'responders', {
        incident_id: incId,
        type: 'person',
        person_id: admin.id,
        created_by: admin.id,
      });
      expect(responder.status, JSON.stringify(responder.body)).toBe(201);
      expect(responder.body[0].created_by).toBe(eve.id);

      // an array insert and an upsert cannot forge it either
      const comments = await eve.call('POST', 'comments', [
        { incident_id: incId, comment: 'one', created_by: admin.id },
        { incident_id: incId, comment: 'two', created_by: null },
      ]);
      expect(comments.status, JSON.stringify(comments.body)).toBe(201);
      expect(comments.body.map((c: any) => c.created_by)).toEqual([eve.id, eve.id]);

      // the changelog names the real author too
      const h = (await admin.call('GET', `incident_histories?incident_id=eq.${incId}&select=type,created_by`))
        .body as any[];
      expect(h.length).toBeGreaterThan(0);
      expect(new Set(h.map((e) => e.created_by))).toEqual(new Set([eve.id]));

      // an update cannot move it to someone else
      const moved = await eve.call('PATCH', `incidents?id=eq.${incId}`, { created_by: admin.id, severity: 'high' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body[0]).toMatchObject({ created_by: eve.id, severity: 'high' });
      const team = await admin.call('POST', 'teams', { name: 'forgers', created_by: eve.id });
      expect(team.body[0].created_by).toBe(admin.id);
      const upsert = await eve.call(
        'POST',
        'teams?on_conflict=id',
        { id: team.body[0].id, name: 'forgers', created_by: eve.id },
        {
          prefer: 'resolution=merge-duplicates,return=representation',
        },
      );
      // responders may not write teams at all; the admin's own upsert keeps the creator
      expect(upsert.status).toBe(403);
      const own = await admin.call(
        'POST',
        'teams?on_conflict=id',
        { id: team.body[0].id, name: 'forgers 2', created_by: eve.id },
        {
          prefer: 'resolution=merge-duplicates,return=representation',
        },
      );
      // the row existed: PostgREST answers a merge of existing rows 200
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      expect(own.body[0]).toMatchObject({ name: 'forgers 2', created_by: admin.id });
    });

    it('lets only the author or an admin edit or delete a comment', async () => {
      const admin = await personWithToken('adm', 'admin');
      const ana = await personWithToken('ann', 'responder');
      const bob = await personWithToken('bob', 'responder');
      const inc = (await ana.call('POST', 'incidents', { title: 'Comments' })).body[0];
      const hyp = (await ana.call('POST', 'hypotheses', { incident_id: inc.id, title: 'root', type: 'root' })).body[0];
      const c = (await ana.call('POST', 'comments', { incident_id: inc.id, hypothesis_id: hyp.id, comment: 'mine' }))
        .body[0];

      const edit = await bob.call('PATCH', `comments?id=eq.${c.id}`, { comment: 'not yours' });
      expect(edit.status, JSON.stringify(edit.body)).toBe(403);
      expect(edit.body.message).toBe('Only the author of a comment or an admin can edit or delete it');
      const del = await bob.call('DELETE', `comments?id=eq.${c.id}`);
      expect(del.status).toBe(403);
      expect((await db.query(`SELECT comment FROM comments WHERE id = $1`, [c.id])).rows).toEqual([
        { comment: 'mine' },
      ]);

      const own = await ana.call('PATCH', `comments?id=eq.${c.id}`, { comment: 'mine, edited' });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      expect(own.body[0]).toMatchObject({ comment: 'mine, edited', created_by: ana.id });
      const byAdmin = await admin.call('PATCH', `comments?id=eq.${c.id}`, { comment: 'moderated' });
      expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
      expect(byAdmin.body[0].created_by).toBe(ana.id);

      // deleting a hypothesis bob may write takes ana's comments with it
      const c2 = (await ana.call('POST', 'comments', { incident_id: inc.id, hypothesis_id: hyp.id, comment: 'again' }))
        .body[0];
      const c3 = (await ana.call('POST', 'comments', { incident_id: inc.id, comment: 'on the incident' })).body[0];
      expect((await bob.call('DELETE', `hypotheses?id=eq.${hyp.id}`)).status).toBe(200);
      expect((await db.query(`SELECT id FROM comments WHERE id = ANY ($1)`, [[c.id, c2.id, c3.id]])).rows).toEqual([
        { id: c3.id },
      ]);
      expect((await ana.call('DELETE', `comments?id=eq.${c3.id}`)).status).toBe(200);
      expect((await db.query(`SELECT id FROM comments WHERE id = $1`, [c3.id])).rows).toEqual([]);
    });

    it('forces created_by on every table /api/db writes that has one', async () => {
      const { rows } = await db.query<{ table_name: string }>(
        `SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
          WHERE c.table_schema = current_schema() AND c.column_name = 'created_by' AND t.table_type = 'BASE TABLE'`,
      );
      const writable = rows
        .map((r) => r.table_name)
        .filter((t) => exposedTables[t] && !exposedTables[t].readOnly)
        .sort();
      expect(writable).toContain('comments');
      const triggered = (
        await db.query<{ t: string }>(
          `SELECT c.relname AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE g.tgname = 'zz_created_by_caller'`,
        )
      ).rows.map((r) => r.t);
      expect(writable.filter((t) => !triggered.includes(t))).toEqual([]);
    });
  });
}
