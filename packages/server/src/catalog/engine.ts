/**
 * The scraper engine: a run of one config scraper reads every entry of its spec through the entry's
 * kind (scrape/kinds/), sets health from the entry's optional `health` CEL expression, and writes
 * everything in one transaction (ingest.ts) followed by the post-scrape hooks (hooks.ts). Runs come
 * from the scheduler (each slot claimed once across replicas, jobs/resource-source.ts) and from
 * Run now; each is one job-history row (ConfigScraper) whose details hold the scrape summary per
 * type. Pushed items (POST /api/catalog/push) take the same ingest without the deletion of unseen
 * items.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '#server/db/index.ts';
import { runJob } from '#server/jobs/index.ts';
import type { JobContext } from '#server/jobs/job-history.ts';
import { connectionByName, type SecretBox } from '#server/connections/index.ts';
import { evaluate, expressionOf } from '#server/cel/index.ts';
import { afterScrape as analyzeScrape, type AfterScrapeOutcome } from './analyzers/index.ts';
import { AFTER_SCRAPE } from './hooks.ts';
import { ingest, type IngestOutcome } from './ingest.ts';
import { SCRAPER_KINDS, SPEC_KINDS } from './scrape/kinds/index.ts';
import type { Health, ScrapeContext, ScrapeResult, ScrapedItem, ScraperKind } from './scrape/types.ts';

export interface ScraperRow {
  id: string;
  name: string;
  agent_id: string;
  spec: Record<string, unknown>;
}

export interface ScraperEngineOptions {
  /** WATCHDECK_DATA_DIR; git clones go under <dataDir>/catalog/git ('memory://': a temporary directory) */
  dataDir: string;
  /** directories file scrapers may read besides <dataDir>/catalog/files (WATCHDECK_SCRAPE_ROOTS) */
  fileRoots?: string[];
  box?: SecretBox;
  /** one entry's read is stopped after this long */
  timeoutMs?: number;
  kinds?: Record<string, ScraperKind>;
  log?: { info(msg: string): void; warn(msg: string): void };
}

const JOB_NAME = 'ConfigScraper';
const RESOURCE_TYPE = 'config_scraper';
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** error messages kept in one run's job history; the counts stay exact */
const MAX_ERRORS = 50;
const HEALTHS: readonly Health[] = ['healthy', 'unhealthy', 'warning', 'unknown'];

/** The health an entry's `health` expression gives an item: a health word, or true/false. */
function healthOf(expr: string, item: ScrapedItem): Health {
  const r = evaluate(expr, {
    config: item.config as never,
    name: item.name,
    type: item.type,
    labels: item.labels ?? {},
    tags: item.tags ?? {},
    status: item.status ?? '',
  });
  if (r === true) return 'healthy';
  if (r === false) return 'unhealthy';
  if (typeof r === 'string' && (HEALTHS as readonly string[]).includes(r.toLowerCase()))
    return r.toLowerCase() as Health;
  throw new Error(
    `health expression "${expr}" returned ${JSON.stringify(r)}, not one of ${HEALTHS.join(', ')} or a boolean`,
  );
}

