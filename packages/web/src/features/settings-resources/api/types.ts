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
