/**
 * The event bus (README.md in this folder). publish() (SQL: publish_event()) stores an event with
 * one delivery per consumer subscribed to its name; an event nobody consumes is not stored. A
 * consumer is a name, its event names and a handler (consume()). Workers claim one delivery at a
 * time with FOR UPDATE SKIP LOCKED in a statement of its own, run the handler outside any
 * transaction, and record the delivery done (with the consumer's writes) in one short
 * transaction. A crash therefore repeats at most the deliveries in flight, one per worker: the
 * claim is a lease, and an expired lease is claimed again. Each delivery has its own attempts,
 * exponential backoff, error and done state; after the last attempt it stays 'failed' (a dead
 * letter on the Event Queue page).
 */
import type { Db, Queryable } from '../db/index.ts';
import { jobOwner } from './job-history.ts';

export interface ConsumedEvent {
  /**
   * The delivery's id: the same on every attempt of this event for this consumer, different for
   * anything else. An idempotency key for receivers that take one (an email's Message-ID).
   */
  key: string;
  /** the event's id (event_queue.id) */
  id: string;
  name: string;
  resourceId: string;
  properties: Record<string, unknown>;
  /** this attempt's number, 1 on the first */
  attempt: number;
  consumer: string;
}

export interface DeliveryContext {
  /** the database, outside any transaction: reads, and side effects that need no atomicity */
  db: Db;
  /**
   * Runs fn in the transaction that records this delivery done, so the consumer's writes commit
   * with it or not at all. Call it once, after the side effect. A handler that returns without
   * calling it is recorded done then.
   */
  done<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

export type ConsumerHandler = (event: ConsumedEvent, ctx: DeliveryContext) => Promise<void>;

export interface ConsumerOptions {
  /** attempts before the delivery is given up as 'failed' (default 5) */
  maxAttempts?: number;
  /** wait after attempt n: baseMs * 2^(n-1), at most maxMs (default 1 s doubling, at most 5 min) */
  backoff?: { baseMs?: number; maxMs?: number };
  /**
   * How long a claim lasts (default 2 min): longer than the handler ever takes, or another worker
   * takes the delivery over and its effect happens twice. After a crash, the deliveries that
   * were in flight run again when their lease ends.
   */
  leaseMs?: number;
  /**
   * Called after a failed attempt, in the transaction that records the failure (its own
   * savepoint): the place to record it where people see it (a responder's dispatch error).
   * `final` is true when no retry follows. An error thrown here is reported to onError.
   */
  onFailure?: (event: ConsumedEvent, err: unknown, tx: Queryable, final: boolean) => Promise<void>;
}

export interface EventQueueOptions {
  /** how long an idle worker waits before looking for due deliveries again */
  pollMs?: number;
  onError?: (err: unknown, event?: ConsumedEvent) => void;
  /** the engine process (processes.ts) whose job-history rows handlers write */
  processId?: string;
}

/**
 * Publishes an event in q's transaction (or on its own): returns its id, or null when nobody
 * consumes `name` or (name, resourceId) is already queued. resourceId names what the event is
 * about; an event that recurs for one resource carries the occurrence too (`<check id>/<time>`).
 */
export async function publish(
  q: Queryable,
  name: string,
  resourceId: string,
  properties: Record<string, unknown> = {},
): Promise<string | null> {
  const { rows } = await q.query<{ id: string | null }>(`SELECT publish_event($1, $2, $3::jsonb) AS id`, [
    name,
    resourceId,
    JSON.stringify(properties),
  ]);
  return rows[0].id;
}

interface Consumer extends Required<Omit<ConsumerOptions, 'onFailure' | 'backoff'>> {
  name: string;
  events: string[];
  handler: ConsumerHandler;
  baseMs: number;
  maxMs: number;
  onFailure?: ConsumerOptions['onFailure'];
}

interface Claimed {
  id: string;
  consumer: string;
  attempts: number;
  claim: string;
  event_id: string;
  name: string;
  resource_id: string;
  properties: Record<string, unknown>;
}

/**
 * The claim was taken over (its lease ran out) or the delivery is no longer running. A claim
 * token is set only while a delivery is running (every way out clears it), so matching it is
 * the whole check; a status condition would also let PostgreSQL pick the partial due index over
 * the primary key, a scan of the consumer's backlog per delivery.
 */
class LeaseLost extends Error {}
const leaseLost = (d: Claimed) =>
  new LeaseLost(`the claim on delivery ${d.id} (${d.name} to ${d.consumer}) ran out before it was done`);

/** A worker loop's state: the delivery it handled last, when its done is still to be recorded. */
interface Worker {
  finishing?: Claimed;
}

/** Done events are kept this long, so publishing the same event again soon is still a no-op. */
const DONE_RETENTION = '1 hour';
/** Dead letters, and consumers no process has registered for this long, are dropped. */
const STALE_RETENTION = '7 days';

export class EventQueue {
  private consumers = new Map<string, Consumer>();
  private running = false;
  private loops: Promise<void>[] = [];
  private sleepers: (() => void)[] = [];
  private readonly pollMs: number;
  private readonly onError: NonNullable<EventQueueOptions['onError']>;
  private readonly processId?: string;

