import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';

/**
 * The seam between "who is this browser?" and everything else. The own identity service
 * (own-provider.ts) is the one implementation today, AUTH=none the trivial one; the hosted mode
 * (OpenID Connect organisations) will be another: it authenticates from its own cookie or JWT
 * and registers its callback routes, while bearer access tokens, RBAC, whoami and feature flags
 * stay as they are.
 */
export interface IdentityProvider {
  /** reported by whoami as authMode */
  readonly mode: 'kratos' | 'none';
  /** The person behind the request's browser credential (bearer tokens are handled before this). */
  authenticate(req: FastifyRequest): Promise<Caller | null>;
  /** Drops callers cached by authenticate (after a change to sessions, people or roles). */
  forgetCallers?(): void;
  /** Registers the provider's own routes (sign-in flows, callbacks) inside an auth-scoped plugin. */
  routes(app: FastifyInstance): Promise<void>;
  /** Ends the request's browser session, if it has one. */
  logout(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Where a session that still owes its second factor is sent. */
  readonly aal2Redirect: string;
}
