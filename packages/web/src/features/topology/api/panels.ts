/**
 * The sidebar's reads (seed 002 section 7.2 "Reads through the db client"): what is linked to a
 * component, through the /api/db views of server/src/topology/sql and the incidents area. Each list
 * is bounded; the panel shows its first items and 'show more' reveals the rest of what was read.
 */
import { useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';

/** The most rows a panel reads; the count header tells how many there are in all. */
const PANEL_LIMIT = 100;

export interface LinkedConfig {
  id: string;
  name: string;
  type: string | null;
  status: string | null;
  health: string | null;
  selector_id: string;
}

export interface ComponentIncident {
  id: string;
  incident_id: string | null;
  title: string;
  type: string;
  status: string;
  severity: string;
  created_at: string;
}

export interface ComponentChange {
  id: string;
  config_id: string;
  change_type: string;
  summary: string | null;
  severity: string | null;
  created_at: string;
  name: string;
  type: string | null;
}

export interface ComponentCheck {
  id: string;
  name: string;
  type: string | null;
  icon: string | null;
  status: string | null;
  canary_name: string | null;
}

export interface ComponentRun {
  id: string;
  status: string;
  created_at: string;
  playbooks: { id: string; name: string; title: string | null } | null;
}

export interface ComponentTeam {
  team_id: string;
  role: string | null;
  teams: { id: string; name: string; icon: string | null } | null;
}

export interface ComponentInsight {
  id: string;
  config_id: string;
  analyzer: string;
  analysis_type: string;
  severity: string;
  status: string | null;
  message: string | null;
  config_name: string;
}

interface PanelData<T> {
  rows: T[];
  total: number;
}

interface DbAnswer {
  data: unknown[] | null;
  error: { message: string } | null;
  status?: number;
  count?: number | null;
}

function usePanel<T>(key: unknown[], enabled: boolean, run: (signal: AbortSignal) => PromiseLike<DbAnswer>) {
  return useQuery({
    queryKey: ['topology', 'panel', ...key],
    enabled,
    queryFn: async ({ signal }) => unwrapWithCount(await run(signal)) as PanelData<T>,
  });
}

export const useComponentConfigs = (id: string) =>
  usePanel<LinkedConfig>(['configs', id], true, (signal) =>
    db
      .from('configs_by_component')
      .select('id,name,type,status,health,selector_id', { count: 'exact' })
      .eq('component_id', id)
      .is('deleted_at', null)
      .order('name')
      .limit(PANEL_LIMIT)
      .abortSignal(signal),
  );

/** Incidents with evidence on the component; `status` and `type` 'all' are no filter. */
export const useComponentIncidents = (id: string, status: string, type: string, enabled: boolean) =>
  usePanel<ComponentIncident>(['incidents', id, status, type], enabled, (signal) => {
    let q = db
      .from('incidents_by_component')
      .select('id,incident_id,title,type,status,severity,created_at', { count: 'exact' })
      .eq('component_id', id);
    if (status !== 'all') q = q.eq('status', status);
    if (type !== 'all') q = q.eq('type', type);
    return q.order('created_at', { ascending: false }).limit(PANEL_LIMIT).abortSignal(signal);
  });

export const useComponentChanges = (id: string) =>
  usePanel<ComponentChange>(['changes', id], true, (signal) =>
    db
      .from('config_changes_by_component')
      .select('id,config_id,change_type,summary,severity,created_at,name,type', { count: 'exact' })
      .eq('component_id', id)
      .order('created_at', { ascending: false })
      .limit(PANEL_LIMIT)
      .abortSignal(signal),
  );

export const useComponentChecks = (id: string) =>
  usePanel<ComponentCheck>(['checks', id], true, (signal) =>
    db
      .from('checks_by_component')
      .select('id,name,type,icon,status,canary_name', { count: 'exact' })
      .eq('component_id', id)
      .is('deleted_at', null)
      .order('name')
      .limit(PANEL_LIMIT)
      .abortSignal(signal),
  );

export const useComponentRuns = (id: string) =>
  usePanel<ComponentRun>(['runs', id], true, (signal) =>
    db
      .from('playbook_runs')
      .select('id,status,created_at,playbooks(id,name,title)', { count: 'exact' })
      .eq('component_id', id)
      .order('created_at', { ascending: false })
      .limit(PANEL_LIMIT)
      .abortSignal(signal),
  );

export const useComponentTeams = (id: string) =>
  usePanel<ComponentTeam>(['teams', id], true, (signal) =>
    db
      .from('team_components')
      .select('team_id,role,teams(id,name,icon)', { count: 'exact' })
      .eq('component_id', id)
      .limit(PANEL_LIMIT)
      .abortSignal(signal),
  );

export const useComponentInsights = (id: string) =>
  usePanel<ComponentInsight>(['insights', id], true, (signal) =>
    db
      .from('config_analysis_by_component')
      .select('id,config_id,analyzer,analysis_type,severity,status,message,config_name', { count: 'exact' })
      .eq('component_id', id)
      .order('last_observed', { ascending: false })
      .limit(PANEL_LIMIT)
      .abortSignal(signal),
  );
