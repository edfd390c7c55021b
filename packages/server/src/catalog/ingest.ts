/**
 * Writes one scrape (or one push) in the caller's transaction: upserts the items by (scraper,
 * type, id in the source), records a change for every body that changed (diff, patch, summary;
 * identical repeats fold into count), keeps the source's own changes with their type, severity and
 * source, soft-deletes what a full run no longer saw (with a `deleted` change), links parents and
 * relationships, and publishes config.created / updated / deleted and config.<health> events.
 * Every step is one statement over all the run's rows (jsonb_to_recordset / unnest), never one
 * round trip per item.
 */
import type { Queryable } from '#server/db/index.ts';
import { bodyChange, sameJson, sourceChangeFingerprint } from './changes.ts';
import type { Health, ItemRef, ScrapeResult, ScrapedItem } from './scrape/types.ts';

interface TypeSummary {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  errors: number;
}

export interface IngestOptions {
  scraperId: string;
  agentId?: string;
  /** a scheduled run read the whole source: what it did not see is deleted */
  full: boolean;
  /** items pushed through the API (never deleted by a scheduled run) */
  pushed?: boolean;
}

export interface IngestOutcome {
  summary: Record<string, TypeSummary>;
  /** every live item the run wrote or saw */
  configIds: string[];
  changes: number;
}

interface Existing {
  id: string;
  type: string;
  external_id: string;
  name: string;
  config: unknown;
  health: string | null;
  status: string | null;
  ready: boolean | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  description: string | null;
  config_class: string;
  source: string | null;
  deleted_at: string | null;
  parent_id: string | null;
  path: string | null;
}

interface ChangeRow {
  config_id: string;
  external_change_id: string | null;
  change_type: string;
  severity: string | null;
  source: string | null;
  summary: string | null;
  details: unknown;
  patches: unknown;
  diff: string | null;
  fingerprint: string;
  count: number;
  created_at: string;
  external_created_by: string | null;
}

interface EventRow {
  name: string;
  rid: string;
  props: Record<string, unknown>;
}

const key = (type: string, id: string) => `${type}\u0000${id}`;
const CHUNK = 2000;

