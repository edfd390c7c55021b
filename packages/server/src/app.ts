import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import { registerErrorHandler } from './http/errors.ts';
import { noReadInput, typed, zodValidatorCompiler } from './http/validation.ts';
import { version } from './version.ts';
import { restPlugin } from './pgrest/index.ts';
import { exposedTables } from './db/exposed.ts';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './pgrest/limits.ts';
import { registerAuth, registerBrowserProtections, redactUrl, notFoundBody, PUBLIC } from './auth/index.ts';
import { createEngines, type Engines } from './jobs/index.ts';
import { createMailer } from './mail/index.ts';
import { connectionRoutes } from './connections/routes.ts';
import { SecretBox } from './connections/secret-box.ts';
import { resolveSecretKey } from './connections/secret-key.ts';
import { connectionWrites } from './connections/index.ts';
import { createPropertiesService, propertiesRoutes } from './properties/index.ts';
import { propertyWriteRoutes } from './properties/routes.ts';
import { registerSettings, settingsWrites } from './settings/index.ts';
import { registerHealth } from './health/index.ts';
import { incidentWrites, registerIncidents } from './incidents/index.ts';
import { catalogWrites, registerCatalog } from './catalog/index.ts';
import { registerTopologyEngine, topologyWrites } from './topology/index.ts';
import { registerTopologyRoutes } from './topology/routes.ts';
import { demoFileRoots, demoGitopsJobSource, demoGitopsRepo } from './demo/gitops.ts';
import { demoCheckRoots } from './demo/health.ts';
import { setCheckRoots } from './git/index.ts';
import { playbookWrites, registerPlaybooks } from './playbooks/index.ts';
import { logsDir, registerLogs } from './logs/index.ts';
import { startDemoLogs } from './demo/logs.ts';
import { notificationWrites, registerNotifications } from './notifications/index.ts';
import { agentWrites, registerAgents } from './agents/index.ts';
import { createSandbox, type Sandbox } from './sandbox/index.ts';
import { registerKube } from './kube/index.ts';
import { createMetrics, metricsRoutes, openApiRoutes, registerProbes } from './metrics/index.ts';
import { setOutboundDeny } from './http/outbound.ts';
import { registerOrganizations } from './organizations/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** scheduler and event queue; started by main.ts when this process runs the engines */
    engines: Engines & { start(): Promise<void> };
    /** runs scripts isolated from the server (exec checks; playbook actions) */
    sandbox: Sandbox;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** where log lines go (default: JSON lines on stdout); main.ts formats them for a terminal, tests capture them */
  logStream?: { write(line: string): unknown };
}

/** What the request serializer reads of a Fastify request. */
interface SerializedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

const defaultWebDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
/** The repository (or installed package tree) this server runs from. */
const installDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Builds the HTTP app from the area modules. Nothing listens until the caller says so. */
export async function buildApp({ config, db, logStream }: AppDeps): Promise<FastifyInstance> {
  setOutboundDeny(config.outboundDeny);
  // folder checks read only here (git/roots.ts); the demo's folder check watches the shipped migrations
  setCheckRoots([join(config.dataDir, 'checks'), ...config.checkRoots, ...(config.demoData ? demoCheckRoots() : [])]);
  const hops = config.trustProxy;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // Fastify's request serializer with secret query values (invitation tokens, flow ids,
            // logout tokens) redacted; remoteAddress is the forwarded client behind a trusted proxy.
            serializers: {
              req: (req: SerializedRequest) => ({
                method: req.method,
                url: redactUrl(req.url),
                host: req.host,
                remoteAddress: req.ip,
                remotePort: req.socket?.remotePort,
              }),
            },
            // Fastify's own lines that quote a URL (e.g. 'Route GET:/... not found')
            hooks: {
              logMethod(args, method) {
                for (let i = 0; i < args.length; i++) {
                  if (typeof args[i] === 'string') args[i] = redactUrl(args[i] as string);
                }
                return method.apply(this, args);
              },
            },
            ...(logStream ? { stream: logStream } : {}),
          },
    // WATCHDECK_TRUST_PROXY: whose X-Forwarded-* to believe (client address, protocol, host)
    // (a hop count as the function Fastify makes of it: its types list no number)
    trustProxy: typeof hops === 'number' ? (_addr: string, i: number) => i < hops : hops,
    // Keep-alive sockets that are idle are closed on shutdown; busy ones finish their request.
    forceCloseConnections: 'idle',
    bodyLimit: 10 * 1024 * 1024,
    // PostgREST filters repeat keys and use characters Fastify's default parser is fine with;
    // the engine re-parses the raw query string itself.
    routerOptions: { maxParamLength: 500 },
  });

  // Origin/content-type check of state-changing requests and the framing/sniffing/referrer
  // headers, before any route (auth/browser-protections.ts).
  registerBrowserProtections(app, config);

  // JSON bodies: Fastify's parser, with two differences. An empty body is no body: a script
  // without a token marks a body-less write as JSON to pass the browser protections, and the
  // default parser answers that with 400. A body nested past reason is refused before it is
  // parsed (the areas re-serialise bodies; JSON.stringify of a deep document overflows the stack).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    if (nestedDeeperThan(text)) {
      const err = Object.assign(new Error(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`), {
        statusCode: 400,
      });
      return done(err, undefined);
    }
    return parseJson(req, text, done);
  });

  // One error shape for every route (http/errors.ts); request parts are checked by the zod
  // schemas routes declare (http/validation.ts).
  registerErrorHandler(app);
  app.setValidatorCompiler(zodValidatorCompiler);

  // Prometheus metrics (metrics/README.md): the engines, the health engine and /api/db report to it.
  // WATCHDECK_METRICS=false: no /metrics and nothing measured per request
  const metrics = config.metrics.enabled ? createMetrics(db) : undefined;
  const engines = createEngines(db, app.log, {
    workers: config.workers,
    jobHistoryRetentionDays: config.jobHistoryRetentionDays,
    vacuumIntervalMs: config.pgliteVacuumIntervalMs,
    onSchedulerLag: metrics?.schedulerLag,
  });
  metrics?.attach(app, engines);
  app.decorate('engines', engines);
  // Background work stops before the database closes (main.ts closes it after app.close()).
  app.addHook('onClose', async () => engines.stop());
  // Node's server.close() drops only the keep-alive sockets that are idle at that instant; a
  // request still in flight would keep its socket open afterwards and hold close() forever.
  // While closing, every response tells the client to hang up.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Connection secrets and TOTP secrets (auth) are encrypted with the same key.
  const box = new SecretBox(resolveSecretKey(config, (msg) => app.log.warn(msg)));
  // One mailer for account and incident emails (SMTP_URL, else the log).
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom }, app.log);
  app.addHook('onClose', async () => mailer.close());

  // Feature flags: the database's, overlaid by WATCHDECK_PROPERTIES; the guard reads them.
  const properties = createPropertiesService(db, config.localProperties);

  // First: sessions and the access guard every later route inherits (auth/README.md).
  const auth = await registerAuth(app, { config, db, exposed: exposedTables, box, mailer, properties });

  // The flag routes: anonymous callers read the '*.disable' flags (the web app needs them before
  // sign-in), writes need the properties permission (properties/).
  propertiesRoutes(app, properties, async (req) => (await auth.resolveCaller(req).catch(() => null)) !== null);
  propertyWriteRoutes(app, { db, properties, local: config.localProperties });

  typed(app).get('/api/about', { config: PUBLIC, schema: noReadInput }, async () => ({ Version: version }));

  typed(app).get('/api/health', { config: PUBLIC, schema: noReadInput }, async (_req, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok', database: 'reachable' };
    } catch (err) {
      // public route: the driver's text (hosts, users, paths) goes to the log only
      app.log.warn({ err }, 'health probe: database unreachable');
      return reply.code(503).send({ status: 'error', database: 'unreachable' });
    }
  });

  // Orchestrators' probes: live (the process answers), ready (database, migrations, engines, not draining).
  registerProbes(app, { db, engines, runsEngines: config.role !== 'api' });
  if (metrics) metricsRoutes(app, { db, metrics, ...config.metrics });
  // the API described from the route schemas (OpenAPI 3.1)
  openApiRoutes(app, version);

  // Scripts never see the data directory (PGlite files, secret.key), the files secrets came from or
  // the installation: none is mounted, and each is masked should it lie under /usr or /etc.
  const sandbox = createSandbox({
    bwrap: config.sandbox.bwrap,
    limits: config.sandbox,
    hide: [...(config.dataDir === 'memory://' ? [] : [config.dataDir]), ...config.secretFiles, installDir],
  });
  app.decorate('sandbox', sandbox);
  // Probed now so a missing bubblewrap shows in the log at start, not at the first exec check.
  void sandbox.probe().then((s) => {
    if (!s.available)
      app.log.warn(
        `exec checks and scripts will be refused: script isolation unavailable (${s.reason}); install bubblewrap`,
      );
  });
  await app.register(connectionRoutes, { db, box });

  registerHealth(app, {
    db,
    box,
    retentionDays: config.checkStatusRetentionDays,
    summaryCacheTtlMs: config.summaryCacheTtlMs,
    engine: { sandbox, onRun: metrics?.checkRun },
  });
  registerIncidents(app, { db, box, mailer, config });
  registerCatalog(app, {
    db,
    box,
    dataDir: config.dataDir,
    // the demo's scrapers read the sources shipped in the repository and the demo's git repository
    fileRoots: [...config.scrapeRoots, ...(config.demoData ? demoFileRoots(demoGitopsRepo(config.dataDir)) : [])],
  });
  registerTopologyEngine(app, { db, box });
  registerTopologyRoutes(app, { db });
  // the demo's git repository gets its later commits while the demo runs (demo/gitops.ts)
  if (config.demoData)
    engines.scheduler.addSource(
      demoGitopsJobSource(demoGitopsRepo(config.dataDir), (err) => app.log.warn({ err }, 'demo: gitops commit failed')),
    );
  // log search over the log backends (logs/README.md); file backends read only under the log roots
  registerLogs(app, { db, box, dataDir: config.dataDir, logRoots: config.logRoots });
  // the demo's log backend reads what this console writes while it runs (demo/logs.ts)
  if (config.demoData) startDemoLogs(app, logsDir(config.dataDir));
  registerPlaybooks(app, { db, box, mailer, sandbox, config });
  registerNotifications(app, { db, box, mailer, config });

  // the agents' registry and the upstream API they push to (agents/README.md)
  registerAgents(app, { db, isDisabled: properties.isDisabled });

  await registerSettings(app, { db });

  // hosted mode: the organisations, each served under /org/{slug} by this same app built on its
  // own schema (organizations/README.md)
  if (config.hosted.enabled)
    await registerOrganizations(app, {
      config,
      db,
      mailer,
      onSignOut: auth.onSignOut,
      build: (orgConfig, orgDb) => buildApp({ config: orgConfig, db: orgDb, logStream }),
    });

  // What writing a table does besides the SQL, in the words of the area that owns it: checks
  // before the statement, effects after the commit (pgrest/write-pipeline.ts). /api/db and the
  // Kubernetes-style API (kube/) run the same list, so a write is judged alike either way.
  const writes = [
    ...auth.writes,
    ...connectionWrites,
    ...settingsWrites(engines.scheduler),
    ...catalogWrites,
    ...topologyWrites,
    ...incidentWrites,
    ...playbookWrites(engines.scheduler),
    ...notificationWrites(db),
    ...agentWrites,
  ];
  await registerKube(app, {
    db,
    box,
    config,
    writes,
    resolveCaller: auth.resolveCaller,
    isFeatureDisabled: properties.isDisabled,
  });

  await app.register(restPlugin, {
    prefix: '/api/db',
    db,
    exposed: exposedTables,
    rowCap: config.rowCap,
    limits: {
      maxEmbeds: config.dbMaxEmbeds,
      maxEmbedDepth: config.dbMaxEmbedDepth,
      maxResponseBytes: config.dbMaxResponseBytes,
      statementTimeoutMs: config.databaseUrl ? config.dbStatementTimeoutMs : 0,
    },
    authorize: auth.authorizeTable,
    writes,
    encryptSecret: (plain) => box.encrypt(plain),
    // triggers read it as request.person_id (incident changelog actor, created_by defaults)
    actor: (req) => req.caller?.person.id,
    // triggers that decide by role read them as request.roles (auth/sql/10-caller.sql)
    actorRoles: (req) => req.caller?.roles,
    onPlanned: metrics?.dbPlanned,
  });

  const webDir = config.webDir ? resolve(config.webDir) : defaultWebDir;
  // an organisation's backend serves the API only: the web app comes from the root backend
  if (!config.organization && existsSync(join(webDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: webDir, wildcard: false });
    // The SPA owns every other path: deep links load index.html, unknown /api paths stay 404, and
    // so does /metrics when WATCHDECK_METRICS=false (a scraper must not get a page of HTML).
    app.setNotFoundHandler((req, reply) => {
      const path = req.url.split('?', 1)[0];
      if (path.startsWith('/api/') || path === '/metrics' || req.method !== 'GET') {
        return reply.code(404).send(notFoundBody(req));
      }
      return reply.type('text/html').sendFile('index.html');
    });
  }
  return app;
}
