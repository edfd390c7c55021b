/**
 * Objects of the API as rows of the areas' tables: reads (list with label selectors and keyset
 * pages, get by name) and writes (create, replace, patch, apply) that run the areas' own write
 * checks (the /api/db write pipeline's registrations) before any SQL, take a per-name lock, check
 * `metadata.resourceVersion` (the row's xmin: it changes with every write, the UI's included) and
 * record annotations, extra labels and managed fields in `kube_objects`.
 */
import { isValueReference, parseValueSource, SECRET_MASK } from '@watchdeck/core';
import type { Db, Queryable } from '../db/index.ts';
import type { WriteRegistration } from '../pgrest/index.ts';
import type { SecretBox } from '../connections/index.ts';
import { API_VERSION, KINDS, type KubeKind } from './kinds.ts';
import { isObj } from './merge.ts';
import { parseLabelSelector, selectorSql } from './selectors.ts';
import { KubeError, notFound } from './status.ts';

const SOURCE = 'kubectl';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Page size when the caller gives no limit, and the most one page holds. */
const DEFAULT_PAGE = 500;
const MAX_PAGE = 1000;

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    managedFields?: unknown[];
    [k: string]: unknown;
  };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** The SQL type of the columns that need a cast from a bound text/JSON parameter. */
const CASTS: Record<string, string> = {
  spec: 'jsonb',
  labels: 'jsonb',
  properties: 'jsonb',
  custom_services: 'jsonb',
  events: 'text[]',
  from: 'timestamptz',
  until: 'timestamptz',
  recursive: 'boolean',
  insecure_tls: 'boolean',
  priority: 'integer',
  canary_id: 'uuid',
  check_id: 'uuid',
  component_id: 'uuid',
  config_id: 'uuid',
  person_id: 'uuid',
  team_id: 'uuid',
};
const JSONB = new Set(['spec', 'labels', 'properties', 'custom_services']);
const q = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

export interface StoreDeps {
  db: Db;
  box?: SecretBox;
  writes: readonly WriteRegistration[];
}

function exprs(kind: KubeKind) {
  return {
    name: kind.nameColumn ? 'r.name' : 'coalesce(m.name, r.id::text)',
    namespace: kind.namespaced ? 'r.namespace' : `''::text`,
    labels: kind.labelsColumn ? `coalesce(r.labels, '{}'::jsonb)` : `coalesce(m.labels, '{}'::jsonb)`,
  };
}

/** `metaOnly`: what a Table row needs (kubectl get), without the spec and annotations. */
function selectSql(kind: KubeKind, metaOnly = false): string {
  const e = exprs(kind);
  const cols = metaOnly ? '' : `${kind.columns.map((c) => `r.${q(c)}`).join(', ')}, m.annotations, m.managed_fields, `;
  return `SELECT r.id, ${e.name} AS kname, ${e.namespace} AS kns, ${e.labels} AS klabels, r.source, r.created_at,
            r.xmin::text AS rv, ${cols}m.generation
       FROM ${q(kind.table)} r LEFT JOIN kube_objects m ON m.table_name = '${kind.table}' AND m.row_id = r.id`;
}

/** A stored secret as the API shows it: a reference as valueFrom, a literal masked. */
function showSecret(box: SecretBox | undefined, stored: unknown): unknown {
  if (typeof stored !== 'string' || stored === '') return undefined;
  let plain: string;
  try {
    plain = box ? box.decrypt(stored) : stored;
  } catch {
    return SECRET_MASK;
  }
  return isValueReference(plain) ? valueFrom(plain) : SECRET_MASK;
}

function valueFrom(stored: string) {
  const v = parseValueSource(stored);
  if (v.source === 'static') return v.value;
  const ref = { name: v.name, key: v.key };
  if (v.source === 'secret') return { valueFrom: { secretKeyRef: ref } };
  if (v.source === 'configmap') return { valueFrom: { configMapKeyRef: ref } };
  return { valueFrom: { helmRef: ref } };
}

/** A value-source field as written (a string, {value}, {valueFrom}) in the stored form. */
function storedValue(field: string, v: unknown): unknown {
  if (v === undefined || v === null || typeof v === 'string') return v;
  if (!isObj(v)) throw new KubeError(422, 'Invalid', `spec.${field} must be a string, {value} or {valueFrom}`);
  if (typeof v.value === 'string') return v.value;
  const from = isObj(v.valueFrom) ? v.valueFrom : undefined;
  const refs: [string, unknown][] = [
    ['secret', from?.secretKeyRef],
    ['configmap', from?.configMapKeyRef],
    ['helm', from?.helmRef],
  ];
  for (const [scheme, ref] of refs) {
    if (isObj(ref) && typeof ref.name === 'string' && typeof ref.key === 'string' && ref.name && ref.key)
      return `${scheme}://${ref.name}/${ref.key}`;
  }
  throw new KubeError(
    422,
    'Invalid',
    `spec.${field}.valueFrom needs secretKeyRef, configMapKeyRef or helmRef with a name and a key`,
  );
}

