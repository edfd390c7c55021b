/** How an evidence reads: its resource's name, else its description, else its type. */
import type { EvidenceType } from '@watchdeck/core';
import type { Evidence, Hypothesis } from '../api/types.ts';

export const EVIDENCE_TYPE_LABELS: Record<EvidenceType, string> = {
  log: 'Log',
  topology: 'Component',
  config: 'Config',
  check: 'Health check',
  config_change: 'Config change',
  config_analysis: 'Insight',
  comment: 'Comment',
};

export function evidenceTitle(e: Evidence): string {
  switch (e.type) {
    case 'check':
      return e.check?.name ?? e.description ?? 'Deleted check';
    case 'topology':
      return e.component?.name ?? e.description ?? 'Deleted component';
    case 'config':
      return e.config?.name ?? e.description ?? 'Deleted config';
    case 'config_change':
      return e.config_change
        ? `${e.config_change.change_type}${e.config_change.summary ? `: ${e.config_change.summary}` : ''}`
        : (e.description ?? 'Deleted change');
    case 'config_analysis':
      return e.config_analysis
        ? `${e.config_analysis.analyzer}${e.config_analysis.message ? `: ${e.config_analysis.message}` : ''}`
        : (e.description ?? 'Deleted insight');
    case 'comment':
      return String(e.evidence?.comment ?? e.description ?? '');
    case 'log':
      return e.description ?? String(e.evidence?.configName ?? 'Log lines');
    default:
      return e.description ?? e.type;
  }
}

/**
 * The page of an evidence's resource, if it has one. The link is shown only while that screen
 * exists in this build (components/ui/route-link.tsx); otherwise the name reads as text.
 */
export function evidenceHref(e: Evidence): string | undefined {
  if (e.type === 'check' && e.check_id) return `/health?checkId=${e.check_id}`;
  if (e.type === 'topology' && e.component_id) return `/topology/${e.component_id}`;
  if (e.type === 'config' && e.config_id) return `/catalog/${e.config_id}`;
  // a change or an insight opens its config's tab with its detail dialog open
  if (e.type === 'config_change' && e.config_change?.config_id && e.config_change_id)
    return `/catalog/${e.config_change.config_id}/changes?changeId=${e.config_change_id}`;
  if (e.type === 'config_analysis' && e.config_analysis?.config_id && e.config_analysis_id)
    return `/catalog/${e.config_analysis.config_id}/insights?insightId=${e.config_analysis_id}`;
  return undefined;
}

/** The resource's own health, where it has one. */
export function evidenceHealth(e: Evidence): string | null {
  if (e.type === 'check') return e.check?.status ?? null;
  if (e.type === 'topology') return e.component?.status ?? null;
  if (e.type === 'config') return e.config?.health ?? null;
  if (e.type === 'config_analysis') return e.config_analysis?.status ?? null;
  return null;
}

export function allEvidences(hypotheses: readonly Hypothesis[]): Evidence[] {
  return hypotheses.flatMap((h) => h.evidences ?? []);
}

/** The first root hypothesis (where comments and manual definitions of done go by default). */
export function rootHypothesis(hypotheses: readonly Hypothesis[]): Hypothesis | undefined {
  return (
    hypotheses.find((h) => h.type === 'root' && !h.parent_id) ?? hypotheses.find((h) => !h.parent_id) ?? hypotheses[0]
  );
}
