/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import mysql from 'mysql2/promise';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { callers, finished, insertPlaybook, startRecorder, waitFor, type App } from './support.ts';

/**
 * The run engine through the real app: each action kind against a real peer made here (the
 * sandbox for scripts, an HTTP listener, PostgreSQL and MariaDB, an SMTP server, a bare git
 * repository), `if`/retry/timeout/delay, approvals, cancel, re-run and the log download.
 */
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_URL = 'mysql://root@127.0.0.1:3306/mysql';

for (const driver of testDrivers()) {
  describe(`playbook engine (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: App;
    let url: string;
    let api: Awaited<ReturnType<typeof callers>>;
    let peer: Awaited<ReturnType<typeof startRecorder>>;
    let smtp: SMTPServer;
    const mails: string[] = [];
    const tmp = mkdtempSync(join(tmpdir(), 'watchdeck-pb-test-'));

    const run = async (playbookId: string, extra: Record<string, unknown> = {}, who = 'admin') => {
      const r = await api.call(who, 'POST', '/api/playbook/run', { id: playbookId, ...extra });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.run_id as string;
    };

    beforeAll(async () => {
      db = await driver.open();
      peer = await startRecorder(({ path }) => {
        if (path.startsWith('/status/')) return { status: Number(path.slice(8)) };
        if (path.startsWith('/slow')) return { delayMs: 3000 };
        return {};
      });
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _s, cb) {
          let raw = '';
          stream.on('data', (d) => (raw += d));
          stream.on('end', () => {
            mails.push(raw);
            cb();
          });
        },
      });
      await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
      const smtpPort = (smtp.server.address() as AddressInfo).port;
      ({ app, url } = await startApp(db, {
        smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
        playbookWorkers: 3,
        playbookRoots: [tmp],
      }));
      api = await callers(db, url, {
        admin: 'admin',
        editor: 'editor',
        viewer: 'viewer',
        ops: 'editor',
        dev: 'editor',
      });
      await app.engines.start();
    }, 300_000);
    afterAll(async () => {
      await app?.close();
      await peer?.close();
      await new Promise<void>((r) => smtp.close(() => r()));
      await db?.dispose();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('serves the spec schema and refuses bad specs naming the field (routes and /api/db)', async () => {
      const schema = await fetch(url + '/api/playbook/schema.json').then((r) => r.json());
      expect(schema.$id).toBe('/api/playbook/schema.json');
      expect(schema.properties.actions).toBeTruthy();
      expect(schema.properties.parameters.items.properties.type.enum).toContain('checkbox');

      const bad = await api.call('admin', 'POST', '/api/db/playbooks', {
        name: 'bad',
        title: 'Bad',
        spec: { actions: [{ name: 'x', exec: {} }] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('spec.actions[0].exec.script is required');
      const none = await api.call('admin', 'POST', '/api/db/playbooks', { name: 'none', title: 'None', spec: {} });
      expect(none.status).toBe(400);
      expect(none.body.message).toBe('spec.actions is required');
      const two = await api.call('admin', 'POST', '/api/db/playbooks', {
        name: 'two',
        title: 'Two',
        spec: { actions: [{ name: 'x', exec: { script: 'true' }, http: { url: 'http://x' } }] },
      });
      expect(two.status).toBe(400);
      expect(two.body.message).toMatch(/^spec\.actions\[0\]: an action needs exactly one of exec/);
      const param = await api.call('admin', 'POST', '/api/db/playbooks', {
        name: 'param',
        title: 'Param',
        spec: { parameters: [{ name: 'p', type: 'colour' }], actions: [{ name: 'x', exec: { script: 'true' } }] },
      });
      expect(param.status).toBe(400);
      expect(param.body.message).toMatch(/^spec\.parameters\[0\]\.type:/);
      const { rows } = await db.query(`SELECT 1 FROM playbooks WHERE name IN ('bad', 'none', 'two', 'param')`);
      expect(rows).toHaveLength(0);
      const good = await api.call(
        'admin',
        'POST',
        '/api/db/playbooks',
        { name: 'good', title: 'Good', spec: { actions: [{ name: 'x', exec: { script: 'true' } }] } },
        { prefer: 'return=representation' },
      );
      expect(good.status).toBe(201);
      const badRun = await api.call('admin', 'POST', '/api/playbook/run', { id: 'nope' });
      expect(badRun.status).toBe(400);
      expect(badRun.body.message).toMatch(/id must be a playbook id/);
    });

    it('runs a script in the sandbox with params and templates; output, exit code, log download', async () => {
      const id = await insertPlaybook(db, 'script', {
        parameters: [
          { name: 'who', type: 'text', required: true, properties: { format: 'dns1123' } },
          { name: 'loud', type: 'checkbox', default: 'false' },
        ],
        actions: [
          {
            name: 'greet',
            exec: { script: 'echo "hello {{.params.who}} loud={{.params.loud}}"; echo oops >&2; pwd; env | sort' },
          },
          { name: 'fail', exec: { script: 'echo before; exit 3' } },
          { name: 'after', exec: { script: 'echo never' } },
          { name: 'cleanup', if: 'always', exec: { script: 'echo "previous={{.actions.greet.status}}"' } },
        ],
      });
      const refused = await api.call('admin', 'POST', '/api/playbook/run', { id, params: { who: 'Not_DNS' } });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^params\.who: who must be lowercase/);
      const viewer = await api.call('viewer', 'POST', '/api/playbook/run', { id, params: { who: 'x' } });
      expect(viewer.status).toBe(403);

      const runId = await run(id, { params: { who: 'world' } });
      const { run: r, actions } = await finished(db, runId);
      expect(actions.greet.status).toBe('completed');
      expect(actions.greet.result.stdout).toContain('hello world loud=false');
      expect(actions.greet.result.stdout).toContain('/tmp'); // its own working directory
      expect(actions.greet.result.stdout).not.toMatch(/DATABASE_URL|WATCHDECK_|SMTP_URL/); // a clean environment
      expect(actions.greet.result.stderr).toBe('oops\n');
      expect(actions.fail.status).toBe('failed');
      expect(actions.fail.result.exitCode).toBe(3);
      expect(actions.fail.error).toBe('the script exited with code 3');
      expect(actions.after.status).toBe('skipped');
      expect(actions.cleanup.result.stdout).toBe('previous=completed\n');
      expect(r.status).toBe('failed');
      expect(r.error).toBe('action "fail" failed: the script exited with code 3');

      const log = await api.call('viewer', 'GET', `/api/playbook/run/${runId}/actions/greet/logs`);
      expect(log.status).toBe(200);
      expect(log.headers.get('content-disposition')).toMatch(/attachment; filename=".*greet\.log"/);
      expect(log.body).toContain('--- stdout ---\nhello world');
      expect(log.body).toContain('--- stderr ---\noops');
      const missing = await api.call('viewer', 'GET', `/api/playbook/run/${runId}/actions/nope/logs`);
      expect(missing.status).toBe(404);
    });

    it('checks out a git repository before the script', async () => {
      const repo = join(tmp, 'checkout.git');
      const work = join(tmp, 'checkout-work');
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', repo]);
      execFileSync('git', ['clone', '-q', repo, work]);
      writeFileSync(join(work, 'hello.txt'), 'from git\n');
      execFileSync('git', ['-C', work, 'add', '.']);
      execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one']);
      execFileSync('git', ['-C', work, 'push', '-q', 'origin', 'main']);
      const id = await insertPlaybook(db, 'checkout', {
        actions: [{ name: 'read', exec: { checkout: { url: repo }, script: 'pwd; cat hello.txt' } }],
      });
      const { actions } = await finished(db, await run(id));
      expect(actions.read.status, actions.read.error).toBe('completed');
      expect(actions.read.result.stdout).toBe('/tmp/checkout\nfrom git\n');
    });

    it('calls HTTP with templates over earlier results; an unexpected status fails', async () => {
      const id = await insertPlaybook(db, 'http', {
        parameters: [{ name: 'q', default: 'x' }],
        actions: [
          { name: 'first', http: { url: `${peer.url}/first?q={{.params.q}}` } },
          {
            name: 'second',
            http: {
              url: `${peer.url}/second`,
              method: 'POST',
              headers: { 'x-prev': '{{.actions.first.result.body.path}}' },
              body: '{"run":"{{.run.id}}"}',
            },
          },
          { name: 'teapot', http: { url: `${peer.url}/status/418` } },
          { name: 'expected', if: 'always', http: { url: `${peer.url}/status/404`, expectedStatus: [404] } },
        ],
      });
      const runId = await run(id, { params: { q: 'abc' } });
      const { actions } = await finished(db, runId);
      expect(actions.first.result.status).toBe(200);
      expect(actions.first.result.body).toEqual({ ok: true, path: '/first?q=abc' });
      const second = peer.hits.find((h) => h.path === '/second')!;
      expect(second.method).toBe('POST');
      expect(second.headers['x-prev']).toBe('/first?q=abc');
      expect(JSON.parse(second.body)).toEqual({ run: runId });
      expect(actions.teapot.status).toBe('failed');
      expect(actions.teapot.error).toMatch(/answered 418/);
      expect(actions.expected.status).toBe('completed');
    });

    it('queries PostgreSQL and MariaDB', async () => {
      const conn = await mysql.createConnection(MYSQL_URL);
      await conn.query('CREATE DATABASE IF NOT EXISTS watchdeck_pb_test');
      await conn.end();
      const id = await insertPlaybook(db, 'sql', {
        actions: [
          { name: 'pg', sql: { url: PG_URL, query: `SELECT 1 + 1 AS two, 'x' AS s` } },
          {
            name: 'maria',
            sql: { url: 'mysql://root@127.0.0.1:3306/watchdeck_pb_test', query: 'SELECT 6 * 7 AS answer' },
          },
          { name: 'broken', if: 'always', sql: { url: PG_URL, query: 'SELECT * FROM no_such_table' } },
        ],
      });
      const { actions } = await finished(db, await run(id));
      expect(actions.pg.result.rows).toEqual([{ two: 2, s: 'x' }]);
      expect(actions.pg.result.columns).toEqual(['two', 's']);
      expect(actions.maria.status, actions.maria.error).toBe('completed');
      expect(actions.maria.result.rows).toEqual([{ answer: 42 }]);
      expect(actions.broken.error).toMatch(/no_such_table/);
    });

    it('notifies by webhook, Slack-compatible hook and email', async () => {
      const id = await insertPlaybook(db, 'notify', {
        actions: [
          { name: 'hook', notification: { url: `${peer.url}/hook`, title: 'T {{.run.trigger_source}}', message: 'M' } },
          { name: 'slack', notification: { url: `${peer.url}/slack/hook`, title: 'S', message: 'body' } },
          { name: 'mail', notification: { to: 'ops@example.test', title: 'Mail title', message: 'Mail body' } },
        ],
      });
      const runId = await run(id);
      const { actions, run: r } = await finished(db, runId);
      expect(r.status, JSON.stringify(actions)).toBe('completed');
      const hook = peer.hits.find((h) => h.path === '/hook')!;
      expect(JSON.parse(hook.body)).toMatchObject({ title: 'T manual', message: 'M' });
      const slack = peer.hits.find((h) => h.path === '/slack/hook')!;
      expect(JSON.parse(slack.body)).toEqual({ text: '*S*\nbody' });
      await waitFor('the email', async () => mails.some((m) => m.includes('Mail title')));
      const mail = mails.find((m) => m.includes('Mail title'))!;
      expect(mail).toMatch(/To: ops@example\.test/);
      expect(mail).toContain('Mail body');
      expect(actions.mail.result).toMatchObject({ channel: 'email', delivery: 'sent' });
    });

    it('gitops: clones, patches YAML and writes a file, commits and pushes a new branch', async () => {
      const repo = join(tmp, 'gitops.git');
      const work = join(tmp, 'gitops-work');
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', repo]);
      execFileSync('git', ['clone', '-q', repo, work]);
      writeFileSync(join(work, 'app.yaml'), '# the app\nspec:\n  replicas: 1 # keep low\n  image: web:1\n');
      execFileSync('git', ['-C', work, 'add', '.']);
      execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one']);
      execFileSync('git', ['-C', work, 'push', '-q', 'origin', 'main']);
      const id = await insertPlaybook(db, 'gitops', {
        parameters: [{ name: 'replicas', default: '3' }],
        actions: [
          {
            name: 'scale',
            gitops: {
              repo: { url: repo, branch: 'scale-{{.params.replicas}}' },
              commit: { message: 'scale to {{.params.replicas}}', author: 'Bot', email: 'bot@example.test' },
              patches: [{ path: 'app.yaml', yamlPath: 'spec.replicas', value: '{{.params.replicas}}' }],
              files: [{ path: 'notes/why.txt', content: 'run {{.run.id}}\n' }],
            },
          },
        ],
      });
      const runId = await run(id);
      const { actions } = await finished(db, runId);
      expect(actions.scale.status, actions.scale.error).toBe('completed');
      expect(actions.scale.result).toMatchObject({ branch: 'scale-3', newBranch: true });
      const show = (p: string) => execFileSync('git', ['-C', repo, 'show', `scale-3:${p}`]).toString();
      expect(show('app.yaml')).toBe('# the app\nspec:\n  replicas: "3" # keep low\n  image: web:1\n');
      expect(show('notes/why.txt')).toBe(`run ${runId}\n`);
      expect(execFileSync('git', ['-C', repo, 'log', '-1', '--format=%an <%ae> %s', 'scale-3']).toString().trim()).toBe(
        'Bot <bot@example.test> scale to 3',
      );
      // main is untouched
      expect(execFileSync('git', ['-C', repo, 'show', 'main:app.yaml']).toString()).toContain('replicas: 1');
    });

    it('gitops: a committed symbolic link does not lead a write out of the repository', async () => {
      const repo = join(tmp, 'links.git');
      const work = join(tmp, 'links-work');
      const target = join(tmp, 'links-target');
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, 'victim.yaml'), 'a: 1\n');
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', repo]);
      execFileSync('git', ['clone', '-q', repo, work]);
      symlinkSync(target, join(work, 'out'));
      symlinkSync(join(target, 'victim.yaml'), join(work, 'file.yaml'));
      writeFileSync(join(work, 'ok.yaml'), 'a: 1\n');
      execFileSync('git', ['-C', work, 'add', '.']);
      execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'links']);
      execFileSync('git', ['-C', work, 'push', '-q', 'origin', 'main']);
      const attempts: [Record<string, unknown>, RegExp][] = [
        [{ files: [{ path: 'out/new.txt', content: 'x' }] }, /leads out of the repository through a symbolic link/],
        [{ files: [{ path: 'out/deeper/new.txt', content: 'x' }] }, /leads out of the repository/],
        [{ patches: [{ path: 'out/victim.yaml', yamlPath: 'a', value: '2' }] }, /leads out of the repository/],
        [{ patches: [{ path: 'file.yaml', yamlPath: 'a', value: '2' }] }, /"file\.yaml" is a symbolic link/],
        [{ files: [{ path: 'file.yaml', content: 'x' }] }, /is a symbolic link/],
      ];
      for (const [i, [edit, message]] of attempts.entries()) {
        const id = await insertPlaybook(db, `links-${i}`, {
          actions: [
            { name: 'edit', gitops: { repo: { url: repo, branch: `try-${i}` }, commit: { message: 'm' }, ...edit } },
          ],
        });
        const { actions } = await finished(db, await run(id));
        expect(actions.edit.status, JSON.stringify(edit)).toBe('failed');
        expect(actions.edit.error, JSON.stringify(edit)).toMatch(message);
      }
      expect(readdirSync(target)).toEqual(['victim.yaml']);
      expect(readFileSync(join(target, 'victim.yaml'), 'utf8')).toBe('a: 1\n');
    });

    it('git: no clone of or push to a repository elsewhere on this server, nor a command transport', async () => {
      const elsewhere = mkdtempSync(join(tmpdir(), 'playbook-elsewhere-'));
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(elsewhere, 'r.git')]);
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          { exec: { checkout: { url: join(elsewhere, 'r.git') }, script: 'ls' } },
          /outside the directories local repositories/,
        ],
        [
          {
            gitops: {
              repo: { url: `file://${elsewhere}/r.git` },
              commit: { message: 'm' },
              files: [{ path: 'a', content: 'b' }],
            },
          },
          /WATCHDECK_PLAYBOOK_ROOTS/,
        ],
        [
          { exec: { checkout: { url: `ext::sh -c touch% ${join(elsewhere, 'pwned')}` }, script: 'ls' } },
          /use an http\(s\), ssh or git URL/,
        ],
      ];
      for (const [i, [action, message]] of cases.entries()) {
        const id = await insertPlaybook(db, `git-refused-${i}`, { actions: [{ name: 'git', ...action }] });
        const { actions } = await finished(db, await run(id));
        expect(actions.git.status, JSON.stringify(action)).toBe('failed');
        expect(actions.git.error, JSON.stringify(action)).toMatch(message);
      }
      expect(existsSync(join(elsewhere, 'pwned'))).toBe(false);
      expect(execFileSync('git', ['-C', join(elsewhere, 'r.git'), 'branch', '--list']).toString()).toBe('');
      rmSync(elsewhere, { recursive: true, force: true });
    });

    it('if (CEL), retry with backoff, timeout and delay', async () => {
      const id = await insertPlaybook(db, 'control', {
        parameters: [{ name: 'n', default: '2' }],
        actions: [
          { name: 'cel-yes', if: 'params.n == "2"', exec: { script: 'echo yes' } },
          { name: 'cel-no', if: 'params.n == "3"', exec: { script: 'echo no' } },
          { name: 'skip', if: 'skip', exec: { script: 'echo skip' } },
          {
            name: 'retried',
            retry: { limit: 2, duration: '200ms', multiplier: 2 },
            http: { url: `${peer.url}/status/503` },
          },
          { name: 'on-failure', if: 'failure', exec: { script: 'echo handling' } },
          { name: 'slow', if: 'always', timeout: '1s', exec: { script: 'sleep 20' } },
          { name: 'delayed', if: 'always', delay: '1s', exec: { script: 'echo late' } },
        ],
      });
      const before = peer.hits.filter((h) => h.path === '/status/503').length;
      const started = Date.now();
      const { actions } = await finished(db, await run(id));
      expect(actions['cel-yes'].status).toBe('completed');
      expect(actions['cel-no'].status).toBe('skipped');
      expect(actions.skip.status).toBe('skipped');
      expect(actions.retried.status).toBe('failed');
      expect(actions.retried.retry_count).toBe(2);
      expect(peer.hits.filter((h) => h.path === '/status/503').length - before).toBe(3);
      expect(actions['on-failure'].result.stdout).toBe('handling\n');
      expect(actions.slow.status).toBe('failed');
      expect(actions.slow.error).toMatch(/stopped after 1000 ms|timed out/);
      expect(actions.delayed.result.stdout).toBe('late\n');
      expect(
        new Date(actions.delayed.start_time).getTime() - new Date(actions.delayed.created_at).getTime(),
      ).toBeGreaterThanOrEqual(900);
      expect(Date.now() - started).toBeLessThan(20_000); // the 20 s sleep was cut at 1 s
    });

    it('approval: only named approvers; any releases at the first, all waits for every one', async () => {
      const { rows: team } = await db.query<{ id: string }>(
        `INSERT INTO teams (name) VALUES ('Platform') RETURNING id`,
      );
      await db.query(`INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)`, [team[0]!.id, api.people.ops]);
      const anyId = await insertPlaybook(db, 'approve-any', {
        approval: { type: 'any', approvers: { teams: ['Platform'] } },
        actions: [{ name: 'go', exec: { script: 'echo approved' } }],
      });
      const r1 = await run(anyId);
      expect((await db.query<any>(`SELECT status FROM playbook_runs WHERE id = $1`, [r1])).rows[0].status).toBe(
        'pending_approval',
      );
      const refused = await api.call('dev', 'POST', `/api/playbook/run/${r1}/approve`);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/not one of the approvers/);
      const ok = await api.call('ops', 'POST', `/api/playbook/run/${r1}/approve`);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ approved: true, status: 'pending' });
      expect((await finished(db, r1)).run.status).toBe('completed');

      const allId = await insertPlaybook(db, 'approve-all', {
        approval: { type: 'all', approvers: { people: ['dev@playbooks.test'], teams: ['Platform'] } },
        actions: [{ name: 'go', exec: { script: 'echo approved' } }],
      });
      const r2 = await run(allId);
      expect((await api.call('admin', 'POST', `/api/playbook/run/${r2}/approve`)).status).toBe(403);
      const first = await api.call('ops', 'POST', `/api/playbook/run/${r2}/approve`);
      expect(first.body).toMatchObject({ approved: false, status: 'pending_approval' });
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        (await db.query<any>(`SELECT count(*)::int AS n FROM playbook_run_actions WHERE playbook_run_id = $1`, [r2]))
          .rows[0].n,
      ).toBe(0);
      const second = await api.call('dev', 'POST', `/api/playbook/run/${r2}/approve`);
      expect(second.body).toMatchObject({ approved: true, status: 'pending' });
      expect((await finished(db, r2)).run.status).toBe('completed');
    });

    it('cancels a running run and re-runs it', async () => {
      const id = await insertPlaybook(db, 'long', {
        actions: [
          { name: 'wait', exec: { script: 'sleep 30' } },
          { name: 'next', exec: { script: 'echo next' } },
        ],
      });
      const runId = await run(id);
      await waitFor('the action to start', async () => {
        const { rows } = await db.query<any>(
          `SELECT status FROM playbook_run_actions WHERE playbook_run_id = $1 AND name = 'wait'`,
          [runId],
        );
        return rows[0]?.status === 'running';
      });
      const c = await api.call('editor', 'POST', `/api/playbook/run/${runId}/cancel`);
      expect(c.status).toBe(200);
      const { run: r, actions } = await finished(db, runId, 15_000);
      expect(r.status).toBe('cancelled');
      await waitFor(
        'the action to stop',
        async () => {
          const { rows } = await db.query<any>(
            `SELECT status FROM playbook_run_actions WHERE playbook_run_id = $1 AND name = 'wait'`,
            [runId],
          );
          return rows[0]?.status === 'cancelled';
        },
        15_000,
      );
      expect(actions.next).toBeUndefined();
      expect((await api.call('editor', 'POST', `/api/playbook/run/${runId}/cancel`)).status).toBe(409);

      const again = await api.call('editor', 'POST', `/api/playbook/run/${runId}/rerun`);
      expect(again.status).toBe(201);
      const { rows } = await db.query<any>(`SELECT parent_id, trigger_source FROM playbook_runs WHERE id = $1`, [
        again.body.run_id,
      ]);
      expect(rows[0]).toEqual({ parent_id: runId, trigger_source: 'rerun' });
      await api.call('editor', 'POST', `/api/playbook/run/${again.body.run_id}/cancel`);
    });
  });
}
