import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.ts';

/**
 * The caller of a request: who it is, which roles it has right now and how it proved it. Every
 * protected route reads `request.caller` (set by the guard); the identity flows resolve it
 * themselves because they are public.
 */
export interface Person {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

export interface Caller {
  via: 'session' | 'token' | 'none';
  person: Person;
  /** effective roles: stored roles, or ['viewer'] when none */
  roles: string[];
  /** the session behind a cookie caller */
  sessionId?: string;
  aal?: 'aal1' | 'aal2';
  /** the access token behind a bearer caller */
  tokenId?: string;
  /**
   * A bearer token that stands for a signed-in session: hosted mode's switch token (scope
   * 'session', organizations/), which the root backend revokes when that session signs out. It
   * may do what only a session may (mint a token, download a kubeconfig) on its organisation's
   * backend, where it is the only way in.
   */
  sessionToken?: boolean;
  /** a password-only session of someone who has a second factor: it must finish aal2 first */
  aal2Required?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the auth guard on protected routes; null on public ones */
    caller: Caller | null;
  }
}

/** The person AUTH=none acts as. A fixed id so created_by columns stay meaningful across restarts. */
export const SYSTEM_PERSON: Person = {
  id: '00000000-0000-0000-0000-00000000000a',
  name: 'System',
  email: null,
  avatar: null,
};

export async function ensureSystemPerson(q: Queryable): Promise<void> {
  await q.query(`INSERT INTO people (id, name, type) VALUES ($1, $2, 'system') ON CONFLICT (id) DO NOTHING`, [
    SYSTEM_PERSON.id,
    SYSTEM_PERSON.name,
  ]);
}

/** Caches the resolution per request: the guard, the flows and handlers may all ask. */
const resolved = new WeakMap<FastifyRequest, Promise<Caller | null>>();

export function memoCaller(req: FastifyRequest, resolve: () => Promise<Caller | null>): Promise<Caller | null> {
  let p = resolved.get(req);
  if (!p) {
    p = resolve();
    resolved.set(req, p);
  }
  return p;
}
