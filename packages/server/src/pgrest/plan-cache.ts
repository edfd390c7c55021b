/**
 * Reads of the same shape share one plan. A screen asks the same question with other values
 * (`configs?id=eq.<id>`, a list page with another type, page or search), and parsing the select
 * tree, resolving embeds and writing the SQL is most of the engine's own work per request. So a
 * GET on a table is reduced to its shape: the query pairs with the values of plain comparisons
 * (`eq`, `like`, `in`, ...), `limit` and `offset` replaced by a placeholder; everything else
 * (select, order, `or=(...)`, tri-state filters, JSON paths, embed paging, `count`) stays verbatim.
 * The first request of a shape is planned as usual and, when it plans without error, its SQL is
 * kept with the source of every parameter (sql.ts `ParamSource`); later requests of that shape
 * only bind their own values. Only plans are cached, never results: every request still runs its
 * statement, and the RBAC hook still sees every relation the plan touches.
 */
import { OPERATION, parseList } from './parse.ts';
import { classifyKey } from './request.ts';
import { rootPage, type Plan } from './plans.ts';
import type { Prefer } from './respond.ts';
import type { ParamSource } from './sql.ts';

/** Operators whose value is only ever a bound parameter (the SQL text does not depend on it). */
const VALUE_OPERATORS = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'isdistinct',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'in',
]);
/** the full-text operators take a language in the modifier (part of the shape); others take any/all lists */
const LANGUAGE_OPERATORS = new Set(['fts', 'plfts', 'phfts', 'wfts']);

/** One read's shape: the cache key, the pairs whose values it binds, and the root page. */
export interface Shape {
  key: string;
  slots: number[];
  limit: number;
  offset: number;
}

interface Entry {
  sql: string;
  params: unknown[];
  sources: (ParamSource | undefined)[];
  touched: string[];
}

/** The value of a filter pair (`not.eq.x` -> `x`), when its operator only binds it. */
function boundValue(text: string): { op: string; value: string } | undefined {
  const m = OPERATION.exec(text.startsWith('not.') ? text.slice(4) : text);
  if (!m || !VALUE_OPERATORS.has(m[1])) return undefined;
  if (m[2] !== undefined && !LANGUAGE_OPERATORS.has(m[1])) return undefined; // eq(any).{...}: a list
  return { op: m[1], value: m[3] };
}

export class PlanCache {
  private entries = new Map<string, Entry>();
  constructor(private readonly max = 1000) {}

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The shape of a GET on `table`, or undefined when it is not worth sharing (a malformed
   * limit/offset or list: the normal path reports the error).
   */
  shapeOf(
    table: string,
    pairs: [string, string][],
    prefer: Prefer,
    range: { offset: number; limit?: number } | undefined,
    rowCap: number,
  ): Shape | undefined {
    const parts: string[] = [table, prefer.count ? 'count' : ''];
    const slots: number[] = [];
    let limit: number | undefined;
    let offset: number | undefined;
    for (let i = 0; i < pairs.length; i++) {
      const [key, value] = pairs[i];
      const k = classifyKey(key);
      if ((k.kind === 'limit' || k.kind === 'offset') && k.path === '') {
        if (!/^\d+$/.test(value)) return undefined;
        if (k.kind === 'limit') limit = Number(value);
        else offset = Number(value);
        parts.push(key, '');
        continue;
      }
      const bound = k.kind === 'filter' ? boundValue(value) : undefined;
      if (bound) {
        if (bound.op === 'in') {
          let items: string[];
          try {
            items = parseList(bound.value);
          } catch {
            return undefined;
          }
          // an empty list is `false` in SQL: a shape of its own
          if (!items.length) {
            parts.push(key, value);
            continue;
          }
        }
        slots.push(i);
        parts.push(key, value.slice(0, value.length - bound.value.length) + '\u0000');
        continue;
      }
      parts.push(key, value);
    }
    let page: { limit: number; offset: number };
    try {
      page = rootPage(limit, offset, range, rowCap);
    } catch {
      return undefined; // an unsatisfiable range: the normal path reports it
    }
    // OFFSET is only written when there is one
    parts.push(page.offset > 0 ? 'offset' : '');
    return { key: JSON.stringify(parts), slots, ...page };
  }

  /** The plan for a request of a known shape, with the request's own values, or undefined. */
  plan(shape: Shape, pairs: [string, string][], touched: Set<string>): Plan | undefined {
    const e = this.entries.get(shape.key);
    if (!e) return undefined;
    const params = e.params.slice();
    for (let j = 0; j < e.sources.length; j++) {
      const src = e.sources[j];
      if (!src) continue;
      if ('root' in src) params[j] = src.root === 'limit' ? shape.limit : shape.offset;
      else {
        const v = boundValue(pairs[src.slot][1])!.value;
        params[j] = src.as === 'raw' ? v : src.as === 'like' ? v.replace(/\*/g, '%') : parseList(v);
      }
    }
    for (const t of e.touched) touched.add(t);
    return { kind: 'read', statements: [{ sql: e.sql, params }], offset: shape.offset };
  }

  /** Keeps a freshly built read plan for its shape (when every bound value has its source). */
  remember(shape: Shape, plan: Plan, touched: Set<string>): void {
    if (plan.kind !== 'read' || plan.statements.length !== 1) return;
    const { sql, params, sources } = plan.statements[0];
    if (!sources || sources.length !== params.length) return;
    const bound = new Set(sources.flatMap((s) => (s && 'slot' in s ? [s.slot] : [])));
    if (!shape.slots.every((s) => bound.has(s))) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(shape.key, { sql, params: params.slice(), sources, touched: [...touched] });
  }
}
