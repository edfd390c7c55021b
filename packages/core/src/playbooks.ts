/**
 * Playbooks (seed 000 sections 3 and 5, seed 002 sections 3 and 4): the spec people write, the
 * run request, the run and action statuses. The server validates every spec written (routes and
 * /api/db) with `playbookSpecSchema` and serves it as JSON schema at /api/playbook/schema.json;
 * the web editor validates and completes with the same schema.
 *
 * Templates in action fields and parameter defaults are core's Go-template field paths
 * (`{{.params.name}}`, `{{.config.name}}`, `{{.actions.fetch.result.status}}`; template.ts).
 */
import { z } from 'zod';
import { isUuid } from './ids.ts';

/** Any UUID as PostgreSQL takes it (demo and imported ids need not be RFC 4122 versions). */
const uuid = (message: string) => z.string({ error: message }).refine(isUuid, message);

export const PLAYBOOK_PARAMETER_TYPES = [
  'code',
  'checkbox',
  'list',
  'team',
  'people',
  'component',
  'config',
  'check',
  'text',
] as const;
export type PlaybookParameterType = (typeof PLAYBOOK_PARAMETER_TYPES)[number];

/** Seed 002 section 4, plus `pending_approval` (a run waiting for its approvers). */
export const PLAYBOOK_RUN_STATUSES = [
  'pending',
  'pending_approval',
  'scheduled',
  'running',
  'waiting',
  'completed',
  'failed',
  'cancelled',
] as const;
export type PlaybookRunStatus = (typeof PLAYBOOK_RUN_STATUSES)[number];
export const PLAYBOOK_ACTION_STATUSES = [
  'pending',
  'scheduled',
  'running',
  'sleeping',
  'waiting',
  'completed',
  'failed',
  'cancelled',
  'skipped',
] as const;
export type PlaybookActionStatus = (typeof PLAYBOOK_ACTION_STATUSES)[number];
/** A run in one of these no longer changes (the web polls until then). */
export const PLAYBOOK_RUN_FINAL: readonly PlaybookRunStatus[] = ['completed', 'failed', 'cancelled'];

/** `500ms`, `10s`, `5m`, `1h`, `1d`, or combinations (`1m30s`). */
const DURATION = /^(\d+(ms|s|m|h|d))+$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
export function parsePlaybookDuration(text: string): number {
  if (!DURATION.test(text)) throw new Error(`"${text}" is not a duration (e.g. 500ms, 10s, 5m, 1h)`);
  let ms = 0;
  for (const m of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms;
}
const duration = z
  .string()
  .regex(DURATION, 'must be a duration such as 500ms, 10s, 5m or 1h')
  .describe('a duration: 500ms, 10s, 5m, 1h, 1d or a combination (1m30s)');

const stringMap = z.record(z.string(), z.string());
const nonEmpty = (what: string) => z.string().trim().min(1, `${what} is required`);

/** Where a playbook is offered: every field given must match (types: any of). */
export const playbookResourceSelectorSchema = z.strictObject({
  types: z.array(z.string()).optional().describe('resource types (config type, component type, check type)'),
  name: z.string().optional().describe('the resource name; * matches any run of characters'),
  labels: stringMap.optional().describe('labels the resource must carry'),
  tags: stringMap.optional().describe('tags the resource must carry (configs)'),
  healths: z.array(z.string()).optional().describe('health or status the resource must be in'),
});
export type PlaybookResourceSelector = z.infer<typeof playbookResourceSelectorSchema>;

export const playbookParameterSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][\w-]*$/, 'must be letters, digits, _ or -, starting with a letter or _'),
  label: z.string().optional(),
  description: z.string().optional(),
  type: z.enum(PLAYBOOK_PARAMETER_TYPES).default('text'),
  required: z.boolean().optional(),
  /** a value, or a template over the resource (`{{.config.name}}`) */
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  properties: z
    .strictObject({
      size: z.enum(['very-small', 'small', 'medium', 'large', 'full']).optional(),
      language: z.enum(['yaml', 'json']).optional(),
      jsonSchemaUrl: z.string().optional(),
      options: z.array(z.union([z.string(), z.strictObject({ label: z.string(), value: z.string() })])).optional(),
      filter: z.record(z.string(), z.unknown()).optional(),
      multiline: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
      maxLength: z.number().int().min(0).optional(),
      minLength: z.number().int().min(0).optional(),
      regex: z.string().optional(),
      format: z.string().optional().describe('bytes, millicores, dns1123 or another'),
      min: z.number().optional(),
      max: z.number().optional(),
    })
    .optional(),
});
export type PlaybookParameter = z.infer<typeof playbookParameterSchema>;

