import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { permissionsOf, type Whoami } from '@watchdeck/core';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { ExposedTables } from '../db/exposed.ts';
import type { Mailer } from '../mail/index.ts';
import { createPropertiesService, propertiesRoutes, type PropertiesService } from '../properties/index.ts';
import { createTableAuthorizer } from './authorize-table.ts';
import { ensureSystemPerson, memoCaller, type Caller } from './caller.ts';
import type { AuthContext } from './context.ts';
import { createGuard, PUBLIC, SIGNED_IN, type RouteAuth } from './guard.ts';
import { noneProvider } from './none-provider.ts';
import { ownProvider } from './own-provider.ts';
import type { IdentityProvider } from './provider.ts';
import { pruneExpired } from './sessions.ts';
import { sealPlainTotpSecrets, type SecretSealer } from './secrets-at-rest.ts';
import { callerFromToken, tokenRoutes } from './tokens.ts';
import { userRoutes } from './users.ts';
import { noInput, noReadInput, typed } from '../http/validation.ts';

export { needs, notFoundBody, PUBLIC, SIGNED_IN, type RouteAuth, type AccessRule, type CustomRule } from './guard.ts';
export type { Caller } from './caller.ts';
export { ensureFirstAdmin } from './first-run.ts';
export { registerBrowserProtections } from './browser-protections.ts';
export { redactUrl } from './http.ts';

/**
 * Identity and access for the whole app. Call it first in buildApp, before any other route: it
 * installs the cookie parser, the guard every later route inherits, the identity provider's
 * routes, whoami, access tokens, user administration and GET /api/properties.
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
  properties: PropertiesService;
  provider: IdentityProvider;
  resolveCaller(req: FastifyRequest): Promise<Caller | null>;
}

const PRUNE_EVERY_MS = 60 * 60_000;

export async function registerAuth(
  app: FastifyInstance,
  deps: { config: Config; db: Db; exposed: ExposedTables; box: SecretSealer; mailer: Mailer },
): Promise<AuthSetup> {
  const { config, db, box } = deps;
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
  const properties = createPropertiesService(db, config.localProperties);
  const provider = config.authMode === 'none' ? noneProvider() : ownProvider(ctx);
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

  // A write that may change who someone is or what they may do (identity flows, user and role
  // routes, people tables) drops the provider's cached callers.
  app.addHook('onResponse', (req, _reply, done) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const url = req.url;
      if (
        url.startsWith('/api/auth') ||
        url.startsWith('/api/db/people') ||
        url.startsWith('/api/db/identit') ||
        url.startsWith('/api/db/team')
      )
        provider.forgetCallers?.();
    }
    done();
  });

  // The provider's routes are all public: they are how one becomes a caller.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      // mutate in place: the object is the one the guard and the start-up check read later
      route.config = Object.assign(route.config ?? {}, { public: true });
    });
    await provider.routes(scope);
  });

  typed(app).post('/api/auth/logout', { config: PUBLIC, schema: noInput }, async (req, reply) => {
    await provider.logout(req, reply);
    return reply.code(204).send();
  });

  typed(app).get('/api/auth/whoami', { config: SIGNED_IN, schema: noReadInput }, async (req): Promise<Whoami> => {
    const c = req.caller!;
    return {
      user: { id: c.person.id, name: c.person.name, email: c.person.email, avatar: c.person.avatar },
      roles: c.roles,
      permissions: permissionsOf(c.roles),
      authMode: provider.mode,
    };
  });

  tokenRoutes(app, ctx);
  userRoutes(app, ctx);
  propertiesRoutes(app, properties, async (req) => (await resolveCaller(req).catch(() => null)) !== null);

  const prune = () => void pruneExpired(db).catch((err) => app.log.warn({ err }, 'auth: pruning failed'));
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  // and once at start: a server restarted more often than hourly would otherwise never prune
  app.addHook('onReady', async () => prune());
  app.addHook('onClose', async () => clearInterval(timer));

  return {
    authorizeTable: createTableAuthorizer({ exposed: deps.exposed, isFeatureDisabled: properties.isDisabled }),
    properties,
    provider,
    resolveCaller,
  };
}
