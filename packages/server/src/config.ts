import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseDuration, ROLES, type Role } from '@watchdeck/core';
import { parseAllowList } from './metrics/access.ts';
import { DEFAULT_OUTBOUND_DENY, parseCidr } from './http/outbound.ts';

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
    .refine((v) => v.trim() === '0' || (parseDuration(v) ?? 0) > 0, 'a duration such as 30s, or 0 for none')
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
  // after SIGTERM: readiness fails while requests are still served, so load balancers move away
  WATCHDECK_SHUTDOWN_DRAIN: z
    .string()
    .refine((v) => v.trim() === '0' || (parseDuration(v) ?? 0) > 0, 'a duration such as 5s, or 0 for none')
    .default('0'),
  // background engines (jobs/)
  WATCHDECK_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  WATCHDECK_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  WATCHDECK_PLAYBOOK_WORKERS: z.coerce.number().int().min(0).max(64).default(4),
  WATCHDECK_JOB_HISTORY_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  WATCHDECK_CHECK_STATUS_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  // PGlite only (PostgreSQL has autovacuum): how often the hot tables are vacuumed and analysed
  WATCHDECK_PGLITE_VACUUM_INTERVAL: z
    .string()
    .refine((v) => v.trim() === '0' || (parseDuration(v) ?? 0) > 0, 'a duration such as 10m, or 0 for never')
    .default('10m'),
  // how long a computed health summary answers identical requests (health/README.md)
  WATCHDECK_SUMMARY_CACHE_TTL: z
    .string()
    .refine((v) => v.trim() === '0' || (parseDuration(v) ?? 0) > 0, 'a duration such as 5s, or 0 for none')
    .default('5s'),
  WATCHDECK_SECRET_KEY: z.string().min(16).optional(),
  // identity and access (auth/README.md)
  AUTH: z.enum(['kratos', 'none', 'oidc']).default('kratos'),
  // AUTH=oidc: sign-in through an OpenID Connect provider (auth/README.md "OpenID Connect")
  WATCHDECK_OIDC_ISSUER: z
    .url()
    .refine(
      (v) => v.startsWith('https://') || isLoopbackUrl(v),
      'an https URL (plain http only for a provider on this machine: localhost, 127.0.0.1, ::1)',
    )
    .optional(),
  WATCHDECK_OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  WATCHDECK_OIDC_CLIENT_SECRET: z.string().optional(),
  WATCHDECK_OIDC_SCOPES: z
    .string()
    .refine((v) => v.split(/[\s,]+/).includes('openid'), "scopes separated by spaces, including 'openid'")
    .default('openid email profile'),
  WATCHDECK_OIDC_ROLE_CLAIM: z.string().trim().min(1).default('groups'),
  WATCHDECK_OIDC_ROLE_MAP: z
    .string()
    .refine(
      (v) => parseRoleMap(v) !== undefined,
      `'<claim value>=<role>' pairs separated by commas (or by ';' when values hold commas); roles: ${ROLES.join(', ')}`,
    )
    .default(''),
  WATCHDECK_OIDC_DEFAULT_ROLE: z.enum(ROLES).default('viewer'),
  WATCHDECK_ADMIN_EMAIL: z.string().min(3).default('admin@watchdeck.local'),
  WATCHDECK_ADMIN_PASSWORD: z.string().optional(),
  WATCHDECK_SESSION_TTL: z
    .string()
    .refine((v) => (parseDuration(v) ?? 0) > 0, 'a duration such as 24h')
    .default('24h'),
  WATCHDECK_PUBLIC_URL: z.url().optional(),
  WATCHDECK_REGISTRATION: z.enum(['true', 'false']).default('false'),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Watchdeck <watchdeck@localhost>'),
  WATCHDECK_PROPERTIES: z.string().default(''),
  WATCHDECK_AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  // script isolation (sandbox/)
  WATCHDECK_SANDBOX_BWRAP: z.string().min(1).default('/usr/bin/bwrap'),
  WATCHDECK_SANDBOX_MEMORY_MB: z.coerce.number().int().min(16).max(65536).default(512),
  WATCHDECK_SANDBOX_MAX_PROCESSES: z.coerce.number().int().min(4).max(4096).default(64),
  WATCHDECK_SANDBOX_MAX_OUTPUT_KB: z.coerce.number().int().min(1).max(16384).default(64),
  WATCHDECK_AUTH_FLOW_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  WATCHDECK_AUTH_FLOWS_PER_ADDRESS: z.coerce.number().int().positive().default(200),
  // behind a reverse proxy; browser protections (README "Security")
  WATCHDECK_TRUST_PROXY: z
    .string()
    .refine((v) => parseTrustProxy(v) !== undefined, "'false', 'true', a hop count, or comma-separated IPs/CIDRs")
    .default('false'),
  WATCHDECK_ALLOWED_HOSTS: z.string().default(''),
  // GET /metrics (metrics/README.md): who may scrape, and how many check label keys it shows
  WATCHDECK_METRICS: z.enum(['true', 'false']).default('true'),
  WATCHDECK_METRICS_TOKEN: z.string().min(16).optional(),
  WATCHDECK_METRICS_ALLOW: z
    .string()
    .refine((v) => parseAllowList(v) !== undefined, "'loopback', 'none', or comma-separated IPs/CIDRs")
    .default('loopback'),
  WATCHDECK_METRICS_CHECK_LABELS: z.coerce.number().int().min(0).max(50).default(10),
  // notifications (notifications/README.md): sends per rule and minute (0: no limit), and the
  // API base URL of services whose connection has no host field (a relay, a test listener)
  WATCHDECK_NOTIFICATION_RATE_LIMIT: z.coerce.number().int().min(0).default(120),
  WATCHDECK_NOTIFICATION_API_URLS: z
    .string()
    .refine(
      (v) => parseApiUrls(v) !== undefined,
      "comma-separated <service>=<http(s) URL>, e.g. 'slack=https://slack.example.com'",
    )
    .default(''),
  // file log backends read only under <data dir>/logs and these directories (logs/README.md)
  WATCHDECK_LOG_ROOTS: z
    .string()
    .refine(
      (v) => v.split(',').every((p) => !p.trim() || p.trim().startsWith('/')),
      'comma-separated absolute directories, e.g. /var/log/apps,/srv/logs',
    )
    .default(''),
  // where editors' specs may not make the server connect (http/outbound.ts); 'none' allows all
  WATCHDECK_OUTBOUND_DENY: z
    .string()
    .refine(
      (v) =>
        v.trim() === 'none' ||
        v.split(',').every((c) => {
          if (!c.trim()) return true;
          try {
            parseCidr(c);
            return true;
          } catch {
            return false;
          }
        }),
      "comma-separated IP addresses or CIDR ranges, e.g. 169.254.0.0/16,10.0.0.0/8, or 'none'",
    )
    .optional(),
  // file scrapers read only under <data dir>/catalog/files and these directories (catalog/README.md)
  WATCHDECK_SCRAPE_ROOTS: z
    .string()
    .refine(
      (v) => v.split(',').every((p) => !p.trim() || p.trim().startsWith('/')),
      'comma-separated absolute directories, e.g. /srv/manifests,/etc/watchdeck/catalog',
    )
    .default(''),
  // folder checks read only under <data dir>/checks and these directories (health/README.md)
  WATCHDECK_CHECK_ROOTS: z
    .string()
    .refine(
      (v) => v.split(',').every((p) => !p.trim() || p.trim().startsWith('/')),
      'comma-separated absolute directories, e.g. /var/backups,/srv/exports',
    )
    .default(''),
  // playbook sources may read directories (and local git repositories) only under <data dir>/playbooks
  // and these directories (playbooks/README.md "Sources")
  WATCHDECK_PLAYBOOK_ROOTS: z
    .string()
    .refine(
      (v) => v.split(',').every((p) => !p.trim() || p.trim().startsWith('/')),
      'comma-separated absolute directories, e.g. /srv/playbooks,/opt/runbooks',
    )
    .default(''),
  // hosted mode: organisations, each in a PostgreSQL schema of its own (organizations/README.md)
  WATCHDECK_HOSTED: z.enum(['true', 'false']).default('false'),
  WATCHDECK_HOSTED_ORG_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(3),
  WATCHDECK_HOSTED_MAX_ORGS: z.coerce.number().int().min(1).max(10000).default(20),
  WATCHDECK_HOSTED_TOKEN_TTL: z
    .string()
    .refine((v) => (parseDuration(v) ?? 0) > 0, 'a duration such as 12h')
    .default('12h'),
  WATCHDECK_FRAME_ANCESTORS: z
    .string()
    .trim()
    .min(1)
    .refine((v) => !/[;,\r\n]/.test(v), "CSP sources separated by spaces, e.g. 'self' https://wiki.example.com")
    .default("'none'"),
});

