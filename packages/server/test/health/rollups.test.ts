/* eslint-disable @typescript-eslint/no-explicit-any -- rows are inspected loosely */
import { describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { pruneCheckStatuses, rollUp } from '#server/health/rollups.ts';
import { checksSummary } from '#server/health/summary.ts';
import { checkGraph } from '#server/health/graph.ts';
import { syncCanaryChecks } from '#server/health/sync.ts';

/**
 * Roll-ups and retention: long ranges read hourly/daily rows plus the raw runs after the
 * watermark and give the same counts as the raw history did; retention deletes old raw runs only
 * once they are rolled up. Also the relationship selectors behind check_summary_for_config.
 */
const HOUR = 3_600_000;

for (const driver of testDrivers()) {
  describe(`check status roll-ups (${driver.name})`, () => {
    it('reads long ranges from roll-ups with the raw counts, and survives retention', async () => {
      const db = await driver.open();
      const canary = (
        await db.query<any>(
          `INSERT INTO canaries (name, spec, schedule) VALUES ('hist', '{}', '@every 10m') RETURNING id`,
        )
      ).rows[0];
      const check = (
        await db.query<any>(`INSERT INTO checks (canary_id, name, type) VALUES ($1, 'api', 'http') RETURNING id`, [
          canary.id,
        ])
      ).rows[0];
      // 3 days of runs every 10 minutes, ending 20 minutes ago: every 7th fails; durations 10..59 ms.
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT $1, now() - interval '20 minutes' - g * interval '10 minutes', 10 + g % 50, g % 7 <> 0
         FROM generate_series(0, 3 * 24 * 6 - 1) g`,
        [check.id],
      );
      const raw = (
        await db.query<any>(
          `SELECT count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed FROM check_statuses`,
        )
      ).rows[0];
      expect(raw.passed + raw.failed).toBe(432);

      const stats = await rollUp(db);
      expect(stats.hours).toBeGreaterThanOrEqual(72);
      expect(stats.days).toBeGreaterThanOrEqual(3);
      const hourly = (
        await db.query<any>(`SELECT sum(passed)::int AS passed, sum(failed)::int AS failed FROM check_statuses_1h`)
      ).rows[0];
      expect(hourly).toEqual(raw);

      // runs after the watermark are read raw and counted once
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status) VALUES ($1, now() + interval '1 second', 99, false)`,
        [check.id],
      );
      const now = new Date(Date.now() + 5000);
      const week = await checksSummary(db, { start: new Date(now.getTime() - 7 * 24 * HOUR), end: now });
      expect(week.source).toBe('1d');
      expect((week.rows[0] as any).uptime).toMatchObject({ passed: raw.passed, failed: raw.failed + 1 });
      expect((week.rows[0] as any).latency.p95).toBeGreaterThan(40);
      const twoDays = await checksSummary(db, { start: new Date(now.getTime() - 48 * HOUR), end: now });
      expect(twoDays.source).toBe('1h');
      const hour = await checksSummary(db, { start: new Date(now.getTime() - HOUR), end: now });
      expect(hour.source).toBe('raw');
      expect((hour.rows[0] as any).uptime.passed + (hour.rows[0] as any).uptime.failed).toBe(4 + 1); // 20..50 minutes ago, and the new one

      const year = await checkGraph(db, check.id, { start: new Date(now.getTime() - 365 * 24 * HOUR), end: now }, 300);
      expect(year).toMatchObject({ source: '1d', bucket_seconds: 2 * 86_400 });
      expect(year.status.reduce((a, p) => a + p.passed + p.failed, 0)).toBe(433);
      const month = await checkGraph(db, check.id, { start: new Date(now.getTime() - 30 * 24 * HOUR), end: now }, 300);
      expect(month).toMatchObject({ source: '1h', bucket_seconds: 3 * 3600 });
      expect(month.status.length).toBeLessThanOrEqual(300);

      // retention: raw runs older than a day go, the roll-ups keep the week's numbers
      const pruned = await pruneCheckStatuses(db, 1);
      expect(pruned.raw).toBeGreaterThan(250);
      expect(
        new Date((await db.query<any>(`SELECT min(time) AS t FROM check_statuses`)).rows[0].t).getTime(),
      ).toBeGreaterThan(Date.now() - 25 * HOUR);
      const after = await checksSummary(db, { start: new Date(now.getTime() - 7 * 24 * HOUR), end: now });
      expect((after.rows[0] as any).uptime).toMatchObject({ passed: raw.passed, failed: raw.failed + 1 });
      await db.dispose();
    });

    it('never prunes raw runs that are not rolled up yet', async () => {
      const db = await driver.open();
      const canary = (await db.query<any>(`INSERT INTO canaries (name, spec) VALUES ('old', '{}') RETURNING id`))
        .rows[0];
      const check = (
        await db.query<any>(`INSERT INTO checks (canary_id, name, type) VALUES ($1, 'x', 'tcp') RETURNING id`, [
          canary.id,
        ])
      ).rows[0];
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status) VALUES ($1, now() - interval '40 days', 5, true)`,
        [check.id],
      );
      expect((await pruneCheckStatuses(db, 1)).raw).toBe(0);
      await rollUp(db);
      expect((await pruneCheckStatuses(db, 1)).raw).toBe(1);
      expect((await db.query<any>(`SELECT passed FROM check_statuses_1d`)).rows).toEqual([{ passed: 1 }]);
      await db.dispose();
    });

    it('links checks to the configs and components their spec selects (check_summary_for_config)', async () => {
      const db = await driver.open();
      const config = (
        await db.query<any>(
          `INSERT INTO config_items (type, config_class, name, labels) VALUES ('Postgres::Database', 'Database', 'orders-db', '{"team":"payments"}') RETURNING id`,
        )
      ).rows[0];
      await db.query(
        `INSERT INTO config_items (type, config_class, name) VALUES ('Postgres::Database', 'Database', 'other-db')`,
      );
      const component = (
        await db.query<any>(`INSERT INTO components (name, type) VALUES ('payments-api', 'Service') RETURNING id`)
      ).rows[0];
      const canary = (
        await db.query<any>(
          `INSERT INTO canaries (name, spec) VALUES ('db', $1::jsonb) RETURNING id, name, namespace, agent_id, labels, spec`,
          [
            JSON.stringify({
              postgres: [
                {
                  name: 'orders primary',
                  url: 'postgres://x',
                  relationships: {
                    configs: [{ type: 'Postgres::Database', labels: { team: 'payments' } }],
                    components: [{ name: 'payments-*' }],
                  },
                },
              ],
            }),
          ],
        )
      ).rows[0];
      const [check] = await syncCanaryChecks(db, canary);
      const forConfig = await db.query<any>(
        `SELECT id, name, canary_name FROM check_summary_for_config WHERE config_id = $1`,
        [config.id],
      );
      expect(forConfig.rows).toEqual([{ id: check.id, name: 'orders primary', canary_name: 'db' }]);
      const rel = await db.query<any>(`SELECT name, type FROM check_relationships WHERE check_id = $1 ORDER BY type`, [
        check.id,
      ]);
      expect(rel.rows).toEqual([
        { name: 'payments-api', type: 'component' },
        { name: 'orders-db', type: 'config' },
      ]);
      expect(
        (
          await db.query<any>(`SELECT count(*)::int AS n FROM checks_by_component WHERE component_id = $1`, [
            component.id,
          ])
        ).rows[0].n,
      ).toBe(1);
      // dropping the selector from the spec unlinks
      await db.query(`UPDATE canaries SET spec = $2::jsonb WHERE id = $1`, [
        canary.id,
        JSON.stringify({ postgres: [{ name: 'orders primary', url: 'postgres://x' }] }),
      ]);
      await syncCanaryChecks(db, { ...canary, spec: { postgres: [{ name: 'orders primary', url: 'postgres://x' }] } });
      expect(
        (
          await db.query<any>(`SELECT count(*)::int AS n FROM check_summary_for_config WHERE config_id = $1`, [
            config.id,
          ])
        ).rows[0].n,
      ).toBe(0);
      await db.dispose();
    });
  });
}
