import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** Resources evidence can point at, found by name (seed 000: resource search debounced 300 ms). */
export type EvidenceResourceType = 'check' | 'topology' | 'config' | 'config_change' | 'config_analysis';

export interface ResourceHit {
  id: string;
  name: string;
  detail: string | null;
  health: string | null;
}

const like = (q: string) => `*${q.replace(/[*,()"\\]/g, ' ').trim()}*`;

export function useResourceSearch(type: EvidenceResourceType | undefined, q: string) {
  return useQuery({
    queryKey: ['incidents', 'resource-search', type, q],
    enabled: !!type,
    queryFn: async ({ signal }): Promise<ResourceHit[]> => {
      const pattern = like(q);
      switch (type) {
        case 'check': {
          const rows = unwrap(
            await db
              .from('checks')
              .select('id,name,type,status,namespace')
              .is('deleted_at', null)
              .ilike('name', pattern)
              .order('name')
              .limit(20)
              .abortSignal(signal),
          ) as { id: string; name: string; type: string; status: string | null; namespace: string }[];
          return rows.map((r) => ({ id: r.id, name: r.name, detail: `${r.type} · ${r.namespace}`, health: r.status }));
        }
        case 'topology': {
          const rows = unwrap(
            await db
              .from('components')
              .select('id,name,type,status')
              .is('deleted_at', null)
              .ilike('name', pattern)
              .order('name')
              .limit(20)
              .abortSignal(signal),
          ) as { id: string; name: string; type: string | null; status: string }[];
          return rows.map((r) => ({ id: r.id, name: r.name, detail: r.type, health: r.status }));
        }
        case 'config': {
          const rows = unwrap(
            await db
              .from('config_items')
              .select('id,name,type,health')
              .is('deleted_at', null)
              .ilike('name', pattern)
              .order('name')
              .limit(20)
              .abortSignal(signal),
          ) as { id: string; name: string; type: string; health: string | null }[];
          return rows.map((r) => ({ id: r.id, name: r.name, detail: r.type, health: r.health }));
        }
        case 'config_change': {
          const rows = unwrap(
            await db
              .from('config_changes')
              .select('id,change_type,summary,created_at,config:config_id(name)')
              .or(`summary.ilike.${pattern},change_type.ilike.${pattern}`)
              .order('created_at', { ascending: false })
              .limit(20)
              .abortSignal(signal),
          ) as unknown as {
            id: string;
            change_type: string;
            summary: string | null;
            config: { name: string } | null;
          }[];
          return rows.map((r) => ({
            id: r.id,
            name: `${r.change_type}${r.summary ? `: ${r.summary}` : ''}`,
            detail: r.config?.name ?? null,
            health: null,
          }));
        }
        case 'config_analysis': {
          const rows = unwrap(
            await db
              .from('config_analysis')
              .select('id,analyzer,message,status,severity,config:config_id(name)')
              .or(`analyzer.ilike.${pattern},message.ilike.${pattern}`)
              .order('last_observed', { ascending: false })
              .limit(20)
              .abortSignal(signal),
          ) as unknown as {
            id: string;
            analyzer: string;
            message: string | null;
            status: string;
            severity: string;
            config: { name: string } | null;
          }[];
          return rows.map((r) => ({
            id: r.id,
            name: `${r.analyzer}${r.message ? `: ${r.message}` : ''}`,
            detail: `${r.severity} · ${r.config?.name ?? ''}`,
            health: r.status,
          }));
        }
        default:
          return [];
      }
    },
    placeholderData: (prev) => prev,
  });
}
