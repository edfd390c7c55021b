import { useQuery } from '@tanstack/react-query';
import { db } from '#web/lib/api.ts';

interface ComponentRow {
  id: string;
  name: string;
  type: string | null;
  status: string | null;
}

/** Top-level components (no parent), the starting point of the topology. */
export function useRootComponents() {
  return useQuery({
    queryKey: ['topology', 'root-components'],
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('components')
        .select('id,name,type,status')
        .is('parent_id', null)
        .is('deleted_at', null)
        .order('name')
        .limit(200)
        .abortSignal(signal);
      if (error) throw new Error(error.message);
      return data as ComponentRow[];
    },
  });
}
