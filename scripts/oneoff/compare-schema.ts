// Proves that a change to how the schema is built left the schema alone (db/README.md "Checking
// a move"): on PostgreSQL, the schema of
//   A. a fresh database migrated by <ref>'s code (default main),
//   B. a fresh database migrated by the working tree's code,
//   C. a database migrated by <from>'s code (default <ref>), then by the working tree's,
// as pg_dump --schema-only prints it (without the applied-files bookkeeping), must be the same.
// Usage: npx tsx scripts/oneoff/compare-schema.ts [ref] [from]   (DATABASE_URL: an admin connection,
// default postgres://postgres@127.0.0.1:5432/postgres). Exits 1 and prints the diff otherwise.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ref = process.argv[2] ?? 'main';
// an older version upgraded by the working tree must end with the same schema as well
const from = process.argv[3] ?? ref;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// inside the repository, so the copy's imports (pg, pglite) resolve to its node_modules
const copy = join(root, '.schema-compare');
rmSync(copy, { recursive: true, force: true });
const extract = (rev: string, dir: string) => {
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive "${rev}" packages/server/src | tar -x -C "${dir}"`]);
  return dir;
};
extract(ref, join(copy, 'ref'));
extract(from, join(copy, 'from'));

type Migrate = (db: unknown) => Promise<string[]>;
const load = async (dir: string) => {
  const m = await import(join(dir, 'packages/server/src/db/index.ts'));
  return {
    openDb: m.openDb as (o: { databaseUrl: string }) => Promise<{ close(): Promise<void> }>,
    migrate: m.migrate as Migrate,
  };
};
const theirs = await load(join(copy, 'ref'));
const older = await load(join(copy, 'from'));
const ours = await load(root);

const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const stamp = Date.now().toString(36);
const names = { A: `schema_cmp_a_${stamp}`, B: `schema_cmp_b_${stamp}`, C: `schema_cmp_c_${stamp}` };
for (const n of Object.values(names)) await admin.query(`CREATE DATABASE ${n}`);
const run = async (code: typeof ours, name: string) => {
  const db = await code.openDb({ databaseUrl: urlOf(name) });
  try {
    return await code.migrate(db);
  } finally {
    await db.close();
  }
};
const dump = (name: string) =>
  execFileSync('pg_dump', ['--schema-only', '--no-owner', '--exclude-table=schema_sql_files', urlOf(name)], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  }).replace(/^\\(un)?restrict .*$/gm, ''); // a random key per dump
let failed = false;
try {
  await run(theirs, names.A);
  await run(ours, names.B);
  await run(older, names.C);
  await run(ours, names.C);
  const a = dump(names.A);
  for (const k of ['B', 'C'] as const) {
    const other = dump(names[k]);
    if (other === a) {
      console.log(`${k} = A (${a.length} characters of schema)`);
      continue;
    }
    failed = true;
    writeFileSync(join(copy, 'A.sql'), a);
    writeFileSync(join(copy, `${k}.sql`), other);
    try {
      execFileSync('diff', ['-u', join(copy, 'A.sql'), join(copy, `${k}.sql`)], { stdio: 'inherit' });
    } catch {
      // diff exits 1 when the files differ: its output is the report
    }
  }
} finally {
  for (const n of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
  await admin.end();
  if (!failed) rmSync(copy, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
