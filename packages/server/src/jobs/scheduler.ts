import type { Db } from '../db/index.ts';
import { nextRun, parseSchedule, slotPhase, type Schedule } from './schedule.ts';
import { jobOwner } from './job-history.ts';

/**
 * Runs scheduled work (canaries, scrapers, topologies, scheduled playbooks). Areas register a
 * JobSource that lists their scheduled jobs; the scheduler re-reads the sources on reload()
 * (called when a resource is created, changed or deleted) and every `resyncMs` as a safety net.
 *
 * Several replicas may run the same scheduler: each due slot is claimed with an INSERT into
 * scheduler_claims keyed by (job key, slot time), so exactly one replica runs it.
 */
interface ScheduledJob {
  /** Stable across replicas, e.g. `canary:<id>`. */
  key: string;
  schedule: string;
  run(): Promise<void>;
  /**
   * For `@every` schedules: shift this job's slots by a stable offset derived from its key (the
   * same on every replica), so thousands of jobs with one interval spread over it instead of all
   * firing, claiming and querying in the same millisecond. Cron schedules are not shifted.
   */
  spread?: boolean;
}

export interface JobSource {
  name: string;
  list(): Promise<ScheduledJob[]>;
}

interface Entry {
  job: ScheduledJob;
  schedule: Schedule;
  timer?: NodeJS.Timeout;
  running: boolean;
}

export interface SchedulerOptions {
  resyncMs?: number;
  onError?: (err: unknown, key?: string) => void;
  /** Called when a due slot was already claimed elsewhere (tests count these). */
  onSkipped?: (key: string, slot: Date) => void;
  /** the engine process (processes.ts) whose job-history rows these runs write */
  processId?: string;
  /** how late a slot's timer fired, ms (metrics: scheduler lag); before the claim */
  onFired?: (lagMs: number) => void;
}

export class Scheduler {
  private sources: JobSource[] = [];
  private entries = new Map<string, Entry>();
  private resync?: NodeJS.Timeout;
  private stopped = true;
  private inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly opts: SchedulerOptions = {},
  ) {}

  addSource(source: JobSource): void {
    this.sources.push(source);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.reload();
    const every = this.opts.resyncMs ?? 60_000;
    this.resync = setInterval(() => void this.reload().catch((e) => this.opts.onError?.(e)), every);
    this.resync.unref();
  }

  /** Re-reads every source: new jobs are armed, changed schedules re-armed, removed ones dropped. */
  async reload(): Promise<void> {
    if (this.stopped) return;
    const wanted = new Map<string, ScheduledJob>();
    for (const source of this.sources) {
      for (const job of await source.list()) wanted.set(job.key, job);
    }
    for (const [key, entry] of this.entries) {
      const next = wanted.get(key);
      if (!next || next.schedule !== entry.job.schedule) {
        clearTimeout(entry.timer);
        this.entries.delete(key);
      } else {
        entry.job = next; // keep the timer, pick up the newest run function
      }
    }
    for (const [key, job] of wanted) {
      if (this.entries.has(key)) continue;
      let schedule: Schedule;
      try {
        schedule = parseSchedule(job.schedule);
      } catch (err) {
        this.opts.onError?.(err, key);
        continue;
      }
      const entry: Entry = { job, schedule, running: false };
      this.entries.set(key, entry);
      this.arm(entry);
    }
  }

  jobKeys(): string[] {
    return [...this.entries.keys()];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.resync);
    for (const e of this.entries.values()) clearTimeout(e.timer);
    this.entries.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private arm(entry: Entry): void {
    const phase = entry.job.spread && entry.schedule.kind === 'every' ? slotPhase(entry.job.key, entry.schedule.ms) : 0;
    const aligned = nextRun(entry.schedule, new Date(Date.now() - phase));
    const slot = aligned && new Date(aligned.getTime() + phase);
    if (!slot || this.stopped) return;
    const delay = Math.max(0, slot.getTime() - Date.now());
    // setTimeout caps at ~24.8 days; re-arm in steps for far-away cron slots.
    const capped = Math.min(delay, 2 ** 31 - 1);
    entry.timer = setTimeout(() => {
      if (this.entries.get(entry.job.key) !== entry) return;
      if (capped < delay) return this.arm(entry);
      this.opts.onFired?.(Date.now() - slot.getTime());
      const p = this.fire(entry, slot).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
      this.arm(entry);
    }, capped);
    entry.timer.unref?.();
  }

  private async fire(entry: Entry, slot: Date): Promise<void> {
    const key = entry.job.key;
    if (entry.running) return; // the previous run is still going: skip this slot locally
    try {
      const claim = await this.db.query(
        `INSERT INTO scheduler_claims (job_key, slot) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [key, slot.toISOString()],
      );
      if (claim.rowCount !== 1) {
        this.opts.onSkipped?.(key, slot);
        return;
      }
      entry.running = true;
      const owner = this.opts.processId;
      await (owner ? jobOwner.run(owner, () => entry.job.run()) : entry.job.run());
    } catch (err) {
      this.opts.onError?.(err, key);
    } finally {
      entry.running = false;
    }
  }
}

/** Claims older than a day are only history; keep the table small. */
export async function pruneClaims(db: Db): Promise<void> {
  await db.query(`DELETE FROM scheduler_claims WHERE slot < now() - interval '1 day'`);
}
