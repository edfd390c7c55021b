/**
 * The URL language: select trees, filters (with not./or/and), order, limit/offset. Pure parsing;
 * names are checked against the schema later, when the plan is built.
 */
import { RestError, parseError } from './errors.ts';

export interface Field {
  column: string;
  /** JSON path after the column: each step with its arrow; an unquoted integer key is an index */
  path: { arrow: '->' | '->>'; key: string; quoted?: boolean }[];
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: Field; alias?: string; cast?: string }
  | {
      kind: 'embed';
      relation: string;
      alias?: string;
      hint?: string;
      join?: 'inner' | 'left';
      /** `...rel(cols)`: the to-one embed's columns are lifted into the parent row */
      spread?: boolean;
      /** empty for `rel()`: the embed filters its parent (`rel=is.null`) but is not in the answer */
      select: SelectItem[];
    };

type Operator =
  | 'eq'
  | 'neq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'in'
  | 'is'
  | 'isdistinct'
  | 'cs'
  | 'cd'
  | 'ov'
  | 'sl'
  | 'sr'
  | 'nxr'
  | 'nxl'
  | 'adj'
  | 'fts'
  | 'plfts'
  | 'phfts'
  | 'wfts'
  | 'filter';

const OPERATORS = new Set<string>([
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
  'in',
  'is',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'filter',
]);

export interface Condition {
  kind: 'cond';
  field: Field;
  negate: boolean;
  op: Operator;
  /** `any`/`all` modifiers (eq(any).{a,b}) or the fts language */
  modifier?: string;
  value: string;
  /**
   * Index of the query pair the value came from (top-level filters only): the SQL builder binds
   * the value as a parameter that a cached plan takes from that pair again (plan-cache.ts).
   */
  slot?: number;
}
export interface Logic {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  items: Filter[];
}
export type Filter = Condition | Logic;

export interface OrderTerm {
  field: Field;
  /** `rel(col)`: a column of the to-one embed named rel (its alias when it has one) */
  relation?: string;
  desc: boolean;
  nulls?: 'first' | 'last';
}

/**
 * Splits on `sep` at depth 0, honouring parentheses, braces (array literals such as
 * `tags.cs.{a,b}` inside `or=(...)`) and double-quoted strings.
 */
function splitTop(text: string, sep = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\' && i + 1 < text.length) {
        cur += ch + text[++i];
        continue;
      }
      if (ch === '"') quoted = false;
      cur += ch;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(' || ch === '{') depth++;
    else if (ch === ')' || ch === '}') depth--;
    if (depth < 0) throw parseError(`unbalanced parentheses in "${text}"`);
    if (ch === sep && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (depth !== 0 || quoted) throw parseError(`unbalanced parentheses or quotes in "${text}"`);
  out.push(cur);
  return out;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** Index of `token` in `text` outside double-quoted parts (quoted JSON keys may hold `.` or `::`). */
function indexOutsideQuotes(text: string, token: string, from = 0): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    if (quoted && text[i] === '\\') i++;
    else if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text.startsWith(token, i)) return i;
  }
  return -1;
}

const JSON_KEY = /^[A-Za-z0-9_$ .:@]+$/;

/**
 * `col`, `col->key->>key`, `col->0`, and quoted keys for anything else: `labels->>"app.kubernetes.io/name"`.
 * Keys are values (bound as parameters when the SQL is built), the column an identifier.
 */
export function parseField(text: string): Field {
  const t = text.trim();
  const arrow = t.indexOf('->');
  const column = arrow >= 0 ? t.slice(0, arrow) : t;
  if (!IDENT.test(column)) throw parseError(`"${column}" is not a valid column name`);
  const path: Field['path'] = [];
  let i = arrow >= 0 ? arrow : t.length;
  while (i < t.length) {
    const op = t.startsWith('->>', i) ? '->>' : t.startsWith('->', i) ? '->' : undefined;
    if (!op) throw parseError(`"${text}" is not a column or JSON path`);
    i += op.length;
    let key: string;
    const quoted = t[i] === '"';
    if (quoted) {
      const end = closingQuote(t, i);
      if (end < 0) throw parseError(`unterminated quoted key in "${text}"`);
      key = t.slice(i + 1, end).replace(/\\(.)/g, '$1');
      i = end + 1;
      if (!key || key.includes('\0')) throw parseError(`"${text}" has an invalid JSON key`);
    } else {
      const next = t.indexOf('->', i);
      key = t.slice(i, next < 0 ? t.length : next);
      i = next < 0 ? t.length : next;
      if (!JSON_KEY.test(key) && !/^-?\d+$/.test(key))
        throw parseError(`"${key}" is not a valid JSON key (quote it: "${key}")`);
    }
    path.push({ arrow: op, key, quoted: quoted || undefined });
  }
  return { column, path };
}

