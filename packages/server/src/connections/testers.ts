import pg from 'pg';
import mysql from 'mysql2/promise';
import { createClient as createRedisClient } from 'redis';
import { Client as SshClient } from 'ssh2';
import { isValueReference } from '@watchdeck/core';
import { verifySmtp } from '../mail/index.ts';
import { httpCall, type HttpAnswer, type HttpCallOptions } from './http-call.ts';

/**
 * Connection tests that really connect. Each tester resolves on success and throws an Error whose
 * message is what a person needs to fix the connection. Types without a tester throw
 * NotImplementedError, which the route answers with the seeds' not-implemented outcome.
 * Field layouts per type are in core's connection-types.ts (what is in url, username, password,
 * certificate and properties).
 */
export interface PlainConnection {
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate?: string | null;
  insecure_tls?: boolean | null;
  properties?: Record<string, unknown> | null;
}

export class NotImplementedError extends Error {
  constructor(type: string, message = `testing ${type} connections is not implemented`) {
    super(message);
  }
}

const TIMEOUT_MS = 8000;
const TEST_TEXT = 'Watchdeck connection test';

function requireUrl(c: PlainConnection): string {
  if (!c.url) throw new Error('the connection has no URL');
  return c.url;
}

function requirePassword(c: PlainConnection, what: string): string {
  if (!c.password) throw new Error(`the connection has no ${what}`);
  return c.password;
}

const prop = (c: PlainConnection, key: string): string => {
  const v = c.properties?.[key];
  return v === undefined || v === null ? '' : String(v);
};

/** Puts username/password into a URL unless it already carries credentials. */
function withCredentials(raw: string, c: PlainConnection): string {
  const u = new URL(raw);
  if (!u.username && c.username) u.username = encodeURIComponent(c.username);
  if (!u.password && c.password) u.password = encodeURIComponent(c.password);
  return u.toString();
}

