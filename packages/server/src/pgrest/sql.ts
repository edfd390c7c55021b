/**
 * Turns a parsed request into one parameterised SQL statement that returns the JSON body as text.
 * Identifiers only ever come from the schema cache (quoted); values only ever as $n parameters.
 */
import { RestError, columnNotFound, parseError, tableNotFound } from './errors.ts';
import { parseList, type Condition, type Field, type Filter, type OrderTerm, type SelectItem } from './parse.ts';
import type { RequestModel } from './request.ts';
import type { ForeignKey, Relation, SchemaCache } from './schema-cache.ts';
import { MAX_SELECT_COLUMNS } from './limits.ts';

export interface BuildOptions {
  schema: SchemaCache;
  /** may this relation be read? (the allow-list) — throws PGRST205 otherwise */
  isExposed(relation: string): boolean;
  /** columns whose value is masked on read (connection secrets) */
  secretColumns(relation: string): string[];
  /** every relation the statement touches, for the RBAC hook */
  touched: Set<string>;
  /** the server row cap: also bounds each embedded array (per parent row) */
  rowCap?: number;
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** What a set secret reads as; written back, it means "leave the secret as it is". */
export const SECRET_MASK = '********';

/** Cast names PostgreSQL does not know by themselves (`double`) or spells differently. */
const CAST_ALIASES: Record<string, string> = { double: 'double precision' };

/**
 * `col::type`: any type PostgreSQL knows, as in PostgREST (an unknown one is the database's own
 * 42704), but the object-identifier types. The name is spliced unquoted, so it is held to a bare
 * identifier (letters, digits, `_`) with an optional `[]`: nothing else of the URL reaches the
 * statement this way.
 */
function castType(name: string): string {
  const lower = name.toLowerCase();
  if (CAST_ALIASES[lower]) return CAST_ALIASES[lower];
  if (!/^[a-z_][a-z0-9_]*(\[\])?$/.test(lower)) throw parseError(`"${name}" is not a valid type name`);
  // the object-identifier types read the system catalogs (`1259::regclass` names a table): a read
  // of /api/db never reaches what the schema cache does not expose
  if (/^(reg[a-z]*|oid|xid|cid|tid)(\[\])?$/.test(lower)) throw parseError(`casts to ${lower} are not allowed`);
  return lower;
}

/** What a select item yields: an expression and the key it has in the row's JSON. */
interface Entry {
  expr: string;
  name: string;
}

/** An embed as filters and order of its parent's level see it (`rel=is.null`, `order=rel(col)`). */
interface EmbedScope {
  kind: Relationship['kind'];
  target: Relation;
  alias: string;
  /** `FROM <target> AS <alias> [junction] WHERE <join and the embed's filters>` */
  from: string;
}

/**
 * Where a parameter's value comes from, for a plan reused by a request of the same shape
 * (plan-cache.ts): a query pair's filter value (raw, with `*` as the LIKE wildcard, or as a list),
 * or the root limit/offset. Parameters without a source are fixed by the shape itself.
 */
export type ParamSource = { slot: number; as: 'raw' | 'like' | 'list' } | { root: 'limit' | 'offset' };

export class Params {
  values: unknown[] = [];
  /** per parameter: its source, or undefined when the request's shape fixes it */
  sources: (ParamSource | undefined)[] = [];
  add(v: unknown, source?: ParamSource): string {
    this.values.push(v);
    this.sources.push(source);
    return `$${this.values.length}`;
  }
}

export class Builder {
  private aliasCounter = 0;
  constructor(
    private readonly opts: BuildOptions,
    readonly params: Params = new Params(),
  ) {}

  relation(name: string): Relation {
    const rel = this.opts.schema.relations.get(name);
    if (!rel || !this.opts.isExposed(name)) throw tableNotFound(name);
    this.opts.touched.add(name);
    return rel;
  }

  nextAlias(): string {
    return `t${++this.aliasCounter}`;
  }

