import type { FastifyInstance } from 'fastify';
import { durationToMs } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import { randomToken, sha256 } from './crypto.ts';
import { rolesOf } from './identities.ts';
import type { Caller } from './caller.ts';
import type { AuthContext } from './context.ts';
import { isUuid } from './http.ts';
import { SIGNED_IN } from './guard.ts';

/**
 * Personal access tokens: `Authorization: Bearer <token>` for scripts and the kubeconfig. The
 * token is shown once at creation; access_tokens.value holds its SHA-256 only. A token acts as
 * its owner with the owner's current roles, so demoting a person demotes their tokens too.
 */

const PREFIX = 'wdpat_';

export function generateAccessToken(): string {
  return PREFIX + randomToken(32);
}

export function hashAccessToken(token: string): string {
  return sha256(token);
}

/** Resolves a bearer token to its caller, or null when unknown, revoked, expired or orphaned. */
export async function callerFromToken(q: Queryable, token: string): Promise<Caller | null> {
  const r = await q.query<{
    id: string;
    person_id: string;
    name: string;
    email: string | null;
    avatar: string | null;
    stale: boolean;
  }>(
    `SELECT t.id, t.person_id, p.name, p.email, p.avatar,
            (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS stale
       FROM access_tokens t JOIN people p ON p.id = t.person_id
      WHERE t.value = $1 AND t.deleted_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
        AND p.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.id = p.id AND i.state <> 'active')`,
    [hashAccessToken(token)],
  );
  const row = r.rows[0];
  if (!row) return null;
  // last_used_at is informative: write it at most once a minute, never on the request's path
  if (row.stale) void q.query(`UPDATE access_tokens SET last_used_at = now() WHERE id = $1`, [row.id]).catch(() => {});
  return {
    via: 'token',
    person: { id: row.person_id, name: row.name, email: row.email, avatar: row.avatar },
    roles: await rolesOf(q, row.person_id),
    tokenId: row.id,
  };
}

/** expires_in: seconds as a number, or a duration such as '30d'; absent means no expiry. */
function parseExpiresIn(v: unknown): number | null | 'invalid' {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v * 1000 : 'invalid';
  if (typeof v === 'string') {
    const ms = /^\d+$/.test(v) ? Number(v) * 1000 : durationToMs(v);
    return ms && ms > 0 ? ms : 'invalid';
  }
  return 'invalid';
}

export function tokenRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { db } = ctx;

  app.post('/api/auth/tokens', { config: SIGNED_IN }, async (req, reply) => {
    const caller = req.caller!;
    // A leaked token must not be able to mint fresh ones: only a signed-in person may.
    if (caller.via === 'token') {
      return reply.code(403).send({ message: 'Access tokens can only be created from a signed-in session.' });
    }
    const body = (req.body ?? {}) as { name?: unknown; expires_in?: unknown };
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name || name.length > 200)
      return reply.code(400).send({ message: 'name is required (at most 200 characters)' });
    const ttl = parseExpiresIn(body.expires_in);
    if (ttl === 'invalid')
      return reply.code(400).send({ message: "expires_in must be a number of seconds or a duration such as '30d'" });
    const token = generateAccessToken();
    const r = await db.query<{ id: string; name: string; expires_at: string | null; created_at: string }>(
      `INSERT INTO access_tokens (name, value, person_id, expires_at, created_by) VALUES ($1, $2, $3, $4, $3)
       RETURNING id, name, expires_at, created_at`,
      [name, hashAccessToken(token), caller.person.id, ttl ? new Date(Date.now() + ttl).toISOString() : null],
    );
    return reply.code(201).send({ ...r.rows[0], token });
  });

  app.get('/api/auth/tokens', { config: SIGNED_IN }, async (req) => {
    const q = req.query as { limit?: string; offset?: string };
    const limit = Math.min(Math.max(Number(q.limit) || 100, 1), 1000);
    const offset = Math.max(Number(q.offset) || 0, 0);
    const r = await db.query(
      `SELECT id, name, expires_at, last_used_at, created_at FROM access_tokens
        WHERE person_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC LIMIT $2 OFFSET $3`,
      [req.caller!.person.id, limit, offset],
    );
    return r.rows;
  });

  app.delete('/api/auth/tokens/:id', { config: SIGNED_IN }, async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!isUuid(id)) return reply.code(404).send({ message: 'access token not found' });
    const r = await db.query(
      `UPDATE access_tokens SET deleted_at = now() WHERE id = $1 AND person_id = $2 AND deleted_at IS NULL`,
      [id, req.caller!.person.id],
    );
    if (r.rowCount === 0) return reply.code(404).send({ message: 'access token not found' });
    return reply.code(204).send();
  });
}
