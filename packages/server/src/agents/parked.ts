/**
 * Parked pushes on the upstream (README.md, "Parked pushes"). Rows an agent's pushes had refused
 * for good are parked on the agent, which serves no UI; it reports them here and this keeps a copy
 * per agent (agent_parked_rows) for the agent's page. An editor's retry or discard is stored as a
 * request on the row and handed to the agent in the answer to its next report; the agent carries
 * it out and reports the outcome (the row changed, or gone).
 *
 *   POST /api/agent/parked                 (an agent's token) report; answers the pending requests
 *   GET  /api/agent/:id/parked             (agents read) the agent's parked rows, newest first
 *   POST /api/agent/:id/parked/requests    (agents write) {action: retry|discard, ids}
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AGENT_MESSAGES,
  AGENT_PARKED_PAGE_SIZES,
  agentParkedReportSchema,
  agentParkedRequestSchema,
  idParam,
  type AgentParkedRequest,
  type AgentParkedRow,
} from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { needs, PUBLIC } from '../auth/index.ts';
import { sendError } from '../http/errors.ts';
import { noParams, noQuery, typed } from '../http/validation.ts';

/** Requests handed to an agent per report (it reports again at once while any are left). */
const REQUESTS_PER_ANSWER = 100;
const MAX_PAGE = AGENT_PARKED_PAGE_SIZES[AGENT_PARKED_PAGE_SIZES.length - 1];

