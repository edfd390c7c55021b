/**
 * Agents (seed 000 sections 3, 4, 5, 9): the create form the web app sends to POST
 * /api/agent/generate, validated by the same schema on the server, and the upstream API's limits.
 */
import { z } from 'zod';
import { AGENT_ONLINE_THRESHOLD_SECONDS } from './constants.ts';
import { uuidField } from './ids.ts';

/** Scrape interval options of the agent form; the default is 30m (seed 000 section 9). */
export const AGENT_SCRAPE_INTERVALS = ['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h'] as const;
export type AgentScrapeInterval = (typeof AGENT_SCRAPE_INTERVALS)[number];
export const DEFAULT_AGENT_SCRAPE_INTERVAL: AgentScrapeInterval = '30m';

export const AGENT_MESSAGES = {
  created: 'Agent created',
  updated: 'Agent updated',
  deleted: 'Agent deleted',
  /** the installation dialog's notice (seed 000 section 8) */
  tokenNotice: 'Access token will be shown only once. Please copy it and store it securely.',
  nameRequired: 'Agent name is required',
  nameTooLong: 'Agent name must be at most 100 characters',
  nameTaken: 'An agent with this name already exists',
  description: 'description must be at most 1000 characters',
  properties: 'properties must be a map of names to text values (at most 50, names up to 100 characters)',
  interval: `interval must be one of ${AGENT_SCRAPE_INTERVALS.join(', ')}`,
  topologyName: 'topologyName must be at most 200 characters',
  notAgent: "No agent behind this caller: the agent API takes an agent's access token.",
  parkedUnknown: 'No parked row with this id for this agent (it may have been stored or discarded meanwhile)',
  parkedRetryRequested: 'Retry requested: the agent sends the row again on its next push',
  parkedDiscardRequested: 'Discard requested: the agent forgets the row on its next push',
} as const;

/** The label map of an agent (seed 000 section 3 'properties (label map)'). */
export const agentPropertiesSchema = z
  .record(z.string().min(1).max(100), z.string().max(1000), { error: AGENT_MESSAGES.properties })
  .refine((m) => Object.keys(m).length <= 50, AGENT_MESSAGES.properties);

const kubernetesSchema = z
  .object({
    enabled: z.boolean().default(false),
    interval: z.enum(AGENT_SCRAPE_INTERVALS, { error: AGENT_MESSAGES.interval }).default(DEFAULT_AGENT_SCRAPE_INTERVAL),
  })
  .strict();

const pushTelemetrySchema = z
  .object({
    enabled: z.boolean().default(false),
    topologyName: z.string().trim().max(200, AGENT_MESSAGES.topologyName).optional(),
  })
  .strict();

/** The agent form (seed 000 section 3): create body of POST /api/agent/generate. */
export const agentFormSchema = z
  .object({
    name: z
      .string({ error: AGENT_MESSAGES.nameRequired })
      .trim()
      .min(1, AGENT_MESSAGES.nameRequired)
      .max(100, AGENT_MESSAGES.nameTooLong),
    description: z.string().trim().max(1000, AGENT_MESSAGES.description).optional(),
    properties: agentPropertiesSchema.default({}),
    kubernetes: kubernetesSchema.default({ enabled: false, interval: DEFAULT_AGENT_SCRAPE_INTERVAL }),
    pushTelemetry: pushTelemetrySchema.default({ enabled: false }),
  })
  .strict();
export type AgentFormInput = z.input<typeof agentFormSchema>;
export type AgentForm = z.output<typeof agentFormSchema>;

/** What POST /api/agent/generate answers: the access token appears here and nowhere else. */
export interface GeneratedAgent {
  id: string;
  name: string;
  person_id: string;
  access_token: string;
}

/** A row of the agents_summary view (seed 000 section 3). */
export interface AgentSummary {
  id: string;
  name: string;
  description: string | null;
  properties: Record<string, string>;
  spec: {
    kubernetes?: { enabled?: boolean; interval?: string };
    pushTelemetry?: { enabled?: boolean; topologyName?: string };
  };
  last_seen: string | null;
  last_received: string | null;
  created_at: string;
  updated_at: string;
  created_by: { id: string; name: string; avatar: string | null } | null;
  deleted_at: string | null;
  config_count: number;
  checks_count: number;
  config_scrapper_count: number;
  playbook_runs_count: number;
  /** rows the agent parked (refused here for good) and reported, not yet retried or discarded */
  parked_count: number;
}

/** Online when last_seen is within 61 seconds of now (seed 000 section 4). */
export function agentOnline(lastSeen: string | null | undefined, now = Date.now()): boolean {
  if (!lastSeen) return false;
  const t = Date.parse(lastSeen);
  return Number.isFinite(t) && now - t <= AGENT_ONLINE_THRESHOLD_SECONDS * 1000;
}

