/**
 * The Kubernetes-compatible API under /k8s (README.md): discovery, OpenAPI, and per kind list,
 * get, create, replace, patch (merge, strategic-merge as merge, JSON patch, server-side apply) and
 * delete. Every answer that is not an object is a Kubernetes `Status`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import YAML from 'yaml';
import { can } from '@watchdeck/core';
import { TABLE_FEATURES } from '../properties/index.ts';
import type { Caller } from '../auth/index.ts';
import { API_VERSION, GROUP, KINDS, kindByPlural, type KubeKind } from './kinds.ts';
import { fieldsOf, isObj, mergePatch, removeDropped } from './merge.ts';
import {
  apiGroups,
  apiVersions,
  coreResources,
  groupResources,
  openApiV2,
  openApiV3GroupVersion,
  openApiV3Index,
  versionInfo,
} from './openapi.ts';
import { openApiV2Proto } from './openapi-proto.ts';
import { KubeError, sendStatus, statusBody } from './status.ts';
import { type KubeObject, type KubeStore } from './store.ts';

/** Routes are registered under the /k8s prefix (so its not-found handler is its own). */
const PREFIX = '';
const GV = `${PREFIX}/apis/${API_VERSION}`;
/** 1 to 253 characters, no slash, no control character (checked in nameOk) */
const NAME = /^[^/]{1,253}$/;
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const MAX_SELECTOR = 4096;
const MAX_ANNOTATIONS = 262_144;
const MAX_LABELS = 100;

export interface KubeRouteDeps {
  store: KubeStore;
  /** the caller of a request (a bearer token; AUTH=none: the system person) */
  resolveCaller(req: FastifyRequest): Promise<Caller | null>;
  authMode: string;
  /** a disabled feature's kinds answer 404, as its tables do through /api/db */
  isFeatureDisabled(feature: string): Promise<boolean>;
}

interface Params {
  namespace?: string;
  plural?: string;
  name?: string;
}

type Query = Record<string, string | string[] | undefined>;

const one = (q: Query, key: string): string | undefined => {
  const v = q[key];
  if (Array.isArray(v)) throw new KubeError(400, 'BadRequest', `${key} may be given once`);
  return v;
};

function kindByName(params: Params): KubeKind {
  const kind = kindByPlural.get(params.plural ?? '');
  if (!kind)
    throw new KubeError(
      404,
      'NotFound',
      `the server could not find the requested resource (${String(params.plural).slice(0, 100)})`,
    );
  return kind;
}

function checkName(name: string | undefined): string {
  if (!name || !NAME.test(name) || CONTROL.test(name))
    throw new KubeError(400, 'BadRequest', 'metadata.name: a name of 1 to 253 characters without / is required');
  return name;
}
function checkNamespace(ns: string): string {
  if (!NAMESPACE.test(ns))
    throw new KubeError(
      400,
      'BadRequest',
      `namespace "${ns.slice(0, 100)}": a lowercase RFC 1123 label of at most 63 characters is required`,
    );
  return ns;
}

function authorize(caller: Caller, kind: KubeKind, verb: string, namespace: string | undefined) {
  const action = verb === 'get' || verb === 'list' ? 'read' : 'write';
  if (can(caller.roles, kind.resource, action)) return;
  const where = namespace ? ` in the namespace "${namespace}"` : kind.namespaced ? ' at the cluster scope' : '';
  throw new KubeError(
    403,
    'Forbidden',
    `${kind.plural}.${GROUP} is forbidden: User "${caller.person.email ?? caller.person.name}" cannot ${verb} resource "${kind.plural}" in API group "${GROUP}"${where}: ${action} access to ${kind.resource} is required`,
    { group: GROUP, kind: kind.plural },
  );
}

