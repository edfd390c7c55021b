import { z } from 'zod';
import { CONNECTION_TYPES, playbookSpecSchema } from '@watchdeck/core';
import { exposedTables } from '../db/exposed.ts';
import { SETTINGS_KINDS } from '../settings/index.ts';

/** The API group and version every kind is served under: `watchdeck.io/v1`. */
export const GROUP = 'watchdeck.io';
export const VERSION = 'v1';
export const API_VERSION = `${GROUP}/${VERSION}`;

type Row = Record<string, unknown>;
type Spec = Record<string, unknown>;

/**
 * One kind of the API: the table its objects are rows of, how a row's columns become the
 * object's `spec` and back, and the RBAC resource that guards it (the table's resource in
 * db/exposed.ts, as /api/db guards it). Kinds whose table has no `namespace` column are
 * cluster-scoped; those without `labels` or `name` keep them in `kube_objects`.
 */
export interface KubeKind {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  table: string;
  namespaced: boolean;
  /** the table has a labels column (else kube_objects.labels) */
  labelsColumn: boolean;
  /** the table has a name column (else kube_objects.name) */
  nameColumn: boolean;
  /** columns read for fromRow (besides id, name, namespace, labels, source, timestamps) */
  columns: string[];
  /** the row's columns (besides name, namespace, labels, source) from the object's spec */
  toRow(spec: Spec, name: string): Row;
  fromRow(row: Row): Spec;
  /** secret columns: written encrypted, read back as a reference or masked (connections) */
  secrets?: string[];
  /** the spec's JSON schema (OpenAPI), from the same zod schema the forms and writes use */
  specSchema(): Record<string, unknown>;
  /** the seed's RBAC resource */
  resource: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
const openObject = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties });

/** A kind whose table holds the whole spec in a `spec` column (the generic settings resources). */
function specKind(
  table: string,
  names: { kind: string; plural: string; singular: string; shortNames: string[] },
  extra: { columns?: string[]; read?: (row: Row, spec: Spec) => Spec; write?: (spec: Spec) => Row } = {},
): KubeKind {
  const settings = SETTINGS_KINDS.find((k) => k.table === table);
  return {
    ...names,
    table,
    namespaced: table !== 'teams' && table !== 'incident_rules',
    labelsColumn: ['canaries', 'config_scrapers', 'topologies', 'logging_backends'].includes(table),
    nameColumn: true,
    columns: ['spec', ...(extra.columns ?? [])],
    toRow: (spec) => ({ spec, ...(extra.write?.(spec) ?? {}) }),
    fromRow: (row) => {
      const spec = isObject(row.spec) ? { ...row.spec } : {};
      return extra.read ? extra.read(row, spec) : spec;
    },
    specSchema: () => (settings ? toJson(settings.spec) : openObject()),
    resource: exposedTables[table]?.resource ?? 'database',
  };
}

/** A column the UI wrote and the spec does not carry: shown in the spec (icon, schedule). */
const withColumns =
  (...cols: string[]) =>
  (row: Row, spec: Spec): Spec => {
    for (const c of cols) if (row[c] !== null && row[c] !== undefined && spec[c] === undefined) spec[c] = row[c];
    return spec;
  };

/** A kind whose spec is a set of the table's columns (camelCase keys in the spec). */
function columnKind(
  table: string,
  names: { kind: string; plural: string; singular: string; shortNames: string[] },
  fields: Record<string, string>,
  schema: Record<string, unknown>,
  opts: { nameColumn?: boolean; secrets?: string[] } = {},
): KubeKind {
  const entries = Object.entries(fields);
  return {
    ...names,
    table,
    namespaced: true,
    labelsColumn: false,
    nameColumn: opts.nameColumn ?? true,
    columns: entries.map(([, col]) => col),
    toRow: (spec) => Object.fromEntries(entries.map(([key, col]) => [col, spec[key] ?? null])),
    fromRow: (row) => {
      const spec: Spec = {};
      for (const [key, col] of entries) {
        const v = row[col];
        if (v !== null && v !== undefined) spec[key] = v instanceof Date ? v.toISOString() : v;
      }
      return spec;
    },
    secrets: opts.secrets,
    specSchema: () => schema,
    resource: exposedTables[table]?.resource ?? 'database',
  };
}

/** `{value}` or `{valueFrom: {secretKeyRef | configMapKeyRef | helmRef: {name, key}}}` or a string. */
const valueSource = {
  'x-kubernetes-int-or-string': false,
  description:
    'A literal value, or {valueFrom: {secretKeyRef|configMapKeyRef|helmRef: {name, key}}}; secrets are never returned in clear',
  'x-kubernetes-preserve-unknown-fields': true,
};

