import { describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { seedDemo } from '../../src/demo/seed.ts';
import { SETTINGS_KINDS, validateSettingsWrite } from '../../src/settings/index.ts';
import { withWriteChecks } from '../../src/pgrest/index.ts';
import { rowProblems } from '../../src/settings/validate.ts';

describe('settings validation', () => {
  // The schemas must accept what the product ships: every demo resource is a valid create.
  it('accepts every demo settings resource as a create', async () => {
    const db = await testDrivers()[0].open();
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

  it('authorises before it validates: a caller without write access gets the 403, not the 400', async () => {
    const denied = Object.assign(new Error('permission denied: write access to canaries is required'), {
      code: '42501',
    });
    const guard = withWriteChecks(() => {
      throw denied;
    }, [validateSettingsWrite]);
    const req = { method: 'POST', body: JSON.stringify({ name: '', spec: { http: [{}] } }) } as never;
    // the engine awaits its hook inside its own try: a throw and a rejection are the same to it
    const call = (hook: typeof guard, table: string, access: 'read' | 'write') =>
      (async () => hook(req, table, access))();
    await expect(call(guard, 'canaries', 'write')).rejects.toBe(denied);
    const asyncDenied = withWriteChecks(async () => {
      throw denied;
    }, [validateSettingsWrite]);
    await expect(call(asyncDenied, 'canaries', 'write')).rejects.toBe(denied);
    const open = withWriteChecks(() => {}, [validateSettingsWrite]);
    await expect(call(open, 'canaries', 'write')).rejects.toMatchObject({ code: '23514', message: 'name is required' });
    const openAsync = withWriteChecks(async () => {}, [validateSettingsWrite]);
    await expect(call(openAsync, 'canaries', 'write')).rejects.toMatchObject({
      code: '23514',
      message: 'name is required',
    });
    await expect(call(open, 'canaries', 'read')).resolves.toBeUndefined();
    await expect(call(open, 'people_roles', 'write')).resolves.toBeUndefined();
  });
});
