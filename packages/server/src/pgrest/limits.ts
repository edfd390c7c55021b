import { RestError } from './errors.ts';
import type { SelectItem } from './parse.ts';

/**
 * Bounds on what one /api/db request may ask of the database (README.md "Limits"). Without them a
 * signed-in viewer could ask for fifty embeds (an 85 MB answer) or nest twenty levels deep (PGlite
 * ran out of memory and stalled every call). Shapes are refused before any SQL runs; an answer is
 * measured by PostgreSQL and never sent to the server when it is too large.
 */
export interface RestLimits {
  /** embedded resources in one select, all levels together */
  maxEmbeds: number;
  /** levels of embedding: `a(b(c(*)))` is 3 */
  maxEmbedDepth: number;
  /** bytes of JSON one answer may have */
  maxResponseBytes: number;
  /** the database's statement timeout in ms (0: none), quoted in the error when it strikes */
  statementTimeoutMs: number;
}

/**
 * The defaults: the web app's largest read (the incident detail) has 12 embeds, 3 levels deep,
 * and a page of 1,000 catalog rows is a few megabytes.
 */
export const DEFAULT_REST_LIMITS: RestLimits = {
  maxEmbeds: 20,
  maxEmbedDepth: 5,
  maxResponseBytes: 16 * 1024 * 1024,
  statementTimeoutMs: 30_000,
};

/** PostgreSQL's own limit on the entries of a select list (error 54011 when it is passed). */
export const MAX_SELECT_COLUMNS = 1664;

/** 54000 program_limit_exceeded: the request asks for more than this server allows, a 400. */
function limitError(message: string, hint: string): RestError {
  return new RestError(400, '54000', message, null, hint);
}

/** Refuses a select tree with too many embeds or embeds nested too deep. */
export function checkSelectLimits(select: SelectItem[], limits: RestLimits): void {
  let embeds = 0;
  let deepest = 0;
  const walk = (items: SelectItem[], depth: number) => {
    for (const item of items) {
      if (item.kind !== 'embed') continue;
      embeds++;
      if (depth + 1 > deepest) deepest = depth + 1;
      walk(item.select, depth + 1);
    }
  };
  walk(select, 0);
  if (deepest > limits.maxEmbedDepth) {
    throw limitError(
      `Embedded resources are nested ${deepest} levels deep; at most ${limits.maxEmbedDepth} are allowed`,
      'Read the deeper levels in a request of their own (the limit is WATCHDECK_DB_MAX_EMBED_DEPTH).',
    );
  }
  if (embeds > limits.maxEmbeds) {
    throw limitError(
      `The select has ${embeds} embedded resources; at most ${limits.maxEmbeds} are allowed`,
      'Split the read into several requests (the limit is WATCHDECK_DB_MAX_EMBEDS).',
    );
  }
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

export function tooLarge(bytes: number, limits: RestLimits): RestError {
  return limitError(
    `The answer would be ${mb(bytes)}; at most ${mb(limits.maxResponseBytes)} are allowed`,
    'Ask for fewer rows (limit), fewer columns or fewer embeds (the limit is WATCHDECK_DB_MAX_RESPONSE_BYTES).',
  );
}

export function statementTimeout(limits: RestLimits): RestError {
  const seconds = limits.statementTimeoutMs ? ` (${limits.statementTimeoutMs / 1000} s)` : '';
  return new RestError(
    400,
    '57014',
    'canceling statement due to statement timeout',
    null,
    `The request ran longer than the statement timeout${seconds}: narrow it with filters, a smaller limit or fewer embeds (the limit is WATCHDECK_DB_STATEMENT_TIMEOUT).`,
  );
}

/**
 * JSON bodies nested deeper than this are refused (400): the engine and the areas re-serialise
 * bodies, and JSON.stringify of a 100,000-level document overflows the stack (a 500); PostgreSQL's
 * own parser gives up far earlier than that. No resource of this server nests anywhere near it.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Whether a JSON text nests deeper than `limit`, read from the text itself (brackets outside
 * strings), so a hostile body is refused before anything parses or walks it.
 */
export function nestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
