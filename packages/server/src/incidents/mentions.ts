import type { FastifyBaseLogger } from 'fastify';
import { mentionsAsText, parseMentions } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import { publish, type ConsumedEvent, type DeliveryContext } from '../jobs/index.ts';
import type { Mailer } from '../mail/index.ts';

/**
 * @mention notifications (seed 001 section 5; markup `@[Name](<person id>)`, core mentions.ts).
 * A new comment with mention markup publishes 'incident.comment.mentions' in its transaction
 * (sql/50-incidents.sql). Its consumer reads the mentions with core's parser and publishes one
 * 'incident.comment.mention' per mentioned person (not the author), so each email is sent and
 * retried on its own, with its delivery's key as Message-ID. Each email is recorded in
 * notification_send_history under the built-in notification 'incident-mentions', in the
 * transaction that marks the delivery done: sent, error (after the last retry, or no email
 * address) or cancelled (no SMTP_URL: written to the log).
 */
export const MENTIONS_EVENT = 'incident.comment.mentions';
export const MENTION_EVENT = 'incident.comment.mention';
const MENTIONS_NOTIFICATION_ID = '00000000-0000-0000-0000-0000000000b1';

export interface MentionDeps {
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl?: string;
}

interface MentionRow {
  comment: string;
  created_at: string;
  author: string | null;
  incident_id: string;
  incident_number: string;
  incident_title: string;
  email: string | null;
  person_name: string;
}

async function history(
  q: Queryable,
  p: { incident: string; person: string; status: string; body: string | null; error: string | null; ms: number | null },
) {
  await q.query(
    `INSERT INTO notification_send_history (notification_id, status, source_event, resource_type, resource_id, person_id, body, error, duration_millis)
     VALUES ($1, $2, $3, 'incident', $4, $5, $6, $7, $8)`,
    [MENTIONS_NOTIFICATION_ID, p.status, MENTION_EVENT, p.incident, p.person, p.body, p.error, p.ms],
  );
}

function mailOf(row: MentionRow, publicUrl?: string) {
  const who = row.author ?? 'Someone';
  const link = publicUrl ? `\n\n${publicUrl}/incidents/${row.incident_id}` : '';
  return {
    subject: `[${row.incident_number}] ${who} mentioned you: ${row.incident_title}`,
    text: `${who} mentioned you in a comment on incident ${row.incident_number} "${row.incident_title}":\n\n${mentionsAsText(row.comment)}${link}`,
  };
}

export function mentionHandlers(deps: MentionDeps) {
  const load = async (q: Queryable, commentId: string, personId: string) => {
    const { rows } = await q.query<MentionRow>(
      `SELECT c.comment, c.created_at, a.name AS author, i.id AS incident_id, i.incident_id AS incident_number, i.title AS incident_title,
         p.email, p.name AS person_name
       FROM comments c JOIN incidents i ON i.id = c.incident_id
         LEFT JOIN people a ON a.id = c.created_by
         JOIN people p ON p.id = $2::uuid
       WHERE c.id = $1::uuid`,
      [commentId, personId],
    );
    return rows[0];
  };

  return {
    /** fan-out: one event per mentioned person */
    async comment(event: ConsumedEvent, q: Queryable): Promise<void> {
      const { rows } = await q.query<{ comment: string; created_by: string | null; incident_id: string }>(
        `SELECT comment, created_by, incident_id FROM comments WHERE id = $1::uuid`,
        [String(event.properties.comment_id)],
      );
      const c = rows[0];
      if (!c) return;
      const ids = parseMentions(c.comment)
        .map((m) => m.id.toLowerCase())
        .filter((id) => id !== c.created_by);
      if (!ids.length) return;
      const { rows: people } = await q.query<{ id: string }>(
        `SELECT id FROM people WHERE id = ANY($1::uuid[]) AND type = 'person' AND deleted_at IS NULL`,
        [ids],
      );
      for (const p of people) {
        await publish(q, MENTION_EVENT, `${event.properties.comment_id}/${p.id}`, {
          comment_id: event.properties.comment_id,
          person_id: p.id,
          incident_id: c.incident_id,
        });
      }
    },

    /** one email to one person: sent outside any transaction, recorded with the delivery */
    async person(event: ConsumedEvent, { db, done }: DeliveryContext): Promise<void> {
      const commentId = String(event.properties.comment_id);
      const personId = String(event.properties.person_id);
      const row = await load(db, commentId, personId);
      if (!row) return;
      const mail = mailOf(row, deps.publicUrl);
      if (!row.email) {
        return done((tx) =>
          history(tx, {
            incident: row.incident_id,
            person: personId,
            status: 'error',
            body: mail.text,
            error: `${row.person_name} has no email address`,
            ms: null,
          }),
        );
      }
      const started = Date.now();
      const how = await deps.mailer.send({ to: row.email, ...mail, key: event.key });
      const ms = Date.now() - started;
      await done((tx) =>
        history(tx, {
          incident: row.incident_id,
          person: personId,
          status: how === 'sent' ? 'sent' : 'cancelled',
          body: mail.text,
          error: how === 'logged' ? 'SMTP_URL is not set: the email was written to the server log' : null,
          ms,
        }),
      );
    },

    async personFailed(event: ConsumedEvent, err: unknown, q: Queryable, final: boolean): Promise<void> {
      if (!final) return;
      const row = await load(q, String(event.properties.comment_id), String(event.properties.person_id));
      if (!row) return;
      await history(q, {
        incident: row.incident_id,
        person: String(event.properties.person_id),
        status: 'error',
        body: mailOf(row, deps.publicUrl).text,
        error: err instanceof Error ? err.message : String(err),
        ms: null,
      });
    },
  };
}
