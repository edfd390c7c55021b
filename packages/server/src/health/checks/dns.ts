import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { num, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * DNS check (canary-checker's fields): server, port (53), query, querytype (A, AAAA, CNAME, MX,
 * NS, TXT, SRV, PTR), minrecords, exactreply (the answers, in any order), thresholdMillis.
 * Asks the given server directly (node:dns Resolver), never the system's resolver cache.
 */
const TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SRV', 'PTR'] as const;
type RecordType = (typeof TYPES)[number];

function flatten(type: RecordType, answers: unknown[]): string[] {
  return answers.map((a) => {
    if (typeof a === 'string') return a;
    if (Array.isArray(a)) return a.join(''); // TXT chunks
    const r = a as Record<string, unknown>;
    if (type === 'MX') return `${String(r.exchange)} ${String(r.priority)}`;
    if (type === 'SRV') return `${String(r.name)}:${String(r.port)} ${String(r.priority)} ${String(r.weight)}`;
    return JSON.stringify(a);
  });
}

export async function dnsCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const query = str(spec, 'query');
  if (!query) throw new Error('query is required (the name to look up)');
  const type = (str(spec, 'querytype') ?? 'A').toUpperCase() as RecordType;
  if (!TYPES.includes(type)) throw new Error(`querytype ${type} is not supported; use one of ${TYPES.join(', ')}`);
  const server = str(spec, 'server');
  const port = num(spec, 'port') ?? 53;
  const resolver = new Resolver({ timeout: Math.max(500, Math.min(ctx.timeoutMs, 10_000)), tries: 1 });
  if (server) {
    if (!isIP(server)) throw new Error(`server must be an IP address, got "${server}"`);
    resolver.setServers([isIP(server) === 6 ? `[${server}]:${port}` : `${server}:${port}`]);
  }
  ctx.signal.addEventListener('abort', () => resolver.cancel(), { once: true });
  const where = server ? ` on ${server}:${port}` : '';
  const started = performance.now();
  let answers: string[];
  try {
    const raw = type === 'PTR' ? await resolver.reverse(query) : ((await resolver.resolve(query, type)) as unknown[]);
    answers = flatten(type, raw);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      throw new Error(`${query} has no ${type} record${where}`, { cause: err });
    if (code === 'ETIMEOUT')
      throw new Error(`no answer from the DNS server${where} for ${query} ${type}`, { cause: err });
    if (code === 'ECONNREFUSED') throw new Error(`the DNS server${where} refused the query`, { cause: err });
    throw new Error(`lookup of ${query} ${type}${where} failed: ${(err as Error).message}`, { cause: err });
  }
  const elapsed = Math.round(performance.now() - started);
  const message = `${query} ${type} ${answers.join(', ')}`;
  const vars = { records: answers, elapsed };
  const min = num(spec, 'minrecords');
  if (min !== undefined && answers.length < min) {
    return {
      pass: false,
      message,
      error: `got ${answers.length} ${type} records for ${query}, expected at least ${min}`,
      vars,
    };
  }
  const exact = Array.isArray(spec.exactreply) ? (spec.exactreply as unknown[]).map(String) : undefined;
  if (exact?.length) {
    const got = [...answers].sort();
    const want = [...exact].sort();
    if (got.length !== want.length || got.some((v, i) => v !== want[i])) {
      return {
        pass: false,
        message,
        error: `${query} ${type} answered [${answers.join(', ')}], expected [${exact.join(', ')}]`,
        vars,
      };
    }
  }
  const threshold = num(spec, 'thresholdMillis');
  if (threshold && elapsed > threshold) {
    return { pass: false, message, error: `the lookup took ${elapsed}ms, above the ${threshold}ms threshold`, vars };
  }
  return { pass: true, message, vars };
}
