import type { Db } from '../db/index.ts';
import type { SecretBox } from '../connections/index.ts';
import type { PlainConnection } from '../connections/index.ts';

/**
 * Connections from the settings area, usable by name in a check spec:
 * `connection: orders-db`, `connection: data/orders-db` or `connection: connection://data/orders-db`
 * (namespace/name). Secrets are decrypted here, in memory, for the run only. Lookups are cached for
 * a few seconds so thousands of checks sharing a connection cost one query per interval.
 */
export interface ResolvedConnection extends PlainConnection {
  name: string;
  namespace: string;
}

export interface ConnectionResolver {
  get(ref: string): Promise<ResolvedConnection>;
}

const TTL_MS = 10_000;

function parseConnectionRef(ref: string): { namespace?: string; name: string } {
  const text = ref.trim().replace(/^connection:\/\//, '');
  const slash = text.indexOf('/');
  if (slash > 0) return { namespace: text.slice(0, slash), name: text.slice(slash + 1) };
  return { name: text };
}

export function connectionResolver(db: Db, box: SecretBox | undefined): ConnectionResolver {
  const cache = new Map<string, { at: number; value: Promise<ResolvedConnection> }>();
  const load = async (ref: string): Promise<ResolvedConnection> => {
    const { namespace, name } = parseConnectionRef(ref);
    if (!name) throw new Error(`connection "${ref}" has no name`);
    const { rows } = await db.query<ResolvedConnection>(
      `SELECT name, namespace, type, url, username, password, certificate, insecure_tls, properties
       FROM connections WHERE name = $1 AND ($2::text IS NULL OR namespace = $2) AND deleted_at IS NULL
       ORDER BY (namespace = 'default') DESC, created_at LIMIT 1`,
      [name, namespace ?? null],
    );
    const c = rows[0];
    if (!c)
      throw new Error(
        `connection ${namespace ? `${namespace}/` : ''}${name} not found: create it under Settings > Connections`,
      );
    try {
      const open = (v: string | null | undefined) => (v && box ? box.decrypt(v) : (v ?? null));
      return { ...c, url: open(c.url), password: open(c.password), certificate: open(c.certificate) };
    } catch {
      throw new Error(
        `the secret of connection ${c.namespace}/${c.name} cannot be decrypted with the current WATCHDECK_SECRET_KEY; save the connection again`,
      );
    }
  };
  return {
    get(ref) {
      const hit = cache.get(ref);
      if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
      const value = load(ref);
      cache.set(ref, { at: Date.now(), value });
      value.catch(() => cache.delete(ref));
      return value;
    },
  };
}

const DEFAULT_PORTS: Record<string, string> = {
  http: '80',
  https: '443',
  postgres: '5432',
  mysql: '3306',
  redis: '6379',
  rediss: '6379',
};

/**
 * A URL's origin: scheme, host and port, the scheme's default port filled in (`postgresql` counts
 * as `postgres`, so `postgres://db` and `postgresql://db:5432/other` are one origin). Undefined
 * when the text is not a URL.
 */
function originOf(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  const scheme = u.protocol
    .replace(/:$/, '')
    .toLowerCase()
    .replace(/^postgresql$/, 'postgres');
  const host = u.hostname.toLowerCase();
  if (!host) return undefined;
  return `${scheme}://${host}:${u.port || DEFAULT_PORTS[scheme] || ''}`;
}

/**
 * The connection's username and password for a request to `target`, or none. A connection's
 * credentials go only to its own origin (scheme, host and port of its URL): a spec that names a
 * connection but sends the request elsewhere (its own `url`, `host`, `addr`) must not carry the
 * connection's secrets there, or anyone allowed to edit a check could read them off a listener of
 * their own. A connection without a URL lends its credentials to no host.
 */
export function credentialsFor(
  c: ResolvedConnection,
  target: string | null | undefined,
): { username?: string; password?: string } {
  const own = originOf(c.url);
  if (!own || own !== originOf(target)) return {};
  return { username: c.username ?? undefined, password: c.password ?? undefined };
}

/** Puts a connection's username/password into a URL unless it already carries credentials. */
export function urlWithCredentials(raw: string, user?: string | null, pass?: string | null): string {
  const u = new URL(raw);
  if (!u.username && user) u.username = encodeURIComponent(user);
  if (!u.password && pass) u.password = encodeURIComponent(pass);
  return u.toString();
}
