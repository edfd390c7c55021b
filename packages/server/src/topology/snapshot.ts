/**
 * GET /api/snapshot/topology/{id}?start=&related= (seed 002 section 7.2, "Snapshot"): one zip of
 * what an operator looks at when a component misbehaves, to attach to a ticket or read offline.
 *
 *   components.json      the component and its descendants as a tree (plus `related`, the
 *                        components linked to them, with related=true)
 *   checks.json          the checks attached to those components
 *   check_statuses.json  the checks' results in the range, newest first
 *   configs.json         the config items linked to the components, with their content
 *   config_changes.json  those items' changes in the range, newest first
 *   incidents.json       incidents with evidence on the components, active during the range
 *   manifest.json        what was asked, the range, and per file its rows and whether a limit cut it
 *
 * The zip is streamed: each file is read from the database page by page as the client takes the
 * bytes (archiver's backpressure), one file after the other, so memory stays at a page whatever
 * the range. Every file has a row limit and a byte limit; a file a limit cut says so in the
 * manifest. A database error in one file ends that file early and is named in the manifest (the
 * headers are gone by then, so the zip stays readable rather than breaking off).
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { ZipArchive } from 'archiver';
import { parseDuration, parseRelativeTime, type TopologyComponent } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';

/** Rows and uncompressed bytes per file. */
const SNAPSHOT_LIMITS = {
  components: 5000,
  related: 1000,
  checks: 5000,
  checkStatuses: 100_000,
  configs: 1000,
  configChanges: 50_000,
  incidents: 1000,
  bytesPerFile: 64 * 1024 * 1024,
};
type SnapshotLimits = typeof SNAPSHOT_LIMITS;
const PAGE = 1000;
const CONFIG_PAGE = 50;
/** the range when `start` is not given: the last 2 days, the seeds' default for changes and job history */
export const DEFAULT_START = '2d';
const START_MESSAGE = 'start must be a duration such as 1h or 3d, a relative time such as now-1h, or a date';

/** `start`: how far back the range reaches ('1h', '3d'), a relative time ('now-1h') or a date. */
export function parseStart(text: string, now: Date): Date | undefined {
  const t = text.trim();
  let date: Date | undefined;
  if (t.startsWith('now')) date = parseRelativeTime(t, { now });
  else if (/^\d/.test(t) && parseDuration(t) !== undefined) date = new Date(now.getTime() - parseDuration(t)!);
  else if (/^\d{4}-\d{2}-\d{2}/.test(t)) date = new Date(t);
  if (!date || Number.isNaN(date.getTime()) || date.getTime() < 0 || date.getTime() > now.getTime()) return undefined;
  return date;
}

