import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import { resourceJobSource, runJob, type JobSource, type ScheduledResource } from '#server/jobs/index.ts';
import type { WriteRegistration } from '#server/pgrest/index.ts';
import { scheduledKind } from '#server/settings/index.ts';
import { ScraperEngine } from './engine.ts';
import { catalogGraphRoutes } from './graph-routes.ts';
import { analyzeAll } from './analyzers/index.ts';
import { afterScrape } from './hooks.ts';

export { afterScrape };
import { applyAllRetention } from './retention.ts';
import { catalogRoutes } from './routes.ts';
import { validateScraperWrite } from './validate.ts';

export { ScraperEngine } from './engine.ts';
/** a read-only SQL query through a postgres or mysql connection (topology lookups) */
export { sqlDriver, sqlRows } from './scrape/kinds/sql.ts';

/**
 * The catalog area (issue 16, part A: the scraper engine). config_scrapers run on their schedules
 * through the scheduler (claimed once across replicas, ConfigScraper in job history) and on Run
 * now; kinds read their sources (scrape/kinds/), ingest.ts writes items, changes, deletions,
 * relationships and events in one transaction, then the analyzers and relationship rules
 * (analyzers/) and the hooks of hooks.ts. Housekeeping:
 * retention hourly (CatalogRetention).
 */
export interface CatalogDeps {
  db: Db;
  box?: SecretBox;
  /** WATCHDECK_DATA_DIR: git clones of file scrapers go under it */
  dataDir: string;
  /** directories file scrapers may read besides <dataDir>/catalog/files (WATCHDECK_SCRAPE_ROOTS) */
  fileRoots?: string[];
}

/** Writes of config_scrapers through /api/db: the engine's checks after the spec schema's. */
export const catalogWrites: readonly WriteRegistration[] = [{ table: 'config_scrapers', check: validateScraperWrite }];

/** The analyzers' own pass; every scrape also runs them on what it read. */
const ANALYSIS_SCHEDULE = '@every 15m';

function catalogJobSources(db: Db, engine: ScraperEngine): JobSource[] {
  const scrapers = resourceJobSource<ScheduledResource>(db, scheduledKind('config_scrapers'), (scraper, ctx) =>
    engine.run(scraper, ctx).then(() => undefined),
  );
  return [
    scrapers,
    {
      name: 'catalog-housekeeping',
      list: async () => [
        {
          // the analyzers between scrapes (analyzers/index.ts analyzeAll)
          key: 'catalog:analysis',
          schedule: ANALYSIS_SCHEDULE,
          run: async () => {
            await runJob(db, { name: 'CatalogAnalysis' }, async (ctx) => {
              const { errors, ...counts } = await analyzeAll(db);
              errors.slice(0, 50).forEach((e) => ctx.error(e));
              ctx.success(counts.opened + counts.refreshed + counts.resolved);
              ctx.details.analysis = counts;
            });
          },
        },
        {
          key: 'catalog:retention',
          schedule: '@every 1h',
          run: async () => {
            await runJob(db, { name: 'CatalogRetention' }, async (ctx) => {
              const out = await applyAllRetention(db);
              ctx.success(out.changes + out.deleted + out.removed);
              ctx.details.summary = out;
            });
          },
        },
      ],
    },
  ];
}

/** Routes and scheduler sources; the engines start with the others (main.ts). */
export function registerCatalog(app: FastifyInstance, deps: CatalogDeps): ScraperEngine {
  const engine = new ScraperEngine(deps.db, {
    dataDir: deps.dataDir,
    fileRoots: deps.fileRoots,
    box: deps.box,
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
  });
  catalogRoutes(app, { db: deps.db, engine });
  // the summary, changes list, manual links and the relationship graph's queries
  catalogGraphRoutes(app, { db: deps.db });
  for (const source of catalogJobSources(deps.db, engine)) app.engines.scheduler.addSource(source);
  return engine;
}
