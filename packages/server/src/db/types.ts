/**
 * The one database abstraction the server uses. Two drivers implement it: node-postgres (a pool,
 * for production) and PGlite (in-process PostgreSQL, the embedded default). Everything above this
 * layer writes plain PostgreSQL and passes values as bound parameters ($1, $2, ...).
 */
export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  rowCount: number;
  fields: { name: string; dataTypeID: number }[];
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly driver: 'pg' | 'pglite';
  /** Runs fn inside BEGIN/COMMIT on one connection; ROLLBACK when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs a read and hands each row to onRow as it arrives, keeping none: for results of thousands
   * of rows that are turned into something else row by row (the health summary), so the rows die
   * young instead of all staying alive until the last one is in. Resolves with the row count; a
   * throw from onRow stops the handing out and rejects once the statement has finished.
   */
  /**
   * Runs a read-only statement that returns exactly one row whatever its values (an aggregate,
   * like every /api/db read). On PostgreSQL, when every pooled connection is busy, concurrent
   * reads of the same text are sent as one statement (db/read-batch.ts).
   */
  readRow<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T>;
  /** PostgreSQL only: how many statements were sent as batches, answering how many reads */
  batchStats?(): { batches: number; batched: number };
  /** PostgreSQL only: the pool's size, its open connections, the idle ones and the checkouts waiting */
  poolStats?(): { max: number; total: number; idle: number; waiting: number };
  each<T = Record<string, unknown>>(sql: string, params: unknown[], onRow: (row: T) => void): Promise<number>;
  close(): Promise<void>;
}
