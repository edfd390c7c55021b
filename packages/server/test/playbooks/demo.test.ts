/* eslint-disable @typescript-eslint/no-explicit-any -- rows of the database under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playbookSpecProblems } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { seedDemo } from '#server/demo/seed.ts';
import { callers, finished, type App } from './support.ts';

/**
 * The demo's playbooks are specs a person could have written: every one passes the schema, no
 * run is seeded, and the two meant for this machine really run here (a script in the sandbox on
 * a demo check, an HTTP call to the console itself).
 */
for (const driver of testDrivers()) {
  describe(`demo playbooks (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: App;
    let api: Awaited<ReturnType<typeof callers>>;

    beforeAll(async () => {
      db = await driver.open();
      await seedDemo(db, { force: false });
      let url: string;
      ({ app, url } = await startApp(db, { playbookWorkers: 2 }));
      api = await callers(db, url, { runner: 'editor' });
      await app.engines.start();
    }, 180_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    it('seeds valid specs and no runs', async () => {
      const { rows } = await db.query<any>(`SELECT name, spec FROM playbooks`);
      expect(rows.length).toBeGreaterThan(5);
      for (const r of rows) expect([r.name, playbookSpecProblems(r.spec)]).toEqual([r.name, []]);
      expect((await db.query<any>(`SELECT count(*)::int AS n FROM playbook_runs`)).rows[0].n).toBe(0);
    });

    it('runs the sandbox script on a demo check', async () => {
      const { rows: pb } = await db.query<any>(`SELECT id FROM playbooks WHERE name = 'inspect-check-host'`);
      const { rows: check } = await db.query<any>(
        `SELECT id, name FROM checks WHERE type = 'http' AND deleted_at IS NULL ORDER BY name LIMIT 1`,
      );
      const r = await api.call('runner', 'POST', '/api/playbook/run', { id: pb[0].id, check_id: check[0].id });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const { run, actions } = await finished(db, r.body.run_id);
      expect(run.status, JSON.stringify(actions)).toBe('completed');
      expect(actions.host.result.stdout).toContain(`check: ${check[0].name} (http)`);
    });
  });
}
