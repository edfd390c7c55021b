/**
 * The topology spec (seed 002 section 3 "Topology": name, namespace, labels, spec): what the
 * topology engine reconciles into a tree of components. Validated on every write of `topologies`
 * (settings and /api/db) and served to the editor as /api/schemas/topology.schema.json.
 *
 * ```yaml
 * schedule: '@every 5m'
 * components:
 *   - name: Production            # a static component
 *     type: Environment
 *     properties: [{ name: region, text: eu-west-1, headline: true }]
 *     checks: [{ labels: { env: prod } }]        # attach checks by selector
 *     configs: [{ types: [AWS::RDS::DBInstance] }] # attach catalog items by selector
 *     teams: [sre]
 *     logs: [{ name: app-logs, type: file }]
 *     statusExpr: "summary.checks.unhealthy > 2 ? 'unhealthy' : status"
 *     components:
 *       - lookup: { configs: [{ types: [Kubernetes::Namespace], tags: { cluster: prod-eu-1 } }] }
 *         template: { name: '{{.item.name}}', type: Namespace }  # one component per item
 * ```
 *
 * Templates are core's Go-template field paths (template.ts) over `{item}`: a catalog item, a
 * check, an SQL row or an element of an HTTP JSON answer.
 */
import { z } from 'zod';

/** Generated components one lookup may produce, and components one topology may hold. */
export const TOPOLOGY_MAX_LOOKUP_ITEMS = 20_000;
export const TOPOLOGY_MAX_COMPONENTS = 50_000;
/** Nesting depth of a spec's components (lookups' templates count as a level). */
export const TOPOLOGY_MAX_DEPTH = 12;

const text = (max = 500) => z.string().max(max);
const stringMap = z.record(z.string(), z.string().max(1000));
/** `k=v,k2=v2` (Kubernetes-style) as a label selector string */
const selectorString = z
  .string()
  .max(2000)
  .regex(
    /^\s*([^=,\s]+\s*=\s*[^=,]*)(\s*,\s*[^=,\s]+\s*=\s*[^=,]*)*\s*$/,
    'must be key=value pairs separated by commas',
  );

/** A selector that names nothing would match everything: a mistake, refused. */
const notEmpty = (s: Record<string, unknown>) =>
  Object.values(s).some((v) => v !== undefined && v !== '' && !(Array.isArray(v) && !v.length));

export const TOPOLOGY_PROPERTY_TYPES = ['text', 'number', 'url', 'currency', 'age', 'hidden', 'badge'] as const;

const link = z.strictObject({ label: text(200), url: text(2000) });

/** A property of a component; in templates, `value` may be a template that renders a number. */
export const topologyPropertySchema = z.strictObject({
  name: z.string().min(1).max(200),
  label: text(200).optional(),
  type: z.enum(TOPOLOGY_PROPERTY_TYPES).optional(),
  text: text(2000).optional(),
  value: z.union([z.number(), text(200)]).optional(),
  max: z.union([z.number(), text(200)]).optional(),
  unit: text(50).optional(),
  headline: z.boolean().optional(),
  hidden: z.boolean().optional(),
  icon: text(200).optional(),
  color: text(50).optional(),
  tooltip: text(2000).optional(),
  links: z.array(link).max(20).optional(),
});

/** Catalog items: by type(s), name (`*` globs), labels, tags, namespace. */
export const topologyConfigSelectorSchema = z
  .strictObject({
    id: text(200).optional(),
    name: text(500).optional(),
    type: text(200).optional(),
    types: z.array(text(200)).max(50).optional(),
    namespace: text(253).optional(),
    labels: stringMap.optional(),
    tags: stringMap.optional(),
    labelSelector: selectorString.optional(),
    tagSelector: selectorString.optional(),
  })
  .refine(notEmpty, { message: 'a selector needs at least one of id, name, type, types, namespace, labels or tags' });

/** Checks: by name (`*` globs), type, namespace, labels. */
export const topologyCheckSelectorSchema = z
  .strictObject({
    id: text(200).optional(),
    name: text(500).optional(),
    type: text(200).optional(),
    namespace: text(253).optional(),
    labels: stringMap.optional(),
    labelSelector: selectorString.optional(),
  })
  .refine(notEmpty, { message: 'a selector needs at least one of id, name, type, namespace or labels' });

const oneOrMany = <T extends z.ZodType>(s: T) => z.union([s, z.array(s).min(1).max(20)]);

const sqlLookup = z.strictObject({
  /** a connection's name (`namespace/name`), of type postgres or mysql */
  connection: z.string().min(1).max(500),
  query: z.string().min(1).max(20_000),
  driver: z.enum(['postgres', 'mysql']).optional(),
});

const httpLookup = z.strictObject({
  url: text(2000).optional(),
  /** an http connection: its URL (prefix of a relative `url`) and basic credentials */
  connection: text(500).optional(),
  method: z.enum(['GET', 'POST']).optional(),
  headers: z.record(z.string(), z.string().max(4000)).optional(),
  body: text(100_000).optional(),
  /** where the items are in the answer: `$.data.items` (dotted path); default the answer (a list) */
  items: text(500).optional(),
});

/** Exactly one source per lookup. */
export const topologyLookupSchema = z
  .strictObject({
    configs: oneOrMany(topologyConfigSelectorSchema).optional(),
    checks: oneOrMany(topologyCheckSelectorSchema).optional(),
    sql: sqlLookup.optional(),
    http: httpLookup.optional(),
  })
  .refine((l) => [l.configs, l.checks, l.sql, l.http].filter((x) => x !== undefined).length === 1, {
    message: 'a lookup has exactly one of configs, checks, sql or http',
  })
  .refine((l) => !l.http || l.http.url || l.http.connection, {
    message: 'an http lookup needs a url or a connection',
    path: ['http', 'url'],
  });

