/**
 * Validation at the edge: routes declare `schema: { params, querystring, body }` as zod schemas
 * (core's, where the web shares them) and Fastify runs them before the handler, after the access
 * guard (a preValidation hook, auth/guard.ts), so a caller who may not use a route learns nothing
 * of its schema. A refusal is a 400 in the one error shape (errors.ts) whose message names the
 * field; the handler receives the parsed values, typed through `typed(app)`.
 */
import type { FastifyInstance, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';

/** Fastify's type provider for zod: a route's request parts typed by its schemas' output. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** The app with route types inferred from zod schemas (the same instance, typed). */
export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

type Part = 'params' | 'querystring' | 'body' | 'headers';
const PART_NAME: Record<Part, string> = { params: 'path', querystring: 'query', body: 'body', headers: 'headers' };

interface FieldError extends Error {
  statusCode: 400;
  code: string;
  /** the first message per field ('body' / 'query' / 'path' for the part as a whole) */
  errors: Record<string, string>;
}

const fieldOf = (path: readonly PropertyKey[] | undefined, part: Part) =>
  path && path.length ? path.map(String).join('.') : PART_NAME[part];

const kind = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v;

/**
 * Messages for the checks a schema left to zod's defaults ('Invalid input: expected string'),
 * rewritten to name the field. A schema's own message (core's user form, token lifetime, ...) is
 * kept word for word: zod asks this map only when the schema has none.
 */
function defaultMessage(part: Part) {
  return (iss: z.core.$ZodRawIssue): string => {
    const field = fieldOf(iss.path, part);
    switch (iss.code) {
      case 'invalid_type':
        if (iss.input === undefined) return `${field} is required`;
        return `${field} must be ${iss.expected === 'array' ? 'a list' : iss.expected === 'object' ? 'an object' : `a ${iss.expected}`}, not ${kind(iss.input)}`;
      case 'invalid_value':
        return `${field} must be one of ${iss.values.map(String).join(', ')}`;
      case 'unrecognized_keys':
        return `${field} has unknown field${iss.keys.length > 1 ? 's' : ''} ${iss.keys.join(', ')}`;
      case 'too_small':
        return `${field} must be at least ${String(iss.minimum)}${iss.origin === 'string' ? ' characters long' : ''}`;
      case 'too_big':
        return `${field} must be at most ${String(iss.maximum)}${iss.origin === 'string' ? ' characters long' : ''}`;
      case 'invalid_format':
        return `${field} is not a valid ${iss.format}`;
      default:
        return `${field} is not valid`;
    }
  };
}

/** Parses one request part with its zod schema; Fastify replaces the part with the parsed value. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = (httpPart ?? 'body') as Part;
  const error = defaultMessage(part);
  return (data) => {
    // Fastify passes an absent body as null
    const r = schema.safeParse(data, { error });
    if (r.success) return { value: r.data };
    const errors: Record<string, string> = {};
    for (const iss of r.error.issues) errors[fieldOf(iss.path, part)] ??= iss.message;
    const first = r.error.issues[0];
    const err = new Error(first.message) as FieldError;
    Object.assign(err, { statusCode: 400, code: `invalid_${PART_NAME[part]}`, errors });
    return { error: err };
  };
};

/** A route without path parameters, query parameters or a body says so (the route walk checks every route declares all three). */
export const noParams = z.object({});
/** Unknown query parameters are ignored, as HTTP clients expect (cache busters, tracing). */
export const noQuery = z.object({});
/** No body: absent, or an empty JSON object (what some clients send with a body-less POST). */
export const noBody = z.union([z.null(), z.undefined(), z.strictObject({})], {
  error: 'this request takes no body',
});

/** An optional query text: empty means absent. */
export const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** An optional whole number in a query string ('' is absent), within [min, max]. */
export const queryInt = (name: string, min: number, max: number) =>
  z
    .string({ error: `${name} must be a whole number` })
    .trim()
    .optional()
    .refine((v) => !v || /^\d+$/.test(v), `${name} must be a whole number`)
    .transform((v) => (v ? Number(v) : undefined))
    .refine((n) => n === undefined || (n >= min && n <= max), `${name} must be from ${min} to ${max}`);

/** The schemas of a route that takes no input at all. */
export const noInput = { params: noParams, querystring: noQuery, body: noBody };
/** The same for a GET: Fastify never reads a GET's body (and refuses a schema for it). */
export const noReadInput = { params: noParams, querystring: noQuery };
