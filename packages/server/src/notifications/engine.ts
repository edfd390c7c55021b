/**
 * The notification engine (README.md): one consumer of the bus, one event at a time, since a send
 * is a side effect. For each event it finds the rules that name it, applies each rule's CEL
 * filter, the silences, the repeat interval, waitFor and the rate limit, sends through the
 * rule's recipients, and records every outcome in the send history in the transaction that marks
 * the delivery done. A scheduled job sends what waited (waitFor, rate limit) once it is due.
 */
import type { FastifyBaseLogger } from 'fastify';
import { parseDuration, renderTemplate } from '@watchdeck/core';
import { evaluateTest } from '#server/cel/index.ts';
import { connectionById, connectionByName, type PlainConnection, type SecretBox } from '#server/connections/index.ts';
import type { Db, Queryable } from '#server/db/index.ts';
import { runJob, type ConsumedEvent, type DeliveryContext, type JobSource } from '#server/jobs/index.ts';
import type { Mailer } from '#server/mail/index.ts';
import {
  BUS_EVENTS,
  RECOVERS,
  defaultBody,
  defaultTitle,
  linkOf,
  loadSubject,
  subjectRef,
  type Subject,
} from './events.ts';
import { SendError, plain, senderFor, type Message } from './senders/index.ts';

export interface EngineDeps {
  db: Db;
  box?: SecretBox;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl?: string;
  /** sends per rule and minute; 0: no limit */
  rateLimitPerMinute: number;
  apiUrls: Record<string, string>;
}

interface Rule {
  id: string;
  name: string | null;
  title: string | null;
  filter: string | null;
  template: string | null;
  properties: Record<string, unknown> | null;
  repeat_interval: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: unknown;
  error: string | null;
}

/** One row of the send history, as the handler decides it. */
interface Outcome {
  rule: Rule;
  status: 'sent' | 'error' | 'pending' | 'silenced' | 'repeat-interval';
  title?: string;
  body?: string;
  error?: string;
  durationMs?: number;
  sendAt?: Date;
  silencedBy?: string;
  recipient?: string;
}

/**
 * The seeds' repeat-interval choices are 1h, 2h, 3h, 6h, 1d, 1w and 1m, ascending: there `1m` is a
 * month. Anything else is a duration (`30m` is thirty minutes).
 */
export function repeatIntervalMs(text: string | null): number | undefined {
  if (!text?.trim()) return undefined;
  if (text.trim() === '1m') return 30 * 24 * 3600_000;
  return parseDuration(text);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The rule's properties without the engine's own keys, plus those of one service type. */
function serviceProperties(rule: Rule, type: string, own: unknown): Record<string, unknown> {
  const p = isObject(rule.properties) ? rule.properties : {};
  const { waitFor: _w, title: _t, ...rest } = p;
  const flat = Object.fromEntries(Object.entries(rest).filter(([, v]) => !isObject(v)));
  return { ...flat, ...(isObject(p[type]) ? p[type] : {}), ...(isObject(own) ? own : {}) };
}

interface Target {
  describe: string;
  send(m: Message): Promise<void>;
}

/** A per-rule token bucket: `limit` sends a minute, refilled continuously. Per process. */
class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly perMinute: number) {}
  /** 0 when a send may go now (and takes its token), else the ms until one frees up. */
  take(rule: string): number {
    if (!this.perMinute) return 0;
    const now = Date.now();
    const b = this.buckets.get(rule) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + ((now - b.at) * this.perMinute) / 60_000);
    b.at = now;
    this.buckets.set(rule, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) * 60_000) / this.perMinute);
  }
}

const RULE_COLUMNS =
  'id, name, title, filter, template, properties, repeat_interval, person_id, team_id, custom_services, error';
/**
 * The rules of each event, kept a few seconds: every event would otherwise read them again.
 * Writes through /api/db forget them at once (index.ts), so an edit applies to the next event;
 * another replica's edit applies within RULES_TTL_MS.
 */
const RULES_TTL_MS = 5000;
const ruleCaches = new WeakMap<Db, Map<string, { at: number; rules: Promise<Rule[]> }>>();
export const forgetRules = (db: Db) => ruleCaches.get(db)?.clear();