export const PLAYBOOK_ACTION_KINDS = ['exec', 'http', 'sql', 'notification', 'gitops'] as const;
export type PlaybookActionKind = (typeof PLAYBOOK_ACTION_KINDS)[number];

const gitCheckout = z.strictObject({
  url: nonEmpty('url'),
  connection: z.string().optional().describe('a git connection (credentials)'),
  ref: z.string().optional().describe('branch, tag or commit; the default branch when absent'),
  /** directory inside the working directory (default: the repository name) */
  destination: z.string().optional(),
});

const execAction = z.strictObject({
  script: nonEmpty('script'),
  /** connections exposed to the script as environment variables (only these) */
  connections: z
    .array(z.strictObject({ connection: nonEmpty('connection'), prefix: z.string().regex(/^[A-Z_][A-Z0-9_]*$/) }))
    .optional(),
  env: stringMap.optional(),
  checkout: gitCheckout.optional(),
});

const httpAction = z.strictObject({
  url: z.string().optional(),
  connection: z.string().optional().describe('an http connection: its URL and credentials'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  headers: stringMap.optional(),
  body: z.string().optional(),
  /** the action fails on another status; default: any 2xx */
  expectedStatus: z.array(z.number().int().min(100).max(599)).optional(),
});

const sqlAction = z.strictObject({
  connection: z.string().optional().describe('a postgres or mysql connection'),
  url: z.string().optional().describe('postgres://... or mysql://...'),
  driver: z.enum(['postgres', 'mysql']).optional(),
  query: nonEmpty('query'),
});

const notificationAction = z.strictObject({
  connection: z.string().optional().describe('an email, webhook or slack connection'),
  /** without a connection: email addresses, or an http(s) URL (webhook; slack when it is a Slack hook) */
  to: z.string().optional(),
  url: z.string().optional(),
  title: nonEmpty('title'),
  message: z.string().default(''),
});

const gitopsAction = z.strictObject({
  repo: z.strictObject({
    url: nonEmpty('url'),
    connection: z.string().optional(),
    base: z.string().optional().describe('branch to start from (default: the default branch)'),
    branch: z.string().optional().describe('branch to push to; new when it differs from base'),
  }),
  commit: z.strictObject({
    message: nonEmpty('message'),
    author: z.string().optional(),
    email: z.string().optional(),
  }),
  patches: z
    .array(z.strictObject({ path: nonEmpty('path'), yamlPath: nonEmpty('yamlPath'), value: z.unknown() }))
    .optional(),
  files: z.array(z.strictObject({ path: nonEmpty('path'), content: z.string() })).optional(),
});

/**
 * Agents (by name) that run the actions instead of this server: the action waits until one of
 * them takes it (GET /api/agent/playbook/actions) and reports its result. Absent or empty: here.
 */
const runsOn = z.array(nonEmpty('runsOn').max(255)).max(20).optional();

export const playbookActionSchema = z
  .strictObject({
    name: nonEmpty('name'),
    /** CEL over params, resource, run, actions; or always / success / failure / skip */
    if: z.string().optional(),
    delay: duration.optional(),
    timeout: duration.optional(),
    retry: z
      .strictObject({
        limit: z.number().int().min(0).max(20),
        duration: duration.default('1s').describe('wait before the first retry'),
        multiplier: z.number().min(1).max(10).default(2).describe('each later wait is the previous one times this'),
      })
      .optional(),
    runsOn: runsOn.describe("this action's agents, instead of the playbook's runsOn ([] runs it here)"),
    exec: execAction.optional(),
    http: httpAction.optional(),
    sql: sqlAction.optional(),
    notification: notificationAction.optional(),
    gitops: gitopsAction.optional(),
  })
  .superRefine((a, ctx) => {
    const kinds = PLAYBOOK_ACTION_KINDS.filter((k) => a[k] !== undefined);
    if (kinds.length !== 1)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `an action needs exactly one of ${PLAYBOOK_ACTION_KINDS.join(', ')}${kinds.length ? ` (has ${kinds.join(', ')})` : ''}`,
      });
    if (a.http && !a.http.url && !a.http.connection)
      ctx.addIssue({ code: 'custom', path: ['http', 'url'], message: 'url or connection is required' });
    if (a.sql && !a.sql.url && !a.sql.connection)
      ctx.addIssue({ code: 'custom', path: ['sql', 'connection'], message: 'connection or url is required' });
    if (a.notification && !a.notification.connection && !a.notification.to && !a.notification.url)
      ctx.addIssue({
        code: 'custom',
        path: ['notification', 'connection'],
        message: 'connection, to or url is required',
      });
    if (a.gitops && !a.gitops.patches?.length && !a.gitops.files?.length)
      ctx.addIssue({ code: 'custom', path: ['gitops', 'files'], message: 'patches or files are required' });
  });