  column(rel: Relation, name: string) {
    const col = rel.columns.get(name);
    if (!col) throw columnNotFound(rel.name, name);
    return col;
  }

  /**
   * A secret column (stored encrypted) never takes part in a comparison, an order or a JSON path:
   * each would be an oracle on the stored value. Only `is.null` / `not.is.null` may test it.
   */
  private guardSecret(rel: Relation, field: Field) {
    if (this.opts.secretColumns(rel.name).includes(field.column)) {
      throw parseError(
        `column ${rel.name}.${field.column} is secret: it can only be tested with is.null or not.is.null`,
      );
    }
  }

  /** `alias."col"->'a'->>'b'` */
  fieldExpr(rel: Relation, alias: string, field: Field): string {
    this.column(rel, field.column);
    let sql = `${alias}.${quoteIdent(field.column)}`;
    // keys are values like any other: bound, an integer one as an array index
    for (const step of field.path) {
      const key =
        !step.quoted && /^-?\d+$/.test(step.key)
          ? `${this.params.add(Number(step.key))}::int`
          : `${this.params.add(step.key)}::text`;
      sql += `${step.arrow}${key}`;
    }
    return sql;
  }

  /** The SQL type a value compared with this field should be cast to. */
  private fieldType(rel: Relation, field: Field): string {
    if (field.path.length === 0) return rel.columns.get(field.column)!.type;
    return field.path[field.path.length - 1].arrow === '->>' ? 'text' : 'jsonb';
  }

  // ---- filters ---------------------------------------------------------------------------

  filterSql(rel: Relation, alias: string, filter: Filter): string {
    if (filter.kind === 'logic') {
      if (filter.items.length === 0) throw parseError(`empty ${filter.op}()`);
      const inner = filter.items.map((f) => this.filterSql(rel, alias, f)).join(filter.op === 'or' ? ' OR ' : ' AND ');
      return `${filter.negate ? 'NOT ' : ''}(${inner})`;
    }
    const sql = this.conditionSql(rel, alias, filter);
    return filter.negate ? `NOT (${sql})` : sql;
  }