async function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${TIMEOUT_MS / 1000}s`)), TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Joins a base URL and a path without doubling or dropping the slash. */
function join(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

function call(c: PlainConnection, url: string, init: Omit<HttpCallOptions, 'timeoutMs'> = {}): Promise<HttpAnswer> {
  return httpCall(url, { timeoutMs: TIMEOUT_MS, insecureTls: !!c.insecure_tls, ...init });
}

/** A peer's refusal as a message; `what` names the service (never the URL, which may carry a token). */
function refused(what: string, a: HttpAnswer, detail?: unknown): Error {
  const extra =
    typeof detail === 'string' && detail ? `: ${detail.slice(0, 200)}` : a.text ? `: ${a.text.slice(0, 200)}` : '';
  return new Error(`${what} answered ${a.status}${extra}`);
}

function basicAuth(user: string | null | undefined, pass: string | null | undefined): Record<string, string> {
  return user ? { Authorization: `Basic ${Buffer.from(`${user}:${pass ?? ''}`).toString('base64')}` } : {};
}

// ---- databases and caches ------------------------------------------------------------------------

async function testPostgres(c: PlainConnection) {
  const client = new pg.Client({
    connectionString: withCredentials(requireUrl(c), c),
    connectionTimeoutMillis: TIMEOUT_MS,
  });
  // a server that drops the connection makes the client emit 'error' (besides failing the query):
  // without a listener that crashed the whole process
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

async function testMysql(c: PlainConnection) {
  const conn = await mysql.createConnection({ uri: withCredentials(requireUrl(c), c), connectTimeout: TIMEOUT_MS });
  conn.on('error', () => {}); // a dropped connection fails the query; unheard, the event would crash the process
  try {
    await conn.query('SELECT 1');
  } finally {
    await conn.end().catch(() => {});
  }
}

async function testRedis(c: PlainConnection) {
  const db = Number(prop(c, 'db') || 0);
  const client = createRedisClient({
    url: requireUrl(c),
    username: c.username || undefined,
    password: c.password || undefined,
    database: Number.isInteger(db) && db >= 0 ? db : 0,
    socket: { connectTimeout: TIMEOUT_MS, reconnectStrategy: false },
  });
  client.on('error', () => {}); // surfaced by connect() instead
  try {
    await client.connect();
    const pong = await client.ping();
    if (pong !== 'PONG') throw new Error(`unexpected reply to PING: ${pong}`);
  } finally {
    if (client.isOpen) await client.quit().catch(() => {});
  }
}

// ---- HTTP APIs ------------------------------------------------------------------------------------

async function testHttp(c: PlainConnection) {
  const a = await call(c, requireUrl(c), { headers: basicAuth(c.username, c.password) });
  if (a.status >= 400) throw new Error(`the server answered ${a.status}`);
}

async function testPrometheus(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v1/query?query=1'), { headers: basicAuth(c.username, c.password) });
  const body = a.json as { status?: string; error?: string } | undefined;
  if (a.status >= 400 || body?.status !== 'success') throw new Error(body?.error ?? `Prometheus answered ${a.status}`);
}

async function testElasticsearch(c: PlainConnection) {
  const a = await call(c, requireUrl(c), { headers: basicAuth(c.username, c.password) });
  if (a.status >= 400) throw refused('Elasticsearch', a);
}

async function testGithub(c: PlainConnection) {
  const a = await call(c, join(c.url || 'https://api.github.com', '/user'), {
    headers: {
      Authorization: `Bearer ${requirePassword(c, 'token')}`,
      'User-Agent': 'watchdeck',
      Accept: 'application/vnd.github+json',
    },
  });
  if (a.status >= 400) throw refused('GitHub', a, (a.json as { message?: string } | undefined)?.message);
}

async function testGitlab(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v4/user'), {
    headers: { 'PRIVATE-TOKEN': requirePassword(c, 'token') },
  });
  if (a.status >= 400) throw refused('GitLab', a, (a.json as { message?: string } | undefined)?.message);
}

async function testAzureDevops(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/_apis/projects?api-version=7.0&$top=1'), {
    headers: basicAuth('pat', requirePassword(c, 'token')),
  });
  if (a.status >= 400) throw refused('Azure DevOps', a);
}

async function testDynatrace(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v2/metrics?pageSize=1'), {
    headers: { Authorization: `Api-Token ${requirePassword(c, 'API key')}` },
  });
  if (a.status >= 400) throw refused('Dynatrace', a);
}

// ---- notification services ----------------------------------------------------------------------

async function testSmtp(c: PlainConnection) {
  await verifySmtp(c, TIMEOUT_MS);
}

async function testSftp(c: PlainConnection) {
  const u = new URL(requireUrl(c));
  const path = decodeURIComponent(u.pathname) || '.';
  await new Promise<void>((resolve, reject) => {
    const ssh = new SshClient();
    ssh
      .on('ready', () => {
        ssh.sftp((err, sftp) => {
          if (err) {
            ssh.end();
            return reject(err);
          }
          sftp.readdir(path, (e) => {
            ssh.end();
            if (e) reject(new Error(`connected, but listing ${path} failed: ${e.message}`));
            else resolve();
          });
        });
      })
      .on('error', reject)
      .connect({
        host: u.hostname,
        port: Number(u.port || 22),
        username: c.username || decodeURIComponent(u.username),
        password: c.password || decodeURIComponent(u.password) || undefined,
        readyTimeout: TIMEOUT_MS,
      });
  });
}

/** Posts a visible test message, as the services' own "test" buttons do. */
async function postJson(
  c: PlainConnection,
  what: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const a = await call(c, url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (a.status >= 400) throw refused(what, a);
  return a;
}

async function testSlack(c: PlainConnection) {
  // auth.test checks the token without posting anything; Slack answers 200 with ok:false on errors.
  const a = await call(c, join(c.url || 'https://slack.com', '/api/auth.test'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${requirePassword(c, 'bot token')}` },
  });
  const body = a.json as { ok?: boolean; error?: string } | undefined;
  if (a.status >= 400 || !body?.ok) throw new Error(`Slack refused the token: ${body?.error ?? `status ${a.status}`}`);
}

async function testDiscord(c: PlainConnection) {
  await postJson(c, 'the Discord webhook', requirePassword(c, 'webhook URL'), { content: TEST_TEXT });
}

async function testTeams(c: PlainConnection) {
  const groupOwner = prop(c, 'groupOwner');
  await postJson(
    c,
    'the Teams webhook',
    join(requireUrl(c), `/${encodeURIComponent(requirePassword(c, 'AltID'))}/${encodeURIComponent(groupOwner)}`),
    { text: TEST_TEXT },
  );
}