export interface TopologyComponentSpec {
  id?: string;
  name?: string;
  title?: string;
  type?: string;
  icon?: string;
  description?: string;
  owner?: string;
  hidden?: boolean;
  labels?: Record<string, string>;
  properties?: z.infer<typeof topologyPropertySchema>[];
  logs?: { name: string; type: string }[];
  checks?: z.infer<typeof topologyCheckSelectorSchema>[];
  configs?: z.infer<typeof topologyConfigSelectorSchema>[];
  teams?: string[];
  statusExpr?: string;
  lookup?: z.infer<typeof topologyLookupSchema>;
  template?: TopologyComponentSpec;
  components?: TopologyComponentSpec[];
}

const componentFields = {
  /** the component's stable identity (external_id): defaults to its name under its parent's */
  id: text(500).optional(),
  name: z.string().min(1).max(500).optional(),
  title: text(500).optional(),
  type: text(200).optional(),
  icon: text(200).optional(),
  description: text(10_000).optional(),
  owner: text(500).optional(),
  hidden: z.boolean().optional(),
  labels: stringMap.optional(),
  properties: z.array(topologyPropertySchema).max(100).optional(),
  logs: z
    .array(z.strictObject({ name: z.string().min(1).max(200), type: z.string().min(1).max(100) }))
    .max(20)
    .optional(),
  checks: z.array(topologyCheckSelectorSchema).max(50).optional(),
  configs: z.array(topologyConfigSelectorSchema).max(50).optional(),
  /** team names */
  teams: z.array(z.string().min(1).max(200)).max(50).optional(),
  /** CEL: the component's status from `status` (the roll-up), `summary`, `component`, `checks`, `configs`, `children` */
  statusExpr: text(4000).optional(),
};

export const topologyComponentSchema: z.ZodType<TopologyComponentSpec> = z.lazy(() =>
  z
    .strictObject({
      ...componentFields,
      /** one component per item found, made from `template` */
      lookup: topologyLookupSchema.optional(),
      template: topologyComponentSchema.optional(),
      components: z.array(topologyComponentSchema).max(1000).optional(),
    })
    .superRefine((c, ctx) => {
      if (c.lookup) {
        if (!c.template)
          ctx.addIssue({
            code: 'custom',
            path: ['template'],
            message: 'a lookup needs a template: the component made per item',
          });
        else if (!c.template.name)
          ctx.addIssue({
            code: 'custom',
            path: ['template', 'name'],
            message: 'a template needs a name, e.g. "{{.item.name}}"',
          });
      } else {
        if (c.template)
          ctx.addIssue({ code: 'custom', path: ['lookup'], message: 'a template is only used with a lookup' });
        // said as a missing field: 'spec.components[0].name is required'
        if (!c.name)
          ctx.addIssue({
            code: 'invalid_type',
            expected: 'string',
            input: undefined,
            path: ['name'],
            message: 'a component needs a name (or a lookup)',
          });
      }
    }),
);

export const topologySpecSchema = z.looseObject({
  schedule: text(200).optional(),
  /** when set, the topology has one root component of this type named after the topology */
  type: text(200).optional(),
  icon: text(200).optional(),
  label: text(200).optional(),
  /** with type: the root component's fields */
  id: text(500).optional(),
  title: text(500).optional(),
  description: text(10_000).optional(),
  labels: stringMap.optional(),
  properties: z.array(topologyPropertySchema).max(100).optional(),
  logs: componentFields.logs,
  checks: componentFields.checks,
  configs: componentFields.configs,
  teams: componentFields.teams,
  statusExpr: componentFields.statusExpr,
  components: z.array(topologyComponentSchema).max(1000).optional(),
});
export type TopologySpec = z.infer<typeof topologySpecSchema>;

/** A spec's problems, each naming its field (`spec.components[0].lookup: ...`). */
export function topologySpecProblems(spec: unknown, prefix = 'spec'): string[] {
  const r = topologySpecSchema.safeParse(spec);
  const problems: string[] = [];
  if (!r.success)
    for (const issue of r.error.issues) {
      let field = prefix;
      let cur: unknown = spec;
      for (const p of issue.path) {
        field += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
        cur = cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[p] : undefined;
      }
      if (issue.code === 'invalid_type' && cur === undefined) problems.push(`${field} is required`);
      else if (issue.code === 'unrecognized_keys')
        problems.push(`${field}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`);
      else problems.push(`${field}: ${issue.message}`);
    }
  else {
    // the root's own fields describe the root component, which only a spec with a type has
    if (!r.data.type)
      for (const f of [
        'id',
        'title',
        'description',
        'labels',
        'properties',
        'logs',
        'checks',
        'configs',
        'teams',
        'statusExpr',
      ] as const)
        if (r.data[f] !== undefined)
          problems.push(`${prefix}.${f}: only used with ${prefix}.type (the root component)`);
    const depth = (list: TopologyComponentSpec[] | undefined, d: number, at: string) => {
      if (!list) return;
      if (d > TOPOLOGY_MAX_DEPTH) problems.push(`${at}: components nest deeper than ${TOPOLOGY_MAX_DEPTH} levels`);
      else
        list.forEach((c, i) => {
          depth(c.components, d + 1, `${at}[${i}].components`);
          if (c.template) depth(c.template.components, d + 2, `${at}[${i}].template.components`);
        });
    };
    depth(r.data.components, 1, `${prefix}.components`);
  }
  return problems;
}
