import { isValueReference } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import type { SecretBox } from './secret-box.ts';
import type { PlainConnection } from './testers/index.ts';

/**
 * Connections for other areas' outbound calls (incident responders, lookups): found by id, by name
 * (`name` or `namespace/name`) or as "the only one of a type", with their secrets decrypted in
 * memory for the call only. Never cached: a connection edited in Settings applies to the next call.
 */
export interface StoredConnection extends PlainConnection {
  id: string;
  name: string;
  namespace: string;
}

export class ConnectionLookupError extends Error {
  constructor(
    message: string,
    /** 'missing': nothing matched; 'ambiguous': several matched; 'unusable': found but cannot be used here */
    readonly reason: 'missing' | 'ambiguous' | 'unusable',
  ) {
    super(message);
  }
}

const COLUMNS = 'id, name, namespace, type, url, username, password, certificate, insecure_tls, properties';

function open(c: StoredConnection, box: SecretBox | undefined): StoredConnection {
  let plain: StoredConnection;
  try {
    const dec = (v: string | null | undefined) => (v && box ? box.decrypt(v) : (v ?? null));
    plain = { ...c, url: dec(c.url), password: dec(c.password), certificate: dec(c.certificate) };
  } catch {
    throw new ConnectionLookupError(
      `the secret of connection ${c.namespace}/${c.name} cannot be decrypted with the current WATCHDECK_SECRET_KEY; save the connection again`,
      'unusable',
    );
  }
  for (const field of ['url', 'username', 'password', 'certificate'] as const) {
    if (isValueReference(plain[field])) {
      throw new ConnectionLookupError(
        `the ${field} of connection ${c.namespace}/${c.name} comes from a Kubernetes secret, config map or Helm release; this server cannot resolve those, so store the value itself`,
        'unusable',
      );
    }
  }
  return plain;
}

export async function connectionById(
  q: Queryable,
  box: SecretBox | undefined,
  id: string,
): Promise<StoredConnection | undefined> {
  const { rows } = await q.query<StoredConnection>(
    `SELECT ${COLUMNS} FROM connections WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0] && open(rows[0], box);
}

/** `ref` is `name`, `namespace/name` or `connection://namespace/name`; `type` restricts the match. */
export async function connectionByName(
  q: Queryable,
  box: SecretBox | undefined,
  ref: string,
  type?: string,
): Promise<StoredConnection> {
  const text = ref.trim().replace(/^connection:\/\//, '');
  const slash = text.indexOf('/');
  const namespace = slash > 0 ? text.slice(0, slash) : null;
  const name = slash > 0 ? text.slice(slash + 1) : text;
  const { rows } = await q.query<StoredConnection>(
    `SELECT ${COLUMNS} FROM connections
     WHERE name = $1 AND ($2::text IS NULL OR namespace = $2) AND ($3::text IS NULL OR type = $3) AND deleted_at IS NULL
     ORDER BY (namespace = 'default') DESC, created_at LIMIT 1`,
    [name, namespace, type ?? null],
  );
  if (!rows[0]) {
    throw new ConnectionLookupError(
      `connection ${text}${type ? ` of type ${type}` : ''} not found: create it under Settings > Connections`,
      'missing',
    );
  }
  return open(rows[0], box);
}

/** Every connection of the types, without secrets (for pickers). */
export async function connectionsOfType(
  q: Queryable,
  types: readonly string[],
): Promise<
  { id: string; name: string; namespace: string; type: string; properties: Record<string, unknown> | null }[]
> {
  const { rows } = await q.query<{
    id: string;
    name: string;
    namespace: string;
    type: string;
    properties: Record<string, unknown> | null;
  }>(
    `SELECT id, name, namespace, type, properties FROM connections
     WHERE type = ANY($1::text[]) AND deleted_at IS NULL ORDER BY name, namespace LIMIT 500`,
    [types],
  );
  return rows;
}
