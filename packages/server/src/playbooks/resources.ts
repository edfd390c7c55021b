/**
 * The resources a playbook runs against (config item, component, check): loading one for the
 * template context, and whether a playbook's selectors offer it (seed 000: "the playbooks
 * applicable to that check, component or config").
 */
import type { PlaybookResourceSelector, PlaybookSpec } from '@watchdeck/core';
import type { Queryable } from '#server/db/index.ts';

export type ResourceKind = 'config' | 'component' | 'check';
export const RESOURCE_KINDS: readonly ResourceKind[] = ['config', 'component', 'check'];

export interface PlaybookResource {
  kind: ResourceKind;
  id: string;
  name: string;
  type: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  /** health (configs) or status (components, checks) */
  health: string | null;
  [field: string]: unknown;
}

const SELECT: Record<ResourceKind, string> = {
  config: `SELECT id, name, type, config_class, labels, tags, config, health, status, description, agent_id, created_at, updated_at
           FROM config_items WHERE id = $1 AND deleted_at IS NULL`,
  component: `SELECT id, name, title, type, labels, properties, status, status_reason, description, owner, agent_id, created_at, updated_at
              FROM components WHERE id = $1 AND deleted_at IS NULL`,
  check: `SELECT id, name, namespace, type, labels, spec, status, endpoint, description, severity, canary_id, agent_id,
                 last_runtime, last_transition_time, created_at, updated_at
          FROM checks WHERE id = $1 AND deleted_at IS NULL`,
};

export async function loadResource(
  q: Queryable,
  kind: ResourceKind,
  id: string,
): Promise<PlaybookResource | undefined> {
  const { rows } = await q.query<Record<string, unknown>>(SELECT[kind], [id]);
  const r = rows[0];
  if (!r) return undefined;
  return {
    ...r,
    kind,
    id: String(r.id),
    name: String(r.name ?? ''),
    type: (r.type as string | null) ?? null,
    labels: (r.labels as Record<string, string> | null) ?? {},
    tags: (r.tags as Record<string, string> | null) ?? {},
    health: ((kind === 'config' ? r.health : r.status) as string | null) ?? null,
  };
}

const SELECTORS: Record<ResourceKind, 'configs' | 'components' | 'checks'> = {
  config: 'configs',
  component: 'components',
  check: 'checks',
};

function globMatch(pattern: string, value: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

function selectorMatches(sel: PlaybookResourceSelector, r: PlaybookResource): boolean {
  if (sel.types?.length && !sel.types.some((t) => t.toLowerCase() === (r.type ?? '').toLowerCase())) return false;
  if (sel.name && !globMatch(sel.name, r.name)) return false;
  for (const [k, v] of Object.entries(sel.labels ?? {})) if (r.labels[k] !== v) return false;
  for (const [k, v] of Object.entries(sel.tags ?? {})) if (r.tags[k] !== v) return false;
  if (sel.healths?.length && !sel.healths.includes(r.health ?? '')) return false;
  return true;
}

/** Whether the spec offers itself on this resource: one of its selectors of the resource's kind matches. */
export function offers(spec: Pick<PlaybookSpec, 'configs' | 'components' | 'checks'>, r: PlaybookResource): boolean {
  const selectors = spec[SELECTORS[r.kind]];
  return !!selectors?.length && selectors.some((s) => selectorMatches(s, r));
}

/** The kinds of resource a spec runs against (none: it runs without a resource). */
export function kindsOf(spec: Pick<PlaybookSpec, 'configs' | 'components' | 'checks'>): ResourceKind[] {
  return RESOURCE_KINDS.filter((k) => (spec[SELECTORS[k]]?.length ?? 0) > 0);
}
