import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Db } from '#server/db/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import { logRoutes } from './routes.ts';

/**
 * The logs area (issue 17, server item 5): log backends (file, PostgreSQL table, Loki,
 * OpenSearch/Elasticsearch) behind one search, POST /api/logs. README.md says how a component's
 * log source finds its backend and what a file backend may read.
 */
export interface LogsOptions {
  db: Db;
  box?: SecretBox;
  /** WATCHDECK_DATA_DIR: <dataDir>/logs is always a log root */
  dataDir: string;
  /** WATCHDECK_LOG_ROOTS */
  logRoots: readonly string[];
}

/** The directory of log files under the data directory (a temporary one for an in-memory database). */
export function logsDir(dataDir: string): string {
  const base = !dataDir || dataDir === 'memory://' ? join(tmpdir(), 'watchdeck-demo') : dataDir;
  return join(base, 'logs');
}

export function registerLogs(app: FastifyInstance, o: LogsOptions): void {
  logRoutes(app, { db: o.db, box: o.box, roots: [logsDir(o.dataDir), ...o.logRoots] });
}
