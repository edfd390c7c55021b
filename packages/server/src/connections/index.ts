/**
 * What other areas and app.ts use of connections: the write checks registered with /api/db, the
 * secret box that opens stored secrets, the lookups by id, name and type, the plain HTTP call and
 * the redaction of secrets from error texts. Other areas import this file only, never the modules
 * behind it (lint enforces it).
 */
import type { WriteRegistration } from '../pgrest/index.ts';
import { validateConnectionWrite } from './validate.ts';

export { SecretBox } from './secret-box.ts';
export { redactSecrets, type PlainConnection } from './testers/index.ts';
export { httpCall, type HttpAnswer, type HttpCallOptions } from './http-call.ts';
export {
  ConnectionLookupError,
  connectionById,
  connectionByName,
  connectionsOfType,
  type StoredConnection,
} from './lookup.ts';

/** Writes to `connections` through /api/db are checked before the SQL (validate.ts). */
export const connectionWrites: readonly WriteRegistration[] = [
  { table: 'connections', check: validateConnectionWrite },
];
