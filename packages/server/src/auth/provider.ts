import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';

/**
 * The seam between "who is this browser?" and everything else: the own identity service
 * (own-provider.ts), AUTH=none (none-provider.ts) and an OpenID Connect provider
 * (oidc-provider.ts). Each authenticates from its own cookie and registers its own routes, while
 * bearer access tokens, RBAC, whoami and feature flags stay as they are.
 */
export interface IdentityProvider {
  /** reported by whoami as authMode */
  readonly mode: 'kratos' | 'none' | 'oidc';
  /** The person behind the request's browser credential (bearer tokens are handled before this). */
  authenticate(req: FastifyRequest): Promise<Caller | null>;
  /** Drops callers cached by authenticate (after a change to sessions, people or roles). */
  forgetCallers?(): void;
  /** Registers the provider's own routes (sign-in flows, callbacks) inside an auth-scoped plugin. */
  routes(app: FastifyInstance): Promise<void>;
  /**
   * Ends the request's browser session, if it has one. May answer where the browser goes next
   * (the OpenID Connect provider's logout page), which POST /api/auth/logout passes on.
   */
  logout(req: FastifyRequest, reply: FastifyReply): Promise<string | undefined | void>;
  /** Where a session that still owes its second factor is sent. */
  readonly aal2Redirect: string;
}
