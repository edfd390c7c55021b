import type { Queryable } from '../db/index.ts';
import { viewTargetOrigins } from './view-origins.ts';

/**
 * What the engine knows of the database, read from pg_catalog once (reload() after migrations).
 * Every identifier in a request is resolved against this before it reaches SQL.
 */
interface Column {
  name: string;
  /** format_type(), e.g. 'text', 'timestamp with time zone', 'text[]' */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

export interface Relation {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, Column>;
  primaryKey: string[];
}

/** A foreign key: from.columns reference to.columns. Views inherit the keys of their base tables. */
export interface ForeignKey {
  name: string;
  from: string;
  fromColumns: string[];
  to: string;
  toColumns: string[];
  /** the target was substituted by a view over the real target (see loadSchemaCache) */
  viaView?: boolean;
}

export interface FunctionDef {
  name: string;
  args: { name: string; type: string; hasDefault: boolean }[];
  returnType: string;
  returnsSet: boolean;
  /** the relation whose rows it returns (composite or table type), if any */
  returnsRelation?: string;
}

export interface SchemaCache {
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  /** by name; several when the function is overloaded */
  functions: Map<string, FunctionDef[]>;
}

export async function loadSchemaCache(db: Queryable, schema = 'public'): Promise<SchemaCache> {
  const cols = await db.query<{
    oid: number;
    rel: string;
    kind: string;
    col: string;
    type: string;
    notnull: boolean;
    hasdef: boolean;
    num: number;
  }>(
    `SELECT c.oid::int8 AS oid, c.relname AS rel, c.relkind AS kind, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS notnull, a.atthasdef AS hasdef, a.attnum AS num
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
     ORDER BY c.relname, a.attnum`,
    [schema],
  );
  const relations = new Map<string, Relation>();
  for (const r of cols.rows) {
    let rel = relations.get(r.rel);
    if (!rel) {
      rel = {
        name: r.rel,
        kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table',
        columns: new Map(),
        primaryKey: [],
      };
      relations.set(r.rel, rel);
    }
    rel.columns.set(r.col, { name: r.col, type: r.type, nullable: !r.notnull, hasDefault: r.hasdef });
  }

  const cons = await db.query<{
    name: string;
    type: string;
    rel: string;
    cols: string[];
    frel: string | null;
    fcols: string[] | null;
  }>(
    `SELECT con.conname AS name, con.contype AS type, c.relname AS rel,
            ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
                  JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS cols,
            fc.relname AS frel,
            ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
                  JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS fcols
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_class fc ON fc.oid = con.confrelid
     WHERE n.nspname = $1 AND con.contype IN ('p', 'f')
     ORDER BY con.conname`,
    [schema],
  );
  const foreignKeys: ForeignKey[] = [];
  for (const c of cons.rows) {
    if (c.type === 'p') {
      const rel = relations.get(c.rel);
      if (rel) rel.primaryKey = c.cols;
    } else if (c.frel && c.fcols) {
      foreignKeys.push({ name: c.name, from: c.rel, fromColumns: c.cols, to: c.frel, toColumns: c.fcols });
    }
  }

  // Views inherit the foreign keys of the base columns they expose, in both directions, as
  // PostgREST does: `checks_summary?select=*,canaries(name)` embeds like the table would. The
  // origin of each view column is read from the view's query tree (see view-origins.ts), so a
  // join view only inherits keys through the columns it really passes through, renamed or not.
  const actions = await db.query<{ view: string; action: string }>(
    `SELECT v.relname AS view, r.ev_action::text AS action
     FROM pg_rewrite r JOIN pg_class v ON v.oid = r.ev_class JOIN pg_namespace n ON n.oid = v.relnamespace
     WHERE n.nspname = $1 AND v.relkind IN ('v', 'm') AND r.rulename = '_RETURN'`,
    [schema],
  );
  const byOid = new Map<number, string>();
  const attName = new Map<string, Map<number, string>>();
  for (const r of cols.rows) {
    byOid.set(Number(r.oid), r.rel);
    if (!attName.has(r.rel)) attName.set(r.rel, new Map());
    attName.get(r.rel)!.set(r.num, r.col);
  }
  // view -> view column -> the column it is a plain reference to (possibly in another view)
  const direct = new Map<string, Map<string, { table: string; column: string }>>();
  for (const a of actions.rows) {
    const cols = new Map<string, { table: string; column: string }>();
    for (const o of viewTargetOrigins(a.action)) {
      const col = attName.get(a.view)?.get(o.resno);
      const table = byOid.get(o.table);
      const column = table ? attName.get(table)?.get(o.column) : undefined;
      if (col && table && column) cols.set(col, { table, column });
    }
    direct.set(a.view, cols);
  }
  // Follow views over views down to a base table column (bounded: a view cannot depend on itself).
  const baseOrigin = (view: string, col: string, hops = 0): { table: string; column: string } | undefined => {
    const o = direct.get(view)?.get(col);
    if (!o || hops > 32) return undefined;
    return direct.has(o.table) ? baseOrigin(o.table, o.column, hops + 1) : o;
  };
  // view -> "table.column" of a base column -> the (first) view column passing it through
  const passes = new Map<string, Map<string, string>>();
  for (const [view, viewCols] of direct) {
    const m = new Map<string, string>();
    for (const vc of viewCols.keys()) {
      const o = baseOrigin(view, vc);
      const key = o && `${o.table}\0${o.column}`;
      if (key && !m.has(key)) m.set(key, vc);
    }
    passes.set(view, m);
  }
  /** every relation exposing `cols` of `table`: the table itself and the views passing them through */
  const exposing = (table: string, cols: string[]): { rel: string; cols: string[]; view: boolean }[] => {
    const out = [{ rel: table, cols, view: false }];
    for (const [view, m] of passes) {
      const mapped = cols.map((c) => m.get(`${table}\0${c}`));
      if (mapped.every((c) => c !== undefined)) out.push({ rel: view, cols: mapped as string[], view: true });
    }
    return out;
  };
  const inferred: ForeignKey[] = [];
  for (const fk of foreignKeys) {
    const froms = exposing(fk.from, fk.fromColumns);
    const tos = exposing(fk.to, fk.toColumns);
    for (const f of froms) {
      for (const t of tos) {
        if (!f.view && !t.view) continue; // the key itself
        inferred.push({
          ...fk,
          from: f.rel,
          fromColumns: f.cols,
          to: t.rel,
          toColumns: t.cols,
          viaView: t.view || undefined,
        });
      }
    }
  }
  // Fallback for view columns without a single origin (UNION branches, CASE/coalesce over keys):
  // when every table the view reads that has a column of that name holds it as a one-column key
  // to the same target column, the view column references that target too (many-to-one only:
  // nothing can point *at* such a column, its values come from several tables).
  const usage = await db.query<{ view: string; base: string; cols: string[] | null }>(
    `SELECT v.relname AS view, t.relname AS base,
            array_agg(DISTINCT a.attname::text) FILTER (WHERE a.attname IS NOT NULL) AS cols
     FROM pg_class v JOIN pg_namespace n ON n.oid = v.relnamespace
     JOIN pg_rewrite r ON r.ev_class = v.oid
     JOIN pg_depend d ON d.objid = r.oid AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
     JOIN pg_class t ON t.oid = d.refobjid AND t.oid <> v.oid AND t.relkind IN ('r', 'p')
     LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
     WHERE n.nspname = $1 AND v.relkind IN ('v', 'm')
     GROUP BY v.relname, t.relname`,
    [schema],
  );
  const reads = new Map<string, { base: string; cols: Set<string> }[]>();
  for (const u of usage.rows) {
    if (!reads.has(u.view)) reads.set(u.view, []);
    reads.get(u.view)!.push({ base: u.base, cols: new Set(u.cols ?? []) });
  }
  for (const [view, bases] of reads) {
    const v = relations.get(view);
    if (!v) continue;
    for (const col of v.columns.keys()) {
      if (direct.get(view)?.has(col)) continue;
      const keys = bases
        .filter((b) => b.cols.has(col))
        .map((b) =>
          foreignKeys.find((fk) => fk.from === b.base && fk.fromColumns.length === 1 && fk.fromColumns[0] === col),
        );
      if (!keys.length || keys.some((k) => !k)) continue;
      const first = keys[0]!;
      if (keys.every((k) => k!.to === first.to && k!.toColumns[0] === first.toColumns[0])) {
        inferred.push({ ...first, from: view, fromColumns: [col] });
      }
    }
  }

  // A view exposing a base table's whole primary key has that key (the first such table in the
  // view's column order): it is the view's identity for embedding and for Location headers.
  for (const view of direct.keys()) {
    const v = relations.get(view);
    if (!v || v.primaryKey.length) continue;
    for (const vc of v.columns.keys()) {
      const o = baseOrigin(view, vc);
      const pk = o ? (relations.get(o.table)?.primaryKey ?? []) : [];
      if (!o || !pk.includes(o.column)) continue;
      const mapped = exposing(o.table, pk).find((e) => e.rel === view);
      if (mapped) {
        v.primaryKey = mapped.cols;
        break;
      }
    }
  }
  // de-duplicate: a view may expose the same key column twice
  const seen = new Set<string>();
  for (const fk of inferred) {
    const key = `${fk.name}|${fk.from}|${fk.fromColumns}|${fk.to}|${fk.toColumns}`;
    if (!seen.has(key)) {
      seen.add(key);
      foreignKeys.push(fk);
    }
  }

  const fns = await db.query<{
    name: string;
    argnames: string[] | null;
    argtypes: string[];
    ndefaults: number;
    rettype: string;
    retset: boolean;
    retrel: string | null;
  }>(
    // input argument names only: proargnames also lists OUT / TABLE columns, in declaration order
    `SELECT p.proname AS name,
            CASE WHEN p.proargnames IS NULL THEN NULL ELSE ARRAY(
              SELECT u.n FROM unnest(p.proargnames, coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[cardinality(p.proargnames)]))) AS u(n, m)
              WHERE u.m IN ('i', 'b', 'v'))::text[] END AS argnames,
            ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t)::text[] AS argtypes,
            p.pronargdefaults AS ndefaults, format_type(p.prorettype, NULL) AS rettype, p.proretset AS retset,
            rc.relname AS retrel
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     LEFT JOIN pg_type rt ON rt.oid = p.prorettype
     LEFT JOIN pg_class rc ON rc.oid = rt.typrelid
     WHERE n.nspname = $1 AND p.prokind = 'f'`,
    [schema],
  );
  const functions = new Map<string, FunctionDef[]>();
  for (const f of fns.rows) {
    const n = f.argtypes.length;
    if (!functions.has(f.name)) functions.set(f.name, []);
    functions.get(f.name)!.push({
      name: f.name,
      args: f.argtypes.map((type, i) => ({
        name: f.argnames?.[i] ?? `$${i + 1}`,
        type,
        hasDefault: i >= n - f.ndefaults,
      })),
      returnType: f.rettype,
      returnsSet: f.retset,
      returnsRelation: f.retrel ?? undefined,
    });
  }
  return { relations, foreignKeys, functions };
}
