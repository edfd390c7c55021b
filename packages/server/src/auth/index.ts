import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { permissionsOf, type Whoami } from '@watchdeck/core';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { ExposedTables } from '../db/exposed.ts';
import type { Mailer } from '../mail/index.ts';
import type { WriteRegistration } from '../pgrest/index.ts';
import type { PropertiesService } from '../properties/index.ts';
import { createTableAuthorizer } from './authorize-table.ts';
import { ensureSystemPerson, memoCaller, type Caller } from './caller.ts';
import type { AuthContext } from './context.ts';
import { createGuard, PUBLIC, SIGNED_IN, type RouteAuth } from './guard.ts';
import { bearerOnlyProvider } from './bearer-only-provider.ts';
import { noneProvider } from './none-provider.ts';
import { oidcProvider } from './oidc-provider.ts';
import { ownProvider } from './own-provider.ts';
import type { IdentityProvider } from './provider.ts';
import { pruneExpired } from './sessions.ts';
import { sealPlainTotpSecrets, type SecretSealer } from './secrets-at-rest.ts';
import { callerFromToken, tokenRoutes } from './tokens.ts';
import { userRoutes } from './users.ts';
import { noInput, noReadInput, typed } from '../http/validation.ts';
import { publicBase } from './http.ts';

export { needs, notFoundBody, PUBLIC, SIGNED_IN } from './guard.ts';
export { registerBrowserProtections } from './browser-protections.ts';
export { publicBase, redactUrl } from './http.ts';
export { hashAccessToken, issueAccessToken } from './tokens.ts';
export type { Caller } from './caller.ts';

/**
 * Identity and access for the whole app. Call it first in buildApp, before any other route: it
 * installs the cookie parser, the guard every later route inherits, the identity provider's
 * routes, whoami, access tokens and user administration.
 */
export interface DeclaredRoute {
  method: string | string[];
  url: string;
  config: RouteAuth;
  /** the request schemas the route declared (http/validation.ts), for the route-walk test */
  schema?: { params?: unknown; querystring?: unknown; body?: unknown };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** every route registered after registerAuth, with the access rule the guard applies */
    declaredRoutes: readonly DeclaredRoute[];
  }
}

export interface AuthSetup {
  /** pass to restPlugin as `authorize` */
  authorizeTable: ReturnType<typeof createTableAuthorizer>;
  provider: IdentityProvider;
  resolveCaller(req: FastifyRequest): Promise<Caller | null>;
  /** pass to restPlugin with the other areas' `writes` */
  writes: readonly WriteRegistration[];
  /**
   * Called after POST /api/auth/logout ended a browser session, before it answers: what other
   * areas handed out on the strength of that session ends with it (hosted mode's organisation
   * tokens). A listener's failure is logged; the sign-out stands.
   */
  onSignOut(listener: SignOutListener): void;
}

export type SignOutListener = (ended: { personId: string; sessionId: string | null }) => Promise<void>;

/**
 * The tables /api/db may write that say who someone is or what they may do (roles; teams and
 * their members and components). `people` and `identities` are read-only there: the users routes
 * write them, under the identity routes' own cache drop.
 */
const CALLER_TABLES = ['people_roles', 'teams', 'team_members', 'team_components'];

const PRUNE_EVERY_MS = 60 * 60_000;

