import { lstat, readdir, realpath, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDuration } from '@watchdeck/core';
import { checkRoots, localPathRefusal, realInside } from '#server/git/index.ts';
import { num, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * Folder check (seed 002: path required, minAge, maxAge, minCount, maxCount, minSize, maxSize,
 * availableSize, totalSize, filter) on a path of this server's file system. Files are the
 * folder's direct entries that are files, narrowed by `filter` {regex, minAge, maxAge, minSize,
 * maxSize}. Then, as for backups landing in a folder:
 *   maxAge: the newest file is younger than this (something arrived recently);
 *   minAge: the newest file is older than this;
 *   minCount / maxCount: number of files; minSize / maxSize: total size of the files;
 *   availableSize / totalSize: free and total space of the file system are at least this.
 * Remote folders (S3, GCS, SFTP, SMB connections) are not read by this server.
 * Only folders under the check roots are read (git/roots.ts, WATCHDECK_CHECK_ROOTS): an editor's
 * check on /etc or the data directory would show names, sizes and ages to every viewer. The real
 * path is checked at every run (a symbolic link planted after saving does not lead out), and
 * entries that are symbolic links are not counted (lstat), so none is read outside the folder.
 */
const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  t: 1e12,
  tb: 1e12,
  ki: 1024,
  kib: 1024,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
  ti: 1024 ** 4,
  tib: 1024 ** 4,
};

function parseSize(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') return v;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(String(v));
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`${field} "${String(v)}" is not a size such as 10Mi, 1Gi or 500MB`);
  return Number(m[1]) * unit;
}

function parseAge(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const ms = parseDuration(String(v));
  if (!ms) throw new Error(`${field} "${String(v)}" is not a duration such as 30m, 24h or 7d`);
  return ms;
}

