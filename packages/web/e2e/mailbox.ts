// A real SMTP peer for the browser tests: the server under test sends its account emails here
// (SMTP_URL), and a test reads the code out of the mail like a person would.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  url: string;
  /** how many mails arrived so far (pass it to next() to wait for a newer one) */
  count(): number;
  /** the next mail to `to` after the first `since` mails (raw message text) */
  next(to: string, since: number, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (d) => (raw += d));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => mails.length,
    async next(to, since, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const m = mails.slice(since).find((x) => x.to.includes(to.toLowerCase()));
        if (m) return m.raw;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail for ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-digit code standing on a line of its own in the account emails. */
export function codeFrom(raw: string): string {
  const m = /^\s*(\d{6})\s*$/m.exec(raw);
  if (!m) throw new Error(`no code in mail:\n${raw}`);
  return m[1];
}