async function testMattermost(c: PlainConnection) {
  const body: Record<string, string> = { text: TEST_TEXT };
  if (prop(c, 'channel')) body.channel = prop(c, 'channel');
  if (c.username) body.username = c.username;
  await postJson(
    c,
    'Mattermost',
    join(requireUrl(c), `/hooks/${encodeURIComponent(requirePassword(c, 'token'))}`),
    body,
  );
}

async function testRocketchat(c: PlainConnection) {
  const body: Record<string, string> = { text: TEST_TEXT, channel: prop(c, 'channel') };
  if (c.username) body.alias = c.username;
  await postJson(c, 'Rocket.Chat', join(requireUrl(c), `/hooks/${requirePassword(c, 'webhook token')}`), body);
}

async function testGoogleChat(c: PlainConnection) {
  const u = new URL(requireUrl(c));
  if (c.username) u.searchParams.set('key', c.username);
  u.searchParams.set('token', requirePassword(c, 'token'));
  await postJson(c, 'Google Chat', u.toString(), { text: TEST_TEXT });
}

async function testGenericWebhook(c: PlainConnection) {
  const method = (prop(c, 'requestMethod') || 'POST').toUpperCase();
  const headers = basicAuth(c.username, c.password);
  if (method === 'GET') {
    const a = await call(c, requireUrl(c), { headers });
    if (a.status >= 400) throw refused('the webhook', a);
    return;
  }
  const payload = { [prop(c, 'messageKey') || 'message']: TEST_TEXT, [prop(c, 'titleKey') || 'title']: 'Watchdeck' };
  const contentType = prop(c, 'contentType') || 'application/json';
  const body = contentType.includes('json') ? JSON.stringify(payload) : new URLSearchParams(payload).toString();
  const a = await call(c, requireUrl(c), { method, headers: { ...headers, 'Content-Type': contentType }, body });
  if (a.status >= 400) throw refused('the webhook', a);
}

async function testTelegram(c: PlainConnection) {
  const a = await call(c, join(c.url || 'https://api.telegram.org', `/bot${requirePassword(c, 'token')}/getMe`));
  const body = a.json as { ok?: boolean; description?: string } | undefined;
  if (a.status >= 400 || !body?.ok)
    throw new Error(`Telegram refused the token: ${body?.description ?? `status ${a.status}`}`);
}

async function testPushover(c: PlainConnection) {
  const form = new URLSearchParams({ token: requirePassword(c, 'token'), user: c.username ?? '' });
  const a = await call(c, join(c.url || 'https://api.pushover.net', '/1/users/validate.json'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const body = a.json as { status?: number; errors?: string[] } | undefined;
  if (body?.status !== 1) throw new Error(`Pushover refused: ${body?.errors?.join(', ') ?? `status ${a.status}`}`);
}

async function testPushbullet(c: PlainConnection) {
  const a = await call(c, join(c.url || 'https://api.pushbullet.com', '/v2/users/me'), {
    headers: { 'Access-Token': requirePassword(c, 'token') },
  });
  if (a.status >= 400) throw refused('Pushbullet', a);
}

async function testNtfy(c: PlainConnection) {
  const a = await call(c, requireUrl(c), {
    method: 'POST',
    headers: { ...basicAuth(c.username, c.password), Title: 'Watchdeck' },
    body: TEST_TEXT,
  });
  if (a.status >= 400) throw refused('ntfy', a);
}

async function testOpsgenie(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/v2/heartbeats'), {
    headers: { Authorization: `GenieKey ${requirePassword(c, 'API key')}` },
  });
  if (a.status >= 400) throw refused('OpsGenie', a, (a.json as { message?: string } | undefined)?.message);
}

async function testMatrix(c: PlainConnection) {
  const base = requireUrl(c);
  const secret = requirePassword(c, 'password or access token');
  const a = c.username
    ? await call(c, join(base, '/_matrix/client/v3/login'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'm.login.password',
          identifier: { type: 'm.id.user', user: c.username },
          password: secret,
        }),
      })
    : await call(c, join(base, '/_matrix/client/v3/account/whoami'), {
        headers: { Authorization: `Bearer ${secret}` },
      });
  if (a.status >= 400) throw refused('Matrix', a, (a.json as { error?: string } | undefined)?.error);
}

