/**
 * One log search: the component's log source, the backend that serves it, the time range, then
 * the backend's own query (backends/). Which backend: the live logging_backends row named like
 * the source; else the first (by name) whose spec's routes match the source's type or the
 * component's type and the component's labels (Mission Control's routes). The source entry may
 * carry `labels` the lines must have (`{name: 'app-logs', type: 'file', labels: {app: 'orders'}}`).
 */
import {
  LOG_BACKEND_KINDS,
  LOG_DEFAULT_START,
  LOG_PAGE_SIZE,
  loggingBackendSpecSchema,
  parseLogTime,
  type LogSearchRequest,
  type LogSearchResult,
  type LoggingBackendSpec,
} from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { ConnectionLookupError, connectionByName, type SecretBox } from '#server/connections/index.ts';
import { LogBackendError, LogRequestError } from './errors.ts';
import { searchFileBackend } from './backends/file.ts';
import { searchLoki, searchOpenSearch, type LokiSpec, type SearchSpec } from './backends/http.ts';
import { searchPostgres, type PostgresSpec } from './backends/postgres.ts';
import {
  searchKubernetes,
  WORKLOAD_TYPES,
  type KubernetesSpec,
  type KubernetesWorkload,
} from './backends/kubernetes.ts';
import { PageTokenError, type BackendQuery } from './backends/types.ts';

export interface LogsDeps {
  db: Db;
  box?: SecretBox;
  /** directories file backends may read; the first is where relative paths start */
  roots: string[];
}

interface Source {
  name: string;
  type?: string;
  labels?: Record<string, string>;
}

interface Component {
  id: string;
  name: string;
  type: string | null;
  labels: Record<string, string> | null;
  logs: unknown;
}

interface BackendRow {
  id: string;
  name: string;
  spec: unknown;
}

const stringMap = (v: unknown): Record<string, string> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string') as [string, string][])
    : undefined;

function sourcesOf(c: Component): Source[] {
  if (!Array.isArray(c.logs)) return [];
  return c.logs
    .filter((l): l is Record<string, unknown> => !!l && typeof l === 'object' && typeof l.name === 'string' && !!l.name)
    .map((l) => ({
      name: l.name as string,
      type: typeof l.type === 'string' ? l.type : undefined,
      labels: stringMap(l.labels),
    }));
}

type Kind = (typeof LOG_BACKEND_KINDS)[number];
const kindOf = (spec: LoggingBackendSpec): Kind => LOG_BACKEND_KINDS.find((k) => spec[k] !== undefined)!;

function routesMatch(spec: LoggingBackendSpec, source: Source, c: Component): boolean {
  const routes = (spec[kindOf(spec)] as { routes?: { type?: string; labels?: Record<string, string> }[] }).routes;
  if (!routes?.length) return false;
  const labels = c.labels ?? {};
  return routes.some(
    (r) =>
      (!r.type || r.type === source.type || r.type === c.type) &&
      Object.entries(r.labels ?? {}).every(([k, v]) => labels[k] === v),
  );
}

async function findBackend(db: Db, source: Source, c: Component): Promise<{ name: string; spec: LoggingBackendSpec }> {
  const parse = (row: BackendRow) => {
    const r = loggingBackendSpecSchema.safeParse(row.spec);
    if (!r.success)
      throw new LogBackendError(
        `Log backend ${row.name} has a spec that is not valid (${r.error.issues[0]?.message}); fix it in Settings > Log Backends`,
      );
    return { name: row.name, spec: r.data };
  };
  const named = await db.query<BackendRow>(
    `SELECT id, name, spec FROM logging_backends WHERE name = $1 AND deleted_at IS NULL ORDER BY created_at LIMIT 1`,
    [source.name],
  );
  if (named.rows[0]) return parse(named.rows[0]);
  const all = await db.query<BackendRow>(
    `SELECT id, name, spec FROM logging_backends WHERE deleted_at IS NULL ORDER BY name LIMIT 500`,
  );
  for (const row of all.rows) {
    const r = loggingBackendSpecSchema.safeParse(row.spec);
    if (r.success && routesMatch(r.data, source, c)) return { name: row.name, spec: r.data };
  }
  throw new LogRequestError(
    404,
    `No log backend serves the log source ${source.name} of ${c.name}: add a log backend named ${source.name} (Settings > Log Backends), or one whose routes match type ${source.type ?? c.type ?? '(none)'}`,
  );
}

/** A connection by name, its lookup failures said as the backend's (502). */
async function connection(deps: LogsDeps, backend: string, ref: string, type?: string) {
  try {
    return await connectionByName(deps.db, deps.box, ref, type);
  } catch (err) {
    if (err instanceof ConnectionLookupError) throw new LogBackendError(`Log backend ${backend}: ${err.message}`);
    throw err;
  }
}

