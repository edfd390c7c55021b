/* eslint-disable @typescript-eslint/no-explicit-any -- rows of the database under test are inspected loosely */
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDrivers } from '../support/db.ts';
import { insertPlaybook, startRecorder, waitFor } from './support.ts';

/**
 * A real server killed (SIGKILL) while a run's second action is in flight, then a second server
 * started on the same PostgreSQL: once the dead process's lease lapses the run is taken over,
 * the finished action is not repeated, the interrupted one is failed with its reason (its effect
 * may have happened, so it is not run again), and the `if: always` action runs once.
 */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const adminUrl = process.env.TEST_DATABASE_URL;

describe('playbook runs across a kill -9 (pg)', () => {
  it.runIf(!!adminUrl)(
    'resumes from the last finished action; no action runs twice',
    async () => {
      const db = await testDrivers()
        .find((d) => d.name === 'pg')!
        .open();
      const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-pb-crash-'));
      const peer = await startRecorder(({ path }) => (path === '/slow' ? { delayMs: 120_000 } : {}));
      const children: ChildProcess[] = [];
      try {
        const { rows } = await db.query<{ db: string }>('SELECT current_database() AS db');
        const dbUrl = new URL(adminUrl!);
        dbUrl.pathname = `/${rows[0]!.db}`;
        let log = '';
        const serve = async (): Promise<ChildProcess> => {
          const port = await freePort();
          const child = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
            env: {
              ...process.env,
              DATABASE_URL: dbUrl.toString(),
              PORT: String(port),
              HOST: '127.0.0.1',
              AUTH: 'none',
              WATCHDECK_DEMO_DATA: 'false',
              WATCHDECK_DATA_DIR: dataDir,
              WATCHDECK_SECRET_KEY: 'crash-test-key-0123456789',
              LOG_LEVEL: 'warn',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          children.push(child);
          child.stdout!.on('data', (d) => (log += d));
          child.stderr!.on('data', (d) => (log += d));
          try {
            await waitFor(
              'the server to start',
              () =>
                fetch(`http://127.0.0.1:${port}/api/health`).then(
                  (r) => r.ok,
                  () => false,
                ),
              150_000,
            );
          } catch (err) {
            throw new Error(`${(err as Error).message} (exit code ${child.exitCode}):\n${log}`, { cause: err });
          }
          return child;
        };

        const first = await serve();
        const pb = await insertPlaybook(db, 'crashy', {
          actions: [
            { name: 'a', http: { url: `${peer.url}/a` } },
            { name: 'b', timeout: '5m', http: { url: `${peer.url}/slow` } },
            { name: 'c', if: 'always', http: { url: `${peer.url}/c` } },
          ],
        });
        const { rows: spec } = await db.query<any>(`SELECT spec FROM playbooks WHERE id = $1`, [pb]);
        const { rows: run } = await db.query<{ id: string }>(
          `INSERT INTO playbook_runs (playbook_id, spec, status) VALUES ($1, $2::jsonb, 'pending') RETURNING id`,
          [pb, JSON.stringify(spec[0].spec)],
        );
        const runId = run[0]!.id;
        await waitFor('action b in flight', async () => peer.hits.some((h) => h.path === '/slow'), 60_000);
        first.kill('SIGKILL');
        await new Promise((r) => first.once('exit', r));
        const mid = (await db.query<any>(`SELECT status, attempts FROM playbook_runs WHERE id = $1`, [runId])).rows[0];
        expect(mid).toEqual({ status: 'running', attempts: 1 });

        await serve();
        const done = await waitFor(
          'the run to be taken over and end',
          async () => {
            const { rows: r } = await db.query<any>(`SELECT status, error, attempts FROM playbook_runs WHERE id = $1`, [
              runId,
            ]);
            return ['completed', 'failed'].includes(r[0].status) ? r[0] : undefined;
          },
          120_000,
        );
        expect(done.status).toBe('failed');
        expect(done.attempts).toBe(2);
        expect(done.error).toMatch(/^action "b" failed: interrupted: the server running this action stopped/);
        const { rows: actions } = await db.query<any>(
          `SELECT name, status FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY name`,
          [runId],
        );
        expect(actions).toEqual([
          { name: 'a', status: 'completed' },
          { name: 'b', status: 'failed' },
          { name: 'c', status: 'completed' },
        ]);
        const count = (p: string) => peer.hits.filter((h) => h.path === p).length;
        expect([count('/a'), count('/slow'), count('/c')]).toEqual([1, 1, 1]);
      } finally {
        for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
        await peer.close();
        await db.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    420_000,
  );
});
