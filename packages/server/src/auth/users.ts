import type { FastifyInstance, FastifyReply } from 'fastify';
import { displayedRole, EMAIL_PATTERN, ROLES, USER_FORM_MESSAGES } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import type { AuthContext } from './context.ts';
import { issueLinkToken, INVITE_TTL_MS } from './codes.ts';
import { needs } from './guard.ts';
import { isUuid, publicBase } from './http.ts';
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

/**
 * User administration (settings > users): list, invite, edit, delete. Reading needs identities
 * read, changing needs identities write (admins only, by the matrix). Messages match the web
 * app's user form (seed 002 section 5) so a server-side refusal reads like the client-side one.
 */

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

// the web form's own messages and email pattern (core user-form.ts), so both refuse alike
const FORM_MESSAGES = USER_FORM_MESSAGES;
const EMAIL_RE = EMAIL_PATTERN;

function badRequest(reply: FastifyReply, errors: Record<string, string>) {
  return reply.code(400).send({ message: Object.values(errors)[0], errors });
}

export function userRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { db, config } = ctx;
  const read = needs('identities', 'read', { feature: 'settings.users' });
  const write = needs('identities', 'write', { feature: 'settings.users' });

  app.get('/api/auth/users', { config: read }, async (req) => {
    const q = req.query as { pageIndex?: string; pageSize?: string; search?: string };
    const pageSize = Math.min(Math.max(Number(q.pageSize) || 50, 1), 1000);
    const pageIndex = Math.max(Number(q.pageIndex) || 0, 0);
    const search = q.search?.trim() ? `%${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
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

  app.post('/api/auth/invite_user', { config: write }, async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const firstName = str(b.firstName);
    const lastName = str(b.lastName);
    const email = str(b.email);
    const role = str(b.role);
    const errors: Record<string, string> = {};
    if (!firstName) errors.firstName = FORM_MESSAGES.firstName;
    if (!lastName) errors.lastName = FORM_MESSAGES.lastName;
    if (!email) errors.email = FORM_MESSAGES.email;
    else if (!EMAIL_RE.test(email)) errors.email = FORM_MESSAGES.emailFormat;
    if (!(ROLES as readonly string[]).includes(role)) errors.role = FORM_MESSAGES.role;
    if (Object.keys(errors).length) return badRequest(reply, errors);

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
    if (!result) return reply.code(409).send({ message: 'A user with this email address already exists.' });
    const link = `${publicBase(req, config)}/api/auth/self-service/recovery?flow=${result.flowId}&token=${encodeURIComponent(result.token)}`;
    return reply.code(201).send({ id: result.id, link });
  });

  app.patch('/api/auth/users/:id', { config: write }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const b = (req.body ?? {}) as Record<string, unknown>;
    const user = isUuid(id) ? await loadUser(db, id) : undefined;
    if (!user) return reply.code(404).send({ message: 'user not found' });

    const errors: Record<string, string> = {};
    const pick = (k: string) =>
      b[k] === undefined ? undefined : typeof b[k] === 'string' ? (b[k] as string).trim() : '';
    const firstName = pick('firstName');
    const lastName = pick('lastName');
    const email = pick('email');
    const role = pick('role');
    if (firstName === '') errors.firstName = FORM_MESSAGES.firstName;
    if (lastName === '') errors.lastName = FORM_MESSAGES.lastName;
    if (email === '') errors.email = FORM_MESSAGES.email;
    else if (email !== undefined && !EMAIL_RE.test(email)) errors.email = FORM_MESSAGES.emailFormat;
    if (role !== undefined && !(ROLES as readonly string[]).includes(role)) errors.role = FORM_MESSAGES.role;
    if (b.active !== undefined && typeof b.active !== 'boolean') errors.active = 'active must be true or false';
    if (Object.keys(errors).length) return badRequest(reply, errors);

    const outcome = await db.transaction(async (tx) => {
      if (email !== undefined) {
        const other = await findIdentityByEmail(tx, email);
        if (other && other.id !== id) return 'duplicate' as const;
      }
      const isAdmin = (await storedRoles(tx, id)).includes('admin');
      const losesAdmin = isAdmin && ((role !== undefined && role !== 'admin') || b.active === false);
      if (losesAdmin && (await otherAdmins(tx, id)) === 0) return 'last-admin' as const;

      if (firstName !== undefined || lastName !== undefined || email !== undefined) {
        await updateTraits(tx, id, {
          email: email ?? user.traits.email,
          name: { first: firstName ?? user.traits.name.first, last: lastName ?? user.traits.name.last },
        });
      }
      // one role per person through this form, as the users page shows and edits one role
      if (role !== undefined) await setRoles(tx, id, [role]);
      if (typeof b.active === 'boolean' && (b.active ? 'active' : 'inactive') !== user.state) {
        await tx.query(`UPDATE identities SET state = $2, state_changed_at = now() WHERE id = $1`, [
          id,
          b.active ? 'active' : 'inactive',
        ]);
        // signed out everywhere, and tokens revoked for good: reactivating the account must not
        // bring back a token that may have leaked meanwhile
        if (!b.active) {
          await revokeAllSessions(tx, id);
          await revokeAllTokens(tx, id);
        }
      }
      return 'ok' as const;
    });
    if (outcome === 'duplicate')
      return reply.code(409).send({ message: 'A user with this email address already exists.' });
    if (outcome === 'last-admin')
      return reply.code(409).send({ message: 'At least one active administrator must remain.' });
    return userJson((await loadUser(db, id))!);
  });

  app.delete('/api/auth/users/:id', { config: write }, async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!isUuid(id) || !(await loadUser(db, id))) return reply.code(404).send({ message: 'user not found' });
    if (id === req.caller!.person.id) return reply.code(400).send({ message: 'You cannot delete your own account.' });
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
      return reply.code(409).send({ message: 'At least one active administrator must remain.' });
    return reply.code(204).send();
  });
}
