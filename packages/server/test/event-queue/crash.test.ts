import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { testDrivers } from '../support/db.ts';

/**
 * Issue 14: a crash repeats at most the side effects in flight, never a batch. A real `watchdeck
 * serve` (2 event-queue workers, PostgreSQL) has 200 @mention emails queued behind an SMTP server
 * that takes 50 ms per message; it is killed with SIGKILL mid-way and started again to drain. At
 * the SMTP server, counted by Message-ID (each email's delivery key): all 200 arrived, at most 2
 * (one per worker) twice; each send is recorded once. Before this change the queue sent 50 events
 * per transaction and committed after: a kill repeated up to a whole batch.
 */
const WORKERS = 2;
const EMAILS = 200;
const SMTP_DELAY_MS = 50;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const adminUrl = process.env.TEST_DATABASE_URL;

describe('event queue under kill -9 (pg)', () => {
  it.runIf(!!adminUrl)(
    `loses none of ${EMAILS} queued emails and repeats at most one per worker`,
    async () => {
      const db = await testDrivers()
        .find((d) => d.name === 'pg')!
        .open();
      const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-crash-'));
      const received: string[] = [];
      let holding = 0; // messages received in full, not yet answered
      const smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, cb) {
          let raw = '';
          stream.on('data', (d) => (raw += d));
          stream.on('end', () => {
            // accepted once the delay is over, whether or not the sender is still there to hear it
            holding++;
            setTimeout(() => {
              holding--;
              received.push(/^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? 'none');
              cb();
            }, SMTP_DELAY_MS);
          });
        },
      });
      // the kill resets the sender's connection: expected here, and an unheard 'error' would
      // be an uncaught exception in the test process; anything else still fails the test
      const smtpErrors: Error[] = [];
      smtp.on('error', (err: Error & { code?: string }) => {
        if (err.code !== 'ECONNRESET') smtpErrors.push(err);
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      const smtpPort = (smtp.server.address() as AddressInfo).port;
      const { rows } = await db.query<{ db: string }>('SELECT current_database() AS db');
      const url = new URL(adminUrl!);
      url.pathname = `/${rows[0].db}`;
      const port = await freePort();
      let log = '';
      const serve = async (): Promise<ChildProcess> => {
        const child = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
          env: {
            ...process.env,
            DATABASE_URL: url.toString(),
            PORT: String(port),
            HOST: '127.0.0.1',
            AUTH: 'none',
            WATCHDECK_DEMO_DATA: 'false',
            WATCHDECK_DATA_DIR: dataDir,
            WATCHDECK_SECRET_KEY: 'crash-test-key-0123456789',
            WATCHDECK_WORKERS: String(WORKERS),
            SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
            LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout!.on('data', (d) => (log += d));
        child.stderr!.on('data', (d) => (log += d));
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && child.exitCode === null) {
          if (
            await fetch(`http://127.0.0.1:${port}/api/health`).then(
              (r) => r.ok,
              () => false,
            )
          )
            return child;
          await new Promise((r) => setTimeout(r, 200));
        }
        throw new Error(`the server did not start:\n${log}`);
      };
      const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
        const deadline = Date.now() + timeoutMs;
        while (!(await check())) {
          if (Date.now() > deadline)
            throw new Error(`timed out waiting for ${what} (${received.length} received)\n${log}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };

      let child = await serve();
      try {
        // 200 comments, each mentioning a person with an email address: 200 emails to send
        const person = (
          await db.query<{ id: string }>(
            `INSERT INTO people (name, email) VALUES ('Ben Okafor', 'ben@example.test') RETURNING id`,
          )
        ).rows[0].id;
        const incident = (
          await db.query<{ id: string }>(`INSERT INTO incidents (title) VALUES ('Orders stuck') RETURNING id`)
        ).rows[0].id;
        await db.query(
          `INSERT INTO comments (incident_id, comment) SELECT $1, '@[Ben Okafor](' || $2 || ') look #' || g FROM generate_series(1, $3::int) g`,
          [incident, person, EMAILS],
        );

        // killed while the SMTP server holds a message: sent, but the sender will never hear so
        await until('a quarter of the emails, one being received', () => received.length >= EMAILS / 4 && holding > 0);
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        const beforeKill = received.length;
        expect(beforeKill).toBeLessThan(EMAILS); // killed mid-way
        // the deliveries the dead workers held: at most one each
        const inFlight = (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM event_deliveries WHERE consumer = 'incidents.mention-email' AND status = 'running'`,
          )
        ).rows[0].n;
        expect(inFlight).toBeLessThanOrEqual(WORKERS);
        // their leases (2 min) run out now rather than in two minutes
        await db.query(`UPDATE event_deliveries SET next_attempt_at = now() WHERE status = 'running'`);

        child = await serve();
        const allDone = async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM event_deliveries WHERE consumer = 'incidents.mention-email' AND status = 'done'`,
            )
          ).rows[0].n === EMAILS;
        await until('every email to be sent', allDone);
        await new Promise((r) => setTimeout(r, 300)); // nothing more arrives

        expect(smtpErrors).toEqual([]);
        const distinct = new Set(received);
        expect(distinct.has('none')).toBe(false);
        expect(distinct.size).toBe(EMAILS); // none lost
        const repeated = received.length - distinct.size;
        expect(repeated).toBeLessThanOrEqual(WORKERS);
        const sends = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM notification_send_history WHERE resource_id = $1 AND status = 'sent'`,
          [incident],
        );
        expect(sends.rows[0].n).toBe(EMAILS); // each recorded once
        console.log(
          `kill -9 after ${beforeKill} of ${EMAILS} emails, ${inFlight} in flight: ${received.length} received, ${repeated} twice`,
        );
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
        await new Promise<void>((r) => smtp.close(() => r()));
        await db.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