/** A request body as an object (JSON, or YAML for apply patches). */
function bodyObject(body: unknown, yaml: boolean): Record<string, unknown> {
  let doc = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    const text = body.toString();
    try {
      doc = yaml ? YAML.parse(text, { maxAliasCount: 100 }) : JSON.parse(text);
    } catch (err) {
      throw new KubeError(400, 'BadRequest', `the body does not parse: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (!isObj(doc)) throw new KubeError(400, 'BadRequest', 'the body must be an object');
  return doc;
}

/** The object sent, held to the kind and the URL's name and namespace. */
function objectOf(
  kind: KubeKind,
  body: Record<string, unknown>,
  name: string | undefined,
  namespace: string | undefined,
) {
  if (body.apiVersion !== undefined && body.apiVersion !== API_VERSION)
    throw new KubeError(400, 'BadRequest', `apiVersion must be ${API_VERSION}`);
  if (body.kind !== undefined && body.kind !== kind.kind)
    throw new KubeError(400, 'BadRequest', `kind must be ${kind.kind}`);
  const metadata = isObj(body.metadata) ? { ...body.metadata } : {};
  if (name !== undefined && metadata.name !== undefined && metadata.name !== name)
    throw new KubeError(400, 'BadRequest', 'the name of the object does not match the name on the URL');
  metadata.name = checkName((metadata.name as string | undefined) ?? name);
  if (kind.namespaced) {
    if (namespace !== undefined && metadata.namespace !== undefined && metadata.namespace !== namespace)
      throw new KubeError(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    metadata.namespace = checkNamespace(String(metadata.namespace ?? namespace ?? 'default'));
  } else delete metadata.namespace;
  for (const key of ['labels', 'annotations'] as const) {
    const v = metadata[key];
    if (v === undefined || v === null) continue;
    if (!isObj(v) || !Object.values(v).every((x) => typeof x === 'string'))
      throw new KubeError(422, 'Invalid', `metadata.${key} must be a map of strings`);
  }
  // Kubernetes' own limit: annotations (kubectl's last-applied copy among them) total 256 KiB
  if (metadata.annotations && JSON.stringify(metadata.annotations).length > MAX_ANNOTATIONS)
    throw new KubeError(422, 'Invalid', `metadata.annotations: Too long: must have at most ${MAX_ANNOTATIONS} bytes`);
  if (metadata.labels && Object.keys(metadata.labels as object).length > MAX_LABELS)
    throw new KubeError(422, 'Invalid', `metadata.labels: at most ${MAX_LABELS} labels`);
  const spec = body.spec ?? {};
  if (!isObj(spec)) throw new KubeError(422, 'Invalid', 'spec must be an object');
  return { apiVersion: API_VERSION, kind: kind.kind, metadata, spec } as KubeObject;
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** managedFields with this manager's entry for `operation` replaced. */
function withManager(
  managed: unknown[] | undefined,
  manager: string,
  operation: 'Apply' | 'Update',
  fields: Record<string, unknown>,
) {
  const mine = (m: unknown) => isObj(m) && m.manager === manager && m.operation === operation;
  const others = (managed ?? []).filter((m) => !mine(m));
  // an update adds to what its manager set before; an apply says all it owns
  const before = (managed ?? []).find(mine) as { fieldsV1?: unknown } | undefined;
  if (operation === 'Update' && isObj(before?.fieldsV1))
    fields = mergePatch(before.fieldsV1, fields) as Record<string, unknown>;
  return [
    ...others,
    { manager, operation, apiVersion: API_VERSION, time: now(), fieldsType: 'FieldsV1', fieldsV1: fields },
  ];
}

/** The fields an object sets, for managedFields (metadata's labels and annotations, spec). */
function fieldSet(obj: { metadata?: unknown; spec?: unknown }) {
  const meta = isObj(obj.metadata) ? obj.metadata : {};
  const m: Record<string, unknown> = {};
  if (isObj(meta.labels)) m.labels = meta.labels;
  if (isObj(meta.annotations)) m.annotations = meta.annotations;
  return fieldsOf({
    ...(Object.keys(m).length ? { metadata: m } : {}),
    ...(obj.spec !== undefined ? { spec: obj.spec } : {}),
  });
}

const managerOf = (q: Query, fallback: string) => {
  const m = one(q, 'fieldManager');
  if (m !== undefined && (m.length > 128 || !m.length))
    throw new KubeError(400, 'BadRequest', 'fieldManager: 1 to 128 characters');
  return m ?? fallback;
};

const isDryRun = (q: Query) => {
  const v = one(q, 'dryRun');
  if (v !== undefined && v !== 'All') throw new KubeError(400, 'BadRequest', 'dryRun: the only value is All');
  return v === 'All';
};

function limitOf(q: Query): number | undefined {
  const v = one(q, 'limit');
  if (v === undefined || v === '') return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new KubeError(400, 'BadRequest', 'limit must be a non-negative integer');
  return Number(v);
}

/**
 * Whether kubectl asks for a Table (`kubectl get` without -o): the rows it prints, with each
 * object's metadata only, instead of whole objects it would decode to print three columns.
 */
const TABLE = /(^|,)\s*application\/json;\s*as=Table;\s*v=v1;\s*g=meta\.k8s\.io/;
const wantsTable = (req: FastifyRequest) => TABLE.test(String(req.headers.accept ?? ''));

function age(created: string | undefined): string {
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(created ?? '')) / 1000));
  if (!Number.isFinite(s)) return '<unknown>';
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

function table(items: KubeObject[], listMeta: Record<string, unknown>) {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'metadata.name', priority: 0 },
      { name: 'Source', type: 'string', format: '', description: 'where the resource is managed', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: 'since creation', priority: 0 },
    ],
    rows: items.map((o) => {
      const { name, namespace, uid, resourceVersion, creationTimestamp, labels } = o.metadata;
      return {
        cells: [name, String(o.status?.source ?? ''), age(creationTimestamp)],
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { name, namespace, uid, resourceVersion, creationTimestamp, labels },
        },
      };
    }),
  };
}
const TABLE_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const PATCH_TYPES = [
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/json-patch+json',
  'application/apply-patch+yaml',
];

export async function kubeRoutes(app: FastifyInstance, deps: KubeRouteDeps): Promise<void> {
  const { store } = deps;

  /** The kind the path names, unless its feature is disabled (then as unknown as a typo). */
  const kindOf = async (params: Params): Promise<KubeKind> => {
    const kind = kindByName(params);
    const feature = TABLE_FEATURES[kind.table];
    if (feature && (await deps.isFeatureDisabled(feature)))
      throw new KubeError(404, 'NotFound', `the server could not find the requested resource (${kind.plural})`);
    return kind;
  };

  app.register(
    async (scope) => {
      scope.addContentTypeParser(PATCH_TYPES, { parseAs: 'string' }, (_req, body, done) => done(null, body));
      scope.addContentTypeParser('application/yaml', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      scope.setErrorHandler((err, req, reply) => {
        if (err instanceof KubeError) return sendStatus(reply, err);
        const status = (err as { statusCode?: number }).statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          const reason =
            status === 415 ? 'UnsupportedMediaType' : status === 413 ? 'RequestEntityTooLarge' : 'BadRequest';
          return sendStatus(reply, new KubeError(status, reason, (err as Error).message));
        }
        req.log.error({ err }, 'kube: request failed');
        return sendStatus(reply, new KubeError(500, 'InternalError', 'Internal error occurred'));
      });
      scope.setNotFoundHandler((req, reply) =>
        sendStatus(reply, new KubeError(404, 'NotFound', `the server could not find the requested resource`)),
      );

      // Who is calling: a bearer token (the kubeconfig's), or everyone as the system person with
      // AUTH=none. The session cookie is not accepted here: kubectl never has one.
      scope.addHook('onRequest', async (req, reply) => {
        const bearer = /^bearer\s/i.test(req.headers.authorization ?? '');
        const caller = bearer || deps.authMode === 'none' ? await deps.resolveCaller(req) : null;
        if (!caller) return reply.code(401).send(statusBody(401, 'Unauthorized', 'Unauthorized'));
        req.caller = caller;
      });

      const get = (url: string, body: () => unknown) =>
        scope.get(url, { config: { access: [] } }, async (_req, reply) => reply.type('application/json').send(body()));
      get(`${PREFIX}/version`, versionInfo);
      get(`${PREFIX}/api`, apiVersions);
      get(`${PREFIX}/api/v1`, coreResources);
      get(`${PREFIX}/apis`, apiGroups);
      get(`${PREFIX}/apis/${GROUP}`, () => apiGroups().groups[0]);
      // a disabled feature's kinds are left out, as they answer 404 (kindFor)
      scope.get(GV, { config: { access: [] } }, async (_req, reply) => {
        const enabled: KubeKind[] = [];
        for (const k of KINDS) {
          const feature = TABLE_FEATURES[k.table];
          if (!feature || !(await deps.isFeatureDisabled(feature))) enabled.push(k);
        }
        return reply.type('application/json').send(groupResources(enabled));
      });
      // Older kubectl (1.20, Debian's) asks for the v2 document in protobuf only (openapi-proto.ts).
      scope.get(`${PREFIX}/openapi/v2`, { config: { access: [] } }, async (req, reply) => {
        const accept = String(req.headers.accept ?? '');
        if (accept.includes('protobuf') && !/json|\*\/\*/.test(accept))
          return reply.type('application/com.github.proto-openapi.spec.v2@v1.0+protobuf').send(openApiV2Proto());
        return reply.type('application/json').send(openApiV2());
      });
      get(`${PREFIX}/openapi/v3`, openApiV3Index);
      get(`${PREFIX}/openapi/v3/apis/${API_VERSION}`, openApiV3GroupVersion);

      // Namespaces: the ones any kind's rows use (read-only; a namespace exists when something is in it)
      scope.get(`${PREFIX}/api/v1/namespaces`, { config: { access: [] } }, async () => {
        const names = await store.namespaces();
        return {
          kind: 'NamespaceList',
          apiVersion: 'v1',
          metadata: {},
          items: names.map((name) => ({
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: { name },
            status: { phase: 'Active' },
          })),
        };
      });
      scope.get<{ Params: { name: string } }>(
        `${PREFIX}/api/v1/namespaces/:name`,
        { config: { access: [] } },
        async (req) => {
          const name = checkNamespace(req.params.name);
          if (!(await store.namespaces()).includes(name))
            throw new KubeError(404, 'NotFound', `namespaces "${name}" not found`, { name, kind: 'namespaces' });
          return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase: 'Active' } };
        },
      );

      const list = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
        const kind = await kindOf(req.params);
        const namespace = req.params.namespace === undefined ? undefined : checkNamespace(req.params.namespace);
        authorize(req.caller!, kind, 'list', namespace);
        if (one(req.query, 'watch') === 'true' || one(req.query, 'watch') === '1')
          throw new KubeError(405, 'MethodNotAllowed', 'watch is not supported by this server');
        const labelSelector = one(req.query, 'labelSelector');
        const fieldSelector = one(req.query, 'fieldSelector');
        if ((labelSelector?.length ?? 0) > MAX_SELECTOR || (fieldSelector?.length ?? 0) > MAX_SELECTOR)
          throw new KubeError(400, 'BadRequest', `selectors are limited to ${MAX_SELECTOR} characters`);
        const page = await store.list(kind, {
          namespace,
          labelSelector,
          fieldSelector,
          limit: limitOf(req.query),
          continue: one(req.query, 'continue'),
          metaOnly: wantsTable(req),
        });
        const metadata = {
          resourceVersion: page.resourceVersion,
          ...(page.continue ? { continue: page.continue } : {}),
        };
        if (wantsTable(req)) return reply.type(TABLE_TYPE).send(table(page.items, metadata));
        return reply
          .type('application/json')
          .send({ apiVersion: API_VERSION, kind: `${kind.kind}List`, metadata, items: page.items });
      };

      const read = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
        const kind = await kindOf(req.params);
        const namespace = kind.namespaced ? checkNamespace(req.params.namespace ?? 'default') : '';
        authorize(req.caller!, kind, 'get', namespace || undefined);
        const object = await store.get(kind, namespace, checkName(req.params.name));
        if (wantsTable(req)) return reply.type(TABLE_TYPE).send(table([object], {}));
        return reply.type('application/json').send(object);
      };

      const create = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
        const kind = await kindOf(req.params);
        const urlNs = req.params.namespace === undefined ? undefined : checkNamespace(req.params.namespace);
        authorize(req.caller!, kind, 'create', urlNs);
        const obj = objectOf(kind, bodyObject(req.body, false), undefined, urlNs);
        const manager = managerOf(req.query, 'kubectl');
        const { object } = await store.write(
          kind,
          obj.metadata.namespace ?? '',
          obj.metadata.name,
          (current) => {
            if (current)
              throw new KubeError(
                409,
                'AlreadyExists',
                `${kind.plural}.${GROUP} "${obj.metadata.name}" already exists`,
                {
                  name: obj.metadata.name,
                  group: GROUP,
                  kind: kind.plural,
                },
              );
            delete obj.metadata.resourceVersion;
            obj.metadata.managedFields = withManager([], manager, 'Update', fieldSet(obj));
            return obj;
          },
          { personId: req.caller!.person.id, dryRun: isDryRun(req.query), log: req.log },
        );
        return reply.code(201).type('application/json').send(object);
      };

      const replace = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
        const kind = await kindOf(req.params);
        const namespace = kind.namespaced ? checkNamespace(req.params.namespace ?? 'default') : '';
        authorize(req.caller!, kind, 'update', namespace || undefined);
        const name = checkName(req.params.name);
        const obj = objectOf(kind, bodyObject(req.body, false), name, namespace || undefined);
        const manager = managerOf(req.query, 'kubectl');
        const { object, created } = await store.write(
          kind,
          namespace,
          name,
          (current) => {
            if (!current && obj.metadata.resourceVersion)
              throw new KubeError(404, 'NotFound', `${kind.plural}.${GROUP} "${name}" not found`, {
                name,
                group: GROUP,
                kind: kind.plural,
              });
            obj.metadata.managedFields = withManager(current?.metadata.managedFields, manager, 'Update', fieldSet(obj));
            return obj;
          },
          { personId: req.caller!.person.id, dryRun: isDryRun(req.query), log: req.log },
        );
        return reply
          .code(created ? 201 : 200)
          .type('application/json')
          .send(object);
      };

      const patch = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
        const kind = await kindOf(req.params);
        const namespace = kind.namespaced ? checkNamespace(req.params.namespace ?? 'default') : '';
        authorize(req.caller!, kind, 'patch', namespace || undefined);
        const name = checkName(req.params.name);
        const type = String(req.headers['content-type'] ?? '')
          .split(';')[0]
          .trim()
          .toLowerCase();
        const dryRun = isDryRun(req.query);
        const personId = req.caller!.person.id;

        if (type === 'application/apply-patch+yaml') {
          const manager = one(req.query, 'fieldManager');
          if (!manager) throw new KubeError(422, 'Invalid', 'fieldManager is required for apply requests');
          managerOf(req.query, manager);
          const body = bodyObject(req.body, true);
          const applied = objectOf(kind, body, name, namespace || undefined);
          const appliedFields = fieldSet(body);
          const { object, created } = await store.write(
            kind,
            namespace,
            name,
            (current) => {
              const mine = current?.metadata.managedFields?.find(
                (m) => isObj(m) && m.manager === manager && m.operation === 'Apply',
              ) as { fieldsV1?: Record<string, unknown> } | undefined;
              const base = current
                ? (removeDropped(
                    {
                      metadata: { labels: current.metadata.labels, annotations: current.metadata.annotations },
                      spec: current.spec,
                    },
                    mine?.fieldsV1 ?? {},
                    appliedFields,
                  ) as { metadata: Record<string, unknown>; spec: Record<string, unknown> })
                : { metadata: {}, spec: {} };
              const merged = mergePatch(base, {
                metadata: { labels: applied.metadata.labels, annotations: applied.metadata.annotations },
                spec: applied.spec,
              }) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
              return {
                apiVersion: API_VERSION,
                kind: kind.kind,
                metadata: {
                  name,
                  ...(merged.metadata ?? {}),
                  resourceVersion: applied.metadata.resourceVersion,
                  managedFields: withManager(current?.metadata.managedFields, manager, 'Apply', appliedFields),
                },
                spec: merged.spec ?? {},
              } as KubeObject;
            },
            { personId, dryRun, log: req.log },
          );
          return reply
            .code(created ? 201 : 200)
            .type('application/json')
            .send(object);
        }

        if (!PATCH_TYPES.includes(type))
          throw new KubeError(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')}`,
          );
        const manager = managerOf(req.query, 'kubectl');
        const text = typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? null);
        let patchDoc: unknown;
        try {
          patchDoc = JSON.parse(text);
        } catch (err) {
          throw new KubeError(400, 'BadRequest', `the patch does not parse: ${(err as Error).message}`);
        }
        const { object } = await store.write(
          kind,
          namespace,
          name,
          (current) => {
            if (!current)
              throw new KubeError(404, 'NotFound', `${kind.plural}.${GROUP} "${name}" not found`, {
                name,
                group: GROUP,
                kind: kind.plural,
              });
            const before = {
              apiVersion: current.apiVersion,
              kind: current.kind,
              metadata: current.metadata,
              spec: current.spec,
            };
            let after: unknown;
            if (type === 'application/json-patch+json') {
              if (!Array.isArray(patchDoc) || patchDoc.length > 1000)
                throw new KubeError(400, 'BadRequest', 'a JSON patch is an array of at most 1000 operations');
              try {
                after = fastJsonPatch.applyPatch(
                  structuredClone(before),
                  patchDoc as Operation[],
                  true,
                  false,
                ).newDocument;
              } catch (err) {
                throw new KubeError(
                  422,
                  'Invalid',
                  `the JSON patch does not apply: ${(err as Error).message.split('\n')[0]}`,
                );
              }
            } else {
              if (!isObj(patchDoc)) throw new KubeError(400, 'BadRequest', 'a merge patch is an object');
              after = mergePatch(before, patchDoc);
            }
            if (!isObj(after)) throw new KubeError(422, 'Invalid', 'the patched object is not an object');
            const obj = objectOf(kind, after, name, namespace || undefined);
            // the version the patch names, if any, must be the stored one
            const patchMeta = isObj(patchDoc) && isObj(patchDoc.metadata) ? patchDoc.metadata : {};
            obj.metadata.resourceVersion =
              typeof patchMeta.resourceVersion === 'string' ? patchMeta.resourceVersion : undefined;
            obj.metadata.managedFields = withManager(
              current.metadata.managedFields,
              manager,
              'Update',
              fieldSet(isObj(patchDoc) ? patchDoc : obj),
            );
            return obj;
          },
          { personId, dryRun, log: req.log },
        );
        return reply.type('application/json').send(object);
      };

      const remove = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
        const kind = await kindOf(req.params);
        const namespace = kind.namespaced ? checkNamespace(req.params.namespace ?? 'default') : '';
        authorize(req.caller!, kind, 'delete', namespace || undefined);
        const name = checkName(req.params.name);
        const opts = isObj(req.body) ? req.body : {};
        const pre = isObj(opts.preconditions) ? opts.preconditions : {};
        const object = await store.delete(kind, namespace, name, {
          dryRun: isDryRun(req.query) || (Array.isArray(opts.dryRun) && opts.dryRun.includes('All')),
          resourceVersion: typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined,
          log: req.log,
        });
        return reply.type('application/json').send({
          ...statusBody(200, '', ''),
          message: undefined,
          reason: undefined,
          details: { name, group: GROUP, kind: kind.plural, uid: object.metadata.uid },
        });
      };

      const cfg = { config: { access: [] } };
      const ns = `${GV}/namespaces/:namespace/:plural`;
      const all = `${GV}/:plural`;
      for (const base of [ns, all]) {
        scope.get(base, cfg, list);
        scope.post(base, cfg, create);
        scope.get(`${base}/:name`, cfg, read);
        scope.put(`${base}/:name`, cfg, replace);
        scope.patch(`${base}/:name`, cfg, patch);
        scope.delete(`${base}/:name`, cfg, remove);
      }
    },
    { prefix: '/k8s' },
  );
}
