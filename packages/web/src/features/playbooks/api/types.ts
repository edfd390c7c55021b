import type { PlaybookSummary } from '#web/components/playbook-run/index.ts';

/** A playbook row (seed 002 section 3). */
export interface Playbook extends PlaybookSummary {
  /** 'UI', or where it is kept ('GitOps': synced from files, read-only here) */
  source: string;
  /** the file a synced playbook came from */
  source_path?: string | null;
  created_at: string;
  updated_at: string;
}

/** A playbook kept elsewhere (synced from files, a CRD): changed there, never in the console. */
export const isSynced = (p: Pick<Playbook, 'source'>) => !!p.source && p.source !== 'UI';

/** Run statuses (seed 002 section 4), plus pending_approval: a run waiting for its approvers. */
export const RUN_STATUSES = [
  'pending',
  'pending_approval',
  'scheduled',
  'running',
  'waiting',
  'completed',
  'failed',
  'cancelled',
] as const;

/** A run no longer changes in these: polling stops (seed 002 section 4). */
export const RUN_FINAL = new Set(['completed', 'failed', 'cancelled']);
/** An action no longer changes in these. */
export const ACTION_FINAL = new Set(['completed', 'failed', 'cancelled', 'skipped']);

/** A row of playbook_runs_summary (the run list). */
export interface RunRow {
  id: string;
  playbook_id: string;
  status: string;
  playbook_name: string;
  playbook_title: string | null;
  playbook_icon: string | null;
  resource_name: string | null;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  trigger_source: string;
  error: string | null;
  scheduled_time: string;
  start_time: string | null;
  end_time: string | null;
  duration_millis: number | null;
  created_at: string;
}

interface Named {
  id: string;
  name: string;
  type?: string | null;
}

/** A run as its page shows it (seed 002 section 3 "Playbook run"). */
export interface Run {
  id: string;
  playbook_id: string;
  parent_id: string | null;
  status: string;
  parameters: Record<string, unknown>;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  trigger_source: string;
  error: string | null;
  scheduled_time: string;
  start_time: string | null;
  end_time: string | null;
  created_at: string;
  playbook: (PlaybookSummary & { source?: string }) | null;
  check: Named | null;
  config: Named | null;
  component: Named | null;
  creator: { id: string; name: string; email: string | null } | null;
}

/** A run action (seed 002 section 3 "Playbook run action"); result stays out of the list. */
export interface RunAction {
  id: string;
  name: string;
  status: string;
  start_time: string | null;
  end_time: string | null;
  scheduled_time: string;
  playbook_run_id: string;
  error: string | null;
}

export interface RunActionDetail extends RunAction {
  result: Record<string, unknown> | null;
}