/** The index of the `"` closing the quoted part opening at `open` (backslash escapes). */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * Nesting a parser follows at most (embeds in a select, or()/and() in a filter). Far above what a
 * request needs (the embed depth limit is checked later, limits.ts): it only keeps a hostile URL
 * from recursing until the stack overflows.
 */
const MAX_NESTING = 32;

export function parseSelect(text: string, depth = 0): SelectItem[] {
  if (depth > MAX_NESTING) throw parseError(`select is nested more than ${MAX_NESTING} levels deep`);
  if (!text.trim()) return [{ kind: 'star' }];
  return splitTop(text).map((raw) => parseSelectItem(raw.trim(), depth));
}

function parseSelectItem(raw: string, depth: number): SelectItem {
  if (!raw) throw parseError('empty item in select');
  if (raw === '*') return { kind: 'star' };
  // aggregates (`count()`, `amount.sum()`): refused with PostgREST's own error for a server
  // where they are disabled (its default); an aggregate over a whole table escapes the row cap
  if (/^([A-Za-z_][A-Za-z0-9_]*:)?([^()]*\.(sum|avg|max|min|count)|count)\(\)(::[A-Za-z0-9_]+)?$/.test(raw)) {
    throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  }
  const paren = raw.indexOf('(');
  if (paren >= 0) {
    if (!raw.endsWith(')')) throw parseError(`malformed embed "${raw}"`);
    const spread = raw.startsWith('...');
    let head = raw.slice(spread ? 3 : 0, paren);
    const inner = raw.slice(paren + 1, -1);
    let alias: string | undefined;
    const colon = head.indexOf(':');
    // a spread has no name of its own to alias (`alias:...rel()` does not parse in PostgREST either)
    if (colon >= 0 && spread)
      throw parseError(`"${raw.slice(0, paren)}" is not a valid embed`, 'A spread embed cannot be aliased.');
    if (colon >= 0) {
      alias = head.slice(0, colon);
      head = head.slice(colon + 1);
    }
    const [relation, ...bangs] = head.split('!');
    let hint: string | undefined;
    let join: 'inner' | 'left' | undefined;
    for (const b of bangs) {
      if (b === 'inner' || b === 'left') join = b;
      else hint = b;
    }
    if (
      !IDENT.test(relation) ||
      (alias !== undefined && !IDENT.test(alias)) ||
      (hint !== undefined && !IDENT.test(hint))
    ) {
      throw parseError(`"${raw.slice(0, paren)}" is not a valid embed`);
    }
    // `rel()` selects nothing (an empty embed); a select that is empty elsewhere means `*`
    const select = inner.trim() === '' ? [] : parseSelect(inner, depth + 1);
    return { kind: 'embed', relation, alias, hint, join, spread: spread || undefined, select };
  }
  let body = raw;
  let alias: string | undefined;
  // alias:field — but `::` is a cast, not an alias
  const aliasMatch = /^([A-Za-z_][A-Za-z0-9_]*):(?!:)(.*)$/.exec(body);
  if (aliasMatch) {
    alias = aliasMatch[1];
    body = aliasMatch[2];
  }
  let cast: string | undefined;
  const castAt = indexOutsideQuotes(body, '::');
  if (castAt >= 0) {
    cast = body.slice(castAt + 2);
    body = body.slice(0, castAt);
  }
  return { kind: 'field', field: parseField(body), alias, cast };
}

/** `op[(mod)].value` after an optional `not.`: operator, modifier, value */
export const OPERATION = /^([a-z]+)(?:\(([A-Za-z_]+)\))?\.([\s\S]*)$/;

/** `[not.]op[(mod)].value` as found after `col=` */
export function parseOperation(field: Field, text: string): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const m = OPERATION.exec(rest);
  if (!m || !OPERATORS.has(m[1])) throw parseError(`"${text}" is not a valid filter (expected operator.value)`);
  return { kind: 'cond', field, negate, op: m[1] as Operator, modifier: m[2], value: m[3] };
}

