/**
 * User administration (settings > users): list, invite, edit, delete. Reading needs identities
 * read, changing needs identities write (admins only, by the matrix). Bodies are checked with
 * the web form's own schemas (core user-form.ts, seed 002 section 5), so a server-side refusal
 * reads like the client-side one.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { displayedRole, editUserSchema, idParam, inviteUserSchema } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import type { AuthContext } from './context.ts';
import { issueLinkToken, INVITE_TTL_MS } from './codes.ts';
import { needs } from './guard.ts';
import { publicBase } from './http.ts';
import { noBody, noParams, noQuery, optionalText, queryInt, typed } from '../http/validation.ts';
import {
  createIdentity,
  findIdentityByEmail,
  normaliseEmail,
  setRoles,
  storedRoles,
  updateTraits,
  type Traits,
} from './identities.ts';
import { revokeAllSessions } from './sessions.ts';
import { revokeAllTokens } from './tokens.ts';
import { insertFlow } from './flows/store.ts';
import { sendError } from '../http/errors.ts';

interface UserRow {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
  traits: Traits;
  state: string;
  state_changed_at: string;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  roles: string[];
}

const USER_SELECT = `SELECT p.id, p.name, p.email, p.avatar, i.traits, i.state, i.state_changed_at, i.verified_at,
    i.created_at, i.updated_at, p.last_login, COALESCE(r.roles, '{}') AS roles
  FROM identities i JOIN people p ON p.id = i.id LEFT JOIN people_roles r ON r.id = p.id`;

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

function userJson(u: UserRow) {
  return {
    id: u.id,
    name: { first: u.traits?.name?.first ?? '', last: u.traits?.name?.last ?? '' },
    email: u.traits?.email ?? u.email,
    avatar: u.avatar,
    roles: u.roles,
    role: displayedRole(u.roles),
    state: u.state,
    active: u.state === 'active',
    verified: u.verified_at !== null,
    traits: u.traits,
    last_login: iso(u.last_login),
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    state_changed_at: iso(u.state_changed_at),
  };
}

async function loadUser(q: Queryable, id: string): Promise<UserRow | undefined> {
  const r = await q.query<UserRow>(`${USER_SELECT} WHERE p.id = $1 AND p.deleted_at IS NULL`, [id]);
  return r.rows[0];
}

async function otherAdmins(q: Queryable, exceptId: string): Promise<number> {
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM people_roles r JOIN people p ON p.id = r.id
      LEFT JOIN identities i ON i.id = p.id
      WHERE 'admin' = ANY(r.roles) AND p.id <> $1 AND p.deleted_at IS NULL AND p.type = 'person'
        AND COALESCE(i.state, 'active') = 'active'`,
    [exceptId],
  );
  return r.rows[0].n;
}

/** ?pageIndex=&pageSize=&search= of the users page */
const listQuery = z.object({
  pageIndex: queryInt('pageIndex', 0, 1_000_000).transform((n) => n ?? 0),
  pageSize: queryInt('pageSize', 1, 1000).transform((n) => n ?? 50),
  search: optionalText,
});

/** PATCH: any of the edit form's fields; the ones left out keep their value. */
const editBody = z.preprocess((b) => b ?? {}, editUserSchema.partial());

