/**
 * A topology spec as the components it stands for: static entries as written, each lookup entry
 * as one component per item found (its `template` rendered with `{{.item...}}`). Identity is the
 * external id: the entry's `id`, else the names of its ancestors and itself (`Production/payments`);
 * a generated component without an `id` is keyed by its item's id (catalog items, checks) or its
 * rendered name. Nothing is written here.
 */
import {
  TOPOLOGY_MAX_COMPONENTS,
  renderTemplate,
  type ComponentProperty,
  type TopologyComponentSpec,
  type TopologySpec,
} from '@watchdeck/core';
import { lookupItems, type CheckSelector, type ConfigSelector, type LookupContext } from './lookups.ts';

export interface DesiredComponent {
  externalId: string;
  parentExternalId: string | null;
  name: string;
  title: string | null;
  type: string | null;
  icon: string | null;
  description: string | null;
  owner: string | null;
  hidden: boolean;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  logs: { name: string; type: string }[];
  statusExpr: string | null;
  checkSelectors: CheckSelector[];
  configSelectors: ConfigSelector[];
  teams: string[];
  /** the catalog item or check a lookup made this component from: linked to it */
  configId?: string;
  checkId?: string;
  canaryId?: string;
}

export interface BuildResult {
  components: DesiredComponent[];
  errors: string[];
  /** every lookup was read: only then may components not seen be deleted */
  complete: boolean;
}

/** Renders every string of a template entry; nested lookups' templates are left for their items. */
function renderDeep<T>(value: T, ctx: Record<string, unknown>): T {
  if (typeof value === 'string') return renderTemplate(value, ctx) as T;
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, ctx)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'template' ? v : renderDeep(v, ctx);
    return out as T;
  }
  return value;
}

/** A rendered `value`/`max` is a number or nothing. */
function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function properties(list: TopologyComponentSpec['properties']): ComponentProperty[] {
  return (list ?? []).map((p) => {
    const out: Record<string, unknown> = { ...p };
    for (const k of ['value', 'max'] as const) {
      if (p[k] === undefined) continue;
      const n = numberOf(p[k]);
      if (n === undefined) delete out[k];
      else out[k] = n;
    }
    return out as unknown as ComponentProperty;
  });
}

const str = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

class SpecBuilder {
  readonly out: DesiredComponent[] = [];
  readonly errors: string[] = [];
  private readonly seen = new Set<string>();
  complete = true;

  constructor(private readonly ctx: LookupContext) {}

  private add(
    entry: TopologyComponentSpec,
    parent: DesiredComponent | null,
    at: string,
    defaults: { externalId?: string; configId?: string; checkId?: string; canaryId?: string } = {},
  ): DesiredComponent | undefined {
    const name = (entry.name ?? '').trim();
    if (!name) {
      this.errors.push(`${at}: the component's name is empty`);
      return undefined;
    }
    const externalId = entry.id?.trim() || defaults.externalId || (parent ? `${parent.externalId}/${name}` : name);
    if (this.seen.has(externalId)) {
      this.errors.push(`${at}: another component has the id "${externalId}"; give one of them an id`);
      return undefined;
    }
    if (this.out.length >= TOPOLOGY_MAX_COMPONENTS) {
      this.errors.push(
        `${at}: the topology has more than ${TOPOLOGY_MAX_COMPONENTS} components; the rest were skipped`,
      );
      this.complete = false;
      return undefined;
    }
    this.seen.add(externalId);
    const c: DesiredComponent = {
      externalId,
      parentExternalId: parent?.externalId ?? null,
      name,
      title: str(entry.title),
      type: str(entry.type),
      icon: str(entry.icon),
      description: str(entry.description),
      owner: str(entry.owner),
      hidden: entry.hidden ?? false,
      labels: entry.labels ?? {},
      properties: properties(entry.properties),
      logs: entry.logs ?? [],
      statusExpr: str(entry.statusExpr),
      checkSelectors: entry.checks ?? [],
      configSelectors: entry.configs ?? [],
      teams: entry.teams ?? [],
      configId: defaults.configId,
      checkId: defaults.checkId,
      canaryId: defaults.canaryId,
    };
    this.out.push(c);
    return c;
  }

  /** The entries under `parent` (null: the roots). */
  async entries(list: TopologyComponentSpec[] | undefined, parent: DesiredComponent | null, at: string): Promise<void> {
    for (const [i, entry] of (list ?? []).entries()) {
      const here = `${at}[${i}]`;
      if (entry.lookup && entry.template) {
        let items;
        try {
          items = await lookupItems(this.ctx, entry.lookup);
        } catch (err) {
          this.errors.push(`${here}.lookup: ${(err as Error).message}`);
          this.complete = false;
          continue;
        }
        for (const found of items) {
          const rendered = renderDeep(entry.template, { item: found.item });
          const keyed = found.key ? `${parent ? `${parent.externalId}/` : ''}${found.key}` : undefined;
          const c = this.add(rendered, parent, `${here} (${String(rendered.name ?? found.key ?? '')})`, {
            externalId: keyed,
            configId: found.configId,
            checkId: found.checkId,
            canaryId: found.canaryId,
          });
          if (c) await this.entries(rendered.components, c, `${here}.template.components`);
        }
        continue;
      }
      const c = this.add(entry, parent, here);
      if (c) await this.entries(entry.components, c, `${here}.components`);
    }
  }
}

/** The components of a spec; `topologyName` names the root a spec with a `type` has. */
export async function buildDesired(spec: TopologySpec, topologyName: string, ctx: LookupContext): Promise<BuildResult> {
  const b = new SpecBuilder(ctx);
  if (spec.type) {
    const root = {
      id: spec.id,
      name: topologyName,
      title: spec.title ?? spec.label,
      type: spec.type,
      icon: spec.icon,
      description: spec.description,
      labels: spec.labels,
      properties: spec.properties,
      logs: spec.logs,
      checks: spec.checks,
      configs: spec.configs,
      teams: spec.teams,
      statusExpr: spec.statusExpr,
      components: spec.components,
    } satisfies TopologyComponentSpec;
    await b.entries([root], null, 'spec');
  } else {
    await b.entries(spec.components, null, 'spec.components');
  }
  return { components: b.out, errors: b.errors, complete: b.complete };
}