export type PlaybookAction = z.infer<typeof playbookActionSchema>;

const eventTrigger = <E extends readonly [string, ...string[]]>(events: E) =>
  z.strictObject({
    event: z.enum(events),
    /** CEL over the resource (check / config / component) and the event */
    filter: z.string().optional(),
  });
export const PLAYBOOK_CHECK_EVENTS = ['failed', 'passed'] as const;
export const PLAYBOOK_CONFIG_EVENTS = [
  'created',
  'updated',
  'deleted',
  'healthy',
  'unhealthy',
  'warning',
  'unknown',
] as const;
export const PLAYBOOK_COMPONENT_EVENTS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;

export const playbookWebhookSchema = z.strictObject({
  /** served at POST /api/playbook/webhook/<path> */
  path: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and -'),
  authentication: z
    .strictObject({
      basic: z.strictObject({ username: nonEmpty('username'), password: nonEmpty('password') }).optional(),
      token: z.strictObject({ value: nonEmpty('value'), header: z.string().default('Authorization') }).optional(),
      jwt: z
        .strictObject({
          issuer: nonEmpty('issuer'),
          secret: z.string().optional().describe('HS256 tokens signed with this shared secret'),
          jwksUri: z
            .string()
            .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
            .optional()
            .describe("the issuer's JWKS (default: its discovery's jwks_uri)"),
          audience: z.string().optional(),
        })
        .refine((j) => !(j.secret && j.jwksUri), { message: 'give secret or jwksUri, not both', path: ['jwksUri'] })
        .optional()
        .describe("tokens of this issuer: HS256 with a shared secret, else RS256/ES256 by the issuer's JWKS"),
    })
    .refine((a) => !!(a.basic || a.token || a.jwt), 'basic, token or jwt is required'),
});

export const playbookSpecSchema = z
  .strictObject({
    title: z.string().optional(),
    description: z.string().optional(),
    category: z.string().optional(),
    icon: z.string().optional(),
    configs: z.array(playbookResourceSelectorSchema).optional(),
    components: z.array(playbookResourceSelectorSchema).optional(),
    checks: z.array(playbookResourceSelectorSchema).optional(),
    parameters: z.array(playbookParameterSchema).optional(),
    actions: z.array(playbookActionSchema).min(1, 'at least one action is required'),
    timeout: duration.optional().describe('the whole run; default 30m'),
    runsOn: runsOn.describe('agents (by name) that run the actions; one of them takes each action'),
    approval: z
      .strictObject({
        type: z.enum(['any', 'all']).default('any'),
        approvers: z.strictObject({
          people: z.array(z.string()).optional().describe('emails or ids'),
          teams: z.array(z.string()).optional().describe('team names or ids'),
        }),
      })
      .optional(),
    on: z
      .strictObject({
        schedule: z.array(z.strictObject({ schedule: nonEmpty('schedule') })).optional(),
        check: z.array(eventTrigger(PLAYBOOK_CHECK_EVENTS)).optional(),
        config: z.array(eventTrigger(PLAYBOOK_CONFIG_EVENTS)).optional(),
        component: z.array(eventTrigger(PLAYBOOK_COMPONENT_EVENTS)).optional(),
        webhook: playbookWebhookSchema.optional(),
      })
      .optional(),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.actions.forEach((a, i) => {
      if (seen.has(a.name))
        ctx.addIssue({ code: 'custom', path: ['actions', i, 'name'], message: `"${a.name}" is used twice` });
      seen.add(a.name);
    });
    const params = new Set<string>();
    s.parameters?.forEach((p, i) => {
      if (params.has(p.name))
        ctx.addIssue({ code: 'custom', path: ['parameters', i, 'name'], message: `"${p.name}" is used twice` });
      params.add(p.name);
    });
    const a = s.approval?.approvers;
    if (s.approval && !a?.people?.length && !a?.teams?.length)
      ctx.addIssue({ code: 'custom', path: ['approval', 'approvers'], message: 'name at least one person or team' });
  });
