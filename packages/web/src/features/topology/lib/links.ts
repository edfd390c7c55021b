/**
 * The links out of the topology (seed 002 section 2.7). Drilling down keeps the dashboard's query
 * parameters and adds refererId, the component the person came from.
 */
export function drillDownPath(id: string, search: URLSearchParams, fromId?: string): string {
  const q = new URLSearchParams(search);
  if (fromId) q.set('refererId', fromId);
  else q.delete('refererId');
  const s = q.toString();
  return `/topology/${id}${s ? `?${s}` : ''}`;
}

export const healthPath = (status: string) => `/health?status=${encodeURIComponent(status)}`;
export const checkPath = (checkId: string) => `/health?checkId=${encodeURIComponent(checkId)}`;
export const logsPath = (id: string) => `/logs?topologyId=${encodeURIComponent(id)}`;
export const teamPath = (teamId: string) => `/settings/teams/${teamId}`;
export const topologySettingsPath = (topologyId: string) => `/settings/topologies/${topologyId}`;
export const incidentPath = (id: string) => `/incidents/${id}`;
export const runPath = (id: string) => `/playbooks/runs/${id}`;
export const configPath = (id: string) => `/catalog/${id}`;

export const insightsPath = (componentId: string, type: string, severity: string) =>
  `/catalog/insights?${new URLSearchParams({ component: componentId, type, severity })}`;

export const incidentsPath = (componentId: string, type: string, severity: string) =>
  `/incidents?${new URLSearchParams({ type, component: componentId, severity })}`;
