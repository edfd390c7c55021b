/**
 * Personal access tokens: `Authorization: Bearer <token>` for scripts and the kubeconfig. The
 * token is shown once at creation; access_tokens.value holds its SHA-256 only. An unscoped token
 * acts as its owner with the owner's current roles; a scoped one (role chosen at creation, no
 * higher than the owner's) with that role, and never with more than the owner has now, so
 * demoting a person demotes their tokens too.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  createAccessTokenSchema,
  idParam,
  uuidField,
  effectiveRoles,
  roleWithin,
  rolesWithin,
  ROLES,
  type AccessTokenRecord,
  type Role,
} from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import { randomToken, sha256 } from './crypto.ts';
import { rolesOf } from './identities.ts';
import type { Caller } from './caller.ts';
import type { AuthContext } from './context.ts';
import { noBody, noParams, noQuery, queryInt, typed } from '../http/validation.ts';
import { needs, SIGNED_IN } from './guard.ts';
import { sendError } from '../http/errors.ts';

const PREFIX = 'wdpat_';

function generateAccessToken(): string {
  return PREFIX + randomToken(32);
}

export function hashAccessToken(token: string): string {
  return sha256(token);
}

const isRole = (r: unknown): r is Role => typeof r === 'string' && (ROLES as readonly string[]).includes(r);

/**
 * Resolves a bearer token to its caller, or null when unknown, revoked, expired or orphaned. An
 * agent's token (scope 'agent', agents/) is no caller here: it opens the agent API only, which
 * checks it itself, and never the console's other routes or /api/db.
 */
export async function callerFromToken(q: Queryable, token: string): Promise<Caller | null> {
  const r = await q.query<{
    id: string;
    person_id: string;
    name: string;
    email: string | null;
    avatar: string | null;
    role: string | null;
    stale: boolean;
    session: boolean;
  }>(
    `SELECT t.id, t.person_id, p.name, p.email, p.avatar, t.role, 'session' = ANY (t.scopes) AS session,
            (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS stale
       FROM access_tokens t JOIN people p ON p.id = t.person_id
      WHERE t.value = $1 AND t.deleted_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
        AND NOT ('agent' = ANY (t.scopes))
        AND p.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.id = p.id AND i.state <> 'active')`,
    [hashAccessToken(token)],
  );
  const row = r.rows[0];
  if (!row) return null;
  // last_used_at is informative: write it at most once a minute, never on the request's path
  if (row.stale) void q.query(`UPDATE access_tokens SET last_used_at = now() WHERE id = $1`, [row.id]).catch(() => {});
  const owner = await rolesOf(q, row.person_id);
  // a role name this version does not know gives the least, not the owner's all
  const roles = row.role === null ? owner : isRole(row.role) ? rolesWithin(owner, row.role) : effectiveRoles([]);
  return {
    via: 'token',
    person: { id: row.person_id, name: row.name, email: row.email, avatar: row.avatar },
    roles,
    tokenId: row.id,
    ...(row.session ? { sessionToken: true } : {}),
  };
}

/**
 * Creates an access token for a person: the tokens route, the kubeconfig download (the caller's
 * own, listed and revocable on the profile page) and an agent's identity (agents/, scope
 * 'agent', created by whoever made the agent). Only the hash is stored; the value is returned once.
 */
export async function issueAccessToken(
  q: Queryable,
  t: {
    personId: string;
    name: string;
    role?: Role | null;
    ttlMs?: number | null;
    scopes?: string[];
    /** default: the person itself */
    createdBy?: string | null;
  },
): Promise<AccessTokenRecord & { token: string }> {
  const token = generateAccessToken();
  const r = await q.query<AccessTokenRecord>(
    `INSERT INTO access_tokens (name, value, person_id, role, expires_at, scopes, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING id, name, role, expires_at, created_at`,
    [
      t.name,
      hashAccessToken(token),
      t.personId,
      t.role ?? null,
      t.ttlMs ? new Date(Date.now() + t.ttlMs).toISOString() : null,
      t.scopes ?? [],
      t.createdBy === undefined ? t.personId : t.createdBy,
    ],
  );
  return { ...r.rows[0], token };
}

