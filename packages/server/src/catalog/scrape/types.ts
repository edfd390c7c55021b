// The contract between the scraper engine (engine.ts, ingest) and the kinds that read a source
// (kinds/*.ts). A kind only reads: it returns what it found, and the engine alone writes it, in
// one transaction per run, with change detection, soft deletion and the post-scrape analyzers.
import type { Db } from '#server/db/index.ts';

export type Health = 'healthy' | 'unhealthy' | 'warning' | 'unknown';
export type Severity = 'info' | 'warning' | 'low' | 'medium' | 'high' | 'blocker' | 'critical';

/** A reference to an item of the same scraper, by its type and its id in the source. */
export interface ItemRef {
  type: string;
  externalId: string;
}

/** One item a kind found in its source. (type, externalId) is unique per scraper. */
export interface ScrapedItem extends ItemRef {
  /** e.g. 'Deployment', 'File', 'Row'; config_items.config_class */
  configClass: string;
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  tags?: Record<string, string>;
  /** the body; compared by the engine to detect changes */
  config: unknown;
  format?: 'json' | 'yaml' | 'text';
  /** where it was read: a file path, a URL */
  source?: string;
  path?: string;
  description?: string;
  createdAt?: Date;
  /** the source says it is gone (a Kubernetes object with a deletionTimestamp, ...) */
  deletedAt?: Date;
  health?: Health;
  status?: string;
  ready?: boolean;
  /** parents in the source, nearest first; the first becomes parent_id */
  parents?: ItemRef[];
  properties?: unknown[];
  costPerMinute?: number;
}

/** A change the source itself reports (a Kubernetes event, ...); kept with its own type. */
export interface ScrapedChange extends ItemRef {
  externalChangeId?: string;
  changeType: string;
  severity?: Severity;
  source?: string;
  summary?: string;
  details?: unknown;
  createdAt?: Date;
  createdBy?: string;
}

export interface ScrapedRelationship {
  from: ItemRef;
  to: ItemRef;
  relation: string;
}

export interface ScrapeError {
  /** the item type (or the source) the error is about; counted per type in job history */
  type: string;
  message: string;
}

export interface ScrapeResult {
  items: ScrapedItem[];
  changes: ScrapedChange[];
  relationships: ScrapedRelationship[];
  errors: ScrapeError[];
}

export interface ScrapeContext {
  scraperId: string;
  /** WATCHDECK_DATA_DIR: git clones and other caches go under it */
  dataDir: string;
  /**
   * The directories `file` entries may read and local git repositories may be cloned from:
   * `<dataDir>/catalog/files` first (relative paths are read there), then WATCHDECK_SCRAPE_ROOTS.
   */
  fileRoots: string[];
  signal: AbortSignal;
  db: Db;
  /** a connection by name (`connection://ns/name` or `ns/name`) with its secrets resolved */
  connection(ref: string): Promise<Record<string, unknown>>;
  log: { info(msg: string): void; warn(msg: string): void };
}

/** One scraper kind: `spec` is the spec's entry for the kind (e.g. one element of spec.kubernetes). */
export type ScraperKind = (spec: Record<string, unknown>, ctx: ScrapeContext) => Promise<ScrapeResult>;
