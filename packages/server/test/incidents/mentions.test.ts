/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mentionMarkup } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startLoggedApp, startMailbox, type Mailbox, type TestApp } from '../auth/support.ts';
import type { Db } from '#server/db/index.ts';
import { hashAccessToken } from '#server/auth/tokens.ts';
import { apiAt, createIncident, waitFor } from './support.ts';

/**
 * @mentions in comments (seed 001 section 5; markup from core mentions.ts): a new comment emails
 * every mentioned person but its author through SMTP (a real SMTP server here), asynchronously
 * through the event queue, and each email lands in notification_send_history where the
 * Notifications pages read it.
 */
for (const driver of testDrivers()) {
  describe(`comment mentions (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let t: TestApp;
    let mailbox: Mailbox;

    beforeAll(async () => {
      db = await driver.open();
      mailbox = await startMailbox();
      t = await startLoggedApp(db, { authMode: 'kratos', smtpUrl: mailbox.url, publicUrl: 'https://ops.example.test' });
      await t.app.engines.start();
    });
    afterAll(async () => {
      await t?.app.close();
      await mailbox?.close();
      await db?.dispose();
    });

    const person = async (name: string, email: string | null, role = 'responder') => {
      const id = (
        await db.query<{ id: string }>(`INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id`, [name, email])
      ).rows[0].id;
      await db.query(`INSERT INTO people_roles (id, roles) VALUES ($1, $2)`, [id, [role]]);
      const token = `wdpat_${randomBytes(16).toString('hex')}`;
      await db.query(`INSERT INTO access_tokens (name, value, person_id) VALUES ('test', $1, $2)`, [
        hashAccessToken(token),
        id,
      ]);
      return {
        id,
        name,
        email,
        api: (() => {
          const base = apiAt(t.url);
          return (method: string, path: string, body?: unknown) =>
            base(method, path, body, { authorization: `Bearer ${token}` });
        })(),
      };
    };

    it('emails each mentioned person but the author, once, and records the sends', async () => {
      const ana = await person('Ana Lopez', 'ana@example.test', 'commander');
      const ben = await person('Ben Okafor', 'ben@example.test');
      const cy = await person('Cy Twombly', 'cy@example.test');
      const inc = await createIncident(ana.api, { title: 'Orders stuck' });
      const hyp = (await ana.api('POST', '/api/db/hypotheses', { incident_id: inc.id, title: 'root', type: 'root' }))
        .body[0];
      const text = `${mentionMarkup(ben.name, ben.id)} can you check the queue? cc ${mentionMarkup(cy.name, cy.id)} ${mentionMarkup(ana.name, ana.id)} ${mentionMarkup(ben.name, ben.id)}`;
      const c = await ana.api('POST', '/api/db/comments', {
        incident_id: inc.id,
        hypothesis_id: hyp.id,
        comment: text,
      });
      expect(c.status, JSON.stringify(c.body)).toBe(201);

      const toBen = await mailbox.next('ben@example.test', 0);
      expect(toBen).toContain(`Subject: [${inc.incident_id}] Ana Lopez mentioned you: Orders stuck`);
      expect(toBen).toContain('@Ben Okafor can you check the queue? cc @Cy Twombly @Ana Lopez @Ben Okafor');
      expect(toBen).toContain(`https://ops.example.test/incidents/${inc.id}`);
      await mailbox.next('cy@example.test', 0);

      const sends = await waitFor(
        async () =>
          (await ana.api('GET', `/api/db/notification_send_history_summary?resource_id=eq.${inc.id}&order=created_at`))
            .body as any[],
        (rows) => Array.isArray(rows) && rows.length === 2,
        'two send history rows',
      );
      expect(sends.map((s) => s.person.name).sort()).toEqual(['Ben Okafor', 'Cy Twombly']);
      for (const s of sends) {
        expect(s).toMatchObject({
          status: 'sent',
          source_event: 'incident.comment.mention',
          resource_type: 'incident',
          resource: { id: inc.id, name: 'Orders stuck', incident_id: inc.incident_id },
          notification_name: 'incident-mentions',
          error: null,
        });
      }
      // the author is not notified; every mail went to one of the two
      expect(mailbox.mails.flatMap((m) => m.to).sort()).toEqual(['ben@example.test', 'cy@example.test']);
      // each email's Message-ID is its delivery's key, so a repeat after a crash is recognisable
      const keys = await db.query<{ id: string }>(
        `SELECT d.id FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
         WHERE e.name = 'incident.comment.mention' AND e.properties ->> 'person_id' = $1`,
        [ben.id],
      );
      expect(toBen).toMatch(new RegExp(`^Message-ID: <${keys.rows[0].id}@watchdeck>`, 'im'));
      const summary = (await ana.api('GET', `/api/db/notifications_summary?name=eq.incident-mentions`)).body[0];
      expect(summary).toMatchObject({ sent: 2, failed: 0 });
    });

    it('records a mentioned person without an email address as an error, and ignores comments without mentions', async () => {
      const dee = await person('Dee Dee', null);
      const ana = await person('Ana Two', 'ana2@example.test', 'commander');
      const inc = await createIncident(ana.api, { title: 'Disk full' });
      await ana.api('POST', '/api/db/comments', {
        incident_id: inc.id,
        comment: 'no one to tell, mail me at a@b.c or @[broken](not-a-uuid)',
      });
      const c = await ana.api('POST', '/api/db/comments', {
        incident_id: inc.id,
        comment: `ping ${mentionMarkup(dee.name, dee.id)}`,
      });
      expect(c.status).toBe(201);
      const sends = await waitFor(
        async () => (await ana.api('GET', `/api/db/notification_send_history?resource_id=eq.${inc.id}`)).body as any[],
        (rows) => rows.length === 1,
        'one send history row',
      );
      expect(sends[0]).toMatchObject({ status: 'error', person_id: dee.id, error: 'Dee Dee has no email address' });
      // one fan-out (the comment without a person's markup published nothing) and one email, each handled once
      const events = await db.query(
        `SELECT e.name, d.consumer, d.status, d.attempts FROM event_queue e JOIN event_deliveries d ON d.event_id = e.id
         WHERE e.name LIKE 'incident.comment.mention%' AND e.properties ->> 'incident_id' = $1 ORDER BY e.name`,
        [inc.id],
      );
      expect(events.rows).toEqual([
        { name: 'incident.comment.mention', consumer: 'incidents.mention-email', status: 'done', attempts: 1 },
        { name: 'incident.comment.mentions', consumer: 'incidents.mentions', status: 'done', attempts: 1 },
      ]);
    });
  });
}
