/**
 * The five action kinds (README.md "Actions"). Each gets its fields already rendered (templates
 * over params, resource, run and earlier actions) and an AbortSignal that fires on the action's
 * timeout, the run's timeout or a cancel; each answers the action's result (stored as
 * playbook_run_actions.result) or throws an ActionError whose result is kept with the error.
 */
import { lstat, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { simpleGit } from 'simple-git';
import { parseDocument } from 'yaml';
import type { PlaybookAction } from '@watchdeck/core';
import { guardedFetch } from '#server/http/outbound.ts';
import type { Queryable } from '#server/db/index.ts';
import { gitUrlRefusal } from '#server/git/index.ts';
import { connectionByName, type SecretBox, type StoredConnection } from '#server/connections/index.ts';
import type { Mailer } from '#server/mail/index.ts';
import type { Sandbox } from '#server/sandbox/index.ts';

export interface ActionDeps {
  db: Queryable;
  box?: SecretBox;
  mailer: Mailer;
  sandbox: Sandbox;
  /** where a local git repository (a path or file://) of a checkout or gitops action may be */
  gitRoots: readonly string[];
}

export type ActionResult = Record<string, unknown>;

/** A failed action: the message is the action's error, the result what it produced before failing. */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly result?: ActionResult,
  ) {
    super(message);
  }
}

/** Output kept per stream of a script, and per response body or result set. */
const OUTPUT_LIMIT_BYTES = 256 * 1024;
const MAX_ROWS = 1000;
/** A checkout handed to the sandbox: at most this many files and bytes. */
const CHECKOUT_MAX_FILES = 2000;
const CHECKOUT_MAX_BYTES = 32 * 1024 * 1024;

const lookup = (deps: ActionDeps, ref: string, type?: string) => connectionByName(deps.db, deps.box, ref, type);

function truncate(text: string, limit = OUTPUT_LIMIT_BYTES): { text: string; truncated: boolean } {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= limit) return { text, truncated: false };
  return { text: buf.subarray(0, limit).toString('utf8'), truncated: true };
}

/** A git URL with the connection's credentials in it (http(s) only; file and ssh URLs as given). */
function authedUrl(url: string, conn?: StoredConnection): string {
  if (!conn?.username && !conn?.password) return url;
  try {
    const u = new URL(url);
    if (!u.protocol.startsWith('http')) return url;
    u.username = encodeURIComponent(conn.username ?? '');
    u.password = encodeURIComponent(conn.password ?? '');
    return u.toString();
  } catch {
    return url;
  }
}

/** Git's messages without the credentials a URL may carry. */
const scrub = (text: string) => text.replace(/\/\/[^/@\s]+@/g, '//***@');

async function clone(
  deps: ActionDeps,
  repo: { url: string; connection?: string; ref?: string },
  signal: AbortSignal,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  // the spec is an editor's: no clone of (or push to) a repository elsewhere on this server
  const refusal = await gitUrlRefusal(repo.url, deps.gitRoots, 'WATCHDECK_PLAYBOOK_ROOTS');
  if (refusal) throw new ActionError(refusal);
  const conn = repo.connection ? await lookup(deps, repo.connection) : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'watchdeck-playbook-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const git = simpleGit({ abort: signal }).env({
      // git gets none of the server's environment (secrets); a prompt for credentials has no
      // terminal to ask on and fails, and the action's timeout bounds the rest
      ...pickEnv(['PATH', 'HOME']),
    });
    await git.clone(authedUrl(repo.url, conn), dir, repo.ref ? ['--branch', repo.ref] : []);
    return { dir, cleanup };
  } catch (err) {
    await cleanup();
    throw new ActionError(`git clone of ${scrub(repo.url)} failed: ${scrub((err as Error).message)}`);
  }
}

function pickEnv(names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (process.env[n]) out[n] = process.env[n]!;
  return out;
}

/** Every file of a checkout (without .git), for the sandbox's working directory. */
async function filesOf(root: string, prefix: string): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  let count = 0;
  let bytes = 0;
  async function walk(dir: string) {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) {
        const size = (await stat(full)).size;
        if (++count > CHECKOUT_MAX_FILES || (bytes += size) > CHECKOUT_MAX_BYTES)
          throw new ActionError(
            `the checkout is larger than ${CHECKOUT_MAX_FILES} files or ${CHECKOUT_MAX_BYTES / 1024 / 1024} MiB`,
          );
        out[join(prefix, relative(root, full)).split(sep).join('/')] = await readFile(full);
      }
    }
  }
  await walk(root);
  return out;
}

