import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';
import { SIGNED_IN } from '../auth/index.ts';
import { SETTINGS_KINDS } from './kinds.ts';
import { specJsonSchema } from './schemas.ts';
import { localAgentJobSource, markLocalAgentSeen } from './local-agent.ts';
import { validateSettingsWrite } from './validate.ts';
import type { WriteRegistration } from '../pgrest/index.ts';
import { z } from 'zod';
import { sendError } from '../http/errors.ts';
import { noQuery, typed } from '../http/validation.ts';

export { SETTINGS_KINDS, scheduledKind } from './kinds.ts';
export { incidentRuleSpec } from './schemas/others.ts';

/**
 * Writes to every settings table are checked against the kind's schema before the SQL
 * (validate.ts); a committed write to a scheduled one (canaries, config_scrapers, topologies)
 * reloads the scheduler before it is answered, so created, changed and soft-deleted resources are
 * (re)scheduled at once and the caller's next read sees it (a new canary's checks are listed).
 * Other replicas pick the change up at their periodic resync.
 */
export function settingsWrites(scheduler: { reload(): Promise<void> }): WriteRegistration[] {
  return SETTINGS_KINDS.map((k) => ({
    table: k.table,
    check: validateSettingsWrite,
    afterCommit: k.scheduled ? () => scheduler.reload() : undefined,
  }));
}

const SCHEMA_FILE = /^([a-z_]+)\.schema\.json$/;

/** Settings resources: GET /api/schemas/<kind>.schema.json and the local agent's heartbeat. */
export async function registerSettings(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  // the local agent is seen while this process runs the engines (local-agent.ts)
  app.engines.onStart(() => markLocalAgentSeen(db));
  app.engines.scheduler.addSource(localAgentJobSource(db));

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
