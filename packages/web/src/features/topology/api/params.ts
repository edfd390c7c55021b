/** The inputs of `GET /api/topology` (seed 002 section 7.2) the dashboard sends. */
export interface TopologyParams {
  id?: string;
  status?: string;
  type?: string;
  team?: string;
  labels?: string;
  agent_id?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  hidden?: boolean;
  /** the first page only: at most this many components at the listed level */
  limit?: number;
}

/** The query string: empty and 'All' values are left out; a chosen type lists flat. */
export function topologySearch(p: TopologyParams): string {
  const q = new URLSearchParams();
  const put = (k: string, v: string | undefined) => {
    if (v && v !== 'All') q.set(k, v);
  };
  put('id', p.id);
  put('status', p.status);
  put('type', p.type);
  put('team', p.team);
  put('labels', p.labels);
  put('agent_id', p.agent_id);
  put('sortBy', p.sortBy);
  put('sortOrder', p.sortOrder);
  if (p.type && p.type !== 'All') q.set('flatten', 'true');
  if (p.hidden) q.set('hidden', 'true');
  if (p.limit) q.set('limit', String(p.limit));
  return q.toString();
}