/** Upstream API limits: a push larger than these is refused (413/400), never truncated. */
export const AGENT_PUSH_MAX_ROWS = 20_000;
export const AGENT_PUSH_MAX_BYTES = 32 * 1024 * 1024;

/** A value safe inside single quotes of a POSIX shell command. */
const shellQuote = (s: string) => `'${s.replaceAll("'", `'"'"'`)}'`;

/**
 * The command-line variant of the installation instructions, run from a checkout of this
 * repository: agent mode against this console. The server's agent-mode test runs this very text.
 */
export function agentCommandLine({ upstream, token }: { upstream: string; token: string }): string {
  return `node packages/server/bin/watchdeck.mjs agent --upstream ${shellQuote(upstream)} --token ${shellQuote(token)}`;
}

/**
 * Parked pushes: rows an upstream refused for good are parked on the agent (agent mode), which
 * serves no UI. The agent reports them (POST /api/agent/parked) and the upstream keeps a copy per
 * agent, so the agent's page shows them; an editor's retry or discard goes back to the agent as a
 * request in the answer to its next report, and the agent reports the outcome.
 */
export const AGENT_PARKED_ACTIONS = ['retry', 'discard'] as const;
export type AgentParkedAction = (typeof AGENT_PARKED_ACTIONS)[number];
/** Rows per report, and the largest row copy a report carries (the agent trims bigger ones). */
export const AGENT_PARKED_REPORT_MAX = 200;
export const AGENT_PARKED_ROW_MAX_BYTES = 16 * 1024;
/** Parked rows one retry/discard request may name. */
export const AGENT_PARKED_REQUEST_MAX = 200;
export const AGENT_PARKED_PAGE_SIZES = [25, 50, 100] as const;

const dateTime = (name: string) =>
  z.string().refine((s) => !Number.isNaN(Date.parse(s)), `${name} must be a date and time`);

export const agentParkedRowSchema = z.strictObject({
  id: uuidField('id'),
  table: z.string().min(1).max(64),
  key: z.string().min(1).max(1000),
  row: z
    .record(z.string(), z.unknown())
    .refine(
      (r) => JSON.stringify(r).length <= AGENT_PARKED_ROW_MAX_BYTES,
      `row must be at most ${AGENT_PARKED_ROW_MAX_BYTES} bytes of JSON: trim it`,
    ),
  error: z.string().max(4000),
  parked_at: dateTime('parked_at'),
  attempts: z.number().int().min(1).max(1_000_000),
  last_attempt_at: dateTime('last_attempt_at').nullish(),
  /** the upstream's requested_at of the last request the agent carried out, echoed back */
  handled_request_at: dateTime('handled_request_at').nullish(),
});
export type AgentParkedRowReport = z.infer<typeof agentParkedRowSchema>;

/** The agent's report of its parked rows: new or changed ones, and ones no longer parked. */
export const agentParkedReportSchema = z.strictObject({
  parked: z
    .array(agentParkedRowSchema)
    .max(AGENT_PARKED_REPORT_MAX, `a report carries at most ${AGENT_PARKED_REPORT_MAX} parked rows`)
    .default([]),
  resolved: z
    .array(
      z.strictObject({
        id: uuidField('id'),
        resolution: z.enum(['stored', 'discarded'], { error: 'resolution must be stored or discarded' }),
      }),
    )
    .max(AGENT_PARKED_REPORT_MAX, `a report carries at most ${AGENT_PARKED_REPORT_MAX} resolved rows`)
    .default([]),
});

/** What the upstream answers a report: the operators' requests waiting for this agent. */
export interface AgentParkedRequest {
  id: string;
  action: AgentParkedAction;
  requested_at: string;
}

/** An editor's request: retry or discard some parked rows of one agent. */
export const agentParkedRequestSchema = z.strictObject({
  action: z.enum(AGENT_PARKED_ACTIONS, { error: 'action must be retry or discard' }),
  ids: z
    .array(uuidField('ids'), { error: 'ids must be a list of parked row ids' })
    .min(1, 'ids must name at least one parked row')
    .max(AGENT_PARKED_REQUEST_MAX, `ids may name at most ${AGENT_PARKED_REQUEST_MAX} parked rows`),
});

/** A parked row as the agent's page lists it (GET /api/agent/:id/parked). */
export interface AgentParkedRow {
  id: string;
  table: string;
  key: string;
  row: Record<string, unknown>;
  error: string;
  parked_at: string;
  attempts: number;
  last_attempt_at: string | null;
  reported_at: string;
  request: AgentParkedAction | null;
  requested_at: string | null;
  requested_by: { id: string; name: string } | null;
}