export const KINDS: readonly KubeKind[] = [
  specKind(
    'canaries',
    { kind: 'Canary', plural: 'canaries', singular: 'canary', shortNames: ['canary'] },
    { columns: ['icon', 'schedule'], read: withColumns('icon', 'schedule'), write: () => ({ schedule: null }) },
  ),
  specKind(
    'config_scrapers',
    { kind: 'ScrapeConfig', plural: 'scrapeconfigs', singular: 'scrapeconfig', shortNames: ['scrapers'] },
    { columns: ['schedule'], read: withColumns('schedule'), write: () => ({ schedule: null }) },
  ),
  specKind(
    'topologies',
    { kind: 'Topology', plural: 'topologies', singular: 'topology', shortNames: ['topo'] },
    { columns: ['schedule'], read: withColumns('schedule'), write: () => ({ schedule: null }) },
  ),
  {
    kind: 'Playbook',
    plural: 'playbooks',
    singular: 'playbook',
    shortNames: ['pb'],
    table: 'playbooks',
    namespaced: true,
    labelsColumn: false,
    nameColumn: true,
    columns: ['spec', 'title', 'description', 'icon', 'category'],
    // the spec carries title, description, icon and category; the columns are what lists show
    toRow: (spec, name) => ({
      spec,
      title: typeof spec.title === 'string' && spec.title.trim() ? spec.title : name,
      description: typeof spec.description === 'string' ? spec.description : null,
      icon: typeof spec.icon === 'string' ? spec.icon : null,
      category: typeof spec.category === 'string' ? spec.category : null,
    }),
    fromRow: (row) =>
      withColumns('title', 'description', 'icon', 'category')(row, isObject(row.spec) ? { ...row.spec } : {}),
    specSchema: () => toJson(playbookSpecSchema),
    resource: exposedTables.playbooks.resource,
  },
  columnKind(
    'notifications',
    { kind: 'Notification', plural: 'notifications', singular: 'notification', shortNames: ['notif'] },
    {
      events: 'events',
      title: 'title',
      template: 'template',
      filter: 'filter',
      properties: 'properties',
      repeatInterval: 'repeat_interval',
      personId: 'person_id',
      teamId: 'team_id',
      customServices: 'custom_services',
    },
    openObject({
      events: { type: 'array', items: { type: 'string' } },
      title: { type: 'string' },
      template: { type: 'string' },
      filter: { type: 'string', description: 'CEL expression' },
      properties: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      repeatInterval: { type: 'string' },
      personId: { type: 'string', format: 'uuid' },
      teamId: { type: 'string', format: 'uuid' },
      customServices: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    }),
  ),
  columnKind(
    'notification_silences',
    {
      kind: 'NotificationSilence',
      plural: 'notificationsilences',
      singular: 'notificationsilence',
      shortNames: ['silence'],
    },
    {
      description: 'description',
      from: 'from',
      until: 'until',
      recursive: 'recursive',
      canaryId: 'canary_id',
      checkId: 'check_id',
      componentId: 'component_id',
      configId: 'config_id',
    },
    openObject({
      description: { type: 'string' },
      from: { type: 'string', format: 'date-time' },
      until: { type: 'string', format: 'date-time' },
      recursive: { type: 'boolean' },
      canaryId: { type: 'string', format: 'uuid' },
      checkId: { type: 'string', format: 'uuid' },
      componentId: { type: 'string', format: 'uuid' },
      configId: { type: 'string', format: 'uuid' },
    }),
    { nameColumn: false },
  ),
  columnKind(
    'connections',
    { kind: 'Connection', plural: 'connections', singular: 'connection', shortNames: ['conn'] },
    {
      type: 'type',
      url: 'url',
      username: 'username',
      password: 'password',
      certificate: 'certificate',
      insecureTLS: 'insecure_tls',
      properties: 'properties',
    },
    {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', enum: [...CONNECTION_TYPES] },
        url: valueSource,
        username: valueSource,
        password: valueSource,
        certificate: valueSource,
        insecureTLS: { type: 'boolean' },
        properties: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    { secrets: exposedTables.connections.secrets },
  ),
  specKind(
    'incident_rules',
    { kind: 'IncidentRule', plural: 'incidentrules', singular: 'incidentrule', shortNames: ['ir'] },
    {
      columns: ['priority'],
      read: (row, spec) =>
        typeof row.priority === 'number' && row.priority !== 0 ? { priority: row.priority, ...spec } : spec,
      write: (spec) => ({ priority: Number.isInteger(spec.priority) ? spec.priority : 0 }),
    },
  ),
  specKind(
    'teams',
    { kind: 'Team', plural: 'teams', singular: 'team', shortNames: [] },
    {
      columns: ['icon'],
      read: withColumns('icon'),
      write: (spec) => ({ icon: typeof spec.icon === 'string' ? spec.icon : null }),
    },
  ),
  specKind('logging_backends', {
    kind: 'LoggingBackend',
    plural: 'loggingbackends',
    singular: 'loggingbackend',
    shortNames: ['lb'],
  }),
];

export const kindByPlural = new Map(KINDS.map((k) => [k.plural, k]));
