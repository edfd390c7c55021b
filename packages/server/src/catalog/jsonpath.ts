/**
 * The JSONPath of scraper specs (`items: $.items[*]`, `id: $.metadata.uid`): a small evaluator of
 * the subset scrapers use, with no code evaluation (filters and scripts are refused, so a spec
 * cannot run anything): `$`, `.key`, `['key']`, `[n]` (negative from the end), `[*]` / `.*`,
 * `..key` (recursive descent), `[a,b]` unions of keys or indexes. DESIGN names no JSONPath library
 * and this subset is a few dozen lines.
 */
type Step =
  | { kind: 'key'; keys: string[] }
  | { kind: 'index'; indexes: number[] }
  | { kind: 'wildcard' }
  | { kind: 'descend'; key: string | null };

const compiled = new Map<string, Step[]>();

class JsonPathError extends Error {}

function parseBracket(body: string, path: string): Step {
  const text = body.trim();
  if (text === '*') return { kind: 'wildcard' };
  if (text.startsWith('?') || text.startsWith('(')) {
    throw new JsonPathError(`${path}: filter and script expressions are not supported`);
  }
  const parts = text.split(',').map((p) => p.trim());
  if (parts.every((p) => /^-?\d+$/.test(p))) return { kind: 'index', indexes: parts.map(Number) };
  const keys = parts.map((p) => {
    const m = /^'((?:[^'\\]|\\.)*)'$|^"((?:[^"\\]|\\.)*)"$/.exec(p);
    if (!m) throw new JsonPathError(`${path}: [${body}] is neither quoted keys nor indexes`);
    return (m[1] ?? m[2]).replace(/\\(.)/g, '$1');
  });
  return { kind: 'key', keys };
}

/** The steps of a path; throws JsonPathError naming what is wrong. */
export function parseJsonPath(path: string): Step[] {
  const hit = compiled.get(path);
  if (hit) return hit;
  const text = path.trim();
  if (!text.startsWith('$')) throw new JsonPathError(`${path}: a JSONPath starts with $`);
  const steps: Step[] = [];
  let i = 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      const descend = text[i + 1] === '.';
      i += descend ? 2 : 1;
      if (text[i] === '[') {
        if (!descend) throw new JsonPathError(`${path}: '.[' at ${i}`);
        steps.push({ kind: 'descend', key: null });
        continue;
      }
      const m = /^(\*|[A-Za-z0-9_$@\-:/]+)/.exec(text.slice(i));
      if (!m) throw new JsonPathError(`${path}: a name is expected at ${i}`);
      i += m[1].length;
      if (descend) steps.push({ kind: 'descend', key: m[1] === '*' ? null : m[1] });
      else steps.push(m[1] === '*' ? { kind: 'wildcard' } : { kind: 'key', keys: [m[1]] });
    } else if (c === '[') {
      let j = i + 1;
      let quote: string | null = null;
      for (; j < text.length; j++) {
        const ch = text[j];
        if (quote) {
          if (ch === '\\') j++;
          else if (ch === quote) quote = null;
        } else if (ch === "'" || ch === '"') quote = ch;
        else if (ch === ']') break;
      }
      if (j >= text.length) throw new JsonPathError(`${path}: unclosed [`);
      steps.push(parseBracket(text.slice(i + 1, j), path));
      i = j + 1;
    } else {
      throw new JsonPathError(`${path}: unexpected '${c}' at ${i}`);
    }
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(path, steps);
  return steps;
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v);
  return [];
}

function descendants(v: unknown, out: unknown[]): void {
  out.push(v);
  for (const c of children(v)) descendants(c, out);
}

/** Every value the path selects in doc (in document order). */
export function queryJsonPath(doc: unknown, path: string): unknown[] {
  let current: unknown[] = [doc];
  for (const step of parseJsonPath(path)) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === 'wildcard') next.push(...children(v));
      else if (step.kind === 'index') {
        if (!Array.isArray(v)) continue;
        for (const n of step.indexes) {
          const k = n < 0 ? v.length + n : n;
          if (k >= 0 && k < v.length) next.push(v[k]);
        }
      } else if (step.kind === 'key') {
        if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
        for (const k of step.keys) if (Object.hasOwn(v, k)) next.push((v as Record<string, unknown>)[k]);
      } else {
        const all: unknown[] = [];
        descendants(v, all);
        if (step.key === null) next.push(...all.slice(1));
        else
          for (const d of all)
            if (d && typeof d === 'object' && !Array.isArray(d) && Object.hasOwn(d, step.key))
              next.push((d as Record<string, unknown>)[step.key]);
      }
    }
    current = next;
  }
  return current;
}

/** The first value the path selects, or undefined. */
export function firstJsonPath(doc: unknown, path: string): unknown {
  return queryJsonPath(doc, path)[0];
}

/** A spec field that is a JSONPath when it starts with $, else a literal. */
export function isJsonPath(text: string): boolean {
  return text.trim().startsWith('$');
}
