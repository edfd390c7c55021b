import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDrivers } from '../support/db.ts';
import { migrate, type Db } from '#server/db/index.ts';
import { areaSqlFiles } from '#server/db/migrate.ts';

/**
 * The areas' SQL files (db/README.md): applied after the versioned migrations, again whenever
 * their content changes, and all again after a run that applied a migration.
 */
describe.each(testDrivers())('area SQL files on $name', (driver) => {
  let db: Db & { dispose(): Promise<void> };
  let root: string;
  const migrationsDir = () => join(root, 'migrations');
  const areasDir = () => join(root, 'src');
  const write = (path: string, sql: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), sql);
  };
  const run = () => migrate(db, { migrationsDir: migrationsDir(), areasDir: areasDir() });
  const value = async (fn: string) => (await db.query<{ v: number }>(`SELECT ${fn}() AS v`)).rows[0].v;
  const records = async () =>
    (
      await db.query<{ path: string; hash: string; applied_at: string }>(
        'SELECT path, hash, applied_at::text FROM schema_sql_files ORDER BY path',
      )
    ).rows;

  beforeAll(async () => {
    db = await driver.open({ migrations: false });
    root = mkdtempSync(join(tmpdir(), 'area-sql-'));
    write('migrations/0001_things.sql', 'CREATE TABLE things (id int PRIMARY KEY, n int);');
    // 20 uses what 10 defines (a SQL function's body is checked when it is created)
    write(
      'src/beta/sql/20-beta.sql',
      'CREATE OR REPLACE FUNCTION beta() RETURNS int LANGUAGE sql AS $$ SELECT alpha() * 10 $$;',
    );
    write(
      'src/alpha/sql/10-alpha.sql',
      `CREATE OR REPLACE FUNCTION alpha() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
       CREATE OR REPLACE VIEW thing_count AS SELECT count(*) AS n FROM things;`,
    );
    write('src/gamma/not-sql/10-x.sql', 'SELECT no_such_function();');
  });
  afterAll(async () => {
    await db?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('applies the files after the migrations, in the order of their numbers, and records their hashes', async () => {
    expect(areaSqlFiles(areasDir())).toEqual(['alpha/sql/10-alpha.sql', 'beta/sql/20-beta.sql']);
    expect(await run()).toEqual(['0001_things.sql']);
    expect(await value('beta')).toBe(10);
    expect((await db.query('SELECT n FROM thing_count')).rows).toEqual([{ n: 0 }]);
    expect((await records()).map((r) => [r.path, r.hash.length])).toEqual([
      ['alpha/sql/10-alpha.sql', 64],
      ['beta/sql/20-beta.sql', 64],
    ]);
  });

  it('applies a changed file again on the next start, and leaves an unchanged one alone', async () => {
    // drift that only a re-application of a file would undo
    await db.exec(`CREATE OR REPLACE FUNCTION alpha() RETURNS int LANGUAGE sql AS $$ SELECT 5 $$`);
    const before = await records();
    expect(await run()).toEqual([]);
    expect(await value('alpha')).toBe(5);
    expect(await records()).toEqual(before);

    write(
      'src/beta/sql/20-beta.sql',
      'CREATE OR REPLACE FUNCTION beta() RETURNS int LANGUAGE sql AS $$ SELECT alpha() * 100 $$;',
    );
    expect(await run()).toEqual([]);
    expect(await value('beta')).toBe(500);
    expect(await value('alpha')).toBe(5); // 10-alpha.sql did not run
    const after = await records();
    expect(after[0]).toEqual(before[0]);
    expect(after[1].hash).not.toBe(before[1].hash);
  });

  it('applies every file again after a run that applied a migration (it may have dropped their objects)', async () => {
    write('migrations/0002_retype.sql', 'DROP VIEW thing_count; ALTER TABLE things ALTER COLUMN n TYPE bigint;');
    expect(await run()).toEqual(['0002_retype.sql']);
    expect(await value('alpha')).toBe(1);
    expect((await db.query('SELECT n FROM thing_count')).rows).toEqual([{ n: 0 }]);
  });

  it('a failing file names itself and leaves the database as it was', async () => {
    write('migrations/0003_more.sql', 'CREATE TABLE more_things (id int);');
    write('src/beta/sql/20-beta.sql', 'CREATE OR REPLACE VIEW broken AS SELECT no_such_column FROM things;');
    await expect(run()).rejects.toThrow(/^beta\/sql\/20-beta\.sql: .*no_such_column/);
    const t = await db.query(`SELECT 1 FROM pg_class WHERE relname = 'more_things'`);
    expect(t.rows).toEqual([]);
    expect(await value('beta')).toBe(100);
  });

  it('forgets a removed file', async () => {
    write('src/beta/sql/20-beta.sql', 'CREATE OR REPLACE FUNCTION beta() RETURNS int LANGUAGE sql AS $$ SELECT 7 $$;');
    rmSync(join(root, 'src/alpha'), { recursive: true });
    await run();
    expect((await records()).map((r) => r.path)).toEqual(['beta/sql/20-beta.sql']);
    expect(await value('beta')).toBe(7);
  });
});

describe('the areas of this server', () => {
  it('number their SQL files so each comes after the files whose objects it uses', () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
    expect(areaSqlFiles(src).map((p) => basename(p))).toEqual([
      '10-caller.sql',
      '10-events.sql',
      '20-health.sql',
      '30-catalog.sql',
      '30-notifications.sql',
      '30-playbooks.sql',
      '30-settings.sql',
      '31-catalog-graph.sql',
      '31-scraper-engine.sql',
      '35-agents.sql',
      '40-playbook-source-guard.sql',
      '40-topology.sql',
      '45-playbook-events.sql',
      '50-incidents.sql',
    ]);
  });
});
