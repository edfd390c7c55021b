import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { createMailer, type Mail } from '../auth/mailer.ts';
import { redactSecrets, smtpTransportOptions, type PlainConnection } from '../connections/testers.ts';

/**
 * Email from the incidents area (email responders, @mention notifications): through an `email`
 * connection when one is given, else the server's SMTP_URL mailer (the one account emails use);
 * without SMTP_URL the message is written to the log, like account emails, and the caller is told
 * so ('logged') to record it.
 */
export interface IncidentMailer {
  send(mail: Mail, connection?: PlainConnection): Promise<'sent' | 'logged'>;
  close(): void;
}

const SEND_TIMEOUT_MS = 10_000;

function fromOf(c: PlainConnection): string | undefined {
  const from = String(c.properties?.from ?? '').trim();
  if (!from) return undefined;
  const name = String(c.properties?.fromName ?? '').trim();
  return name ? `"${name.replace(/"/g, "'")}" <${from}>` : from;
}

export function createIncidentMailer(opts: { smtpUrl?: string; from: string }, log: FastifyBaseLogger): IncidentMailer {
  const fallback = createMailer(opts, log);
  return {
    async send(mail, c) {
      if (c) {
        const transport = nodemailer.createTransport({
          ...smtpTransportOptions(c, SEND_TIMEOUT_MS),
          greetingTimeout: SEND_TIMEOUT_MS,
          socketTimeout: SEND_TIMEOUT_MS,
        });
        try {
          await transport.sendMail({
            from: fromOf(c) ?? opts.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
          });
        } catch (err) {
          throw new Error(redactSecrets(`the mail server refused the email: ${(err as Error).message}`, c), {
            cause: err,
          });
        } finally {
          transport.close();
        }
        return 'sent';
      }
      await fallback.send(mail);
      return opts.smtpUrl ? 'sent' : 'logged';
    },
    close: () => fallback.close(),
  };
}