/** The value of or=/and=: `(item,item,...)` where an item is a condition or a nested logic. */
export function parseLogic(op: 'and' | 'or', negate: boolean, text: string, depth = 0): Logic {
  if (depth > MAX_NESTING) throw parseError(`"${op}" is nested more than ${MAX_NESTING} levels deep`);
  if (!text.startsWith('(') || !text.endsWith(')')) throw parseError(`"${op}" expects a parenthesised list`);
  const items = splitTop(text.slice(1, -1)).map((raw) => parseLogicItem(raw.trim(), depth));
  return { kind: 'logic', op, negate, items };
}

function parseLogicItem(raw: string, depth: number): Filter {
  const logic = /^(not\.)?(and|or)(\(.*\))$/s.exec(raw);
  if (logic) return parseLogic(logic[2] as 'and' | 'or', !!logic[1], logic[3], depth + 1);
  // field.op.value — the field may contain JSON arrows, and dots only inside quoted keys
  const dot = indexOutsideQuotes(raw, '.');
  if (dot <= 0) throw parseError(`"${raw}" is not a valid filter`);
  const cond = parseOperation(parseField(raw.slice(0, dot)), raw.slice(dot + 1));
  // Inside or=()/and=() a value holding `,` or `)` is double-quoted (PostgREST's grammar, and what
  // postgrest-js writes): the quotes are syntax, not part of the value.
  return { ...cond, value: unquote(cond.value) };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  return value;
}

export function parseOrder(text: string): OrderTerm[] {
  return splitTop(text)
    .filter((t) => t.trim())
    .map((term) => {
      let trimmed = term.trim();
      // `rel(col->k).desc`: ordering by a column of a to-one embed
      const related = /^([A-Za-z_][A-Za-z0-9_$]*)\(([^()]*)\)((?:\..*)?)$/s.exec(trimmed);
      if (related) trimmed = related[2] + related[3];
      const dot = indexOutsideQuotes(trimmed, '.', related ? related[2].length : 0);
      const field = parseField(dot < 0 ? trimmed : trimmed.slice(0, dot));
      const parts = dot < 0 ? [] : trimmed.slice(dot + 1).split('.');
      let desc = false;
      let nulls: OrderTerm['nulls'];
      for (const p of parts) {
        if (p === 'desc') desc = true;
        else if (p === 'asc') desc = false;
        else if (p === 'nullsfirst') nulls = 'first';
        else if (p === 'nullslast') nulls = 'last';
        else throw parseError(`"${term}" is not a valid order term`);
      }
      return { field, desc, nulls, relation: related?.[1] };
    });
}

/**
 * `columns=` and `on_conflict=`: comma-separated column names, each possibly double-quoted
 * (postgrest-js sends `columns="id","name"` for bulk inserts).
 */
export function parseColumnList(text: string): string[] {
  return splitTop(text)
    .map((c) => unquote(c.trim()))
    .filter(Boolean);
}

/** Values of in.(...) and the lists in cs/cd/ov: comma separated, double quotes allowed. */
export function parseList(text: string): string[] {
  const t = text.trim();
  const inner =
    t.startsWith('(') && t.endsWith(')') ? t.slice(1, -1) : t.startsWith('{') && t.endsWith('}') ? t.slice(1, -1) : t;
  if (inner === '') return [];
  return splitTop(inner).map((v) => {
    const s = v.trim();
    return unquote(s);
  });
}

/**
 * The raw query string as ordered pairs. Repeated keys are kept (filters may repeat a column);
 * empty pieces (`?&select=*`) are skipped; `+` is a space as in form encoding.
 */
export function parseQueryString(qs: string): [string, string][] {
  const out: [string, string][] = [];
  for (const piece of qs.split('&')) {
    if (!piece) continue;
    const eq = piece.indexOf('=');
    const rawKey = eq >= 0 ? piece.slice(0, eq) : piece;
    const rawVal = eq >= 0 ? piece.slice(eq + 1) : '';
    try {
      out.push([decodeURIComponent(rawKey.replace(/\+/g, ' ')), decodeURIComponent(rawVal.replace(/\+/g, ' '))]);
    } catch {
      throw parseError(`malformed percent-encoding in "${piece}"`);
    }
  }
  return out;
}
