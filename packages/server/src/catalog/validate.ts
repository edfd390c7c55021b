/**
 * What the scraper engine checks of a config_scrapers write beyond the spec schema (settings
 * validates that first): the fields it will evaluate must be usable, so a bad spec is a 400 naming
 * the field at save time, not a failed run later. JSONPath fields parse, `health` is a CEL
 * expression within the cost limits, a file entry names paths or a url in a known format, an http
 * url is http(s), a sql driver is one the engine has.
 */
import { compile, costProblem, expressionOf } from '#server/cel/index.ts';
import { isJsonPath, parseJsonPath } from './jsonpath.ts';
import { sqlDriver } from './scrape/kinds/sql.ts';

class ScraperSpecError extends Error {
  readonly statusCode = 400;
  /** check_violation: the /api/db engine answers it as a 400 */
  readonly code = '23514';
  readonly detail: string | undefined;
  readonly hint = 'The spec schema is served at /api/schemas/scraper.schema.json';
  constructor(readonly problems: string[]) {
    super(problems[0]);
    this.detail = problems.length > 1 ? problems.join('; ') : undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function jsonPathProblem(field: string, v: unknown): string | undefined {
  if (typeof v !== 'string' || !isJsonPath(v)) return undefined;
  try {
    parseJsonPath(v);
    return undefined;
  } catch (err) {
    return `${field}: ${(err as Error).message}`;
  }
}

/** The problems of one spec, each naming its field (`spec.file[0].items: ...`). */
function scraperSpecProblems(spec: unknown): string[] {
  if (!isObject(spec)) return [];
  const problems: string[] = [];
  for (const [kind, entries] of Object.entries(spec)) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const at = `spec.${kind}[${i}]`;
      for (const f of ['items', 'id', 'type', 'name', 'class']) {
        const p = jsonPathProblem(`${at}.${f}`, entry[f]);
        if (p) problems.push(p);
      }
      for (const f of ['createFields', 'deleteFields']) {
        const list = entry[f];
        if (Array.isArray(list))
          list.forEach((v, k) => {
            const p = jsonPathProblem(`${at}.${f}[${k}]`, v);
            if (p) problems.push(p);
          });
      }
      try {
        const expr = expressionOf(entry.health, `${at}.health`);
        if (expr) {
          compile(expr);
          const cost = costProblem(expr);
          if (cost) problems.push(`${at}.health: ${cost}`);
        }
      } catch (err) {
        problems.push(`${at}.health: ${(err as Error).message}`);
      }
      if (kind === 'file') {
        const paths = entry.paths;
        if (!entry.url && !(Array.isArray(paths) && paths.length))
          problems.push(`${at}.paths is required (or ${at}.url of a git repository)`);
        if (typeof entry.format === 'string' && !/^(json|ya?ml|text)$/i.test(entry.format))
          problems.push(`${at}.format must be json, yaml or text`);
      }
      if (kind === 'http' && typeof entry.url === 'string' && !entry.connection) {
        if (!/^https?:\/\/[^/\s]+/.test(entry.url)) problems.push(`${at}.url must be an http or https URL`);
      }
      if (kind === 'sql' && typeof entry.driver === 'string' && entry.driver) {
        try {
          sqlDriver(entry.driver);
        } catch (err) {
          problems.push(`${at}.driver: ${(err as Error).message}`);
        }
      }
    });
  }
  return problems;
}

/** The /api/db write check of config_scrapers (pgrest/write-pipeline.ts). */
export function validateScraperWrite(_table: string, method: string, rawBody: unknown): void {
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return;
  let body = rawBody;
  if (typeof rawBody === 'string') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      return;
    }
  }
  const rows = Array.isArray(body) ? body : [body];
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (!isObject(row) || !('spec' in row)) return;
    const found = scraperSpecProblems(row.spec);
    problems.push(...(rows.length > 1 ? found.map((p) => `[${i}] ${p}`) : found));
  });
  if (problems.length) throw new ScraperSpecError(problems);
}