export function notificationEngine(deps: EngineDeps) {
  const { db, box, mailer, log, publicUrl } = deps;
  const limiter = new RateLimiter(deps.rateLimitPerMinute);
  const ruleCache = ruleCaches.get(db) ?? new Map<string, { at: number; rules: Promise<Rule[]> }>();
  ruleCaches.set(db, ruleCache);

  function rulesFor(event: string): Promise<Rule[]> {
    const hit = ruleCache.get(event);
    if (hit && Date.now() - hit.at < RULES_TTL_MS) return hit.rules;
    const rules = db
      .query<Rule>(
        `SELECT ${RULE_COLUMNS} FROM notifications WHERE deleted_at IS NULL AND events @> ARRAY[$1]::text[] ORDER BY created_at`,
        [event],
      )
      .then((r) => r.rows);
    ruleCache.set(event, { at: Date.now(), rules });
    rules.catch(() => ruleCache.delete(event));
    return rules;
  }

  function connectionTarget(
    c: PlainConnection & { name?: string; namespace?: string },
    props: Record<string, unknown>,
  ): Target {
    const sender = senderFor(c.type);
    const describe = `${c.type} ${c.namespace ?? 'default'}/${c.name ?? ''}`;
    return {
      describe,
      send: async (m) => {
        if (!sender) throw new SendError(`connection ${describe} is not a notification service`);
        await sender(c, m, { mailer, apiUrls: deps.apiUrls, properties: props });
      },
    };
  }

  /** One lookup per connection and event: rules of one event often share a connection. */
  type Memo = Map<string, ReturnType<typeof lookupConnection>>;
  function connectionOf(ref: string, memo: Memo) {
    const text = ref.trim();
    let c = memo.get(text);
    if (!c) {
      c = lookupConnection(text);
      memo.set(text, c);
    }
    return c;
  }

  async function lookupConnection(text: string) {
    if (/^[0-9a-f-]{36}$/i.test(text)) {
      const c = await connectionById(db, box, text);
      if (!c) throw new SendError(`connection ${text} not found`);
      return c;
    }
    return connectionByName(db, box, text);
  }

  function emailTarget(to: string): Target {
    return {
      describe: to,
      send: async (m) => {
        const body = `${plain(m.body)}${m.link && !m.body.includes(m.link) ? `\n\n${m.link}` : ''}`;
        const how = await mailer.send({ to, subject: m.title, text: body, key: m.key });
        // without SMTP_URL the mailer writes the mail to the log: not a send
        if (how !== 'sent') throw new SendError('SMTP_URL is not set: the email was written to the log, not sent');
      },
    };
  }

  /** The rule's recipients: a person's email, a team's notification channels, or custom services. */
  async function targetsOf(rule: Rule, memo: Memo): Promise<Target[]> {
    if (rule.person_id) {
      const p = (
        await db.query<{ name: string; email: string | null }>(`SELECT name, email FROM people WHERE id = $1`, [
          rule.person_id,
        ])
      ).rows[0];
      if (!p) throw new SendError('the rule names a person who no longer exists');
      if (!p.email) throw new SendError(`${p.name} has no email address`);
      return [emailTarget(p.email)];
    }
    if (rule.team_id) {
      const t = (
        await db.query<{ name: string; spec: { notifications?: unknown } }>(
          `SELECT name, spec FROM teams WHERE id = $1 AND deleted_at IS NULL`,
          [rule.team_id],
        )
      ).rows[0];
      if (!t) throw new SendError('the rule names a team that no longer exists');
      const channels = Array.isArray(t.spec?.notifications) ? t.spec.notifications.filter(isObject) : [];
      if (!channels.length) throw new SendError(`team ${t.name} has no notification channels (spec.notifications)`);
      const out: Target[] = [];
      for (const ch of channels) {
        if (typeof ch.email === 'string' && ch.email.trim()) out.push(emailTarget(ch.email.trim()));
        else if (typeof ch.connection === 'string') {
          const c = await connectionOf(ch.connection, memo);
          out.push(connectionTarget(c, serviceProperties(rule, c.type, ch.properties)));
        } else throw new SendError(`team ${t.name}: a notification channel names neither a connection nor an email`);
      }
      return out;
    }
    const services = Array.isArray(rule.custom_services) ? rule.custom_services.filter(isObject) : [];
    const out: Target[] = [];
    for (const s of services) {
      const ref =
        typeof s.connection === 'string' ? s.connection : typeof s.connection_id === 'string' ? s.connection_id : '';
      if (!ref) continue;
      const c = await connectionOf(ref, memo);
      out.push(connectionTarget(c, serviceProperties(rule, c.type, s.properties)));
    }
    if (!out.length) throw new SendError('the rule has no recipient: choose a person, a team or a connection');
    return out;
  }

  function render(rule: Rule, subject: Subject): { title: string; body: string } {
    const ctx = subject.vars;
    const props = isObject(rule.properties) ? rule.properties : {};
    const titleTemplate =
      typeof props.title === 'string' && props.title.trim()
        ? props.title
        : rule.title?.includes('{{')
          ? rule.title
          : undefined;
    const title = titleTemplate ? renderTemplate(titleTemplate, ctx).trim() : defaultTitle(subject);
    const body = rule.template?.trim() ? renderTemplate(rule.template, ctx).trim() : defaultBody(subject);
    return { title: title || defaultTitle(subject), body };
  }

  /** Sends to every target; the first failure is the outcome's error. */
  async function deliver(
    rule: Rule,
    m: Message,
    memo: Memo = new Map(),
  ): Promise<Pick<Outcome, 'status' | 'error' | 'durationMs' | 'recipient'>> {
    const started = performance.now();
    let recipient: string | undefined;
    try {
      const targets = await targetsOf(rule, memo);
      recipient = targets.map((t) => t.describe).join(', ');
      const errors: string[] = [];
      for (const t of targets) {
        try {
          await t.send(m);
        } catch (err) {
          errors.push(targets.length > 1 ? `${t.describe}: ${(err as Error).message}` : (err as Error).message);
        }
      }
      const durationMs = Math.round(performance.now() - started);
      return errors.length
        ? { status: 'error', error: errors.join('; '), durationMs, recipient }
        : { status: 'sent', durationMs, recipient };
    } catch (err) {
      return {
        status: 'error',
        error: (err as Error).message,
        durationMs: Math.round(performance.now() - started),
        recipient,
      };
    }
  }

  async function decide(
    rule: Rule,
    subject: Subject,
    key: string,
    silence: string | null,
    recovery: boolean,
    memo: Memo,
  ): Promise<Outcome | undefined> {
    if (rule.filter?.trim()) {
      // a filter that does not evaluate is the rule's error (shown on the rule), not a send
      if (!evaluateTest(rule.filter, subject.vars)) return undefined;
    }
    const { title, body } = render(rule, subject);
    if (silence) return { rule, status: 'silenced', silencedBy: silence, title, body };
    const repeatMs = repeatIntervalMs(rule.repeat_interval);
    if (repeatMs && subject.resourceId) {
      const { rows } = await db.query(
        `SELECT 1 FROM notification_send_history
         WHERE notification_id = $1 AND resource_id = $2 AND source_event = $3 AND status IN ('sent', 'pending')
           AND created_at > now() - $4 * interval '1 millisecond' LIMIT 1`,
        [rule.id, subject.resourceId, subject.event, repeatMs],
      );
      if (rows.length) return { rule, status: 'repeat-interval', title, body };
    }
    const waitFor =
      isObject(rule.properties) && typeof rule.properties.waitFor === 'string'
        ? parseDuration(rule.properties.waitFor)
        : undefined;
    if (waitFor && !recovery) return { rule, status: 'pending', sendAt: new Date(Date.now() + waitFor), title, body };
    const wait = limiter.take(rule.id);
    if (wait) return { rule, status: 'pending', sendAt: new Date(Date.now() + wait), title, body };
    const m: Message = {
      title,
      body,
      link: subject.link,
      key: `${key}/${rule.id}`,
      event: subject.event,
      good: recovery || subject.status === 'healthy',
    };
    return { rule, title, body, ...(await deliver(rule, m, memo)) };
  }

  async function record(
    tx: Queryable,
    subject: Subject,
    key: string,
    outcomes: Outcome[],
    ruleErrors: Map<string, string | null>,
  ) {
    const rows: Record<string, unknown>[] = [];
    for (const o of outcomes) {
      const r = o.rule;
      if (o.status === 'repeat-interval') {
        // one row per run of repeats: the latest since the last send counts them
        const { rowCount } = await tx.query(
          `UPDATE notification_send_history h SET count = count + 1
           WHERE h.id = (SELECT id FROM notification_send_history
                         WHERE notification_id = $1 AND resource_id = $2 AND source_event = $3 AND status = 'repeat-interval'
                           AND created_at > coalesce((SELECT max(created_at) FROM notification_send_history
                                                      WHERE notification_id = $1 AND resource_id = $2 AND source_event = $3
                                                        AND status IN ('sent', 'pending')), '-infinity')
                         ORDER BY created_at DESC LIMIT 1)`,
          [r.id, subject.resourceId, subject.event],
        );
        if (rowCount) continue;
      }
      rows.push({
        notification_id: r.id,
        status: o.status,
        source_event: subject.event,
        resource_type: subject.resourceType,
        resource_id: subject.resourceId,
        person_id: r.person_id,
        team_id: r.team_id,
        silenced_by: o.silencedBy ?? null,
        title: o.title ?? null,
        body: o.body ?? null,
        error: o.error ?? null,
        duration_millis: o.durationMs ?? null,
        send_at: o.sendAt?.toISOString() ?? null,
        delivery_key: key,
        recipient: o.recipient ?? null,
      });
    }
    // one statement for the event's rows, whatever the number of rules
    if (rows.length)
      await tx.query(
        `INSERT INTO notification_send_history
           (notification_id, status, source_event, resource_type, resource_id, person_id, team_id, silenced_by,
            title, body, error, duration_millis, send_at, delivery_key, recipient)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(notification_id uuid, status text, source_event text,
           resource_type text, resource_id uuid, person_id uuid, team_id uuid, silenced_by uuid, title text, body text,
           error text, duration_millis integer, send_at timestamptz, delivery_key text, recipient text)
         ON CONFLICT (notification_id, delivery_key) WHERE delivery_key IS NOT NULL DO NOTHING`,
        [JSON.stringify(rows)],
      );
    for (const [id, error] of ruleErrors) {
      await tx.query(
        `UPDATE notifications SET error = $2, error_at = CASE WHEN $2::text IS NULL THEN error_at ELSE now() END
         WHERE id = $1 AND error IS DISTINCT FROM $2`,
        [id, error],
      );
    }
  }

  /** The bus consumer's handler (index.ts registers it). */
  async function handle(event: ConsumedEvent, { done }: DeliveryContext): Promise<void> {
    const ruleEvent = BUS_EVENTS[event.name];
    if (!ruleEvent) return;
    const ref = subjectRef(ruleEvent, event.properties);
    // the three reads at once (the pool has connections to spare; PGlite queues them)
    const [subject, rules, silence] = await Promise.all([
      loadSubject(db, ruleEvent, event.properties, publicUrl),
      rulesFor(ruleEvent),
      ref.id && ref.kind !== 'playbook_run'
        ? db
            .query<{ id: string | null }>(`SELECT notification_silence_for($1, $2) AS id`, [ref.kind, ref.id])
            .then((r) => r.rows[0].id)
        : null,
    ]);
    const recovery = ruleEvent in RECOVERS;
    const memo: Memo = new Map();
    const ruleErrors = new Map<string, string | null>();
    const outcomes = (
      await Promise.all(
        rules.map(async (rule) => {
          try {
            const o = await decide(rule, subject, event.key, silence, recovery, memo);
            if (rule.error && o?.status === 'sent') ruleErrors.set(rule.id, null);
            return o;
          } catch (err) {
            ruleErrors.set(rule.id, (err as Error).message);
            return undefined;
          }
        }),
      )
    ).filter((o): o is Outcome => !!o);

    await done(async (tx) => {
      if (recovery && subject.resourceId) {
        // a recovery within a failure's waitFor: that send is no longer news
        await tx.query(
          `UPDATE notification_send_history SET status = 'cancelled', send_at = NULL
           WHERE resource_id = $1 AND status = 'pending' AND source_event = ANY($2::text[])`,
          [subject.resourceId, RECOVERS[ruleEvent]],
        );
      }
      await record(tx, subject, event.key, outcomes, ruleErrors);
    });
  }

  /** Still failing? A waiting failure whose resource has recovered meanwhile is cancelled. */
  async function recovered(resourceType: string, id: string | null, sourceEvent: string): Promise<boolean> {
    if (!id || !Object.values(RECOVERS).some((fails) => fails.includes(sourceEvent))) return false;
    const table = resourceType === 'check' ? 'checks' : resourceType === 'component' ? 'components' : 'config_items';
    const column = resourceType === 'config' ? 'health' : 'status';
    const { rows } = await db.query<{ s: string | null }>(`SELECT ${column} AS s FROM ${table} WHERE id = $1`, [id]);
    return rows[0]?.s === 'healthy';
  }

  /** Sends the waiting sends that are due; returns how many were handled. */
  async function sendDue(limit = 200): Promise<{ sent: number; failed: number; cancelled: number; errors: string[] }> {
    const r = { sent: 0, failed: 0, cancelled: 0, errors: [] as string[] };
    // claimed by pushing send_at ahead (a lease): a slow run overlapping the next never sends twice
    const { rows } = await db.query<{
      id: string;
      notification_id: string;
      source_event: string;
      resource_type: string;
      resource_id: string | null;
      title: string | null;
      body: string | null;
      delivery_key: string | null;
    }>(
      `UPDATE notification_send_history SET send_at = now() + interval '5 minutes'
       WHERE id IN (SELECT id FROM notification_send_history WHERE status = 'pending' AND send_at <= now()
                    ORDER BY send_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, notification_id, source_event, resource_type, resource_id, title, body, delivery_key`,
      [limit],
    );
    for (const row of rows) {
      const rule = (
        await db.query<Rule>(`SELECT ${RULE_COLUMNS} FROM notifications WHERE id = $1 AND deleted_at IS NULL`, [
          row.notification_id,
        ])
      ).rows[0];
      if (!rule || (await recovered(row.resource_type, row.resource_id, row.source_event))) {
        await db.query(
          `UPDATE notification_send_history SET status = 'cancelled', send_at = NULL WHERE id = $1 AND status = 'pending'`,
          [row.id],
        );
        r.cancelled++;
        continue;
      }
      const wait = limiter.take(rule.id);
      if (wait) {
        await db.query(
          `UPDATE notification_send_history SET send_at = now() + $2 * interval '1 millisecond' WHERE id = $1`,
          [row.id, wait],
        );
        continue;
      }
      const link = linkOf(publicUrl, row.resource_type, row.resource_id);
      const m: Message = {
        title: row.title ?? row.source_event,
        body: row.body ?? '',
        link,
        key: `${row.delivery_key ?? row.id}/${rule.id}`,
        event: row.source_event,
        good: /\.(passed|healthy)$/.test(row.source_event),
      };
      const o = await deliver(rule, m);
      await db.query(
        `UPDATE notification_send_history SET status = $2, error = $3, duration_millis = $4, recipient = coalesce($5, recipient), send_at = NULL
         WHERE id = $1 AND status = 'pending'`,
        [row.id, o.status, o.error ?? null, o.durationMs ?? null, o.recipient ?? null],
      );
      if (o.status === 'sent') r.sent++;
      else {
        r.failed++;
        r.errors.push(o.error ?? 'error');
      }
    }
    return r;
  }

  /** The scheduled job that sends waiting sends; recorded in job history only when it had work. */
  function jobSource(): JobSource {
    return {
      name: 'notifications',
      list: async () => [
        {
          key: 'notifications:pending-sends',
          schedule: '@every 5s',
          run: async () => {
            const { rows } = await db.query(
              `SELECT 1 FROM notification_send_history WHERE status = 'pending' AND send_at <= now() LIMIT 1`,
            );
            if (!rows.length) return;
            await runJob(db, { name: 'NotificationPendingSends' }, async (ctx) => {
              const r = await sendDue();
              ctx.success(r.sent + r.cancelled);
              for (const e of r.errors) ctx.error(e);
              ctx.details.summary = r;
            });
          },
        },
      ],
    };
  }

  return { handle, sendDue, jobSource, log };
}
