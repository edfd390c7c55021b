/**
 * The agents routes (README.md in this folder).
 *
 *   POST /api/agent/generate   (agents write) an agent, its identity and its token, shown once
 *   POST /api/agent/ping       (an agent's token) last_seen, hostname, version
 *   POST /api/agent/push       (an agent's token) rows of the engines' tables (push.ts)
 *   GET  /api/agent/pull       (an agent's token) the canaries, scrapers and topologies assigned to it
 *   GET  /api/agent/playbook/actions?timeout=S  (an agent's token) long-poll: the next playbook
 *                              action naming the agent in runsOn, claimed for it (results come back in push)
 *   POST /api/agent/parked, GET /api/agent/:id/parked, POST /api/agent/:id/parked/requests
 *                              parked pushes (parked.ts)
 *
 * Listing, editing and deleting go through /api/db (agents_summary, PATCH agents), as the seed's
 * calls do; agentWrites (index.ts) limits what such a PATCH may change.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AGENT_MESSAGES,
  AGENT_PUSH_MAX_BYTES,
  AGENT_PUSH_MAX_ROWS,
  agentFormSchema,
  type GeneratedAgent,
} from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { hashAccessToken, issueAccessToken, needs, PUBLIC } from '../auth/index.ts';
import { sendError } from '../http/errors.ts';
import { noParams, noQuery, noReadInput, typed } from '../http/validation.ts';
import { applyPush, PushRefused, pushBodySchema } from './push.ts';
import { claimAgentAction } from '../playbooks/index.ts';
import { parkedRoutes } from './parked.ts';

/** The scope that marks an agent's token (access_tokens.scopes). */
const AGENT_SCOPE = 'agent';
/** How many resources of each kind a pull answers at most. */
const PULL_LIMIT = 1000;
/** The longest a playbook-action long-poll waits (seconds), and how often it looks meanwhile. */
const ACTION_POLL_MAX_S = 30;
const ACTION_POLL_EVERY_MS = 500;

const actionPollQuery = z.object({
  timeout: z.coerce
    .number({ error: `timeout must be a number of seconds from 0 to ${ACTION_POLL_MAX_S}` })
    .min(0, `timeout must be a number of seconds from 0 to ${ACTION_POLL_MAX_S}`)
    .max(ACTION_POLL_MAX_S, `timeout must be a number of seconds from 0 to ${ACTION_POLL_MAX_S}`)
    .default(ACTION_POLL_MAX_S),
});

/**
 * The upstream routes are public to the guard: an agent's token is no caller there (auth's
 * callerFromToken leaves it out, so it opens nothing else), and these handlers ask for the agent
 * behind it themselves. Anyone else gets 404: there is no agent of theirs to ping or push for.
 */
const AS_AGENT = PUBLIC;

const pingBody = z
  .union([
    z.null(),
    z.undefined(),
    z.strictObject({
      hostname: z.string().trim().max(255).optional(),
      version: z.string().trim().max(100).optional(),
    }),
  ])
  .transform((b) => b ?? {});

const notAgent = (reply: FastifyReply) => sendError(reply, 404, 'not_found', AGENT_MESSAGES.notAgent);

