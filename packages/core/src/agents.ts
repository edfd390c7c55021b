/**
 * Agents (seed 000 sections 3, 4, 5, 9): the create form the web app sends to POST
 * /api/agent/generate, validated by the same schema on the server, and the upstream API's limits.
 */
import { z } from 'zod';
import { AGENT_ONLINE_THRESHOLD_SECONDS } from './constants.ts';

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
