/* eslint-disable @typescript-eslint/no-explicit-any -- feed rows are inspected loosely */
import { describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { rollUp } from '#server/health/rollups.ts';
import {
  checksSummary,
  checksSummaryRows,
  clearRollupCache,
  percentileOfUnion,
  timestampJson,
  type SummaryFilter,
} from '#server/health/summary.ts';
import type { TimeWindow } from '#server/health/time-range.ts';

/**
 * The summary feed's fast paths give the numbers of its plain single-statement form:
 * - a roll-up window of the whole feed takes its roll-up part from a per-process cache (read once
 *   per roll-up pass) and merges the raw runs after the watermark in Node; a window narrowed to
 *   one check reads the roll-ups in SQL every time. Both must agree, check by check.
 * - percentileOfUnion (that merge) must be percentile_disc, value for value.
 * - after a roll-up pass the previous cache entry answers (with the raw runs after its own
 *   watermark) until the new one is read; counts stay exact throughout.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Two canaries, five checks (one without any run), three days of runs every 10 minutes. */
async function loadHistory(db: any): Promise<string[]> {
  const canaries = (
    await db.query(
      `INSERT INTO canaries (name, namespace, spec, labels) VALUES ('shop', 'web', '{}', '{"env":"prod"}'), ('api', 'core', '{}', '{}') RETURNING id`,
    )
  ).rows;
  const checks = (
    await db.query(
      `INSERT INTO checks (canary_id, name, type, labels) VALUES
         ($1, 'home', 'http', '{"tier":"edge"}'), ($1, 'checkout', 'http', '{}'), ($2, 'port', 'tcp', '{}'),
         ($2, 'dns', 'dns', '{"tier":"edge"}'), ($2, 'never-ran', 'http', '{}')
       RETURNING id, name`,
      [canaries[0].id, canaries[1].id],
    )
  ).rows as { id: string; name: string }[];
  const ran = checks.filter((c) => c.name !== 'never-ran').map((c) => c.id);
  // durations spread 5..1500 ms with a per-check shape; every 9th run of a check fails
  await db.query(
    `INSERT INTO check_statuses (check_id, time, duration, status)
     SELECT c, now() - interval '2 minutes' - g * interval '10 minutes',
       5 + (abs(hashtext(c::text || g)) % (100 + 400 * k)), (g + k) % 9 <> 0
     FROM unnest($1::uuid[]) WITH ORDINALITY AS u(c, k), generate_series(0, 3 * 24 * 6 - 1) g`,
    [ran],
  );
  return checks.map((c) => c.id);
}

/** Raw runs recorded after the roll-up watermark (a few per check, slow and fast). */
async function addRecentRuns(db: any, ids: string[], offsetMs: number): Promise<void> {
  await db.query(
    `INSERT INTO check_statuses (check_id, time, duration, status)
     SELECT c, now() + ($2::int + g * 1000) * interval '1 millisecond', (ARRAY[3, 2500, 40, 900])[g], g <> 2
     FROM unnest($1::uuid[]) c, generate_series(1, 4) g`,
    [ids.slice(0, 4), offsetMs],
  );
}

/** The whole feed through the cached path, and every check through the narrow (SQL-only) path. */
async function bothWays(db: any, window: TimeWindow, filter: SummaryFilter = {}) {
  const feed = await checksSummary(db, window, filter);
  const narrow: any[] = [];
  for (const row of feed.rows as any[])
    narrow.push((await checksSummary(db, window, { ...filter, checkId: row.id })).rows[0]);
  return { feed, narrow };
}

for (const driver of testDrivers()) {
  describe(`health summary fast paths (${driver.name})`, () => {
    it('percentileOfUnion is percentile_disc over the union of two sorted arrays', async () => {
      const db = await driver.open();
      let seed = 7;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      for (let t = 0; t < 60; t++) {
        const sorted = Int32Array.from({ length: t % 5 === 0 ? 0 : rnd(40) }, () => rnd(500)).sort();
        const extra = Array.from({ length: t % 3 === 0 ? 0 : rnd(t % 2 ? 6 : 80) }, () => rnd(600)).sort(
          (x, y) => x - y,
        );
        for (const q of [0.5, 0.95, 0.97, 0.99]) {
          const { rows } = await db.query<any>(
            `SELECT percentile_disc($2::float8) WITHIN GROUP (ORDER BY v) AS p FROM unnest($1::int[]) v`,
            [[...sorted, ...extra], q],
          );
          expect(percentileOfUnion(sorted, extra, q), `${[...sorted]} + ${extra} at ${q}`).toBe(rows[0].p);
        }
      }
      await db.dispose();
    });

    it('renders timestamps as to_json does, in any session time zone', async () => {
      const db = await driver.open();
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Berlin']) {
        const { rows } = await db.query<any>(
          `SELECT t::text AS text, to_json(t)::text AS json
           FROM (SELECT set_config('TimeZone', $1, false)) z,
             unnest(ARRAY['2026-11-25 10:14:03.123456+00', '2026-01-01 00:00:00+00', '2026-06-30 23:59:59.5+00',
                          '1999-12-31 12:00:00.000001+00', 'infinity', '-infinity']::timestamptz[]) t`,
          [zone],
        );
        for (const r of rows) expect(timestampJson(r.text), `${r.text} in ${zone}`).toBe(r.json);
      }
      expect(timestampJson(null)).toBe('null');
      await db.dispose();
    });

    // what row_to_json makes of a feed check's own columns, in the feed's key order
    const reference = async (db: any) =>
      (
        await db.query(
          `SELECT row_to_json(x)::text AS j FROM (
             SELECT c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
               (SELECT json_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = c.agent_id) AS agent,
               c.name, c.namespace, c.description, c.type, c.icon, c.endpoint, c.owner, c.labels, c.severity, c.status,
               c.last_runtime, c.next_runtime, c.last_transition_time, c.deleted_at
             FROM checks c JOIN canaries ca ON ca.id = c.canary_id ORDER BY ca.name, c.name) x`,
        )
      ).rows.map((r: any) => JSON.parse(r.j));
    const ownColumns = async (db: any) => {
      const { rows } = await checksSummaryRows(db, { start: new Date(Date.now() - HOUR), end: new Date() });
      return rows.map((text) => {
        const { uptime, latency, ...own } = JSON.parse(text);
        expect(Object.keys(uptime)).toEqual(['passed', 'failed', 'last_pass', 'last_fail']);
        expect(Object.keys(latency)).toEqual(['p95', 'p97', 'p99', 'rolling1h']);
        return own;
      });
    };
    const sameAsReference = async (db: any) => {
      const [own, expected] = [await ownColumns(db), await reference(db)];
      expect(own.length).toBe(expected.length);
      own.forEach((o: any, i: number) => {
        expect(Object.keys(o)).toEqual(Object.keys(expected[i]));
        expect(o).toEqual(expected[i]);
      });
      return own;
    };

    it('renders each check as row_to_json would, and follows changes to checks, canaries and agents', async () => {
      const db = await driver.open();
      await loadHistory(db);
      await db.query(
        `UPDATE checks SET description = 'says "hi" \\ ünïcode', owner = 'team-a', last_runtime = now(),
           next_runtime = now() + interval '1 minute', labels = '{"a": "x\\"y", "n": 1}' WHERE name = 'home'`,
      );
      await sameAsReference(db);
      // a run changes only status and run times (the head stays); a sync changes the rest
      await db.query(`UPDATE checks SET status = 'unhealthy', last_transition_time = now() WHERE name = 'port'`);
      await db.query(`UPDATE checks SET labels = '{"tier": "core"}', severity = 'high' WHERE name = 'dns'`);
      await db.query(`UPDATE canaries SET name = 'shop-renamed', namespace = 'web2' WHERE name = 'shop'`);
      const agent = (await db.query(`INSERT INTO agents (name) VALUES ('edge-1') RETURNING id`)).rows[0].id;
      await db.query(`UPDATE checks SET agent_id = $1 WHERE name = 'checkout'`, [agent]);
      await db.query(`UPDATE agents SET name = 'edge-one' WHERE id = $1`, [agent]);
      const canary = (await db.query(`SELECT id FROM canaries WHERE name = 'api'`)).rows[0].id;
      await db.query(`INSERT INTO checks (canary_id, name, type) VALUES ($1, 'added', 'http')`, [canary]);
      const own = await sameAsReference(db);
      expect(own.find((c: any) => c.name === 'checkout')).toMatchObject({
        canary_name: 'shop-renamed',
        agent: { id: agent, name: 'edge-one' },
      });
      expect(own.find((c: any) => c.name === 'port')).toMatchObject({ status: 'unhealthy' });
      // a check that somehow has no head is still in the feed, rendered on the spot
      await db.query(`DELETE FROM check_feed WHERE check_id = (SELECT id FROM checks WHERE name = 'dns')`);
      await sameAsReference(db);
      await db.dispose();
    });

    it('takes the percentiles of a raw window as percentile_disc does, check by check', async () => {
      const db = await driver.open();
      await loadHistory(db);
      // 'never-ran' has no runs: no percentiles, as percentile_disc gives none; 'home' has 200 more
      // runs in the last hour, so its three percentiles differ
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT (SELECT id FROM checks WHERE name = 'home'), now() - g * interval '15 seconds', (g * 37) % 1000, true
         FROM generate_series(1, 200) g`,
      );
      for (const span of [HOUR, 3 * HOUR, 6 * HOUR - 2000]) {
        const window = { start: new Date(Date.now() - span), end: new Date(Date.now() + 1000) };
        const { rows: expected } = await db.query<any>(
          `SELECT c.id, s.pct FROM checks c LEFT JOIN (
             SELECT check_id, percentile_disc(ARRAY[0.95, 0.97, 0.99]) WITHIN GROUP (ORDER BY duration) AS pct
             FROM check_statuses WHERE time >= $1 AND time < $2 GROUP BY check_id) s ON s.check_id = c.id`,
          [window.start.toISOString(), window.end.toISOString()],
        );
        const feed = await checksSummary(db, window);
        expect(feed.source).toBe('raw');
        for (const e of expected) {
          const row = feed.rows.find((r: any) => r.id === e.id) as any;
          const [p95, p97, p99] = e.pct ?? [null, null, null];
          expect(row.latency, `${row.name} over ${span / HOUR} h`).toMatchObject({ p95, p97, p99 });
        }
        expect(feed.rows.some((r: any) => r.latency.p95 !== r.latency.p99)).toBe(true);
      }
      await db.dispose();
    });

    it('keeps the heads in memory until check_feed_state moves, and reads a head it lacks', async () => {
      const db = await driver.open();
      await loadHistory(db);
      const version = async () => Number((await db.query<any>(`SELECT version FROM check_feed_state`)).rows[0].version);
      const names = async () => (await ownColumns(db)).map((c: any) => c.name);
      await sameAsReference(db);
      // a change to heads moves the number; a check run does not
      let before = await version();
      await db.query(
        `UPDATE checks SET severity = 'low' WHERE canary_id = (SELECT id FROM canaries WHERE name = 'api')`,
      );
      expect(await version()).toBeGreaterThan(before);
      before = await version();
      await db.query(`UPDATE checks SET status = 'unhealthy', last_runtime = now(), last_transition_time = now()`);
      expect(await version()).toBe(before);
      await sameAsReference(db);
      // the heads are not read again while the number stands (a head written behind its back stays
      // unseen), and are once it moves
      await db.exec(`ALTER TABLE check_feed DISABLE TRIGGER check_feed_changed`);
      await db.query(`UPDATE check_feed SET head = replace(head, '"home"', '"stale"')`);
      await db.exec(`ALTER TABLE check_feed ENABLE TRIGGER check_feed_changed`);
      expect(await names()).toContain('home');
      await db.query(`UPDATE check_feed_state SET version = version + 1`);
      expect(await names()).toContain('stale');
      await db.query(`UPDATE checks SET name = 'home' WHERE name = 'home'`);
      expect(await names()).toContain('home');
      // a deleted check comes back without its head changing: it is read on the spot
      await db.query(`UPDATE checks SET deleted_at = now() WHERE name = 'port'`);
      expect(await names()).not.toContain('port');
      await db.query(`UPDATE checks SET deleted_at = NULL WHERE name = 'port'`);
      expect(await names()).toContain('port');
      await sameAsReference(db);
      // without the state row the heads are read every time
      await db.query(`DELETE FROM check_feed_state`);
      await db.query(`UPDATE checks SET name = 'home-2' WHERE name = 'home'`);
      expect(await names()).toContain('home-2');
      await db.query(`UPDATE checks SET name = 'home-3' WHERE name = 'home-2'`);
      expect(await names()).toContain('home-3');
      await db.dispose();
    });

    it('gives the whole feed the numbers of the single-statement form, for raw, hourly and daily windows', async () => {
      const db = await driver.open();
      const ids = await loadHistory(db);
      await rollUp(db);
      await addRecentRuns(db, ids, 1000);
      const end = new Date(Date.now() + 60_000);
      for (const [span, source] of [
        [HOUR, 'raw'],
        [5 * HOUR, 'raw'],
        [7 * HOUR, '1h'],
        [2 * DAY, '1h'],
        [3 * DAY, '1d'],
        [30 * DAY, '1d'],
      ] as const) {
        const window = { start: new Date(end.getTime() - span), end };
        const { feed, narrow } = await bothWays(db, window);
        expect(feed.source).toBe(source);
        expect(feed.rows.map((r: any) => r.name)).toEqual(['dns', 'never-ran', 'port', 'checkout', 'home']); // canary name, check name
        expect(feed.rows).toEqual(narrow);
        const recent = feed.rows.find((r: any) => r.name === 'home') as any;
        expect(recent.uptime.last_fail).toEqual(expect.any(String)); // the recent failing run
        expect(recent.latency).toEqual({
          p95: expect.any(Number),
          p97: expect.any(Number),
          p99: expect.any(Number),
          rolling1h: expect.any(Number),
        });
        expect((feed.rows.find((r: any) => r.name === 'never-ran') as any).uptime).toEqual({
          passed: 0,
          failed: 0,
          last_pass: null,
          last_fail: null,
        });
      }
      // a window in the past (no raw runs after the watermark in it), and label filters
      const past = { start: new Date(Date.now() - 3 * DAY), end: new Date(Date.now() - DAY) };
      const p = await bothWays(db, past);
      expect(p.feed.rows).toEqual(p.narrow);
      expect((p.feed.rows[0] as any).uptime.passed).toBeGreaterThan(0);
      const edge = await bothWays(
        db,
        { start: new Date(end.getTime() - 3 * DAY), end },
        { labels: { include: [['tier', 'edge']], exclude: [] } },
      );
      expect(edge.feed.rows.map((r: any) => r.name)).toEqual(['dns', 'home']);
      expect(edge.feed.rows).toEqual(edge.narrow);
      // counts are those of the raw history
      const raw = (
        await db.query<any>(
          `SELECT count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed FROM check_statuses WHERE check_id = $1`,
          [ids[0]],
        )
      ).rows[0];
      const month = await checksSummary(db, { start: new Date(end.getTime() - 30 * DAY), end }, {});
      expect((month.rows.find((r: any) => r.id === ids[0]) as any).uptime).toMatchObject(raw);
      await db.dispose();
    });

    it('keeps answering across a roll-up pass, then reads the new roll-ups', async () => {
      const db = await driver.open();
      const ids = await loadHistory(db);
      await rollUp(db);
      const window = () => ({ start: new Date(Date.now() - 7 * DAY), end: new Date(Date.now() + 60_000) });
      const before = await checksSummary(db, window());
      await addRecentRuns(db, ids, 1000);
      await rollUp(db); // the watermark moves past the new runs
      // the previous entry answers with the raw runs after its own watermark: exact counts
      const during = await checksSummary(db, window());
      for (const id of ids.slice(0, 4)) {
        const a = before.rows.find((r: any) => r.id === id) as any;
        const b = during.rows.find((r: any) => r.id === id) as any;
        expect(b.uptime.passed + b.uptime.failed).toBe(a.uptime.passed + a.uptime.failed + 4);
        expect(b.uptime.failed).toBe(a.uptime.failed + 1);
      }
      // once the new entry is read, the feed is the single-statement form at the new watermark
      await expect
        .poll(async () => {
          const { feed, narrow } = await bothWays(db, window());
          return JSON.stringify(feed.rows) === JSON.stringify(narrow);
        })
        .toBe(true);
      // a forgotten cache is read again and gives the same
      clearRollupCache(db);
      const { feed, narrow } = await bothWays(db, window());
      expect(feed.rows).toEqual(narrow);
      await db.dispose();
    });

    it('gives raw windows that start and end anywhere the numbers of the runs themselves', async () => {
      const db = await driver.open();
      const ids = await loadHistory(db);
      // two checks run every 20 s for the last 3 hours: windows cut through runs close together
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT c, now() - interval '7 seconds' - g * interval '20 seconds', (g * 53 + k * 11) % 1700, g % 7 <> 3
         FROM unnest($1::uuid[]) WITH ORDINALITY AS u(c, k), generate_series(0, 3 * 180 - 1) g`,
        [ids.slice(0, 2)],
      );
      // the runs and the feed, compared field by field for windows that start and end anywhere
      const compare = async (label: string) => {
        const now = Date.now();
        const windows: [string, TimeWindow][] = [
          ['1h', { start: new Date(now - HOUR), end: new Date(now) }],
          ['15m', { start: new Date(now - 15 * 60_000), end: new Date(now) }],
          ['3h', { start: new Date(now - 3 * HOUR - 1234), end: new Date(now + 1000) }],
          ['2h ending 37m ago', { start: new Date(now - 2 * HOUR - 37_000), end: new Date(now - 37 * 60_000) }],
          ['4m', { start: new Date(now - 4 * 60_000), end: new Date(now) }],
          ['6h', { start: new Date(now - 6 * HOUR + 5000), end: new Date(now) }],
        ];
        for (const [name, window] of windows) {
          const feed = await checksSummary(db, window);
          expect(feed.source).toBe('raw');
          const { rows: expected } = await db.query<any>(
            `SELECT c.id, count(cs.time) FILTER (WHERE cs.status)::int AS passed,
               count(cs.time) FILTER (WHERE NOT cs.status)::int AS failed,
               to_json(max(cs.time) FILTER (WHERE cs.status)) AS last_pass,
               to_json(max(cs.time) FILTER (WHERE NOT cs.status)) AS last_fail,
               percentile_disc(ARRAY[0.95, 0.97, 0.99]) WITHIN GROUP (ORDER BY cs.duration) AS pct,
               (SELECT round(avg(r.duration))::int FROM check_statuses r
                WHERE r.check_id = c.id AND r.time > now() - interval '1 hour'
                  AND ($3 OR (r.time >= $1 AND r.time < $2))) AS rolling1h
             FROM checks c LEFT JOIN check_statuses cs ON cs.check_id = c.id AND cs.time >= $1 AND cs.time < $2
             GROUP BY c.id`,
            // rolling1h is the last hour's mean; over the window's runs when the window holds the last hour
            [
              window.start.toISOString(),
              window.end.toISOString(),
              !(window.start.getTime() <= now - HOUR && window.end.getTime() >= now - 1000),
            ],
          );
          for (const e of expected) {
            const row = feed.rows.find((r: any) => r.id === e.id) as any;
            const [p95, p97, p99] = e.pct ?? [null, null, null];
            const at = `${label}: ${row.name} over ${name}`;
            expect(row.uptime, at).toEqual({
              passed: e.passed,
              failed: e.failed,
              last_pass: e.last_pass,
              last_fail: e.last_fail,
            });
            expect(row.latency, at).toEqual({ p95, p97, p99, rolling1h: e.rolling1h });
          }
        }
      };
      await compare('as loaded');
      // a late run, a run deleted, durations rewritten
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         VALUES ($1, now() - interval '50 minutes' - interval '3 seconds', 4999, false)`,
        [ids[2]],
      );
      await db.query(
        `DELETE FROM check_statuses WHERE check_id = $1 AND time > now() - interval '40 minutes'
           AND time < now() - interval '30 minutes'`,
        [ids[0]],
      );
      await db.query(
        `UPDATE check_statuses SET duration = duration + 3000, status = NOT status
         WHERE check_id = $1 AND time > now() - interval '2 hours' AND time < now() - interval '100 minutes'`,
        [ids[1]],
      );
      await compare('after an insert, a delete and an update');
      await db.dispose();
    }, 180_000);
  });
}