  constructor(
    private readonly db: Db,
    opts: EventQueueOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 1000;
    this.onError = opts.onError ?? (() => {});
    this.processId = opts.processId;
  }

  /**
   * Registers a named consumer of `events`. Each consumer gets every event of those names once;
   * a name can be consumed by one consumer per process (several processes running the same
   * consumer share its deliveries). Call before start().
   */
  consume(name: string, events: string[], handler: ConsumerHandler, opts: ConsumerOptions = {}): void {
    if (this.consumers.has(name)) throw new Error(`the event consumer "${name}" is already registered`);
    if (events.length === 0) throw new Error(`the event consumer "${name}" names no events`);
    this.consumers.set(name, {
      name,
      events: [...new Set(events)],
      handler,
      maxAttempts: opts.maxAttempts ?? 5,
      baseMs: opts.backoff?.baseMs ?? 1000,
      maxMs: opts.backoff?.maxMs ?? 5 * 60_000,
      leaseMs: opts.leaseMs ?? 2 * 60_000,
      onFailure: opts.onFailure,
    });
  }

  /**
   * Records this process's consumers in event_consumers, so events published from now on (by
   * any process, in SQL or TypeScript) are delivered to them. start() does it first.
   */
  async register(): Promise<void> {
    for (const c of this.consumers.values()) {
      await this.db.query(
        `INSERT INTO event_consumers (name, events) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET events = EXCLUDED.events, seen_at = now()`,
        [c.name, c.events],
      );
    }
  }

  /** Registers the consumers, then starts `workers` loops, each handling one delivery at a time. */
  async start(workers = 2): Promise<void> {
    if (this.running) return;
    await this.register();
    this.running = true;
    const owner = this.processId;
    for (let i = 0; i < workers; i++) this.loops.push(owner ? jobOwner.run(owner, () => this.loop()) : this.loop());
  }

  /** Stops claiming; resolves when the deliveries in flight are finished. */
  async stop(): Promise<void> {
    this.running = false;
    for (const wake of this.sleepers.splice(0)) wake();
    await Promise.all(this.loops.splice(0));
  }

  /** Handles due deliveries one at a time until none is due; returns how many. For tests and benches. */
  async drain(): Promise<number> {
    const w: Worker = {};
    let n = 0;
    try {
      while (await this.step(w)) n++;
    } finally {
      await this.finish(w);
    }
    return n;
  }

  /**
   * Housekeeping (hourly): refreshes this process's consumers, drops consumers nobody has
   * registered for 7 days (with their deliveries), and events whose deliveries are all done for
   * an hour or dead for 7 days. Returns how many events went.
   */
  async prune(): Promise<number> {
    await this.register();
    await this.db.query(`DELETE FROM event_consumers WHERE seen_at < now() - $1::interval`, [STALE_RETENTION]);
    const r = await this.db.query(
      `DELETE FROM event_queue e WHERE NOT EXISTS (
         SELECT 1 FROM event_deliveries d WHERE d.event_id = e.id
           AND NOT (d.status = 'done' AND d.done_at < now() - $1::interval
                    OR d.status = 'failed' AND d.last_attempt < now() - $2::interval))`,
      [DONE_RETENTION, STALE_RETENTION],
    );
    return r.rowCount;
  }

