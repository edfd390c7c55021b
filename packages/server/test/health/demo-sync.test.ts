import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { seedDemo } from '#server/demo/seed.ts';
import { syncCanaryChecks, type CanaryRow } from '#server/health/sync.ts';

// The engine re-syncs a canary's checks from its spec before running it; the demo checks must
// come out of that as they were seeded (labels, severity, description, owner), or the health
// dashboard's demo loses its label filters after the first run.
for (const driver of testDrivers()) {
  describe(`demo canaries survive a re-sync (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
      await seedDemo(db, { force: false });
    });
    afterAll(async () => {
      await db?.dispose();
    });

    it('keeps every demo check with its labels, severity, description and owner', async () => {
      const snapshot = async () =>
        (
          await db.query<{ id: string }>(
            `SELECT id, name, labels, severity, description, owner, deleted_at FROM checks
              WHERE canary_id IS NOT NULL ORDER BY id`,
          )
        ).rows;
      const before = await snapshot();
      expect(before.length).toBeGreaterThanOrEqual(10);
      const canaries = await db.query<CanaryRow>(
        `SELECT id, name, namespace, agent_id, icon, labels, spec, schedule FROM canaries WHERE deleted_at IS NULL`,
      );
      for (const canary of canaries.rows) await syncCanaryChecks(db, canary);
      expect(await snapshot()).toEqual(before);
    });
  });
}
