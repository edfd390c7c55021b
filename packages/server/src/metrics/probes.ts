/**
 * Probes for orchestrators: /api/health/live says the process answers (restart it when not),
 * /api/health/ready says it should get traffic: the database answers, this build's migrations are
 * applied, the engines run (when this process runs them), and it is not draining for shutdown.
 * A load balancer stops sending requests once readiness fails; main.ts keeps serving for
 * WATCHDECK_SHUTDOWN_DRAIN after SIGTERM so it has time to notice.
 */
import type { FastifyInstance } from 'fastify';
import { pendingMigrations, type Db } from '../db/index.ts';
import type { Engines } from '../jobs/index.ts';
import { PUBLIC } from '../auth/index.ts';
import { noReadInput, typed } from '../http/validation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** draining: shutdown has begun; readiness answers 503 from then on */
    readiness: { draining: boolean };
  }
}

/** A probe must answer even when the pool is exhausted: the database counts as unreachable then. */
const DB_PROBE_TIMEOUT_MS = 2000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export function registerProbes(app: FastifyInstance, deps: { db: Db; engines: Engines; runsEngines: boolean }): void {
  const state = { draining: false };
  app.decorate('readiness', state);
  app.addHook('preClose', async () => {
    state.draining = true;
  });
  // applied migrations never go away: once all are there, the check is skipped
  let migrated = false;

  typed(app).get('/api/health/live', { config: PUBLIC, schema: noReadInput }, async () => ({ status: 'ok' }));

  typed(app).get('/api/health/ready', { config: PUBLIC, schema: noReadInput }, async (_req, reply) => {
    let database: 'reachable' | 'unreachable' = 'reachable';
    let migrations: 'applied' | 'pending' | 'unknown' = migrated ? 'applied' : 'unknown';
    try {
      await within(deps.db.query('SELECT 1'), DB_PROBE_TIMEOUT_MS);
      if (!migrated) {
        const pending = await within(pendingMigrations(deps.db), DB_PROBE_TIMEOUT_MS);
        migrated = pending.length === 0;
        migrations = migrated ? 'applied' : 'pending';
      }
    } catch (err) {
      // public route: the driver's text (hosts, users, paths) goes to the log only
      app.log.warn({ err }, 'readiness probe: database unreachable');
      database = 'unreachable';
    }
    const engines = !deps.runsEngines ? 'not run here' : deps.engines.running ? 'started' : 'stopped';
    const ready = database === 'reachable' && migrations === 'applied' && engines !== 'stopped' && !state.draining;
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not ready', database, migrations, engines, draining: state.draining });
  });
}
