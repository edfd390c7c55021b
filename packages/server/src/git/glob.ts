/**
 * File globs (`paths: [manifests/**\/*.yaml]`, `ignore: [**\/kustomization.yaml]`) of the catalog file
 * scraper and the playbook sync: `**` any directories, `*` and `?` within a name, `{a,b}` alternatives.
 * Node 20 has no fs.glob.
 */
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // '**/' matches zero or more directories; a trailing '**' everything below
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((a) => a.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The directory part of a glob before its first wildcard. */
function staticBase(glob: string): string {
  const parts = glob.split('/');
  const out: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?{]/.test(p)) break;
    out.push(p);
  }
  if (out.length === parts.length - 1 && !/[*?{]/.test(parts[parts.length - 1])) return out.join('/') || '.';
  return out.join('/') || (glob.startsWith('/') ? '/' : '.');
}

const MAX_FILES = 200_000;

/**
 * The files under `root` (relative globs) or anywhere (absolute ones) matching any of `globs` and
 * none of `ignore`; paths are returned as the globs are written (relative to root, or absolute),
 * sorted. Hidden directories named .git are skipped.
 */
export async function globFiles(root: string, globs: string[], ignore: string[] = []): Promise<string[]> {
  const ignored = ignore.map(globToRegExp);
  const found = new Set<string>();
  for (const glob of globs) {
    const pattern = glob.replace(/^\.\//, '');
    const matcher = globToRegExp(pattern);
    const base = staticBase(pattern);
    const absBase = isAbsolute(base) ? base : join(root, base);
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw err;
      }
      for (const e of entries) {
        const full = join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== '.git') await walk(full);
        } else if (e.isFile()) {
          const shown = isAbsolute(pattern) ? full : relative(root, full).split(sep).join('/');
          if (matcher.test(shown) && !ignored.some((r) => r.test(shown))) {
            found.add(shown);
            if (found.size > MAX_FILES) throw new Error(`more than ${MAX_FILES} files match ${glob}`);
          }
        }
      }
    };
    // a glob without wildcards names one file, or a directory and everything below it
    if (!/[*?{]/.test(pattern)) {
      const s = await stat(isAbsolute(pattern) ? pattern : join(root, pattern)).catch(() => undefined);
      if (s?.isFile() && !ignored.some((r) => r.test(pattern))) found.add(pattern);
      else if (s?.isDirectory())
        for (const f of await globFiles(root, [`${pattern.replace(/\/$/, '')}/**`], ignore)) found.add(f);
      continue;
    }
    await walk(absBase);
  }
  return [...found].sort();
}
