import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, scrubSecretEnv, SECRET_SETTINGS } from '#server/config.ts';

/**
 * Secrets come from <NAME>_FILE or the environment, and leave the environment once read, so no
 * child process inherits them (issue 12 point 1).
 */
const dir = mkdtempSync(join(tmpdir(), 'watchdeck-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content, { mode: 0o600 });
  return p;
};

describe('secret settings', () => {
  it('reads each secret from its _FILE, without the trailing newline, and remembers the files', () => {
    const env = {
      DATABASE_URL_FILE: file('db', 'postgres://u:p@db:5432/w\n'),
      WATCHDECK_SECRET_KEY_FILE: file('key', 'k'.repeat(32) + '\r\n'),
      WATCHDECK_ADMIN_PASSWORD_FILE: file('admin', 'correct horse battery\n'),
      SMTP_URL_FILE: file('smtp', 'smtp://m:pw@mail:587'),
    };
    const c = loadConfig(env);
    expect(c).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/w',
      secretKey: 'k'.repeat(32),
      adminPassword: 'correct horse battery',
      smtpUrl: 'smtp://m:pw@mail:587',
    });
    expect(c.secretFiles).toEqual(Object.values(env));
    // still validated like the plain variable
    expect(() => loadConfig({ WATCHDECK_SECRET_KEY_FILE: file('short', 'short\n') })).toThrow(/WATCHDECK_SECRET_KEY/);
  });

  it('refuses both a value and a file, and a file it cannot read', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://a', SMTP_URL_FILE: file('s2', 'smtp://b') })).toThrow(
      'invalid configuration: set SMTP_URL or SMTP_URL_FILE, not both',
    );
    expect(() => loadConfig({ DATABASE_URL_FILE: join(dir, 'missing') })).toThrow(
      `invalid configuration: DATABASE_URL_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`,
    );
  });

  it('scrubSecretEnv removes every secret from the environment, nothing else', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin', PORT: '8080', SMTP_FROM: 'ops@example.com' };
    for (const name of SECRET_SETTINGS) env[name] = `${name}-value`;
    const config = loadConfig(env);
    scrubSecretEnv(env);
    expect(env).toEqual({ PATH: '/usr/bin', PORT: '8080', SMTP_FROM: 'ops@example.com' });
    // read before: the configuration still holds them
    expect(config.adminPassword).toBe('WATCHDECK_ADMIN_PASSWORD-value');
  });
});

describe('sandbox settings', () => {
  it('reads the bwrap path and the limits, with defaults', () => {
    expect(loadConfig({}).sandbox).toEqual({
      bwrap: '/usr/bin/bwrap',
      memoryBytes: 512 * 1024 * 1024,
      maxProcesses: 64,
      maxOutputBytes: 64 * 1024,
    });
    const c = loadConfig({
      WATCHDECK_SANDBOX_BWRAP: '/opt/bwrap',
      WATCHDECK_SANDBOX_MEMORY_MB: '128',
      WATCHDECK_SANDBOX_MAX_PROCESSES: '16',
      WATCHDECK_SANDBOX_MAX_OUTPUT_KB: '8',
    });
    expect(c.sandbox).toEqual({
      bwrap: '/opt/bwrap',
      memoryBytes: 128 * 1024 * 1024,
      maxProcesses: 16,
      maxOutputBytes: 8192,
    });
    expect(() => loadConfig({ WATCHDECK_SANDBOX_MEMORY_MB: '1' })).toThrow(/WATCHDECK_SANDBOX_MEMORY_MB/);
  });
});
