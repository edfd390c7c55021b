import { apiPost } from '#web/lib/http.ts';

/**
 * Run now: asks the scraper engine to run one scraper at once (seed 002 section 2.1, issue 16).
 * The run lands in the scraper's Job History like a scheduled one.
 */
export const runScraper = (id: string) => apiPost<unknown>(`/api/catalog/scrapers/${encodeURIComponent(id)}/run`, {});
