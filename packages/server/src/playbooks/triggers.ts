/**
 * What starts a run besides a person: cron schedules (the scheduler, each slot claimed once
 * across replicas), events (check.failed/passed, config.*, component.status.*) through the event
 * bus with a CEL filter, and webhooks with their own authentication (basic, a shared token, or a
 * JWT of a named issuer: HS256 with a shared secret, or RS256/ES256 by the issuer's JWKS, jwt.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  PLAYBOOK_CHECK_EVENTS,
  PLAYBOOK_COMPONENT_EVENTS,
  PLAYBOOK_CONFIG_EVENTS,
  playbookSpecSchema,
  type PlaybookSpec,
} from '@watchdeck/core';
import type { Db, Queryable } from '#server/db/index.ts';
import { evaluate } from '#server/cel/index.ts';
import { runJob, type ConsumedEvent, type JobSource } from '#server/jobs/index.ts';
import { loadResource, offers, kindsOf, type ResourceKind } from './resources.ts';
import { jwtProblem } from './jwt.ts';
import { PlaybookError, queueRun } from './service.ts';

interface LivePlaybook {
  id: string;
  name: string;
  spec: PlaybookSpec;
}

/** Live playbooks with a valid spec that has `on.<key>` (a jsonb key test, indexed by nothing: few rows). */
async function playbooksWith(q: Queryable, key: string): Promise<LivePlaybook[]> {
  const { rows } = await q.query<{ id: string; name: string; spec: unknown }>(
    `SELECT id, name, spec FROM playbooks WHERE deleted_at IS NULL AND spec->'on' ? $1`,
    [key],
  );
  const out: LivePlaybook[] = [];
  for (const r of rows) {
    const p = playbookSpecSchema.safeParse(r.spec);
    if (p.success) out.push({ id: r.id, name: r.name, spec: p.data });
  }
  return out;
}

/** One scheduled job per playbook schedule: the slot queues a run (trigger_source 'schedule'). */
export function scheduleSource(db: Db, log: FastifyBaseLogger, wake: () => void): JobSource {
  return {
    name: 'playbooks',
    list: async () => {
      const jobs = [];
      for (const pb of await playbooksWith(db, 'schedule')) {
        for (const [i, s] of (pb.spec.on?.schedule ?? []).entries()) {
          jobs.push({
            key: `playbook:${pb.id}:${i}`,
            schedule: s.schedule,
            run: async () => {
              await runJob(
                db,
                { name: 'PlaybookSchedule', resourceType: 'playbook', resourceId: pb.id },
                async (ctx) => {
                  const id = await queueRun(db, { playbookId: pb.id, triggerSource: 'schedule' });
                  ctx.details.run_id = id;
                  ctx.success();
                },
              ).catch((err) => log.warn({ err, playbook: pb.id }, 'scheduled playbook run not queued'));
              wake();
            },
          });
        }
      }
      return jobs;
    },
  };
}

/** The bus's event names a playbook trigger listens to, and the trigger key and event of each. */
export const TRIGGER_EVENTS: Record<string, { kind: ResourceKind; event: string }> = Object.fromEntries([
  ...PLAYBOOK_CHECK_EVENTS.map((e) => [`check.${e}`, { kind: 'check', event: e }]),
  ...PLAYBOOK_CONFIG_EVENTS.map((e) => [`config.${e}`, { kind: 'config', event: e }]),
  ...PLAYBOOK_COMPONENT_EVENTS.map((e) => [`component.status.${e}`, { kind: 'component', event: e }]),
]);

/**
 * One event: every playbook with a matching trigger whose filter passes queues a run on the
 * event's resource, in the delivery's transaction (so exactly once per event and playbook).
 */
export async function handleTriggerEvent(event: ConsumedEvent, tx: Queryable, log: FastifyBaseLogger): Promise<number> {
  const t = TRIGGER_EVENTS[event.name];
  if (!t) return 0;
  const id = String(event.properties[`${t.kind}_id`] ?? '');
  if (!/^[0-9a-f-]{36}$/i.test(id)) return 0;
  const resource = await loadResource(tx, t.kind, id);
  if (!resource) return 0;
  let queued = 0;
  for (const pb of await playbooksWith(tx, t.kind)) {
    // a playbook that selects resources of this kind runs only on those it selects
    if (kindsOf(pb.spec).includes(t.kind) && !offers(pb.spec, resource)) continue;
    for (const trig of pb.spec.on?.[t.kind] ?? []) {
      if (trig.event !== t.event) continue;
      if (trig.filter) {
        let pass: unknown;
        try {
          pass = evaluate(trig.filter, {
            [t.kind]: resource,
            resource,
            event: { name: event.name, ...event.properties },
          });
        } catch (err) {
          log.warn({ playbook: pb.id, err: (err as Error).message }, 'playbook trigger filter failed');
          continue;
        }
        if (pass !== true) continue;
      }
      try {
        await tx.query('SAVEPOINT playbook_trigger');
        await queueRun(tx, {
          playbookId: pb.id,
          [`${t.kind}_id`]: id,
          triggerSource: 'event',
          request: { event: event.name, properties: event.properties },
          trusted: true,
        });
        await tx.query('RELEASE SAVEPOINT playbook_trigger');
        queued++;
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT playbook_trigger');
        if (!(err instanceof PlaybookError)) throw err;
        log.warn({ playbook: pb.id, err: err.message }, 'playbook trigger: run not queued');
      }
      break;
    }
  }
  return queued;
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Whether a webhook call carries the credentials the spec asks for (any one of those given). */
export async function webhookAuthorized(
  auth: NonNullable<NonNullable<PlaybookSpec['on']>['webhook']>['authentication'],
  headers: Record<string, string | string[] | undefined>,
  log?: FastifyBaseLogger,
): Promise<boolean> {
  const header = (name: string) => {
    const v = headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const authz = header('authorization') ?? '';
  if (auth.basic && authz.startsWith('Basic ')) {
    const [user, ...rest] = Buffer.from(authz.slice(6), 'base64').toString('utf8').split(':');
    if (safeEqual(user ?? '', auth.basic.username) && safeEqual(rest.join(':'), auth.basic.password)) return true;
  }
  if (auth.token) {
    const given = (header(auth.token.header) ?? '').replace(/^Bearer\s+/i, '');
    if (given && safeEqual(given, auth.token.value)) return true;
  }
  if (auth.jwt && authz.startsWith('Bearer ')) {
    const problem = await jwtProblem(authz.slice(7), auth.jwt);
    if (!problem) return true;
    // the caller gets a plain 401; why is for the operator
    log?.info({ issuer: auth.jwt.issuer, problem }, 'playbook webhook: JWT refused');
  }
  return false;
}

export async function webhookPlaybook(q: Queryable, path: string): Promise<LivePlaybook | undefined> {
  const { rows } = await q.query<{ id: string; name: string; spec: unknown }>(
    `SELECT id, name, spec FROM playbooks WHERE deleted_at IS NULL AND spec->'on'->'webhook'->>'path' = $1 LIMIT 1`,
    [path],
  );
  const r = rows[0];
  if (!r) return undefined;
  const p = playbookSpecSchema.safeParse(r.spec);
  return p.success ? { id: r.id, name: r.name, spec: p.data } : undefined;
}
