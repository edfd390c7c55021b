import type { Queryable } from '#server/db/index.ts';

/**
 * What runs after each scrape or push, in its transaction, with the items it saw: the analyzers
 * (insights) register here. A hook that throws fails the run and rolls its writes back; the
 * problems it returns (a relationship rule that does not evaluate, ...) become the run's warnings.
 */
export type AfterScrape = (tx: Queryable, run: { scraperId: string; configIds: string[] }) => Promise<string[] | void>;

export const AFTER_SCRAPE: AfterScrape[] = [];

/** Adds a post-scrape hook (once per process; hooks run in the order they were added). */
export function afterScrape(hook: AfterScrape): void {
  if (!AFTER_SCRAPE.includes(hook)) AFTER_SCRAPE.push(hook);
}