const listQuery = z.object({
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${MAX_PAGE}` })
    .int(`limit must be a number from 1 to ${MAX_PAGE}`)
    .min(1, `limit must be a number from 1 to ${MAX_PAGE}`)
    .max(MAX_PAGE, `limit must be a number from 1 to ${MAX_PAGE}`)
    .default(AGENT_PARKED_PAGE_SIZES[0]),
  offset: z.coerce
    .number({ error: 'offset must be a number of rows, 0 or more' })
    .int('offset must be a number of rows, 0 or more')
    .min(0, 'offset must be a number of rows, 0 or more')
    .max(1_000_000, 'offset must be at most 1000000')
    .default(0),
});

const notFound = (reply: FastifyReply, message: string) => sendError(reply, 404, 'not_found', message);
const NO_AGENT = 'No agent with this id';

export function parkedRoutes(
  fastify: FastifyInstance,
  { db, agentOf }: { db: Db; agentOf: (req: FastifyRequest) => Promise<string | null> },
) {
  const app = typed(fastify);

  app.post(
    '/api/agent/parked',
    { config: PUBLIC, schema: { params: noParams, querystring: noQuery, body: agentParkedReportSchema } },
    async (req, reply) => {
      const agentId = await agentOf(req);
      if (!agentId) return sendError(reply, 404, 'not_found', AGENT_MESSAGES.notAgent);
      const { resolved } = req.body;
      // one row per id (a repeated id would make the upsert touch a row twice): the last one counts
      const parked = [...new Map(req.body.parked.map((p) => [p.id.toLowerCase(), p])).values()];
      const requests = await db
        .transaction(async (tx) => {
          if (parked.length)
            // a request the agent reports carried out (its requested_at echoed back) is cleared; one
            // made after it stays for the next report
            await tx.query(
              `INSERT INTO agent_parked_rows AS p (agent_id, id, tbl, row_key, row, error, parked_at, attempts, last_attempt_at)
             SELECT $1, x.id, x.table, x.key, x.row, x.error, x.parked_at, x.attempts, x.last_attempt_at
               FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, "table" text, key text, row jsonb, error text,
                    parked_at timestamptz, attempts int, last_attempt_at timestamptz)
             ON CONFLICT (agent_id, id) DO UPDATE SET tbl = EXCLUDED.tbl, row_key = EXCLUDED.row_key,
               row = EXCLUDED.row, error = EXCLUDED.error, parked_at = EXCLUDED.parked_at,
               attempts = EXCLUDED.attempts, last_attempt_at = EXCLUDED.last_attempt_at, reported_at = now()`,
              [agentId, JSON.stringify(parked)],
            );
          const handled = parked.filter((p) => p.handled_request_at);
          if (handled.length)
            await tx.query(
              `UPDATE agent_parked_rows p SET request = NULL, requested_at = NULL, requested_by = NULL
               FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, handled_request_at timestamptz)
              WHERE p.agent_id = $1 AND p.id = x.id AND p.requested_at <= x.handled_request_at`,
              [agentId, JSON.stringify(handled.map((h) => ({ id: h.id, handled_request_at: h.handled_request_at })))],
            );
          if (resolved.length)
            await tx.query(`DELETE FROM agent_parked_rows WHERE agent_id = $1 AND id = ANY ($2::uuid[])`, [
              agentId,
              resolved.map((r) => r.id),
            ]);
          await tx.query(`UPDATE agents SET last_seen = now() WHERE id = $1`, [agentId]);
          return (
            await tx.query<AgentParkedRequest>(
              `SELECT id, request AS action, to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS requested_at
               FROM agent_parked_rows WHERE agent_id = $1 AND request IS NOT NULL
              ORDER BY requested_at, id LIMIT ${REQUESTS_PER_ANSWER}`,
              [agentId],
            )
          ).rows;
        })
        .catch((err: unknown) => {
          // a value the tables refuse (a NUL character in a text, an out-of-range date): the report's fault
          const code = (err as { code?: string }).code ?? '';
          if (code.startsWith('22') || code.startsWith('23')) return null;
          throw err;
        });
      if (!requests) return sendError(reply, 400, 'invalid_body', 'a parked row has a value this console cannot store');
      return { agent_id: agentId, requests };
    },
  );

  /** The live agent with this id (the local agent has nothing parked, but may be asked). */
  const liveAgent = async (id: string) =>
    (await db.query(`SELECT 1 FROM agents WHERE id = $1 AND deleted_at IS NULL`, [id])).rows.length > 0;

  app.get(
    '/api/agent/:id/parked',
    { config: needs('agents', 'read', { feature: 'agents' }), schema: { params: idParam, querystring: listQuery } },
    async (req, reply) => {
      const { id } = req.params;
      if (!(await liveAgent(id))) return notFound(reply, NO_AGENT);
      const { limit, offset } = req.query;
      const rows = await db.query<AgentParkedRow & { total: number }>(
        `SELECT p.id, p.tbl AS table, p.row_key AS key, p.row, p.error, p.parked_at, p.attempts, p.last_attempt_at,
                p.reported_at, p.request, p.requested_at,
                CASE WHEN pe.id IS NULL THEN NULL ELSE jsonb_build_object('id', pe.id, 'name', pe.name) END AS requested_by,
                count(*) OVER ()::int AS total
           FROM agent_parked_rows p LEFT JOIN people pe ON pe.id = p.requested_by
          WHERE p.agent_id = $1
          ORDER BY p.parked_at DESC, p.id LIMIT $2 OFFSET $3`,
        [id, limit, offset],
      );
      const total =
        rows.rows[0]?.total ??
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_parked_rows WHERE agent_id = $1`, [id]))
          .rows[0].n;
      return { total, rows: rows.rows.map(({ total: _t, ...r }) => r) };
    },
  );

  app.post(
    '/api/agent/:id/parked/requests',
    {
      config: needs('agents', 'write', { feature: 'agents' }),
      schema: { params: idParam, querystring: noQuery, body: agentParkedRequestSchema },
    },
    async (req, reply) => {
      const { id } = req.params;
      const { action, ids } = req.body;
      if (!(await liveAgent(id))) return notFound(reply, NO_AGENT);
      const unique = [...new Set(ids.map((i) => i.toLowerCase()))];
      // all or nothing: a row stored or discarded meanwhile makes the caller look again
      const done = await db
        .transaction(async (tx) => {
          const r = await tx.query<{ id: string; requested_at: string }>(
            `UPDATE agent_parked_rows SET request = $3, requested_at = clock_timestamp(), requested_by = $4
            WHERE agent_id = $1 AND id = ANY ($2::uuid[]) RETURNING id, requested_at`,
            [id, unique, action, req.caller?.person.id ?? null],
          );
          if (r.rows.length < unique.length) throw new ParkedUnknown();
          return r.rows;
        })
        .catch((err: unknown) => {
          if (err instanceof ParkedUnknown) return null;
          throw err;
        });
      if (!done) return notFound(reply, AGENT_MESSAGES.parkedUnknown);
      return reply.code(202).send({
        action,
        requested: done.length,
        message: action === 'retry' ? AGENT_MESSAGES.parkedRetryRequested : AGENT_MESSAGES.parkedDiscardRequested,
      });
    },
  );
}

class ParkedUnknown extends Error {}
