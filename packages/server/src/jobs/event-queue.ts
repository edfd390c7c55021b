import type { Db, Queryable } from '../db/index.ts';
import { jobOwner } from './job-history.ts';

/**
 * The event queue: rows in `event_queue`, consumed by any number of workers in any number of
 * processes with FOR UPDATE SKIP LOCKED, so each event is handled by one worker at a time.
 * An event is unique per (name, event_id): publishing it twice is a no-op. A failing handler is
 * retried with exponential backoff; after the last attempt the event stays as 'failed' (dead
 * letter) for the Event Queue page.
 */
export interface QueuedEvent {
  id: string;
  name: string;
  event_id: string;
  properties: Record<string, unknown>;
  attempts: number;
}

export type EventHandler = (event: QueuedEvent, tx: Queryable) => Promise<void>;

export interface HandlerOptions {
  /**
   * Called after a failed attempt, once the handler's own writes are rolled back, in the claim's
   * transaction (its own savepoint): the place to record the failure where people see it (a
   * responder's dispatch error, say). `final` is true when no retry follows. An error thrown here
   * is reported to onError and otherwise ignored.
   */
  onFailure?: (event: QueuedEvent, err: unknown, tx: Queryable, final: boolean) => Promise<void>;
}

export interface EventQueueOptions {
  maxAttempts?: number;
  /** Backoff after attempt n is baseBackoffMs * 2^(n-1), capped at maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  pollMs?: number;
  batchSize?: number;
  onError?: (err: unknown, event?: QueuedEvent) => void;
  /** the engine process (processes.ts) whose job-history rows handlers write */
  processId?: string;
}

export async function publishEvent(
  q: Queryable,
  name: string,
  eventId: string,
  properties: Record<string, unknown> = {},
  priority = 0,
): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO event_queue (name, event_id, properties, priority)
     VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (name, event_id) DO NOTHING`,
    [name, eventId, JSON.stringify(properties), priority],
  );
  return r.rowCount === 1;
}

export class EventQueue {
  private handlers = new Map<string, EventHandler>();
  private failureHooks = new Map<string, NonNullable<HandlerOptions['onFailure']>>();
  private running = false;
  private loops: Promise<void>[] = [];
  private wake: (() => void)[] = [];
  private readonly opts: Required<Omit<EventQueueOptions, 'processId'>>;
  private readonly processId?: string;

  constructor(
    private readonly db: Db,
    opts: EventQueueOptions = {},
  ) {
    this.opts = {
      maxAttempts: opts.maxAttempts ?? 5,
      baseBackoffMs: opts.baseBackoffMs ?? 1000,
      maxBackoffMs: opts.maxBackoffMs ?? 5 * 60_000,
      pollMs: opts.pollMs ?? 1000,
      batchSize: opts.batchSize ?? 50,
      onError: opts.onError ?? (() => {}),
    };
    this.processId = opts.processId;
  }

  on(name: string, handler: EventHandler, opts: HandlerOptions = {}): void {
    this.handlers.set(name, handler);
    if (opts.onFailure) this.failureHooks.set(name, opts.onFailure);
    else this.failureHooks.delete(name);
  }

  /** Starts `workers` consumer loops. Only events with a registered handler are claimed. */
  start(workers = 2): void {
    if (this.running) return;
    this.running = true;
    const owner = this.processId;
    for (let i = 0; i < workers; i++) this.loops.push(owner ? jobOwner.run(owner, () => this.loop()) : this.loop());
  }

  /** Stops claiming; resolves when in-flight events are finished. */
  async stop(): Promise<void> {
    this.running = false;
    for (const w of this.wake.splice(0)) w();
    await Promise.all(this.loops.splice(0));
  }

  /** Handles one batch; returns how many events were claimed. Exposed for tests and benches. */
  async drainOnce(): Promise<number> {
    const names = [...this.handlers.keys()];
    if (names.length === 0) return 0;
    // One transaction claims a batch; each handler runs in its own savepoint so a failure rolls
    // back only that handler's writes. The savepoint is opened lazily on the handler's first
    // query, so handlers that do not write cost no extra round trips.
    return this.db.transaction(async (tx) => {
      const { rows: events } = await tx.query<QueuedEvent>(
        `SELECT id, name, event_id, properties, attempts FROM event_queue
         WHERE name = ANY($1::text[]) AND status = 'pending' AND next_attempt_at <= clock_timestamp()
         ORDER BY priority DESC, next_attempt_at, created_at
         LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [names, this.opts.batchSize],
      );
      const done: string[] = [];
      for (const event of events) {
        let savepoint = false;
        const scoped: Queryable = {
          async query(sql, params) {
            if (!savepoint) {
              await tx.query('SAVEPOINT handler');
              savepoint = true;
            }
            return tx.query(sql, params);
          },
          async exec(sql) {
            if (!savepoint) {
              await tx.query('SAVEPOINT handler');
              savepoint = true;
            }
            return tx.exec(sql);
          },
        };
        try {
          await this.handlers.get(event.name)!(event, scoped);
          if (savepoint) await tx.query('RELEASE SAVEPOINT handler');
          done.push(event.id);
        } catch (err) {
          if (savepoint) await tx.query('ROLLBACK TO SAVEPOINT handler');
          this.opts.onError(err, event);
          const attempts = event.attempts + 1;
          const dead = attempts >= this.opts.maxAttempts;
          const backoff = Math.min(this.opts.baseBackoffMs * 2 ** (attempts - 1), this.opts.maxBackoffMs);
          const onFailure = this.failureHooks.get(event.name);
          if (onFailure) {
            await tx.query('SAVEPOINT failure');
            try {
              await onFailure(event, err, tx, dead);
              await tx.query('RELEASE SAVEPOINT failure');
            } catch (hookErr) {
              await tx.query('ROLLBACK TO SAVEPOINT failure');
              this.opts.onError(hookErr, event);
            }
          }
          await tx.query(
            `UPDATE event_queue SET attempts = $2, last_attempt = clock_timestamp(), error = $3,
               status = $4, next_attempt_at = clock_timestamp() + ($5::int * interval '1 millisecond')
             WHERE id = $1`,
            [event.id, attempts, errorMessage(err), dead ? 'failed' : 'pending', backoff],
          );
        }
      }
      if (done.length) await tx.query('DELETE FROM event_queue WHERE id = ANY($1::uuid[])', [done]);
      return events.length;
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let n = 0;
      try {
        n = await this.drainOnce();
      } catch (err) {
        this.opts.onError(err);
      }
      if (n === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.opts.pollMs);
          this.wake.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    }
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
