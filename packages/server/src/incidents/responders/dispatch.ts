import type { FastifyBaseLogger } from 'fastify';
import {
  RESPONDER_CONNECTION_TYPE,
  renderTemplate,
  type ResponderClientConfig,
  type TeamResponderType,
} from '@watchdeck/core';
import type { Queryable } from '#server/db/index.ts';
import type { ConsumedEvent, DeliveryContext } from '#server/jobs/index.ts';
import type { Mailer } from '#server/mail/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import { redactSecrets } from '#server/connections/index.ts';
import {
  ConnectionLookupError,
  connectionById,
  connectionByName,
  connectionsOfType,
  type StoredConnection,
} from '#server/connections/index.ts';
import { caseWebhook, ConfigurationError, jira, planner, serviceNow } from './clients.ts';

/**
 * Dispatch of a team responder (responders_dispatch() in sql/50-incidents.sql publishes
 * 'incident.responder.dispatch' with the insert): opens the ticket in the team's system (the
 * connection the team names, else the one picked in the wizard, properties.connection, else the
 * only connection of the type) and records
 * the outcome on the responder: dispatch_status sent | logged | failed, dispatch_error,
 * external_id, external_url (the team's linkUrl template, else the system's own link).
 *
 * The call goes out outside any transaction; its outcome is recorded in the transaction that
 * marks the event's delivery done, so a crash repeats at most the call in flight (an email carries
 * the delivery's key as Message-ID, a support case the responder id). Errors of the ticket system
 * or the network are thrown, so the event queue retries them with its backoff; the last failure
 * leaves the responder failed with the error (onFailure). A missing or unusable configuration (no
 * connection, several to choose from, a field the system refuses) fails at once: retrying would
 * not change it.
 */
export const DISPATCH_EVENT = 'incident.responder.dispatch';

export interface DispatchDeps {
  box?: SecretBox;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** the console's external address, for links to the incident in emails and cases */
  publicUrl?: string;
}

interface ResponderRow {
  id: string;
  type: TeamResponderType;
  properties: Record<string, unknown>;
  dispatch_status: string | null;
  deleted_at: string | null;
  incident: Record<string, unknown> & { id: string; incident_id: string; title: string };
  team:
    | (Record<string, unknown> & {
        id: string;
        name: string;
        spec: { responder_clients?: Record<string, ResponderClientConfig> };
      })
    | null;
}

interface Outcome {
  status: 'sent' | 'logged';
  externalId?: string;
  /** the system's own link to the ticket, when it has one */
  link?: string;
  /** what the system answered, for the linkUrl template (`{{.result.number}}`) */
  result?: Record<string, unknown>;
  warning?: string;
}

/** Lets the responder's dispatch columns be written in this transaction (0103 responders_guard). */
async function asServer(tx: Queryable, fn: () => Promise<unknown>): Promise<void> {
  await tx.query(`SELECT set_config('watchdeck.responder_dispatch', 'on', true)`);
  try {
    await fn();
  } finally {
    await tx.query(`SELECT set_config('watchdeck.responder_dispatch', '', true)`);
  }
}

async function record(
  tx: Queryable,
  id: string,
  status: string,
  error: string | null,
  externalId?: string | null,
  url?: string | null,
) {
  await asServer(tx, () =>
    tx.query(
      `UPDATE responders SET dispatch_status = $2, dispatch_error = $3,
         external_id = coalesce($4, external_id), external_url = coalesce($5, external_url),
         dispatched_at = CASE WHEN $2 IN ('sent', 'logged') THEN now() ELSE dispatched_at END
       WHERE id = $1`,
      [id, status, error, externalId ?? null, url ?? null],
    ),
  );
}

