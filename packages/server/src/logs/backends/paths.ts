/**
 * Which files a file backend may read. Log backends are written by editors; an editor must not
 * read what only the server may (its data directory's database files and secret key, /etc/shadow,
 * other users' homes) by pointing a backend at it. So a backend reads only files under a log root:
 * `<data dir>/logs` (where the demo writes) and each directory of WATCHDECK_LOG_ROOTS. A path with a
 * `..` segment is refused, the directory a glob starts from must resolve (symlinks followed) inside
 * a root, and so must every file it matches; only regular files are read.
 *
 * Globs: `**` any directories, `*` and `?` within a name, `{a,b}` alternatives, and `{name}` a label
 * captured from that part of the path (`logs/{app}/*.log` labels lines of logs/orders/x.log
 * app=orders).
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { LogRequestError } from '../errors.ts';

const MAX_FILES = 1000;
/** directory entries one search may look at: a glob over a huge tree is refused, not walked for minutes */
const MAX_ENTRIES = 200_000;

interface Compiled {
  re: RegExp;
  captures: string[];
}

/** `{a,b}` is a choice; `{name}` (one identifier, no comma) a capture. */
function compile(glob: string): Compiled {
  const captures: string[] = [];
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      const body = end < 0 ? '' : glob.slice(i + 1, end);
      if (end < 0) re += '\\{';
      else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(body)) {
        captures.push(body);
        re += '([^/]+?)';
        i = end;
      } else {
        re += `(?:${body
          .split(',')
          .map((a) => a.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return { re: new RegExp(`^${re}$`), captures };
}

/** The directory part of a glob before its first wildcard or capture. */
function staticBase(glob: string): string {
  const parts = glob.split('/');
  const out: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?{]/.test(p)) break;
    out.push(p);
  }
  return out.join('/') || '/';
}

const inside = (path: string, root: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

export interface LogFile {
  path: string;
  labels: Record<string, string>;
}

/** The log roots as real paths (missing ones left out). */
async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    const real = await realpath(resolve(r)).catch(() => undefined);
    if (real) out.push(real);
  }
  return out;
}

/**
 * The files of a backend's globs, with the labels captured from their paths. Relative globs are
 * under the first root (`<data dir>/logs`).
 */
export async function logFiles(globs: readonly string[], roots: readonly string[]): Promise<LogFile[]> {
  const real = await realRoots(roots);
  const first = resolve(roots[0]);
  const found = new Map<string, LogFile>();
  let visited = 0;
  for (const raw of globs) {
    if (raw.split(/[\\/]/).includes('..'))
      throw new LogRequestError(400, `log path ${raw} has a '..' segment; paths stay under the log roots`);
    const glob = (isAbsolute(raw) ? resolve(raw) : join(first, raw)).split(sep).join('/');
    const { re, captures } = compile(glob);
    const baseLexical = staticBase(glob);
    const base = await realpath(baseLexical).catch(() => undefined);
    const allowed = base
      ? real.some((r) => inside(base, r))
      : roots.some((r) => inside(resolve(baseLexical), resolve(r)));
    if (!allowed)
      throw new LogRequestError(
        403,
        `log path ${raw} is outside the log roots (${roots.join(', ')}); an administrator adds directories with WATCHDECK_LOG_ROOTS`,
      );
    if (!base) continue; // nothing there yet
    const walk = async (dir: string, shown: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      visited += entries.length;
      if (visited > MAX_ENTRIES)
        throw new LogRequestError(
          400,
          `the log paths cover more than ${MAX_ENTRIES} files and directories; narrow the globs`,
        );
      for (const e of entries) {
        const full = join(dir, e.name);
        const as = `${shown}/${e.name}`;
        if (e.isDirectory()) {
          if (e.name !== '.git') await walk(full, as);
          continue;
        }
        const m = re.exec(as);
        if (!m) continue;
        // symlinks and the like: only what resolves to a regular file inside a root
        const target = await realpath(full).catch(() => undefined);
        if (!target || !real.some((r) => inside(target, r))) continue;
        const s = await stat(target).catch(() => undefined);
        if (!s?.isFile()) continue;
        const labels: Record<string, string> = {};
        captures.forEach((name, i) => (labels[name] = m[i + 1]));
        found.set(target, { path: target, labels });
        if (found.size > MAX_FILES)
          throw new LogRequestError(400, `more than ${MAX_FILES} files match the log paths; narrow the globs`);
      }
    };
    // the walk shows paths as the glob writes them (from its lexical base), reads the real ones
    await walk(base, baseLexical === '/' ? '' : baseLexical);
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}
