import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { freshDb } from '../support.ts';
import type { Scenario } from './index.ts';

const EVENTS = 10_000;
const RULES = 3;
const WORKERS = 8;

/**
 * Issue 19's target: 10,000 check.failed events, each matched by 3 rules whose recipient is a
 * generic webhook on a local listener, all 30,000 sends made and recorded in the send history,
 * none twice, in under 60 s. The real app's notifications consumer does the work (one delivery
 * at a time per worker, as every consumer with side effects), with WATCHDECK_WORKERS=8 and the
 * per-rule rate limit off (WATCHDECK_NOTIFICATION_RATE_LIMIT=0: the limit is a brake on a noisy
 * rule, not part of the engine's speed). "None twice" is checked at both ends: the listener
 * counts distinct Idempotency-Key headers and the history distinct (rule, delivery) pairs.
 */
export const notificationsFanout: Scenario = {
  name: `notifications: ${EVENTS} events to ${RULES} rules each, a local webhook, ${WORKERS} workers`,
  async run() {
    const bench = await freshDb();
    const { db } = bench;
    const keys = new Set<string>();
    let calls = 0;
    const listener = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        keys.add(String(req.headers['idempotency-key']));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hook`;
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', WATCHDECK_NOTIFICATION_RATE_LIMIT: '0' }),
      authMode: 'none' as const,
      workers: WORKERS,
      secretKey: 'bench-notifications-key-0123456789',
    };
    const app = await buildApp({ config, db });
    await app.engines.start();
    try {
      await db.query(
        `INSERT INTO connections (name, type, url, properties)
         VALUES ('bench-hook', 'generic_webhook', $1, '{"requestMethod":"POST","contentType":"application/json"}')`,
        [hook],
      );
      for (let i = 0; i < RULES; i++) {
        await db.query(
          `INSERT INTO notifications (name, events, filter, custom_services)
           VALUES ($1, '{check.failed}', $2, '[{"connection":"connection://default/bench-hook"}]')`,
          [`bench-${i}`, "check.name.startsWith('bench-')"],
        );
      }
      const canary = (await db.query<{ id: string }>(`INSERT INTO canaries (name) VALUES ('bench') RETURNING id`))
        .rows[0].id;
      await db.query(
        `INSERT INTO checks (canary_id, name, type, status)
         SELECT $1, 'bench-' || g, 'http', 'unhealthy' FROM generate_series(1, $2::int) g`,
        [canary, EVENTS],
      );
      const started = performance.now();
      await db.query(
        `SELECT publish_event('check.failed', c.id || '/bench',
           jsonb_build_object('check_id', c.id, 'canary_id', c.canary_id, 'name', c.name, 'status', 'unhealthy', 'error', 'HTTP 503'))
         FROM checks c WHERE c.canary_id = $1`,
        [canary],
      );
      const total = EVENTS * RULES;
      let recorded = 0;
      while (performance.now() - started < 120_000) {
        recorded = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notification_send_history`)).rows[0]
          .n;
        if (recorded >= total) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const elapsed = performance.now() - started;
      const { rows } = await db.query<{ rows: number; sent: number; pairs: number }>(
        `SELECT count(*)::int AS rows, count(*) FILTER (WHERE status = 'sent')::int AS sent,
           count(DISTINCT (notification_id, delivery_key))::int AS pairs FROM notification_send_history`,
      );
      const { sent, pairs } = rows[0];
      // a call made twice shows as a repeated key at the listener; a row twice as a repeated pair
      const twice = calls - keys.size + (rows[0].rows - pairs);
      const ok = elapsed < 60_000 && sent === total && keys.size === total && twice === 0;
      return {
        driver: db.driver,
        result: `${sent}/${total} sent and recorded in ${(elapsed / 1000).toFixed(1)} s (${Math.round(sent / (elapsed / 1000))} sends/s), ${calls} calls, ${twice} twice`,
        target: 'all 30,000 recorded, none twice, under 60 s',
        met: db.driver === 'pg' ? (ok ? 'yes' : 'no') : 'n/a (PGlite)',
      };
    } finally {
      await app.close();
      await new Promise<void>((r) => listener.close(() => r()));
      await bench.dispose();
    }
  },
};
