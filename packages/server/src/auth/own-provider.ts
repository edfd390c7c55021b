import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Queryable } from '../db/index.ts';
import type { AuthContext } from './context.ts';
import { effectiveRoles } from '@watchdeck/core';
import type { Caller } from './caller.ts';
import { AuthError, loadFlowError } from './errors.ts';
import { checkReturnTo, clearSessionCookie, isUuid, SESSION_COOKIE, wantsHtml } from './http.ts';
import {
  findSessionContext,
  issueLogoutToken,
  revokeByLogoutToken,
  revokeSession,
  sessionJson,
  type SessionContext,
} from './sessions.ts';
import type { IdentityProvider } from './provider.ts';
import { browserUrl, flowRoutes, type CurrentSession } from './flows/engine.ts';
import { loginKind } from './flows/login.ts';
import { registrationKind } from './flows/registration.ts';
import { recoveryKind, recoveryLinkRoute } from './flows/recovery.ts';
import { verificationKind } from './flows/verification.ts';
import { settingsKind } from './flows/settings.ts';

/**
 * The own identity service (Kratos-like; the seeds' "own identity service mode"): self-service
 * flows under /api/auth/self-service, sessions in an HTTP-only cookie. See auth/README.md.
 */
const CALLER_CACHE_MS = 1000;
const CALLER_CACHE_MAX = 10_000;

export function ownProvider(ctx: AuthContext): IdentityProvider {
  const { db, config } = ctx;
  const memo = new WeakMap<FastifyRequest, Promise<(CurrentSession & { ctx: SessionContext }) | null>>();

  /** The request's cookie session with its identity, whatever its assurance level. */
  const sessionContext = (req: FastifyRequest) => {
    let p = memo.get(req);
    if (!p) {
      p = (async () => {
        const token = req.cookies?.[SESSION_COOKIE];
        const c = token ? await findSessionContext(db, token) : undefined;
        if (!c) return null;
        return {
          session: c.session,
          identity: c.identity,
          needsAal2: c.session.aal !== 'aal2' && c.hasSecondFactor,
          ctx: c,
        };
      })();
      memo.set(req, p);
    }
    return p;
  };
  const currentSession = (req: FastifyRequest): Promise<CurrentSession | null> => sessionContext(req);

  const aal2Redirect = browserUrl('login', { aal: 'aal2' });

  // The caller of a session cookie, cached for a second: an API request then costs no session
  // query when a screen fires several at once, and a revoked session or changed role takes
  // effect within CALLER_CACHE_MS everywhere (at once in this process: see forgetCallers).
  const callers = new Map<string, { caller: Caller | null; until: number }>();

  return {
    mode: 'kratos',
    aal2Redirect,

    async authenticate(req): Promise<Caller | null> {
      const token = req.cookies?.[SESSION_COOKIE];
      if (!token) return null;
      const hit = callers.get(token);
      if (hit && hit.until > Date.now()) return hit.caller;
      const caller = await callerFromSession(req);
      if (callers.size >= CALLER_CACHE_MAX) callers.clear();
      callers.set(token, { caller, until: Date.now() + CALLER_CACHE_MS });
      return caller;
    },

    forgetCallers() {
      callers.clear();
    },

    async logout(req, reply) {
      const cur = await currentSession(req);
      if (cur) await revokeSession(db, cur.session.id);
      callers.clear();
      clearSessionCookie(reply, req, config);
    },

    async routes(app) {
      await providerRoutes(app);
    },
  };

  async function callerFromSession(req: FastifyRequest): Promise<Caller | null> {
    const cur = await sessionContext(req);
    if (!cur) return null;
    return {
      via: 'session',
      person: cur.ctx.person,
      roles: effectiveRoles(cur.ctx.storedRoles),
      sessionId: cur.session.id,
      aal: cur.session.aal,
      aal2Required: cur.needsAal2,
    };
  }

  async function providerRoutes(app: FastifyInstance) {
    // Brute-force brake on form submissions, scoped to this plugin only.
    await app.register(rateLimit, { global: false });
    // Forms posted without JavaScript arrive urlencoded.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    flowRoutes(app, {
      ctx,
      kinds: [loginKind, registrationKind, recoveryKind, verificationKind, settingsKind],
      currentSession,
      extraRoutes: (scope, make) => recoveryLinkRoute(scope, make),
    });

    // Kratos-style session check: 401 signed out, 403 second factor owed, else the session.
    app.get('/api/auth/sessions/whoami', async (req, reply) => {
      const cur = await currentSession(req);
      if (!cur) return reply.code(401).send(new AuthError('session_inactive').toBody());
      if (cur.needsAal2)
        return reply
          .code(403)
          .send(new AuthError('session_aal2_required', { redirectBrowserTo: aal2Redirect }).toBody());
      return sessionJson(db, cur.session, cur.identity);
    });

    // Logout flow: a token first (so a cross-site link cannot sign anyone out), then its use.
    app.get('/api/auth/self-service/logout/browser', async (req, reply) => {
      const cur = await currentSession(req);
      if (!cur) return reply.code(401).send(new AuthError('session_inactive').toBody());
      const token = await issueLogoutToken(db, cur.session.id);
      return { logout_token: token, logout_url: `/api/auth/self-service/logout?token=${encodeURIComponent(token)}` };
    });
    app.get('/api/auth/self-service/logout', async (req: FastifyRequest, reply: FastifyReply) => {
      const { token, return_to } = req.query as { token?: string; return_to?: string };
      const returnTo = checkReturnTo(return_to, req, config) ?? '/login';
      if (!token || !(await revokeByLogoutToken(db, token))) {
        return reply
          .code(401)
          .send(new AuthError('session_inactive', { reason: 'The logout token is not valid.' }).toBody());
      }
      clearSessionCookie(reply, req, config);
      return wantsHtml(req) ? reply.redirect(returnTo, 303) : reply.code(204).send();
    });

    errorRoutes(app, db);
  }
}

/** Stored flow errors for the error page (also under the Kratos path); the OIDC provider's too. */
export function errorRoutes(app: FastifyInstance, db: Queryable) {
  const errorById = async (id: unknown, reply: FastifyReply) => {
    const found = isUuid(id) ? await loadFlowError(db, id) : undefined;
    if (!found) return reply.code(404).send({ message: 'flow error not found' });
    return found;
  };
  app.get('/api/auth/errors/:id', async (req, reply) => errorById((req.params as { id: string }).id, reply));
  app.get('/api/auth/self-service/errors', async (req, reply) => errorById((req.query as { id?: string }).id, reply));
}
