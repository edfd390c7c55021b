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
 *
 * A consumer whose handler only writes to the database may run in batch mode (consume()'s
 * `batch`): a worker claims up to N of its due deliveries in one statement and runs them in ONE
 * transaction, a savepoint per delivery, recording the successful ones done in it. A commit per
 * delivery is what made the one-at-a-time path slow for such consumers (10,000 deliveries,
 * 10,000 commits); with nothing outside the database, a crash that rolls a batch back undoes
 * all of it, so running the batch again repeats no effect.
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
  /**
   * Batch mode, only for a handler whose every effect is a database write through done() (no
   * email, no HTTP call, no ctx.db): a worker claims up to `size` due deliveries of this consumer
   * in one statement and handles them in one transaction, each in a savepoint of its own. A
   * throw rolls back that delivery alone, which is retried with backoff as usual; the others
   * are recorded done in the same transaction. A crash rolls the whole batch back: it runs again
   * when the leases end, and none of its writes happened twice. At most 64: PostgreSQL keeps 64
   * subtransactions per transaction in shared memory; past that every other session's snapshot
   * checks slow down (subtransaction overflow).
   */
  batch?: { size: number };
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

interface Consumer extends Required<Omit<ConsumerOptions, 'onFailure' | 'backoff' | 'batch'>> {
  name: string;
  events: string[];
  handler: ConsumerHandler;
  baseMs: number;
  maxMs: number;
  onFailure?: ConsumerOptions['onFailure'];
  /** deliveries per batch; 0 for one at a time */
  batchSize: number;
}

/** The largest batch: see ConsumerOptions.batch. */
const MAX_BATCH = 64;

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

/**
 * A worker loop's state: the delivery it handled last, when its done is still to be recorded,
 * and the batch consumer it looks at first next time (each gets its turn).
 */
