/**
 * What runs after each scrape, in the scrape's transaction (the engine's post-scrape hook):
 * the analyzers (config_analysis insights), the scraper's relationship rules, and the move of
 * the 30-day change counters' window.
 *
 * An insight is one row per (item, analyzer): opened (first_observed) when an analyzer first
 * finds it, kept open with last_observed, message and severity refreshed while it still finds
 * it, resolved when it no longer does (or the item is gone), and opened again if it comes back.
 */
import type { Db, Queryable } from '#server/db/index.ts';
import { applyRelationshipRules } from '../relationships/rules.ts';
import { ANALYZERS, type AnalyzedItem, type Finding } from './kubernetes.ts';

export interface AfterScrapeOutcome {
  opened: number;
  refreshed: number;
  resolved: number;
  linked: number;
  unlinked: number;
  errors: string[];
}

const ANALYZER_NAMES = ANALYZERS.map((a) => a.name);
const BATCH = 1000;

export async function afterScrape(
  tx: Queryable,
  { scraperId, configIds }: { scraperId: string; configIds: string[] },
): Promise<AfterScrapeOutcome> {
  const out: AfterScrapeOutcome = { opened: 0, refreshed: 0, resolved: 0, linked: 0, unlinked: 0, errors: [] };
  const now = new Date((await tx.query<{ now: Date }>(`SELECT now() AS now`)).rows[0].now);
  for (let i = 0; i < configIds.length; i += BATCH) {
    const r = await analyze(tx, scraperId, configIds.slice(i, i + BATCH), now);
    out.opened += r.opened;
    out.refreshed += r.refreshed;
    out.resolved += r.resolved;
    out.errors.push(...r.errors);
  }
  const rules = await applyRelationshipRules(tx, scraperId, configIds);
  out.linked = rules.linked;
  out.unlinked = rules.unlinked;
  out.errors.push(...rules.errors);
  // at most hourly: keeps the part of the window the summary subtracts small
  await tx.query(
    `SELECT config_change_counts_advance() FROM config_change_window WHERE counted_from < now() - interval '30 days 1 hour'`,
  );
  return out;
}

export type AnalysisOutcome = Pick<AfterScrapeOutcome, 'opened' | 'refreshed' | 'resolved' | 'errors'>;

/**
 * The analyzers alone over every live item of every scraper (and the deleted ones with an open
 * insight, which it resolves), one transaction per scraper under the scrape's lock: the scheduled
 * pass between scrapes, so an item that stays unhealthy is found once the hour is over even when
 * its scraper runs rarely, and insights of items pushed (never re-scraped) stay current.
 */
export async function analyzeAll(db: Db): Promise<AnalysisOutcome> {
  const out: AnalysisOutcome = { opened: 0, refreshed: 0, resolved: 0, errors: [] };
  const { rows: scrapers } = await db.query<{ id: string }>(
    `SELECT id FROM config_scrapers s WHERE EXISTS (SELECT 1 FROM config_items ci WHERE ci.scraper_id = s.id)`,
  );
  for (const { id: scraperId } of scrapers) {
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('catalog.scrape:' || $1::text))`, [scraperId]);
      const now = new Date((await tx.query<{ now: Date }>(`SELECT now() AS now`)).rows[0].now);
      const { rows } = await tx.query<{ id: string }>(
        `SELECT ci.id FROM config_items ci WHERE ci.scraper_id = $1
           AND (ci.deleted_at IS NULL OR EXISTS (SELECT 1 FROM config_analysis a WHERE a.config_id = ci.id AND a.status = 'open'))`,
        [scraperId],
      );
      const ids = rows.map((r) => r.id);
      for (let i = 0; i < ids.length; i += BATCH) {
        const r = await analyze(tx, scraperId, ids.slice(i, i + BATCH), now);
        out.opened += r.opened;
        out.refreshed += r.refreshed;
        out.resolved += r.resolved;
        out.errors.push(...r.errors);
      }
    });
  }
  return out;
}

async function analyze(tx: Queryable, scraperId: string, ids: string[], now: Date) {
  const errors: string[] = [];
  const items = (
    await tx.query<AnalyzedItem>(
      `SELECT id, type, config, health, health_changed_at, deleted_at FROM config_items WHERE id = ANY($1::uuid[])`,
      [ids],
    )
  ).rows;
  const findings: (Finding & { configId: string })[] = [];
  for (const item of items) {
    if (item.deleted_at) continue;
    for (const a of ANALYZERS) {
      try {
        const f = a.run(item, now);
        if (f) findings.push({ ...f, configId: item.id });
      } catch (err) {
        errors.push(`${a.name} on ${item.type} ${item.id}: ${(err as Error).message}`);
      }
    }
  }
  // refresh what is still found (open or reopened), insert what is new, resolve what is gone
  const cols = {
    config: findings.map((f) => f.configId),
    analyzer: findings.map((f) => f.analyzer),
    type: findings.map((f) => f.analysisType),
    severity: findings.map((f) => f.severity),
    summary: findings.map((f) => f.summary),
    message: findings.map((f) => f.message),
    analysis: findings.map((f) => JSON.stringify(f.analysis ?? {})),
  };
  const r = await tx.query<{ opened: number; refreshed: number; resolved: number }>(
    `WITH found AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])
         AS f(config_id, analyzer, analysis_type, severity, summary, message, analysis)
     ),
     latest AS (
       SELECT DISTINCT ON (ca.config_id, ca.analyzer) ca.id, ca.config_id, ca.analyzer, ca.status
       FROM config_analysis ca
       WHERE ca.config_id = ANY($8::uuid[]) AND ca.analyzer = ANY($9::text[])
       ORDER BY ca.config_id, ca.analyzer, ca.last_observed DESC
     ),
     refreshed AS (
       UPDATE config_analysis ca SET status = 'open', last_observed = now(), severity = f.severity,
         analysis_type = f.analysis_type, summary = f.summary, message = f.message, analysis = f.analysis,
         scraper_id = $10, first_observed = CASE WHEN ca.status = 'open' THEN ca.first_observed ELSE now() END
       FROM found f JOIN latest l ON l.config_id = f.config_id AND l.analyzer = f.analyzer
       WHERE ca.id = l.id
       RETURNING ca.id
     ),
     opened AS (
       INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status, summary, message,
                                    analysis, source, first_observed, last_observed)
       SELECT f.config_id, $10, f.analyzer, f.analysis_type, f.severity, 'open', f.summary, f.message, f.analysis,
         'watchdeck', now(), now()
       FROM found f
       WHERE NOT EXISTS (SELECT 1 FROM latest l WHERE l.config_id = f.config_id AND l.analyzer = f.analyzer)
       RETURNING id
     ),
     resolved AS (
       UPDATE config_analysis ca SET status = 'resolved'
       FROM latest l
       WHERE ca.id = l.id AND l.status = 'open'
         AND NOT EXISTS (SELECT 1 FROM found f WHERE f.config_id = l.config_id AND f.analyzer = l.analyzer)
       RETURNING ca.id
     )
     SELECT (SELECT count(*) FROM opened)::int AS opened, (SELECT count(*) FROM refreshed)::int AS refreshed,
            (SELECT count(*) FROM resolved)::int AS resolved`,
    [
      cols.config,
      cols.analyzer,
      cols.type,
      cols.severity,
      cols.summary,
      cols.message,
      cols.analysis,
      ids,
      ANALYZER_NAMES,
      scraperId,
    ],
  );
  return { ...r.rows[0], errors };
}