  private conditionSql(rel: Relation, alias: string, c: Condition): string {
    const embedNull = this.embedNullSql(alias, c);
    if (embedNull) return embedNull;
    if (c.op !== 'is' || c.field.path.length) this.guardSecret(rel, c.field);
    const expr = this.fieldExpr(rel, alias, c.field);
    const type = this.fieldType(rel, c.field);
    // the condition's own value, bound with its source so a cached plan can rebind it
    const value = (as: 'raw' | 'like' = 'raw') => {
      const v = as === 'like' ? c.value.replace(/\*/g, '%') : c.value;
      return this.params.add(v, c.slot === undefined ? undefined : { slot: c.slot, as });
    };
    const cast = () => `${value()}::${type}`;
    const simple: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };
    const isArrayType = type.endsWith('[]');
    if (c.modifier === 'any' || c.modifier === 'all') {
      const list = parseList(c.value);
      const op =
        simple[c.op] ?? ({ like: 'LIKE', ilike: 'ILIKE', match: '~', imatch: '~*' } as Record<string, string>)[c.op];
      if (!op) throw parseError(`operator ${c.op} does not take (${c.modifier})`);
      const values = ['like', 'ilike'].includes(c.op) ? list.map((v) => v.replace(/\*/g, '%')) : list;
      const elemType = ['like', 'ilike', 'match', 'imatch'].includes(c.op) ? 'text' : type;
      const lhs = elemType === 'text' && type !== 'text' ? `${expr}::text` : expr;
      return `${lhs} ${op} ${c.modifier.toUpperCase()}(${this.params.add(values)}::${elemType}[])`;
    }
    switch (c.op) {
      case 'eq':
      case 'neq':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return `${expr} ${simple[c.op]} ${cast()}`;
      case 'like':
        return `${expr}::text LIKE ${value('like')}`;
      case 'ilike':
        return `${expr}::text ILIKE ${value('like')}`;
      case 'match':
        return `${expr}::text ~ ${value()}`;
      case 'imatch':
        return `${expr}::text ~* ${value()}`;
      case 'in': {
        const list = parseList(c.value);
        if (list.length === 0) return 'false';
        if (isArrayType) throw parseError(`"in" is not supported on array column ${c.field.column}`);
        return `${expr} = ANY(${this.params.add(list, c.slot === undefined ? undefined : { slot: c.slot, as: 'list' })}::${type}[])`;
      }
      case 'is': {
        const v = c.value.toLowerCase();
        const map: Record<string, string> = {
          null: 'IS NULL',
          not_null: 'IS NOT NULL',
          true: 'IS TRUE',
          false: 'IS FALSE',
          unknown: 'IS UNKNOWN',
        };
        if (!map[v]) throw parseError(`"is" accepts null, not_null, true, false or unknown, got "${c.value}"`);
        return `${expr} ${map[v]}`;
      }
      case 'isdistinct':
        return `${expr} IS DISTINCT FROM ${cast()}`;
      case 'cs':
      case 'cd':
      case 'ov': {
        const op = { cs: '@>', cd: '<@', ov: '&&' }[c.op];
        if (type === 'jsonb' || type === 'json') return `${expr}::jsonb ${op} ${this.params.add(c.value)}::jsonb`;
        // arrays take {a,b} literals; ov on an array also accepts (a,b). On a range, `(a,b)` is an
        // exclusive-bounds range literal and must stay as it is.
        const literal =
          c.op === 'ov' && isArrayType && c.value.startsWith('(') && c.value.endsWith(')')
            ? `{${c.value.slice(1, -1)}}`
            : c.value;
        return `${expr} ${op} ${this.params.add(literal)}::${type}`;
      }
      case 'sl':
      case 'sr':
      case 'nxr':
      case 'nxl':
      case 'adj': {
        const op = { sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-' }[c.op];
        return `${expr} ${op} ${cast()}`;
      }
      case 'fts':
      case 'plfts':
      case 'phfts':
      case 'wfts': {
        const fn = {
          fts: 'to_tsquery',
          plfts: 'plainto_tsquery',
          phfts: 'phraseto_tsquery',
          wfts: 'websearch_to_tsquery',
        }[c.op];
        const config = c.modifier ? `${this.params.add(c.modifier)}::regconfig, ` : '';
        const doc = type === 'tsvector' ? expr : `to_tsvector(${config}${expr}::text)`;
        return `${doc} @@ ${fn}(${config}${value()})`;
      }
      case 'filter':
        return this.triStateSql(expr, c.value, isArrayType);
    }
    throw parseError(`unsupported operator ${c.op}`);
  }

  /**
   * Watchdeck's tri-state extension: `a,!b,c*` — plain values are included (OR), `!` values are
   * excluded (AND NOT), `*` is a wildcard, `\` escapes a comma, `!` or backslash. Case-insensitive.
   * On an array column (tags) each value is matched against the elements: a row is included when
   * one element matches, excluded when one does.
   */
  private triStateSql(expr: string, value: string, isArray: boolean): string {
    const items: string[] = [];
    let cur = '';
    for (let i = 0; i < value.length; i++) {
      if (value[i] === '\\' && i + 1 < value.length) cur += '\\' + value[++i];
      else if (value[i] === ',') {
        items.push(cur);
        cur = '';
      } else cur += value[i];
    }
    items.push(cur);
    const include: string[] = [];
    const exclude: string[] = [];
    for (const raw of items) {
      if (!raw) continue;
      const negated = raw.startsWith('!');
      const body = negated ? raw.slice(1) : raw;
      // literal text except '*': escape LIKE's own wildcards, then unescape our escapes
      let pattern = '';
      for (let i = 0; i < body.length; i++) {
        const ch = body[i];
        if (ch === '\\' && i + 1 < body.length) pattern += /[%_\\]/.test(body[i + 1]) ? '\\' + body[++i] : body[++i];
        else if (ch === '*') pattern += '%';
        else if (ch === '%' || ch === '_') pattern += '\\' + ch;
        else pattern += ch;
      }
      (negated ? exclude : include).push(pattern);
    }
    const text = `${expr}::text`;
    const matches = (p: string) =>
      isArray
        ? `EXISTS (SELECT 1 FROM unnest(${expr}) AS _e(v) WHERE _e.v::text ILIKE ${this.params.add(p)})`
        : `${text} ILIKE ${this.params.add(p)}`;
    const parts: string[] = [];
    if (include.length) parts.push(`(${include.map(matches).join(' OR ')})`);
    // a row without a value is not excluded by an exclusion
    for (const p of exclude) parts.push(isArray ? `NOT ${matches(p)}` : `(${text} IS NULL OR NOT ${matches(p)})`);
    return parts.length ? parts.join(' AND ') : 'true';
  }

