/**
 * Playbook sources (README.md "Sources"): the list for anyone who reads playbooks; add, change,
 * delete and Sync now for admins only, since a source reads files with a connection's
 * credentials or from the server's disk (directories under the allowed roots only).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { canManagePlaybookSources, isUuid, playbookSourceSchema, type PlaybookSourceInput } from '@watchdeck/core';
import { needs } from '#server/auth/index.ts';
import { parseSchedule } from '#server/jobs/schedule.ts';
import { sendError } from '#server/http/errors.ts';
import { noBody, noParams, noQuery, typed } from '#server/http/validation.ts';
import { PlaybookError } from './service.ts';
import { allowedDirectory, localRepository, syncSource, type SyncDeps } from './sync.ts';

const FEATURE = { feature: 'playbooks' };
const manage = {
  ...FEATURE,
  access: [
    { resource: 'playbooks' as const, action: 'write' as const },
    { label: 'manage playbook sources (admins only)', check: canManagePlaybookSources },
  ],
};
const read = needs('playbooks', 'read', FEATURE);
const idParams = z.object({ id: z.string().refine(isUuid, 'id must be a UUID') });

const COLUMNS = `s.id, s.name, s.url, s.connection, s.ref, s.directory, s.paths, s.schedule, s.created_by, s.created_at,
  s.updated_at, s.lease_until IS NOT NULL AND s.lease_until > now() AS syncing`;

function answer(reply: FastifyReply, err: unknown) {
  if (err instanceof PlaybookError) {
    const code = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found', 409: 'conflict' }[err.statusCode];
    return sendError(reply, err.statusCode, code, err.message, err.errors);
  }
  throw err;
}

/** Checks what the schema cannot: the schedule, the directory or local repository under the roots. */
async function checkSource(s: PlaybookSourceInput, roots: readonly string[]): Promise<void> {
  if (s.schedule) {
    try {
      parseSchedule(s.schedule);
    } catch (err) {
      throw new PlaybookError(400, `schedule: ${(err as Error).message}`);
    }
  }
  if (s.directory) await allowedDirectory(s.directory, roots);
  const local = s.url ? localRepository(s.url) : undefined;
  if (local)
    await allowedDirectory(local, roots).catch(() => {
      throw new PlaybookError(
        400,
        `url: a repository on this machine must be under the allowed roots (${roots.join(', ')}); an administrator adds directories with WATCHDECK_PLAYBOOK_ROOTS`,
      );
    });
}

const values = (s: PlaybookSourceInput) => [
  s.name,
  s.url ?? null,
  s.connection ?? null,
  s.ref ?? null,
  s.directory ?? null,
  s.paths ?? [],
  s.schedule ?? null,
];

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

export function playbookSourceRoutes(app: FastifyInstance, deps: SyncDeps & { reload: () => Promise<void> }): void {
  const { db, roots } = deps;
  const r = typed(app);

  r.get('/api/playbook/sources', { config: read, schema: { params: noParams, querystring: noQuery } }, async () => {
    const { rows } = await db.query(
      `SELECT ${COLUMNS},
           (SELECT count(*)::int FROM playbooks p WHERE p.source_id = s.id AND p.deleted_at IS NULL) AS playbooks,
           (SELECT to_jsonb(j) FROM (SELECT id, status, time_start, time_end, duration_millis, details
              FROM job_history WHERE resource_id = s.id::text AND name = 'PlaybookSync'
              ORDER BY time_start DESC LIMIT 1) j) AS last_sync
         FROM playbook_sources s WHERE s.deleted_at IS NULL ORDER BY s.name`,
    );
    return rows;
  });

  r.post(
    '/api/playbook/sources',
    { config: manage, schema: { params: noParams, querystring: noQuery, body: playbookSourceSchema } },
    async (req, reply) => {
      try {
        await checkSource(req.body, roots);
        const { rows } = await db.query(
          `INSERT INTO playbook_sources AS s (name, url, connection, ref, directory, paths, schedule, created_by)
           VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8) RETURNING ${COLUMNS}`,
          [...values(req.body), req.caller?.person.id ?? null],
        );
        await deps.reload();
        return reply.code(201).send(rows[0]);
      } catch (err) {
        if (isUniqueViolation(err))
          return sendError(reply, 409, 'conflict', `a playbook source named "${req.body.name}" exists already`);
        return answer(reply, err);
      }
    },
  );

  r.put(
    '/api/playbook/sources/:id',
    { config: manage, schema: { params: idParams, querystring: noQuery, body: playbookSourceSchema } },
    async (req, reply) => {
      try {
        await checkSource(req.body, roots);
        const { rows } = await db.query(
          `UPDATE playbook_sources s SET name = $2, url = $3, connection = $4, ref = $5, directory = $6,
             paths = $7::text[], schedule = $8
           WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
          [req.params.id, ...values(req.body)],
        );
        if (!rows[0]) throw new PlaybookError(404, `playbook source ${req.params.id} not found`);
        await deps.reload();
        return rows[0];
      } catch (err) {
        if (isUniqueViolation(err))
          return sendError(reply, 409, 'conflict', `a playbook source named "${req.body.name}" exists already`);
        return answer(reply, err);
      }
    },
  );

  // Deleting a source deletes (softly) the playbooks it brought: nobody could edit them otherwise.
  r.delete(
    '/api/playbook/sources/:id',
    { config: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      const deleted = await db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `UPDATE playbook_sources SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
          [req.params.id],
        );
        if (!rows[0]) return false;
        await tx.query(`UPDATE playbooks SET deleted_at = now() WHERE source_id = $1 AND deleted_at IS NULL`, [
          req.params.id,
        ]);
        return true;
      });
      if (!deleted) return sendError(reply, 404, 'not_found', `playbook source ${req.params.id} not found`);
      await deps.reload();
      return reply.code(204).send();
    },
  );

  // Sync now: one sync, answered with its job-history row's id, status and summary.
  r.post(
    '/api/playbook/sources/:id/sync',
    { config: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      try {
        const job = await syncSource(deps, req.params.id);
        if (!job) return sendError(reply, 409, 'conflict', 'a sync of this source is running; try again when it ends');
        const { rows } = await db.query(
          `SELECT id, status, success_count, error_count, details FROM job_history WHERE id = $1`,
          [job.id],
        );
        return rows[0];
      } catch (err) {
        return answer(reply, err);
      }
    },
  );
}