/**
 * Settings that hold secrets. Each may instead be given as <NAME>_FILE, a file holding the value
 * (a mounted secret). main.ts removes them from process.env once read (scrubSecretEnv), so no
 * child process inherits them.
 */
export const SECRET_SETTINGS = [
  'DATABASE_URL',
  'WATCHDECK_SECRET_KEY',
  'WATCHDECK_ADMIN_PASSWORD',
  'SMTP_URL',
  'WATCHDECK_METRICS_TOKEN',
  'WATCHDECK_OIDC_CLIENT_SECRET',
] as const;

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
  /** how long readiness fails before the server stops accepting requests on shutdown, ms */
  shutdownDrainMs: number;
  /** 'api' serves HTTP only, 'worker' runs the engines only, 'all' both (DESIGN section 6) */
  role: 'all' | 'api' | 'worker';
  /** event-queue consumer loops in this process */
  workers: number;
  /** playbook runs this process runs at once (0: none; playbooks/README.md) */
  playbookWorkers: number;
  jobHistoryRetentionDays: number;
  /** raw check runs kept this long; hourly roll-ups 400 days, daily roll-ups always (health/rollups.ts) */
  checkStatusRetentionDays: number;
  /** PGlite: ms between two VACUUM (ANALYZE) runs of the hot tables (0: never; db/maintenance.ts) */
  pgliteVacuumIntervalMs: number;
  /** ms a computed health summary answers identical requests (0: only those in flight) */
  summaryCacheTtlMs: number;
  /** encrypts connection secrets at rest; unset: a key generated into the data directory */
  secretKey?: string;
  /**
   * 'kratos': the own identity service; 'none': no sessions, every request acts as the admin
   * system person; 'oidc': sign-in through an OpenID Connect provider (`oidc` below)
   */
  authMode: 'kratos' | 'none' | 'oidc';
  /** AUTH=oidc only: the provider, this console's client and how claims become roles */
  oidc?: OidcSettings;
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
  /** notifications: sends per rule and minute (0: unlimited), API base URLs of host-less services */
  notifications: { rateLimitPerMinute: number; apiUrls: Record<string, string> };
  smtpFrom: string;
  /** read-only feature flags from WATCHDECK_PROPERTIES ('a.disable=true,b.disable=false') */
  localProperties: Record<string, string>;
  /** sign-in form submissions per client address and minute (brute-force brake) */
  authRateLimit: number;
  /** how scripts run isolated (sandbox/): the bwrap binary and the limits of each run */
  sandbox: { bwrap: string; memoryBytes: number; maxProcesses: number; maxOutputBytes: number };
  /** the files secrets were read from (<NAME>_FILE): never visible to scripts */
  secretFiles: string[];
  /** new self-service flows (sign-in forms) per client address and minute */
  authFlowRateLimit: number;
  /** self-service flows one client address may hold at once; the oldest unused ones give way */
  authFlowsPerAddress: number;
  /**
   * Fastify's trustProxy: which X-Forwarded-For/-Proto/-Host to believe (false: none; true: all;
   * n: the last n hops; addresses/CIDRs: those proxies). Client address and protocol follow it.
   */
  trustProxy: boolean | number | string[];
  /** host names links in emails may be built from when publicUrl is unset ('host' or 'host:port') */
  allowedHosts: string[];
  /** the CSP frame-ancestors sources: who may frame the console ("'none'": nobody) */
  frameAncestors: string;
  /** addresses editors' specs may not reach (WATCHDECK_OUTBOUND_DENY) */
  outboundDeny: string[];
  /** directories file scrapers may read besides <dataDir>/catalog/files (WATCHDECK_SCRAPE_ROOTS) */
  scrapeRoots: string[];
  /** directories folder checks may read besides <dataDir>/checks (WATCHDECK_CHECK_ROOTS) */
  checkRoots: string[];
  /** directories file log backends may read besides <dataDir>/logs (WATCHDECK_LOG_ROOTS) */
  logRoots: string[];
  /** directories playbook sources may read besides <dataDir>/playbooks (WATCHDECK_PLAYBOOK_ROOTS) */
  playbookRoots: string[];
  /**
   * Hosted mode (WATCHDECK_HOSTED): organisations on this PostgreSQL, each served under
   * /org/{slug}; the connections each organisation's backend keeps, how many backends one process
   * keeps open, how long a switch's bearer token lives.
   */
  hosted: { enabled: boolean; orgPoolSize: number; maxOrgs: number; tokenTtlMs: number };
  /** set on an organisation's own backend (never from the environment): its slug and URL prefix */
  organization?: { slug: string; prefix: string };
  /** GET /metrics: a bearer token that lets any address scrape, the addresses that need none */
  metrics: { enabled: boolean; token?: string; allow: string[]; checkLabelKeys: number };
};

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** unset: a public client (PKCE only, no client authentication) */
  clientSecret?: string;
  scopes: string[];
  /** the claim holding groups or roles; a dotted path reaches into objects (realm_access.roles) */
  roleClaim: string;
  /** claim value -> the roles it grants */
  roleMap: Record<string, Role[]>;
  /** the role of a user none of whose claim values is mapped */
  defaultRole: Role;
  /** where the provider sends the browser back: <WATCHDECK_PUBLIC_URL>/api/auth/oidc/callback */
  redirectUri: string;
  /** where the provider's logout sends the browser: <WATCHDECK_PUBLIC_URL>/login */
  postLogoutRedirectUri: string;
}

function isLoopbackUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/**
 * 'admins=admin,ops=editor' -> {admins: ['admin'], ops: ['editor']}; undefined when malformed.
 * Values such as LDAP DNs hold commas and '=', so ';' separates the pairs when present and each
 * pair splits at its last '=' (role names have none).
 */
function parseRoleMap(text: string): Record<string, Role[]> | undefined {
  const out: Record<string, Role[]> = {};
  for (const part of text.split(text.includes(';') ? ';' : ',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.lastIndexOf('=');
    if (eq < 1) return undefined;
    const value = item.slice(0, eq).trim();
    const role = item.slice(eq + 1).trim() as Role;
    if (!value || !(ROLES as readonly string[]).includes(role)) return undefined;
    const roles = (out[value] ??= []);
    if (!roles.includes(role)) roles.push(role);
  }
  return out;
}

/** AUTH=oidc needs its provider, its client and a fixed public address for the callback. */
function oidcSettings(e: z.infer<typeof schema>): OidcSettings | undefined {
  if (e.AUTH !== 'oidc') return undefined;
  const missing = [
    !e.WATCHDECK_OIDC_ISSUER && 'WATCHDECK_OIDC_ISSUER (the provider address)',
    !e.WATCHDECK_OIDC_CLIENT_ID && "WATCHDECK_OIDC_CLIENT_ID (this console's client id at the provider)",
    !e.WATCHDECK_PUBLIC_URL && 'WATCHDECK_PUBLIC_URL (the callback address registered at the provider derives from it)',
  ].filter(Boolean);
  if (missing.length) throw new Error(`invalid configuration: AUTH=oidc needs ${missing.join(', ')}`);
  const base = e.WATCHDECK_PUBLIC_URL!.replace(/\/+$/, '');
  return {
    issuer: e.WATCHDECK_OIDC_ISSUER!,
    clientId: e.WATCHDECK_OIDC_CLIENT_ID!,
    clientSecret: e.WATCHDECK_OIDC_CLIENT_SECRET || undefined,
    scopes: [...new Set(e.WATCHDECK_OIDC_SCOPES.split(/[\s,]+/).filter(Boolean))],
    roleClaim: e.WATCHDECK_OIDC_ROLE_CLAIM,
    roleMap: parseRoleMap(e.WATCHDECK_OIDC_ROLE_MAP)!,
    defaultRole: e.WATCHDECK_OIDC_DEFAULT_ROLE,
    redirectUri: `${base}/api/auth/oidc/callback`,
    postLogoutRedirectUri: `${base}/login`,
  };
}

/** Names proxy-addr understands besides addresses and CIDRs. */
const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** WATCHDECK_TRUST_PROXY -> Fastify's trustProxy; undefined when malformed. */
function parseTrustProxy(raw: string): boolean | number | string[] | undefined {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const parts = v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const valid = (p: string) => {
    if (PROXY_ADDR_NAMES.has(p)) return true;
    const [ip, bits, extra] = p.split('/');
    const family = isIP(ip);
    if (!family || extra !== undefined) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  };
  return parts.length && parts.every(valid) ? parts : undefined;
}

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

/**
 * <NAME>_FILE -> the file's content as <NAME> (one trailing newline dropped, as secret files
 * written by `echo` or a secret store end with one). Both given is a mistake, not a preference.
 */
function readSecretFiles(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; files: string[] } {
  const out = { ...env };
  const files: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) throw new Error(`invalid configuration: set ${name} or ${name}_FILE, not both`);
    try {
      out[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new Error(
        `invalid configuration: ${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        { cause: err },
      );
    }
    files.push(file);
  }
  return { env: out, files };
}

/**
 * Removes the secret settings from the environment once loadConfig has read them: a child
 * process (ping, git, a helper) then inherits none. /proc/<pid>/environ keeps showing what the
 * process started with, which is why <NAME>_FILE is the way to keep a secret out of it entirely.
 */
export function scrubSecretEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of SECRET_SETTINGS) delete env[name];
}

export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): Config {
  const { env, files } = readSecretFiles(rawEnv);
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  if (e.WATCHDECK_HOSTED === 'true' && !e.DATABASE_URL)
    throw new Error(
      'invalid configuration: WATCHDECK_HOSTED=true needs PostgreSQL (set DATABASE_URL): each organisation gets a schema of its own, which the embedded PGlite database cannot serve',
    );
  if (e.WATCHDECK_HOSTED === 'true' && e.AUTH === 'none')
    throw new Error(
      'invalid configuration: WATCHDECK_HOSTED=true needs signed-in callers (AUTH=none makes everyone an administrator of every organisation)',
    );
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
      e.WATCHDECK_DB_STATEMENT_TIMEOUT.trim() === '0' ? 0 : parseDuration(e.WATCHDECK_DB_STATEMENT_TIMEOUT)!,
    dbMaxEmbeds: e.WATCHDECK_DB_MAX_EMBEDS,
    dbMaxEmbedDepth: e.WATCHDECK_DB_MAX_EMBED_DEPTH,
    dbMaxResponseBytes: e.WATCHDECK_DB_MAX_RESPONSE_BYTES,
    shutdownTimeoutMs: e.WATCHDECK_SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: e.WATCHDECK_SHUTDOWN_DRAIN.trim() === '0' ? 0 : parseDuration(e.WATCHDECK_SHUTDOWN_DRAIN)!,
    role: e.WATCHDECK_ROLE,
    workers: e.WATCHDECK_WORKERS,
    playbookWorkers: e.WATCHDECK_PLAYBOOK_WORKERS,
    jobHistoryRetentionDays: e.WATCHDECK_JOB_HISTORY_RETENTION_DAYS,
    checkStatusRetentionDays: e.WATCHDECK_CHECK_STATUS_RETENTION_DAYS,
    pgliteVacuumIntervalMs:
      e.WATCHDECK_PGLITE_VACUUM_INTERVAL.trim() === '0' ? 0 : parseDuration(e.WATCHDECK_PGLITE_VACUUM_INTERVAL)!,
    summaryCacheTtlMs: e.WATCHDECK_SUMMARY_CACHE_TTL.trim() === '0' ? 0 : parseDuration(e.WATCHDECK_SUMMARY_CACHE_TTL)!,
    secretKey: e.WATCHDECK_SECRET_KEY,
    authMode: e.AUTH,
    oidc: oidcSettings(e),
    adminEmail: e.WATCHDECK_ADMIN_EMAIL,
    adminPassword: e.WATCHDECK_ADMIN_PASSWORD || undefined,
    sessionTtlMs: parseDuration(e.WATCHDECK_SESSION_TTL)!,
    publicUrl: e.WATCHDECK_PUBLIC_URL?.replace(/\/+$/, ''),
    registrationEnabled: e.WATCHDECK_REGISTRATION === 'true',
    smtpUrl: e.SMTP_URL || undefined,
    notifications: {
      rateLimitPerMinute: e.WATCHDECK_NOTIFICATION_RATE_LIMIT,
      apiUrls: parseApiUrls(e.WATCHDECK_NOTIFICATION_API_URLS) ?? {},
    },
    smtpFrom: e.SMTP_FROM,
    localProperties: parseLocalProperties(e.WATCHDECK_PROPERTIES),
    authRateLimit: e.WATCHDECK_AUTH_RATE_LIMIT,
    sandbox: {
      bwrap: e.WATCHDECK_SANDBOX_BWRAP,
      memoryBytes: e.WATCHDECK_SANDBOX_MEMORY_MB * 1024 * 1024,
      maxProcesses: e.WATCHDECK_SANDBOX_MAX_PROCESSES,
      maxOutputBytes: e.WATCHDECK_SANDBOX_MAX_OUTPUT_KB * 1024,
    },
    secretFiles: files,
    authFlowRateLimit: e.WATCHDECK_AUTH_FLOW_RATE_LIMIT,
    authFlowsPerAddress: e.WATCHDECK_AUTH_FLOWS_PER_ADDRESS,
    trustProxy: parseTrustProxy(e.WATCHDECK_TRUST_PROXY)!,
    allowedHosts: e.WATCHDECK_ALLOWED_HOSTS.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    frameAncestors: e.WATCHDECK_FRAME_ANCESTORS,
    outboundDeny:
      e.WATCHDECK_OUTBOUND_DENY === undefined
        ? DEFAULT_OUTBOUND_DENY
        : e.WATCHDECK_OUTBOUND_DENY.trim() === 'none'
          ? []
          : e.WATCHDECK_OUTBOUND_DENY.split(',')
              .map((c) => c.trim())
              .filter(Boolean),
    scrapeRoots: e.WATCHDECK_SCRAPE_ROOTS.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    checkRoots: e.WATCHDECK_CHECK_ROOTS.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    logRoots: e.WATCHDECK_LOG_ROOTS.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    playbookRoots: e.WATCHDECK_PLAYBOOK_ROOTS.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    hosted: {
      enabled: e.WATCHDECK_HOSTED === 'true',
      orgPoolSize: e.WATCHDECK_HOSTED_ORG_POOL_SIZE,
      maxOrgs: e.WATCHDECK_HOSTED_MAX_ORGS,
      tokenTtlMs: parseDuration(e.WATCHDECK_HOSTED_TOKEN_TTL)!,
    },
    metrics: {
      enabled: e.WATCHDECK_METRICS === 'true',
      token: e.WATCHDECK_METRICS_TOKEN || undefined,
      allow: parseAllowList(e.WATCHDECK_METRICS_ALLOW)!,
      checkLabelKeys: e.WATCHDECK_METRICS_CHECK_LABELS,
    },
  };
}

/** Services whose connection has no host field: their API base URL may be set (WATCHDECK_NOTIFICATION_API_URLS). */
const API_URL_SERVICES = ['slack', 'telegram', 'pushover', 'pushbullet', 'ifttt', 'google_chat'];

/** 'slack=https://a,telegram=http://b' -> {slack, telegram}; undefined when malformed. */
function parseApiUrls(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq < 1) return undefined;
    const service = item.slice(0, eq).trim();
    const url = item.slice(eq + 1).trim();
    if (!API_URL_SERVICES.includes(service)) return undefined;
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
      if (u.username || u.password) return undefined;
    } catch {
      return undefined;
    }
    out[service] = url.replace(/\/+$/, '');
  }
  return out;
}
