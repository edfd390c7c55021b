/**
 * Discovery and OpenAPI documents, as kubectl reads them: the resource lists (names, short names,
 * verbs, namespaced), OpenAPI v3 (the index and the group-version document, whose paths say the
 * server validates fields and supports dry runs, so kubectl leaves validation to us) and v2.
 * Each kind's `spec` schema is the JSON Schema of the zod schema its writes are checked with.
 */
import { version } from '../version.ts';
import { API_VERSION, GROUP, KINDS, VERSION, type KubeKind } from './kinds.ts';

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update'];

export const versionInfo = () => {
  const [major = '1', minor = '0'] = version.split('.');
  return {
    major,
    minor,
    gitVersion: `v${version}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: 'n/a',
    compiler: 'watchdeck',
    platform: 'node',
  };
};

export const apiVersions = () => ({
  kind: 'APIVersions',
  versions: ['v1'],
  serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }],
});

export const coreResources = () => ({
  kind: 'APIResourceList',
  groupVersion: 'v1',
  resources: [
    {
      name: 'namespaces',
      singularName: 'namespace',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['get', 'list'],
      shortNames: ['ns'],
    },
  ],
});

export const apiGroups = () => ({
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: [
    {
      name: GROUP,
      versions: [{ groupVersion: API_VERSION, version: VERSION }],
      preferredVersion: { groupVersion: API_VERSION, version: VERSION },
    },
  ],
});

/** The group's resource list; `kinds` leaves out those whose feature is disabled (routes.ts). */
export const groupResources = (kinds: readonly KubeKind[] = KINDS) => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: API_VERSION,
  resources: kinds.map((k) => ({
    name: k.plural,
    singularName: k.singular,
    namespaced: k.namespaced,
    kind: k.kind,
    verbs: VERBS,
    shortNames: k.shortNames,
    categories: ['watchdeck'],
  })),
});

type Schema = Record<string, unknown>;
const KEEP = new Set([
  'type',
  'properties',
  'items',
  'required',
  'description',
  'enum',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'default',
  'nullable',
  'anyOf',
  'oneOf',
  'allOf',
  'additionalProperties',
]);

/**
 * A draft-07 schema made fit for an OpenAPI document: its local definitions become definitions of
 * the document (`<prefix>.<name>`, referenced, so a shared or recursive one is written once: inlined,
 * the ten kinds' schemas were 870 KB, which kubectl parsed again for every object it applied),
 * `const` as a one-value enum, keys OpenAPI does not know dropped, and open objects marked
 * `x-kubernetes-preserve-unknown-fields` (the loose zod objects keep unknown keys).
 */
function toOpenApi(
  schema: Schema,
  root: Schema,
  prefix: string,
  ref: (name: string) => string,
  hoisted: Record<string, Schema>,
): Schema {
  if (typeof schema.$ref === 'string') {
    const defs = { ...((root.definitions as Schema) ?? {}), ...((root.$defs as Schema) ?? {}) };
    const name = schema.$ref.replace(/^#\/(definitions|\$defs)\//, '');
    const target = defs[name] as Schema | undefined;
    if (!target) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const full = `${prefix}.${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
    if (!hoisted[full]) {
      hoisted[full] = {}; // taken before converting, so a recursive reference ends here
      hoisted[full] = toOpenApi(target, root, prefix, ref, hoisted);
    }
    return { $ref: ref(full) };
  }
  const sub = (v: unknown) => toOpenApi(v as Schema, root, prefix, ref, hoisted);
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'const') out.enum = [v];
    else if (!KEEP.has(k)) continue;
    else if (k === 'properties' && v && typeof v === 'object')
      out.properties = Object.fromEntries(Object.entries(v as Schema).map(([p, s]) => [p, sub(s)]));
    else if (k === 'items' && v && typeof v === 'object' && !Array.isArray(v)) out.items = sub(v);
    else if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf') && Array.isArray(v)) out[k] = v.map(sub);
    else if (k === 'additionalProperties') {
      if (v && typeof v === 'object' && Object.keys(v).length) out.additionalProperties = sub(v);
      else if (v !== false) out['x-kubernetes-preserve-unknown-fields'] = true;
    } else out[k] = v;
  }
  if (out.type === 'object' && !out.properties && !out.additionalProperties)
    out['x-kubernetes-preserve-unknown-fields'] = true;
  return out;
}

const defName = (k: KubeKind) => `io.watchdeck.v1.${k.kind}`;
const listName = (k: KubeKind) => `io.watchdeck.v1.${k.kind}List`;
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

/** A kind's spec schema; its shared parts go into `hoisted` (the document's definitions). */
function specOf(k: KubeKind, ref: (name: string) => string, hoisted: Record<string, Schema>): Schema {
  const root = k.specSchema();
  return {
    ...toOpenApi(root, root, `${defName(k)}Spec`, ref, hoisted),
    description: `${k.kind} spec (the schema the console's forms use)`,
  };
}

