/**
 * What writing a table through /api/db does besides the SQL, declared by the areas per table
 * (README.md "Writes: the pipeline"): checks before the statement, effects after the commit.
 * The engine knows no area; app.ts hands it the areas' registrations.
 */
import type { FastifyBaseLogger } from 'fastify';

/**
 * Refuses a write before any SQL runs, after the caller is authorised for every relation the
 * request touches: throw a RestError, or an error with a SQLSTATE `code` (23514 is a 400, PT409
 * a 409). `body` is the parsed JSON body (RPC: the arguments; DELETE: undefined).
 */
export type WriteCheck = (table: string, method: string, body: unknown) => void | Promise<void>;

/**
 * Runs once a write has committed, before the answer is sent (the caller's next request sees its
 * effect). A failure is logged; the write stands and is answered as usual.
 */
export type AfterCommit = (table: string, method: string) => void | Promise<void>;

/** One area's word on writes to one table (`rpc/<name>` for a function exposed as writing). */
export interface WriteRegistration {
  table: string;
  check?: WriteCheck;
  afterCommit?: AfterCommit;
}

export class WritePipeline {
  private readonly checks = new Map<string, WriteCheck[]>();
  private readonly effects = new Map<string, AfterCommit[]>();

  constructor(registrations: readonly WriteRegistration[] = []) {
    const add = <T>(map: Map<string, T[]>, table: string, fn: T | undefined) => {
      if (!fn) return;
      const list = map.get(table);
      if (list) list.push(fn);
      else map.set(table, [fn]);
    };
    for (const r of registrations) {
      add(this.checks, r.table, r.check);
      add(this.effects, r.table, r.afterCommit);
    }
  }

  /** The checks of `table` in registration order; the first refusal stands. */
  async check(table: string, method: string, body: unknown): Promise<void> {
    const list = this.checks.get(table);
    if (list) for (const check of list) await check(table, method, body);
  }

  /** Every effect of `table` runs, one failing or not. */
  async afterCommit(table: string, method: string, log: FastifyBaseLogger): Promise<void> {
    const list = this.effects.get(table);
    if (!list) return;
    for (const effect of list) {
      try {
        await effect(table, method);
      } catch (err) {
        log.error({ err, table, method }, 'an effect after a committed write failed');
      }
    }
  }
}
