import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { needs } from '../auth/index.ts';
import type { PropertiesService } from './index.ts';
import { sendError } from '../http/errors.ts';
import { noBody, noParams, noQuery, typed } from '../http/validation.ts';

/**
 * Feature flag writes (seed 002 sections 2.13, 5 and 8): create, update and delete of `properties`
 * rows by name. They go through these routes rather than /api/db so that
 *   - the local flags of WATCHDECK_PROPERTIES (read-only by definition) refuse edits,
 *   - a flag needs both a name and a value ('please provide all details'),
 *   - created_by is the caller, and
 *   - the cached flag map is dropped at once, so a disabled feature is off on the next request.
 *
 *   POST   /api/properties         {name, value, description?}  201 row | 400 | 409
 *   PATCH  /api/properties/:name   {value, description?}        200 row | 400 | 404 | 409
 *   DELETE /api/properties/:name                                 204     | 404 | 409
 */
const MESSAGES = {
  incomplete: 'please provide all details',
  local: 'Cannot edit local feature flags',
} as const;

const MAX_NAME = 255;
const MAX_VALUE = 10_000;

export interface PropertyWriteDeps {
  db: Db;
  properties: PropertiesService;
  local: Record<string, string>;
}

const RETURNING = `RETURNING name, value, description, created_by, created_at, updated_at`;

/** A name or value: text, or a number or boolean written without quotes; blank is missing. */
const flagText = z.preprocess(
  (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v),
  z.string({ error: MESSAGES.incomplete }).trim().min(1, MESSAGES.incomplete),
);
const flagValue = flagText.refine(
  (v) => v.length <= MAX_VALUE,
  `a feature flag value is at most ${MAX_VALUE} characters`,
);
/** absent: unchanged; null or blank: cleared */
const flagDescription = z
  .string({ error: 'description must be a string' })
  .trim()
  .transform((v) => v || null)
  .nullable()
  .optional();

const createBody = z.preprocess(
  (b) => b ?? {},
  z.object({
    name: flagText.refine(
      (n) => n.length <= MAX_NAME && !/\s/.test(n),
      `a feature flag name is at most ${MAX_NAME} characters without spaces`,
    ),
    value: flagValue,
    description: flagDescription,
  }),
);
/** name may be repeated (the web form sends the whole flag) but not changed */
const updateBody = z.preprocess(
  (b) => b ?? {},
  z.object({ name: z.unknown().optional(), value: flagValue, description: flagDescription }),
);
const nameParam = z.object({ name: z.string().min(1, 'name is required').max(MAX_NAME) });

export function propertyWriteRoutes(fastify: FastifyInstance, { db, properties, local }: PropertyWriteDeps) {
  const app = typed(fastify);
  const config = needs('properties', 'write', { feature: 'settings.feature_flags' });
  const isLocal = (name: string) => Object.prototype.hasOwnProperty.call(local, name);
  const localRefused = (reply: FastifyReply) => sendError(reply, 409, 'local_flag', MESSAGES.local);
  const missing = (reply: FastifyReply, name: string) =>
    sendError(reply, 404, 'not_found', `no feature flag named '${name}'`);

  const create = { params: noParams, querystring: noQuery, body: createBody };
  app.post('/api/properties', { config, schema: create }, async (req, reply) => {
    const { name, value, description: desc } = req.body;
    if (isLocal(name)) return localRefused(reply);
    const r = await db.query(
      `INSERT INTO properties (name, value, description, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO NOTHING ${RETURNING}`,
      [name, value, desc ?? null, req.caller?.person.id ?? null],
    );
    if (!r.rows[0]) return sendError(reply, 409, 'conflict', `a feature flag named '${name}' already exists`);
    properties.invalidate();
    return reply.code(201).send(r.rows[0]);
  });

  const update = { params: nameParam, querystring: noQuery, body: updateBody };
  app.patch('/api/properties/:name', { config, schema: update }, async (req, reply) => {
    const { name } = req.params;
    if (isLocal(name)) return localRefused(reply);
    const { value, description: desc } = req.body;
    const renamed = req.body.name;
    if (renamed !== undefined && String(renamed).trim() !== name)
      return sendError(reply, 400, 'invalid_body', 'a feature flag cannot be renamed; create a new one', {
        name: 'a feature flag cannot be renamed; create a new one',
      });
    const r = await db.query(
      `UPDATE properties SET value = $2, description = CASE WHEN $4::boolean THEN $3 ELSE description END
       WHERE name = $1 ${RETURNING}`,
      [name, value, desc ?? null, desc !== undefined],
    );
    if (!r.rows[0]) return missing(reply, name);
    properties.invalidate();
    return r.rows[0];
  });

  const remove = { params: nameParam, querystring: noQuery, body: noBody };
  app.delete('/api/properties/:name', { config, schema: remove }, async (req, reply) => {
    const { name } = req.params;
    if (isLocal(name)) return localRefused(reply);
    const r = await db.query(`DELETE FROM properties WHERE name = $1`, [name]);
    if (!r.rowCount) return missing(reply, name);
    properties.invalidate();
    return reply.code(204).send();
  });
}
