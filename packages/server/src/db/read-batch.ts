import { createRequire } from 'node:module';
import { isConnectionError, isStatementTimeout } from './errors.ts';

// node-postgres's own serialiser of bound values (exported as pg/lib/utils, without types)
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): string | Buffer | null;
};

/**
 * Reads of one statement text, run together.
 *
 * On a loaded server most of the cost of a cheap read (`configs?id=eq.<id>`) is not executing it
 * but the round trip: every query is a message PostgreSQL's backend has to be woken for, parse,
 * bind and answer, and every answer one the server has to take apart. Requests that arrive in
 * the same turn of the event loop (a busy server reads many sockets per turn) and reads that
 * queue for a pooled connection are therefore sent as one statement that runs the original once
 * per parameter set:
 *
 *   SELECT _wd_q.*, _wd_in._wd_ord, <when this row was done> AS _wd_t
 *     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS _wd_in(p1, p2, _wd_ord)
 *     CROSS JOIN LATERAL (<the statement, $n replaced by _wd_in.pn>) AS _wd_q
 *
 * Every parameter goes in as the text node-postgres would have sent for it, and every `$n` of an
 * eligible statement is followed by an explicit cast, so each value meets the same input function
 * it would have met alone: the answers are the ones the statements give alone, read in one
 * snapshot. A batch that fails (one bad value fails them all) is re-run member by member on the
 * same connection, so each caller gets its own answer or its own error.
 *
 * Only statements that return exactly one row whatever their values (an aggregate, like every
 * /api/db read) and write nothing may be given to `ReadBatcher.read`. A read alone waits one
 * event-loop turn (`setImmediate`) longer than it would have; statements that take long are not
 * batched (see `limit`): one backend would run them in turn where several could run them side by
 * side.
 */

/** The batched form of `sql`, or undefined when its text does not allow it (see above). */
export function batchStatement(sql: string, paramCount: number): string | undefined {
  if (paramCount < 1) return undefined;
  let out = '';
  let i = 0;
  const seen = new Set<number>();
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // a quoted literal or identifier, with doubled quotes inside: copied as it is
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) return undefined;
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$(\d+)/.exec(sql.slice(i, i + 8));
      // dollar quoting or a parameter without an explicit cast: its type would come from context
      if (!m || sql.slice(i + m[0].length, i + m[0].length + 2) !== '::') return undefined;
      const n = Number(m[1]);
      if (n < 1 || n > paramCount) return undefined;
      seen.add(n);
      out += `_wd_in.p${n}`;
      i += m[0].length;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') return undefined; // a comment could hide anything
    if (c === '/' && sql[i + 1] === '*') return undefined;
    out += c;
    i++;
  }
  if (seen.size !== paramCount) return undefined;
  const inputs = Array.from({ length: paramCount }, (_, k) => `$${k + 1}::text[]`).join(', ');
  const names = Array.from({ length: paramCount }, (_, k) => `p${k + 1}`).join(', ');
  // _wd_t: when each member's row was done (clock_timestamp moves within a statement), so a batch
  // times its members in PostgreSQL, not in a busy event loop
  return `SELECT _wd_q.*, _wd_in._wd_ord, extract(epoch FROM clock_timestamp())::float8 * 1000 AS _wd_t FROM unnest(${inputs}) WITH ORDINALITY AS _wd_in(${names}, _wd_ord) CROSS JOIN LATERAL (${out}) AS _wd_q`;
}

/** Each value as the text node-postgres sends for it; undefined when one is binary. */
export function parameterTexts(params: unknown[]): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  for (const p of params) {
    const v = prepareValue(p);
    if (v !== null && typeof v !== 'string') return undefined;
    out.push(v);
  }
  return out;
}

/** What the batcher needs of a connection pool. */
export interface BatchPool {
  query<T>(sql: string, params: unknown[]): Promise<T[]>;
  acquire(): Promise<BatchConnection>;
}

export interface BatchConnection {
  query<T>(sql: string, params: unknown[]): Promise<T[]>;
  release(): void;
}

interface Waiter {
  params: unknown[];
  texts: (string | null)[];
  resolve(row: unknown): void;
  reject(err: unknown): void;
}

interface Group {
  waiters: Waiter[];
  limit: number;
}

interface ShapeState {
  batchSql: string | undefined;
  /** milliseconds one execution takes inside a batch, averaged (undefined until one was timed) */
  cost?: number;
  /** reads that went alone because the statement is too slow to batch (see `limit`) */
  alone: number;
  open?: Group;
}

/** a batch should hold its connection about this long at most */
const BATCH_BUDGET_MS = 2;
const MAX_MEMBERS = 64;
/** until a statement has been timed, batches of it stay small */
const UNTIMED_MEMBERS = 8;
const MAX_SHAPES = 1000;
const RETRY_EVERY = 100;

export class ReadBatcher {
  private shapes = new Map<string, ShapeState>();
  /** statements sent as a batch, and the reads they answered (for tests and diagnostics) */
  readonly stats = { batches: 0, batched: 0 };

