import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '#server/db/index.ts';

/** Issue 12 point 13: the PGlite data directory is its owner's alone. */
const root = mkdtempSync(join(tmpdir(), 'watchdeck-datadir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function modes(dir: string, out: { path: string; mode: number; dir: boolean }[] = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    out.push({ path, mode: statSync(path).mode & 0o777, dir: e.isDirectory() });
    if (e.isDirectory()) modes(path, out);
  }
  return out;
}

describe('PGlite data directory', () => {
  it('is created 0700 with every file 0600 and every directory 0700, also files written after the start', async () => {
    const dataDir = join(root, 'nested', 'data');
    const db = await openDb({ dataDir });
    await db.exec(`CREATE TABLE t AS SELECT g FROM generate_series(1, 50000) g; CREATE INDEX ON t (g); CHECKPOINT`);
    await db.close();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const all = modes(dataDir);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((f) => f.mode !== (f.dir ? 0o700 : 0o600)).map((f) => `${f.path} ${f.mode.toString(8)}`)).toEqual(
      [],
    );
  });

  it('tightens a directory left open by an earlier version when it opens it', async () => {
    const dataDir = join(root, 'old');
    await (await openDb({ dataDir })).close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'PG_VERSION'), 0o666);
    await (await openDb({ dataDir })).close();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'PG_VERSION')).mode & 0o777).toBe(0o600);
  });
});