async function testZulip(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v1/users/me'), { headers: basicAuth(c.username, c.password) });
  if (a.status >= 400) throw refused('Zulip', a, (a.json as { msg?: string } | undefined)?.msg);
}

// ---- incident responder ticket systems ----------------------------------------------------------

async function testJira(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/rest/api/2/myself'), {
    headers: { Accept: 'application/json', ...basicAuth(c.username, requirePassword(c, 'API token')) },
  });
  const body = a.json as { errorMessages?: string[] } | undefined;
  if (a.status >= 400) throw refused('Jira', a, body?.errorMessages?.join('; '));
}

async function testServiceNow(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=sys_id'), {
    headers: { Accept: 'application/json', ...basicAuth(c.username, requirePassword(c, 'password')) },
  });
  const body = a.json as { error?: { message?: string } } | undefined;
  if (a.status >= 400) throw refused('ServiceNow', a, body?.error?.message);
}

async function testMsPlanner(c: PlainConnection) {
  const tenant = prop(c, 'tenant');
  if (!tenant) throw new Error('the connection has no tenant id');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: c.username ?? '',
    client_secret: requirePassword(c, 'client secret'),
    scope: 'https://graph.microsoft.com/.default',
  });
  const a = await call(
    c,
    join(
      prop(c, 'loginUrl') || 'https://login.microsoftonline.com',
      `/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    ),
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
  );
  const body = a.json as { access_token?: string; error_description?: string } | undefined;
  if (a.status >= 400 || !body?.access_token) throw refused('Microsoft identity platform', a, body?.error_description);
}

const testers: Record<string, (c: PlainConnection) => Promise<void>> = {
  postgres: testPostgres,
  mysql: testMysql,
  redis: testRedis,
  http: testHttp,
  prometheus: testPrometheus,
  elasticsearch: testElasticsearch,
  github: testGithub,
  gitlab: testGitlab,
  azure_devops: testAzureDevops,
  dynatrace: testDynatrace,
  smtp: testSmtp,
  email: testSmtp,
  sftp: testSftp,
  slack: testSlack,
  discord: testDiscord,
  teams: testTeams,
  mattermost: testMattermost,
  rocketchat: testRocketchat,
  google_chat: testGoogleChat,
  generic_webhook: testGenericWebhook,
  telegram: testTelegram,
  pushover: testPushover,
  pushbullet: testPushbullet,
  ntfy: testNtfy,
  opsgenie: testOpsgenie,
  matrix: testMatrix,
  zulip_chat: testZulip,
  jira: testJira,
  service_now: testServiceNow,
  ms_planner: testMsPlanner,
};

export function hasTester(type: string): boolean {
  return type in testers;
}

/**
 * Values that live elsewhere (a Kubernetes secret or config map, a Helm release) are stored as
 * references; this server does not run inside a cluster, so it cannot read them and says so
 * instead of sending the reference to the peer as if it were the password.
 */
function unresolvedReference(c: PlainConnection): string | undefined {
  for (const field of ['url', 'username', 'password', 'certificate'] as const) {
    if (isValueReference(c[field])) return field;
  }
  return undefined;
}

export async function testConnection(c: PlainConnection): Promise<void> {
  const tester = testers[c.type];
  if (!tester) throw new NotImplementedError(c.type);
  const ref = unresolvedReference(c);
  if (ref) {
    throw new NotImplementedError(
      c.type,
      `the ${ref} comes from a Kubernetes secret, config map or Helm release; resolving those is not implemented, so the connection cannot be tested here`,
    );
  }
  await withTimeout(tester(c), `connecting to ${c.type}`);
}

/**
 * Removes every secret the connection holds from a text (an error message from a driver or a
 * peer may echo what it was given), so neither the API answer nor the log carries it.
 */
export function redactSecrets(text: string, c: PlainConnection): string {
  const secrets = new Set<string>();
  const add = (s: string | null | undefined) => {
    if (s && s.length >= 3) {
      secrets.add(s);
      secrets.add(encodeURIComponent(s));
    }
  };
  add(c.password);
  add(c.certificate);
  for (const raw of [c.url]) {
    if (!raw) continue;
    try {
      add(decodeURIComponent(new URL(raw).password));
    } catch {
      // not a URL: nothing embedded to find
    }
  }
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('********');
  return out;
}
