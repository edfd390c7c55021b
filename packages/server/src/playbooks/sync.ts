/**
 * Playbooks kept as YAML files, synced from a source (README.md "Sources"): a git remote checked
 * out under the data directory, or a directory under an allowed root. One sync reads every file
 * the source's globs match, judges each playbook exactly as a UI write (spec.ts), then writes in
 * one transaction: new playbooks added, changed ones updated, unchanged ones left alone (their
 * content hash), and playbooks whose file is gone soft-deleted. A bad file is reported in the
 * job's errors by path and field and its playbooks are kept as they were; the others still sync.
 * Rows get source 'GitOps', so a person's edit is refused (sql/40-playbook-source-guard.sql).
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { parseAllDocuments } from 'yaml';
import { PLAYBOOK_SOURCE_DEFAULT_PATHS, PLAYBOOK_SYNC_SOURCE } from '@watchdeck/core';
import type { Db, Queryable } from '#server/db/index.ts';
import { connectionByName, type SecretBox } from '#server/connections/index.ts';
import { checkoutGit, globFiles, realInside, scrubGit } from '#server/git/index.ts';
import { runJob, type JobSource } from '#server/jobs/index.ts';
import type { JobContext } from '#server/jobs/job-history.ts';
import { playbookRowProblems } from './spec.ts';
import { PlaybookError } from './service.ts';

interface PlaybookSourceRow {
  id: string;
  name: string;
  url: string | null;
  connection: string | null;
  ref: string | null;
  directory: string | null;
  paths: string[];
  schedule: string | null;
}

export interface SyncDeps {
  db: Db;
  box?: SecretBox;
  /** where git checkouts are kept */
  gitDir: string;
  /** directories a source may read (realpath'd when checked) */
  roots: readonly string[];
  log: FastifyBaseLogger;
  /** after a sync that changed playbooks: their schedules are read again */
  changed: () => Promise<void>;
}

export interface SyncSummary {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  errors: number;
}

/** A file bigger than this is reported, not read. */
const MAX_FILE_BYTES = 1024 * 1024;
/** A source matching more files than this is refused: a glob too wide. */
const MAX_FILES = 2000;
/** How long a sync holds its source; a crashed sync's claim lapses after this. */
const LEASE = '10 minutes';

/** The real path of `dir` when it lies under one of the roots; else the error people see. */
export async function allowedDirectory(dir: string, roots: readonly string[]): Promise<string> {
  const real = await realInside(resolve(dir), roots);
  if (real) return real;
  if (!(await realpath(resolve(dir)).catch(() => undefined)))
    throw new PlaybookError(400, `directory: ${dir} does not exist on the server`);
  throw new PlaybookError(
    400,
    `directory: ${dir} is outside the allowed roots (${roots.join(', ')}); an administrator adds directories with WATCHDECK_PLAYBOOK_ROOTS`,
  );
}

