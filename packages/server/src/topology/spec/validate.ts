/**
 * What the topology engine checks of a `topologies` write beyond the spec schema (settings
 * validates that first, with core's topologySpecSchema): components nest at most
 * TOPOLOGY_MAX_DEPTH levels, and every `statusExpr` compiles as CEL
 * within the evaluator's cost limits, so a bad expression is a 400 naming its field at save time,
 * not a failed roll-up later.
 */
import { topologySpecProblems, type TopologyComponentSpec } from '@watchdeck/core';
import { compile, costProblem } from '#server/cel/index.ts';

class TopologySpecError extends Error {
  readonly statusCode = 400;
  /** check_violation: the /api/db engine answers it as a 400 */
  readonly code = '23514';
  readonly detail: string | undefined;
  readonly hint = 'The spec schema is served at /api/schemas/topology.schema.json';
  constructor(readonly problems: string[]) {
    super(problems[0]);
    this.detail = problems.length > 1 ? problems.join('; ') : undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function exprProblem(at: string, expr: unknown): string | undefined {
  if (typeof expr !== 'string' || !expr.trim()) return undefined;
  // a template's expression may be rendered per item: checked when it runs
  if (expr.includes('{{')) return undefined;
  try {
    compile(expr);
  } catch (err) {
    return `${at}: ${(err as Error).message}`;
  }
  const cost = costProblem(expr);
  return cost ? `${at}: ${cost}` : undefined;
}

/** The statusExpr problems of a spec, each naming its field. */
function topologyExprProblems(spec: unknown): string[] {
  if (!isObject(spec)) return [];
  const problems: string[] = [];
  const walk = (c: unknown, at: string) => {
    if (!isObject(c)) return;
    const p = exprProblem(`${at}.statusExpr`, c.statusExpr);
    if (p) problems.push(p);
    if (isObject(c.template)) walk(c.template, `${at}.template`);
    const list = (c as TopologyComponentSpec).components;
    if (Array.isArray(list)) list.forEach((k, i) => walk(k, `${at}.components[${i}]`));
  };
  walk(spec, 'spec');
  return problems;
}

/** The /api/db write check of topologies (pgrest/write-pipeline.ts). */
export function validateTopologyWrite(_table: string, method: string, rawBody: unknown): void {
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
    // the schema's own problems were answered by settings first: what is left is nesting depth
    const found = [...topologySpecProblems(row.spec), ...topologyExprProblems(row.spec)];
    problems.push(...(rows.length > 1 ? found.map((p) => `[${i}] ${p}`) : found));
  });
  if (problems.length) throw new TopologySpecError(problems);
}
