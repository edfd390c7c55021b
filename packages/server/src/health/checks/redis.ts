import { createClient } from 'redis';
import { credentialsFor } from '../connections.ts';
import { guardedSocketLookup } from '#server/http/outbound.ts';
import { abortable, num, secretOrValue, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * Redis check (seed 002: addr required, db default 0): connects (addr host:port, a url, or a
 * connection by name), authenticates, selects the db and sends PING, or `query` (one command
 * such as `GET feature:flag`) whose reply must equal `results` when given. The reply reaches the
 * `test` expression as `results`.
 */
export async function redisCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  let url = str(spec, 'url');
  const addr = str(spec, 'addr');
  let username = secretOrValue(spec.username, 'username');
  let password = secretOrValue(spec.password, 'password');
  const auth = spec.auth as Record<string, unknown> | undefined;
  if (auth && typeof auth === 'object') {
    username = secretOrValue(auth.username, 'auth.username') ?? username;
    password = secretOrValue(auth.password, 'auth.password') ?? password;
  }
  const connection = str(spec, 'connection');
  if (connection) {
    const c = await ctx.connections.get(connection);
    url ??= c.url ?? undefined;
    if (!url && addr) url = `redis://${addr.replace(/^redis:\/\//, '')}`;
    const lent = credentialsFor(c, url);
    username ??= lent.username;
    password ??= lent.password;
  }
  if (!url && addr) url = `redis://${addr.replace(/^redis:\/\//, '')}`;
  if (!url) throw new Error('addr is required (host:port)');
  const db = num(spec, 'db') ?? 0;
  // the outbound deny list (WATCHDECK_OUTBOUND_DENY) holds for sockets too
  const lookup = guardedSocketLookup(new URL(url).hostname);
  const client = createClient({
    url,
    username,
    password,
    database: db,
    socket: { connectTimeout: ctx.timeoutMs, reconnectStrategy: false, lookup },
  });
  client.on('error', () => {}); // surfaced by connect() and the command
  const where = addr ?? new URL(url).host;
  try {
    try {
      await abortable(client.connect(), ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const e = err as Error & { code?: string };
      if (e.code === 'ECONNREFUSED')
        throw new Error(`cannot connect to Redis at ${where}: connection refused`, { cause: err });
      throw new Error(`cannot connect to Redis at ${where}: ${e.message}`, { cause: err });
    }
    const query = str(spec, 'query');
    const args = query
      ? (query.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^["']|["']$/g, ''))
      : ['PING'];
    let reply: unknown;
    try {
      reply = await abortable(client.sendCommand(args), ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new Error(`${args[0]} failed: ${(err as Error).message}`, { cause: err });
    }
    const text =
      reply === null || reply === undefined
        ? 'nil'
        : Buffer.isBuffer(reply)
          ? reply.toString('utf8')
          : typeof reply === 'object'
            ? JSON.stringify(reply)
            : String(reply);
    const vars = { results: reply ?? null, reply: text };
    const message = `${args[0].toUpperCase()}: ${text.slice(0, 500)}`;
    const expected = spec.results ?? (query ? undefined : 'PONG');
    if (expected !== undefined && text !== String(expected)) {
      return { pass: false, message, error: `${args.join(' ')} answered ${text}, expected ${String(expected)}`, vars };
    }
    return { pass: true, message, vars };
  } finally {
    if (client.isOpen) void client.quit().catch(() => {});
  }
}
