import { createHash } from 'node:crypto';
import type { Queryable } from '../db/index.ts';

/**
 * Demo rows get deterministic ids in one recognisable range: 'd3e30000-' followed by the tail of
 * md5(kind:key). Re-seeding finds and replaces them by that range (an index range scan), and
 * the same key always yields the same id, in TypeScript (did) and in SQL (didSql).
 */
const DEMO_ID_PREFIX = 'd3e30000';
export const DEMO_ID_MIN = 'd3e30000-0000-0000-0000-000000000000';
export const DEMO_ID_MAX = 'd3e30000-ffff-ffff-ffff-ffffffffffff';

export function did(kind: string, key: string | number): string {
  const h = DEMO_ID_PREFIX + createHash('md5').update(`${kind}:${key}`).digest('hex').slice(8);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** mulberry32: a small seeded PRNG so every seed run produces the same data. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [v, w] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1][0];
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Shared state of one seed run: the transaction, "now" as the database sees it, the PRNG. */
export interface SeedContext {
  tx: Queryable;
  nowMs: number;
  rng: Rng;
  counts: Record<string, number>;
}

/** An ISO timestamp `ms` milliseconds before the database's now(). */
export function ago(ctx: SeedContext, ms: number): string {
  return new Date(ctx.nowMs - ms).toISOString();
}

export function ahead(ctx: SeedContext, ms: number): string {
  return new Date(ctx.nowMs + ms).toISOString();
}

export type Row = Record<string, unknown>;

/**
 * Inserts rows set-based: the rows travel as one bound jsonb parameter and
 * jsonb_populate_recordset turns them into the table's row type. Rows are grouped by the set of
 * columns they name, so a column a row leaves out gets its default, never NULL.
 */
export async function insertRows(ctx: SeedContext, table: string, rows: Row[], onConflict = ''): Promise<void> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const keys = Object.keys(r)
      .filter((k) => r[k] !== undefined)
      .sort()
      .join(',');
    if (!groups.has(keys)) groups.set(keys, []);
    groups.get(keys)!.push(r);
  }
  const chunk = 2000;
  for (const [keys, group] of groups) {
    const list = keys
      .split(',')
      .map((c) => `"${c}"`)
      .join(', ');
    for (let i = 0; i < group.length; i += chunk) {
      await ctx.tx.query(
        `INSERT INTO ${table} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb) ${onConflict}`,
        [JSON.stringify(group.slice(i, i + chunk))],
      );
    }
  }
  ctx.counts[table] = (ctx.counts[table] ?? 0) + rows.length;
}