  private async loop(): Promise<void> {
    const w: Worker = {};
    while (this.running) {
      let handled = false;
      try {
        handled = await this.step(w);
      } catch (err) {
        this.onError(err);
      }
      if (handled) {
        // there may be more: let an idle sibling look too
        this.sleepers.shift()?.();
        continue;
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          this.sleepers = this.sleepers.filter((w) => w !== wake);
          resolve();
        }, this.pollMs);
        this.sleepers.push(wake);
      });
    }
    await this.finish(w).catch((err) => this.onError(err));
  }

  /** Records the worker's last handled delivery done, when no claim statement did. */
  private async finish(w: Worker): Promise<void> {
    const d = w.finishing;
    if (!d) return;
    w.finishing = undefined;
    await this.markDone(this.db, d).catch((err) => this.onError(err));
  }

  /**
   * Claims one due delivery of this process's consumers and handles it; false when none was due.
   * The same statement records the worker's previous delivery done when its handler wrote
   * nothing (w.finishing): one round trip per delivery instead of two.
   */
  private async step(w: Worker): Promise<boolean> {
    const names = [...this.consumers.keys()];
    const prev = w.finishing;
    // One statement, committed at once: the lease (next_attempt_at) and a fresh claim token.
    // 'running' rows whose lease ran out belonged to a worker that died; they are due again.
    // Each consumer's earliest due delivery is one ordered index read (event_deliveries_due_idx);
    // the earliest of those is claimed. (One scan over all consumers sorted every due row.)
    const { rows } = await this.db.query<Claimed & { finished: number }>(
      `WITH fin AS (
         UPDATE event_deliveries SET status = 'done', done_at = clock_timestamp(), claim = NULL
         WHERE event_id = $3::uuid AND consumer = $4 AND claim = $5::uuid
         RETURNING 1
       ), due AS (
         SELECT d.event_id, d.consumer FROM unnest($1::text[]) AS c (name)
         CROSS JOIN LATERAL (
           SELECT event_id, consumer, next_attempt_at FROM event_deliveries
           WHERE consumer = c.name AND status IN ('pending', 'running') AND next_attempt_at <= clock_timestamp()
           ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED
         ) d
         ORDER BY d.next_attempt_at LIMIT 1
       ), claimed AS (
         UPDATE event_deliveries d SET status = 'running', attempts = d.attempts + 1, last_attempt = clock_timestamp(),
           next_attempt_at = clock_timestamp() + ($2::int[])[array_position($1::text[], d.consumer)] * interval '1 millisecond',
           claim = gen_random_uuid()
         FROM due, event_queue e
         WHERE d.event_id = due.event_id AND d.consumer = due.consumer AND e.id = d.event_id
         RETURNING d.id, d.consumer, d.attempts, d.claim, e.id AS event_id, e.name, e.event_id AS resource_id, e.properties
       )
       SELECT (SELECT count(*) FROM fin)::int AS finished, claimed.* FROM (VALUES (1)) one (x) LEFT JOIN claimed ON true`,
      [
        names,
        names.map((n) => this.consumers.get(n)!.leaseMs),
        prev?.event_id ?? null,
        prev?.consumer ?? null,
        prev?.claim ?? null,
      ],
    );
    const { finished, ...claimed } = rows[0];
    w.finishing = undefined;
    if (prev && finished !== 1) this.onError(leaseLost(prev));
    if (!claimed.id) return false;
    if (await this.deliver(claimed)) w.finishing = claimed;
    return true;
  }

  /** Runs the handler; true when it returned without done(), so the delivery is still to be marked done. */
  private async deliver(d: Claimed): Promise<boolean> {
    const c = this.consumers.get(d.consumer)!;
    const event: ConsumedEvent = {
      key: d.id,
      id: d.event_id,
      name: d.name,
      resourceId: d.resource_id,
      properties: d.properties,
      attempt: d.attempts,
      consumer: d.consumer,
    };
    if (d.attempts > c.maxAttempts) {
      // every allowed attempt was claimed by a worker that never finished it (crashes)
      await this.fail(d, c, event, new Error(`the last ${c.maxAttempts} attempts did not finish`));
      return false;
    }
    let finished = false;
    const ctx: DeliveryContext = {
      db: this.db,
      done: (fn) => {
        if (finished) throw new Error('done() was called twice');
        finished = true;
        return this.db.transaction(async (tx) => {
          await this.markDone(tx, d);
          return fn(tx);
        });
      },
    };
    try {
      await c.handler(event, ctx);
      return !finished;
    } catch (err) {
      if (err instanceof LeaseLost) this.onError(err, event);
      else await this.fail(d, c, event, err);
      return false;
    }
  }

  private async markDone(q: Queryable, d: Claimed): Promise<void> {
    const r = await q.query(
      `UPDATE event_deliveries SET status = 'done', done_at = clock_timestamp(), claim = NULL
       WHERE event_id = $1 AND consumer = $2 AND claim = $3`,
      [d.event_id, d.consumer, d.claim],
    );
    if (r.rowCount !== 1) throw leaseLost(d);
  }

  private async fail(d: Claimed, c: Consumer, event: ConsumedEvent, err: unknown): Promise<void> {
    this.onError(err, event);
    const final = d.attempts >= c.maxAttempts;
    const backoff = Math.min(c.baseMs * 2 ** (d.attempts - 1), c.maxMs);
    await this.db.transaction(async (tx) => {
      const r = await tx.query(
        `UPDATE event_deliveries SET status = $4, error = $5, claim = NULL,
           next_attempt_at = clock_timestamp() + ($6::int * interval '1 millisecond')
         WHERE event_id = $1 AND consumer = $2 AND claim = $3`,
        [d.event_id, d.consumer, d.claim, final ? 'failed' : 'pending', errorMessage(err), backoff],
      );
      // taken over by another worker, or done before the handler threw: nothing to record
      if (r.rowCount !== 1 || !c.onFailure) return;
      await tx.query('SAVEPOINT on_failure');
      try {
        await c.onFailure(event, err, tx, final);
        await tx.query('RELEASE SAVEPOINT on_failure');
      } catch (hookErr) {
        await tx.query('ROLLBACK TO SAVEPOINT on_failure');
        this.onError(hookErr, event);
      }
    });
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