/** Environment variables for a connection: PREFIX_URL, PREFIX_USERNAME, PREFIX_PASSWORD, PREFIX_<PROPERTY>. */
function connectionEnv(prefix: string, c: StoredConnection): Record<string, string> {
  const env: Record<string, string> = {};
  if (c.url) env[`${prefix}_URL`] = c.url;
  if (c.username) env[`${prefix}_USERNAME`] = c.username;
  if (c.password) env[`${prefix}_PASSWORD`] = c.password;
  for (const [k, v] of Object.entries(c.properties ?? {})) {
    const name = `${prefix}_${k.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`;
    if (v !== null && v !== undefined && typeof v !== 'object') env[name] = String(v);
  }
  return env;
}

async function runExec(
  a: NonNullable<PlaybookAction['exec']>,
  deps: ActionDeps,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ActionResult> {
  const env: Record<string, string> = { ...(a.env ?? {}) };
  for (const c of a.connections ?? []) Object.assign(env, connectionEnv(c.prefix, await lookup(deps, c.connection)));
  let files: Record<string, Uint8Array> | undefined;
  let script = a.script;
  if (a.checkout) {
    const { dir, cleanup } = await clone(deps, a.checkout, signal);
    try {
      const dest =
        a.checkout.destination ||
        a.checkout.url
          .replace(/\/+$/, '')
          .split('/')
          .pop()!
          .replace(/\.git$/, '');
      files = await filesOf(dir, dest);
      // the script starts inside the checkout
      script = `cd ${JSON.stringify(dest)}\n${script}`;
    } finally {
      await cleanup();
    }
  }
  const r = await deps.sandbox.run({
    script,
    env,
    files,
    signal,
    limits: { timeoutMs, maxOutputBytes: OUTPUT_LIMIT_BYTES },
  });
  const result: ActionResult = {
    stdout: r.stdout,
    stderr: r.stderr,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    ...(r.stdoutTruncated ? { stdoutTruncated: true } : {}),
    ...(r.stderrTruncated ? { stderrTruncated: true } : {}),
  };
  if (r.timedOut) throw new ActionError(`the script was stopped after ${timeoutMs} ms`, result);
  if (r.exitCode !== 0) throw new ActionError(`the script exited with code ${r.exitCode}`, result);
  return result;
}

async function runHttp(
  a: NonNullable<PlaybookAction['http']>,
  deps: ActionDeps,
  signal: AbortSignal,
): Promise<ActionResult> {
  const headers: Record<string, string> = { ...(a.headers ?? {}) };
  let url = a.url ?? '';
  if (a.connection) {
    const c = await lookup(deps, a.connection);
    // a relative URL (or none) is resolved against the connection's
    url = new URL(url || '', c.url ?? undefined).toString();
    if ((c.username || c.password) && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
      headers.authorization = `Basic ${Buffer.from(`${c.username ?? ''}:${c.password ?? ''}`).toString('base64')}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ActionError(`"${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ActionError('the URL must be http or https');
  const res = await guardedFetch(parsed, {
    method: a.method,
    headers,
    body: a.method === 'GET' || a.method === 'HEAD' ? undefined : a.body,
    signal,
    redirect: 'manual',
  });
  const raw = truncate(await res.text());
  let body: unknown = raw.text;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(raw.text);
    } catch {
      body = raw.text;
    }
  }
  const result: ActionResult = {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    ...(raw.truncated ? { bodyTruncated: true } : {}),
  };
  const ok = a.expectedStatus?.length ? a.expectedStatus.includes(res.status) : res.status >= 200 && res.status < 300;
  if (!ok)
    throw new ActionError(
      `${a.method} ${parsed.origin}${parsed.pathname} answered ${res.status}${a.expectedStatus?.length ? `, expected ${a.expectedStatus.join(' or ')}` : ''}`,
      result,
    );
  return result;
}

function sqlDriverOf(url: string, driver?: 'postgres' | 'mysql', type?: string): 'postgres' | 'mysql' {
  if (driver) return driver;
  if (type === 'mysql' || type === 'mariadb' || /^(mysql|mariadb):/.test(url)) return 'mysql';
  return 'postgres';
}

async function runSql(
  a: NonNullable<PlaybookAction['sql']>,
  deps: ActionDeps,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ActionResult> {
  let url = a.url ?? '';
  let user: string | undefined;
  let password: string | undefined;
  let type: string | undefined;
  if (a.connection) {
    const c = await lookup(deps, a.connection);
    url = c.url ?? '';
    user = c.username ?? undefined;
    password = c.password ?? undefined;
    type = c.type;
  }
  if (!url) throw new ActionError('the SQL action has no database URL');
  const driver = sqlDriverOf(url, a.driver, type);
  if (driver === 'mysql') {
    const conn = await mysql.createConnection({
      uri: url.replace(/^mariadb:/, 'mysql:'),
      ...(user ? { user } : {}),
      ...(password ? { password } : {}),
      connectTimeout: Math.min(timeoutMs, 10_000),
    });
    const abort = () => conn.destroy();
    signal.addEventListener('abort', abort, { once: true });
    try {
      const [rows, fields] = await conn.query({ sql: a.query, timeout: timeoutMs });
      if (!Array.isArray(rows)) return { count: (rows as { affectedRows?: number }).affectedRows ?? 0, rows: [] };
      return {
        count: rows.length,
        columns: (fields ?? []).map((f) => f.name),
        rows: (rows as unknown[]).slice(0, MAX_ROWS),
      };
    } catch (err) {
      throw new ActionError(signal.aborted ? 'the query was stopped' : `the query failed: ${(err as Error).message}`);
    } finally {
      signal.removeEventListener('abort', abort);
      conn.destroy();
    }
  }
  const client = new pg.Client({
    connectionString: url,
    ...(user ? { user } : {}),
    ...(password ? { password } : {}),
    statement_timeout: timeoutMs,
    connectionTimeoutMillis: Math.min(timeoutMs, 10_000),
  });
  const abort = () => void client.end().catch(() => {});
  signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    const r = await client.query(a.query);
    return {
      count: r.rowCount ?? r.rows.length,
      columns: (r.fields ?? []).map((f) => f.name),
      rows: r.rows.slice(0, MAX_ROWS),
    };
  } catch (err) {
    throw new ActionError(signal.aborted ? 'the query was stopped' : `the query failed: ${(err as Error).message}`);
  } finally {
    signal.removeEventListener('abort', abort);
    await client.end().catch(() => {});
  }
}

const isSlack = (url: string) => /hooks\.slack\.com|\/slack\b/.test(url);

async function postJson(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal) {
  const res = await guardedFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
  const text = truncate(await res.text(), 4096).text;
  if (res.status < 200 || res.status >= 300)
    throw new ActionError(`the webhook answered ${res.status}`, { status: res.status, body: text });
  return { status: res.status, body: text };
}

async function runNotification(
  a: NonNullable<PlaybookAction['notification']>,
  deps: ActionDeps,
  signal: AbortSignal,
  key: string,
): Promise<ActionResult> {
  const conn = a.connection ? await lookup(deps, a.connection) : undefined;
  const type = conn?.type ?? (a.url ? (isSlack(a.url) ? 'slack' : 'webhook') : 'email');
  if (type === 'email') {
    const to = a.to || (conn?.properties?.to as string | undefined) || '';
    if (!to) throw new ActionError('no recipient: give `to` or a connection with a `to` property');
    const via = conn ? { ...conn } : undefined;
    const how = await deps.mailer.send({ to, subject: a.title, text: a.message, key }, via);
    return { channel: 'email', to, delivery: how };
  }
  const url = a.url || conn?.url;
  if (!url) throw new ActionError(`the ${type} connection has no URL`);
  const headers: Record<string, string> = {};
  if (conn?.password && type !== 'slack') headers.authorization = `Bearer ${conn.password}`;
  if (type === 'slack' || isSlack(url)) {
    const r = await postJson(url, { text: `*${a.title}*\n${a.message}` }, headers, signal);
    return { channel: 'slack', ...r };
  }
  const r = await postJson(url, { title: a.title, message: a.message, id: key }, headers, signal);
  return { channel: 'webhook', ...r };
}

/** Sets `path` (a.b[0].c or a.b.0.c) of a YAML document, keeping its comments and layout. */
function patchYaml(text: string, path: string, value: unknown): string {
  const doc = parseDocument(text);
  const keys = path
    .replace(/^\$?\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((k) => k !== undefined && k !== '')
    .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
  doc.setIn(keys, value);
  return doc.toString();
}

/**
 * A path inside the checkout to write, or an error. The repository is the spec author's: a
 * committed symbolic link (`deploy -> /etc`) would otherwise make `deploy/x` a write anywhere
 * the server can write. So the real path of the nearest existing directory must lie inside the
 * checkout, and the file itself may not be a link.
 */
async function inside(root: string, path: string): Promise<string> {
  const full = resolve(root, path);
  if (!full.startsWith(root + sep)) throw new ActionError(`"${path}" is outside the repository`);
  if (full.split(sep).includes('.git')) throw new ActionError(`"${path}" is inside .git`);
  const realRoot = await realpath(root);
  let dir = dirname(full);
  for (;;) {
    const real = await realpath(dir).catch(() => undefined);
    if (real !== undefined) {
      if (real !== realRoot && !real.startsWith(realRoot + sep))
        throw new ActionError(`"${path}" leads out of the repository through a symbolic link`);
      break;
    }
    dir = dirname(dir);
  }
  const link = await lstat(full).then(
    (st) => st.isSymbolicLink(),
    () => false,
  );
  if (link) throw new ActionError(`"${path}" is a symbolic link`);
  return full;
}

async function runGitops(
  a: NonNullable<PlaybookAction['gitops']>,
  deps: ActionDeps,
  signal: AbortSignal,
): Promise<ActionResult> {
  const { dir, cleanup } = await clone(
    deps,
    { url: a.repo.url, connection: a.repo.connection, ref: a.repo.base },
    signal,
  );
  try {
    const git = simpleGit({ baseDir: dir, abort: signal }).env({
      // git gets none of the server's environment (secrets); a prompt for credentials has no
      // terminal to ask on and fails, and the action's timeout bounds the rest
      ...pickEnv(['PATH', 'HOME']),
    });
    const base = (await git.revparse(['--abbrev-ref', 'HEAD'])).trim();
    const branch = a.repo.branch || base;
    if (branch !== base) await git.checkoutLocalBranch(branch);
    const changed: string[] = [];
    for (const f of a.files ?? []) {
      const full = await inside(dir, f.path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, f.content);
      changed.push(f.path);
    }
    for (const p of a.patches ?? []) {
      const full = await inside(dir, p.path);
      let text: string;
      try {
        text = await readFile(full, 'utf8');
      } catch {
        throw new ActionError(`${p.path} does not exist in the repository`);
      }
      await writeFile(full, patchYaml(text, p.yamlPath, p.value));
      changed.push(p.path);
    }
    await git.add(changed);
    const status = await git.status();
    if (status.isClean()) return { branch, commit: null, files: changed, message: 'nothing changed' };
    const author = a.commit.author || 'Watchdeck';
    const email = a.commit.email || 'playbooks@watchdeck.local';
    await git
      .addConfig('user.name', author)
      .addConfig('user.email', email)
      .commit(a.commit.message, undefined, { '--author': `${author} <${email}>` });
    const commit = (await git.revparse(['HEAD'])).trim();
    try {
      await git.push('origin', branch, branch !== base ? ['--set-upstream'] : []);
    } catch (err) {
      throw new ActionError(`git push failed: ${scrub((err as Error).message)}`, { branch, commit, files: changed });
    }
    return { branch, commit, files: changed, newBranch: branch !== base };
  } finally {
    await cleanup();
  }
}

/** Runs one action of a kind; `key` is the run action's id (an idempotency key for receivers). */
export async function runAction(
  action: PlaybookAction,
  deps: ActionDeps,
  opts: { signal: AbortSignal; timeoutMs: number; key: string },
): Promise<ActionResult> {
  const { signal, timeoutMs, key } = opts;
  try {
    if (action.exec) return await runExec(action.exec, deps, signal, timeoutMs);
    if (action.http) return await runHttp(action.http, deps, signal);
    if (action.sql) return await runSql(action.sql, deps, signal, timeoutMs);
    if (action.notification) return await runNotification(action.notification, deps, signal, key);
    if (action.gitops) return await runGitops(action.gitops, deps, signal);
  } catch (err) {
    if (err instanceof ActionError) throw err;
    if (signal.aborted) throw new ActionError(abortMessage(signal));
    throw new ActionError((err as Error).message);
  }
  throw new ActionError('the action has no kind');
}

export function abortMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the action was stopped';
}
