/**
 * The organisations' backends in this process: the app built again on a pool whose search_path is
 * the organisation's schema, opened on first use and kept up to WATCHDECK_HOSTED_MAX_ORGS (the
 * least recently used idle one is closed to make room). A backend whose engines lease this process
 * holds (leaseEngines) runs the scheduler and event queue as well; the others only answer HTTP.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { openDb, type Db } from '../db/index.ts';
import type { Config } from '../config.ts';
import { findOrganization } from './store.ts';

export interface Backend {
  slug: string;
  app: FastifyInstance;
  db: Db;
  /** requests being answered (a backend is closed only when idle) */
  inFlight: number;
  lastUsed: number;
  /** when the organisation was last seen ready in the control plane (revalidate) */
  checkedAt: number;
  enginesRunning: boolean;
}

/**
 * How long an open backend is trusted without asking the control plane whether its organisation
 * still exists: an organisation deleted through another process stops answering here within this.
 */
const RECHECK_MS = 5_000;

/** Builds an organisation's app: buildApp with the organisation's configuration (app.ts). */
export type BuildOrgApp = (config: Config, db: Db) => Promise<FastifyInstance>;

export const PREFIX = '/org/';

export class Backends {
  private readonly live = new Map<string, Promise<Backend>>();
  private closed = false;

  constructor(
    private readonly deps: {
      config: Config;
      /** the root backend's pool: the control plane's tables */
      control: Db;
      build: BuildOrgApp;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * The ready organisation's backend, opened if needed; undefined while provisioning, unknown or
   * deleted. With `hold`, it is counted in flight before it is handed out (release by
   * decrementing `inFlight`): closing waits for it, and a backend closed while this call waited
   * is never handed out (the loop opens it anew).
   */
  async get(slug: string, hold = false): Promise<Backend | undefined> {
    for (;;) {
      const open = this.live.get(slug);
      if (open) {
        const b = await open;
        if (this.live.get(slug) !== open) continue;
        if (Date.now() - b.checkedAt >= RECHECK_MS) {
          const still = await findOrganization(this.deps.control, slug);
          if (this.live.get(slug) !== open) continue;
          if (still?.status !== 'ready') {
            await this.closeOne(slug);
            return undefined;
          }
          b.checkedAt = Date.now();
        }
        b.lastUsed = Date.now();
        if (hold) b.inFlight++;
        return b;
      }
      if (this.closed) return undefined;
      const org = await findOrganization(this.deps.control, slug);
      if (!org || org.status !== 'ready') return undefined;
      // checked again after the await: two requests may have raced here; the loop takes it
      if (!this.live.get(slug)) {
        const pending = this.open(slug, org.schema_name);
        this.live.set(slug, pending);
        pending.catch(() => {
          if (this.live.get(slug) === pending) this.live.delete(slug);
        });
        void this.makeRoom();
      }
    }
  }

  /** The slugs whose backend is open here. */
  openSlugs(): string[] {
    return [...this.live.keys()];
  }

  /** Starts (or stops, by closing the backend) the engines of the organisations leased to this process. */
  async runEnginesOf(leased: Set<string>): Promise<void> {
    for (const slug of leased) {
      const b = await this.get(slug).catch((err) => {
        this.deps.log.warn({ err, organization: slug }, 'organizations: opening a backend failed');
        return undefined;
      });
      if (b && !b.enginesRunning) {
        b.enginesRunning = true;
        await b.app.engines.start();
      }
    }
    for (const [slug, p] of this.live) {
      const b = await p.catch(() => undefined);
      // a lease lost (another process took it over after a pause here): its engines stop
      if (b?.enginesRunning && !leased.has(slug)) await this.closeOne(slug);
    }
  }

  private async open(slug: string, schema: string): Promise<Backend> {
    const { config } = this.deps;
    const db = await openDb({
      databaseUrl: config.databaseUrl,
      poolSize: config.hosted.orgPoolSize,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      searchPath: schema,
      onError: (err) =>
        this.deps.log.warn({ err: { message: err.message }, organization: slug }, 'database connection lost'),
    });
    try {
      const orgConfig: Config = {
        ...config,
        // an organisation's backend serves no organisations of its own, no demo and no web files
        hosted: { ...config.hosted, enabled: false },
        organization: { slug, prefix: PREFIX + slug },
        demoData: false,
        // people join an organisation by invitation on the root backend, never by signing up
        // on its backend (that would make anyone a member)
        registrationEnabled: false,
        dbPoolSize: config.hosted.orgPoolSize,
        // one registry per process: the root backend's /metrics
        metrics: { ...config.metrics, enabled: false },
      };
      const app = await this.deps.build(orgConfig, db);
      await app.ready();
      return { slug, app, db, inFlight: 0, lastUsed: Date.now(), checkedAt: Date.now(), enginesRunning: false };
    } catch (err) {
      await db.close().catch(() => {});
      throw err;
    }
  }

  /**
   * Closes the least recently used idle backends without engines beyond the limit. One used in
   * the last RECHECK_MS stays (a busy backend between two requests, or one just opened for the
   * request that opened it): the limit is exceeded briefly rather than a backend closed under load.
   */
  private async makeRoom(): Promise<void> {
    const excess = this.live.size - this.deps.config.hosted.maxOrgs;
    if (excess <= 0) return;
    const idle: Backend[] = [];
    for (const p of this.live.values()) {
      const b = await p.catch(() => undefined);
      if (b && b.inFlight === 0 && !b.enginesRunning && Date.now() - b.lastUsed > RECHECK_MS) idle.push(b);
    }
    idle.sort((a, b) => a.lastUsed - b.lastUsed);
    for (const b of idle.slice(0, excess)) await this.closeOne(b.slug);
  }

  /** Closes the organisation's backend here, if open (it is being deleted). */
  forget(slug: string): Promise<void> {
    return this.closeOne(slug);
  }

  private async closeOne(slug: string): Promise<void> {
    const p = this.live.get(slug);
    if (!p) return;
    this.live.delete(slug);
    const b = await p.catch(() => undefined);
    if (!b) return;
    // requests handed to it finish first (its app is not listening: close() does not wait for them)
    const deadline = Date.now() + this.deps.config.shutdownTimeoutMs;
    while (b.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await b.app.close().catch((err) => this.deps.log.warn({ err, organization: slug }, 'closing a backend failed'));
    await b.db.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live.keys()].map((slug) => this.closeOne(slug)));
  }
}
