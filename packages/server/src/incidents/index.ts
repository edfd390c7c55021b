import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { SecretBox } from '../connections/secret-box.ts';
import { runJob, type JobSource, type QueuedEvent } from '../jobs/index.ts';
import { evaluateDefinitionsOfDone } from './dod.ts';
import { createIncidentMailer } from './mail.ts';
import { MENTION_EVENT, MENTIONS_EVENT, mentionHandlers } from './mentions.ts';
import { DISPATCH_EVENT, responderDispatcher } from './responders/dispatch.ts';
import { responderRoutes } from './responders/routes.ts';
import { applyRules, autoResolve, loadResource, type ResourceKind } from './rules.ts';

export { validateEvidenceWrite } from './validate.ts';
export { evaluateDefinitionsOfDone } from './dod.ts';

/**
 * The incidents area's server side beyond /api/db (README.md in this folder): responder dispatch,
 * the responder wizard's lookups, @mention emails, the automatic definition of done and incident
 * rules. Event handlers and the scheduled job are registered here; the engines start them.
 *
 *   incident.responder.dispatch    open the team responder's ticket (responders/dispatch.ts)
 *   incident.comment.mentions      fan out to one incident.comment.mention per person (mentions.ts)
 *   incident.comment.mention       email one mentioned person
 *   incident.resource.transition   a check or component changed status: rules, then its DoD
 *   incident.evidence.dod_changed  an evidence joined the definition of done or changed (0201)
 *   incidents:definition-of-done   every minute: every automatic definition of done (dod.ts)
 */
export const TRANSITION_EVENT = 'incident.resource.transition';
export const DOD_WRITTEN_EVENT = 'incident.evidence.dod_changed';
export const DOD_JOB_KEY = 'incidents:definition-of-done';
export const DOD_JOB_NAME = 'IncidentDefinitionOfDone';

export interface IncidentsDeps {
  db: Db;
  box?: SecretBox;
  config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'publicUrl'>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The work of one 'incident.resource.transition' event, in its transaction, as the system. */
export async function handleTransition(event: QueuedEvent, q: Queryable, log: FastifyBaseLogger): Promise<void> {
  const kind = event.properties.kind as ResourceKind;
  const id = String(event.properties.resource_id ?? '');
  if ((kind !== 'check' && kind !== 'component') || !UUID.test(id)) return;
  await q.query(`SELECT set_config('request.person_id', '', true)`);
  const resource = await loadResource(q, kind, id);
  if (event.properties.status === 'unhealthy') {
    if (resource && resource.status === 'unhealthy') await applyRules(q, resource, log);
  } else {
    await autoResolve(q, resource ?? { kind, id }, log);
  }
  await evaluateDefinitionsOfDone(q, { resourceId: id });
}

/** An evidence's definition of done was written: judge it now rather than at the next minute. */
export async function handleDodWrite(event: QueuedEvent, q: Queryable, log: FastifyBaseLogger): Promise<void> {
  const id = String(event.properties.evidence_id ?? '');
  if (!UUID.test(id)) return;
  const r = await evaluateDefinitionsOfDone(q, { evidenceId: id });
  // a script that does not evaluate is the evidence's state, not the event's failure
  for (const [evidence, error] of Object.entries(r.errors))
    log.info({ evidence, error }, 'definition of done not evaluated');
}

/** The scheduled definition-of-done evaluation, recorded in job history. */
export function incidentJobSource(db: Db): JobSource {
  return {
    name: 'incidents',
    list: async () => [
      {
        key: DOD_JOB_KEY,
        schedule: '@every 1m',
        run: async () => {
          await runJob(db, { name: DOD_JOB_NAME }, async (ctx) => {
            const r = await evaluateDefinitionsOfDone(db);
            ctx.success(r.evaluated - Object.keys(r.errors).length);
            for (const [evidence, error] of Object.entries(r.errors)) ctx.error(error, evidence);
            ctx.details.summary = {
              evaluated: r.evaluated,
              passed: r.passed.length,
              regressed: r.regressed.length,
              errors: Object.keys(r.errors).length,
            };
          });
        },
      },
    ],
  };
}

export function registerIncidents(app: FastifyInstance, deps: IncidentsDeps): void {
  const { db, box, config } = deps;
  const log = app.log.child({ area: 'incidents' });
  const mailer = createIncidentMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom }, log);
  app.addHook('onClose', async () => mailer.close());

  responderRoutes(app, { db, box });

  const queue = app.engines.queue;
  const dispatcher = responderDispatcher({ box, mailer, log, publicUrl: config.publicUrl });
  queue.on(DISPATCH_EVENT, dispatcher.handle, { onFailure: dispatcher.onFailure });
  const mentions = mentionHandlers({ mailer, log, publicUrl: config.publicUrl });
  queue.on(MENTIONS_EVENT, mentions.comment);
  queue.on(MENTION_EVENT, mentions.person, { onFailure: mentions.personFailed });
  queue.on(TRANSITION_EVENT, (event, q) => handleTransition(event, q, log));
  queue.on(DOD_WRITTEN_EVENT, (event, q) => handleDodWrite(event, q, log));

  app.engines.scheduler.addSource(incidentJobSource(db));
}
