import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';
import { SIGNED_IN } from '../auth/index.ts';
import { SETTINGS_KINDS } from './kinds.ts';
import { specJsonSchema } from './schemas.ts';
import { localAgentJobSource, markLocalAgentSeen } from './local-agent.ts';
import { z } from 'zod';
import { sendError } from '../http/errors.ts';
import { noQuery, typed } from '../http/validation.ts';

export { resourceJobSource, type ResourceRunner, type ScheduledResource } from './job-source.ts';
export { SETTINGS_KINDS } from './kinds.ts';
export { SettingsValidationError, validateSettingsWrite } from './validate.ts';

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const SCHEDULED_TABLES = new Set(SETTINGS_KINDS.filter((k) => k.scheduled).map((k) => k.table));

/** The table a /api/db URL writes to, or undefined. */
function dbTable(url: string): string | undefined {
  const m = /^\/api\/db\/([^/?#]+)/.exec(url);
  return m ? decodeURIComponent(m[1]) : undefined;
}

/**
 * Settings resources: GET /api/schemas/<kind>.schema.json, the local agent's heartbeat, and a scheduler reload after every
 * successful write to canaries, config_scrapers or topologies so created, changed and
 * soft-deleted resources are (re)scheduled at once. Other replicas pick the change up at their
 * periodic resync. Call before the /api/db engine is registered: the hook must be inherited by it.
 */
const SCHEMA_FILE = /^([a-z_]+)\.schema\.json$/;

export async function registerSettings(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  // the local agent is seen while this process runs the engines (local-agent.ts)
  app.engines.onStart(() => markLocalAgentSeen(db));
  app.engines.scheduler.addSource(localAgentJobSource(db));

  // Awaited before the answer is sent, so the caller's next read already sees the effect (a new
  // canary's checks are listed at once); a failed reload is logged, the write itself stands.
  // A callback hook, not an async one: every answer passes here and most return at once.
  app.addHook('onSend', (req, reply, payload, done) => {
    const table = WRITE_METHODS.has(req.method) && reply.statusCode < 300 ? dbTable(req.url) : undefined;
    if (!table || !SCHEDULED_TABLES.has(table)) return done(null, payload);
    app.engines.scheduler
      .reload()
      .catch((err: unknown) => req.log.error({ err }, 'scheduler reload after a settings write failed'))
      .then(() => done(null, payload));
  });

  const file = {
    params: z.object({
      file: z.string().regex(SCHEMA_FILE, 'file must be a schema file name such as canary.schema.json'),
    }),
    querystring: noQuery,
  };
  typed(app).get('/api/schemas/:file', { config: SIGNED_IN, schema: file }, async (req, reply) => {
    const schema = specJsonSchema(SCHEMA_FILE.exec(req.params.file)![1]);
    if (!schema) {
      const known = SETTINGS_KINDS.map((k) => `${k.kind}.schema.json`).join(', ');
      return sendError(reply, 404, 'not_found', `Unknown schema '${req.params.file}'; known: ${known}`);
    }
    return reply.type('application/schema+json').header('cache-control', 'no-cache').send(schema);
  });
}
