import type { PlainConnection } from '#server/connections/index.ts';
import type { Mailer } from '#server/mail/index.ts';

/** One notification, rendered: what every sender turns into its service's call. */
export interface Message {
  title: string;
  /** Markdown (senders/markup.ts) */
  body: string;
  /** the resource in the console (WATCHDECK_PUBLIC_URL), when known */
  link?: string;
  /** the idempotency key: the event delivery's key and the rule (an email's Message-ID, a Matrix txn id) */
  key: string;
  /** the rule's event, e.g. check.failed */
  event: string;
  /** a recovery (passed, healthy): green rather than red where the service shows a colour */
  good: boolean;
}

export interface SendContext {
  mailer: Mailer;
  /** API base URLs of services whose connection has no host field (WATCHDECK_NOTIFICATION_API_URLS) */
  apiUrls: Record<string, string>;
  /** the rule's per-service properties (custom_services[].properties, rule properties) */
  properties: Record<string, unknown>;
}

/** Sends one message through one connection; throws a SendError (its message is the history's error). */
export type Sender = (c: PlainConnection, m: Message, ctx: SendContext) => Promise<void>;