/** What the write checks see for a secret kept as stored (a value is there, unseen). */
const STORED = 'stored';

/** The connection spec's value-source fields (url, username, password, certificate). */
const VALUE_FIELDS = ['url', 'username', 'password', 'certificate'];

export class KubeStore {
  constructor(private readonly deps: StoreDeps) {}

  toObject(kind: KubeKind, row: Record<string, unknown>): KubeObject {
    const spec = kind.fromRow(row);
    if (kind.secrets) {
      for (const f of VALUE_FIELDS) {
        if (!(f in spec)) continue;
        spec[f] = kind.secrets.includes(f)
          ? showSecret(this.deps.box, spec[f])
          : typeof spec[f] === 'string'
            ? valueFrom(spec[f])
            : spec[f];
        if (spec[f] === undefined) delete spec[f];
      }
    }
    const labels = (row.klabels ?? {}) as Record<string, string>;
    const annotations = (row.annotations ?? {}) as Record<string, string>;
    const managed = (row.managed_fields ?? []) as unknown[];
    const created = row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at));
    return {
      apiVersion: API_VERSION,
      kind: kind.kind,
      metadata: {
        name: String(row.kname),
        ...(kind.namespaced ? { namespace: String(row.kns) } : {}),
        uid: String(row.id),
        resourceVersion: String(row.rv),
        generation: Number(row.generation ?? 1),
        creationTimestamp: created.toISOString().replace(/\.\d+Z$/, 'Z'),
        ...(Object.keys(labels).length ? { labels } : {}),
        ...(Object.keys(annotations).length ? { annotations } : {}),
        ...(managed.length ? { managedFields: managed } : {}),
      },
      spec,
      status: { source: row.source },
    };
  }

  async list(
    kind: KubeKind,
    opts: {
      namespace?: string;
      labelSelector?: string;
      fieldSelector?: string;
      limit?: number;
      continue?: string;
      metaOnly?: boolean;
    },
  ): Promise<{ items: KubeObject[]; continue?: string; resourceVersion: string }> {
    const params: unknown[] = [];
    const param = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const e = exprs(kind);
    const where = ['r.deleted_at IS NULL'];
    if (opts.namespace !== undefined && kind.namespaced) where.push(`r.namespace = ${param(opts.namespace)}`);
    if (opts.labelSelector) where.push(...selectorSql(parseLabelSelector(opts.labelSelector), e.labels, param));
    if (opts.fieldSelector) {
      for (const part of opts.fieldSelector.split(',').filter(Boolean)) {
        const m = /^metadata\.(name|namespace)\s*(==|=|!=)\s*(.*)$/.exec(part.trim());
        if (!m) throw new KubeError(400, 'BadRequest', `field label not supported: ${part.split(/[=!]/)[0]}`);
        where.push(`${m[1] === 'name' ? e.name : e.namespace} ${m[2] === '!=' ? '<>' : '='} ${param(m[3])}`);
      }
    }
    if (opts.continue) {
      const after = decodeContinue(opts.continue);
      where.push(
        `(${e.namespace}, ${e.name}, r.id) > (${param(after[0])}, ${param(after[1])}, ${param(after[2])}::uuid)`,
      );
    }
    const limit = Math.min(opts.limit && opts.limit > 0 ? opts.limit : DEFAULT_PAGE, MAX_PAGE);
    const sql = `${selectSql(kind, opts.metaOnly)} WHERE ${where.join(' AND ')} ORDER BY ${e.namespace}, ${e.name}, r.id LIMIT ${param(limit + 1)}`;
    const r = await this.deps.db.query(sql, params);
    const rows = r.rows.slice(0, limit);
    const last = rows[rows.length - 1];
    const snap = await this.deps.db.query<{ rv: string }>(
      `SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS rv`,
    );
    return {
      items: rows.map((row) => this.toObject(kind, row)),
      continue:
        r.rows.length > limit && last
          ? encodeContinue([String(last.kns), String(last.kname), String(last.id)])
          : undefined,
      resourceVersion: snap.rows[0]?.rv ?? '0',
    };
  }

  /** The namespaces any namespaced kind's live rows use (at most 1000). */
  async namespaces(): Promise<string[]> {
    const parts = KINDS.filter((k) => k.namespaced).map(
      (k) => `SELECT DISTINCT namespace FROM ${q(k.table)} WHERE deleted_at IS NULL`,
    );
    const r = await this.deps.db.query<{ namespace: string }>(
      `SELECT namespace FROM (${parts.join(' UNION ')}) n ORDER BY namespace LIMIT 1000`,
    );
    return r.rows.map((row) => row.namespace);
  }

  private async find(tx: Queryable, kind: KubeKind, namespace: string, name: string, lock: boolean) {
    const e = exprs(kind);
    const params: unknown[] = [name];
    let where = `r.deleted_at IS NULL AND ${e.name} = $1`;
    if (kind.namespaced) {
      params.push(namespace);
      where += ` AND r.namespace = $2`;
    }
    const r = await tx.query(
      `${selectSql(kind)} WHERE ${where} ORDER BY r.created_at, r.id LIMIT 1${lock ? ' FOR UPDATE OF r' : ''}`,
      params,
    );
    return r.rows[0] as Record<string, unknown> | undefined;
  }

  async get(kind: KubeKind, namespace: string, name: string): Promise<KubeObject> {
    const row = await this.find(this.deps.db, kind, namespace, name, false);
    if (!row) throw notFound(kind, name);
    return this.toObject(kind, row);
  }

  /**
   * One write: under a lock on the name, `next` gets the current object (null when there is
   * none) and returns the object to store; it is checked like a UI write, then inserted or
   * updated. `dryRun`: everything but the write (the answer is what would be stored).
   */
  async write(
    kind: KubeKind,
    namespace: string,
    name: string,
    next: (current: KubeObject | null) => KubeObject,
    opts: { personId: string | null; dryRun: boolean; log: { error(o: object, m: string): void } },
  ): Promise<{ object: KubeObject; created: boolean }> {
    const { db } = this.deps;
    const result = await db
      .transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`kube:${kind.table}:${namespace}:${name}`]);
        const row = await this.find(tx, kind, namespace, name, true);
        if (row && row.source !== SOURCE) {
          throw new KubeError(
            409,
            'Conflict',
            `${kind.kind} "${name}" comes from ${String(row.source || 'UI')} and can only be changed there; objects written with kubectl have source ${SOURCE}`,
            { name, group: 'watchdeck.io', kind: kind.plural },
          );
        }
        const current = row ? this.toObject(kind, row) : null;
        const desired = next(current);
        desired.metadata.name = name;
        if (kind.namespaced) desired.metadata.namespace = namespace;
        const rv = desired.metadata.resourceVersion;
        if (current && rv && rv !== current.metadata.resourceVersion) {
          throw new KubeError(
            409,
            'Conflict',
            `Operation cannot be fulfilled on ${kind.plural}.watchdeck.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
            { name, group: 'watchdeck.io', kind: kind.plural },
          );
        }
        const columns = await this.columnsOf(kind, desired, current);
        const meta = metaOf(kind, desired);
        if (opts.dryRun) return { object: dryRunObject(kind, desired, current), created: !current };
        let id: string;
        if (!row) {
          const cols: string[] = [];
          const vals: string[] = [];
          const params: unknown[] = [];
          for (const [c, v] of Object.entries(columns)) {
            if (v === undefined || v === null) continue;
            params.push(JSONB.has(c) ? JSON.stringify(v) : v);
            cols.push(q(c));
            vals.push(`$${params.length}${CASTS[c] ? `::${CASTS[c]}` : ''}`);
          }
          params.push(opts.personId);
          cols.push('created_by');
          vals.push(`$${params.length}::uuid`);
          const ins = await tx.query<{ id: string }>(
            `INSERT INTO ${q(kind.table)} (${cols.join(', ')}) VALUES (${vals.join(', ')}) RETURNING id`,
            params,
          );
          id = ins.rows[0].id;
        } else {
          id = String(row.id);
          const sets: string[] = [];
          const params: unknown[] = [id];
          for (const [c, v] of Object.entries(columns)) {
            if (v === SECRET_MASK) continue; // the mask means "unchanged"
            if (v === undefined || v === null) {
              sets.push(`${q(c)} = DEFAULT`);
              continue;
            }
            params.push(JSONB.has(c) ? JSON.stringify(v) : v);
            sets.push(`${q(c)} = $${params.length}${CASTS[c] ? `::${CASTS[c]}` : ''}`);
          }
          sets.push('updated_at = now()');
          await tx.query(`UPDATE ${q(kind.table)} SET ${sets.join(', ')} WHERE id = $1`, params);
        }
        await tx.query(
          `INSERT INTO kube_objects (table_name, row_id, name, labels, annotations, managed_fields, generation)
           VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, 1)
           ON CONFLICT (table_name, row_id) DO UPDATE SET name = EXCLUDED.name, labels = EXCLUDED.labels,
             annotations = EXCLUDED.annotations, managed_fields = EXCLUDED.managed_fields,
             generation = kube_objects.generation + CASE WHEN $7 THEN 1 ELSE 0 END`,
          [
            kind.table,
            id,
            kind.nameColumn ? null : name,
            JSON.stringify(kind.labelsColumn ? {} : meta.labels),
            JSON.stringify(meta.annotations),
            JSON.stringify(meta.managedFields),
            !!current && JSON.stringify(current.spec) !== JSON.stringify(desired.spec),
          ],
        );
        const stored = await tx.query(`${selectSql(kind)} WHERE r.id = $1`, [id]);
        return { object: this.toObject(kind, stored.rows[0]), created: !row };
      })
      .catch((err: unknown) => {
        throw asKubeError(err, kind, name, opts.log);
      });
    if (!opts.dryRun) await this.afterCommit(kind.table, result.created ? 'POST' : 'PATCH', opts.log);
    return result;
  }

  /** Soft delete, as the UI deletes (deleted_at); the name is free again at once. */
  async delete(
    kind: KubeKind,
    namespace: string,
    name: string,
    opts: { dryRun: boolean; resourceVersion?: string; log: { error(o: object, m: string): void } },
  ): Promise<KubeObject> {
    const object = await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, kind, namespace, name, true);
      if (!row) throw notFound(kind, name);
      if (row.source !== SOURCE)
        throw new KubeError(
          409,
          'Conflict',
          `${kind.kind} "${name}" comes from ${String(row.source || 'UI')} and can only be deleted there`,
        );
      const obj = this.toObject(kind, row);
      if (opts.resourceVersion && opts.resourceVersion !== obj.metadata.resourceVersion)
        throw new KubeError(
          409,
          'Conflict',
          `Operation cannot be fulfilled on ${kind.plural}.watchdeck.io "${name}": the object has been modified`,
        );
      if (!opts.dryRun)
        await tx.query(`UPDATE ${q(kind.table)} SET deleted_at = now(), updated_at = now() WHERE id = $1`, [row.id]);
      return obj;
    });
    if (!opts.dryRun) await this.afterCommit(kind.table, 'PATCH', opts.log);
    return object;
  }

  /** The row's columns of an object, checked by the owning area's write checks. */
  private async columnsOf(kind: KubeKind, obj: KubeObject, current: KubeObject | null) {
    if (!isObj(obj.spec)) throw new KubeError(422, 'Invalid', `${kind.kind}.spec must be an object`);
    const spec: Record<string, unknown> = { ...obj.spec };
    if (kind.secrets) for (const f of VALUE_FIELDS) if (f in spec) spec[f] = storedValue(f, spec[f]);
    const columns: Record<string, unknown> = {
      ...(kind.nameColumn ? { name: obj.metadata.name } : {}),
      ...(kind.namespaced ? { namespace: obj.metadata.namespace } : {}),
      ...(kind.labelsColumn ? { labels: obj.metadata.labels ?? {} } : {}),
      source: SOURCE,
      ...kind.toRow(spec, obj.metadata.name),
    };
    // what the area's check sees: the whole row as a UI create would send it (a secret left as
    // the mask is the stored one: present for the required-field check)
    const checked = Object.fromEntries(
      Object.entries(columns)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([c, v]) => [c, v === SECRET_MASK && current ? STORED : v]),
    );
    for (const r of this.deps.writes) {
      if (r.table !== kind.table || !r.check) continue;
      try {
        await r.check(kind.table, 'POST', checked);
      } catch (err) {
        const e = err as { message?: string; detail?: string; statusCode?: number };
        if (typeof e.statusCode === 'number' && e.statusCode < 500) {
          const problems = e.detail ? e.detail.split('; ') : [e.message ?? 'invalid'];
          throw new KubeError(
            422,
            'Invalid',
            `${kind.kind} "${obj.metadata.name}" is invalid: ${problems.join('; ')}`,
            {
              name: obj.metadata.name,
              group: 'watchdeck.io',
              kind: kind.kind,
              causes: problems.map((message) => ({ message })),
            },
          );
        }
        throw err;
      }
    }
    if (kind.secrets && this.deps.box) {
      for (const f of kind.secrets) {
        const v = columns[f];
        if (typeof v === 'string' && v !== '' && v !== SECRET_MASK) columns[f] = this.deps.box.encrypt(v);
        // a mask with nothing stored is no value
        if (v === SECRET_MASK && !current) columns[f] = null;
      }
    }
    return columns;
  }

  private async afterCommit(table: string, method: string, log: { error(o: object, m: string): void }) {
    for (const r of this.deps.writes) {
      if (r.table !== table || !r.afterCommit) continue;
      try {
        await r.afterCommit(table, method);
      } catch (err) {
        log.error({ err, table }, 'kube: an effect after a committed write failed');
      }
    }
  }
}

/** Labels (kinds without a labels column), annotations (secrets in last-applied masked), managed fields. */
function metaOf(kind: KubeKind, obj: KubeObject) {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  if (kind.secrets && annotations[LAST_APPLIED])
    annotations[LAST_APPLIED] = maskLastApplied(annotations[LAST_APPLIED], kind.secrets);
  return {
    labels: obj.metadata.labels ?? {},
    annotations,
    managedFields: Array.isArray(obj.metadata.managedFields) ? obj.metadata.managedFields : [],
  };
}

/** kubectl keeps the applied document in an annotation: its literal secrets are masked there. */
function maskLastApplied(text: string, secrets: string[]): string {
  try {
    const doc = JSON.parse(text) as { spec?: Record<string, unknown> };
    if (isObj(doc.spec))
      for (const f of secrets) {
        const v = doc.spec[f];
        if (typeof v === 'string' && v && !isValueReference(v)) doc.spec[f] = SECRET_MASK;
        else if (isObj(v) && typeof v.value === 'string') doc.spec[f] = { value: SECRET_MASK };
      }
    return JSON.stringify(doc) + (text.endsWith('\n') ? '\n' : '');
  } catch {
    return '';
  }
}

function dryRunObject(kind: KubeKind, desired: KubeObject, current: KubeObject | null): KubeObject {
  const spec = { ...desired.spec };
  if (kind.secrets)
    for (const f of kind.secrets) if (typeof spec[f] === 'string' || isObj(spec[f])) spec[f] = maskIfLiteral(spec[f]);
  return {
    ...desired,
    apiVersion: API_VERSION,
    kind: kind.kind,
    metadata: {
      ...desired.metadata,
      uid: current?.metadata.uid ?? desired.metadata.uid,
      resourceVersion: current?.metadata.resourceVersion,
      creationTimestamp: current?.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    },
    spec,
    status: { source: SOURCE },
  };
}

function maskIfLiteral(v: unknown): unknown {
  if (typeof v === 'string') return isValueReference(v) ? valueFrom(v) : SECRET_MASK;
  if (isObj(v) && 'value' in v) return SECRET_MASK;
  return v;
}

const encodeContinue = (key: string[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
function decodeContinue(token: string): string[] {
  try {
    const key = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(key) &&
      key.length === 3 &&
      key.every((k) => typeof k === 'string') &&
      /^[0-9a-f-]{36}$/.test(key[2])
    )
      return key as string[];
  } catch {
    // below
  }
  throw new KubeError(400, 'BadRequest', 'continue: not a token this server gave');
}

/** Database refusals as Status, without the database's words. */
function asKubeError(err: unknown, kind: KubeKind, name: string, log: { error(o: object, m: string): void }): unknown {
  if (err instanceof KubeError) return err;
  const code = (err as { code?: unknown }).code;
  const details = { name, group: 'watchdeck.io', kind: kind.kind };
  if (code === '23503')
    return new KubeError(
      422,
      'Invalid',
      `${kind.kind} "${name}" is invalid: it refers to a resource that does not exist`,
      details,
    );
  if (typeof code === 'string' && (code.startsWith('22') || code.startsWith('23')))
    return new KubeError(
      422,
      'Invalid',
      `${kind.kind} "${name}" is invalid: a field has a value of the wrong type or breaks a rule of ${kind.plural}`,
      details,
    );
  if (code === 'PT409')
    return new KubeError(409, 'Conflict', `${kind.kind} "${name}" can only be changed at its source`, details);
  log.error({ err }, 'kube: write failed');
  return new KubeError(500, 'InternalError', 'Internal error occurred: the write failed');
}
