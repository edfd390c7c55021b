import type { WriteRegistration } from '../pgrest/index.ts';
import { validateConnectionWrite } from './validate.ts';

/** Writes to `connections` through /api/db are checked before the SQL (validate.ts). */
export const connectionWrites: readonly WriteRegistration[] = [
  { table: 'connections', check: validateConnectionWrite },
];