/** linked workloads read per search (each lists its pods; at most 20 pods in all) */
const MAX_WORKLOADS = 10;

/**
 * The Kubernetes workloads (and pods) in the catalog linked to a component (the topology's
 * catalog lookups and `configs` selectors link them): whose pods a kubernetes source reads.
 */
async function linkedWorkloads(db: Db, componentId: string): Promise<KubernetesWorkload[]> {
  const { rows } = await db.query<{
    type: string;
    name: string;
    namespace: string | null;
    uid: string | null;
    match_labels: Record<string, string> | null;
  }>(
    `SELECT DISTINCT ci.type, coalesce(ci.config #>> '{metadata,name}', ci.name) AS name,
            coalesce(ci.config #>> '{metadata,namespace}', ci.tags ->> 'namespace') AS namespace,
            ci.config #>> '{metadata,uid}' AS uid, ci.config #> '{spec,selector,matchLabels}' AS match_labels
     FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
     WHERE r.component_id = $1 AND r.deleted_at IS NULL AND ci.deleted_at IS NULL AND ci.type = ANY($2::text[])
     ORDER BY 1, 2 LIMIT ${MAX_WORKLOADS}`,
    [componentId, WORKLOAD_TYPES.map((k) => `Kubernetes::${k}`)],
  );
  return rows
    .filter((r) => r.namespace)
    .map((r) => ({
      kind: r.type.slice('Kubernetes::'.length) as KubernetesWorkload['kind'],
      name: r.name,
      namespace: r.namespace!,
      uid: r.uid ?? undefined,
      matchLabels: r.match_labels && typeof r.match_labels === 'object' ? r.match_labels : undefined,
    }));
}

export async function searchLogs(deps: LogsDeps, req: LogSearchRequest, signal: AbortSignal): Promise<LogSearchResult> {
  const { rows } = await deps.db.query<Component>(
    `SELECT id, name, type, labels, logs FROM components WHERE id = $1 AND deleted_at IS NULL`,
    [req.id],
  );
  const component = rows[0];
  if (!component) throw new LogRequestError(404, 'Component not found');
  const sources = sourcesOf(component);
  if (!sources.length) throw new LogRequestError(404, `${component.name} has no log sources`);
  const source = req.name ? sources.find((s) => s.name === req.name) : sources[0];
  if (!source)
    throw new LogRequestError(
      404,
      `${component.name} has no log source ${req.name}; its sources: ${sources.map((s) => s.name).join(', ')}`,
    );

  const now = new Date();
  const end = req.end?.trim() ? parseLogTime(req.end, now)! : now;
  const start = parseLogTime(req.start?.trim() || LOG_DEFAULT_START, now)!;
  if (start.getTime() > end.getTime()) throw new LogRequestError(400, 'start must be before end');

  const backend = await findBackend(deps.db, source, component);
  const q: BackendQuery = {
    text: req.query,
    startMs: start.getTime(),
    endMs: end.getTime(),
    limit: req.limit ?? LOG_PAGE_SIZE,
    page: req.page,
    labels: source.labels,
    signal,
  };
  try {
    const kind = kindOf(backend.spec);
    switch (kind) {
      case 'file':
        return await searchFileBackend(backend.spec.file!, q, deps.roots);
      case 'loki':
        return await searchLoki(backend.spec.loki as LokiSpec, q);
      case 'elasticsearch':
      case 'opensearch':
        return await searchOpenSearch(kind, backend.spec[kind] as SearchSpec, q);
      case 'kubernetes': {
        const spec = backend.spec.kubernetes as KubernetesSpec;
        const conn = await connection(deps, backend.name, spec.connection, 'kubernetes');
        const kubeconfig = [conn.certificate, conn.password].find((v): v is string => !!v && v.trim() !== '');
        if (!kubeconfig) throw new LogBackendError(`connection ${spec.connection} holds no kubeconfig`);
        return await searchKubernetes(
          spec,
          {
            kubeconfig,
            component: { name: component.name, labels: component.labels ?? {} },
            sourceLabels: source.labels,
            workloads: await linkedWorkloads(deps.db, component.id),
            previous: req.previous === true,
          },
          q,
        );
      }
      case 'postgres': {
        const spec = backend.spec.postgres as PostgresSpec;
        const conn = await connection(deps, backend.name, spec.connection);
        if (!conn.url)
          throw new LogBackendError(`Log backend ${backend.name}: connection ${spec.connection} has no URL`);
        return await searchPostgres(
          spec,
          { url: conn.url, username: conn.username ?? undefined, password: conn.password ?? undefined },
          q,
        );
      }
    }
  } catch (err) {
    if (err instanceof PageTokenError) throw new LogRequestError(400, err.message);
    if (err instanceof LogBackendError && !err.message.startsWith(`Log backend ${backend.name}`))
      throw new LogBackendError(`Log backend ${backend.name}: ${err.message}`);
    throw err;
  }
}
