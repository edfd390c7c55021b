import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import { version } from './version.ts';
import { restPlugin, withWriteChecks } from './pgrest/index.ts';
import { exposedTables } from './db/exposed.ts';
import { registerAuth, PUBLIC } from './auth/index.ts';
import { createEngines, type Engines } from './jobs/index.ts';
import { connectionRoutes } from './connections/routes.ts';
import { SecretBox } from './connections/secret-box.ts';
import { resolveSecretKey } from './connections/secret-key.ts';
import { validateConnectionWrite } from './connections/validate.ts';
import { propertyWriteRoutes } from './properties/routes.ts';
import { registerSettings, validateSettingsWrite } from './settings/index.ts';
import { registerHealth } from './health/index.ts';
import { registerIncidents, validateEvidenceWrite } from './incidents/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** scheduler and event queue; started by main.ts when this process runs the engines */
    engines: Engines & { start(): Promise<void> };
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** where log lines go (default: JSON lines on stdout); main.ts formats them for a terminal, tests capture them */
  logStream?: { write(line: string): unknown };
}

const defaultWebDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Builds the HTTP app from the area modules. Nothing listens until the caller says so. */
export async function buildApp({ config, db, logStream }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(logStream ? { stream: logStream } : {}),
          },
    // Keep-alive sockets that are idle are closed on shutdown; busy ones finish their request.
    forceCloseConnections: 'idle',
    bodyLimit: 10 * 1024 * 1024,
    // PostgREST filters repeat keys and use characters Fastify's default parser is fine with;
    // the engine re-parses the raw query string itself.
    routerOptions: { maxParamLength: 500 },
  });

  const engines = createEngines(db, app.log, {
    workers: config.workers,
    jobHistoryRetentionDays: config.jobHistoryRetentionDays,
  });
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

  // First: sessions, the access guard every later route inherits, feature flags (auth/README.md).
  const auth = await registerAuth(app, { config, db, exposed: exposedTables });

  app.get('/api/about', { config: PUBLIC }, async () => ({ Version: version }));

  app.get('/api/health', { config: PUBLIC }, async (_req, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok', database: 'reachable' };
    } catch (err) {
      return reply.code(503).send({ status: 'error', database: 'unreachable', error: (err as Error).message });
    }
  });

  const box = new SecretBox(resolveSecretKey(config, (msg) => app.log.warn(msg)));
  await app.register(connectionRoutes, { db, box });
  propertyWriteRoutes(app, { db, properties: auth.properties, local: config.localProperties });

  registerHealth(app, { db, box, retentionDays: config.checkStatusRetentionDays });
  registerIncidents(app, { db, box, config });

  // Before the engine: its scheduler-reload hook must be inherited by the /api/db routes.
  await registerSettings(app, { db });

  await app.register(restPlugin, {
    prefix: '/api/db',
    db,
    exposed: exposedTables,
    rowCap: config.rowCap,
    authorize: withWriteChecks(auth.authorizeTable, [
      validateConnectionWrite,
      validateSettingsWrite,
      validateEvidenceWrite,
    ]),
    encryptSecret: (plain) => box.encrypt(plain),
    // triggers read it as request.person_id (incident changelog actor, created_by defaults)
    actor: (req) => req.caller?.person.id,
  });

  const webDir = config.webDir ? resolve(config.webDir) : defaultWebDir;
  if (existsSync(join(webDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: webDir, wildcard: false });
    // The SPA owns every other path: deep links load index.html, unknown /api paths stay 404.
    app.setNotFoundHandler((req, reply) => {
      if (req.url.startsWith('/api/') || req.method !== 'GET') {
        return reply
          .code(404)
          .send({ error: 'Not Found', message: `Route ${req.method} ${req.url.split('?')[0]} not found` });
      }
      return reply.type('text/html').sendFile('index.html');
    });
  }
  return app;
}
