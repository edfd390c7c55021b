/**
 * The topology listing (seed 002 sections 3 and 7.2): what `GET /api/topology` takes and answers.
 * The server validates the query with `topologyQuerySchema`; the dashboard builds the same query
 * from its URL and reads the answer through these types.
 */
import { z } from 'zod';
import { isUuid } from './ids.ts';

/** Any UUID as PostgreSQL takes it (demo ids need not be RFC 4122 versions). */
const uuid = (message: string) => z.string({ error: message }).refine(isUuid, message);

export const COMPONENT_STATUSES = ['healthy', 'unhealthy', 'warning', 'unknown', 'info'] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

/** Seed 002 section 4: the health sort ranks (higher sorts first when descending). */
export const TOPOLOGY_HEALTH_RANK: Record<ComponentStatus, number> = {
  info: 4,
  healthy: 3,
  warning: 2,
  unhealthy: 1,
  unknown: 0,
};

export const TOPOLOGY_SORT_FIELDS = ['status', 'name', 'type', 'updated_at'] as const;

/** A query value of 'All' (the filters' first choice) means no filter: it is dropped. */
const filterValue = z
  .string()
  .max(200)
  .optional()
  .transform((v) => (v === undefined || v === '' || v === 'All' ? undefined : v));

const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

export const topologyQuerySchema = z.object({
  /** a component id: its children (and the component itself) instead of the roots */
  id: uuid('id must be a component id').optional(),
  status: filterValue,
  type: filterValue,
  team: filterValue,
  /** comma-separated key=value pairs, all of which must match */
  labels: filterValue,
  /** status (health rank), name, type, updated_at, or a headline property's name */
  sortBy: z.string().max(200).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  /** every matching component at any depth, as one flat list */
  flatten: flag,
  /** include components marked hidden */
  hidden: flag,
  agent_id: uuid('agent_id must be an agent id').optional(),
  /**
   * at most this many components at the listed level (with their children): the dashboard's
   * first page, so the first cards of a large topology wait on a small answer, not on all of it
   */
  limit: z
    .string()
    .regex(/^\d{1,6}$/, 'limit must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1, 'limit must be at least 1')
    .optional(),
});
export type TopologyQuery = z.output<typeof topologyQuerySchema>;

export interface ComponentProperty {
  name: string;
  type?: 'url' | 'currency' | 'text' | 'hidden' | 'age' | 'number' | 'badge';
  text?: string;
  value?: number;
  max?: number;
  unit?: string;
  headline?: boolean;
  icon?: string;
  color?: string;
  links?: { label: string; url: string }[];
}

/** Counts by type, then severity (e.g. insights.security.high = 2). */
export type CountsByTypeAndSeverity = Record<string, Record<string, number>>;

export interface ComponentSummary {
  checks?: Partial<Record<'healthy' | 'unhealthy' | 'warning' | 'unknown', number>>;
  insights?: CountsByTypeAndSeverity;
  incidents?: CountsByTypeAndSeverity;
  /** children by status */
  healthy?: number;
  unhealthy?: number;
  warning?: number;
  unknown?: number;
}

export interface TopologyComponent {
  id: string;
  topology_id: string | null;
  parent_id: string | null;
  /** dot-separated ancestor ids, root first */
  path: string;
  agent_id: string;
  external_id: string | null;
  name: string;
  title: string | null;
  type: string | null;
  icon: string | null;
  description: string | null;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  logs: { name: string; type: string }[];
  status: ComponentStatus;
  status_reason: string | null;
  hidden: boolean;
  summary: ComponentSummary;
  teams: { id: string; name: string; icon: string | null }[];
  created_at: string;
  updated_at: string;
  /** direct children (not when flattened) */
  components?: TopologyComponent[];
}

export interface TopologyResponse {
  components: TopologyComponent[];
  teams: string[];
  types: string[];
  healthStatuses: ComponentStatus[];
}
