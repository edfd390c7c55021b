/**
 * Logs (seed 001 "/logs", sections 3, 7 and 9): the log backend spec the settings validate on
 * every write, the search request `POST /api/logs` takes and the answer it gives, and the
 * screen's constants. Server and web share them.
 */
import { z } from 'zod';
import { isUuid } from './ids.ts';
import { parseDuration, parseRelativeTime } from './relative-time.ts';

/** Seed 001 section 9 and "/logs". */
export const LOGS_DEBOUNCE_MS = 500;
export const LOG_ROW_ESTIMATE_PX = 62;
export const LOG_ROW_OVERSCAN = 10;
export const LOG_TIMESTAMP_FORMAT = 'YYYY-MM-DD HH:mm.ss.SSS';
export const LOG_EVIDENCE_CONTEXT_LINES = 3;
export const LOGS_MESSAGES = {
  noResults: 'There are no logs matching the search query',
  noComponent: 'Please select a component to view the logs',
} as const;

/** Lines per page: the default and the most one request may ask for. */
export const LOG_PAGE_SIZE = 100;
export const LOG_MAX_PAGE_SIZE = 1000;
/** The time range when the request names none (start): the last hour. */
export const LOG_DEFAULT_START = '1h';
/** The screen's time range choices (values of `start`). */
export const LOG_START_OPTIONS = ['15m', '1h', '3h', '6h', '12h', '1d', '2d', '7d', '30d'] as const;

// ---- backend spec ------------------------------------------------------------------------------

const stringMap = z.record(z.string(), z.string());
const secret = z.union([z.string(), z.looseObject({ value: z.string() })]);

/** Which components a backend serves when no log source names it (type and labels, like Mission Control's routes). */
const route = z.looseObject({ type: z.string().optional(), labels: stringMap.optional() });

const httpAuth = {
  username: secret.optional(),
  password: secret.optional(),
  /** sent as `Authorization: Bearer` */
  bearer: secret.optional(),
  headers: stringMap.optional(),
  insecureTls: z.boolean().optional(),
};

const httpUrl = (field: string) =>
  z
    .string()
    .min(1)
    .refine((v) => /^https?:\/\/[^/\s]+/i.test(v), `${field} must be an http(s) URL`);

/**
 * A file backend: files on the server's machine, one entry per line. `paths` are globs (`*`,
 * `**`, `?`, `{a,b}`) that may capture labels from the path with `{name}` (a path segment part,
 * e.g. `logs/{app}/*.log`). Relative paths are under the data directory; absolute ones must lie
 * under the data directory or a root of WATCHDECK_LOG_ROOTS (checked when searching).
 */
const fileBackend = z.looseObject({
  /** one glob, as older specs wrote it */
  path: z.string().min(1).optional(),
  paths: z.array(z.string().min(1)).min(1).max(50).optional(),
  /** labels every line of these files carries */
  labels: stringMap.optional(),
  routes: z.array(route).optional(),
});

/**
 * A PostgreSQL-table backend: through a connection (by name), the newest rows of `table` or of
 * `query` (a SELECT; read-only transaction) with a timestamp and a message column.
 */
const postgresBackend = z.looseObject({
  connection: z.string().min(1),
  table: z
    .string()
    .regex(
      /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/,
      'table must be a table name, optionally schema-qualified (logs or app.logs)',
    )
    .optional(),
  query: z.string().min(1).optional(),
  columns: z
    .looseObject({
      timestamp: z.string().min(1).optional(),
      message: z.string().min(1).optional(),
      /** a jsonb column of labels, or several columns read as labels */
      labels: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
    })
    .optional(),
  routes: z.array(route).optional(),
});

/** Loki: `/loki/api/v1/query_range` with a LogQL stream selector (`query`, default `{job=~".+"}`). */
const lokiBackend = z.looseObject({
  url: httpUrl('url'),
  query: z.string().min(1).optional(),
  ...httpAuth,
  routes: z.array(route).optional(),
});

/** OpenSearch / Elasticsearch: `/<index>/_search` over `index` (default `*`). */
const searchBackend = z.looseObject({
  address: httpUrl('address'),
  index: z.string().min(1).optional(),
  fields: z.looseObject({ timestamp: z.string().min(1).optional(), message: z.string().min(1).optional() }).optional(),
  ...httpAuth,
  routes: z.array(route).optional(),
});

