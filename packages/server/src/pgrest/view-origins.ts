/**
 * Where a view's columns come from, read from the view's stored query tree (pg_rewrite.ev_action,
 * the source PostgREST uses for the same purpose). Each top-level target entry of the view's
 * query carries `resorigtbl`/`resorigcol`: the table (or view) and column it is a plain reference
 * to, or 0 when it is an expression, an aggregate or a UNION branch.
 *
 * Knowing the exact origin is what lets a view inherit foreign keys safely: a view column is a key
 * column only when it *is* that column of that table, not merely a column with the same name.
 */
export interface TargetOrigin {
  /** the view column's attribute number */
  resno: number;
  /** pg_class oid of the origin relation, 0 when none */
  table: number;
  /** attribute number in the origin relation */
  column: number;
}

/** The node tree escapes special characters with a backslash; depth counting must skip them. */
function findTopTargetList(action: string): number {
  let depth = 0;
  for (let i = 0; i < action.length; i++) {
    const ch = action[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '(' || ch === '{') depth++;
    else if (ch === ')' || ch === '}') depth--;
    // depth 2: inside the rule's action list "(" and the outermost "{QUERY"
    else if (depth === 2 && ch === ':' && action.startsWith(':targetList ', i)) return i + ':targetList '.length;
  }
  return -1;
}

export function viewTargetOrigins(action: string): TargetOrigin[] {
  const start = findTopTargetList(action);
  if (start < 0 || action[start] !== '(') return [];
  const entries: string[] = [];
  let depth = 0;
  let entryStart = -1;
  for (let i = start; i < action.length; i++) {
    const ch = action[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '(' || ch === '{') {
      depth++;
      if (depth === 2 && ch === '{') entryStart = i;
    } else if (ch === ')' || ch === '}') {
      if (depth === 2 && ch === '}' && entryStart >= 0) {
        entries.push(action.slice(entryStart, i));
        entryStart = -1;
      }
      depth--;
      if (depth === 0) break;
    }
  }
  const out: TargetOrigin[] = [];
  for (const entry of entries) {
    // The entry's own fields follow its expression, which may hold sub-queries with target entries
    // of their own: the last `:resno` is the entry's.
    const tail = entry.slice(entry.lastIndexOf(':resno '));
    const m = /^:resno (\d+) .*:resorigtbl (\d+) :resorigcol (\d+) :resjunk (true|false)/s.exec(tail);
    if (!m || m[4] === 'true') continue;
    out.push({ resno: Number(m[1]), table: Number(m[2]), column: Number(m[3]) });
  }
  return out;
}
