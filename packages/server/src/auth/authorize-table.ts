/**
 * The RBAC check the /api/db engine calls for every table a request touches (the table itself,
 * embedded resources, the target of a write): GET needs read on the table's resource,
 * POST/PATCH/DELETE need write. A table of a disabled feature behaves as if it did not exist.
 */
import type { FastifyRequest } from 'fastify';
import { can, normaliseResource, type Resource } from '@watchdeck/core';
import type { ExposedTables } from '../db/exposed.ts';
import { TABLE_FEATURES } from '../properties/index.ts';
import { forbiddenMessage, UNAUTHENTICATED } from './guard.ts';

export type TableAccess = 'read' | 'write';

/**
 * Thrown to deny. `code` is a SQLSTATE so the engine maps it like a database error (PostgREST
 * does the same): 42501 insufficient_privilege -> 403, 42P01 undefined_table -> 404.
 * `statusCode` serves anyone else catching it.
 */
class TableAccessError extends Error {
  constructor(
    readonly statusCode: 401 | 403 | 404,
    readonly code: '42501' | '42P01',
    message: string,
    readonly detail: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

export function createTableAuthorizer(deps: {
  exposed: ExposedTables;
  isFeatureDisabled: (feature: string) => Promise<boolean>;
}) {
  return async function authorizeTable(req: FastifyRequest, table: string, access: TableAccess): Promise<void> {
    const caller = req.caller;
    // the guard answers 401 before the engine runs; this only catches a route made public by mistake
    if (!caller) throw new TableAccessError(401, '42501', UNAUTHENTICATED.message);
    const feature = TABLE_FEATURES[table];
    if (feature && (await deps.isFeatureDisabled(feature))) {
      throw new TableAccessError(
        404,
        '42P01',
        `Could not find the table 'public.${table}' in the schema cache`,
        null,
        `the feature '${feature}' is disabled`,
      );
    }
    // A table mapped to a name outside the matrix falls back to the generic 'database' resource.
    const resource: Resource = normaliseResource(deps.exposed[table]?.resource ?? '') ?? 'database';
    if (!can(caller.roles, resource, access)) {
      throw new TableAccessError(403, '42501', forbiddenMessage({ resource, action: access }, ` (table ${table})`));
    }
  };
}