export const snapshotQuery = z.object({
  start: z
    .string({ error: START_MESSAGE })
    .max(100, { error: START_MESSAGE })
    .optional()
    .refine((s) => !s || s.trim() === '' || parseStart(s, new Date()) !== undefined, { error: START_MESSAGE }),
  related: z
    .enum(['true', 'false'], { error: 'related must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

type ComponentRow = Omit<TopologyComponent, 'components' | 'teams'> & { depth?: number };
type Tree = ComponentRow & { components: Tree[] };

export interface SnapshotScope {
  root: Tree;
  related: ComponentRow[];
  /** every component of the snapshot: the tree and the related ones */
  ids: string[];
  truncated: { components: boolean; related: boolean };
}

const COMPONENT_COLUMNS = `c.id, c.topology_id, c.parent_id, c.path, c.agent_id, c.external_id, c.name, c.title, c.type,
  c.icon, c.description, c.labels, c.properties, c.logs, c.status, c.status_reason, c.hidden, c.summary,
  c.created_at, c.updated_at`;

/** The component, its descendants (hidden ones too) and, with related, the components linked to them. */
export async function snapshotScope(db: Db, id: string, related: boolean): Promise<SnapshotScope | undefined> {
  const { rows } = await db.query<ComponentRow>(
    `WITH RECURSIVE tree(id, depth) AS (
       SELECT id, 0 FROM components WHERE id = $1::uuid AND deleted_at IS NULL
       UNION
       SELECT c.id, t.depth + 1 FROM components c JOIN tree t ON c.parent_id = t.id
       WHERE c.deleted_at IS NULL AND t.depth < 100
     ), nodes AS (SELECT id, min(depth) AS depth FROM tree GROUP BY id)
     SELECT ${COMPONENT_COLUMNS}, n.depth FROM nodes n JOIN components c ON c.id = n.id
     ORDER BY n.depth, c.name, c.id LIMIT ${SNAPSHOT_LIMITS.components + 1}`,
    [id],
  );
  if (!rows[0]) return undefined;
  const kept = rows.slice(0, SNAPSHOT_LIMITS.components);
  const nodes = new Map<string, Tree>();
  for (const { depth: _depth, ...r } of kept) nodes.set(r.id, { ...r, components: [] });
  for (const node of nodes.values())
    if (node.id !== id && node.parent_id) nodes.get(node.parent_id)?.components.push(node);
  const ids = [...nodes.keys()];

  let relatedRows: ComponentRow[] = [];
  if (related) {
    const r = await db.query<ComponentRow>(
      `SELECT ${COMPONENT_COLUMNS} FROM components c
       WHERE c.deleted_at IS NULL AND NOT c.id = ANY($1::uuid[]) AND c.id IN (
         SELECT relationship_id FROM component_relationships WHERE component_id = ANY($1::uuid[]) AND deleted_at IS NULL
         UNION
         SELECT component_id FROM component_relationships WHERE relationship_id = ANY($1::uuid[]) AND deleted_at IS NULL)
       ORDER BY c.name, c.id LIMIT ${SNAPSHOT_LIMITS.related + 1}`,
      [ids],
    );
    relatedRows = r.rows;
  }
  return {
    root: nodes.get(id)!,
    related: relatedRows.slice(0, SNAPSHOT_LIMITS.related),
    ids: [...ids, ...relatedRows.slice(0, SNAPSHOT_LIMITS.related).map((r) => r.id)],
    truncated: {
      components: rows.length > SNAPSHOT_LIMITS.components,
      related: relatedRows.length > SNAPSHOT_LIMITS.related,
    },
  };
}

interface FileStats {
  rows: number;
  bytes: number;
  truncated: boolean;
  error?: string;
}

/** A JSON array written row by row, stopped by the row and byte limits. */
async function* jsonArray(
  rows: AsyncIterable<unknown>,
  stats: FileStats,
  max: { rows: number; bytes: number },
  onError: (err: unknown) => void,
): AsyncGenerator<string> {
  yield '[';
  try {
    for await (const row of rows) {
      if (stats.rows >= max.rows) {
        stats.truncated = true;
        break;
      }
      const text = JSON.stringify(row);
      if (stats.bytes + text.length > max.bytes) {
        stats.truncated = true;
        break;
      }
      yield (stats.rows ? ',\n' : '\n') + text;
      stats.rows++;
      stats.bytes += text.length;
    }
  } catch (err) {
    stats.error = 'the database could not be read for this file; it ends early';
    onError(err);
  }
  yield '\n]\n';
}

/**
 * Rows newest first, a page at a time: `page(cursor)` answers up to PAGE rows after the cursor
 * (the last row's `cursor_time`, `cursor_id`: the time as PostgreSQL's text, so no precision is
 * lost to JavaScript dates).
 */
async function* keyset<T extends { cursor_time: string; cursor_id: string }>(
  page: (cursor?: { time: string; id: string }) => Promise<T[]>,
): AsyncGenerator<Omit<T, 'cursor_time' | 'cursor_id'>> {
  let cursor: { time: string; id: string } | undefined;
  for (;;) {
    const rows = await page(cursor);
    for (const { cursor_time, cursor_id, ...row } of rows) {
      cursor = { time: cursor_time, id: cursor_id };
      yield row;
    }
    if (rows.length < PAGE) return;
  }
}

async function* fromArray<T>(rows: T[]): AsyncGenerator<T> {
  yield* rows;
}

interface SnapshotFile {
  name: string;
  limit: number;
  rows: () => AsyncIterable<unknown>;
}

/**
 * The zip of a snapshot, as a stream to send. Files are added one after the other, each once the
 * previous one is written, so only one file's query runs at a time and the manifest, last, knows
 * every file's count. `signal` (the client going away) stops it.
 */
export function snapshotArchive(
  db: Db,
  scope: SnapshotScope,
  opts: {
    start: Date;
    end: Date;
    related: boolean;
    signal: AbortSignal;
    log: (err: unknown) => void;
    /** SNAPSHOT_LIMITS unless given (tests) */
    limits?: Partial<Omit<SnapshotLimits, 'components' | 'related'>>;
  },
): ZipArchive {
  const lim = { ...SNAPSHOT_LIMITS, ...opts.limits };
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const { ids } = scope;
  const range = [opts.start, opts.end];
  let checkIds: string[] = [];
  let configIds: string[] = [];

  const files: SnapshotFile[] = [
    {
      name: 'components.json',
      limit: 1,
      rows: () => fromArray([{ ...scope.root, ...(opts.related ? { related: scope.related } : {}) }]),
    },
    {
      name: 'checks.json',
      limit: lim.checks,
      rows: async function* () {
        const { rows } = await db.query<{ id: string }>(
          `SELECT ch.id, ch.canary_id, ca.name AS canary_name, ch.name, ch.type, ch.status, ch.severity, ch.description,
             ch.endpoint, ch.namespace, ch.labels, ch.last_runtime, ch.last_transition_time, ch.created_at, ch.updated_at,
             array_agg(DISTINCT r.component_id) AS component_ids
           FROM check_component_relationships r
           JOIN checks ch ON ch.id = r.check_id
           LEFT JOIN canaries ca ON ca.id = ch.canary_id
           WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL AND ch.deleted_at IS NULL
           GROUP BY ch.id, ca.name ORDER BY ch.name, ch.id LIMIT ${lim.checks + 1}`,
          [ids],
        );
        checkIds = rows.slice(0, lim.checks).map((r) => r.id);
        yield* rows;
      },
    },
    {
      name: 'check_statuses.json',
      limit: lim.checkStatuses,
      rows: () =>
        keyset(async (cursor) => {
          if (!checkIds.length) return [];
          const params: unknown[] = [checkIds, ...range];
          const after = cursor
            ? `AND (s.time, s.check_id) < ($${params.push(cursor.time)}::timestamptz, $${params.push(cursor.id)}::uuid)`
            : '';
          return (
            await db.query<{ cursor_time: string; cursor_id: string }>(
              `SELECT s.check_id, s.time, s.status, s.duration, s.invalid, s.message, s.error, s.detail,
                 s.time::text AS cursor_time, s.check_id::text AS cursor_id
               FROM check_statuses s
               WHERE s.check_id = ANY($1::uuid[]) AND s.time >= $2 AND s.time <= $3 ${after}
               ORDER BY s.time DESC, s.check_id DESC LIMIT ${PAGE}`,
              params,
            )
          ).rows;
        }),
    },
    {
      name: 'configs.json',
      limit: lim.configs,
      rows: async function* () {
        const { rows } = await db.query<{ id: string; component_ids: string[] }>(
          `SELECT r.config_id AS id, array_agg(DISTINCT r.component_id) AS component_ids, min(ci.name) AS name
           FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
           WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL
           GROUP BY r.config_id ORDER BY min(ci.name), r.config_id LIMIT ${lim.configs + 1}`,
          [ids],
        );
        configIds = rows.slice(0, lim.configs).map((r) => r.id);
        const componentsOf = new Map(rows.map((r) => [r.id, r.component_ids]));
        // contents can be large: a few items per statement
        for (let i = 0; i < rows.length; i += CONFIG_PAGE) {
          const page = await db.query<{ id: string }>(
            `SELECT ci.id, ci.name, ci.type, ci.config_class, ci.status, ci.health, ci.ready, ci.labels, ci.tags,
               ci.description, ci.source, ci.config, ci.created_at, ci.updated_at, ci.deleted_at, ci.last_scraped_time
             FROM config_items ci WHERE ci.id = ANY($1::uuid[]) ORDER BY ci.name, ci.id`,
            [rows.slice(i, i + CONFIG_PAGE).map((r) => r.id)],
          );
          for (const row of page.rows) yield { ...row, component_ids: componentsOf.get(row.id) };
        }
      },
    },
    {
      name: 'config_changes.json',
      limit: lim.configChanges,
      rows: () =>
        keyset(async (cursor) => {
          if (!configIds.length) return [];
          const params: unknown[] = [configIds, ...range];
          const after = cursor
            ? `AND (cc.created_at, cc.id) < ($${params.push(cursor.time)}::timestamptz, $${params.push(cursor.id)}::uuid)`
            : '';
          return (
            await db.query<{ cursor_time: string; cursor_id: string }>(
              `SELECT cc.id, cc.config_id, ci.name AS config_name, ci.type AS config_type, cc.change_type, cc.severity,
                 cc.source, cc.summary, cc.details, cc.diff, cc.count, cc.first_observed, cc.created_at, cc.created_by,
                 cc.external_created_by, cc.created_at::text AS cursor_time, cc.id::text AS cursor_id
               FROM config_changes cc JOIN config_items ci ON ci.id = cc.config_id
               WHERE cc.config_id = ANY($1::uuid[]) AND cc.created_at >= $2 AND cc.created_at <= $3 ${after}
               ORDER BY cc.created_at DESC, cc.id DESC LIMIT ${PAGE}`,
              params,
            )
          ).rows;
        }),
    },
    {
      name: 'incidents.json',
      limit: lim.incidents,
      rows: async function* () {
        // active during the range: not resolved or closed before it began
        const { rows } = await db.query(
          `SELECT i.id, i.incident_id, i.title, i.description, i.type, i.status, i.severity, i.created_at, i.updated_at,
             i.acknowledged, i.resolved, i.closed, x.component_ids
           FROM (SELECT h.incident_id AS id, array_agg(DISTINCT e.component_id) AS component_ids
                 FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
                 WHERE e.component_id = ANY($1::uuid[]) GROUP BY h.incident_id) x
           JOIN incidents i ON i.id = x.id
           WHERE i.created_at <= $3 AND (i.resolved IS NULL OR i.resolved >= $2) AND (i.closed IS NULL OR i.closed >= $2)
           ORDER BY i.created_at DESC, i.id LIMIT ${lim.incidents + 1}`,
          [ids, ...range],
        );
        yield* rows;
      },
    },
  ];

  const stats: Record<string, FileStats> = {};
  const manifest = () => ({
    component: { id: scope.root.id, name: scope.root.name },
    start: opts.start.toISOString(),
    end: opts.end.toISOString(),
    related: opts.related,
    components: {
      tree: countTree(scope.root),
      related: scope.related.length,
      truncated: scope.truncated.components || scope.truncated.related,
    },
    files: stats,
    limits: lim,
  });

  const fill = async () => {
    for (const file of files) {
      stats[file.name] = { rows: 0, bytes: 0, truncated: false };
      const written = once(archive, 'entry', { signal: opts.signal });
      const max = { rows: file.limit, bytes: lim.bytesPerFile };
      archive.append(Readable.from(jsonArray(file.rows(), stats[file.name], max, opts.log)), {
        name: file.name,
      });
      await written;
    }
    delete stats['components.json']; // counted under `components`
    archive.append(JSON.stringify(manifest(), null, 2) + '\n', { name: 'manifest.json' });
    await archive.finalize();
  };
  fill().catch((err: unknown) => {
    if (opts.signal.aborted) return;
    opts.log(err);
    archive.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return archive;
}

function countTree(node: Tree): number {
  return 1 + node.components.reduce((n, c) => n + countTree(c), 0);
}

/** `attachment; filename="{name}-snapshot.zip"`, with an ASCII fallback and the UTF-8 name. */
export function snapshotDisposition(name: string): string {
  const file = `${name}-snapshot.zip`;
  const ascii = file.replace(/[^\x20-\x7e]|["\\%/]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
