/**
 * Where editor-written specs may make the server connect. Checks, scrapers, lookups, playbook
 * actions and notification senders reach internal services by design, so loopback and private
 * networks stay open; what is closed by default is the cloud instance-metadata service (link-local
 * 169.254/16 and fe80::/10, AWS's fd00:ec2::254, Alibaba's 100.100.100.200), whose answer would
 * hand the server's cloud credentials to whoever can read a scraped item or a check's body.
 *
 * The check is made on the resolved address at connect time (a name that resolves to a denied
 * address is refused, including after a redirect or a DNS change), and on literal addresses too,
 * which never go through a lookup. WATCHDECK_OUTBOUND_DENY replaces the list ('none' empties it).
 */
import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch, type RequestInfo, type RequestInit, type Response } from 'undici';

export const DEFAULT_OUTBOUND_DENY = ['169.254.0.0/16', '100.100.100.200/32', 'fe80::/10', 'fd00:ec2::254/128'];

let denied = blockList(DEFAULT_OUTBOUND_DENY);
let deniedText = DEFAULT_OUTBOUND_DENY.join(', ');

/** Parses `a.b.c.d/n` or `x::/n` (a bare address is a /32 or /128); throws on anything else. */
export function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [address, bits] = cidr.trim().split('/');
  const v = isIP(address);
  if (!v) throw new Error(`${cidr} is not an IP address or CIDR range`);
  const max = v === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`${cidr} has a bad prefix length`);
  return { address, prefix, family: v === 4 ? 'ipv4' : 'ipv6' };
}

function blockList(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const c of cidrs) {
    const { address, prefix, family } = parseCidr(c);
    list.addSubnet(address, prefix, family);
  }
  return list;
}

/** Replaces the denied ranges (called once at start-up from the config). */
export function setOutboundDeny(cidrs: string[]): void {
  denied = blockList(cidrs);
  deniedText = cidrs.join(', ') || 'none';
}

/** The refusal message for an address the server may not connect to, else undefined. */
export function outboundRefusal(address: string): string | undefined {
  const v = isIP(address);
  if (!v) return undefined;
  // IPv4-mapped IPv6 (::ffff:169.254.169.254) is the IPv4 address underneath
  const mapped = v === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  const hit = mapped ? denied.check(mapped, 'ipv4') : denied.check(address, v === 4 ? 'ipv4' : 'ipv6');
  return hit ? `connections to ${address} are not allowed (WATCHDECK_OUTBOUND_DENY: ${deniedText})` : undefined;
}

/** dns.lookup that drops denied addresses and fails when none is left. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const literal = outboundRefusal(hostname);
  if (literal) {
    callback(Object.assign(new Error(literal), { code: 'EOUTBOUNDDENIED' }), '', 0);
    return;
  }
  dns.lookup(hostname, { ...options, all: true } as LookupAllOptions, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const allowed = addresses.filter((a) => !outboundRefusal(a.address));
    if (!allowed.length) {
      const refusal = outboundRefusal(addresses[0]?.address ?? '') ?? `${hostname} has no address`;
      return callback(Object.assign(new Error(`${hostname}: ${refusal}`), { code: 'EOUTBOUNDDENIED' }), '', 0);
    }
    if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, allowed);
    else callback(null, allowed[0].address, allowed[0].family);
  });
};

/** An undici Agent whose connections pass the guard (literal hosts included). */
export function outboundAgent(options: Agent.Options = {}): Agent {
  const connectOptions = typeof options.connect === 'object' ? options.connect : {};
  const connector = buildConnector({ ...connectOptions, lookup: guardedLookup } as buildConnector.BuildOptions);
  return new Agent({
    ...options,
    connect: (opts, callback) => {
      const refusal = outboundRefusal(opts.hostname.replace(/^\[|\]$/g, ''));
      if (refusal) return callback(Object.assign(new Error(refusal), { code: 'EOUTBOUNDDENIED' }), null);
      return connector(opts, callback);
    },
  });
}

/** The guarded agent that fetch calls without a TLS exception share. */
const outbound = outboundAgent({ connections: 64, keepAliveTimeout: 10_000 });

/** fetch through the guarded agent: the one editors' specs reach (scrapers, lookups, actions, checks). */
export async function guardedFetch(input: RequestInfo, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(input, { ...init, dispatcher: init.dispatcher ?? outbound });
  } catch (err) {
    // fetch says only "fetch failed"; the refusal is what the spec's author needs to read
    const cause = (err as { cause?: { code?: string } }).cause;
    throw cause?.code === 'EOUTBOUNDDENIED' ? cause : err;
  }
}

/**
 * For socket clients that take a `lookup` option (net, tls, redis, ...): throws the refusal for a
 * literal denied host (a literal never goes through a lookup), and returns the guarded lookup to
 * pass, which refuses names resolving only to denied addresses at connect time.
 */
export function guardedSocketLookup(host: string): LookupFunction {
  const literal = outboundRefusal(host.replace(/^\[(.*)\]$/, '$1'));
  if (literal) throw Object.assign(new Error(literal), { code: 'EOUTBOUNDDENIED' });
  return guardedLookup;
}

/**
 * For clients without a `lookup` option (pg, mysql2): resolves `host` through the guard before
 * connecting and throws the refusal when it is denied or resolves only to denied addresses. The
 * client resolves again itself, so a name whose DNS answer changes in between is not caught.
 */
export async function assertOutboundHost(host: string): Promise<void> {
  const lookup = guardedSocketLookup(host);
  await new Promise<void>((resolve, reject) =>
    lookup(host.replace(/^\[(.*)\]$/, '$1'), {}, (err) => (err ? reject(new Error(err.message)) : resolve())),
  );
}
