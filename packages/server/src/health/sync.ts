import { LOCAL_AGENT_ID } from '@watchdeck/core';
import type { Db, Queryable } from '../db/index.ts';
import { endpointOf, labelsOf, nextRuntimeOf, parseCanarySpec, severityOf, specObject, type CheckDef } from './spec.ts';
import { resolveRelationships } from './relationships.ts';

/**
 * Keeps a canary's checks in step with its spec: one live check per spec entry, upserted by
 * (canary, type, name) so ids and history survive edits; entries that left the spec are
 * soft-deleted (their history stays). Checks discovered at run time (an Alertmanager alert) carry
 * `spec._parent` and live as long as the entry that found them.
 */
export interface CanaryRow {
  id: string;
  name: string;
  namespace: string;
  agent_id: string;
  icon?: string | null;
  labels?: Record<string, string> | null;
  spec: unknown;
  schedule?: string | null;
}

export interface CheckRow {
  id: string;
  type: string;
  name: string;
  spec: Record<string, unknown>;
  labels: Record<string, string> | null;
  status: 'healthy' | 'unhealthy' | null;
}

/** Key order does not matter to jsonb (it re-orders keys), so compare canonical JSON. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export const checkKey = (type: string, name: string) => `${type}\u0000${name}`;

function mergedLabels(canary: CanaryRow, def: CheckDef): Record<string, string> {
  return { ...(canary.labels ?? {}), ...labelsOf(def) };
}

/** Whether the stored checks differ from what the spec says (then sync). */
export function needsSync(canary: CanaryRow, defs: CheckDef[], rows: CheckRow[]): boolean {
  const parents = rows.filter((r) => !r.spec?._parent);
  if (parents.length !== defs.length) return true;
  const byKey = new Map(parents.map((r) => [checkKey(r.type, r.name), r]));
  return defs.some((d) => {
    const row = byKey.get(checkKey(d.type, d.name));
    return (
      !row ||
      canonical(row.spec) !== canonical(d.spec) ||
      canonical(row.labels ?? {}) !== canonical(mergedLabels(canary, d))
    );
  });
}

export async function loadChecks(q: Queryable, canaryId: string): Promise<CheckRow[]> {
  const { rows } = await q.query<CheckRow>(
    `SELECT id, type, name, spec, labels, status FROM checks WHERE canary_id = $1 AND deleted_at IS NULL`,
    [canaryId],
  );
  return rows;
}

/** Upserts the spec's checks and soft-deletes the rest; returns the live checks afterwards. */
export async function syncCanaryChecks(db: Db, canary: CanaryRow): Promise<CheckRow[]> {
  const spec = specObject(canary.spec);
  const defs = parseCanarySpec(spec);
  return db.transaction(async (tx) => {
    // One canary is synced by one transaction at a time (scheduler reload and a run may race).
    await tx.query(`SELECT id FROM canaries WHERE id = $1 FOR UPDATE`, [canary.id]);
    if (defs.length) {
      await tx.query(
        `INSERT INTO checks (canary_id, agent_id, namespace, type, name, description, icon, endpoint, owner, labels, spec, severity, next_runtime)
         SELECT $1, $2, $3, d.type, d.name, d.description, d.icon, d.endpoint, d.owner, d.labels, d.spec, d.severity, $5
         FROM jsonb_to_recordset($4::jsonb) AS d(type text, name text, description text, icon text, endpoint text, owner text,
                                                labels jsonb, spec jsonb, severity text)
         ON CONFLICT (canary_id, type, name) WHERE deleted_at IS NULL DO UPDATE SET
           agent_id = EXCLUDED.agent_id, namespace = EXCLUDED.namespace, description = EXCLUDED.description,
           icon = EXCLUDED.icon, endpoint = EXCLUDED.endpoint, owner = EXCLUDED.owner, labels = EXCLUDED.labels,
           spec = EXCLUDED.spec, severity = EXCLUDED.severity, next_runtime = EXCLUDED.next_runtime`,
        [
          canary.id,
          canary.agent_id,
          canary.namespace,
          JSON.stringify(
            defs.map((d) => ({
              type: d.type,
              name: d.name,
              description: typeof d.spec.description === 'string' ? d.spec.description : null,
              icon: typeof d.spec.icon === 'string' ? d.spec.icon : (canary.icon ?? d.type),
              endpoint: endpointOf(d),
              owner: typeof d.spec.owner === 'string' ? d.spec.owner : null,
              labels: mergedLabels(canary, d),
              spec: d.spec,
              severity: severityOf(d, spec),
            })),
          ),
          nextRuntimeOf(canary)?.toISOString() ?? null,
        ],
      );
    }
    // Gone from the spec: the entry itself, and what it discovered.
    await tx.query(
      `UPDATE checks SET deleted_at = now()
       WHERE canary_id = $1 AND deleted_at IS NULL
         AND (type, coalesce(spec->>'_parent', name)) NOT IN (SELECT d.type, d.name FROM jsonb_to_recordset($2::jsonb) AS d(type text, name text))`,
      [canary.id, JSON.stringify(defs.map((d) => ({ type: d.type, name: d.name })))],
    );
    const rows = await loadChecks(tx, canary.id);
    await resolveRelationships(tx, canary.id, rows);
    return rows;
  });
}

/**
 * Syncs every local canary edited since its checks last changed, and soft-deletes the checks of
 * deleted canaries. Called when the scheduler reloads (after writes to canaries, and every minute),
 * so a new canary's checks show on the dashboard before their first run.
 */
export async function syncPendingCanaries(db: Db, onError: (err: unknown, canaryId: string) => void): Promise<number> {
  await db.query(
    `UPDATE checks SET deleted_at = now()
     WHERE deleted_at IS NULL AND canary_id IN (SELECT id FROM canaries WHERE deleted_at IS NOT NULL)`,
  );
  const { rows } = await db.query<CanaryRow>(
    `SELECT ca.id, ca.name, ca.namespace, ca.agent_id, ca.icon, ca.labels, ca.spec, ca.schedule FROM canaries ca
     WHERE ca.deleted_at IS NULL AND ca.agent_id = $1
       AND ca.updated_at > coalesce((SELECT max(c.updated_at) FROM checks c WHERE c.canary_id = ca.id), '-infinity')`,
    [LOCAL_AGENT_ID],
  );
  for (const canary of rows) {
    try {
      await syncCanaryChecks(db, canary);
    } catch (err) {
      onError(err, canary.id);
    }
  }
  return rows.length;
}
