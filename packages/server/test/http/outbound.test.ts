import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { HealthEngine } from '#server/health/engine.ts';
import type { CheckDef } from '#server/health/spec.ts';
import { loadConfig } from '#server/config.ts';
import {
  DEFAULT_OUTBOUND_DENY,
  guardedFetch,
  outboundAgent,
  outboundRefusal,
  setOutboundDeny,
} from '#server/http/outbound.ts';

/**
 * The outbound guard with a real listener. 127.0.0.2 stands in for a metadata address: Linux
 * routes all of 127/8 to loopback, so the same listener answers on 127.0.0.1 (allowed) and
 * 127.0.0.2 (denied in these tests), and its hit count shows that a refused call never left.
 */
let server: http.Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/secret` });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }));
  });
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());
afterEach(() => setOutboundDeny(DEFAULT_OUTBOUND_DENY));

const engine = new HealthEngine(
  undefined as never,
  { get: async () => Promise.reject(new Error('none')) },
  { defaultTimeoutMs: 5000 },
);
const check = async (type: string, spec: Record<string, unknown>) =>
  (await engine.execute({ type, name: `${type} test`, spec } as CheckDef)).outcome;

describe('outbound guard', () => {
  it('denies instance-metadata addresses by default and leaves loopback and private networks open', () => {
    for (const a of ['169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200'])
      expect(outboundRefusal(a), a).toMatch(/are not allowed \(WATCHDECK_OUTBOUND_DENY/);
    for (const a of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.1', '172.16.0.1', 'example.com'])
      expect(outboundRefusal(a), a).toBeUndefined();
  });

  it('http checks, prometheus checks and fetch refuse a denied literal address without connecting', async () => {
    setOutboundDeny(['127.0.0.2/32']);
    const before = hits;
    const o = await check('http', { url: `http://127.0.0.2:${port}/` });
    expect(o).toMatchObject({ pass: false });
    expect(JSON.stringify(o)).toContain('connections to 127.0.0.2 are not allowed');
    const p = await check('prometheus', { url: `http://127.0.0.2:${port}`, query: 'up' });
    expect(JSON.stringify(p)).toContain('connections to 127.0.0.2 are not allowed');
    await expect(guardedFetch(`http://127.0.0.2:${port}/`)).rejects.toThrow(/127\.0\.0\.2 are not allowed/);
    expect(hits).toBe(before);
    // the same listener through an allowed address answers
    expect((await check('http', { url: `http://127.0.0.1:${port}/` })).pass).toBe(true);
    expect((await guardedFetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  });

  it('checks the address a name resolves to, and a redirect to a denied address', async () => {
    setOutboundDeny(['127.0.0.0/8', '::1/128']);
    const before = hits;
    await expect(guardedFetch(`http://localhost:${port}/`)).rejects.toThrow(/localhost: connections to .* not allowed/);
    const o = await check('http', { url: `http://localhost:${port}/` });
    expect(JSON.stringify(o)).toContain('not allowed');
    expect(hits).toBe(before);

    setOutboundDeny(['127.0.0.2/32']);
    await expect(guardedFetch(`http://127.0.0.1:${port}/redirect`)).rejects.toThrow(/127\.0\.0\.2 are not allowed/);
    expect(hits).toBe(before + 1); // the redirecting answer only
  });

  it('agents for senders and insecure TLS keep the guard', async () => {
    setOutboundDeny(['127.0.0.2/32']);
    const agent = outboundAgent({ connect: { rejectUnauthorized: false } });
    await expect(request(`http://127.0.0.2:${port}/`, { dispatcher: agent })).rejects.toThrow(/not allowed/);
    expect((await request(`http://127.0.0.1:${port}/`, { dispatcher: agent })).statusCode).toBe(200);
    await agent.close();
  });

  it('WATCHDECK_OUTBOUND_DENY: default list, none, a list, and a bad value refused at start', () => {
    expect(loadConfig({}).outboundDeny).toEqual(DEFAULT_OUTBOUND_DENY);
    expect(loadConfig({ WATCHDECK_OUTBOUND_DENY: 'none' }).outboundDeny).toEqual([]);
    expect(loadConfig({ WATCHDECK_OUTBOUND_DENY: '10.0.0.0/8, 169.254.169.254' }).outboundDeny).toEqual([
      '10.0.0.0/8',
      '169.254.169.254',
    ]);
    expect(() => loadConfig({ WATCHDECK_OUTBOUND_DENY: '10.0.0.0/33' })).toThrow(/WATCHDECK_OUTBOUND_DENY/);
    expect(() => loadConfig({ WATCHDECK_OUTBOUND_DENY: 'metadata.internal' })).toThrow(/WATCHDECK_OUTBOUND_DENY/);
  });
});
