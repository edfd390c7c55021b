import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Mailer } from '../mail/index.ts';
import type { SecretSealer } from './secrets-at-rest.ts';

/** What the identity service's modules share; passed as a plain argument, no container. */
export interface AuthContext {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** encrypts TOTP secrets at rest (the connection secrets' key) */
  box: SecretSealer;
}