function definitions(ref: (name: string) => string): Record<string, Schema> {
  const out: Record<string, Schema> = {
    [META]: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        namespace: { type: 'string' },
        uid: { type: 'string' },
        resourceVersion: { type: 'string' },
        generation: { type: 'integer', format: 'int64' },
        creationTimestamp: { type: 'string', format: 'date-time' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        annotations: { type: 'object', additionalProperties: { type: 'string' } },
        managedFields: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    },
    [LIST_META]: {
      type: 'object',
      properties: { continue: { type: 'string' }, resourceVersion: { type: 'string' } },
    },
  };
  for (const k of KINDS) {
    const gvk = [{ group: GROUP, version: VERSION, kind: k.kind }];
    out[defName(k)] = {
      type: 'object',
      description: `${k.kind}: a row of ${k.table}`,
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: ref(META) },
        spec: specOf(k, ref, out),
        status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
      'x-kubernetes-group-version-kind': gvk,
    };
    out[listName(k)] = {
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: ref(LIST_META) },
        items: { type: 'array', items: { $ref: ref(defName(k)) } },
      },
      'x-kubernetes-group-version-kind': [{ group: GROUP, version: VERSION, kind: `${k.kind}List` }],
    };
  }
  return out;
}

/** The operations of one kind's paths; `v3` chooses the document's parameter and body shapes. */
function paths(v3: boolean, ref: (name: string) => string): Record<string, unknown> {
  const query = (name: string) =>
    v3 ? { name, in: 'query', schema: { type: 'string' } } : { name, in: 'query', type: 'string', uniqueItems: true };
  const pathParam = (name: string) =>
    v3
      ? { name, in: 'path', required: true, schema: { type: 'string' } }
      : { name, in: 'path', required: true, type: 'string' };
  const writeParams = [query('dryRun'), query('fieldManager'), query('fieldValidation')];
  const answer = (name: string) =>
    v3
      ? { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: ref(name) } } } } }
      : { '200': { description: 'OK', schema: { $ref: ref(name) } } };
  const body = (name: string) =>
    v3
      ? { requestBody: { content: { '*/*': { schema: { $ref: ref(name) } } } } }
      : { parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: ref(name) } }] };
  const out: Record<string, unknown> = {};
  for (const k of KINDS) {
    const gvk = { group: GROUP, version: VERSION, kind: k.kind };
    const base = k.namespaced
      ? `/apis/${API_VERSION}/namespaces/{namespace}/${k.plural}`
      : `/apis/${API_VERSION}/${k.plural}`;
    const common = k.namespaced ? [pathParam('namespace')] : [];
    const op = (id: string, extra: Record<string, unknown> = {}, params: unknown[] = []) => ({
      operationId: `${id}${k.kind}`,
      'x-kubernetes-group-version-kind': gvk,
      ...extra,
      parameters: [...params, ...((extra.parameters as unknown[]) ?? [])],
    });
    out[base] = {
      parameters: common,
      get: op('list', { responses: answer(listName(k)) }, [
        query('labelSelector'),
        query('fieldSelector'),
        query('limit'),
        query('continue'),
      ]),
      post: op('create', { ...body(defName(k)), responses: answer(defName(k)) }, writeParams),
    };
    out[`${base}/{name}`] = {
      parameters: [...common, pathParam('name')],
      get: op('read', { responses: answer(defName(k)) }),
      put: op('replace', { ...body(defName(k)), responses: answer(defName(k)) }, writeParams),
      patch: op('patch', { ...body(defName(k)), responses: answer(defName(k)) }, [...writeParams, query('force')]),
      delete: op('delete', { responses: answer(defName(k)) }, [query('dryRun')]),
    };
  }
  return out;
}

let v3Doc: Schema | undefined;
export function openApiV3GroupVersion(): Schema {
  v3Doc ??= {
    openapi: '3.0.0',
    info: { title: 'Watchdeck', version: 'v1' },
    paths: paths(true, (n) => `#/components/schemas/${n}`),
    components: { schemas: definitions((n) => `#/components/schemas/${n}`) },
  };
  return v3Doc;
}

export const openApiV3Index = () => ({
  paths: {
    [`apis/${API_VERSION}`]: { serverRelativeURL: `/openapi/v3/apis/${API_VERSION}?hash=${version}` },
  },
});

let v2Doc: Schema | undefined;
export function openApiV2(): Schema {
  v2Doc ??= {
    swagger: '2.0',
    info: { title: 'Watchdeck', version: 'v1' },
    paths: paths(false, (n) => `#/definitions/${n}`),
    definitions: definitions((n) => `#/definitions/${n}`),
  };
  return v2Doc;
}