function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** The body as jsonb will hold it (undefined dropped, dates as text). */
function normalise(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function sameMap(a: Record<string, string> | null | undefined, b: Record<string, string> | undefined): boolean {
  return sameJson(a ?? {}, b ?? {});
}

function summaryOf(summary: Record<string, TypeSummary>, type: string): TypeSummary {
  return (summary[type] ??= { added: 0, updated: 0, unchanged: 0, deleted: 0, errors: 0 });
}

/** The item's ids by (type, external id) for refs this run did not carry (parents, changes, relationships). */
async function lookup(tx: Queryable, scraperId: string, refs: ItemRef[], known: Map<string, string>): Promise<void> {
  const missing = refs.filter((r) => !known.has(key(r.type, r.externalId)));
  if (!missing.length) return;
  const { rows } = await tx.query<{ id: string; type: string; external_id: string }>(
    `SELECT c.id, c.type, c.external_id FROM config_items c
     JOIN unnest($2::text[], $3::text[]) AS r(type, external_id) ON c.type = r.type AND c.external_id = r.external_id
     WHERE c.scraper_id = $1`,
    [scraperId, missing.map((r) => r.type), missing.map((r) => r.externalId)],
  );
  for (const r of rows) known.set(key(r.type, r.external_id), r.id);
}

export async function ingest(tx: Queryable, result: ScrapeResult, opts: IngestOptions): Promise<IngestOutcome> {
  const { scraperId } = opts;
  const summary: Record<string, TypeSummary> = {};
  for (const e of result.errors) summaryOf(summary, e.type).errors++;
  // Runs of one scraper (a schedule slot and a Run now, two replicas) write one after the other.
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('catalog.scrape:' || $1::text))`, [scraperId]);
  const { rows: nowRows } = await tx.query<{ now: string }>(`SELECT now()::text AS now`);
  const now = nowRows[0].now;

  // The last item of a (type, id) wins: a source that lists one twice has one item.
  const byKey = new Map<string, ScrapedItem>();
  for (const item of result.items) byKey.set(key(item.type, item.externalId), item);
  const items = [...byKey.values()];
  const ids = new Map<string, string>();

  const existing = new Map<string, Existing>();
  for (const part of chunks(items)) {
    const { rows } = await tx.query<Existing>(
      `SELECT c.id, c.type, c.external_id, c.name, c.config, c.health, c.status, c.ready, c.labels, c.tags,
         c.description, c.config_class, c.source, c.deleted_at, c.parent_id, c.path
       FROM config_items c
       JOIN unnest($2::text[], $3::text[]) AS r(type, external_id) ON c.type = r.type AND c.external_id = r.external_id
       WHERE c.scraper_id = $1`,
      [scraperId, part.map((i) => i.type), part.map((i) => i.externalId)],
    );
    for (const r of rows) {
      existing.set(key(r.type, r.external_id), r);
      ids.set(key(r.type, r.external_id), r.id);
    }
  }

  const inserts: Record<string, unknown>[] = [];
  const updates: Record<string, unknown>[] = [];
  const unchanged: string[] = [];
  const changes: ChangeRow[] = [];
  const events: EventRow[] = [];
  const healthOf = new Map<string, { before: string | null; after: Health | undefined }>();
  const stamp = Date.parse(now);

  const row = (item: ScrapedItem, config: unknown) => ({
    type: item.type,
    external_id: item.externalId,
    config_class: item.configClass || item.type,
    name: item.name,
    description: item.description ?? null,
    source: item.source ?? null,
    format: item.format ?? 'json',
    config,
    status: item.status ?? null,
    health: item.health ?? null,
    ready: item.ready ?? null,
    labels: item.labels ?? {},
    tags: { ...(item.tags ?? {}), ...(item.namespace ? { namespace: item.namespace } : {}) },
    properties: item.properties ?? null,
    cost_per_minute: item.costPerMinute ?? null,
    created_at: item.createdAt?.toISOString() ?? null,
    deleted_at: item.deletedAt?.toISOString() ?? null,
  });

  for (const item of items) {
    const k = key(item.type, item.externalId);
    const config = normalise(item.config);
    const old = existing.get(k);
    const s = summaryOf(summary, item.type);
    if (!old) {
      inserts.push(row(item, config));
      s.added++;
      continue;
    }
    const r = row(item, config);
    const bodyChanged = !sameJson(old.config, config);
    const metaChanged =
      old.name !== r.name ||
      (old.health ?? null) !== r.health ||
      (old.status ?? null) !== r.status ||
      (old.ready ?? null) !== r.ready ||
      old.config_class !== r.config_class ||
      (old.description ?? null) !== r.description ||
      (old.source ?? null) !== r.source ||
      !sameMap(old.labels, r.labels) ||
      !sameMap(old.tags, r.tags) ||
      (old.deleted_at === null) !== (r.deleted_at === null);
    if (!bodyChanged && !metaChanged) {
      unchanged.push(old.id);
      s.unchanged++;
      continue;
    }
    updates.push({ id: old.id, ...r });
    if (r.deleted_at && !old.deleted_at) s.deleted++;
    else s.updated++;
    if (bodyChanged) {
      const c = bodyChange(old.config, config, `${item.type}/${item.name}`);
      changes.push({
        config_id: old.id,
        external_change_id: null,
        change_type: 'diff',
        severity: 'info',
        source: item.source ?? null,
        summary: c.summary,
        details: null,
        patches: c.patches,
        diff: c.diff,
        fingerprint: c.fingerprint,
        count: 1,
        created_at: now,
        external_created_by: null,
      });
      events.push({
        name: 'config.updated',
        rid: `${old.id}/${stamp}`,
        props: { id: old.id, type: item.type, name: item.name, summary: c.summary },
      });
    }
    if (r.deleted_at && !old.deleted_at) {
      changes.push(deletedChange(old.id, `${item.type} ${item.name} deleted in the source`, item.source, now));
      events.push({
        name: 'config.deleted',
        rid: `${old.id}/${stamp}`,
        props: { id: old.id, type: item.type, name: item.name },
      });
    }
    if ((old.health ?? null) !== r.health && r.health) healthOf.set(old.id, { before: old.health, after: item.health });
  }

  // new items, in chunks of one statement each
  for (const part of chunks(inserts)) {
    const { rows } = await tx.query<{
      id: string;
      type: string;
      external_id: string;
      name: string;
      health: Health | null;
    }>(
      `INSERT INTO config_items (scraper_id, agent_id, type, external_id, config_class, name, description, source, format,
         config, status, health, ready, labels, tags, properties, cost_per_minute, last_scraped_time, created_at, deleted_at, pushed)
       SELECT $1, $2, x.type, x.external_id, x.config_class, x.name, x.description, x.source, x.format,
         x.config, x.status, x.health, x.ready, x.labels, x.tags, x.properties, x.cost_per_minute, $3::timestamptz,
         coalesce(x.created_at, $3::timestamptz), x.deleted_at, $5
       FROM jsonb_to_recordset($4::jsonb) AS x(type text, external_id text, config_class text, name text, description text,
         source text, format text, config jsonb, status text, health text, ready boolean, labels jsonb, tags jsonb,
         properties jsonb, cost_per_minute numeric, created_at timestamptz, deleted_at timestamptz)
       RETURNING id, type, external_id, name, health`,
      [
        scraperId,
        opts.agentId ?? '00000000-0000-0000-0000-000000000000',
        now,
        JSON.stringify(part),
        opts.pushed ?? false,
      ],
    );
    for (const r of rows) {
      ids.set(key(r.type, r.external_id), r.id);
      events.push({ name: 'config.created', rid: `${r.id}/created`, props: { id: r.id, type: r.type, name: r.name } });
      if (r.health) healthOf.set(r.id, { before: null, after: r.health });
    }
  }
  for (const part of chunks(updates)) {
    await tx.query(
      `UPDATE config_items c SET config_class = x.config_class, name = x.name, description = x.description,
         source = x.source, format = x.format, config = x.config, status = x.status, health = x.health, ready = x.ready,
         labels = x.labels, tags = x.tags, properties = x.properties, cost_per_minute = x.cost_per_minute,
         deleted_at = x.deleted_at, delete_reason = CASE WHEN x.deleted_at IS NULL THEN NULL ELSE 'deleted in the source' END,
         last_scraped_time = $1::timestamptz, pushed = c.pushed OR $3, updated_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, config_class text, name text, description text, source text,
         format text, config jsonb, status text, health text, ready boolean, labels jsonb, tags jsonb, properties jsonb,
         cost_per_minute numeric, deleted_at timestamptz)
       WHERE c.id = x.id`,
      [now, JSON.stringify(part), opts.pushed ?? false],
    );
  }
  for (const part of chunks(unchanged, 10_000)) {
    await tx.query(`UPDATE config_items SET last_scraped_time = $1::timestamptz WHERE id = ANY($2::uuid[])`, [
      now,
      part,
    ]);
  }

  // parents: the first parent the source names becomes parent_id; path is the ancestors' ids
  const withParents = items.filter((i) => i.parents?.length);
  if (withParents.length) {
    await lookup(
      tx,
      scraperId,
      withParents.map((i) => i.parents![0]),
      ids,
    );
    const parentOf = new Map<string, string | null>();
    for (const i of withParents) {
      const id = ids.get(key(i.type, i.externalId));
      const p = ids.get(key(i.parents![0].type, i.parents![0].externalId));
      if (id && p && p !== id) parentOf.set(id, p);
      else if (id && !p) summaryOf(summary, i.type).errors++;
    }
    // ancestors outside this run contribute their stored path
    const outside = [...new Set([...parentOf.values()].filter((p): p is string => !!p && !parentOf.has(p)))];
    const storedPath = new Map<string, string | null>();
    if (outside.length) {
      const { rows } = await tx.query<{ id: string; path: string | null }>(
        `SELECT id, path FROM config_items WHERE id = ANY($1::uuid[])`,
        [outside],
      );
      for (const r of rows) storedPath.set(r.id, r.path);
    }
    const pathOf = (id: string, seen = new Set<string>()): string => {
      const p = parentOf.get(id);
      if (!p || seen.has(id)) return '';
      seen.add(id);
      const above = parentOf.has(p) ? pathOf(p, seen) : (storedPath.get(p) ?? '');
      return above ? `${above}.${p}` : p;
    };
    const links = [...parentOf.entries()].map(([id, parent]) => ({ id, parent_id: parent, path: pathOf(id) }));
    for (const part of chunks(links)) {
      await tx.query(
        `UPDATE config_items c SET parent_id = x.parent_id, path = x.path
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, parent_id uuid, path text)
         WHERE c.id = x.id AND (c.parent_id IS DISTINCT FROM x.parent_id OR c.path IS DISTINCT FROM x.path)`,
        [JSON.stringify(part)],
      );
    }
  }

  // changes the source reported, on its items
  if (result.changes.length) {
    await lookup(tx, scraperId, result.changes, ids);
    for (const c of result.changes) {
      const id = ids.get(key(c.type, c.externalId));
      if (!id) {
        summaryOf(summary, c.type).errors++;
        continue;
      }
      changes.push({
        config_id: id,
        external_change_id: c.externalChangeId ?? null,
        change_type: c.changeType,
        severity: c.severity ?? 'info',
        source: c.source ?? null,
        summary: c.summary ?? null,
        details: c.details === undefined ? null : normalise(c.details),
        patches: null,
        diff: null,
        fingerprint: sourceChangeFingerprint(c),
        count: 1,
        created_at: c.createdAt?.toISOString() ?? now,
        external_created_by: c.createdBy ?? null,
      });
    }
  }

  const configIds = [...new Set(items.map((i) => ids.get(key(i.type, i.externalId))).filter((x): x is string => !!x))];

  // a full run deletes what it no longer saw (pushed items are the pusher's to delete)
  if (opts.full) {
    const { rows: gone } = await tx.query<{ id: string; type: string; name: string; source: string | null }>(
      `UPDATE config_items SET deleted_at = $3::timestamptz, delete_reason = 'not found in the last scrape'
       WHERE scraper_id = $1 AND deleted_at IS NULL AND NOT pushed AND NOT (id = ANY($2::uuid[]))
       RETURNING id, type, name, source`,
      [scraperId, configIds, now],
    );
    for (const g of gone) {
      summaryOf(summary, g.type).deleted++;
      changes.push(deletedChange(g.id, `${g.type} ${g.name} is no longer in the source`, g.source ?? undefined, now));
      events.push({ name: 'config.deleted', rid: `${g.id}/${stamp}`, props: { id: g.id, type: g.type, name: g.name } });
    }
  }

  const written = await writeChanges(tx, changes);

  // relationships the source reported; a full run retires the ones it no longer reports
  const selector = `scraper:${scraperId}`;
  if (result.relationships.length) {
    await lookup(
      tx,
      scraperId,
      result.relationships.flatMap((r) => [r.from, r.to]),
      ids,
    );
  }
  const rels = result.relationships
    .map((r) => ({
      config_id: ids.get(key(r.from.type, r.from.externalId)),
      related_id: ids.get(key(r.to.type, r.to.externalId)),
      relation: r.relation,
    }))
    .filter((r) => r.config_id && r.related_id && r.config_id !== r.related_id);
  const unique = [...new Map(rels.map((r) => [`${r.config_id}/${r.related_id}`, r])).values()];
  for (const part of chunks(unique)) {
    await tx.query(
      `INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
       SELECT x.config_id, x.related_id, x.relation, $2 FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, related_id uuid, relation text)
       ON CONFLICT (config_id, related_id, selector_id) DO UPDATE SET relation = EXCLUDED.relation, deleted_at = NULL
       WHERE config_relationships.relation IS DISTINCT FROM EXCLUDED.relation OR config_relationships.deleted_at IS NOT NULL`,
      [JSON.stringify(part), selector],
    );
  }
  if (opts.full) {
    await tx.query(
      `UPDATE config_relationships r SET deleted_at = now()
       WHERE r.selector_id = $1 AND r.deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($2::jsonb) AS x(config_id uuid, related_id uuid)
                         WHERE x.config_id = r.config_id AND x.related_id = r.related_id)`,
      [selector, JSON.stringify(unique.map((u) => ({ config_id: u.config_id, related_id: u.related_id })))],
    );
  }

  for (const [id, h] of healthOf) {
    if (!h.after) continue;
    events.push({
      name: `config.${h.after}`,
      rid: `${id}/${h.after}/${stamp}`,
      props: { id, health: h.after, previous: h.before },
    });
  }
  await publishAll(tx, events);
  return { summary, configIds, changes: written };
}

function deletedChange(id: string, summary: string, source: string | undefined, now: string): ChangeRow {
  return {
    config_id: id,
    external_change_id: null,
    change_type: 'deleted',
    severity: 'info',
    source: source ?? null,
    summary,
    details: null,
    patches: null,
    diff: null,
    // a deletion is an occurrence: deleted again after coming back is another change
    fingerprint: `deleted/${now}`,
    count: 1,
    created_at: now,
    external_created_by: null,
  };
}

/**
 * Inserts the changes, folding each into the item's change with the same fingerprint when there is
 * one (count + 1, created_at = when it was last seen, first_observed kept). Answers the rows written
 * or folded.
 */
async function writeChanges(tx: Queryable, changes: ChangeRow[]): Promise<number> {
  if (!changes.length) return 0;
  // repeats within the run fold first
  const folded = new Map<string, ChangeRow>();
  for (const c of changes) {
    const k = `${c.config_id}/${c.fingerprint}`;
    const prev = folded.get(k);
    if (prev) {
      prev.count += c.count;
      if (c.created_at > prev.created_at) prev.created_at = c.created_at;
    } else folded.set(k, { ...c });
  }
  let n = 0;
  for (const part of chunks([...folded.values()])) {
    const { rows } = await tx.query<{ n: number }>(
      `WITH x AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, external_change_id text, change_type text,
           severity text, source text, summary text, details jsonb, patches jsonb, diff text, fingerprint text, count int,
           created_at timestamptz, external_created_by text)
       ),
       folded AS (
         UPDATE config_changes c SET count = c.count + x.count, created_at = greatest(c.created_at, x.created_at),
           summary = coalesce(x.summary, c.summary), details = coalesce(x.details, c.details)
         FROM x WHERE c.config_id = x.config_id AND c.fingerprint = x.fingerprint
         RETURNING c.config_id, c.fingerprint
       ),
       added AS (
         INSERT INTO config_changes (config_id, external_change_id, change_type, severity, source, summary, details,
           patches, diff, fingerprint, count, first_observed, created_at, external_created_by)
         SELECT x.config_id, x.external_change_id, x.change_type, x.severity, x.source, x.summary, x.details, x.patches,
           x.diff, x.fingerprint, x.count, x.created_at, x.created_at, x.external_created_by
         FROM x WHERE NOT EXISTS (SELECT 1 FROM folded f WHERE f.config_id = x.config_id AND f.fingerprint = x.fingerprint)
         ON CONFLICT (config_id, external_change_id) WHERE external_change_id IS NOT NULL DO NOTHING
         RETURNING 1
       )
       SELECT ((SELECT count(*) FROM folded) + (SELECT count(*) FROM added))::int AS n`,
      [JSON.stringify(part)],
    );
    n += rows[0].n;
  }
  return n;
}

/**
 * The events of the run, through publish_event() (the bus's one writer) in one statement; stored
 * only for names some consumer subscribes to.
 */
async function publishAll(tx: Queryable, events: EventRow[]): Promise<void> {
  if (!events.length) return;
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM event_consumers c WHERE c.events && $1::text[]`,
    [[...new Set(events.map((e) => e.name))]],
  );
  if (!rows[0].n) return;
  for (const part of chunks(events)) {
    await tx.query(
      `SELECT count(publish_event(e.name, e.rid, e.props)) FROM jsonb_to_recordset($1::jsonb) AS e(name text, rid text, props jsonb)`,
      [JSON.stringify(part)],
    );
  }
}