interface Worker {
  finishing?: Claimed;
  nextBatch: number;
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
    const batchSize = opts.batch?.size ?? 0;
    if (opts.batch && !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= MAX_BATCH))
      throw new Error(`the event consumer "${name}": a batch holds 1 to ${MAX_BATCH} deliveries`);
    this.consumers.set(name, {
      name,
      events: [...new Set(events)],
      handler,
      maxAttempts: opts.maxAttempts ?? 5,
      baseMs: opts.backoff?.baseMs ?? 1000,
      maxMs: opts.backoff?.maxMs ?? 5 * 60_000,
      leaseMs: opts.leaseMs ?? 2 * 60_000,
      onFailure: opts.onFailure,
      batchSize,
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

  /** Registers the consumers, then starts `workers` loops, each handling one delivery (or batch) at a time. */
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

  /** Handles due deliveries as the workers do until none is due; returns how many. For tests and benches. */
  async drain(): Promise<number> {
    const w: Worker = { nextBatch: 0 };
    let n = 0;
    try {
      for (let handled; (handled = await this.step(w)) > 0;) n += handled;
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
    const w: Worker = { nextBatch: 0 };
    while (this.running) {
      let handled = 0;
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
   * One turn of a worker: a due delivery of the one-at-a-time consumers, then a batch of the
   * first batch consumer (in turn) that has any due. Returns how many deliveries it handled.
   */
  private async step(w: Worker): Promise<number> {
    let n = 0;
    if (this.singles.length > 0 || w.finishing) n += (await this.stepOne(w)) ? 1 : 0;
    const batched = this.batched;
    for (let i = 0; i < batched.length; i++) {
      const c = batched[w.nextBatch++ % batched.length];
      const handled = await this.stepBatch(c);
      if (handled > 0) return n + handled;
    }
    return n;
  }

  private get singles(): string[] {
    return [...this.consumers.values()].filter((c) => c.batchSize === 0).map((c) => c.name);
  }

  private get batched(): Consumer[] {
    return [...this.consumers.values()].filter((c) => c.batchSize > 0);
  }

  /**
   * Claims one due delivery of this process's one-at-a-time consumers and handles it; false when
   * none was due. The same statement records the worker's previous delivery done when its
   * handler wrote nothing (w.finishing): one round trip per delivery instead of two.
   */
  private async stepOne(w: Worker): Promise<boolean> {
    const names = this.singles;
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

  /**
   * Claims up to c.batchSize due deliveries of batch consumer c in one statement, committed at
   * once like stepOne's claim (same lease, a claim token each), then handles them in one
   * transaction. Returns how many it claimed.
   */
  private async stepBatch(c: Consumer): Promise<number> {
    const { rows } = await this.db.query<Claimed>(
      `WITH due AS (
         SELECT event_id, consumer, next_attempt_at FROM event_deliveries
         WHERE consumer = $1 AND status IN ('pending', 'running') AND next_attempt_at <= clock_timestamp()
         ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE event_deliveries d SET status = 'running', attempts = d.attempts + 1, last_attempt = clock_timestamp(),
           next_attempt_at = clock_timestamp() + $3::int * interval '1 millisecond', claim = gen_random_uuid()
         FROM due, event_queue e
         WHERE d.event_id = due.event_id AND d.consumer = due.consumer AND e.id = d.event_id
         RETURNING d.id, d.consumer, d.attempts, d.claim, e.id AS event_id, e.name, e.event_id AS resource_id,
           e.properties, due.next_attempt_at AS due_at
       )
       SELECT id, consumer, attempts, claim, event_id, name, resource_id, properties FROM claimed ORDER BY due_at`,
      [c.name, c.batchSize, c.leaseMs],
    );
    if (rows.length > 0) await this.deliverBatch(c, rows);
    return rows.length;
  }

  /**
   * The batch's transaction. It first locks the deliveries it still holds (claim token
   * unchanged): from then on nobody takes them over, even past their lease, since claims skip
   * locked rows; one whose lease ran out and was taken over before that is left to its new
   * holder. Each handler runs in a savepoint; a throw rolls back to it and records the failed
   * attempt (backoff, onFailure) as stepOne's path does. One statement records the rest done.
   */
  private async deliverBatch(c: Consumer, batch: Claimed[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { rows: held } = await tx.query<{ event_id: string }>(
        `SELECT d.event_id FROM event_deliveries d
         JOIN unnest($2::uuid[], $3::uuid[]) AS x (event_id, claim) ON d.event_id = x.event_id AND d.claim = x.claim
         WHERE d.consumer = $1 FOR UPDATE OF d`,
        [c.name, batch.map((d) => d.event_id), batch.map((d) => d.claim)],
      );
      const ours = new Set(held.map((r) => r.event_id));
      const ok: Claimed[] = [];
      // A handler that returned leaves its savepoint open until the next round trip, which
      // releases it and opens the next delivery's: one round trip per delivery besides the
      // handler's own, not two. A release that fails means a statement of that handler failed
      // and the handler caught it: its attempt failed after all.
      let returned: { d: Claimed; event: ConsumedEvent } | undefined;
      const settle = async (open: boolean) => {
        const prev = returned;
        returned = undefined;
        const sql = [prev && 'RELEASE SAVEPOINT event_delivery', open && 'SAVEPOINT event_delivery'].filter(Boolean);
        if (sql.length === 0) return;
        try {
          await tx.exec(sql.join('; '));
          if (prev) ok.push(prev.d);
        } catch (err) {
          if (!prev) throw err;
          await this.rollBack(tx, prev.d, c, prev.event, err);
          if (open) await tx.exec('SAVEPOINT event_delivery');
        }
      };
      for (const d of batch) {
        const event = eventOf(d);
        if (!ours.has(d.event_id)) {
          this.onError(leaseLost(d), event);
          continue;
        }
        if (d.attempts > c.maxAttempts) {
          await settle(false);
          const err = unfinished(c);
          this.onError(err, event);
          await this.recordFailure(tx, d, c, event, err);
          continue;
        }
        await settle(true);
        try {
          const { ctx, thrown } = batchContext(c, tx);
          await c.handler(event, ctx);
          const t = thrown();
          if (t) throw t.err;
          returned = { d, event };
        } catch (err) {
          await this.rollBack(tx, d, c, event, err);
        }
      }
      await settle(false);
      if (ok.length === 0) return;
      const r = await tx.query(
        `UPDATE event_deliveries d SET status = 'done', done_at = clock_timestamp(), claim = NULL
         FROM unnest($2::uuid[], $3::uuid[]) AS x (event_id, claim)
         WHERE d.consumer = $1 AND d.event_id = x.event_id AND d.claim = x.claim`,
        [c.name, ok.map((d) => d.event_id), ok.map((d) => d.claim)],
      );
      // they are locked by this transaction: a difference means a bug, and nothing may commit
      if (r.rowCount !== ok.length) throw new Error(`a batch of ${c.name} recorded ${r.rowCount} of ${ok.length} done`);
    });
  }

  /** A batch's delivery failed: back to its savepoint, then its failed attempt is recorded. */
  private async rollBack(tx: Queryable, d: Claimed, c: Consumer, event: ConsumedEvent, err: unknown) {
    await tx.exec('ROLLBACK TO SAVEPOINT event_delivery; RELEASE SAVEPOINT event_delivery');
    this.onError(err, event);
    await this.recordFailure(tx, d, c, event, err);
  }

  /** Runs the handler; true when it returned without done(), so the delivery is still to be marked done. */
  private async deliver(d: Claimed): Promise<boolean> {
    const c = this.consumers.get(d.consumer)!;
    const event = eventOf(d);
    if (d.attempts > c.maxAttempts) {
      await this.fail(d, c, event, unfinished(c));
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
    await this.db.transaction((tx) => this.recordFailure(tx, d, c, event, err));
  }

  /**
   * Records a failed attempt in tx: pending again after the backoff, or 'failed' after the last
   * attempt; then onFailure, in a savepoint of its own.
   */
  private async recordFailure(tx: Queryable, d: Claimed, c: Consumer, event: ConsumedEvent, err: unknown) {
    const final = d.attempts >= c.maxAttempts;
    const backoff = Math.min(c.baseMs * 2 ** (d.attempts - 1), c.maxMs);
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
  }
}

function eventOf(d: Claimed): ConsumedEvent {
  return {
    key: d.id,
    id: d.event_id,
    name: d.name,
    resourceId: d.resource_id,
    properties: d.properties,
    attempt: d.attempts,
    consumer: d.consumer,
  };
}

/** every allowed attempt was claimed by a worker that never finished it (crashes) */
const unfinished = (c: Consumer) => new Error(`the last ${c.maxAttempts} attempts did not finish`);

/**
 * A batch handler's context: done(fn) runs fn in the delivery's savepoint of the batch's
 * transaction. There is no db outside it: on PGlite's one connection a query outside the open
 * transaction would wait for it forever, and anywhere it would escape the batch's rollback.
 * A throw from fn fails the delivery even when the handler catches it, as a rolled-back done()
 * would on the one-at-a-time path.
 */
function batchContext(c: Consumer, tx: Queryable): { ctx: DeliveryContext; thrown(): { err: unknown } | undefined } {
  let called = false;
  let thrown: { err: unknown } | undefined;
  const ctx: DeliveryContext = {
    get db(): Db {
      throw new Error(`the event consumer "${c.name}" runs in batches: its handler reads and writes through done(tx)`);
    },
    async done(fn) {
      if (called) throw new Error('done() was called twice');
      called = true;
      try {
        return await fn(tx);
      } catch (err) {
        thrown = { err };
        throw err;
      }
    },
  };
  return { ctx, thrown: () => thrown };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
