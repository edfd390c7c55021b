import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthEngine } from '#server/health/engine.ts';
import type { ConnectionResolver } from '#server/health/connections.ts';
import type { CheckDef } from '#server/health/spec.ts';
import { closedPort, startDns, startHttp, startHttps, startTcp, type Peer } from './peers.ts';

/**
 * Every check type against a real peer on this machine, once passing and once failing, with the
 * message a person needs. Peers: local HTTP/HTTPS/TCP/DNS servers (peers.ts), the system ping,
 * a shell, PostgreSQL 127.0.0.1:5432, MariaDB 127.0.0.1:3306 and Redis 127.0.0.1:6379.
 */
const noConnections: ConnectionResolver = {
  get: async (ref) => Promise.reject(new Error(`connection ${ref} not found`)),
};
const engine = new HealthEngine(undefined as never, noConnections, { defaultTimeoutMs: 5000 });
const run = async (type: string, spec: Record<string, unknown>) =>
  (await engine.execute({ type, name: `${type} test`, spec } as CheckDef)).outcome;

let web: Peer;
let tcp: Peer;
let dns: Peer;
let secure: Peer & { cert: string };
let expiring: Peer & { cert: string };
const state = { alerts: [] as unknown[] };

beforeAll(async () => {
  [web, tcp, dns, secure, expiring] = await Promise.all([
    startHttp(state),
    startTcp(),
    startDns({ 'api.internal.test': ['127.0.0.1'], 'multi.test': ['10.0.0.1', '10.0.0.2'] }),
    startHttps(90),
    startHttps(5),
  ]);
});
afterAll(async () => {
  await Promise.all([web, tcp, dns, secure, expiring].map((p) => p?.close()));
});

describe('http check', () => {
  it('passes on the expected code, content, latency and CEL test over code, headers and json', async () => {
    const o = await run('http', {
      url: `${web.url}/ok`,
      responseCodes: [200],
      responseContent: '"status":"ok"',
      thresholdMillis: 2000,
      test: {
        expr: 'code == 200 && headers["x-service"] == "orders" && json.items.size() == 3 && body.contains("ok")',
      },
    });
    expect(o).toMatchObject({ pass: true });
    expect(o.message).toMatch(/^200 OK in \d+ms$/);
  });

  it('fails on an unexpected status code, naming both', async () => {
    const o = await run('http', { url: `${web.url}/status/503`, responseCodes: [200] });
    expect(o).toMatchObject({ pass: false, error: 'expected response code [200] but got 503 Service Unavailable' });
  });

  it('fails above the latency threshold', async () => {
    const o = await run('http', { url: `${web.url}/slow?ms=400`, thresholdMillis: 100 });
    expect(o.pass).toBe(false);
    expect(o.error).toMatch(/^response took \d+ms, above the 100ms threshold$/);
  });

  it('fails when the content is missing and when the CEL test is false', async () => {
    expect(await run('http', { url: `${web.url}/ok`, responseContent: 'healthy' })).toMatchObject({
      pass: false,
      error: 'the response does not contain "healthy"',
    });
    expect(await run('http', { url: `${web.url}/ok`, test: { expr: 'json.status == "degraded"' } })).toMatchObject({
      pass: false,
      error: 'test failed: json.status == "degraded"',
    });
  });

  it('sends method, headers and a body for POST', async () => {
    const o = await run('http', {
      url: `${web.url}/echo`,
      method: 'POST',
      body: '{"ping":1}',
      headers: [{ name: 'X-Token', value: 'abc' }],
      test: {
        expr: 'json.method == "POST" && json.body == "{\\"ping\\":1}" && json.contentType == "application/json" && json.token == "abc"',
      },
    });
    expect(o).toMatchObject({ pass: true });
    expect(await run('http', { url: `${web.url}/echo`, method: 'GET', body: 'x' })).toMatchObject({
      pass: false,
      error: 'body is allowed only for POST and PUT',
    });
  });

  it('uses basic authentication, and says NTLM is not supported', async () => {
    expect(
      await run('http', {
        url: `${web.url}/basic`,
        authentication: { username: 'user', password: { value: 'secret' } },
      }),
    ).toMatchObject({ pass: true });
    expect(
      await run('http', { url: `${web.url}/basic`, authentication: { username: 'user', password: 'wrong' } }),
    ).toMatchObject({
      pass: false,
      error: 'expected response code 2xx but got 401 Unauthorized',
    });
    const ntlm = await run('http', {
      url: `${web.url}/basic`,
      authentication: { username: 'u', password: 'p', ntlm: true },
    });
    expect(ntlm.pass).toBe(false);
    expect(ntlm.error).toMatch(/^NTLM authentication is not supported/);
  });

  it('checks the TLS certificate expiry of a self-signed server', async () => {
    const ok = await run('http', { url: secure.url, maxSSLExpiry: 30, tlsConfig: { ca: secure.cert } });
    expect(ok.pass).toBe(true);
    expect(ok.message).toMatch(/certificate valid for 8\d more days/);
    const soon = await run('http', { url: expiring.url, maxSSLExpiry: 30, tlsConfig: { insecureSkipVerify: true } });
    expect(soon.pass).toBe(false);
    expect(soon.error).toMatch(
      /^the TLS certificate expires in [45] days \(\d{4}-\d{2}-\d{2}\), within the 30-day limit$/,
    );
    const untrusted = await run('http', { url: secure.url });
    expect(untrusted).toMatchObject({ pass: false });
    expect(untrusted.error).toContain('self-signed certificate');
  });

  it('fails with a clear message when nothing listens, and on timeout', async () => {
    const port = await closedPort();
    expect(await run('http', { url: `http://127.0.0.1:${port}/` })).toMatchObject({
      pass: false,
      error: `connection refused by http://127.0.0.1:${port}: nothing is listening there`,
    });
    const slow = await run('http', { url: `${web.url}/slow?ms=2000`, timeout: '300ms' });
    expect(slow).toMatchObject({ pass: false, error: 'timed out after 0.3s (timeout)' });
  });
});

