/**
 * Who may read /metrics: a client whose address is on WATCHDECK_METRICS_ALLOW (default loopback
 * only), or one sending `Authorization: Bearer <WATCHDECK_METRICS_TOKEN>`. The address is the
 * request's client address as Fastify reports it, so behind a reverse proxy it follows
 * WATCHDECK_TRUST_PROXY: an untrusted X-Forwarded-For changes nothing.
 */
import { BlockList, isIP } from 'node:net';
import { timingSafeEqual, createHash } from 'node:crypto';

export type MetricsAccess = 'allowed' | 'unauthenticated' | 'forbidden';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/** 'loopback', 'none', or comma-separated addresses/CIDRs; undefined when malformed. */
export function parseAllowList(raw: string): string[] | undefined {
  const parts = raw
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const out: string[] = [];
  for (const p of parts) {
    if (p === 'loopback') out.push(...LOOPBACK);
    else if (p === 'none') continue;
    else {
      const [ip, bits, extra] = p.split('/');
      const family = isIP(ip);
      if (!family || extra !== undefined) return undefined;
      if (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))) return undefined;
      out.push(bits === undefined ? `${ip}/${family === 4 ? 32 : 128}` : p);
    }
  }
  return out;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export function metricsAccess(allow: string[], token: string | undefined) {
  const list = new BlockList();
  for (const cidr of allow) {
    const [ip, bits] = cidr.split('/');
    list.addSubnet(ip, Number(bits), isIP(ip) === 4 ? 'ipv4' : 'ipv6');
  }
  // compared as digests: equal lengths, so timingSafeEqual says nothing of the token's length
  const expected = token ? digest(token) : undefined;
  const allowedAddress = (addr: string | undefined) => {
    if (!addr) return false;
    // an IPv4 client of a dual-stack socket
    const ip = addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4 ? addr.slice(7) : addr;
    const family = isIP(ip);
    return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
  return (addr: string | undefined, authorization: string | undefined): MetricsAccess => {
    if (allowedAddress(addr)) return 'allowed';
    if (!expected) return 'forbidden';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return m && timingSafeEqual(digest(m[1]), expected) ? 'allowed' : 'unauthenticated';
  };
}
