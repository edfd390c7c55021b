/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '../../src/db/index.ts';
import { hashAccessToken } from '../../src/auth/tokens.ts';

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
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${url}/api/db/${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            prefer: 'return=representation',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
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
  });
}