export function userRoutes(fastify: FastifyInstance, ctx: AuthContext) {
  const { db, config } = ctx;
  const app = typed(fastify);
  const read = needs('identities', 'read', { feature: 'settings.users' });
  const write = needs('identities', 'write', { feature: 'settings.users' });

  const list = { params: noParams, querystring: listQuery };
  app.get('/api/auth/users', { config: read, schema: list }, async (req) => {
    const { pageSize, pageIndex } = req.query;
    const search = req.query.search ? `%${req.query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = `WHERE p.deleted_at IS NULL AND ($1::text IS NULL OR p.name ILIKE $1 OR i.traits->>'email' ILIKE $1)`;
    const r = await db.query<UserRow>(`${USER_SELECT} ${where} ORDER BY lower(p.name), p.id LIMIT $2 OFFSET $3`, [
      search,
      pageSize,
      pageIndex * pageSize,
    ]);
    const count = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM identities i JOIN people p ON p.id = i.id ${where}`,
      [search],
    );
    const total = count.rows[0].n;
    return { data: r.rows.map(userJson), totalEntries: total };
  });

  const invite = { params: noParams, querystring: noQuery, body: z.preprocess((b) => b ?? {}, inviteUserSchema) };
  app.post('/api/auth/invite_user', { config: write, schema: invite }, async (req, reply) => {
    const { firstName, lastName, email, role } = req.body;
    const result = await db.transaction(async (tx) => {
      if (await findIdentityByEmail(tx, email)) return undefined;
      const identity = await createIdentity(tx, {
        traits: { email, name: { first: firstName, last: lastName } },
        roles: [role],
      });
      // The invitation is a recovery link: following it signs the invitee in and opens the
      // settings page, where they choose a password.
      const flow = await insertFlow(tx, {
        type: 'recovery',
        identityId: identity.id,
        state: 'sent_email',
        ttlMs: INVITE_TTL_MS,
      });
      const token = await issueLinkToken(tx, {
        flowId: flow.id,
        identityId: identity.id,
        type: 'recovery',
        address: normaliseEmail(email),
      });
      return { id: identity.id, flowId: flow.id, token };
    });
    if (!result) return sendError(reply, 409, 'conflict', 'A user with this email address already exists.');
    const link = `${publicBase(req, config)}/api/auth/self-service/recovery?flow=${result.flowId}&token=${encodeURIComponent(result.token)}`;
    return reply.code(201).send({ id: result.id, link });
  });

  const edit = { params: idParam, querystring: noQuery, body: editBody };
  app.patch('/api/auth/users/:id', { config: write, schema: edit }, async (req, reply) => {
    const { id } = req.params;
    const { firstName, lastName, email, role, active } = req.body;
    const user = await loadUser(db, id);
    if (!user) return sendError(reply, 404, 'not_found', 'user not found');

    const outcome = await db.transaction(async (tx) => {
      if (email !== undefined) {
        const other = await findIdentityByEmail(tx, email);
        if (other && other.id !== id) return 'duplicate' as const;
      }
      const isAdmin = (await storedRoles(tx, id)).includes('admin');
      const losesAdmin = isAdmin && ((role !== undefined && role !== 'admin') || active === false);
      if (losesAdmin && (await otherAdmins(tx, id)) === 0) return 'last-admin' as const;

      if (firstName !== undefined || lastName !== undefined || email !== undefined) {
        await updateTraits(tx, id, {
          email: email ?? user.traits.email,
          name: { first: firstName ?? user.traits.name.first, last: lastName ?? user.traits.name.last },
        });
      }
      // one role per person through this form, as the users page shows and edits one role
      if (role !== undefined) await setRoles(tx, id, [role]);
      if (active !== undefined && (active ? 'active' : 'inactive') !== user.state) {
        await tx.query(`UPDATE identities SET state = $2, state_changed_at = now() WHERE id = $1`, [
          id,
          active ? 'active' : 'inactive',
        ]);
        // signed out everywhere, and tokens revoked for good: reactivating the account must not
        // bring back a token that may have leaked meanwhile
        if (!active) {
          await revokeAllSessions(tx, id);
          await revokeAllTokens(tx, id);
        }
      }
      return 'ok' as const;
    });
    if (outcome === 'duplicate')
      return sendError(reply, 409, 'conflict', 'A user with this email address already exists.');
    if (outcome === 'last-admin')
      return sendError(reply, 409, 'conflict', 'At least one active administrator must remain.');
    return userJson((await loadUser(db, id))!);
  });

  const one = { params: idParam, querystring: noQuery, body: noBody };
  app.delete('/api/auth/users/:id', { config: write, schema: one }, async (req, reply) => {
    const { id } = req.params;
    if (!(await loadUser(db, id))) return sendError(reply, 404, 'not_found', 'user not found');
    if (id === req.caller!.person.id)
      return sendError(reply, 400, 'bad_request', 'You cannot delete your own account.');
    const outcome = await db.transaction(async (tx) => {
      if ((await storedRoles(tx, id)).includes('admin') && (await otherAdmins(tx, id)) === 0)
        return 'last-admin' as const;
      // soft delete: history keeps pointing at the person; signing in and tokens stop at once
      await tx.query(`UPDATE people SET deleted_at = now() WHERE id = $1`, [id]);
      await tx.query(`UPDATE identities SET state = 'inactive', state_changed_at = now() WHERE id = $1`, [id]);
      await revokeAllSessions(tx, id);
      await revokeAllTokens(tx, id);
      return 'ok' as const;
    });
    if (outcome === 'last-admin')
      return sendError(reply, 409, 'conflict', 'At least one active administrator must remain.');
    return reply.code(204).send();
  });
}
