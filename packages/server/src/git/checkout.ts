/**
 * A local checkout of a git remote kept under a directory of the caller's (the data directory):
 * cloned once, fetched again on every call, `ref` checked out detached. The catalog's file
 * scraper and the playbook sync read files from it.
 */
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';

interface GitAuth {
  username?: string | null;
  password?: string | null;
}

export interface CheckoutOptions {
  /** credentials for an http(s) remote: sent as a header on each command, never written to disk */
  auth?: GitAuth;
  /** git without the server's environment (its secrets): PATH and HOME only */
  cleanEnv?: boolean;
}

/** One checkout per clone directory at a time in this process. */
const gitLocks = new Map<string, Promise<unknown>>();

function locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = gitLocks.get(key) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(fn);
  gitLocks.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

function gitOptions(url: string, opts: CheckoutOptions): { config: string[] } {
  const config: string[] = [];
  const { username, password } = opts.auth ?? {};
  if ((username || password) && /^https?:\/\//i.test(url)) {
    const basic = Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64');
    config.push(`http.extraHeader=Authorization: Basic ${basic}`);
  }
  return { config };
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const n of ['PATH', 'HOME']) if (process.env[n]) env[n] = process.env[n]!;
  return env;
}

/** Git's messages without the credentials a URL or header may carry. */
export const scrubGit = (text: string) =>
  text.replace(/\/\/[^/@\s]+@/g, '//***@').replace(/(Authorization: Basic )\S+/gi, '$1***');

/**
 * Clones `url` (or fetches it again) into `<baseDir>/<hash of url>` and checks `ref` out (a
 * branch of the remote, else a tag or commit; default the remote's HEAD); answers the directory
 * and the commit.
 */
export async function checkoutGit(
  baseDir: string,
  url: string,
  ref: string | undefined,
  opts: CheckoutOptions = {},
): Promise<{ dir: string; commit: string }> {
  const dir = join(baseDir, createHash('sha256').update(url).digest('hex').slice(0, 16));
  const git = (base?: string) => {
    const g = simpleGit({ ...(base ? { baseDir: base } : {}), ...gitOptions(url, opts) });
    return opts.cleanEnv ? g.env(cleanEnv()) : g;
  };
  return locked(dir, async () => {
    const exists = await stat(join(dir, '.git')).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(dir, { recursive: true });
      await git().clone(url, dir, ['--no-checkout', '--quiet']);
    }
    const repo = git(dir);
    if (exists) await repo.fetch(['--prune', '--tags', '--force', 'origin']);
    const candidates = ref ? [`origin/${ref}`, ref] : ['origin/HEAD', 'HEAD'];
    let commit: string | undefined;
    for (const c of candidates) {
      commit = await repo
        .revparse(['--verify', '--quiet', `${c}^{commit}`])
        .then((s) => s.trim() || undefined)
        .catch(() => undefined);
      if (commit) break;
    }
    if (!commit) throw new Error(`ref ${ref ?? 'HEAD'} not found in ${url}`);
    await repo.raw(['checkout', '--force', '--quiet', '--detach', commit]);
    await repo.raw(['clean', '-fdxq']);
    return { dir, commit };
  });
}
