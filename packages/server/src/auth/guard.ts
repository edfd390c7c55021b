/**
 * Route-level access control. A route says what it needs in its `config`:
 *
 *   app.post('/api/x', { config: needs('canaries', 'write', { feature: 'health' }) }, handler)
 *   app.get('/api/about', { config: PUBLIC }, handler)
 *
 * The guard (a preValidation hook on the root instance, so every plugin inherits it, and it runs
 * before a route's schemas are checked) then answers
 *   401                       no caller on a non-public /api route
 *   403 session_aal2_required the caller's session still owes its second factor (as Kratos says it)
 *   404                       the route's feature is disabled (as if the route did not exist)
 *   403                       a required permission is missing, naming resource and action
 * in the app's one error shape (http/errors.ts).
 * Routes outside /api (the web app's files) are public. An /api route that declares nothing
 * still requires a signed-in caller; the start-up log lists such routes so they get a rule.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { can, type Action, type Resource } from '@watchdeck/core';
import type { Caller } from './caller.ts';
import { AuthError } from './errors.ts';
import { errorBody } from '../http/errors.ts';

export interface AccessRule {
  resource: Resource;
  action: Action;
}

/** A rule that is not plain read/write on one resource (e.g. canRunCheck); label names it in 403s. */
export interface CustomRule {
  label: string;
  check: (roles: readonly string[]) => boolean;
}

export interface RouteAuth {
  /** reachable without a caller (health, about, the sign-in flows) */
  public?: boolean;
  /** every rule must hold */
  access?: AccessRule | CustomRule | (AccessRule | CustomRule)[];
  /** the feature flag that switches the route off (core FEATURES) */
  feature?: string;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends RouteAuth {}
}

export const PUBLIC: RouteAuth = { public: true };
/** Any signed-in caller (own tokens, whoami): declared, so it is not reported as forgotten. */
export const SIGNED_IN: RouteAuth = { access: [] };

/** `config: needs('incident', 'write', { feature: 'incidents' })` */
export function needs(resource: Resource, action: Action, extra: Omit<RouteAuth, 'access'> = {}): RouteAuth {
  return { ...extra, access: { resource, action } };
}

export function deniedBy(roles: readonly string[], access: RouteAuth['access']): AccessRule | CustomRule | undefined {
  if (!access) return undefined;
  for (const rule of Array.isArray(access) ? access : [access]) {
    const ok = 'check' in rule ? rule.check(roles) : can(roles, rule.resource, rule.action);
    if (!ok) return rule;
  }
  return undefined;
}

export function forbiddenMessage(rule: AccessRule | CustomRule, extra = ''): string {
  return 'check' in rule
    ? `Forbidden: you are not allowed to ${rule.label}`
    : `Forbidden: ${rule.action} access to ${rule.resource}${extra} is required`;
}

export const UNAUTHENTICATED = { message: 'Authentication required: sign in or send an access token.' };

export function notFoundBody(req: FastifyRequest) {
  return errorBody(404, 'not_found', `Route ${req.method} ${req.url.split('?')[0]} not found`);
}

export interface GuardDeps {
  resolveCaller: (req: FastifyRequest) => Promise<Caller | null>;
  isFeatureDisabled: (feature: string) => Promise<boolean>;
  /** the redirect for a session that still owes its second factor */
  aal2Redirect: string;
}

export function createGuard(deps: GuardDeps) {
  return async function authGuard(req: FastifyRequest, reply: FastifyReply) {
    const url = req.routeOptions.url;
    if (!url) return; // the not-found handler answers for itself
    const cfg = req.routeOptions.config ?? {};
    if (cfg.public || !url.startsWith('/api/')) return;

    const caller = await deps.resolveCaller(req);
    if (!caller) return reply.code(401).send(errorBody(401, 'unauthenticated', UNAUTHENTICATED.message));
    if (caller.aal2Required) {
      return reply
        .code(403)
        .send(new AuthError('session_aal2_required', { redirectBrowserTo: deps.aal2Redirect }).toBody());
    }
    req.caller = caller;

    if (cfg.feature && (await deps.isFeatureDisabled(cfg.feature))) return reply.code(404).send(notFoundBody(req));

    const denied = deniedBy(caller.roles, cfg.access);
    if (denied) {
      return reply.code(403).send({
        ...errorBody(403, 'forbidden', forbiddenMessage(denied)),
        ...('check' in denied ? {} : { resource: denied.resource, action: denied.action }),
      });
    }
  };
}
