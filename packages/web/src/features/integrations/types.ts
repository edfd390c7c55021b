import type { ReactNode } from 'react';

/**
 * Integration kinds (seed 002 section 2.9): the detail URL's {type} and the table it edits.
 * The list view (integrations_with_status) names config scrapers 'scrapers'.
 */
export const INTEGRATION_TABLES = {
  scrapers: 'config_scrapers',
  topologies: 'topologies',
  logging_backends: 'logging_backends',
} as const;

export type IntegrationType = keyof typeof INTEGRATION_TABLES;
export type IntegrationTable = (typeof INTEGRATION_TABLES)[IntegrationType];

export const INTEGRATION_TYPE_LABELS: Record<IntegrationType, string> = {
  scrapers: 'Catalog Scraper',
  topologies: 'Topology',
  logging_backends: 'Log Backend',
};

export function isIntegrationType(v: string | undefined): v is IntegrationType {
  return !!v && Object.prototype.hasOwnProperty.call(INTEGRATION_TABLES, v);
}

/** A stored integration resource, as the spec form edits it. */
export type IntegrationResource = { id: string; name: string | null; created_at: string; [column: string]: unknown };

/**
 * The spec form of a resource of a table (the generic settings form, which another feature owns;
 * app/ passes it in). onSaved/onDeleted fire after a successful write.
 */
export type RenderIntegrationForm = (props: {
  table: IntegrationTable;
  row: IntegrationResource | null;
  onSaved: () => void;
  onDeleted: () => void;
}) => ReactNode;

/** The Job History tab of a resource (owned elsewhere too; app/ passes it in). */
export type RenderJobHistory = (resourceId: string) => ReactNode;
