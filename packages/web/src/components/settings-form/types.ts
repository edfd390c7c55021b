/**
 * What the settings resource form is told about a resource kind (features/settings-resources
 * lists them: canaries, topologies, scrapers, teams, ...) and the rows it edits.
 */
export type SettingsFormField = 'icon' | 'namespace' | 'labels' | 'schedule' | 'spec';
export type DetailTab = 'spec' | 'manageTeam' | 'jobHistory';

export interface SettingsResourceConfig {
  table: string;
  /** singular, as in 'Add {resource name}' */
  name: string;
  /** plural, the breadcrumb */
  title: string;
  /** where the list and detail live */
  basePath: string;
  /** the breadcrumb's first step: Settings (not linked) unless the kind lives elsewhere (scrapers: Catalog) */
  section?: { label: string; to: string };
  /** RBAC resource: read for the route, write for add / Save / Update / Delete */
  resource: string;
  features: readonly string[];
  /** seed 000 section 7: incident_rules use the plain table, the others their _with_status view */
  listFrom: string;
  hiddenColumns: readonly string[];
  /** spec schema at /api/schemas/<kind>.schema.json; no kind = a generic (Code tab) resource */
  schemaKind?: string;
  /** Form tab fields besides Name (and the read-only Source) */
  fields: readonly SettingsFormField[];
  /** generic resources: the columns the Code tab edits */
  codeFields?: readonly string[];
  /** of those, the ones a save needs (seed 002 section 5: a notification rule needs events) */
  requiredCodeFields?: readonly string[];
  /** the submit button of a new resource (default Save); an existing one's is Update */
  addLabel?: string;
  /** the submit button is disabled while the form is invalid (log backends, topologies) */
  disableSubmitWhileInvalid?: boolean;
  tabs: readonly DetailTab[];
}

/** Schedule choices of the settings select (seed 002 section 9). */
export const SCHEDULE_OPTIONS = [
  '@every 30s',
  '@every 1m',
  '@every 5m',
  '@every 30m',
  '@hourly',
  '@every 6h',
  '@daily',
  '@weekly',
] as const;

/** A row of a settings list (seed 002 section 3 "Settings resource row"). */
export interface SettingsRow {
  id: string;
  name: string | null;
  title?: string | null;
  namespace?: string | null;
  icon?: string | null;
  schedule?: string | null;
  spec?: Record<string, unknown> | null;
  source?: string | null;
  agent?: { id: string; name: string } | null;
  job_status?: string | null;
  job_details?: Record<string, unknown> | null;
  job_name?: string | null;
  last_runtime?: string | null;
  job_last_failed?: string | null;
  labels?: Record<string, string> | null;
  created_at: string;
  updated_at?: string | null;
  created_by?: { id: string; name: string; avatar?: string | null } | null;
  [column: string]: unknown;
}

/** How a row is named in toasts and titles: name, else title (notification rules), else id. */
export const rowName = (r: Pick<SettingsRow, 'name' | 'title' | 'id'>) => r.name || r.title || r.id;