const human = (bytes: number) => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let n = bytes;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(i ? 1 : 0)}${units[i]}`;
};
const ageText = (ms: number) =>
  ms >= 86_400_000
    ? `${(ms / 86_400_000).toFixed(1)}d`
    : ms >= 3_600_000
      ? `${(ms / 3_600_000).toFixed(1)}h`
      : `${Math.round(ms / 60_000)}m`;

export async function folderCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const path = str(spec, 'path');
  if (!path) throw new Error('path is required');
  if (
    /^(s3|gcs|gs|sftp|smb):\/\//i.test(path) ||
    spec.awsConnection ||
    spec.gcpConnection ||
    spec.sftpConnection ||
    spec.smbConnection
  ) {
    throw new Error(
      'folder checks on S3, GCS, SFTP or SMB are not supported by this server; only paths on its own file system',
    );
  }
  const filter = (spec.filter && typeof spec.filter === 'object' ? spec.filter : {}) as Record<string, unknown>;
  let regex: RegExp | undefined;
  if (typeof filter.regex === 'string' && filter.regex) {
    try {
      regex = new RegExp(filter.regex);
    } catch {
      throw new Error(`filter.regex "${filter.regex}" is not a valid regular expression`);
    }
  }
  const fMinAge = parseAge(filter.minAge, 'filter.minAge');
  const fMaxAge = parseAge(filter.maxAge, 'filter.maxAge');
  const fMinSize = parseSize(filter.minSize, 'filter.minSize');
  const fMaxSize = parseSize(filter.maxSize, 'filter.maxSize');

  const roots = checkRoots();
  const refusal = localPathRefusal(path, roots, 'WATCHDECK_CHECK_ROOTS');
  if (refusal) throw new Error(refusal);
  const real = await realpath(path).catch((err: unknown) => {
    if ((err as { code?: string }).code === 'ENOENT') throw new Error(`folder ${path} does not exist`, { cause: err });
    return undefined;
  });
  if (!real || !(await realInside(real, roots))) {
    throw new Error(
      `${path} leads outside the directories checks may read (${roots.join(', ') || 'none'}; WATCHDECK_CHECK_ROOTS)`,
    );
  }
  let entries: string[];
  try {
    entries = await readdir(real);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') throw new Error(`folder ${path} does not exist`, { cause: err });
    if (code === 'ENOTDIR') throw new Error(`${path} is not a folder`, { cause: err });
    if (code === 'EACCES') throw new Error(`the server may not read folder ${path}`, { cause: err });
    throw err;
  }
  const now = Date.now();
  const files: { name: string; size: number; age: number }[] = [];
  for (const name of entries) {
    if (ctx.signal.aborted) throw ctx.signal.reason as Error;
    if (regex && !regex.test(name)) continue;
    const s = await lstat(join(real, name)).catch(() => undefined);
    if (!s?.isFile()) continue;
    const age = now - s.mtimeMs;
    if (fMinAge !== undefined && age < fMinAge) continue;
    if (fMaxAge !== undefined && age > fMaxAge) continue;
    if (fMinSize !== undefined && s.size < fMinSize) continue;
    if (fMaxSize !== undefined && s.size > fMaxSize) continue;
    files.push({ name, size: s.size, age });
  }
  const count = files.length;
  const total = files.reduce((a, f) => a + f.size, 0);
  const newest = files.reduce<(typeof files)[number] | undefined>((a, f) => (!a || f.age < a.age ? f : a), undefined);
  const oldest = files.reduce<(typeof files)[number] | undefined>((a, f) => (!a || f.age > a.age ? f : a), undefined);
  const fsStat = await statfs(real);
  const available = fsStat.bavail * fsStat.bsize;
  const capacity = fsStat.blocks * fsStat.bsize;
  const vars = {
    count,
    size: total,
    files: files.map((f) => ({ name: f.name, size: f.size, age: Math.round(f.age / 1000) })),
    newest: newest ? { name: newest.name, size: newest.size, age: Math.round(newest.age / 1000) } : null,
    oldest: oldest ? { name: oldest.name, size: oldest.size, age: Math.round(oldest.age / 1000) } : null,
    available,
    total: capacity,
  };
  const message = `${count} file${count === 1 ? '' : 's'}, ${human(total)}${newest ? `, newest ${newest.name} (${ageText(newest.age)} old)` : ''}`;
  const fail = (error: string): CheckOutcome => ({ pass: false, message, error, vars });

  const minCount = num(spec, 'minCount');
  const maxCount = num(spec, 'maxCount');
  if (minCount !== undefined && count < minCount)
    return fail(`${path} has ${count} files, expected at least ${minCount}`);
  if (maxCount !== undefined && count > maxCount)
    return fail(`${path} has ${count} files, expected at most ${maxCount}`);
  const maxAge = parseAge(spec.maxAge, 'maxAge');
  const minAge = parseAge(spec.minAge, 'minAge');
  if (maxAge !== undefined) {
    if (!newest) return fail(`${path} has no files, expected one younger than ${String(spec.maxAge)}`);
    if (newest.age > maxAge)
      return fail(
        `the newest file ${newest.name} is ${ageText(newest.age)} old, older than maxAge ${String(spec.maxAge)}`,
      );
  }
  if (minAge !== undefined && newest && newest.age < minAge) {
    return fail(
      `the newest file ${newest.name} is ${ageText(newest.age)} old, younger than minAge ${String(spec.minAge)}`,
    );
  }
  const minSize = parseSize(spec.minSize, 'minSize');
  const maxSize = parseSize(spec.maxSize, 'maxSize');
  if (minSize !== undefined && total < minSize)
    return fail(`the files in ${path} total ${human(total)}, less than minSize ${String(spec.minSize)}`);
  if (maxSize !== undefined && total > maxSize)
    return fail(`the files in ${path} total ${human(total)}, more than maxSize ${String(spec.maxSize)}`);
  const needFree = parseSize(spec.availableSize, 'availableSize');
  if (needFree !== undefined && available < needFree)
    return fail(
      `only ${human(available)} free on the file system of ${path}, expected at least ${String(spec.availableSize)}`,
    );
  const needTotal = parseSize(spec.totalSize, 'totalSize');
  if (needTotal !== undefined && capacity < needTotal)
    return fail(`the file system of ${path} holds ${human(capacity)}, expected at least ${String(spec.totalSize)}`);
  return { pass: true, message, vars };
}
