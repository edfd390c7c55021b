import { describe, expect, it } from 'vitest';
import { loadConfig, parseLocalProperties } from '#server/config.ts';

describe('auth settings', () => {
  it('parses WATCHDECK_PROPERTIES as read-only local flags', () => {
    expect(parseLocalProperties('a.disable=true, b.disable=false,,broken, c=x=y')).toEqual({
      'a.disable': 'true',
      'b.disable': 'false',
      c: 'x=y',
    });
  });

  it('reads the identity settings with safe defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      authMode: 'kratos',
      registrationEnabled: false,
      sessionTtlMs: 24 * 3600_000,
      localProperties: {},
    });
    expect(c.smtpUrl).toBeUndefined();
    const d = loadConfig({
      AUTH: 'none',
      WATCHDECK_SESSION_TTL: '30m',
      WATCHDECK_PUBLIC_URL: 'https://ops.example.com/',
      WATCHDECK_PROPERTIES: 'logs.disable=true',
    });
    expect(d).toMatchObject({
      authMode: 'none',
      sessionTtlMs: 30 * 60_000,
      publicUrl: 'https://ops.example.com',
      localProperties: { 'logs.disable': 'true' },
    });
    expect(() => loadConfig({ WATCHDECK_SESSION_TTL: 'forever' })).toThrow(/WATCHDECK_SESSION_TTL/);
    expect(() => loadConfig({ AUTH: 'maybe' })).toThrow(/AUTH/);
  });

  it('reads the proxy, host and framing settings; refuses malformed ones', () => {
    expect(loadConfig({})).toMatchObject({ trustProxy: false, allowedHosts: [], frameAncestors: "'none'" });
    expect(loadConfig({ WATCHDECK_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ WATCHDECK_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ WATCHDECK_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/1', ','])
      expect(() => loadConfig({ WATCHDECK_TRUST_PROXY: bad }), bad).toThrow(/WATCHDECK_TRUST_PROXY/);
    expect(loadConfig({ WATCHDECK_ALLOWED_HOSTS: 'Ops.Example.com, 127.0.0.1:8080,' }).allowedHosts).toEqual([
      'ops.example.com',
      '127.0.0.1:8080',
    ]);
    expect(loadConfig({ WATCHDECK_FRAME_ANCESTORS: "'self' https://wiki.example.com" }).frameAncestors).toBe(
      "'self' https://wiki.example.com",
    );
    expect(() => loadConfig({ WATCHDECK_FRAME_ANCESTORS: "'none'; script-src *" })).toThrow(
      /WATCHDECK_FRAME_ANCESTORS/,
    );
  });
});
