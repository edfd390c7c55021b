import type { z } from 'zod';
import { canarySpec } from './schemas/canary.ts';
import { scraperSpec } from './schemas/scraper.ts';
import { incidentRuleSpec, loggingBackendSpec, teamSpec, topologySpec } from './schemas/others.ts';

/**
 * The generic settings resources (seed 002 sections 2.8 and 3) whose `spec` column holds a
 * document validated against a schema per kind. The schema is served to the editor as
 * GET /api/schemas/<kind>.schema.json and enforced on every write through /api/db.
 */
export interface SettingsKind {
  /** schema name: /api/schemas/<kind>.schema.json */
  kind: string;
  table: string;
  title: string;
  spec: z.ZodType;
  /** rows run on a schedule (canaries, scrapers, topologies): writes reload the scheduler */
  scheduled?: { jobName: string; resourceType: string };
}

export const SETTINGS_KINDS: readonly SettingsKind[] = [
  {
    kind: 'canary',
    table: 'canaries',
    title: 'Health Check',
    spec: canarySpec,
    scheduled: { jobName: 'CanaryRun', resourceType: 'canary' },
  },
  {
    kind: 'scraper',
    table: 'config_scrapers',
    title: 'Catalog Scraper',
    spec: scraperSpec,
    scheduled: { jobName: 'ConfigScraper', resourceType: 'config_scraper' },
  },
  {
    kind: 'topology',
    table: 'topologies',
    title: 'Topology',
    spec: topologySpec,
    scheduled: { jobName: 'TopologyRun', resourceType: 'topology' },
  },
  { kind: 'team', table: 'teams', title: 'Team', spec: teamSpec },
  { kind: 'incident_rule', table: 'incident_rules', title: 'Incident Rule', spec: incidentRuleSpec },
  { kind: 'logging_backend', table: 'logging_backends', title: 'Log Backend', spec: loggingBackendSpec },
];

export const kindByTable = new Map(SETTINGS_KINDS.map((k) => [k.table, k]));

/** The scheduled kind of a table, as the scheduler's resource source takes it (jobs/resource-source.ts). */
export function scheduledKind(table: 'canaries' | 'config_scrapers' | 'topologies'): {
  table: string;
  jobName: string;
  resourceType: string;
} {
  const scheduled = kindByTable.get(table)?.scheduled;
  if (!scheduled) throw new Error(`${table} is not a scheduled settings table`);
  return { table, ...scheduled };
}
