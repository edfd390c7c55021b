/**
 * What a job run's details hold (seed 002 section 3): `errors` as a string, a list, or a map keyed
 * by name whose values are strings or nested errors; `scrape_summary`; `summary` (reconcile).
 */
export interface JobDetails {
  errors?: unknown;
  scrape_summary?: unknown;
  summary?: unknown;
  [key: string]: unknown;
}

export type JobDetailsTab = 'errors' | 'scrape_summary' | 'summary';

export const JOB_DETAILS_TABS: readonly { id: JobDetailsTab; label: string }[] = [
  { id: 'errors', label: 'Errors' },
  { id: 'scrape_summary', label: 'Scrape Summary' },
  { id: 'summary', label: 'Reconcile Summary' },
];

export const NO_DETAILS_MESSAGE = 'No details found';

export interface JobError {
  /** The name the error is keyed by, when it came in a map. */
  name?: string;
  message: string;
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** A nested error value as text: a string, {error}/{message}, or its JSON. */
function errorText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.error === 'string') return o.error;
    if (typeof o.message === 'string') return o.message;
    if (o.error && typeof o.error === 'object') return errorText(o.error);
  }
  return JSON.stringify(v);
}

/** Every error of a run, flattened: one entry per string, list item or map key. */
export function jobErrors(details: JobDetails | null | undefined): JobError[] {
  const e = details?.errors;
  if (isEmpty(e)) return [];
  if (typeof e === 'string') return [{ message: e }];
  if (Array.isArray(e)) return e.filter((x) => !isEmpty(x)).map((x) => ({ message: errorText(x) }));
  if (typeof e === 'object') {
    return Object.entries(e as Record<string, unknown>)
      .filter(([, v]) => !isEmpty(v))
      .map(([name, v]) => ({ name: name || undefined, message: errorText(v) }));
  }
  return [{ message: String(e) }];
}

/** The tabs that have something to show, in the seed's order. */
export function availableTabs(details: JobDetails | null | undefined): JobDetailsTab[] {
  if (!details) return [];
  const out: JobDetailsTab[] = [];
  if (jobErrors(details).length) out.push('errors');
  if (!isEmpty(details.scrape_summary)) out.push('scrape_summary');
  if (!isEmpty(details.summary)) out.push('summary');
  return out;
}

/**
 * The modal opens on Errors if present, else Scrape Summary, else Reconcile Summary; it is not
 * shown (undefined) when all three are empty.
 */
export function initialTab(details: JobDetails | null | undefined): JobDetailsTab | undefined {
  return availableTabs(details)[0];
}
