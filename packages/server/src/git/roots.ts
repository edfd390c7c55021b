/**
 * What an editor's spec may read from this server's disk. File scrapers and playbook actions are
 * written by editors; without these limits an editor could scrape /proc/self/environ or the data
 * directory's secret key into a catalog item, or clone and push to any repository on the server.
 * So:
 * - local files only under allowed roots (the catalog's: `<data dir>/catalog/files` and
 *   WATCHDECK_SCRAPE_ROOTS), checked on the real path, so a symbolic link cannot lead out;
 * - git remotes over http(s), ssh or git, or a local repository under the roots (a `file://` or
 *   absolute path anywhere else, and git's command transports such as `ext::`, are refused);
 * - inside a checkout, nothing outside the checkout (a committed symbolic link to /etc is not read).
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootsText = (roots: readonly string[]) => roots.join(', ');

const inside = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
};

/** Roots' real paths: a scrape checks every file against them, and they do not move. */
const realRoots = new Map<string, string>();

/** The real path of `path` when it lies under one of `roots` (real paths too), else undefined. */
export async function realInside(path: string, roots: readonly string[]): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (!real) return undefined;
  for (const root of roots) {
    let r = realRoots.get(root);
    if (!r) {
      r = await realpath(root).catch(() => undefined);
      // a root that does not exist yet is compared as written and looked up again next time
      if (r) realRoots.set(root, r);
      else r = resolve(root);
    }
    if (inside(real, r)) return real;
  }
  return undefined;
}

/**
 * Directories health checks may read (folder checks): `<data dir>/checks`, WATCHDECK_CHECK_ROOTS
 * and, with demo data, the migrations folder the demo's folder check watches. Held here rather
 * than passed down because the settings schema (save time) and the check runner (run time) both
 * need it; set once at start-up (app.ts). Empty until then: nothing may be read.
 */
let checkRootList: string[] = [];
export function setCheckRoots(roots: string[]): void {
  checkRootList = roots.map((r) => resolve(r));
}
export const checkRoots = (): readonly string[] => checkRootList;

/**
 * Why a local path may not be read, by its text alone (save time): `..` segments, a relative
 * path, or an absolute path outside the roots. Readers still check the real path when they read
 * (realInside), since a symbolic link planted later would pass this.
 */
export function localPathRefusal(path: string, roots: readonly string[], setting: string): string | undefined {
  if (path.split(/[\\/]/).includes('..')) return `${path}: parent directory segments (..) are not allowed`;
  if (!isAbsolute(path)) return `${path}: use an absolute path`;
  if (roots.some((r) => inside(resolve(path), resolve(r)))) return undefined;
  return `${path} is outside the directories checks may read (${rootsText(roots) || 'none'}; ${setting})`;
}

/** Why a glob may not be used (`..` segments; an absolute glob outside the roots), else undefined. */
export function globRefusal(glob: string, roots: string[] | undefined): string | undefined {
  if (glob.split(/[\\/]/).includes('..')) return `${glob}: parent directory segments (..) are not allowed`;
  if (!isAbsolute(glob)) return undefined;
  if (!roots) return `${glob}: paths in a repository are relative to it`;
  const parts = glob.split('/');
  const wild = parts.findIndex((p) => /[*?{]/.test(p));
  // the part before the first wildcard is where the walk starts: it must lie under a root
  const base = resolve('/', ...(wild < 0 ? parts : parts.slice(0, wild)));
  if (roots.some((r) => inside(base, resolve(r)))) return undefined;
  return `${glob} is outside the directories file scrapers may read (${rootsText(roots)}; WATCHDECK_SCRAPE_ROOTS)`;
}

/**
 * Why a git `url` may not be cloned, else undefined. Remote transports are open (the server reaches
 * what it reaches); a local repository must lie under the roots.
 */
export async function gitUrlRefusal(
  url: string,
  roots: readonly string[],
  setting = 'WATCHDECK_SCRAPE_ROOTS',
): Promise<string | undefined> {
  if (/^(https?|ssh|git):\/\/[^-]/i.test(url)) return undefined;
  // scp-like user@host:path (no transport prefix such as ext::)
  if (/^[\w.-]+@[\w.-]+:(?!:)/.test(url) && !url.includes('::')) return undefined;
  let local: string | undefined;
  if (/^file:\/\//i.test(url)) {
    try {
      local = fileURLToPath(url);
    } catch {
      return `${url} is not a file URL`;
    }
  } else if (isAbsolute(url)) local = url;
  if (!local) return `url ${url}: use an http(s), ssh or git URL, or the absolute path of a local repository`;
  if (await realInside(local, roots)) return undefined;
  return `url ${url} is outside the directories local repositories may be read from (${rootsText(roots)}; ${setting})`;
}