/** The team's named connection, else the only connection of the type (case webhooks: of the case system). */
async function connectionFor(
  tx: Queryable,
  deps: DispatchDeps,
  r: ResponderRow,
  client: ResponderClientConfig,
): Promise<StoredConnection | undefined> {
  const connType = RESPONDER_CONNECTION_TYPE[r.type];
  const team = r.team!;
  const where = `team "${team.name}" spec.responder_clients.${r.type}.connection`;
  // the team's own choice is locked; otherwise the instance picked in the wizard (properties.connection)
  const picked = typeof r.properties.connection === 'string' ? r.properties.connection.trim() : '';
  const named = client.connection || picked;
  if (named) {
    try {
      return await connectionByName(tx, deps.box, named, connType);
    } catch (err) {
      if (err instanceof ConnectionLookupError && err.reason === 'missing') {
        throw new ConfigurationError(
          `No ${connType} connection is configured: ${client.connection ? where : 'the responder'} names "${named}", which does not exist`,
        );
      }
      if (err instanceof ConnectionLookupError) throw new ConfigurationError(err.message);
      throw err;
    }
  }
  if (r.type === 'email') return undefined; // the server's SMTP_URL (or the log)
  let candidates = await connectionsOfType(tx, [connType]);
  if (connType === 'case_webhook') {
    const own = candidates.filter((c) => c.properties?.responderType === r.type);
    candidates = own.length ? own : candidates.filter((c) => !c.properties?.responderType);
  }
  if (candidates.length === 0) {
    throw new ConfigurationError(
      `No ${connType} connection is configured: add one under Settings > Connections${connType === 'case_webhook' ? ` (responder type ${r.type} or any)` : ''}, or name one in ${where}`,
    );
  }
  if (candidates.length > 1) {
    throw new ConfigurationError(
      `Several ${connType} connections could serve ${r.type} (${candidates.map((c) => c.name).join(', ')}): name one in ${where}`,
    );
  }
  try {
    return await connectionById(tx, deps.box, candidates[0].id);
  } catch (err) {
    if (err instanceof ConnectionLookupError) throw new ConfigurationError(err.message);
    throw err;
  }
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

async function open(
  r: ResponderRow,
  c: StoredConnection | undefined,
  deps: DispatchDeps,
  key: string,
): Promise<Outcome> {
  const f = r.properties;
  const incidentUrl = deps.publicUrl ? `${deps.publicUrl}/incidents/${r.incident.id}` : undefined;
  switch (r.type) {
    case 'email': {
      const footer = `\n\n--\nWatchdeck incident ${r.incident.incident_id}: ${r.incident.title}${incidentUrl ? `\n${incidentUrl}` : ''}`;
      const mail = { to: String(f.to), subject: String(f.subject), text: String(f.body) + footer, key };
      try {
        return { status: await deps.mailer.send(mail, c) };
      } catch (err) {
        // a mail server's answer may echo what it was given
        if (c) throw new Error(redactSecrets((err as Error).message, c), { cause: err });
        throw err;
      }
    }
    case 'jira': {
      const issue = await jira.createIssue(c!, f);
      return {
        status: 'sent',
        externalId: issue.key,
        link: `${trimSlash(c!.url!)}/browse/${issue.key}`,
        result: issue,
      };
    }
    case 'service_now': {
      const inc = await serviceNow.createIncident(c!, f, r.incident);
      return {
        status: 'sent',
        externalId: inc.number ?? inc.sys_id,
        link: `${trimSlash(c!.url!)}/nav_to.do?uri=incident.do?sys_id=${encodeURIComponent(inc.sys_id)}`,
        result: inc,
      };
    }
    case 'ms_planner': {
      const task = await planner.createTask(c!, f);
      return { status: 'sent', externalId: task.id, result: { id: task.id }, warning: task.warning };
    }
    default: {
      // ca, aws_support, aws_ams_services_request, redhat, oracle, vmware: the case webhook contract
      const { responderType: _type, ...fields } = f;
      const sent = await caseWebhook.postCase(c!, {
        type: r.type,
        responder_id: r.id,
        case: fields,
        incident: {
          id: r.incident.id,
          incident_id: r.incident.incident_id,
          title: r.incident.title,
          description: r.incident.description ?? null,
          severity: r.incident.severity,
          status: r.incident.status,
          type: r.incident.type,
          url: incidentUrl ?? null,
        },
        team: { id: r.team!.id, name: r.team!.name },
      });
      return {
        status: 'sent',
        externalId: sent.id,
        link: sent.url,
        result: { id: sent.id, url: sent.url, answer: sent.answer },
      };
    }
  }
}

export function responderDispatcher(deps: DispatchDeps) {
  return {
    /** one delivery of 'incident.responder.dispatch' (the claim makes it this worker's alone) */
    async handle(event: ConsumedEvent, { db, done }: DeliveryContext): Promise<void> {
      const id = String(event.properties.responder_id ?? '');
      const { rows } = await db.query<ResponderRow>(
        `SELECT r.id, r.type, r.properties, r.dispatch_status, r.deleted_at, to_jsonb(i) AS incident, to_jsonb(t) AS team
         FROM responders r JOIN incidents i ON i.id = r.incident_id LEFT JOIN teams t ON t.id = r.team_id
         WHERE r.id = $1::uuid`,
        [id],
      );
      const r = rows[0];
      if (!r || r.dispatch_status !== 'pending' || !r.team) return; // removed, or already dispatched
      if (r.deleted_at) {
        return done((tx) => record(tx, r.id, 'failed', 'the responder was removed before its ticket was opened'));
      }
      const client = r.team.spec?.responder_clients?.[r.type] ?? {};
      let outcome: Outcome;
      try {
        outcome = await open(r, await connectionFor(db, deps, r, client), deps, event.key);
      } catch (err) {
        if (err instanceof ConfigurationError) return done((tx) => record(tx, r.id, 'failed', err.message));
        throw err;
      }
      const link = client.linkUrl
        ? renderTemplate(client.linkUrl, {
            ...r.properties,
            incident: r.incident,
            team: r.team,
            external_id: outcome.externalId ?? '',
            result: outcome.result ?? {},
          })
        : outcome.link;
      await done((tx) =>
        record(
          tx,
          r.id,
          outcome.status,
          outcome.warning ??
            (outcome.status === 'logged' ? 'SMTP_URL is not set: the email was written to the server log' : null),
          outcome.externalId,
          link || null,
        ),
      );
      deps.log.info(
        { responder: r.id, type: r.type, externalId: outcome.externalId, status: outcome.status },
        'incident responder dispatched',
      );
    },

    async onFailure(event: ConsumedEvent, err: unknown, tx: Queryable, final: boolean): Promise<void> {
      const message = err instanceof Error ? err.message : String(err);
      await record(
        tx,
        String(event.properties.responder_id ?? ''),
        final ? 'failed' : 'pending',
        final ? message : `${message} (attempt ${event.attempt}; retrying)`,
      );
    },
  };
}
