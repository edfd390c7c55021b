import type { FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import type { Mailer } from '#server/mail/index.ts';
import type { WriteRegistration } from '#server/pgrest/index.ts';
import { BUS_EVENTS } from './events.ts';
import { forgetRules, notificationEngine } from './engine.ts';
import { validateNotificationWrite } from './validate.ts';

/**
 * Rules and silences written through /api/db are checked before the SQL (validate.ts); a rule
 * written is seen by the next event (the engine keeps each event's rules a few seconds).
 */
export const notificationWrites = (db: Db): readonly WriteRegistration[] => [
  { table: 'notifications', check: validateNotificationWrite, afterCommit: () => forgetRules(db) },
  { table: 'notification_silences', check: validateNotificationWrite },
];

const NOTIFICATIONS_CONSUMER = 'notifications';

export interface NotificationsDeps {
  db: Db;
  box?: SecretBox;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'notifications'>;
}

/**
 * The notifications area's engine (README.md): the `notifications` consumer of the bus, one
 * delivery at a time (each send is a side effect; the delivery key is its idempotency key), and
 * the scheduled job that sends what waited (waitFor, the rate limit).
 */
export function registerNotifications(app: FastifyInstance, deps: NotificationsDeps): void {
  const log = app.log.child({ area: 'notifications' });
  const engine = notificationEngine({
    db: deps.db,
    box: deps.box,
    mailer: deps.mailer,
    log,
    publicUrl: deps.config.publicUrl,
    rateLimitPerMinute: deps.config.notifications.rateLimitPerMinute,
    apiUrls: deps.config.notifications.apiUrls,
  });
  app.engines.queue.consume(NOTIFICATIONS_CONSUMER, Object.keys(BUS_EVENTS), engine.handle, {
    // sends retry inside the handler (senders/http.ts); a failure here is the database's
    maxAttempts: 5,
    onFailure: async (event, err, _tx, final) => {
      if (final) log.error({ err, event: event.name, resource: event.resourceId }, 'notification event given up');
    },
  });
  app.engines.scheduler.addSource(engine.jobSource());
}
