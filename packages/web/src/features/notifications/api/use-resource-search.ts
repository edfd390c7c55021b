import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { isUuid } from '#web/lib/ids.ts';
import { SILENCE_KINDS, type SilenceKind } from '../lib/constants.ts';

export interface ResourceOption {
  id: string;
  name: string;
  type?: string | null;
  namespace?: string | null;
}

const SELECT: Record<SilenceKind, string> = {
  config: 'id,name,type',
  component: 'id,name,type',
  check: 'id,name,type',
  canary: 'id,name,namespace',
};
const RESULT_LIMIT = 20;

/** A PostgREST filter value, quoted so commas, dots and parentheses in a search stay text. */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/**
 * The resources of one kind whose name matches the search (the silence form's resource picker),
 * at most 20, not deleted. Searching a pasted id finds that resource.
 */
export function useResourceSearch(kind: SilenceKind, search: string) {
  const table = SILENCE_KINDS.find((k) => k.kind === kind)!.table;
  return useQuery({
    queryKey: ['notifications', 'resource-search', kind, search],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      let q = db.from(table).select(SELECT[kind]).is('deleted_at', null);
      const text = search.trim();
      if (isUuid(text)) q = q.eq('id', text);
      else if (text) q = q.or(`name.ilike.${quoted(`*${text}*`)}`);
      return unwrap(
        await q.order('name', { ascending: true }).limit(RESULT_LIMIT).abortSignal(signal),
      ) as unknown as ResourceOption[];
    },
  });
}
