/**
 * The demo's catalog sources, read by real file scrapers (demo/catalog.ts seeds their specs):
 *   catalog-sources/manifests/  Kubernetes-style manifests shipped in the repository;
 *   a git repository under the data directory, made at first start from catalog-sources/gitops/1
 *   and given the next stage (catalog-sources/gitops/2, 3) as a new commit every few minutes, so
 *   the gitops scraper finds real changes (replicas, an image, a config map, an ingress host).
 */
import { cp, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleGit } from 'simple-git';
import type { JobSource } from '#server/jobs/index.ts';

export const CATALOG_SOURCES = fileURLToPath(new URL('./catalog-sources/', import.meta.url));
const STAGES = join(CATALOG_SOURCES, 'gitops');
/** the time between two demo commits */
const STEP_MS = 3 * 60_000;

/** Where the demo's git repository lives: under the data directory (a temporary one for an in-memory database). */
export function demoGitopsRepo(dataDir: string | undefined): string {
  const base = !dataDir || dataDir === 'memory://' ? join(tmpdir(), 'watchdeck-demo') : dataDir;
  return join(base, 'demo', 'gitops.git');
}

/** What the demo's file scrapers read: the shipped sources and the demo's git repository. */
export const demoFileRoots = (gitopsRepo: string): string[] => [CATALOG_SOURCES, dirname(gitopsRepo)];

const git = (dir: string) =>
  simpleGit(dir, { config: ['user.name=Watchdeck demo', 'user.email=demo@watchdeck.invalid', 'commit.gpgsign=false'] });

async function commitStage(repo: string, stage: number): Promise<void> {
  for (const entry of await readdir(repo))
    if (entry !== '.git') await rm(join(repo, entry), { recursive: true, force: true });
  const from = join(STAGES, String(stage));
  await cp(from, repo, { recursive: true, filter: (src) => !src.endsWith('MESSAGE') });
  const message = (await readFile(join(from, 'MESSAGE'), 'utf8')).trim();
  await git(repo).add(['-A']);
  await git(repo).commit(message);
}

/**
 * Makes the repository (stage 1) when it is missing, else commits the next stage once the last
 * commit is STEP_MS old. Answers how many stages are committed.
 */
export async function advanceDemoGitops(repo: string, stepMs = STEP_MS): Promise<number> {
  const stages = (await readdir(STAGES)).filter((s) => /^\d+$/.test(s)).length;
  const exists = await stat(join(repo, '.git')).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(repo, { recursive: true });
    await git(repo).init(['-q', '-b', 'main']);
    await commitStage(repo, 1);
    return 1;
  }
  const done = Number((await git(repo).raw(['rev-list', '--count', 'HEAD'])).trim());
  if (done >= stages) return done;
  const last = Number((await git(repo).raw(['log', '-1', '--format=%ct'])).trim()) * 1000;
  if (Date.now() - last < stepMs) return done;
  await commitStage(repo, done + 1);
  return done + 1;
}

/** The demo's commits as a scheduled job (WATCHDECK_DEMO_DATA=true): checked every minute. */
export function demoGitopsJobSource(repo: string, onError: (err: unknown) => void): JobSource {
  return {
    name: 'demo-gitops',
    async list() {
      // the repository exists before the first scrape looks for it
      await advanceDemoGitops(repo).catch(onError);
      return [
        {
          key: 'demo:gitops',
          schedule: '@every 1m',
          run: async () => void (await advanceDemoGitops(repo).catch(onError)),
        },
      ];
    },
  };
}
