import { describe, expect, it } from 'vitest';
import { loadConfig, parseLocalProperties } from '../../src/config.ts';

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
});
