/**
 * Outgoing email for the whole server, the one place that speaks to nodemailer: account emails
 * (auth), incident emails (responders, @mentions) and the `email` connection's test. Mail goes
 * through a given SMTP server (an `email` connection), else SMTP_URL; without SMTP_URL it is
 * written to the log, so a fresh install can still read its recovery codes, and the caller is
 * told so ('logged') to record it.
 */
import { createTransport } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /**
   * An idempotency key (an event delivery's key), sent as the Message-ID: a send repeated after
   * a crash carries the same id, so the receiver (and a test) can tell it is the same email.
   */
  key?: string;
}

/** An SMTP server as an `email` connection holds it: host and port in url, the rest in properties. */
export interface SmtpServer {
  url: string | null;
  username?: string | null;
  password?: string | null;
  insecure_tls?: boolean | null;
  properties?: Record<string, unknown> | null;
}

export interface Mailer {
  /** Sends through `via`, else SMTP_URL; without SMTP_URL writes the mail to the log ('logged'). */
  send(mail: Mail, via?: SmtpServer): Promise<'sent' | 'logged'>;
  close(): void;
}

/** Every wait of one SMTP conversation is bounded, so a send ends well within a delivery's lease. */
const SEND_TIMEOUT_MS = 10_000;

const prop = (s: SmtpServer, key: string): string => {
  const v = s.properties?.[key];
  return v === undefined || v === null ? '' : String(v);
};

/** nodemailer options for an `email` connection. */
function smtpOptions(s: SmtpServer, timeoutMs: number) {
  if (!s.url) throw new Error('the connection has no URL');
  const u = new URL(s.url);
  const encryption = prop(s, 'encryptionMethod') || 'Auto';
  const auth = prop(s, 'authMethod') || 'Unknown';
  return {
    host: u.hostname,
    port: Number(u.port || (u.protocol === 'smtps:' ? 465 : 587)),
    secure: u.protocol === 'smtps:' || encryption === 'ImplicitTLS',
    requireTLS: encryption === 'ExplicitTLS',
    ignoreTLS: encryption === 'None',
    auth:
      s.username && auth !== 'None'
        ? auth === 'OAuth2'
          ? { type: 'OAuth2' as const, user: s.username, accessToken: s.password ?? '' }
          : { user: s.username, pass: s.password ?? '' }
        : undefined,
    authMethod: auth === 'Plain' ? 'PLAIN' : auth === 'CRAMMD5' ? 'CRAM-MD5' : undefined,
    tls: { rejectUnauthorized: !s.insecure_tls },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}

function fromOf(s: SmtpServer): string | undefined {
  const from = prop(s, 'from').trim();
  if (!from) return undefined;
  const name = prop(s, 'fromName').trim();
  return name ? `"${name.replace(/"/g, "'")}" <${from}>` : from;
}

const messageId = (key: string | undefined) => (key ? `<${key}@watchdeck>` : undefined);

/** Connects to and greets an SMTP server (and signs in when it has credentials): the connection test. */
export async function verifySmtp(s: SmtpServer, timeoutMs: number): Promise<void> {
  const transport = createTransport(smtpOptions(s, timeoutMs));
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

export function createMailer(opts: { smtpUrl?: string; from: string }, log: FastifyBaseLogger): Mailer {
  const server = opts.smtpUrl
    ? createTransport({
        url: opts.smtpUrl,
        connectionTimeout: SEND_TIMEOUT_MS,
        greetingTimeout: SEND_TIMEOUT_MS,
        socketTimeout: SEND_TIMEOUT_MS,
      })
    : undefined;
  return {
    async send(mail, via) {
      const message = { to: mail.to, subject: mail.subject, text: mail.text, messageId: messageId(mail.key) };
      if (via) {
        const transport = createTransport(smtpOptions(via, SEND_TIMEOUT_MS));
        try {
          await transport.sendMail({ from: fromOf(via) ?? opts.from, ...message });
        } catch (err) {
          throw new Error(`the mail server refused the email: ${(err as Error).message}`, { cause: err });
        } finally {
          transport.close();
        }
        return 'sent';
      }
      if (!server) {
        log.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'SMTP_URL is not set: email written to the log',
        );
        return 'logged';
      }
      await server.sendMail({ from: opts.from, ...message });
      log.info({ to: mail.to, subject: mail.subject }, 'email sent');
      return 'sent';
    },
    close() {
      server?.close();
    },
  };
}