  orderSql(rel: Relation, alias: string, terms: OrderTerm[]): string {
    if (!terms.length) return '';
    const dir = (t: OrderTerm) => `${t.desc ? 'DESC' : 'ASC'}${t.nulls ? ` NULLS ${t.nulls.toUpperCase()}` : ''}`;
    return ` ORDER BY ${terms
      .map((t) => {
        if (!t.relation) {
          this.guardSecret(rel, t.field);
          return `${this.fieldExpr(rel, alias, t.field)} ${dir(t)}`;
        }
        // `order=rel(col)`: the to-one embed's value for this row (null when it has none)
        const embed = this.scopes.get(alias)?.get(t.relation);
        if (!embed) throw notEmbedded(t.relation);
        if (embed.kind !== 'm2o') {
          throw new RestError(
            400,
            'PGRST118',
            `A related order on '${t.relation}' is not possible`,
            `'${rel.name}' and '${t.relation}' do not form a many-to-one or one-to-one relationship`,
          );
        }
        this.guardSecret(embed.target, t.field);
        return `(SELECT ${this.fieldExpr(embed.target, embed.alias, t.field)} ${embed.from} LIMIT 1) ${dir(t)}`;
      })
      .join(', ')}`;
  }

  // ---- select and embeds ----------------------------------------------------------------

  /** Per parent alias, the embeds of that level by the name the URL uses for them. */
  private readonly scopes = new Map<string, Map<string, EmbedScope>>();

  /** Projection list for `rel AS alias`; `path` locates embed filters/order in the model. */
  projection(
    rel: Relation,
    alias: string,
    items: SelectItem[],
    model: RequestModel,
    path: string,
    where: string[],
  ): string {
    const entries = this.entries(rel, alias, items, model, path, where);
    // PostgreSQL refuses longer select lists (54011): refused here, before the statement is sent
    if (entries.length > MAX_SELECT_COLUMNS) {
      throw new RestError(
        400,
        '54011',
        `The select of ${rel.name} has ${entries.length} entries; at most ${MAX_SELECT_COLUMNS} are allowed`,
        null,
        'Select fewer columns.',
      );
    }
    // only empty embeds (`rel()`): rows without keys, as the select asks
    return entries.map((e) => `${e.expr} AS ${quoteIdent(e.name)}`).join(', ');
  }

  private entries(
    rel: Relation,
    alias: string,
    items: SelectItem[],
    model: RequestModel,
    path: string,
    where: string[],
  ): Entry[] {
    const out: Entry[] = [];
    const secrets = new Set(this.opts.secretColumns(rel.name));
    const columnSql = (name: string) => {
      const ref = `${alias}.${quoteIdent(name)}`;
      // Secrets never leave the server: show whether one is set, not what it is.
      return secrets.has(name) ? `CASE WHEN ${ref} IS NULL OR ${ref} = '' THEN NULL ELSE '${SECRET_MASK}' END` : ref;
    };
    for (const item of items) {
      if (item.kind === 'star') {
        for (const c of rel.columns.keys()) out.push({ expr: columnSql(c), name: c });
      } else if (item.kind === 'field') {
        if (item.field.path.length) this.guardSecret(rel, item.field);
        let sql = item.field.path.length
          ? this.fieldExpr(rel, alias, item.field)
          : (this.column(rel, item.field.column), columnSql(item.field.column));
        if (item.cast) sql = `CAST(${sql} AS ${castType(item.cast)})`;
        out.push({ expr: sql, name: item.alias ?? fieldName(item.field) });
      } else {
        out.push(...this.embed(rel, alias, item, model, path, where));
      }
    }
    return out;
  }