describe('tcp, tls, dns and icmp checks', () => {
  it('tcp: open port passes, closed port fails', async () => {
    expect(await run('tcp', { endpoint: tcp.url })).toMatchObject({ pass: true });
    const port = await closedPort();
    expect(await run('tcp', { endpoint: `127.0.0.1:${port}` })).toMatchObject({
      pass: false,
      error: `connection to 127.0.0.1:${port} refused: nothing is listening on that port`,
    });
    expect(await run('tcp', { endpoint: 'no-port-here' })).toMatchObject({
      pass: false,
      error: 'endpoint "no-port-here" must be host:port',
    });
  });

  it('tls: a trusted certificate far from expiry passes; near expiry or untrusted fails', async () => {
    const ok = await run('tls', { endpoint: `localhost:${secure.port}`, ca: secure.cert, maxSSLExpiry: 30 });
    expect(ok.pass).toBe(true);
    expect(ok.message).toMatch(/^certificate for localhost expires in 8\d days/);
    const soon = await run('tls', {
      endpoint: `localhost:${expiring.port}`,
      insecureSkipVerify: true,
      maxSSLExpiry: 30,
    });
    expect(soon.pass).toBe(false);
    expect(soon.error).toMatch(/^certificate expires in [45] days, within the 30-day limit$/);
    const untrusted = await run('tls', { endpoint: `localhost:${secure.port}` });
    expect(untrusted.pass).toBe(false);
    expect(untrusted.error).toMatch(/is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): it is self-signed/);
  });

  it('dns: expected answers pass; wrong answers and missing names fail', async () => {
    expect(
      await run('dns', {
        server: '127.0.0.1',
        port: dns.port,
        query: 'api.internal.test',
        querytype: 'A',
        exactreply: ['127.0.0.1'],
      }),
    ).toMatchObject({
      pass: true,
      message: 'api.internal.test A 127.0.0.1',
    });
    expect(
      await run('dns', {
        server: '127.0.0.1',
        port: dns.port,
        query: 'multi.test',
        minrecords: 2,
        test: { expr: 'records.size() == 2' },
      }),
    ).toMatchObject({ pass: true });
    expect(
      await run('dns', {
        server: '127.0.0.1',
        port: dns.port,
        query: 'txt.test',
        querytype: 'TXT',
        exactreply: ['v=watchdeck1'],
      }),
    ).toMatchObject({ pass: true });
    expect(
      await run('dns', { server: '127.0.0.1', port: dns.port, query: 'api.internal.test', exactreply: ['10.1.1.1'] }),
    ).toMatchObject({
      pass: false,
      error: 'api.internal.test A answered [127.0.0.1], expected [10.1.1.1]',
    });
    expect(await run('dns', { server: '127.0.0.1', port: dns.port, query: 'missing.test' })).toMatchObject({
      pass: false,
      error: `missing.test has no A record on 127.0.0.1:${dns.port}`,
    });
  });

  it('icmp: 127.0.0.1 answers; a round-trip threshold it cannot meet fails', async () => {
    const ok = await run('icmp', { endpoint: '127.0.0.1', packetCount: 2, packetLossThreshold: 10 });
    expect(ok.pass).toBe(true);
    expect(ok.message).toMatch(/^2 packets, 2 received, 0% loss, avg [\d.]+ms$/);
    // Only loopback may be pinged from here, and loopback always answers: the failing case is a
    // threshold below any real round trip.
    const slow = await run('icmp', { endpoint: '127.0.0.1', packetCount: 2, thresholdMillis: 0.0001 });
    expect(slow.pass).toBe(false);
    expect(slow.error).toMatch(/^average round trip [\d.]+ms to 127\.0\.0\.1, above the 0\.0001ms threshold$/);
  });
});
