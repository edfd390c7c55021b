import { judgeDodScript } from './dod.ts';

/**
 * Checks a write to `evidences` through /api/db before the database sees it (the engine's
 * pre-SQL hook, like settings/validate.ts): a definition-of-done `script` must be a CEL expression
 * the evaluator can run (dod.ts). Answers 400 in PostgREST's shape, nothing written.
 */
class DodScriptError extends Error {
  readonly statusCode = 400;
  /** check_violation: the engine maps it to 400 with {code, message, details, hint} */
  readonly code = '23514';
  readonly detail: string;
  readonly hint =
    'Examples: check.status == "healthy" && check.age > duration("5m"); analysis.status == "resolved"; component.status == "healthy"';
  constructor(script: string, problem: string, costly = false) {
    super(
      costly
        ? `The definition of done script is too costly to run: ${problem}`
        : `The definition of done script is not a valid CEL expression: ${problem}`,
    );
    this.detail = `script: ${script}`;
  }
}

export function validateEvidenceWrite(table: string, method: string, rawBody: unknown): void {
  if (table !== 'evidences' || (method !== 'POST' && method !== 'PATCH')) return;
  let body: unknown;
  try {
    body = typeof rawBody === 'string' ? JSON.parse(rawBody) : rawBody;
  } catch {
    return; // the engine answers malformed JSON itself
  }
  for (const row of Array.isArray(body) ? body : [body]) {
    if (!row || typeof row !== 'object') continue;
    const script = (row as Record<string, unknown>).script;
    if (typeof script !== 'string' || !script.trim()) continue;
    const { invalid, costly } = judgeDodScript(script.trim());
    if (invalid) throw new DodScriptError(script, invalid);
    if (costly) throw new DodScriptError(script, costly, true);
  }
}
