/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers and recorded payloads are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ConnectionValues } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { startMailbox, type Mailbox } from '../auth/support.ts';
import { apiAt, createConnection, waitFor, type Api } from '../incidents/support.ts';
import { startListener, type Listener } from './support.ts';
import type { Db } from '#server/db/index.ts';

/**
 * A real check fails (Run Now against a local target answering 503): health publishes
 * check.failed, the notifications consumer matches one rule per notification service plus a
 * person's rule, and each service's documented call reaches the local listener once, with the
 * documented payload; the person's email and the email connection's mail reach smtp-server once.
 */
const PUBLIC_URL = 'http://console.example';

for (const driver of testDrivers()) {
  describe(`notifications: a failing check through every service (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let api: Api;
    let target: http.Server;
    let peer: Listener;
    let mail: Mailbox;
    let checkId: string;
    const rules: Record<string, string> = {};

    beforeAll(async () => {
      db = await driver.open();
      peer = await startListener();
      mail = await startMailbox();
      target = http.createServer((_req, res) => res.writeHead(503).end('unavailable'));
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      const L = peer.url;
      const smtpPort = new URL(mail.url).port;
      let url: string;
      ({ app, url } = await startApp(db, {
        authMode: 'none',
        secretKey: 'notifications-test-key-0123456789',
        smtpUrl: mail.url,
        publicUrl: PUBLIC_URL,
        notifications: {
          rateLimitPerMinute: 0,
          apiUrls: { slack: L, telegram: L, pushover: L, pushbullet: L, ifttt: L, google_chat: L },
        },
      }));
      api = apiAt(url);
      await app.engines.start();

      const services: Record<string, ConnectionValues> = {
        slack: { username: 'C0123', password: 'xoxb-test', botName: 'watchdeck' },
        discord: { password: `${L}/discord/api/webhooks/1/abc` },
        teams: { host: L, group: 'grp', tenant: 'ten', password: 'alt', groupOwner: 'owner' },
        google_chat: { webhook: 'SPACE', username: 'chat-key', password: 'chat-token' },
        mattermost: { host: L, password: 'mm-token', channel: 'ops' },
        rocketchat: { host: L, port: 443, password: 'rcA/rcB', channel: '#ops', username: 'watchdeck' },
        telegram: { password: '123:tg', username: '-100200,@ops' },
        ntfy: { host: L, topic: 'alerts', username: 'nt', password: 'nt-pass' },
        pushover: { username: 'po-user', password: 'po-token' },
        pushbullet: { password: 'pb-token', targets: 'dev1' },
        matrix: { host: L, username: 'bot', password: 'mx-pass', room: '#ops:local' },
        zulip_chat: { host: L, username: 'bot@zulip.example', password: 'zkey' },
        ifttt: { password: 'if-key', events: 'watchdeck_alert' },
        opsgenie: { host: L, port: 443, password: 'og-key' },
        generic_webhook: {
          url: `${L}/webhook`,
          contentType: 'application/json',
          requestMethod: 'POST',
          messageKey: 'text',
          titleKey: 'subject',
        },
        email: {
          host: '127.0.0.1',
          port: Number(smtpPort),
          encryptionMethod: 'None',
          authMethod: 'None',
          from: 'watchdeck@example.com',
        },
      };
      for (const [type, values] of Object.entries(services)) {
        const id = await createConnection(api, type, { name: `n-${type}`, ...values });
        if (type === 'zulip_chat') {
          const r = await api('PATCH', `/api/db/connections?id=eq.${id}`, { properties: { host: L, stream: 'ops' } });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
        }
        const rule = await api('POST', '/api/db/notifications', {
          name: `to-${type}`,
          title: `To ${type}`,
          events: ['check.failed'],
          filter: "check.name == 'notif-orders'",
          custom_services: [
            {
              name: type,
              connection: `connection://default/n-${type}`,
              ...(type === 'email' ? { properties: { to: 'oncall@example.com' } } : {}),
              ...(type === 'generic_webhook' ? { properties: { headers: { 'X-Team': 'sre' } } } : {}),
            },
          ],
        });
        expect(rule.status, JSON.stringify(rule.body)).toBe(201);
        rules[type] = rule.body[0].id;
      }
      const person = await db.query<{ id: string }>(
        `INSERT INTO people (name, email) VALUES ('Ava Oncall', 'ava@example.com') RETURNING id`,
      );
      const pr = await api('POST', '/api/db/notifications', {
        name: 'to-ava',
        events: ['check.failed'],
        filter: "check.name == 'notif-orders'",
        person_id: person.rows[0].id,
      });
      expect(pr.status, JSON.stringify(pr.body)).toBe(201);
      rules.person = pr.body[0].id;

      const canary = await api('POST', '/api/db/canaries', {
        name: 'notif',
        schedule: '@every 1h',
        spec: {
          http: [
            {
              name: 'notif-orders',
              url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/orders`,
              responseCodes: [200],
            },
          ],
        },
      });
      expect(canary.status, JSON.stringify(canary.body)).toBe(201);
      checkId = (await db.query<{ id: string }>(`SELECT id FROM checks WHERE canary_id = $1`, [canary.body[0].id]))
        .rows[0].id;
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      await new Promise<void>((r) => (target ? target.close(() => r()) : r()));
      await peer?.close();
      await mail?.close();
      await db?.dispose();
    });

    it('sends one message per rule, each in its service’s documented shape, and records them as sent', async () => {
      const run = await api('POST', `/api/canary/run/check/${checkId}`);
      expect(run.body?.status, JSON.stringify(run.body)).toBe('unhealthy');

      const history = await waitFor(
        async () =>
          (
            await db.query<any>(
              `SELECT notification_id, status, error, resource_type, resource_id, source_event, title, body, duration_millis, count
               FROM notification_send_history`,
            )
          ).rows,
        (rows) => rows.length === Object.keys(rules).length,
        'a send history row per rule',
      );
      for (const row of history) {
        expect(row, JSON.stringify(row)).toMatchObject({
          status: 'sent',
          error: null,
          resource_type: 'check',
          resource_id: checkId,
          source_event: 'check.failed',
          title: 'Check notif-orders has failed',
          count: 1,
        });
        expect(row.body).toContain(`[Open in Watchdeck](${PUBLIC_URL}/health?checkId=${checkId})`);
        expect(row.duration_millis).toBeGreaterThanOrEqual(0);
      }

      const one = (prefix: string) => {
        const got = peer.at(prefix).filter((r) => prefix !== '/webhook' || r.path === '/webhook');
        expect(got.length, `${prefix}: ${JSON.stringify(got.map((g) => g.path))}`).toBe(1);
        return got[0];
      };
      // Slack chat.postMessage: bot token, channel, header + mrkdwn section
      const slack = one('/api/chat.postMessage');
      expect(slack.headers.authorization).toBe('Bearer xoxb-test');
      expect(slack.body).toMatchObject({
        channel: 'C0123',
        username: 'watchdeck',
        text: 'Check notif-orders has failed',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'Check notif-orders has failed' } },
          { type: 'section', text: { type: 'mrkdwn' } },
        ],
      });
      expect((slack.body as any).blocks[1].text.text).toContain(
        `<${PUBLIC_URL}/health?checkId=${checkId}|Open in Watchdeck>`,
      );
      // Discord webhook: one embed, ?wait=true
      const discord = one('/discord/api/webhooks/1/abc');
      expect(discord.path).toBe('/discord/api/webhooks/1/abc?wait=true');
      expect(discord.body).toMatchObject({
        embeds: [
          { title: 'Check notif-orders has failed', color: 0xd63031, url: `${PUBLIC_URL}/health?checkId=${checkId}` },
        ],
      });
      expect((discord.body as any).embeds[0].description).toContain('**notif-orders** is unhealthy');
      // Teams connector: MessageCard at webhookb2/<group>@<tenant>/IncomingWebhook/<altId>/<owner>
      const teams = one('/webhookb2/');
      expect(teams.path).toBe('/webhookb2/grp@ten/IncomingWebhook/alt/owner');
      expect(teams.body).toMatchObject({
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        title: 'Check notif-orders has failed',
      });
      // Google Chat: spaces/<space>/messages?key&token, {text}
      const chat = one('/v1/spaces/');
      expect(chat.path).toBe('/v1/spaces/SPACE/messages?key=chat-key&token=chat-token');
      expect((chat.body as any).text).toMatch(/^\*Check notif-orders has failed\*\n/);
      // Mattermost and Rocket.Chat incoming webhooks
      const mm = one('/hooks/mm-token');
      expect(mm.body).toMatchObject({ channel: 'ops' });
      expect((mm.body as any).text).toMatch(/^#### Check notif-orders has failed\n/);
      const rc = one('/hooks/rcA/rcB');
      expect(rc.body).toMatchObject({ channel: '#ops', alias: 'watchdeck' });
      // Telegram sendMessage, once per chat, HTML
      const tg = peer.at('/bot123:tg/sendMessage');
      expect(tg.map((r) => (r.body as any).chat_id)).toEqual(['-100200', '@ops']);
      expect(tg[0].body).toMatchObject({ parse_mode: 'HTML' });
      expect((tg[0].body as any).text).toMatch(/^<b>Check notif-orders has failed<\/b>\n/);
      // ntfy JSON publishing at the root
      const ntfy = peer.received.filter((r) => r.path === '/' && (r.body as any)?.topic === 'alerts');
      expect(ntfy).toHaveLength(1);
      expect(ntfy[0].headers.authorization).toBe(`Basic ${Buffer.from('nt:nt-pass').toString('base64')}`);
      expect(ntfy[0].body).toMatchObject({
        topic: 'alerts',
        title: 'Check notif-orders has failed',
        markdown: true,
        click: `${PUBLIC_URL}/health?checkId=${checkId}`,
      });
      // Pushover messages.json, form fields
      const po = one('/1/messages.json');
      expect(po.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(po.body).toMatchObject({
        token: 'po-token',
        user: 'po-user',
        title: 'Check notif-orders has failed',
        html: '1',
      });
      // Pushbullet pushes: a note to the device
      const pb = one('/v2/pushes');
      expect(pb.headers['access-token']).toBe('pb-token');
      expect(pb.body).toMatchObject({ type: 'note', title: 'Check notif-orders has failed', device_iden: 'dev1' });
      // Matrix: login, alias to room id, then PUT m.room.message with a transaction id
      expect(one('/_matrix/client/v3/login').body).toMatchObject({
        type: 'm.login.password',
        identifier: { type: 'm.id.user', user: 'bot' },
        password: 'mx-pass',
      });
      expect(one('/_matrix/client/v3/directory/room/').path).toBe('/_matrix/client/v3/directory/room/%23ops%3Alocal');
      const mx = one('/_matrix/client/v3/rooms/');
      expect(mx.method).toBe('PUT');
      expect(mx.path).toMatch(/^\/_matrix\/client\/v3\/rooms\/!room%3Alocal\/send\/m\.room\.message\/.+/);
      expect(mx.headers.authorization).toBe('Bearer mx-session');
      expect(mx.body).toMatchObject({ msgtype: 'm.text', format: 'org.matrix.custom.html' });
      // Zulip messages: a stream message, basic auth with the bot's address and key
      const zu = one('/api/v1/messages');
      expect(zu.headers.authorization).toBe(`Basic ${Buffer.from('bot@zulip.example:zkey').toString('base64')}`);
      expect(zu.body).toMatchObject({ type: 'stream', to: 'ops', topic: 'Check notif-orders has failed' });
      // IFTTT maker webhook
      const ifttt = one('/trigger/');
      expect(ifttt.path).toBe('/trigger/watchdeck_alert/with/key/if-key');
      expect(ifttt.body).toMatchObject({
        value1: 'Check notif-orders has failed',
        value3: `${PUBLIC_URL}/health?checkId=${checkId}`,
      });
      // OpsGenie alert API
      const og = one('/v2/alerts');
      expect(og.headers.authorization).toBe('GenieKey og-key');
      expect(og.body).toMatchObject({ message: 'Check notif-orders has failed', source: 'Watchdeck' });
      // the generic webhook: its keys, its headers, the idempotency key
      const wh = one('/webhook');
      expect(wh.headers['x-team']).toBe('sre');
      expect(wh.headers['idempotency-key']).toBeTruthy();
      expect(wh.body).toMatchObject({ subject: 'Check notif-orders has failed' });
      expect((wh.body as any).text).toContain('**notif-orders** is unhealthy');

      // email: the person's (SMTP_URL) and the email connection's, one each
      await waitFor(
        async () => mail.mails.length,
        (n) => n >= 2,
        'two emails',
      );
      expect(mail.mails.filter((m) => m.to.includes('ava@example.com'))).toHaveLength(1);
      expect(mail.mails.filter((m) => m.to.includes('oncall@example.com'))).toHaveLength(1);
      expect(mail.mails[0].raw).toContain('Subject: Check notif-orders has failed');

      // the counters the rules table reads
      const summary = await api('GET', `/api/db/notifications_summary?id=eq.${rules.slack}&select=sent,failed,pending`);
      expect(summary.body).toEqual([{ sent: 1, failed: 0, pending: 0 }]);
    }, 180_000);
  });
}
