import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { CheckSummary } from './types.ts';

/** A playbook as the Playbooks dropdown needs it. */
export interface PlaybookOption {
  id: string;
  name: string;
  title: string;
  icon: string | null;
  category: string | null;
  spec: { checks?: CheckSelector[]; parameters?: { name: string; default?: unknown }[] } | null;
}

/** A playbook's check selector (spec.checks[]): every given field must match; an empty one matches all. */
interface CheckSelector {
  types?: string[];
  names?: string[];
  name?: string;
  namespaces?: string[];
  labelSelector?: string;
}

function selectorMatches(
  sel: CheckSelector,
  check: Pick<CheckSummary, 'type' | 'name' | 'namespace' | 'labels'>,
): boolean {
  if (sel.types?.length && !sel.types.includes(check.type)) return false;
  if (sel.name && sel.name !== check.name) return false;
  if (sel.names?.length && !sel.names.includes(check.name)) return false;
  if (sel.namespaces?.length && !sel.namespaces.includes(check.namespace ?? '')) return false;
  if (sel.labelSelector) {
    for (const part of sel.labelSelector
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [k, v] = part.split('=').map((s) => s.trim());
      if (v === undefined ? !(k in check.labels) : check.labels[k] !== v) return false;
    }
  }
  return true;
}

/** Playbooks whose spec has a check selector matching this check. */
export function usePlaybooksForCheck(check: CheckSummary | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['health', 'playbooks'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('playbooks')
          .select('id,name,title,icon,category,spec')
          .is('deleted_at', null)
          .not('spec->checks', 'is', null)
          .order('title')
          .limit(200)
          .abortSignal(signal),
      ) as PlaybookOption[],
    enabled: enabled && !!check,
    select: (list: PlaybookOption[]) =>
      check ? list.filter((p) => (p.spec?.checks ?? []).some((sel) => selectorMatches(sel, check))) : [],
  });
}
