import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db/index.ts';
import { needs } from '../auth/index.ts';
import type { PropertiesService } from './index.ts';

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
export const MESSAGES = {
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

interface PropertyBody {
  name?: unknown;
  value?: unknown;
  description?: unknown;
}

const RETURNING = `RETURNING name, value, description, created_by, created_at, updated_at`;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

function bodyOf(raw: unknown): PropertyBody {
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as PropertyBody) : {};
}

function description(v: unknown): string | null | undefined | false {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'string') return false;
  return v.trim() || null;
}

export function propertyWriteRoutes(app: FastifyInstance, { db, properties, local }: PropertyWriteDeps) {
  const rule = { config: needs('properties', 'write', { feature: 'settings.feature_flags' }) };
  const isLocal = (name: string) => Object.prototype.hasOwnProperty.call(local, name);
  const bad = (reply: FastifyReply, error: string) => reply.code(400).send({ error });
  const localRefused = (reply: FastifyReply) => reply.code(409).send({ error: MESSAGES.local });

  app.post('/api/properties', rule, async (req, reply) => {
    const b = bodyOf(req.body);
    const name = text(b.name);
    const value = text(b.value);
    const desc = description(b.description);
    if (!name || !value) return bad(reply, MESSAGES.incomplete);
    if (desc === false) return bad(reply, 'description must be a string');
    if (name.length > MAX_NAME || /\s/.test(name)) return bad(reply, `a feature flag name is at most ${MAX_NAME} characters without spaces`);
    if (value.length > MAX_VALUE) return bad(reply, `a feature flag value is at most ${MAX_VALUE} characters`);
    if (isLocal(name)) return localRefused(reply);
    const r = await db.query(
      `INSERT INTO properties (name, value, description, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO NOTHING ${RETURNING}`,
      [name, value, desc ?? null, req.caller?.person.id ?? null],
    );
    if (!r.rows[0]) return reply.code(409).send({ error: `a feature flag named '${name}' already exists` });
    properties.invalidate();
    return reply.code(201).send(r.rows[0]);
  });

  app.patch<{ Params: { name: string } }>('/api/properties/:name', rule, async (req, reply) => {
    const { name } = req.params;
    if (isLocal(name)) return localRefused(reply);
    const b = bodyOf(req.body);
    const value = text(b.value);
    const desc = description(b.description);
    if (!value) return bad(reply, MESSAGES.incomplete);
    if (desc === false) return bad(reply, 'description must be a string');
    if (value.length > MAX_VALUE) return bad(reply, `a feature flag value is at most ${MAX_VALUE} characters`);
    if (b.name !== undefined && text(b.name) !== name) return bad(reply, 'a feature flag cannot be renamed; create a new one');
    const r = await db.query(
      `UPDATE properties SET value = $2, description = CASE WHEN $4::boolean THEN $3 ELSE description END
       WHERE name = $1 ${RETURNING}`,
      [name, value, desc ?? null, desc !== undefined],
    );
    if (!r.rows[0]) return reply.code(404).send({ error: `no feature flag named '${name}'` });
    properties.invalidate();
    return r.rows[0];
  });

  app.delete<{ Params: { name: string } }>('/api/properties/:name', rule, async (req, reply) => {
    const { name } = req.params;
    if (isLocal(name)) return localRefused(reply);
    const r = await db.query(`DELETE FROM properties WHERE name = $1`, [name]);
    if (!r.rowCount) return reply.code(404).send({ error: `no feature flag named '${name}'` });
    properties.invalidate();
    return reply.code(204).send();
  });
}