/** Revokes every token of a person (deleted or deactivated: reactivation does not revive them). */
export async function revokeAllTokens(q: Queryable, personId: string): Promise<void> {
  await q.query(`UPDATE access_tokens SET deleted_at = now() WHERE person_id = $1 AND deleted_at IS NULL`, [personId]);
}

const TOKEN_COLUMNS = `id, name, role, expires_at, last_used_at, created_at`;

/** ?limit=&offset= of the token lists */
const pageQuery = z.object({
  limit: queryInt('limit', 1, 1000).transform((n) => n ?? 100),
  offset: queryInt('offset', 0, Number.MAX_SAFE_INTEGER).transform((n) => n ?? 0),
});
type Page = z.output<typeof pageQuery>;

async function listTokens(q: Queryable, personId: string, { limit, offset }: Page): Promise<AccessTokenRecord[]> {
  const r = await q.query<AccessTokenRecord>(
    `SELECT ${TOKEN_COLUMNS} FROM access_tokens
      WHERE person_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
    [personId, limit, offset],
  );
  return r.rows;
}

async function revokeToken(q: Queryable, reply: FastifyReply, personId: string, id: string) {
  const r = await q.query(
    `UPDATE access_tokens SET deleted_at = now() WHERE id = $1 AND person_id = $2 AND deleted_at IS NULL`,
    [id, personId],
  );
  if (r.rowCount === 0) return sendError(reply, 404, 'not_found', 'access token not found');
  return reply.code(204).send();
}

export function tokenRoutes(fastify: FastifyInstance, ctx: AuthContext) {
  const { db } = ctx;
  const app = typed(fastify);

  const create = {
    params: noParams,
    querystring: noQuery,
    body: z.preprocess((b) => b ?? {}, createAccessTokenSchema),
  };
  app.post('/api/auth/tokens', { config: SIGNED_IN, schema: create }, async (req, reply) => {
    const caller = req.caller!;
    // A leaked token must not be able to mint fresh ones: only a signed-in person may.
    if (caller.via === 'token' && !caller.sessionToken) {
      return sendError(reply, 403, 'forbidden', 'Access tokens can only be created from a signed-in session.');
    }
    const { name, expires_in: ttl, role } = req.body;
    if (role && !roleWithin(role, caller.roles)) {
      const allowed = ROLES.filter((r) => roleWithin(r, caller.roles));
      const message = `A token's role cannot be higher than your own: choose one of ${allowed.join(', ')}.`;
      return sendError(reply, 400, 'invalid_body', message, { role: message });
    }
    const issued = await issueAccessToken(db, { personId: caller.person.id, name, role, ttlMs: ttl });
    return reply.code(201).send(issued);
  });

  const list = { params: noParams, querystring: pageQuery };
  app.get('/api/auth/tokens', { config: SIGNED_IN, schema: list }, async (req) =>
    listTokens(db, req.caller!.person.id, req.query),
  );

  const one = { params: idParam, querystring: noQuery, body: noBody };
  app.delete('/api/auth/tokens/:id', { config: SIGNED_IN, schema: one }, async (req, reply) =>
    revokeToken(db, reply, req.caller!.person.id, req.params.id),
  );

  // Administrators see and revoke anyone's tokens (a leaked one, a person leaving); the token
  // values stay unknowable, as for their owners.
  const admin = needs('identities', 'write', { feature: 'settings.users' });
  const personExists = async (id: string) =>
    (await db.query(`SELECT 1 FROM people WHERE id = $1 AND deleted_at IS NULL`, [id])).rows.length > 0;

  const ofUser = { params: idParam, querystring: pageQuery };
  app.get('/api/auth/users/:id/tokens', { config: admin, schema: ofUser }, async (req, reply) => {
    const { id } = req.params;
    if (!(await personExists(id))) return sendError(reply, 404, 'not_found', 'user not found');
    return listTokens(db, id, req.query);
  });

  const userToken = {
    params: z.object({ id: uuidField('id'), tokenId: uuidField('tokenId') }),
    querystring: noQuery,
    body: noBody,
  };
  app.delete('/api/auth/users/:id/tokens/:tokenId', { config: admin, schema: userToken }, async (req, reply) => {
    const { id, tokenId } = req.params;
    if (!(await personExists(id))) return sendError(reply, 404, 'not_found', 'user not found');
    return revokeToken(db, reply, id, tokenId);
  });
}