  private embed(
    parent: Relation,
    parentAlias: string,
    item: Extract<SelectItem, { kind: 'embed' }>,
    model: RequestModel,
    path: string,
    where: string[],
  ): Entry[] {
    const rel = resolveRelationship(this.opts.schema, parent.name, item.relation, item.hint, this.opts.isExposed);
    const target = this.relation(rel.target);
    // the junction's rows decide what is linked: it is read, so it is checked like any table
    if (rel.kind === 'm2m') this.relation(rel.junction);
    if (item.spread && rel.kind !== 'm2o') {
      throw new RestError(
        400,
        'PGRST119',
        `A spread operation on '${item.relation}' is not possible`,
        `'${parent.name}' and '${item.relation}' do not form a many-to-one or one-to-one relationship`,
      );
    }
    const alias = this.nextAlias();
    const name = item.alias ?? item.relation;
    const embedPath = path ? `${path}.${name}` : name;
    const innerWhere: string[] = [];
    let join: string;
    if (rel.kind === 'm2o') {
      join = rel.fk.fromColumns
        .map((c, i) => `${alias}.${quoteIdent(rel.fk.toColumns[i])} = ${parentAlias}.${quoteIdent(c)}`)
        .join(' AND ');
    } else if (rel.kind === 'o2m') {
      join = rel.fk.fromColumns
        .map((c, i) => `${alias}.${quoteIdent(c)} = ${parentAlias}.${quoteIdent(rel.fk.toColumns[i])}`)
        .join(' AND ');
    } else {
      const j = `j${alias}`;
      const toParent = rel.viaParent.fromColumns.map(
        (c, i) => `${j}.${quoteIdent(c)} = ${parentAlias}.${quoteIdent(rel.viaParent.toColumns[i])}`,
      );
      const toTarget = rel.viaTarget.fromColumns.map(
        (c, i) => `${j}.${quoteIdent(c)} = ${alias}.${quoteIdent(rel.viaTarget.toColumns[i])}`,
      );
      join = `EXISTS (SELECT 1 FROM ${quoteIdent(rel.junction)} AS ${j} WHERE ${[...toParent, ...toTarget].join(' AND ')})`;
    }
    // the embed's own embeds first: its filters may test them (`rel.sub=is.null`)
    const entries = this.entries(target, alias, item.select, model, embedPath, innerWhere);
    for (const f of model.filters.get(embedPath) ?? []) innerWhere.push(this.filterSql(target, alias, f));
    const conds = [join, ...innerWhere].join(' AND ');
    const from = `FROM ${quoteIdent(target.name)} AS ${alias} WHERE ${conds}`;
    if (!this.scopes.has(parentAlias)) this.scopes.set(parentAlias, new Map());
    this.scopes.get(parentAlias)!.set(name, { kind: rel.kind, target, alias, from });
    // !inner: the parent row stays only when a matching embedded row exists (same alias, own scope)
    if (item.join === 'inner') where.push(`EXISTS (SELECT 1 ${from})`);
    // an empty embed (`rel()`, or only empty embeds inside) filters its parent but is not shown
    if (!entries.length) return [];
    const proj = entries.map((e) => `${e.expr} AS ${quoteIdent(e.name)}`).join(', ');
    if (rel.kind === 'm2o') {
      // A NULL foreign key matches nothing: skip the subquery for it. Evidence rows name one of
      // five resources, so without this a 1,000-evidence tree runs 4,000 lookups that find nothing.
      const nullKey = rel.fk.fromColumns.map((c) => `${parentAlias}.${quoteIdent(c)} IS NULL`).join(' OR ');
      // `...rel(a,b)`: each column is lifted into the parent row (null when there is no match)
      if (item.spread)
        return entries.map((e) => ({
          expr: `CASE WHEN ${nullKey} THEN NULL ELSE (SELECT ${e.expr} ${from} LIMIT 1) END`,
          name: e.name,
        }));
      return [
        {
          expr: `CASE WHEN ${nullKey} THEN NULL ELSE (SELECT row_to_json(_${alias}) FROM (SELECT ${proj} ${from} LIMIT 1) _${alias}) END`,
          name,
        },
      ];
    }
    const order = this.orderSql(target, alias, model.order.get(embedPath) ?? []);
    const cap = this.opts.rowCap;
    const wanted = model.limit.get(embedPath);
    const n = cap === undefined ? wanted : Math.min(wanted ?? cap, cap);
    const limit = n !== undefined ? ` LIMIT ${this.params.add(n)}::bigint` : '';
    const offset = model.offset.has(embedPath) ? ` OFFSET ${this.params.add(model.offset.get(embedPath))}::bigint` : '';
    return [
      {
        expr: `(SELECT coalesce(json_agg(_${alias}), '[]'::json) FROM (SELECT ${proj} ${from}${order}${limit}${offset}) _${alias})`,
        name,
      },
    ];
  }

