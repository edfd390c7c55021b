/**
 * The metrics of one app (one prom-client registry; README.md in this folder lists them). Counters
 * and histograms are fed as things happen (requests, check runs, job runs, scheduler slots); the
 * gauges of shared state (the pool, the event bus) are read when Prometheus scrapes, so every
 * replica reports the same backlog and none keeps a copy that drifts.
 */
import client from 'prom-client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { eventBusStats, observeJobRuns, type Engines } from '../jobs/index.ts';

/** Seconds: HTTP answers and /api/db statements (5 ms to 10 s). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: check runs (a ping to a 10-minute timeout). */
const CHECK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600];
/** Seconds: engine runs, which may take minutes. */
const JOB_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];
/** Seconds: how late a scheduled slot fired. */
const LAG_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface AppMetrics {
  registry: client.Registry;
  /** for HealthEngineOptions.onRun */
  checkRun(type: string, pass: boolean, durationMs: number): void;
  /** for the /api/db engine's onPlanned */
  dbPlanned(req: FastifyRequest, table: string, access: 'read' | 'write'): void;
  /** for EnginesOptions.onSchedulerLag */
  schedulerLag(lagMs: number): void;
  /** times every HTTP answer and follows this app's job runs */
  attach(app: FastifyInstance, engines: Engines): void;
}

export function createMetrics(db: Db): AppMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });

  const httpDuration = new client.Histogram({
    name: 'watchdeck_http_request_duration_seconds',
    help: 'HTTP requests by route pattern (unmatched for no route), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const dbRequests = new client.Counter({
    name: 'watchdeck_db_api_requests_total',
    help: '/api/db requests by exposed table (or rpc/<function>), access and status',
    labelNames: ['table', 'access', 'status'],
    registers: [registry],
  });
  const dbDuration = new client.Histogram({
    name: 'watchdeck_db_api_request_duration_seconds',
    help: '/api/db request durations by exposed table and access',
    labelNames: ['table', 'access'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const checkRuns = new client.Counter({
    name: 'watchdeck_check_runs_total',
    help: 'Check runs by check type and result (pass, fail)',
    labelNames: ['type', 'result'],
    registers: [registry],
  });
  const checkDuration = new client.Histogram({
    name: 'watchdeck_check_duration_seconds',
    help: 'Check run latency by check type',
    labelNames: ['type'],
    buckets: CHECK_BUCKETS,
    registers: [registry],
  });
  const jobRuns = new client.Counter({
    name: 'watchdeck_job_runs_total',
    help: 'Engine job runs (job history) by job name and status',
    labelNames: ['job', 'status'],
    registers: [registry],
  });
  const jobDuration = new client.Histogram({
    name: 'watchdeck_job_duration_seconds',
    help: 'Engine job run durations by job name and status',
    labelNames: ['job', 'status'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const lag = new client.Histogram({
    name: 'watchdeck_scheduler_lag_seconds',
    help: 'How late scheduled slots fired in this process',
    buckets: LAG_BUCKETS,
    registers: [registry],
  });

  if (db.poolStats) {
    const stats = db.poolStats.bind(db);
    new client.Gauge({
      name: 'watchdeck_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'in_use' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new client.Gauge({
      name: 'watchdeck_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL pool connection',
      registers: [registry],
      collect() {
        this.set(stats().waiting);
      },
    });
    new client.Gauge({
      name: 'watchdeck_db_pool_max',
      help: 'PostgreSQL pool size (WATCHDECK_DB_POOL_SIZE)',
      registers: [registry],
      collect() {
        this.set(stats().max);
      },
    });
  }

  // One statement per scrape feeds the five event-bus gauges.
  let pending: Promise<Awaited<ReturnType<typeof eventBusStats>>> | undefined;
  const busStats = () => {
    pending ??= eventBusStats(db).finally(() => setTimeout(() => (pending = undefined), 0));
    return pending;
  };
  const busGauge = (
    name: string,
    help: string,
    pick: (s: Awaited<ReturnType<typeof eventBusStats>>[number]) => number,
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['event', 'consumer'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const s of await busStats()) this.set({ event: s.event, consumer: s.consumer }, pick(s));
      },
    });
  busGauge('watchdeck_event_backlog', 'Event deliveries waiting or running, by event and consumer', (s) => s.backlog);
  busGauge(
    'watchdeck_event_retrying',
    'Event deliveries that failed and wait for another attempt, by event and consumer',
    (s) => s.retrying,
  );
  busGauge('watchdeck_event_dead_letters', 'Event deliveries whose every attempt failed', (s) => s.failed);
  busGauge(
    'watchdeck_event_attempts',
    'Attempts made on the event deliveries not done yet (backlog and dead letters)',
    (s) => s.attempts,
  );
  busGauge(
    'watchdeck_event_oldest_backlog_seconds',
    'Age of the oldest waiting event delivery',
    (s) => s.oldestSeconds,
  );

  const dbRoutes = new WeakMap<FastifyRequest, { table: string; access: 'read' | 'write' }>();
  return {
    registry,
    checkRun(type, pass, durationMs) {
      checkRuns.inc({ type, result: pass ? 'pass' : 'fail' });
      checkDuration.observe({ type }, durationMs / 1000);
    },
    dbPlanned(req, table, access) {
      dbRoutes.set(req, { table, access });
    },
    schedulerLag(ms) {
      lag.observe(Math.max(0, ms) / 1000);
    },
    attach(app, engines) {
      app.addHook('onResponse', async (req, reply) => {
        const seconds = reply.elapsedTime / 1000;
        const status = String(reply.statusCode);
        // the route's pattern (/api/incidents/:id), never the URL: ids would be unbounded
        const route = req.routeOptions.url ?? 'unmatched';
        const method = METHODS.has(req.method) ? req.method : 'OTHER';
        httpDuration.observe({ route, method, status }, seconds);
        const planned = dbRoutes.get(req);
        if (planned) {
          dbRequests.inc({ ...planned, status });
          dbDuration.observe(planned, seconds);
        }
      });
      // runs of this app's engines only (tests run several apps in one process)
      const stop = observeJobRuns((run) => {
        if (run.processId !== undefined && run.processId !== engines.process.id) return;
        jobRuns.inc({ job: run.name, status: run.status });
        jobDuration.observe({ job: run.name, status: run.status }, run.durationMs / 1000);
      });
      app.addHook('onClose', async () => stop());
    },
  };
}