/**
 * Kubernetes pod logs through a `kubernetes` connection (its kubeconfig); the component's pods are
 * found by its labels (server logs/README.md).
 */
const kubernetesBackend = z.looseObject({
  connection: z.string().min(1),
  namespace: z.string().min(1).optional(),
  routes: z.array(route).optional(),
});

export const LOG_BACKEND_KINDS = ['file', 'postgres', 'loki', 'elasticsearch', 'opensearch', 'kubernetes'] as const;
export type LogBackendKind = (typeof LOG_BACKEND_KINDS)[number];

/** The spec of a logging_backends row: exactly one backend kind. */
export const loggingBackendSpecSchema = z
  .looseObject({
    file: fileBackend.optional(),
    postgres: postgresBackend.optional(),
    loki: lokiBackend.optional(),
    elasticsearch: searchBackend.optional(),
    opensearch: searchBackend.optional(),
    kubernetes: kubernetesBackend.optional(),
  })
  .superRefine((spec, ctx) => {
    const kinds = LOG_BACKEND_KINDS.filter((k) => spec[k] !== undefined);
    if (kinds.length !== 1)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `a log backend has exactly one of ${LOG_BACKEND_KINDS.join(', ')}${kinds.length ? ` (found ${kinds.join(', ')})` : ''}`,
      });
    if (spec.file && !spec.file.path && !spec.file.paths)
      ctx.addIssue({ code: 'custom', path: ['file', 'paths'], message: 'file.paths lists the files (globs)' });
    if (spec.postgres && !spec.postgres.table === !spec.postgres.query)
      ctx.addIssue({ code: 'custom', path: ['postgres'], message: 'postgres takes either table or query' });
  });
export type LoggingBackendSpec = z.infer<typeof loggingBackendSpecSchema>;

// ---- search ------------------------------------------------------------------------------------

/** A time in a request: ISO 8601, a relative expression (`now-1h`) or a duration back from now (`1h`). */
export function parseLogTime(text: string, now = new Date()): Date | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (t.startsWith('now')) return parseRelativeTime(t, { now });
  const ms = parseDuration(t);
  if (ms !== undefined) return new Date(now.getTime() - ms);
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return undefined;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const timeText = (field: string) =>
  z
    .string({ error: `${field} must be a time` })
    .max(64)
    .refine(
      (v) => v.trim() === '' || parseLogTime(v) !== undefined,
      `${field} must be an ISO time, a relative time such as now-1h, or a duration such as 1h`,
    );

export const logSearchRequestSchema = z.strictObject({
  /** the component whose logs are searched */
  id: z.string({ error: 'id is required' }).refine(isUuid, 'id must be a component id'),
  /** the component's log source (its `logs` entry name); default its first */
  name: z.string().max(200).optional(),
  /** text the message must contain (case-insensitive; backends with a query language get it as a filter) */
  query: z.string().max(1000, 'query must be at most 1000 characters long').optional(),
  start: timeText('start').optional(),
  end: timeText('end').optional(),
  limit: z
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(LOG_MAX_PAGE_SIZE, `limit must be at most ${LOG_MAX_PAGE_SIZE}`)
    .optional(),
  /** the `next` of the previous answer */
  page: z.string().max(4096, 'page is not a page token of this search').optional(),
  /** Kubernetes pod logs: the previous (terminated, e.g. crashed) instance of each container */
  previous: z.boolean({ error: 'previous must be true or false' }).optional(),
});
export type LogSearchRequest = z.infer<typeof logSearchRequestSchema>;

/** Seed 001 section 3: a log line. */
export interface LogLine {
  /** ISO 8601 */
  timestamp: string;
  message: string;
  labels: Record<string, string>;
}

export interface LogSearchResult {
  /** matching lines in the range; a lower bound when totalRelation is 'gte' (as OpenSearch's hits.total) */
  total: number;
  totalRelation: 'eq' | 'gte';
  /** newest first */
  results: LogLine[];
  /** the token of the next (older) page, when there is one */
  next?: string;
}

/** A component's log source (seed 001 section 3): a named entry of its `logs` list. */
export interface ComponentLogSource {
  name: string;
  type?: string;
}