  /**
   * `rel=is.null` / `rel=not.is.null` on an embed of this level: whether the parent has a
   * matching embedded row (the embed's own filters included), as PostgREST's null embed filter.
   */
  private embedNullSql(alias: string, c: Condition): string | undefined {
    if (c.op !== 'is' || c.field.path.length || c.value.toLowerCase() !== 'null') return undefined;
    const embed = this.scopes.get(alias)?.get(c.field.column);
    return embed && `NOT EXISTS (SELECT 1 ${embed.from})`;
  }
}

/** A select field's key: its column, or the last key of its JSON path (array indexes skipped). */
function fieldName(field: Field): string {
  for (let i = field.path.length - 1; i >= 0; i--) {
    const step = field.path[i];
    if (step.quoted || !/^-?\d+$/.test(step.key)) return step.key;
  }
  return field.column;
}

const notEmbedded = (name: string) =>
  new RestError(
    400,
    'PGRST108',
    `'${name}' is not an embedded resource in this request`,
    null,
    `Verify that '${name}' is included in the 'select' query parameter.`,
  );

// ---- relationships ------------------------------------------------------------------------

type Relationship =
  | { kind: 'm2o'; target: string; fk: ForeignKey }
  | { kind: 'o2m'; target: string; fk: ForeignKey }
  | { kind: 'm2m'; target: string; junction: string; viaParent: ForeignKey; viaTarget: ForeignKey };

/** A candidate relationship as PostgREST lists it in PGRST201's details. */
function describe(parent: string, r: Relationship): Record<string, string> {
  const cols = (c: string[]) => `(${c.join(', ')})`;
  const embedding = `${parent} with ${r.target}`;
  if (r.kind === 'm2m') {
    return {
      cardinality: 'many-to-many',
      embedding,
      relationship: `${r.junction} using ${r.viaParent.name}${cols(r.viaParent.fromColumns)} and ${r.viaTarget.name}${cols(r.viaTarget.fromColumns)}`,
    };
  }
  // the columns of the parent side first, then the target's
  const [own, other] = r.kind === 'm2o' ? [r.fk.fromColumns, r.fk.toColumns] : [r.fk.toColumns, r.fk.fromColumns];
  return {
    cardinality: r.kind === 'm2o' ? 'many-to-one' : 'one-to-many',
    embedding,
    relationship: `${r.fk.name} using ${parent}${cols(own)} and ${r.target}${cols(other)}`,
  };
}

/**
 * The relationship `parent -> name` for an embed. Only relations on the allow-list take part (a
 * hidden table, as target or as junction, does not exist for the API), so a hidden table neither
 * answers an embed nor makes another one ambiguous.
 *
 * A key from a table to itself (`hypotheses.parent_id`) is read as PostgREST does: the table's
 * name embeds the children (one-to-many, `!parent_id` choosing the key when there are several),
 * the key column embeds the parent (many-to-one, `parent:parent_id(*)`).
 */
function resolveRelationship(
  schema: SchemaCache,
  parent: string,
  name: string,
  hint?: string,
  isExposed: (relation: string) => boolean = () => true,
): Relationship {
  const fks = schema.foreignKeys.filter((fk) => isExposed(fk.from) && isExposed(fk.to));
  const isSelf = (fk: ForeignKey) => fk.from === fk.to;
  let candidates: Relationship[] = [];
  if (schema.relations.has(name) && isExposed(name)) {
    for (const fk of fks) {
      if (isSelf(fk)) {
        if (fk.from === parent && name === parent) candidates.push({ kind: 'o2m', target: name, fk });
        continue;
      }
      if (fk.from === parent && fk.to === name) candidates.push({ kind: 'm2o', target: name, fk });
      if (fk.to === parent && fk.from === name) candidates.push({ kind: 'o2m', target: name, fk });
    }
    // many-to-many: a junction whose primary key holds its keys to both sides (PostgREST's rule)
    for (const a of fks) {
      if (a.to !== parent || a.from === parent || a.from === name || a.viaView) continue;
      const pk = schema.relations.get(a.from)?.primaryKey ?? [];
      if (!a.fromColumns.every((c) => pk.includes(c))) continue;
      for (const b of fks) {
        if (b === a || b.from !== a.from || b.to !== name || b.viaView) continue;
        if (b.fromColumns.every((c) => pk.includes(c)))
          candidates.push({ kind: 'm2m', target: name, junction: a.from, viaParent: a, viaTarget: b });
      }
    }
  }
  // `person_id(*)` embeds through the key column; `fk_name(*)` through the constraint
  for (const fk of fks) {
    // a key column names the key's real target, not every view over that target
    if (fk.viaView) continue;
    if (fk.from === parent && fk.fromColumns.length === 1 && fk.fromColumns[0] === name)
      candidates.push({ kind: 'm2o', target: fk.to, fk });
    else if (isSelf(fk)) continue;
    else if (fk.name === name && fk.from === parent) candidates.push({ kind: 'm2o', target: fk.to, fk });
    else if (fk.name === name && fk.to === parent) candidates.push({ kind: 'o2m', target: fk.from, fk });
  }
  if (hint) {
    candidates = candidates.filter((c) =>
      c.kind === 'm2m'
        ? c.junction === hint || c.viaParent.name === hint || c.viaTarget.name === hint
        : isSelf(c.fk)
          ? c.kind === 'o2m' && c.fk.fromColumns.length === 1 && c.fk.fromColumns[0] === hint
          : c.fk.name === hint ||
            (c.fk.fromColumns.length === 1 && c.fk.fromColumns[0] === hint) ||
            (c.fk.toColumns.length === 1 && c.fk.toColumns[0] === hint),
    );
  }
  // the same key reached through a table and its inferred view copy counts once
  const key = (c: Relationship) => JSON.stringify(describe(parent, c));
  const unique = candidates.filter((c, i) => candidates.findIndex((d) => key(d) === key(c)) === i);
  if (unique.length === 0) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent}' and '${name}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent}' and '${name}'${hint ? ` using the hint '${hint}'` : ''} in the schema 'public', but no matches were found.`,
    );
  }
  if (unique.length > 1) {
    const hintOf = (c: Relationship) => `'${c.target}!${c.kind === 'm2m' ? c.junction : c.fk.name}'`;
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent}' and '${name}'`,
      unique.map((c) => describe(parent, c)),
      `Try changing '${name}' to one of the following: ${unique.map(hintOf).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  return unique[0];
}
