import { z } from 'zod';

/**
 * Every id is a uuid (DESIGN.md section 2). One pattern and one schema for it, so a malformed id
 * is refused before it reaches a query (where PostgreSQL would answer 22P02) and with the same
 * words wherever it appears.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/** A uuid field; `name` is how the message names it ('team_id', 'the check id'). */
export const uuidField = (name = 'id') =>
  z.string({ error: `${name} must be a UUID` }).regex(UUID_PATTERN, `${name} must be a UUID`);

/** The `:id` of a route such as DELETE /api/auth/tokens/:id. */
export const idParam = z.object({ id: uuidField('id') });
