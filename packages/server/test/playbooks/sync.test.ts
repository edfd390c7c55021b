/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { callers, waitFor, type App } from './support.ts';

/**
 * Playbooks kept as files (README.md "Sources"): a bare git repository and a directory made by the
 * test, synced through the admin routes: added, unchanged (no write), updated, deleted, a bad file
 * reported by path and field while the others sync, one job-history row per sync, the claim, the
 * schedule, the synced playbook refused to a person's edit, and who may manage sources.
 */
const spec = (script: string, extra: Record<string, unknown> = {}) =>
  `title: ${extra.title ?? 'A playbook'}\ncategory: Ops\nactions:\n  - name: run\n    exec:\n      script: ${script}\n`;

const resource = (name: string, script: string) => `apiVersion: watchdeck/v1
kind: Playbook
metadata:
  name: ${name}
spec:
  title: ${name} title
  actions:
    - name: run
      exec:
        script: ${script}
`;

for (const driver of testDrivers()) {
  describe(`playbook sync from files (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: App;
    let api: Awaited<ReturnType<typeof callers>>;
    let work: string;
    let bare: string;
    let clone: string;

    const push = async (files: Record<string, string | null>, message: string) => {
      for (const [path, content] of Object.entries(files)) {
        const full = join(clone, path);
        if (content === null) unlinkSync(full);
        else {
          mkdirSync(join(full, '..'), { recursive: true });
          writeFileSync(full, content);
        }
      }
      const git = simpleGit(clone);
      await git.add(['-A']);
      await git.commit(message);
      await git.push('origin', 'main');
    };
    const rows = async (sourceId: string) =>
      (
        await db.query<any>(
          `SELECT id, name, title, category, source, source_path, deleted_at, updated_at::text AS updated_at
           FROM playbooks WHERE source_id = $1 ORDER BY name`,
          [sourceId],
        )
      ).rows;
    const sync = async (id: string) => {
      const r = await api.call('admin', 'POST', `/api/playbook/sources/${id}/sync`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    const jobs = async (id: string) =>
      (await db.query<any>(`SELECT id FROM job_history WHERE name = 'PlaybookSync' AND resource_id = $1`, [id])).rows
        .length;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'playbook-sync-'));
      bare = join(work, 'roots', 'playbooks.git');
      clone = join(work, 'clone');
      mkdirSync(bare, { recursive: true });
      await simpleGit(bare).init(true, ['--initial-branch=main']);
      await simpleGit(work).clone(bare, clone);
      await simpleGit(clone).addConfig('user.name', 'Test').addConfig('user.email', 'test@example.com');
      await simpleGit(clone).raw(['checkout', '-b', 'main']);
      await push(
        {
          'playbooks/restart.yaml': spec('echo restart', { title: 'Restart' }),
          'playbooks/more.yaml': `${resource('scale-up', 'echo up')}---\n${resource('scale-down', 'echo down')}`,
          'README.md': '# not a playbook',
        },
        'first',
      );
      db = await driver.open();
      ({ app } = await startApp(db, { dataDir: join(work, 'data'), playbookRoots: [join(work, 'roots')] }).then(
        async (s) => {
          api = await callers(db, s.url, { admin: 'admin', editor: 'editor', viewer: 'viewer' });
          return s;
        },
      ));
      await app.engines.start();
    }, 300_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      rmSync(work, { recursive: true, force: true });
    });

    it('admins alone add sources; a directory outside the allowed roots is refused', async () => {
      const body = { name: 'refused', url: bare };
      expect((await api.call('editor', 'POST', '/api/playbook/sources', body)).status).toBe(403);
      expect((await api.call('viewer', 'POST', '/api/playbook/sources', body)).status).toBe(403);
      const outside = await api.call('admin', 'POST', '/api/playbook/sources', { name: 'etc', directory: '/etc' });
      expect(outside.status).toBe(400);
      expect(outside.body.message).toMatch(/^directory: \/etc is outside the allowed roots/);
      const both = await api.call('admin', 'POST', '/api/playbook/sources', { name: 'x', url: bare, directory: work });
      expect(both.status).toBe(400);
      expect(both.body.message).toBe('a git url or connection, or a directory, is required (one of them)');
      const creds = await api.call('admin', 'POST', '/api/playbook/sources', {
        name: 'x',
        url: 'https://me:pw@git.example/r.git',
      });
      expect(creds.body.message).toBe('url must not carry credentials: keep them in a connection');
      const local = await api.call('admin', 'POST', '/api/playbook/sources', { name: 'x', url: clone });
      expect(local.status).toBe(400);
      expect(local.body.message).toMatch(/^url: a repository on this machine must be under the allowed roots/);
      expect(
        (await api.call('admin', 'POST', '/api/playbook/sources', { name: 'x', url: bare, schedule: 'often' })).status,
      ).toBe(400);
    });

    it('syncs a bare git repository: added, unchanged without writes, updated, deleted, a bad file', async () => {
      const created = await api.call('admin', 'POST', '/api/playbook/sources', {
        name: 'ops-repo',
        url: bare,
        ref: 'main',
        paths: ['playbooks/**/*.yaml'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;

      const first = await sync(id);
      expect(first.status, JSON.stringify(first)).toBe('SUCCESS');
      expect(first.details.summary).toEqual({ added: 3, updated: 0, unchanged: 0, deleted: 0, errors: 0 });
      expect(first.details.commit).toMatch(/^[0-9a-f]{40}$/);
      const synced = await rows(id);
      expect(synced.map((r: any) => [r.name, r.title, r.source, r.source_path])).toEqual([
        ['restart', 'Restart', 'GitOps', 'playbooks/restart.yaml'],
        ['scale-down', 'scale-down title', 'GitOps', 'playbooks/more.yaml'],
        ['scale-up', 'scale-up title', 'GitOps', 'playbooks/more.yaml'],
      ]);
      expect(synced[0].category).toBe('Ops');

      // nothing changed: no write at all
      const again = await sync(id);
      expect(again.details.summary).toEqual({ added: 0, updated: 0, unchanged: 3, deleted: 0, errors: 0 });
      expect((await rows(id)).map((r: any) => r.updated_at)).toEqual(synced.map((r: any) => r.updated_at));

      // a person's edit of a synced playbook is refused with the seeds' message, through /api/db
      const edit = await api.call('admin', 'PATCH', `/api/db/playbooks?id=eq.${synced[0].id}`, { title: 'Mine now' });
      expect(edit.status).toBe(409);
      expect(edit.body.message).toBe('Playbook "restart" comes from GitOps and can only be changed there');
      const del = await api.call('admin', 'PATCH', `/api/db/playbooks?id=eq.${synced[0].id}`, {
        deleted_at: new Date().toISOString(),
      });
      expect(del.status).toBe(409);

      // one edited, one file removed, one bad file added: the bad one is reported, the others sync
      await push(
        {
          'playbooks/restart.yaml': spec('echo restart twice', { title: 'Restart twice' }),
          'playbooks/more.yaml': null,
          'playbooks/bad.yaml': 'title: Broken\nactions:\n  - name: run\n    exec: {}\n',
          'playbooks/nested/not-yaml.yaml': 'title: [unclosed\n',
        },
        'second',
      );
      const third = await sync(id);
      expect(third.status).toBe('WARNING');
      expect(third.details.summary).toEqual({ added: 0, updated: 1, unchanged: 0, deleted: 2, errors: 2 });
      expect(third.details.errors['playbooks/bad.yaml']).toBe(
        'playbooks/bad.yaml: spec.actions[0].exec.script is required',
      );
      expect(third.details.errors['playbooks/nested/not-yaml.yaml']).toMatch(
        /^playbooks\/nested\/not-yaml.yaml: not YAML/,
      );
      const after = await rows(id);
      expect(after.map((r: any) => [r.name, r.title, !!r.deleted_at])).toEqual([
        ['restart', 'Restart twice', false],
        ['scale-down', 'scale-down title', true],
        ['scale-up', 'scale-up title', true],
      ]);
      expect(await jobs(id)).toBe(3);

      // a playbook whose file turned bad keeps its last good version
      await push({ 'playbooks/restart.yaml': 'title: Restart\nactions: []\n' }, 'third');
      const fourth = await sync(id);
      expect(fourth.details.summary).toMatchObject({ updated: 0, deleted: 0, errors: 3 });
      expect(fourth.details.errors['playbooks/restart.yaml']).toBe(
        'playbooks/restart.yaml: spec.actions: at least one action is required',
      );
      expect((await rows(id))[0]).toMatchObject({ name: 'restart', title: 'Restart twice', deleted_at: null });

      // the listing shows the last sync
      const list = await api.call('viewer', 'GET', '/api/playbook/sources');
      expect(list.status).toBe(200);
      const mine = list.body.find((s: any) => s.id === id);
      expect(mine).toMatchObject({ name: 'ops-repo', playbooks: 1, last_sync: { status: 'FAILED' } });
    });

    it('syncs a directory; a name taken by a UI playbook is reported, not taken over', async () => {
      const dir = join(work, 'roots', 'runbooks');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'drain.yml'), spec('echo drain', { title: 'Drain' }));
      writeFileSync(join(dir, 'mine.yaml'), spec('echo mine'));
      await db.query(`INSERT INTO playbooks (name, title, spec) VALUES ('mine', 'Mine', '{"actions":[]}')`);
      const created = await api.call('admin', 'POST', '/api/playbook/sources', { name: 'runbooks', directory: dir });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;
      const first = await sync(id);
      expect(first.details.summary).toEqual({ added: 1, updated: 0, unchanged: 0, deleted: 0, errors: 1 });
      expect(first.details.errors['mine.yaml']).toBe(
        'mine.yaml: playbook "mine" already exists (source UI); rename one of them',
      );
      expect((await sync(id)).details.summary).toMatchObject({ unchanged: 1, added: 0, updated: 0 });
      rmSync(join(dir, 'drain.yml'));
      const gone = await sync(id);
      expect(gone.details.summary).toMatchObject({ deleted: 1 });
      expect((await rows(id)).every((r: any) => r.deleted_at)).toBe(true);
      // back again: the same row comes back, its runs still attached
      writeFileSync(join(dir, 'drain.yml'), spec('echo drain', { title: 'Drain' }));
      expect((await sync(id)).details.summary).toMatchObject({ added: 1 });
      expect((await rows(id)).filter((r: any) => !r.deleted_at)).toHaveLength(1);
      expect(await jobs(id)).toBe(4);
    });

    it('one sync of a source at a time; scheduled syncs; deleting a source deletes its playbooks', async () => {
      const dir = join(work, 'roots', 'scheduled');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'tick.yaml'), spec('echo tick'));
      const created = await api.call('admin', 'POST', '/api/playbook/sources', { name: 'sched', directory: dir });
      const id = created.body.id;
      // another replica holds the source: no second sync, no job row
      await db.query(`UPDATE playbook_sources SET lease_until = now() + interval '1 minute' WHERE id = $1`, [id]);
      const busy = await api.call('admin', 'POST', `/api/playbook/sources/${id}/sync`);
      expect(busy.status).toBe(409);
      expect(await jobs(id)).toBe(0);
      await db.query(`UPDATE playbook_sources SET lease_until = NULL WHERE id = $1`, [id]);

      const put = await api.call('admin', 'PUT', `/api/playbook/sources/${id}`, {
        name: 'sched',
        directory: dir,
        schedule: '@every 1s',
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      await waitFor('a scheduled sync', async () => (await rows(id)).length === 1);
      expect(await jobs(id)).toBeGreaterThanOrEqual(1);

      expect((await api.call('editor', 'DELETE', `/api/playbook/sources/${id}`)).status).toBe(403);
      expect((await api.call('admin', 'DELETE', `/api/playbook/sources/${id}`)).status).toBe(204);
      expect((await rows(id)).every((r: any) => r.deleted_at)).toBe(true);
      expect((await api.call('admin', 'POST', `/api/playbook/sources/${id}/sync`)).status).toBe(404);
    });
  });
}
