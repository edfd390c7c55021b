import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { HealthEngine } from '#server/health/engine.ts';
import type { ConnectionResolver } from '#server/health/connections.ts';
import type { CheckDef } from '#server/health/spec.ts';
import { DEFAULT_OUTBOUND_DENY, setOutboundDeny } from '#server/http/outbound.ts';

/**
 * The outbound deny list (WATCHDECK_OUTBOUND_DENY) holds for socket checks (tcp, tls, redis, postgres, mysql), not
 * only HTTP: a literal denied address and a name resolving only to denied addresses are refused
 * with the setting named; an allowed local service still answers.
 */
const noConnections: ConnectionResolver = {
  get: async (ref) => Promise.reject(new Error(`connection ${ref} not found`)),
};
const engine = new HealthEngine(undefined as never, noConnections, { defaultTimeoutMs: 5000 });
const run = async (type: string, spec: Record<string, unknown>) =>
  (await engine.execute({ type, name: `${type} test`, spec } as CheckDef)).outcome;

let server: net.Server;
let port: number;
beforeAll(async () => {
  server = net.createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => setOutboundDeny(DEFAULT_OUTBOUND_DENY));

describe('socket checks and the outbound deny list', () => {
  it('refuses the cloud metadata address by default for tcp, tls and redis', async () => {
    for (const [type, spec] of [
      ['tcp', { endpoint: '169.254.169.254:80' }],
      ['tls', { endpoint: '169.254.169.254:443' }],
      ['redis', { addr: '169.254.169.254:6379' }],
      ['postgres', { url: 'postgres://u@169.254.169.254:5432/db', query: 'SELECT 1' }],
      ['mysql', { url: 'mysql://u@169.254.169.254:3306/db', query: 'SELECT 1' }],
    ] as const) {
      const out = await run(type, spec);
      expect(out.pass, type).toBe(false);
      expect(out.error, type).toMatch(/connections to 169\.254\.169\.254 are not allowed \(WATCHDECK_OUTBOUND_DENY: /);
    }
  });

  it('refuses a name that resolves only to denied addresses; allowed local services still work', async () => {
    expect(await run('tcp', { endpoint: `127.0.0.1:${port}` })).toMatchObject({ pass: true });
    expect(await run('redis', { addr: '127.0.0.1:6379' })).toMatchObject({ pass: true });
    const pg = { url: 'postgres://postgres@127.0.0.1:5432/postgres', query: 'SELECT 1' };
    expect(await run('postgres', pg)).toMatchObject({ pass: true });
    setOutboundDeny(['127.0.0.0/8', '::1/128']);
    const byName = await run('tcp', { endpoint: `localhost:${port}` });
    expect(byName.pass).toBe(false);
    expect(byName.error).toMatch(/^localhost: connections to (127\.0\.0\.1|::1) are not allowed/);
    const redis = await run('redis', { addr: `localhost:6379` });
    expect(redis.pass).toBe(false);
    expect(redis.error).toMatch(/not allowed \(WATCHDECK_OUTBOUND_DENY: 127\.0\.0\.0\/8, ::1\/128\)/);
    const pgByName = await run('postgres', { ...pg, url: 'postgres://postgres@localhost:5432/postgres' });
    expect(pgByName.error).toMatch(/^localhost: connections to (127\.0\.0\.1|::1) are not allowed/);
  });
});