export class ScraperEngine {
  readonly dataDir: string;
  private readonly kinds: Record<string, ScraperKind>;
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: ScraperEngineOptions,
  ) {
    this.dataDir =
      opts.dataDir === 'memory://' || !opts.dataDir ? mkdtempSync(join(tmpdir(), 'watchdeck-catalog-')) : opts.dataDir;
    this.kinds = opts.kinds ?? SCRAPER_KINDS;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  private context(scraperId: string, signal: AbortSignal): ScrapeContext {
    const log = this.opts.log ?? { info: () => undefined, warn: () => undefined };
    return {
      scraperId,
      dataDir: this.dataDir,
      fileRoots: [join(this.dataDir, 'catalog', 'files'), ...(this.opts.fileRoots ?? [])],
      signal,
      db: this.db,
      connection: async (ref) => ({ ...(await connectionByName(this.db, this.opts.box, ref)) }),
      log,
    };
  }

  /** Reads every entry of the spec; what failed is in errors, and `complete` says whether all read. */
  async read(scraper: ScraperRow): Promise<{ result: ScrapeResult; complete: boolean; failures: string[] }> {
    const result: ScrapeResult = { items: [], changes: [], relationships: [], errors: [] };
    const failures: string[] = [];
    let complete = true;
    const spec = scraper.spec ?? {};
    for (const name of SPEC_KINDS) {
      const entries = spec[name];
      if (!Array.isArray(entries) || name === 'custom') continue;
      const kind = this.kinds[name];
      if (!kind) {
        failures.push(`scraper kind ${name} is not supported yet`);
        complete = false;
        continue;
      }
      for (const [i, entry] of entries.entries()) {
        const controller = new AbortController();
        const timer = setTimeout(
          () => controller.abort(new Error(`${name}[${i}] stopped after ${this.timeoutMs / 1000}s`)),
          this.timeoutMs,
        );
        try {
          const timedOut = new Promise<never>((_, reject) =>
            controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
              once: true,
            }),
          );
          const got = await Promise.race([
            kind(entry as Record<string, unknown>, this.context(scraper.id, controller.signal)),
            timedOut,
          ]);
          const expr = expressionOf((entry as Record<string, unknown>).health, 'health');
          for (const item of got.items) {
            if (expr && item.health === undefined) {
              try {
                item.health = healthOf(expr, item);
              } catch (err) {
                got.errors.push({ type: item.type, message: `${item.type}/${item.name}: ${(err as Error).message}` });
              }
            }
          }
          result.items.push(...got.items);
          result.changes.push(...got.changes);
          result.relationships.push(...got.relationships);
          result.errors.push(...got.errors);
        } catch (err) {
          complete = false;
          failures.push(`${name}[${i}]: ${err instanceof Error ? err.message : String(err)}`);
        } finally {
          clearTimeout(timer);
        }
      }
    }
    return { result, complete, failures };
  }

  /** One run of a scraper (scheduled or Run now), counted in `job`. */
  async run(scraper: ScraperRow, job: JobContext): Promise<IngestOutcome | undefined> {
    const { result, complete, failures } = await this.read(scraper);
    failures.forEach((f) => job.error(f));
    // a run that read nothing at all writes nothing: an unreachable source must not delete the catalog
    const anyRead = complete || result.items.length > 0;
    if (!anyRead) return undefined;
    const outcome = await this.write(scraper.id, scraper.agent_id, result, { full: complete });
    outcome.warnings.slice(0, MAX_ERRORS).forEach((w) => job.warn(w));
    result.errors.slice(0, MAX_ERRORS).forEach((e) => job.error(e.message));
    if (result.errors.length > MAX_ERRORS) job.warn(`${result.errors.length - MAX_ERRORS} more errors not listed`);
    job.success(new Set(result.items.map((i) => `${i.type}\u0000${i.externalId}`)).size);
    job.details.scrape_summary = outcome.summary;
    // what the analyzers did after this scrape: the insights of the run are its own
    job.details.analysis = outcome.analysis;
    if (!complete) job.warn('some entries could not be read: items not seen were not deleted');
    return outcome;
  }

  /** The write of a run or a push: ingest and post-scrape hooks in one transaction. */
  async write(
    scraperId: string,
    agentId: string | undefined,
    result: ScrapeResult,
    opts: { full: boolean; pushed?: boolean },
  ): Promise<IngestOutcome & { warnings: string[]; analysis: Omit<AfterScrapeOutcome, 'errors'> }> {
    return this.db.transaction(async (tx) => {
      const outcome = await ingest(tx, result, { scraperId, agentId, ...opts });
      const run = { scraperId, configIds: outcome.configIds };
      // the analyzers and relationship rules belong to every scrape, whoever made the engine (the
      // demo's seed runs one before the app, and its hooks, exist), so they are not a hook
      const { errors, ...analysis } = await analyzeScrape(tx, run);
      const warnings = [...errors];
      for (const hook of AFTER_SCRAPE) warnings.push(...((await hook(tx, run)) ?? []));
      return { ...outcome, warnings, analysis };
    });
  }

  /** Run now: a run of one live scraper of this agent, recorded like a scheduled one. */
  async runNow(id: string): Promise<{ id: string; status: string; details?: unknown } | undefined> {
    const { rows } = await this.db.query<ScraperRow>(
      `SELECT id, name, agent_id, spec FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    const scraper = rows[0];
    if (!scraper) return undefined;
    const run = await runJob(
      this.db,
      { name: JOB_NAME, resourceType: RESOURCE_TYPE, resourceId: scraper.id, agentId: scraper.agent_id },
      (ctx) => this.run(scraper, ctx),
    );
    const { rows: hist } = await this.db.query<{ details: unknown; error_count: number; success_count: number }>(
      `SELECT details, error_count, success_count FROM job_history WHERE id = $1`,
      [run.id],
    );
    return { id: run.id, status: run.status, ...hist[0] };
  }
}
