import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { durationToMs } from '@watchdeck/core';

/** Every setting Watchdeck reads from the environment. Documented in README "Settings". */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  WATCHDECK_DATA_DIR: z.string().default('./data'),
  WATCHDECK_DEMO_DATA: z.enum(['true', 'false']).default('true'),
  WATCHDECK_WEB_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // unset: sized to this machine (defaultPoolSize)
  WATCHDECK_DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).optional(),
  WATCHDECK_DB_ROW_CAP: z.coerce.number().int().positive().default(10000),
  // limits on what one request may ask of the database (README "Limits"; pgrest/limits.ts)
  WATCHDECK_DB_STATEMENT_TIMEOUT: z
    .string()
    .refine((v) => v.trim() === '0' || (durationToMs(v) ?? 0) > 0, 'a duration such as 30s, or 0 for none')
    .default('30s'),
  WATCHDECK_DB_MAX_EMBEDS: z.coerce.number().int().min(0).max(1000).default(20),
  WATCHDECK_DB_MAX_EMBED_DEPTH: z.coerce.number().int().min(0).max(32).default(5),
  WATCHDECK_DB_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(16 * 1024 * 1024),
  WATCHDECK_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  // background engines (jobs/)
  WATCHDECK_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  WATCHDECK_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  WATCHDECK_JOB_HISTORY_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  WATCHDECK_CHECK_STATUS_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  WATCHDECK_SECRET_KEY: z.string().min(16).optional(),
  // identity and access (auth/README.md)
  AUTH: z.enum(['kratos', 'none']).default('kratos'),
  WATCHDECK_ADMIN_EMAIL: z.string().min(3).default('admin@watchdeck.local'),
  WATCHDECK_ADMIN_PASSWORD: z.string().optional(),
  WATCHDECK_SESSION_TTL: z
    .string()
    .refine((v) => (durationToMs(v) ?? 0) > 0, 'a duration such as 24h')
    .default('24h'),
  WATCHDECK_PUBLIC_URL: z.url().optional(),
  WATCHDECK_REGISTRATION: z.enum(['true', 'false']).default('false'),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Watchdeck <watchdeck@localhost>'),
  WATCHDECK_PROPERTIES: z.string().default(''),
  WATCHDECK_AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(30),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  demoData: boolean;
  webDir?: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** PostgreSQL connections this process keeps open (PGlite has one) */
  dbPoolSize: number;
  rowCap: number;
  /** PostgreSQL statement_timeout of every connection, ms (0: none; PGlite cannot enforce one) */
  dbStatementTimeoutMs: number;
  /** /api/db: embeds per request, embed nesting, bytes per answer */
  dbMaxEmbeds: number;
  dbMaxEmbedDepth: number;
  dbMaxResponseBytes: number;
  shutdownTimeoutMs: number;
  /** 'api' serves HTTP only, 'worker' runs the engines only, 'all' both (DESIGN section 6) */
  role: 'all' | 'api' | 'worker';
  /** event-queue consumer loops in this process */
  workers: number;
  jobHistoryRetentionDays: number;
  /** raw check runs kept this long; hourly roll-ups 400 days, daily roll-ups always (health/rollups.ts) */
  checkStatusRetentionDays: number;
  /** encrypts connection secrets at rest; unset: a key generated into the data directory */
  secretKey?: string;
  /** 'none': no sessions, every request acts as the admin system person */
  authMode: 'kratos' | 'none';
  adminEmail: string;
  /** unset: the first-run admin gets a generated password, printed once to the log */
  adminPassword?: string;
  sessionTtlMs: number;
  /** the console's external address: WebAuthn origin, links in emails and invitations */
  publicUrl?: string;
  /** whether anyone may create an account through the registration flow */
  registrationEnabled: boolean;
  /** unset: emails are written to the log instead of being sent */
  smtpUrl?: string;
  smtpFrom: string;
  /** read-only feature flags from WATCHDECK_PROPERTIES ('a.disable=true,b.disable=false') */
  localProperties: Record<string, string>;
  /** sign-in form submissions per client address and minute (brute-force brake) */
  authRateLimit: number;
};

/** 'a.disable=true, b.disable=false' -> { 'a.disable': 'true', 'b.disable': 'false' } */
export function parseLocalProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

/**
 * PostgreSQL connections when WATCHDECK_DB_POOL_SIZE is unset: two per core and one more (the usual
 * rule for a database on the same machine), between 4 and 20, plus one per event-queue worker
 * when this process runs the engines (a worker holds its connection while it handles a batch).
 * More connections than the cores can serve do not add throughput: every extra backend is one
 * more process the two sides of each query switch between.
 */
export function defaultPoolSize(role: Config['role'], workers: number, cores = availableParallelism()): number {
  return Math.min(20, Math.max(4, 2 * cores + 1)) + (role === 'api' ? 0 : workers);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: e.WATCHDECK_DATA_DIR,
    demoData: e.WATCHDECK_DEMO_DATA === 'true',
    webDir: e.WATCHDECK_WEB_DIR,
    logLevel: e.LOG_LEVEL,
    dbPoolSize: e.WATCHDECK_DB_POOL_SIZE ?? defaultPoolSize(e.WATCHDECK_ROLE, e.WATCHDECK_WORKERS),
    rowCap: e.WATCHDECK_DB_ROW_CAP,
    dbStatementTimeoutMs:
      e.WATCHDECK_DB_STATEMENT_TIMEOUT.trim() === '0' ? 0 : durationToMs(e.WATCHDECK_DB_STATEMENT_TIMEOUT)!,
    dbMaxEmbeds: e.WATCHDECK_DB_MAX_EMBEDS,
    dbMaxEmbedDepth: e.WATCHDECK_DB_MAX_EMBED_DEPTH,
    dbMaxResponseBytes: e.WATCHDECK_DB_MAX_RESPONSE_BYTES,
    shutdownTimeoutMs: e.WATCHDECK_SHUTDOWN_TIMEOUT_MS,
    role: e.WATCHDECK_ROLE,
    workers: e.WATCHDECK_WORKERS,
    jobHistoryRetentionDays: e.WATCHDECK_JOB_HISTORY_RETENTION_DAYS,
    checkStatusRetentionDays: e.WATCHDECK_CHECK_STATUS_RETENTION_DAYS,
    secretKey: e.WATCHDECK_SECRET_KEY,
    authMode: e.AUTH,
    adminEmail: e.WATCHDECK_ADMIN_EMAIL,
    adminPassword: e.WATCHDECK_ADMIN_PASSWORD || undefined,
    sessionTtlMs: durationToMs(e.WATCHDECK_SESSION_TTL)!,
    publicUrl: e.WATCHDECK_PUBLIC_URL?.replace(/\/+$/, ''),
    registrationEnabled: e.WATCHDECK_REGISTRATION === 'true',
    smtpUrl: e.SMTP_URL || undefined,
    smtpFrom: e.SMTP_FROM,
    localProperties: parseLocalProperties(e.WATCHDECK_PROPERTIES),
    authRateLimit: e.WATCHDECK_AUTH_RATE_LIMIT,
  };
}
