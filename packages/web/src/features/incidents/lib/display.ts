/** How incident vocabularies read and look on screen. */
import type { IncidentSeverity, IncidentStatus, HypothesisStatus, HypothesisType } from '@watchdeck/core';

/** The labels are core's, shared with every screen that names these values (Link to Incident too). */
export {
  SEVERITY_LABELS,
  INCIDENT_STATUS_LABELS as STATUS_LABELS,
  INCIDENT_TYPE_LABELS as TYPE_LABELS,
} from '@watchdeck/core';

export const SEVERITY_CLASSES: Record<IncidentSeverity, string> = {
  critical: 'bg-red-100 text-red-800 ring-red-200',
  blocker: 'bg-red-50 text-red-700 ring-red-200',
  high: 'bg-orange-100 text-orange-800 ring-orange-200',
  medium: 'bg-amber-100 text-amber-800 ring-amber-200',
  low: 'bg-blue-50 text-blue-700 ring-blue-200',
  warning: 'bg-yellow-50 text-yellow-800 ring-yellow-200',
  info: 'bg-gray-100 text-gray-700 ring-gray-200',
};

/** The list's severity filter, as seed 001 section 9 lists it. */
export const SEVERITY_FILTER_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'critical', label: 'critical' },
  { value: 'high', label: 'high' },
  { value: 'medium', label: 'medium' },
  { value: 'low', label: 'low' },
  { value: 'info', label: 'Info' },
];

export const STATUS_CLASSES: Record<IncidentStatus, string> = {
  new: 'bg-gray-100 text-gray-700',
  open: 'bg-red-50 text-red-700',
  investigating: 'bg-amber-50 text-amber-800',
  mitigated: 'bg-blue-50 text-blue-700',
  resolved: 'bg-green-50 text-green-700',
  closed: 'bg-gray-100 text-gray-600',
};

export const HYPOTHESIS_TYPE_LABELS: Record<HypothesisType, string> = {
  root: 'Root cause',
  factor: 'Factor',
  solution: 'Solution',
};

/** What a hypothesis of each type holds below it. */
export const CHILD_TYPE: Partial<Record<HypothesisType, HypothesisType>> = { root: 'factor', factor: 'solution' };

export const HYPOTHESIS_STATUS_LABELS: Record<HypothesisStatus, string> = {
  proven: 'Proven',
  likely: 'Likely',
  possible: 'Possible',
  unlikely: 'Unlikely',
  improbable: 'Improbable',
  disproven: 'Disproven',
};

export const HYPOTHESIS_STATUS_CLASSES: Record<HypothesisStatus, string> = {
  proven: 'text-green-700',
  likely: 'text-emerald-700',
  possible: 'text-blue-700',
  unlikely: 'text-amber-700',
  improbable: 'text-orange-700',
  disproven: 'text-gray-500 line-through',
};

/** A hypothesis without a title reads '(no title)' (seed 001 section 8). */
export const NO_TITLE = '(no title)';
