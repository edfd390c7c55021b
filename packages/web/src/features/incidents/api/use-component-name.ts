import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { STALE } from './lookup-stale.ts';

export function useComponentName(id: string | undefined) {
  return useQuery({
    queryKey: ['incidents', 'component', id],
    queryFn: async ({ signal }) =>
      (
        unwrap(await db.from('components').select('id,name,icon').eq('id', id!).limit(1).abortSignal(signal)) as {
          id: string;
          name: string;
          icon: string | null;
        }[]
      )[0] ?? null,
    enabled: !!id,
    staleTime: STALE,
  });
}
