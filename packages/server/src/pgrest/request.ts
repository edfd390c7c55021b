import { parseError } from './errors.ts';
import {
  parseColumnList,
  parseField,
  parseLogic,
  parseOperation,
  parseOrder,
  parseSelect,
  type Filter,
  type OrderTerm,
  type SelectItem,
} from './parse.ts';

/**
 * A /api/db read or write request, interpreted from the query pairs. Filters, order, limit and
 * offset can target the root (path '') or an embed by its alias path ('rel', 'rel.sub').
 */
export interface RequestModel {
  select: SelectItem[];
  filters: Map<string, Filter[]>;
  order: Map<string, OrderTerm[]>;
  limit: Map<string, number>;
  offset: Map<string, number>;
  columns?: string[];
  onConflict?: string[];
  /** query pairs not used as filters (RPC arguments on GET) */
  rest: [string, string][];
}

const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);

function nonNegativeInt(text: string, what: string): number {
  if (!/^\d+$/.test(text)) throw parseError(`"${what}" must be a non-negative integer, got "${text}"`);
  return Number(text);
}

function push<T>(map: Map<string, T[]>, key: string, value: T) {
  map.set(key, [...(map.get(key) ?? []), value]);
}

/** `or`, `not.or`, `rel.and`, `rel.not.or` ... */
function logicKeyOf(key: string): { path: string; op: 'or' | 'and'; negate: boolean } | undefined {
  const parts = key.split('.');
  const op = parts.pop();
  if (op !== 'or' && op !== 'and') return undefined;
  let negate = false;
  if (parts[parts.length - 1] === 'not') {
    parts.pop();
    negate = true;
  }
  return { path: parts.join('.'), op, negate };
}

/** What a query pair is, from its key alone (interpret and the plan cache must agree). */
export type PairKind =
  | { kind: 'select' | 'columns' | 'on_conflict' }
  | { kind: 'logic'; path: string; op: 'or' | 'and'; negate: boolean }
  | { kind: 'order' | 'limit' | 'offset' | 'filter' | 'reserved'; path: string; last: string };

export function classifyKey(key: string): PairKind {
  if (key === 'select' || key === 'columns' || key === 'on_conflict') return { kind: key };
  const logic = logicKeyOf(key);
  if (logic) return { kind: 'logic', ...logic };
  // Split `rel.sub.last`; a JSON path (contains ->) before any dot is a root field.
  const arrow = key.indexOf('->');
  const dot = key.lastIndexOf('.', arrow >= 0 ? arrow : key.length);
  const path = dot > 0 ? key.slice(0, dot) : '';
  const last = dot > 0 ? key.slice(dot + 1) : key;
  if (last === 'order' || last === 'limit' || last === 'offset') return { kind: last, path, last };
  if (RESERVED.has(last) && path) return { kind: 'reserved', path, last };
  return { kind: 'filter', path, last };
}

/**
 * `argNames`: for RPC on GET, pairs whose key is an argument name are arguments, not filters.
 */
export function interpret(pairs: [string, string][], argNames: Set<string> = new Set()): RequestModel {
  const model: RequestModel = {
    select: [{ kind: 'star' }],
    filters: new Map(),
    order: new Map(),
    limit: new Map(),
    offset: new Map(),
    rest: [],
  };
  let selectSeen = false;
  const orderSeen = new Set<string>();
  for (let i = 0; i < pairs.length; i++) {
    const [key, value] = pairs[i];
    if (argNames.has(key)) {
      model.rest.push([key, value]);
      continue;
    }
    const k = classifyKey(key);
    switch (k.kind) {
      case 'select':
        if (!selectSeen) model.select = parseSelect(value); // duplicated select: the first wins
        selectSeen = true;
        break;
      case 'columns':
        model.columns = parseColumnList(value);
        break;
      case 'on_conflict':
        model.onConflict = parseColumnList(value);
        break;
      case 'logic':
        push(model.filters, k.path, parseLogic(k.op, k.negate, value));
        break;
      case 'order':
        if (!orderSeen.has(k.path)) model.order.set(k.path, parseOrder(value)); // first wins
        orderSeen.add(k.path);
        break;
      case 'limit':
        // a negative root limit is PostgREST's 416 (plans.ts rootPage), not a parse error
        if (k.path === '' && /^-\d+$/.test(value)) model.limit.set('', Number(value));
        else model.limit.set(k.path, nonNegativeInt(value, key));
        break;
      case 'offset':
        model.offset.set(k.path, nonNegativeInt(value, key));
        break;
      case 'reserved':
        throw parseError(`"${key}" is not supported`);
      case 'filter': {
        const cond = parseOperation(parseField(k.last), value);
        cond.slot = i;
        push(model.filters, k.path, cond);
        break;
      }
    }
  }
  return model;
}