export async function registerAuth(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    exposed: ExposedTables;
    box: SecretSealer;
    mailer: Mailer;
    /** the feature flags: a disabled feature's routes and tables answer 404 */
    properties: PropertiesService;
  },
): Promise<AuthSetup> {
  const { config, db, box, properties } = deps;
  if (!app.hasDecorator('parseCookie')) await app.register(fastifyCookie);
  app.decorateRequest('caller', null);

  const ctx: AuthContext = {
    db,
    config,
    log: app.log,
    mailer: deps.mailer,
    box,
  };
  await sealPlainTotpSecrets(db, box, app.log);
  // an organisation's backend (hosted mode) takes the bearer tokens of the root's switch only
  const provider =
    config.organization && config.authMode !== 'none'
      ? bearerOnlyProvider(config.authMode)
      : config.authMode === 'none'
        ? noneProvider()
        : config.authMode === 'oidc'
          ? oidcProvider(ctx)
          : ownProvider(ctx);
  if (config.authMode === 'none') {
    await ensureSystemPerson(db);
    app.log.warn('AUTH=none: sign-in is off and every request acts as an administrator');
  }

  // Bearer tokens first (scripts, agents), then the provider's browser credential.
  const resolveCaller = (req: FastifyRequest) =>
    memoCaller(req, async () => {
      if (config.authMode === 'none') return provider.authenticate(req);
      const auth = req.headers.authorization;
      if (auth?.toLowerCase().startsWith('bearer ')) return callerFromToken(db, auth.slice(7).trim());
      return provider.authenticate(req);
    });

  // preValidation: before the request's schemas are checked, so a caller who may not use a
  // route gets 401/403/404, never a 400 describing what the route accepts.
  app.addHook(
    'preValidation',
    createGuard({ resolveCaller, isFeatureDisabled: properties.isDisabled, aal2Redirect: provider.aal2Redirect }),
  );

  // Every route with its access rule, for the role-matrix tests: they walk this list so a new
  // route is checked against the matrix without anyone adding it to a test by hand.
  const declared: DeclaredRoute[] = [];
  const signOutListeners: SignOutListener[] = [];
  app.decorate('declaredRoutes', declared);

  // An /api route without a rule still needs a caller, but it should say what it needs: list
  // such routes once at start-up so they get one.
  // Hooks of child scopes may still add a rule (the provider marks its routes public), so the
  // routes are judged once everything is registered.
  const seen: { method: string | string[]; url: string; config?: unknown }[] = [];
  app.addHook('onRoute', (route) => {
    seen.push(route);
    // route.config is the object the guard reads later (child scopes may still mutate it)
    declared.push({
      method: route.method,
      url: route.url,
      config: (route.config ??= {}) as RouteAuth,
      schema: route.schema as DeclaredRoute['schema'],
    });
  });
  app.addHook('onReady', async () => {
    const undeclared = seen
      .filter((r) => {
        const cfg = (r.config ?? {}) as { public?: boolean; access?: unknown };
        const methods = [r.method].flat();
        return (
          r.url.startsWith('/api/') &&
          !r.url.startsWith('/api/db') &&
          !cfg.public &&
          !cfg.access &&
          !methods.every((m) => m === 'HEAD')
        );
      })
      .map((r) => `${[r.method].flat().join(',')} ${r.url}`);
    seen.length = 0;
    if (undeclared.length)
      app.log.warn({ routes: undeclared }, 'auth: routes without an access rule; any signed-in caller may use them');
  });

  // The identity routes (/api/auth/...): sign-in flows, logout, whoami, tokens, users. Any write
  // among them may change who someone is or what they may do, so it drops the provider's cached
  // callers (writes to the people tables through /api/db do so through `writes` below).
  await app.register(async (identity) => {
    identity.addHook('onResponse', (req, _reply, done) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') provider.forgetCallers?.();
      done();
    });

    // The provider's routes are all public: they are how one becomes a caller.
    await identity.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        // mutate in place: the object is the one the guard and the start-up check read later
        route.config = Object.assign(route.config ?? {}, { public: true });
      });
      await provider.routes(scope);
    });

    typed(identity).post('/api/auth/logout', { config: PUBLIC, schema: noInput }, async (req, reply) => {
      // who is signing out, read before the session ends (a bearer caller has no session to end)
      const caller = await resolveCaller(req).catch(() => null);
      const next = await provider.logout(req, reply);
      if (caller?.via === 'session') {
        const ended = { personId: caller.person.id, sessionId: caller.sessionId ?? null };
        for (const listener of signOutListeners)
          await listener(ended).catch((err: unknown) => req.log.warn({ err }, 'auth: a sign-out listener failed'));
      }
      // AUTH=oidc: the provider's logout page ends its session too; the browser goes there next
      if (next) return reply.code(200).send({ redirect_browser_to: next });
      return reply.code(204).send();
    });

    typed(identity).get(
      '/api/auth/whoami',
      { config: SIGNED_IN, schema: noReadInput },
      async (req): Promise<Whoami> => {
        const c = req.caller!;
        return {
          user: { id: c.person.id, name: c.person.name, email: c.person.email, avatar: c.person.avatar },
          roles: c.roles,
          permissions: permissionsOf(c.roles),
          authMode: provider.mode,
          // an organisation's backend (hosted mode, organizations/): which one, and where it answers
          ...(config.organization
            ? {
                organization: config.organization.slug,
                backendUrl: publicBase(req, config) + config.organization.prefix,
              }
            : {}),
          ...(config.hosted.enabled ? { hosted: true } : {}),
        };
      },
    );

    tokenRoutes(identity, ctx);
    userRoutes(identity, ctx);
  });

  const prune = () => void pruneExpired(db).catch((err) => app.log.warn({ err }, 'auth: pruning failed'));
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  // and once at start: a server restarted more often than hourly would otherwise never prune
  app.addHook('onReady', async () => prune());
  app.addHook('onClose', async () => clearInterval(timer));

  return {
    authorizeTable: createTableAuthorizer({ exposed: deps.exposed, isFeatureDisabled: properties.isDisabled }),
    provider,
    resolveCaller,
    // a committed write to them drops the cached callers before it is answered, so the change
    // applies to the very next request
    writes: CALLER_TABLES.map((table) => ({ table, afterCommit: () => provider.forgetCallers?.() })),
    onSignOut: (listener) => void signOutListeners.push(listener),
  };
}
