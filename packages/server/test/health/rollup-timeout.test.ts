/* eslint-disable @typescript-eslint/no-explicit-any -- rows are inspected loosely */
import { describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { pruneCheckStatuses, rollUp } from '#server/health/rollups.ts';

/**
 * WATCHDECK_DB_STATEMENT_TIMEOUT bounds the statements of requests. The roll-up's first pass and
 * the first prune after an upgrade cover all of a database's history in one statement each, and
 * must finish however long that takes (cancelled, they would be tried again every pass and never
 * finish). PostgreSQL only: PGlite has no statement timeout.
 */
const pgDriver = testDrivers().find((d) => d.name === 'pg');

describe.skipIf(!pgDriver)('roll-ups under a short statement timeout (PostgreSQL)', () => {
  it('a roll-up pass and a prune longer than the timeout complete; a request-sized statement is cancelled', async () => {
    const db = await pgDriver!.open({ statementTimeoutMs: 100 });
    try {
      // the fixture is written without the timeout (it is no request either)
      const checks = await db.transaction(async (tx) => {
        await tx.query('SET LOCAL statement_timeout = 0');
        const canary = (
          await tx.query<any>(
            `INSERT INTO canaries (name, spec, schedule) VALUES ('hist', '{}', '@every 1m') RETURNING id`,
          )
        ).rows[0];
        const ids = (
          await tx.query<any>(
            `INSERT INTO checks (canary_id, name, type) SELECT $1, 'c' || g, 'http' FROM generate_series(1, 50) g RETURNING id`,
            [canary.id],
          )
        ).rows.map((r: any) => r.id);
        // 50 checks, one run a minute for ~4 days: 300,000 rows
        await tx.query(
          `INSERT INTO check_statuses (check_id, time, duration, status)
           SELECT c, now() - g * interval '1 minute', g % 90, g % 11 <> 0
           FROM unnest($1::uuid[]) c, generate_series(1, 6000) g`,
          [ids],
        );
        return ids;
      });
      expect(checks).toHaveLength(50);
      await expect(db.query('SELECT pg_sleep(0.5)')).rejects.toMatchObject({ code: '57014' });

      const stats = await rollUp(db);
      expect(stats.days).toBeGreaterThanOrEqual(4 * 50);
      const pruned = await pruneCheckStatuses(db, 1);
      expect(pruned.raw).toBeGreaterThan(200_000);
    } finally {
      await db.dispose();
    }
  }, 120_000);
});