/** A git url naming a repository on this machine (a path or file://): its directory, else undefined. */
export function localRepository(url: string): string | undefined {
  if (/^file:\/\//i.test(url)) return fileURLToPath(url);
  if (isAbsolute(url)) return url;
  if (/^\.\.?\//.test(url)) return resolve(url);
  return undefined;
}

interface Candidate {
  path: string;
  namespace: string;
  name: string;
  title: string;
  description: string | null;
  category: string | null;
  icon: string | null;
  spec: Record<string, unknown>;
  hash: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/**
 * The playbooks of one document: a Playbook resource (`kind: Playbook`, `metadata.name`, `spec`)
 * or a bare spec named after its file. Problems are named as a UI write names them.
 */
function candidateOf(doc: unknown, path: string, single: boolean): Candidate | string[] {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return ['the document is not a YAML mapping'];
  const d = doc as Record<string, unknown>;
  let name: unknown;
  let namespace: unknown = 'default';
  let spec: unknown;
  if (d.kind !== undefined || d.metadata !== undefined || d.apiVersion !== undefined) {
    if (d.kind !== 'Playbook') return [`kind: must be Playbook, not ${JSON.stringify(d.kind)}`];
    const meta = (d.metadata ?? {}) as Record<string, unknown>;
    name = meta.name;
    namespace = meta.namespace ?? 'default';
    spec = d.spec;
  } else {
    if (!single) return ['a file with several documents holds Playbook resources (kind: Playbook, metadata.name)'];
    name = basename(path, extname(path));
    spec = d;
  }
  if (typeof namespace !== 'string' || !namespace.trim()) return ['metadata.namespace must be a non-empty string'];
  const s = spec && typeof spec === 'object' && !Array.isArray(spec) ? (spec as Record<string, unknown>) : undefined;
  const title = text(s?.title) ?? (typeof name === 'string' ? name : '');
  const row = { name, title, spec: s ? { ...s, title } : spec };
  const problems = playbookRowProblems(row, true);
  if (problems.length || !s || typeof name !== 'string') return problems.length ? problems : ['spec is required'];
  const out = {
    namespace: namespace.trim(),
    name: name.trim(),
    title,
    description: text(s.description),
    category: text(s.category),
    icon: text(s.icon),
    spec: { ...s, title },
  };
  return { path, ...out, hash: createHash('sha256').update(JSON.stringify(out)).digest('hex') };
}

interface Read {
  candidates: Candidate[];
  /** files whose playbooks stay as they are (unreadable or invalid) */
  badFiles: Set<string>;
  errors: Record<string, string>;
  files: number;
}

async function readSource(root: string, globs: readonly string[]): Promise<Read> {
  const files = await globFiles(root, [...globs]);
  if (files.length > MAX_FILES) throw new Error(`the paths match ${files.length} files, more than ${MAX_FILES}`);
  const out: Read = { candidates: [], badFiles: new Set(), errors: {}, files: files.length };
  const fail = (path: string, message: string) => {
    out.badFiles.add(path);
    out.errors[path] = out.errors[path] ? `${out.errors[path]}; ${message}` : message;
  };
  for (const path of files) {
    const full = isAbsolute(path) ? path : join(root, path);
    // a link out of the checkout or directory is not followed
    const real = await realInside(full, [root]);
    if (!real) {
      fail(path, 'a link outside the source is not read');
      continue;
    }
    if ((await stat(real)).size > MAX_FILE_BYTES) {
      fail(path, `larger than ${MAX_FILE_BYTES} bytes`);
      continue;
    }
    const docs = parseAllDocuments(await readFile(real, 'utf8'));
    const values: unknown[] = [];
    let parseError: string | undefined;
    for (const d of Array.isArray(docs) ? docs : [docs]) {
      if ('errors' in d && d.errors.length) {
        parseError = `not YAML: ${d.errors[0]!.message.split('\n')[0]}`;
        break;
      }
      const v = d.toJS({ maxAliasCount: 100 }) as unknown;
      if (v !== null && v !== undefined) values.push(v);
    }
    if (parseError) {
      fail(path, parseError);
      continue;
    }
    values.forEach((doc, k) => {
      const c = candidateOf(doc, path, values.length === 1);
      if (Array.isArray(c)) fail(path, values.length > 1 ? `document ${k + 1}: ${c.join('; ')}` : c.join('; '));
      else out.candidates.push(c);
    });
  }
  return out;
}

interface Existing {
  id: string;
  namespace: string;
  name: string;
  source_path: string | null;
  source_hash: string | null;
  deleted_at: string | null;
}

/** The writes of one sync, in one transaction. */
async function writeSync(tx: Queryable, source: PlaybookSourceRow, read: Read): Promise<SyncSummary> {
  const summary: SyncSummary = { added: 0, updated: 0, unchanged: 0, deleted: 0, errors: 0 };
  const { rows: mine } = await tx.query<Existing>(
    `SELECT id, namespace, name, source_path, source_hash, deleted_at FROM playbooks WHERE source_id = $1
     ORDER BY deleted_at IS NULL DESC, updated_at DESC`,
    [source.id],
  );
  const key = (ns: string, name: string) => `${ns}/${name}`;
  const live = new Map<string, Existing>();
  const gone = new Map<string, Existing>();
  for (const r of mine) {
    const k = key(r.namespace, r.name);
    if (!r.deleted_at) live.set(k, r);
    else if (!gone.has(k)) gone.set(k, r);
  }
  const seen = new Map<string, string>();
  const fail = (path: string, message: string) => {
    read.badFiles.add(path);
    read.errors[path] = read.errors[path] ? `${read.errors[path]}; ${message}` : message;
  };
  for (const c of read.candidates) {
    const k = key(c.namespace, c.name);
    const first = seen.get(k);
    if (first) {
      fail(c.path, `playbook "${c.name}" is also defined in ${first}`);
      continue;
    }
    seen.set(k, c.path);
    const values = [c.title, c.description, c.category, c.icon, JSON.stringify(c.spec), c.path, c.hash];
    const current = live.get(k);
    if (current) {
      if (current.source_hash === c.hash && current.source_path === c.path) summary.unchanged++;
      else {
        await tx.query(
          `UPDATE playbooks SET title = $2, description = $3, category = $4, icon = $5, spec = $6::jsonb,
             source_path = $7, source_hash = $8, source = $9 WHERE id = $1`,
          [current.id, ...values, PLAYBOOK_SYNC_SOURCE],
        );
        summary.updated++;
      }
      continue;
    }
    // a name another playbook holds (made in the UI, or by another source) is not taken over
    const { rows: taken } = await tx.query<{ source: string }>(
      `SELECT source FROM playbooks WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL LIMIT 1`,
      [c.namespace, c.name],
    );
    if (taken[0]) {
      fail(c.path, `playbook "${c.name}" already exists (source ${taken[0].source}); rename one of them`);
      continue;
    }
    const revived = gone.get(k);
    if (revived) {
      // the same playbook back in the source: its run history stays attached
      await tx.query(
        `UPDATE playbooks SET title = $2, description = $3, category = $4, icon = $5, spec = $6::jsonb,
           source_path = $7, source_hash = $8, source = $9, deleted_at = NULL WHERE id = $1`,
        [revived.id, ...values, PLAYBOOK_SYNC_SOURCE],
      );
    } else {
      await tx.query(
        `INSERT INTO playbooks (title, description, category, icon, spec, source_path, source_hash, source,
           namespace, name, source_id)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
        [...values, PLAYBOOK_SYNC_SOURCE, c.namespace, c.name, source.id],
      );
    }
    summary.added++;
  }
  // playbooks whose file is gone (or no longer defines them); a bad file's stay as they were
  for (const [k, r] of live) {
    if (seen.has(k) || (r.source_path && read.badFiles.has(r.source_path))) continue;
    await tx.query(`UPDATE playbooks SET deleted_at = now() WHERE id = $1`, [r.id]);
    summary.deleted++;
  }
  summary.errors = Object.keys(read.errors).length;
  return summary;
}

/** The directory the source's files are read from: a checkout of its remote, or its directory. */
async function sourceRoot(deps: SyncDeps, source: PlaybookSourceRow): Promise<{ root: string; commit?: string }> {
  if (source.directory) return { root: await allowedDirectory(source.directory, deps.roots) };
  const conn = source.connection ? await connectionByName(deps.db, deps.box, source.connection) : undefined;
  const url = source.url || conn?.url;
  if (!url) throw new Error(`connection ${source.connection} has no url`);
  const local = localRepository(url);
  if (local) await allowedDirectory(local, deps.roots);
  try {
    const { dir, commit } = await checkoutGit(deps.gitDir, local ?? url, source.ref ?? undefined, {
      auth: conn ? { username: conn.username, password: conn.password } : undefined,
      cleanEnv: true,
    });
    return { root: dir, commit };
  } catch (err) {
    throw new Error(`git checkout of ${scrubGit(url)} failed: ${scrubGit((err as Error).message)}`, { cause: err });
  }
}

async function syncClaimed(deps: SyncDeps, source: PlaybookSourceRow, ctx: JobContext): Promise<SyncSummary> {
  const { root, commit } = await sourceRoot(deps, source);
  if (commit) ctx.details.commit = commit;
  const read = await readSource(root, source.paths.length ? source.paths : PLAYBOOK_SOURCE_DEFAULT_PATHS);
  const summary = await deps.db.transaction((tx) => writeSync(tx, source, read));
  for (const [path, message] of Object.entries(read.errors)) ctx.error(`${path}: ${message}`, path);
  ctx.success(summary.added + summary.updated + summary.unchanged);
  if (!read.files)
    ctx.warn(`no file matches ${(source.paths.length ? source.paths : PLAYBOOK_SOURCE_DEFAULT_PATHS).join(', ')}`);
  ctx.details.summary = summary;
  if (summary.added || summary.updated || summary.deleted) await deps.changed().catch(() => undefined);
  return summary;
}

const SOURCE_COLUMNS = 'id, name, url, connection, ref, directory, paths, schedule';

/**
 * One sync of a source, recorded as a `PlaybookSync` job: claimed through the row's lease so only
 * one runs at a time across replicas. Undefined when another sync holds the source (nothing
 * recorded); 404 for a missing or deleted source.
 */
export async function syncSource(
  deps: SyncDeps,
  id: string,
): Promise<{ id: string; status: string; summary?: SyncSummary } | undefined> {
  const { rows } = await deps.db.query<PlaybookSourceRow>(
    `UPDATE playbook_sources SET lease_until = now() + interval '${LEASE}'
     WHERE id = $1 AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until < now())
     RETURNING ${SOURCE_COLUMNS}`,
    [id],
  );
  const source = rows[0];
  if (!source) {
    const { rows: exists } = await deps.db.query(
      `SELECT 1 FROM playbook_sources WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    if (!exists.length) throw new PlaybookError(404, `playbook source ${id} not found`);
    return undefined;
  }
  try {
    const job = await runJob(
      deps.db,
      { name: 'PlaybookSync', resourceType: 'playbook_source', resourceId: source.id },
      (ctx) => syncClaimed(deps, source, ctx),
    );
    return { id: job.id, status: job.status, summary: job.result };
  } finally {
    await deps.db
      .query(`UPDATE playbook_sources SET lease_until = NULL WHERE id = $1`, [source.id])
      .catch((err) => deps.log.warn({ err, source: source.id }, 'playbook source: lease not released'));
  }
}

/** One scheduled job per source with a schedule (each slot claimed once across replicas). */
export function syncJobSource(deps: SyncDeps): JobSource {
  return {
    name: 'playbook-sources',
    list: async () => {
      const { rows } = await deps.db.query<{ id: string; schedule: string }>(
        `SELECT id, schedule FROM playbook_sources WHERE deleted_at IS NULL AND coalesce(schedule, '') <> '' ORDER BY id`,
      );
      return rows.map((r) => ({
        key: `playbook_source:${r.id}`,
        schedule: r.schedule,
        run: async () => {
          await syncSource(deps, r.id).catch((err) =>
            deps.log.warn({ err, source: r.id }, 'scheduled playbook sync failed'),
          );
        },
      }));
    },
  };
}