export function agentRoutes(
  fastify: FastifyInstance,
  { db, isDisabled }: { db: Db; isDisabled: (feature: string) => Promise<boolean> },
) {
  const app = typed(fastify);
  // a closing server answers its long-polls at once rather than hold its close up
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });

  /**
   * The live agent behind the request's bearer token, or null (no token, a person's token, a
   * revoked or deleted agent). Read from the header itself, not the caller: with AUTH=none the
   * caller is always the system, and agents must still prove who they are.
   */
  async function agentOf(req: FastifyRequest): Promise<string | null> {
    const auth = req.headers.authorization;
    if (!auth?.toLowerCase().startsWith('bearer ')) return null;
    // public to the guard, so the flag is checked here: agents switched off, no agent answers
    if (await isDisabled('agents')) return null;
    const r = await db.query<{ id: string }>(
      `SELECT a.id FROM access_tokens t JOIN agents a ON a.person_id = t.person_id
        WHERE t.value = $1 AND $2 = ANY (t.scopes) AND t.deleted_at IS NULL
          AND (t.expires_at IS NULL OR t.expires_at > now()) AND a.deleted_at IS NULL`,
      [hashAccessToken(auth.slice(7).trim()), AGENT_SCOPE],
    );
    return r.rows[0]?.id ?? null;
  }

  parkedRoutes(fastify, { db, agentOf });

  const generate = { params: noParams, querystring: noQuery, body: agentFormSchema };
  app.post(
    '/api/agent/generate',
    { config: needs('agents', 'write', { feature: 'agents' }), schema: generate },
    async (req, reply) => {
      const { name, description, properties, kubernetes, pushTelemetry } = req.body;
      const by = req.caller!.person.id;
      const taken = await db.query(`SELECT 1 FROM agents WHERE name = $1 AND deleted_at IS NULL`, [name]);
      if (taken.rows.length)
        return sendError(reply, 409, 'conflict', AGENT_MESSAGES.nameTaken, { name: AGENT_MESSAGES.nameTaken });
      const created = await db.transaction(async (tx): Promise<GeneratedAgent> => {
        const person = await tx.query<{ id: string }>(
          `INSERT INTO people (name, type) VALUES ($1, 'agent') RETURNING id`,
          [`agent-${name}`],
        );
        const personId = person.rows[0].id;
        const agent = await tx.query<{ id: string }>(
          `INSERT INTO agents (name, description, person_id, properties, spec, created_by)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [
            name,
            description || null,
            personId,
            JSON.stringify(properties),
            JSON.stringify({ kubernetes, pushTelemetry }),
            by,
          ],
        );
        const { token } = await issueAccessToken(tx, {
          name: `agent ${name}`,
          personId,
          createdBy: by,
          scopes: [AGENT_SCOPE],
        });
        return { id: agent.rows[0].id, name, person_id: personId, access_token: token };
      });
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/api/agent/ping',
    { config: AS_AGENT, schema: { params: noParams, querystring: noQuery, body: pingBody } },
    async (req, reply) => {
      const agentId = await agentOf(req);
      if (!agentId) return notAgent(reply);
      const { hostname, version } = req.body;
      const r = await db.query<{ id: string; name: string; last_seen: string }>(
        `UPDATE agents SET last_seen = now(), hostname = coalesce($2, hostname), version = coalesce($3, version)
          WHERE id = $1 RETURNING id, name, last_seen`,
        [agentId, hostname ?? null, version ?? null],
      );
      return r.rows[0];
    },
  );

  const push = { params: noParams, querystring: noQuery, body: pushBodySchema(AGENT_PUSH_MAX_ROWS) };
  app.post(
    '/api/agent/push',
    { config: AS_AGENT, schema: push, bodyLimit: AGENT_PUSH_MAX_BYTES },
    async (req, reply) => {
      const agentId = await agentOf(req);
      if (!agentId) return notAgent(reply);
      try {
        const counts = await db.transaction(async (tx) => {
          const c = await applyPush(tx, agentId, req.body);
          await tx.query(`UPDATE agents SET last_seen = now(), last_received = now() WHERE id = $1`, [agentId]);
          return c;
        });
        return { agent_id: agentId, counts };
      } catch (err) {
        if (err instanceof PushRefused)
          return sendError(reply, err.statusCode, err.statusCode === 403 ? 'forbidden' : 'invalid_body', err.message);
        throw err;
      }
    },
  );

  /**
   * Long-poll: waits up to `timeout` seconds (at most 30) for a playbook action that names this
   * agent in runsOn, claims it for the agent (no other agent, and never twice) and answers it
   * with its rendered fields; `{action: null}` when none came. A caller that hung up takes nothing.
   */
  app.get(
    '/api/agent/playbook/actions',
    { config: AS_AGENT, schema: { params: noParams, querystring: actionPollQuery } },
    async (req, reply) => {
      const agentId = await agentOf(req);
      if (!agentId) return notAgent(reply);
      await db.query(`UPDATE agents SET last_seen = now() WHERE id = $1`, [agentId]);
      const deadline = Date.now() + req.query.timeout * 1000;
      let gone = false;
      reply.raw.once('close', () => (gone = !reply.raw.writableFinished));
      for (;;) {
        if (gone) return reply;
        if (closing) return { agent_id: agentId, action: null };
        const action = await claimAgentAction(db, agentId);
        if (action) return { agent_id: agentId, action };
        if (Date.now() + ACTION_POLL_EVERY_MS > deadline) return { agent_id: agentId, action: null };
        await new Promise((r) => setTimeout(r, ACTION_POLL_EVERY_MS));
      }
    },
  );

  app.get('/api/agent/pull', { config: AS_AGENT, schema: noReadInput }, async (req, reply) => {
    const agentId = await agentOf(req);
    if (!agentId) return notAgent(reply);
    const of = async (table: 'canaries' | 'config_scrapers' | 'topologies') =>
      (
        await db.query(
          `SELECT id, name, namespace, labels, spec, schedule, updated_at FROM ${table}
            WHERE agent_id = $1 AND deleted_at IS NULL ORDER BY name, id LIMIT $2`,
          [agentId, PULL_LIMIT],
        )
      ).rows;
    const [canaries, scrapers, topologies] = [
      await of('canaries'),
      await of('config_scrapers'),
      await of('topologies'),
    ];
    await db.query(`UPDATE agents SET last_seen = now() WHERE id = $1`, [agentId]);
    return { agent_id: agentId, canaries, scrapers, topologies };
  });
}
