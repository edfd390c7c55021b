import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';
import { SIGNED_IN } from '../auth/index.ts';
import { SETTINGS_KINDS } from './kinds.ts';
import { specJsonSchema } from './schemas.ts';
import { localAgentJobSource, markLocalAgentSeen } from './local-agent.ts';
import { validateSettingsWrite } from './validate.ts';
import type { WriteRegistration } from '../pgrest/index.ts';

export { SETTINGS_KINDS, scheduledKind } from './kinds.ts';

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

/** Settings resources: GET /api/schemas/<kind>.schema.json and the local agent's heartbeat. */
export async function registerSettings(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  // the local agent is seen while this process runs the engines (local-agent.ts)
  app.engines.onStart(() => markLocalAgentSeen(db));
  app.engines.scheduler.addSource(localAgentJobSource(db));

  app.get<{ Params: { file: string } }>('/api/schemas/:file', { config: SIGNED_IN }, async (req, reply) => {
    const m = /^([a-z_]+)\.schema\.json$/.exec(req.params.file);
    const schema = m ? specJsonSchema(m[1]) : undefined;
    if (!schema) {
      return reply.code(404).send({
        error: `Unknown schema '${req.params.file}'; known: ${SETTINGS_KINDS.map((k) => `${k.kind}.schema.json`).join(', ')}`,
      });
    }
    return reply.type('application/schema+json').header('cache-control', 'no-cache').send(schema);
  });
}
