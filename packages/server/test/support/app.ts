import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import type { Db } from '#server/db/index.ts';

/** A real app on a real database, listening on an ephemeral loopback port. */
export async function startApp(
  db: Db,
  overrides: Partial<Config> = {},
): Promise<{ app: FastifyInstance; url: string }> {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), ...overrides };
  const app = await buildApp({ config, db });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}
