import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { isUuid } from '@watchdeck/core';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { SecretBox } from '../connections/index.ts';
import { runJob, type ConsumedEvent, type JobSource } from '../jobs/index.ts';
import type { Mailer } from '../mail/index.ts';
import { evaluateDefinitionsOfDone } from './dod.ts';
import { MENTION_EVENT, MENTIONS_EVENT, mentionHandlers } from './mentions.ts';
import { DISPATCH_EVENT, responderDispatcher } from './responders/dispatch.ts';
import { responderRoutes } from './responders/routes.ts';
import { applyRules, autoResolve, loadResource, type ResourceKind } from './rules.ts';
import { validateEvidenceWrite } from './validate.ts';
import type { WriteRegistration } from '../pgrest/index.ts';

/** A definition-of-done script written through /api/db is judged before the SQL (validate.ts). */
export const incidentWrites: readonly WriteRegistration[] = [{ table: 'evidences', check: validateEvidenceWrite }];
/**
 * The incidents area's server side beyond /api/db (README.md in this folder): responder dispatch,
 * the responder wizard's lookups, @mention emails, the automatic definition of done and incident
 * rules. Event consumers and the scheduled job are registered here; the engines start them.
 *
 *   consumer                      events
 *   incidents                     check.passed/failed, component.status.healthy/unhealthy: rules, then the DoD
 *   incidents.responder-dispatch  incident.responder.dispatch: open the team responder's ticket
 *   incidents.mentions            incident.comment.mentions: one incident.comment.mention per person
 *   incidents.mention-email       incident.comment.mention: email one mentioned person
 *   incidents.dod-written         incident.evidence.dod_changed: judge that evidence's definition of done now
 *   incidents:definition-of-done  (scheduled) every minute: every automatic definition of done (dod.ts)
 */
const INCIDENTS_CONSUMER = 'incidents';
const TRANSITION_EVENTS = ['check.passed', 'check.failed', 'component.status.healthy', 'component.status.unhealthy'];
export const DOD_WRITTEN_EVENT = 'incident.evidence.dod_changed';
export const DOD_JOB_KEY = 'incidents:definition-of-done';
export const DOD_JOB_NAME = 'IncidentDefinitionOfDone';

export interface IncidentsDeps {
  db: Db;
  box?: SecretBox;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl'>;
}

/**
 * A check or component changed status (health/record.ts, topology/sql publish it): incident
 * rules, then that resource's definitions of done, in the delivery's transaction, as the system.
 */
async function handleTransition(event: ConsumedEvent, q: Queryable, log: FastifyBaseLogger): Promise<void> {
  const kind: ResourceKind = event.name.startsWith('check.') ? 'check' : 'component';
  const id = String(event.properties[`${kind}_id`] ?? '');
  if (!isUuid(id)) return;
  await q.query(`SELECT set_config('request.person_id', '', true)`);
  const resource = await loadResource(q, kind, id);
  if (event.name === 'check.failed' || event.name === 'component.status.unhealthy') {
    if (resource && resource.status === 'unhealthy') await applyRules(q, resource, log);
  } else {
    await autoResolve(q, resource ?? { kind, id }, log);
  }
  await evaluateDefinitionsOfDone(q, { resourceId: id });
}

/** An evidence's definition of done was written: judge it now rather than at the next minute. */
async function handleDodWrite(event: ConsumedEvent, q: Queryable, log: FastifyBaseLogger): Promise<void> {
  const id = String(event.properties.evidence_id ?? '');
  if (!isUuid(id)) return;
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
  const { db, box, mailer, config } = deps;
  const log = app.log.child({ area: 'incidents' });

  responderRoutes(app, { db, box });

  // The rules, the mention fan-out and the DoD judgement only write to the database: all of it
  // commits with the delivery, so they run in batches (one transaction per batch, not per
  // event; jobs/README.md). The dispatch and the emails call out first and record the outcome
  // with the delivery, one at a time (README.md).
  const queue = app.engines.queue;
  const dbOnly = { batch: { size: 50 } };
  queue.consume(
    INCIDENTS_CONSUMER,
    TRANSITION_EVENTS,
    (event, { done }) => done((tx) => handleTransition(event, tx, log)),
    dbOnly,
  );
  const dispatcher = responderDispatcher({ box, mailer, log, publicUrl: config.publicUrl });
  queue.consume('incidents.responder-dispatch', [DISPATCH_EVENT], dispatcher.handle, {
    onFailure: dispatcher.onFailure,
  });
  const mentions = mentionHandlers({ mailer, log, publicUrl: config.publicUrl });
  queue.consume(
    'incidents.mentions',
    [MENTIONS_EVENT],
    (event, { done }) => done((tx) => mentions.comment(event, tx)),
    dbOnly,
  );
  queue.consume('incidents.mention-email', [MENTION_EVENT], mentions.person, { onFailure: mentions.personFailed });
  queue.consume(
    'incidents.dod-written',
    [DOD_WRITTEN_EVENT],
    (event, { done }) => done((tx) => handleDodWrite(event, tx, log)),
    dbOnly,
  );

  app.engines.scheduler.addSource(incidentJobSource(db));
}
