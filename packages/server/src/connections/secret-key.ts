import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The key that encrypts connection secrets: WATCHDECK_SECRET_KEY when set (production: keep it
 * out of the database's backups), otherwise a key generated once into the data directory so the
 * embedded single-machine default works without setup.
 */
export function resolveSecretKey(opts: { secretKey?: string; dataDir: string }, warn: (msg: string) => void): string {
  if (opts.secretKey) return opts.secretKey;
  const dir = opts.dataDir === 'memory://' ? undefined : opts.dataDir;
  if (!dir) return randomBytes(32).toString('base64url'); // throw-away database, throw-away key
  const file = join(dir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  warn(`WATCHDECK_SECRET_KEY is not set: generated a key into ${file}; set WATCHDECK_SECRET_KEY in production`);
  return key;
}
