import { createTransport, type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Outgoing account email (recovery and verification codes). With SMTP_URL set it goes through
 * nodemailer; without it the message is written to the server log at info level, so a fresh
 * install without mail can still recover an account by reading the log.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(opts: { smtpUrl?: string; from: string }, log: FastifyBaseLogger): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        log.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'SMTP_URL is not set: email written to the log',
        );
      },
      close() {},
    };
  }
  const transport: Transporter = createTransport(opts.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      log.info({ to: mail.to, subject: mail.subject }, 'email sent');
    },
    close() {
      transport.close();
    },
  };
}
