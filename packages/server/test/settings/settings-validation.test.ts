import { describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { seedDemo } from '#server/demo/seed.ts';
import { SETTINGS_KINDS } from '#server/settings/index.ts';
import { rowProblems } from '#server/settings/validate.ts';
import { demoCheckRoots } from '#server/demo/health.ts';
import { setCheckRoots } from '#server/git/index.ts';

describe('settings validation', () => {
  // The schemas must accept what the product ships: every demo resource is a valid create.
  it('accepts every demo settings resource as a create', async () => {
    const db = await testDrivers()[0].open();
    // as a server with demo data sets them (app.ts): the demo's folder check reads the migrations
    setCheckRoots(demoCheckRoots());
    try {
      await seedDemo(db, { force: false });
      for (const kind of SETTINGS_KINDS) {
        const { rows } = await db.query<Record<string, unknown>>(`SELECT * FROM ${kind.table}`);
        expect(rows.length, kind.table).toBeGreaterThan(0);
        for (const row of rows) {
          const writable = Object.fromEntries(
            Object.entries(row).filter(([k]) => ['name', 'spec', 'labels', 'schedule'].includes(k)),
          );
          expect(rowProblems(kind, writable, true), `${kind.table} ${row.name}`).toEqual([]);
        }
      }
    } finally {
      await db.dispose();
    }
  }, 120_000);
});