  constructor(private readonly pool: BatchPool) {}

  /** Runs a one-row read (see the file comment), alone or together with others of its text. */
  async read<T>(sql: string, params: unknown[]): Promise<T> {
    const shape = this.shape(sql, params.length);
    const texts = shape.batchSql ? parameterTexts(params) : undefined;
    if (!texts) return this.pool.query<T>(sql, params).then(only);
    let group = shape.open;
    if (!group || group.waiters.length >= group.limit) {
      const limit = this.limit(shape);
      if (limit < 2) return this.pool.query<T>(sql, params).then(only);
      group = { waiters: [], limit };
      shape.open = group;
      void this.dispatch(sql, shape, group);
    }
    const waiters = group.waiters;
    return new Promise<T>((resolve, reject) =>
      waiters.push({ params, texts, resolve: resolve as (row: unknown) => void, reject }),
    );
  }

  /**
   * How many reads one batch of this statement may hold: as many as run in about
   * BATCH_BUDGET_MS. Its cost is timed by PostgreSQL inside batches (a read timed here on a busy
   * server mostly measures the wait for the event loop); a statement found too slow to batch
   * still gets a batch of two now and then, so a slow first measurement is not final.
   */
  private limit(shape: ShapeState): number {
    if (shape.cost === undefined) return UNTIMED_MEMBERS;
    const n = Math.min(MAX_MEMBERS, Math.floor(BATCH_BUDGET_MS / shape.cost));
    if (n >= 2) return n;
    return ++shape.alone % RETRY_EVERY === 0 ? 2 : 1;
  }

  private shape(sql: string, paramCount: number): ShapeState {
    let s = this.shapes.get(sql);
    if (!s) {
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      s = { batchSql: batchStatement(sql, paramCount), alone: 0 };
      this.shapes.set(sql, s);
    }
    return s;
  }

  /**
   * Lets the rest of this event-loop turn join the group, waits for a connection (reads that
   * come meanwhile join too), then runs the group.
   */
  private async dispatch(sql: string, shape: ShapeState, group: Group): Promise<void> {
    let conn: BatchConnection;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      conn = await this.pool.acquire();
    } catch (err) {
      if (shape.open === group) shape.open = undefined;
      for (const w of group.waiters) w.reject(err);
      return;
    }
    // from here on, later arrivals form the next group
    if (shape.open === group) shape.open = undefined;
    try {
      if (group.waiters.length === 1) await this.alone(conn, sql, group.waiters[0]);
      else await this.together(conn, shape, sql, group.waiters);
    } finally {
      conn.release();
    }
  }

  /** Runs one read on its own; false when it failed. */
  private async alone(conn: BatchConnection, sql: string, w: Waiter): Promise<boolean> {
    try {
      w.resolve(only(await conn.query(sql, w.params)));
      return true;
    } catch (err) {
      w.reject(err);
      return false;
    }
  }

  private async together(conn: BatchConnection, shape: ShapeState, sql: string, group: Waiter[]): Promise<void> {
    const columns = group[0].texts.map((_, k) => group.map((w) => w.texts[k]));
    let rows: Record<string, unknown>[];
    try {
      rows = await conn.query<Record<string, unknown>>(shape.batchSql!, columns);
    } catch (err) {
      // A lost connection or a statement timeout is nobody's value: running each member alone on
      // that connection would only fail (or time out) once per member. Each gets the error.
      if (isConnectionError(err) || isStatementTimeout(err)) {
        for (const w of group) w.reject(err);
        return;
      }
      // one member's value failed the statement: each runs alone for its own answer. When none
      // fails alone, it was the batched form itself (an aggregate of parameters only belongs to
      // the outer query there): this text is not batched again.
      let failed = false;
      for (const w of group) failed = !(await this.alone(conn, sql, w)) || failed;
      if (!failed) shape.batchSql = undefined;
      return;
    }
    const answers = new Array<Record<string, unknown> | undefined>(group.length);
    let first = Infinity;
    let last = -Infinity;
    let oneEach = rows.length === group.length;
    for (const row of rows) {
      const k = Number(row._wd_ord) - 1;
      if (answers[k]) oneEach = false;
      const t = Number(row._wd_t);
      if (t < first) first = t;
      if (t > last) last = t;
      delete row._wd_ord;
      delete row._wd_t;
      answers[k] = row;
    }
    if (!oneEach) {
      // not one row per member after all: nothing can say which row is whose
      for (const w of group) await this.alone(conn, sql, w);
      return;
    }
    this.stats.batches++;
    this.stats.batched += group.length;
    // the first member's row is done after one execution, the last after all of them
    const each = (last - first) / (rows.length - 1);
    if (Number.isFinite(each)) shape.cost = shape.cost === undefined ? each : shape.cost * 0.8 + each * 0.2;
    for (let k = 0; k < group.length; k++) group[k].resolve(answers[k]);
  }
}

function only<T>(rows: T[]): T {
  if (rows.length !== 1) throw new Error(`a batched read must return one row, got ${rows.length}`);
  return rows[0];
}