export type PlaybookSpec = z.infer<typeof playbookSpecSchema>;

/** `spec.actions[0].exec.script is required` from a zod issue. */
export function playbookSpecProblems(spec: unknown, prefix = 'spec'): string[] {
  const r = playbookSpecSchema.safeParse(spec);
  if (r.success) return [];
  return r.error.issues.map((issue) => {
    let field = prefix;
    let cur: unknown = spec;
    for (const p of issue.path) {
      field += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
      cur = cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[p] : undefined;
    }
    if (issue.code === 'invalid_type' && cur === undefined) return `${field} is required`;
    if (issue.code === 'unrecognized_keys')
      return `${field}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    return `${field}: ${issue.message}`;
  });
}

/**
 * An action an agent took through its long-poll (GET /api/agent/playbook/actions): its fields
 * already rendered on the upstream, its timeout and retry; `timeoutMs` is how long the upstream
 * waits for the result (the agent's local run ends before it).
 */
export const playbookHandedActionSchema = z.object({
  id: uuid('id must be a UUID'),
  run_id: uuid('run_id must be a UUID'),
  playbook_id: uuid('playbook_id must be a UUID'),
  playbook_name: z.string(),
  name: z.string(),
  action: playbookActionSchema,
  timeoutMs: z.number().int().positive(),
});
export type PlaybookHandedAction = z.infer<typeof playbookHandedActionSchema>;

/** An agent's result of an action it took, pushed as `playbook_run_actions` rows. */
export const playbookActionReportSchema = z.strictObject({
  id: uuid('id must be a UUID'),
  status: z.enum(['completed', 'failed']),
  result: z.record(z.string(), z.unknown()).nullish(),
  error: z
    .string()
    .max(64 * 1024)
    .nullish(),
  start_time: z.iso.datetime({ offset: true }).nullish(),
  end_time: z.iso.datetime({ offset: true }).nullish(),
});
export type PlaybookActionReport = z.infer<typeof playbookActionReportSchema>;

/** Seed 000 section 3: the run request; the answer is {run_id}. */
export const playbookRunRequestSchema = z.strictObject({
  id: uuid('id must be a playbook id'),
  component_id: uuid('component_id must be a UUID').optional(),
  config_id: uuid('config_id must be a UUID').optional(),
  check_id: uuid('check_id must be a UUID').optional(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export type PlaybookRunRequest = z.infer<typeof playbookRunRequestSchema>;

/** Seed 000 section 5: the dns1123 format. */
export const DNS1123 = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/**
 * The problems of one parameter value (seed 000 section 5); '' is no value. The server checks
 * every run request with it; the web form shows the same messages.
 */
export function playbookParameterProblem(p: PlaybookParameter, raw: unknown): string | undefined {
  const value = raw === undefined || raw === null ? '' : String(raw);
  const label = p.label || p.name;
  if (value === '') return p.required ? `${label} is required` : undefined;
  const props = p.properties ?? {};
  if (p.type === 'checkbox' && value !== 'true' && value !== 'false') return `${label} must be true or false`;
  if (p.type !== 'text') return undefined;
  if (props.minLength !== undefined && value.length < props.minLength)
    return `${label} must be at least ${props.minLength} characters`;
  if (props.maxLength !== undefined && value.length > props.maxLength)
    return `${label} must be at most ${props.maxLength} characters`;
  if (props.regex) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(props.regex);
    } catch {
      re = undefined;
    }
    if (re && !re.test(value)) return `${label} must match ${props.regex}`;
  }
  if (props.format === 'dns1123' && !DNS1123.test(value))
    return `${label} must be lowercase letters, digits, '-' and '.', starting and ending with a letter or digit`;
  if (props.min !== undefined || props.max !== undefined) {
    const n = Number(value.replace(/(m|Mi|Gi|Ti)$/, ''));
    if (!Number.isFinite(n)) return `${label} must be a number`;
    if (props.min !== undefined && n < props.min) return `${label} must be at least ${props.min}`;
    if (props.max !== undefined && n > props.max) return `${label} must be at most ${props.max}`;
  }
  return undefined;
}
