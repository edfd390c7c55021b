/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { applyAllRetention } from '#server/catalog/retention.ts';
import { afterScrape } from '#server/catalog/index.ts';

/**
 * The scraper engine through the real app, on real sources the test makes: a directory of YAML
 * and JSON files, a git repository, a local HTTP JSON API, PostgreSQL and MariaDB queries, and
 * pushed items. Runs are started with Run now (POST /api/catalog/scrapers/{id}/run) and read back
 * from config_items, config_changes, job_history and the event queue.
 */
const ROLES = ['admin', 'viewer'] as const;
type Role = (typeof ROLES)[number];

const deployment = (name: string, uid: string, replicas: number, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: shop
  uid: ${uid}
  creationTimestamp: "2024-03-01T10:00:00Z"
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
        - name: ${name}
          image: example/${name}:1.0${extra}
`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  }).toString();

for (const driver of testDrivers()) {
  describe(`catalog scrapers (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    let work: string;
    const cookies = {} as Record<Role, string>;

    const call = async (
      role: Role,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(url + path, {
        method,
        headers: {
          accept: 'application/json',
          cookie: cookies[role],
          origin: new URL(url).origin,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const createScraper = async (name: string, spec: Record<string, unknown>) => {
      const res = await call(
        'admin',
        'POST',
        '/api/db/config_scrapers',
        { name, spec },
        { prefer: 'return=representation' },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body[0].id as string;
    };
    const runNow = async (id: string) => {
      const res = await call('admin', 'POST', `/api/catalog/scrapers/${id}/run`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const items = async (scraperId: string) =>
      (
        await db.query<any>(
          `SELECT id, type, external_id, name, config, health, deleted_at, parent_id, created_at, labels, tags
           FROM config_items WHERE scraper_id = $1 ORDER BY type, external_id`,
          [scraperId],
        )
      ).rows;
    const changes = async (scraperId: string) =>
      (
        await db.query<any>(
          `SELECT cc.*, ci.external_id FROM config_changes cc JOIN config_items ci ON ci.id = cc.config_id
           WHERE ci.scraper_id = $1 ORDER BY cc.first_observed, cc.change_type`,
          [scraperId],
        )
      ).rows;

    beforeAll(async () => {
      db = await driver.open();
      work = mkdtempSync(join(tmpdir(), 'catalog-test-'));
      ({ app, url } = await startApp(db, { dataDir: join(work, 'data'), scrapeRoots: [work] }));
      for (const role of ROLES) {
        const identity = await createIdentity(db, {
          traits: { email: `${role}@catalog.test`, name: { first: role, last: 'Tester' } },
          roles: [role],
        });
        const { token } = await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 });
        cookies[role] = `${SESSION_COOKIE}=${token}`;
      }
      // a consumer of the config events, so publish() stores them
      await db.query(
        `INSERT INTO event_consumers (name, events) VALUES ('catalog-test', ARRAY['config.created','config.updated','config.deleted','config.healthy','config.unhealthy','config.warning','config.unknown'])`,
      );
    }, 180_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('a directory of YAML files: items, one change with its diff on an edit, folding, deletion', async () => {
      const dir = join(work, 'manifests');
      mkdirSync(join(dir, 'shop'), { recursive: true });
      writeFileSync(
        join(dir, 'shop', 'web.yaml'),
        `${deployment('web', 'uid-web', 3)}---\n${deployment('api', 'uid-api', 2)}`,
      );
      writeFileSync(join(dir, 'shop', 'kustomization.yaml'), 'resources: [web.yaml]\n');
      const id = await createScraper('manifests', {
        file: [
          {
            paths: [`${dir}/**/*.yaml`],
            ignore: ['**/kustomization.yaml'],
            format: 'yaml',
            icon: 'kubernetes',
            type: '$.kind',
            id: '$.metadata.uid',
            name: '$.metadata.name',
            createFields: ['$.metadata.creationTimestamp'],
            health: "config.spec.replicas >= 3 ? 'healthy' : 'warning'",
          },
        ],
      });
      const first = await runNow(id);
      expect(first.status).toBe('SUCCESS');
      expect(first.details.scrape_summary).toEqual({
        Deployment: { added: 2, updated: 0, unchanged: 0, deleted: 0, errors: 0 },
      });
      let rows = await items(id);
      expect(rows.map((r: any) => [r.external_id, r.name, r.health])).toEqual([
        ['uid-api', 'api', 'warning'],
        ['uid-web', 'web', 'healthy'],
      ]);
      expect(new Date(rows[0].created_at).toISOString()).toBe('2024-03-01T10:00:00.000Z');

      // an edit: one change, with the diff, patch and summary of the changed path
      writeFileSync(
        join(dir, 'shop', 'web.yaml'),
        `${deployment('web', 'uid-web', 7)}---\n${deployment('api', 'uid-api', 2)}`,
      );
      const second = await runNow(id);
      expect(second.details.scrape_summary.Deployment).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
      let found = await changes(id);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        external_id: 'uid-web',
        change_type: 'diff',
        count: 1,
        summary: 'spec.replicas: 3 -> 7',
      });
      expect(found[0].patches).toEqual([{ op: 'replace', path: '/spec/replicas', value: 7 }]);
      expect(found[0].diff).toContain('\n-    "replicas": 3,\n');
      expect(found[0].diff).toContain('\n+    "replicas": 7,\n');

      // an identical run changes nothing
      const third = await runNow(id);
      expect(third.details.scrape_summary.Deployment).toMatchObject({ updated: 0, unchanged: 2 });
      expect(await changes(id)).toHaveLength(1);

      // back to 3, then the same 3 -> 7 again: folds into the first change's count
      writeFileSync(
        join(dir, 'shop', 'web.yaml'),
        `${deployment('web', 'uid-web', 3)}---\n${deployment('api', 'uid-api', 2)}`,
      );
      await runNow(id);
      writeFileSync(
        join(dir, 'shop', 'web.yaml'),
        `${deployment('web', 'uid-web', 7)}---\n${deployment('api', 'uid-api', 2)}`,
      );
      await runNow(id);
      found = await changes(id);
      expect(found.map((c: any) => [c.summary, c.count])).toEqual([
        ['spec.replicas: 3 -> 7', 2],
        ['spec.replicas: 7 -> 3', 1],
      ]);
      expect(new Date(found[0].created_at).getTime()).toBeGreaterThan(new Date(found[0].first_observed).getTime());

      // a document removed: soft-deleted with a deleted change
      writeFileSync(join(dir, 'shop', 'web.yaml'), deployment('web', 'uid-web', 7));
      const gone = await runNow(id);
      expect(gone.details.scrape_summary.Deployment).toMatchObject({ deleted: 1, unchanged: 1 });
      rows = await items(id);
      expect(rows.find((r: any) => r.external_id === 'uid-api').deleted_at).not.toBeNull();
      found = await changes(id);
      expect(found.filter((c: any) => c.change_type === 'deleted').map((c: any) => c.external_id)).toEqual(['uid-api']);

      // events: created twice, updated three times, deleted once, health on creation
      const { rows: events } = await db.query<any>(
        `SELECT name, count(*)::int AS n FROM event_queue WHERE properties->>'type' = 'Deployment' OR name LIKE 'config.%' GROUP BY name ORDER BY name`,
      );
      const byName = Object.fromEntries(events.map((e: any) => [e.name, e.n]));
      expect(byName['config.created']).toBeGreaterThanOrEqual(2);
      expect(byName['config.updated']).toBeGreaterThanOrEqual(3);
      expect(byName['config.deleted']).toBeGreaterThanOrEqual(1);
      expect(byName['config.healthy']).toBeGreaterThanOrEqual(1);
    }, 120_000);

    it('JSON files split by items, plain text, and a bad file reported by type', async () => {
      const dir = join(work, 'json');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'hosts.json'),
        JSON.stringify({
          items: [
            { host: 'db-1', role: 'primary' },
            { host: 'db-2', role: 'replica' },
          ],
        }),
      );
      writeFileSync(join(dir, 'broken.json'), '{ not json');
      writeFileSync(join(dir, 'motd.txt'), 'hello\n');
      const hosts = await createScraper('hosts', {
        file: [
          { paths: [`${dir}/*.json`], format: 'json', icon: 'db', type: 'Host', items: '$.items[*]', id: '$.host' },
        ],
      });
      const run = await runNow(hosts);
      expect(run.status).toBe('WARNING');
      expect(run.details.scrape_summary.Host).toMatchObject({ added: 2, errors: 1 });
      expect(JSON.stringify(run.details.errors)).toContain('broken.json: not JSON');
      expect((await items(hosts)).map((r: any) => [r.external_id, r.config.role])).toEqual([
        ['db-1', 'primary'],
        ['db-2', 'replica'],
      ]);
      const text = await createScraper('motd', {
        file: [{ paths: [`${dir}/*.txt`], format: 'text', icon: 'file', type: 'Motd' }],
      });
      await runNow(text);
      const [motd] = await items(text);
      expect(motd).toMatchObject({ type: 'Motd', name: 'motd.txt', config: 'hello\n' });
    }, 120_000);

    it('a git repository: cloned, and a commit gives one change with the right diff', async () => {
      const repo = join(work, 'repo');
      mkdirSync(join(repo, 'apps'), { recursive: true });
      git(repo, 'init', '-q', '-b', 'main');
      writeFileSync(join(repo, 'apps', 'web.yaml'), deployment('web', 'g-web', 2));
      writeFileSync(join(repo, 'apps', 'api.yaml'), deployment('api', 'g-api', 1));
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', 'first');
      const id = await createScraper('gitops', {
        file: [
          {
            url: repo,
            paths: ['apps/*.yaml'],
            format: 'yaml',
            icon: 'git',
            type: '$.kind',
            id: '$.metadata.uid',
            name: '$.metadata.name',
          },
        ],
      });
      const first = await runNow(id);
      expect(first.status, JSON.stringify(first.details)).toBe('SUCCESS');
      expect((await items(id)).map((r: any) => r.name)).toEqual(['api', 'web']);
      // the working copy is untouched: the scraper reads its clone under the data directory
      writeFileSync(join(repo, 'apps', 'web.yaml'), deployment('web', 'g-web', 2, '-uncommitted'));
      await runNow(id);
      expect(await changes(id)).toHaveLength(0);
      writeFileSync(join(repo, 'apps', 'web.yaml'), deployment('web', 'g-web', 2, '.1'));
      git(repo, 'commit', '-q', '-am', 'web 1.0.1');
      const second = await runNow(id);
      expect(second.details.scrape_summary.Deployment).toMatchObject({ updated: 1, unchanged: 1 });
      const found = await changes(id);
      expect(found).toHaveLength(1);
      expect(found[0].summary).toBe('spec.template.spec.containers[0].image: example/web:1.0 -> example/web:1.0.1');
      expect(found[0].diff).toMatch(/^- +"image": "example\/web:1\.0",$/m);
      expect(found[0].diff).toMatch(/^\+ +"image": "example\/web:1\.0\.1",$/m);
    }, 120_000);

    it('a local HTTP JSON API with headers, basic auth and a health expression', async () => {
      let seen: http.IncomingHttpHeaders | undefined;
      const state = { b: 'down' };
      const server = http.createServer((req, res) => {
        seen = req.headers;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            data: [
              { id: 'a', label: 'Alpha', state: 'up' },
              { id: 'b', label: 'Beta', state: state.b },
            ],
          }),
        );
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const port = (server.address() as AddressInfo).port;
        const id = await createScraper('api', {
          http: [
            {
              url: `http://127.0.0.1:${port}/things`,
              type: 'API::Thing',
              id: '$.id',
              name: '$.label',
              items: '$.data',
              headers: { 'x-team': 'ops' },
              auth: { username: 'reader', password: 's3cret' },
              health: "config.state == 'up'",
            },
          ],
        });
        const run = await runNow(id);
        expect(run.status).toBe('SUCCESS');
        expect(seen?.['x-team']).toBe('ops');
        expect(seen?.authorization).toBe(`Basic ${Buffer.from('reader:s3cret').toString('base64')}`);
        expect((await items(id)).map((r: any) => [r.name, r.health])).toEqual([
          ['Alpha', 'healthy'],
          ['Beta', 'unhealthy'],
        ]);
        state.b = 'up';
        await runNow(id);
        expect((await items(id)).map((r: any) => r.health)).toEqual(['healthy', 'healthy']);
        const { rows } = await db.query<any>(
          `SELECT count(*)::int AS n FROM event_queue WHERE name = 'config.healthy' AND properties->>'previous' = 'unhealthy'`,
        );
        expect(rows[0].n).toBe(1);
      } finally {
        server.close();
      }
    }, 120_000);

    it('a PostgreSQL query and a MariaDB query through connections, one item per row', async () => {
      const pgConn = await call('admin', 'POST', '/api/db/connections', {
        name: 'catalog-pg',
        type: 'postgres',
        url: 'postgres://127.0.0.1:5432/postgres',
        username: 'postgres',
        password: 'trust-ignores-it',
      });
      expect(pgConn.status, JSON.stringify(pgConn.body)).toBe(201);
      const pgScraper = await createScraper('pg-rows', {
        sql: [
          {
            connection: 'catalog-pg',
            type: 'DB::Setting',
            id: '$.name',
            name: '$.name',
            query: `SELECT name, setting FROM (VALUES ('max_connections', '100'), ('work_mem', '4MB')) AS s(name, setting)`,
          },
        ],
      });
      const pgRun = await runNow(pgScraper);
      expect(pgRun.status, JSON.stringify(pgRun.details)).toBe('SUCCESS');
      expect((await items(pgScraper)).map((r: any) => [r.external_id, r.config.setting])).toEqual([
        ['max_connections', '100'],
        ['work_mem', '4MB'],
      ]);

      const myConn = await call('admin', 'POST', '/api/db/connections', {
        name: 'catalog-maria',
        type: 'mysql',
        url: 'mysql://127.0.0.1:3306/mysql',
        username: 'root',
        password: 'placeholder',
      });
      expect(myConn.status, JSON.stringify(myConn.body)).toBe(201);
      const myScraper = await createScraper('maria-rows', {
        sql: [
          {
            connection: 'catalog-maria',
            type: 'DB::User',
            id: '$.id',
            name: '$.name',
            query: `SELECT 1 AS id, 'alice' AS name UNION ALL SELECT 2, 'bob'`,
            // root has no password on this machine: the spec's auth overrides the connection's
            auth: { password: { value: '' } },
          },
        ],
      });
      const myRun = await runNow(myScraper);
      expect(myRun.status, JSON.stringify(myRun.details)).toBe('SUCCESS');
      expect((await items(myScraper)).map((r: any) => [r.external_id, r.name])).toEqual([
        ['1', 'alice'],
        ['2', 'bob'],
      ]);
    }, 120_000);

    it('file scrapers read only under the allowed roots: no server file, no way out by .., a link or a git URL', async () => {
      const allowed = join(work, 'roots');
      const own = join(work, 'data', 'catalog', 'files');
      const outside = mkdtempSync(join(tmpdir(), 'catalog-outside-'));
      mkdirSync(allowed, { recursive: true });
      mkdirSync(own, { recursive: true });
      writeFileSync(join(allowed, 'ok.json'), '{"id": "ok"}');
      writeFileSync(join(own, 'own.json'), '{"id": "own"}');
      writeFileSync(join(outside, 'outside.json'), '{"id": "secret"}');
      symlinkSync(join(outside, 'outside.json'), join(allowed, 'link.json'));
      symlinkSync('/etc', join(allowed, 'etc'));
      const file = (paths: string[], extra: Record<string, unknown> = {}) => ({
        file: [{ paths, format: 'json', icon: 'x', type: 'Doc', id: '$.id', ...extra }],
      });

      // allowed: a root from WATCHDECK_SCRAPE_ROOTS, and a relative path (read in <data dir>/catalog/files)
      const good = await createScraper('roots-ok', file([`${allowed}/*.json`, 'own.json']));
      const goodRun = await runNow(good);
      expect((await items(good)).map((r: any) => r.external_id).sort()).toEqual(['ok', 'own']);
      // link.json, a link to a file outside, is not read (the walk follows no links)
      expect(goodRun.status).toBe('SUCCESS');

      const refused: [Record<string, unknown>, string][] = [
        [file(['/etc/passwd'], { format: 'text' }), '/etc/passwd is outside the directories file scrapers may read'],
        [file(['/proc/self/environ'], { format: 'text' }), 'is outside the directories'],
        [file([`${allowed}/../outside.json`]), 'parent directory segments (..) are not allowed'],
        [file(['../../outside.json']), 'parent directory segments (..) are not allowed'],
        [file([`${allowed}/etc/hostname`], { format: 'text' }), 'outside the directories file scrapers may read'],
        [
          file(['*.json'], { url: `file://${outside}` }),
          'is outside the directories local repositories may be read from',
        ],
        [file(['*.json'], { url: '/etc' }), 'url /etc is outside'],
        [file(['*.json'], { url: `ext::sh -c touch% ${join(work, 'pwned')}` }), 'use an http(s), ssh or git URL'],
        [file(['*.json'], { url: '--upload-pack=touch /tmp/x' }), 'use an http(s), ssh or git URL'],
      ];
      for (const [i, [spec, message]] of refused.entries()) {
        const id = await createScraper(`roots-refused-${i}`, spec);
        const run = await runNow(id);
        expect(JSON.stringify(run.details.errors), JSON.stringify(spec)).toContain(message);
        expect(await items(id), JSON.stringify(spec)).toEqual([]);
      }
      expect(existsSync(join(work, 'pwned'))).toBe(false);
      rmSync(outside, { recursive: true, force: true });
    }, 120_000);

    it("an http scraper may not reach the cloud's instance-metadata address (WATCHDECK_OUTBOUND_DENY)", async () => {
      const id = await createScraper('metadata', {
        http: [{ url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', type: 'T', id: '$.id' }],
      });
      const run = await runNow(id);
      expect(run.status).toBe('FAILED');
      expect(JSON.stringify(run.details.errors)).toContain('connections to 169.254.169.254 are not allowed');
      expect(await items(id)).toEqual([]);
    }, 60_000);

    it('a SQL query cannot write through the connection, on either engine, and reads at most the row cap', async () => {
      const suffix = Math.random().toString(36).slice(2, 8);
      const probe = `watchdeck_ro_probe_${suffix}`;
      const pgc = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
      await pgc.connect();
      const maria = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
      try {
        await pgc.query(`CREATE TABLE ${probe} (id int)`);
        await maria.query(`CREATE DATABASE ${probe}`);
        await maria.query(`CREATE TABLE ${probe}.t (id int)`);
        for (const [name, type, url, extra] of [
          ['ro-pg', 'postgres', 'postgres://127.0.0.1:5432/postgres', { username: 'postgres', password: 'trust' }],
          ['ro-maria', 'mysql', 'mysql://127.0.0.1:3306/mysql', { username: 'root', password: 'placeholder' }],
        ] as const) {
          const res = await call('admin', 'POST', '/api/db/connections', { name, type, url, ...extra });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }
        const writes: [string, string][] = [
          ['ro-pg', `INSERT INTO ${probe} VALUES (1) RETURNING id`],
          ['ro-pg', `SELECT 1 AS id; SET transaction_read_only = off; INSERT INTO ${probe} VALUES (2)`],
          ['ro-pg', `WITH w AS (INSERT INTO ${probe} VALUES (3) RETURNING id) SELECT id FROM w`],
          ['ro-maria', `INSERT INTO ${probe}.t VALUES (1)`],
          ['ro-maria', `SELECT 1 AS id; INSERT INTO ${probe}.t VALUES (2)`],
        ];
        // root has no password on this machine: the spec's auth overrides the connection's
        const sql = (connection: string, query: string) => ({
          sql: [{ connection, type: 'T', id: '$.id', query, auth: { password: { value: '' } } }],
        });
        for (const [i, [connection, query]] of writes.entries()) {
          const id = await createScraper(`ro-write-${i}`, sql(connection, query));
          const run = await runNow(id);
          expect(run.status, query).toBe('FAILED');
        }
        expect((await pgc.query(`SELECT count(*)::int AS n FROM ${probe}`)).rows[0].n).toBe(0);
        const [mrows] = await maria.query(`SELECT count(*) AS n FROM ${probe}.t`);
        expect(Number((mrows as { n: number }[])[0].n)).toBe(0);

        // one row over the cap fails the run instead of holding every row in memory
        for (const [connection, query] of [
          ['ro-pg', 'SELECT n AS id FROM generate_series(1, 100001) AS n'],
          [
            'ro-maria',
            // 400 x 400 rows: MariaDB stops recursion at 1,000 by default
            'WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 400) SELECT a.n * 1000 + b.n AS id FROM s a, s b',
          ],
        ]) {
          const id = await createScraper(`ro-cap-${connection}`, sql(connection, query));
          const run = await runNow(id);
          expect(run.status, JSON.stringify(run).slice(0, 600)).toBe('FAILED');
          expect(JSON.stringify(run.details.errors)).toContain('the query returned more than 100000 rows');
        }
      } finally {
        await pgc.query(`DROP TABLE IF EXISTS ${probe}`).catch(() => undefined);
        await pgc.end();
        await maria.query(`DROP DATABASE IF EXISTS ${probe}`).catch(() => undefined);
        await maria.end();
      }
    }, 180_000);

    it('push: items, a change and a relationship through the API; role-guarded; kept by scheduled runs', async () => {
      const id = await createScraper('pushed', { custom: [{}] });
      const body = {
        scraper_id: id,
        items: [
          { type: 'App', id: 'shop', name: 'shop', config: { tier: 1 } },
          { type: 'Service', id: 'cart', name: 'cart', config: { port: 80 }, parents: [{ type: 'App', id: 'shop' }] },
        ],
        changes: [{ type: 'App', id: 'shop', change_type: 'Deployed', severity: 'low', source: 'ci', summary: 'v2' }],
        relationships: [{ from: { type: 'Service', id: 'cart' }, to: { type: 'App', id: 'shop' }, relation: 'partOf' }],
      };
      expect((await call('viewer', 'POST', '/api/catalog/push', body)).status).toBe(403);
      const res = await call('admin', 'POST', '/api/catalog/push', body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.scrape_summary.App.added).toBe(1);
      const rows = await items(id);
      const shop = rows.find((r: any) => r.type === 'App');
      expect(rows.find((r: any) => r.type === 'Service').parent_id).toBe(shop.id);
      // the same change pushed again folds
      await call('admin', 'POST', '/api/catalog/push', { ...body, items: [{ ...body.items[0], config: { tier: 2 } }] });
      const found = await changes(id);
      expect(found.map((c: any) => [c.change_type, c.severity, c.source, c.count])).toEqual([
        ['Deployed', 'low', 'ci', 2],
        ['diff', 'info', 'push', 1],
      ]);
      const rel = await db.query<any>(
        `SELECT relation FROM config_relationships WHERE related_id = $1 AND deleted_at IS NULL`,
        [shop.id],
      );
      expect(rel.rows.map((r: any) => r.relation)).toEqual(['partOf']);
      // a run of the scraper reads nothing and deletes nothing pushed
      await runNow(id);
      expect((await items(id)).every((r: any) => r.deleted_at === null)).toBe(true);
      // bad bodies name the field
      const bad = await call('admin', 'POST', '/api/catalog/push', {
        scraper_id: id,
        items: [{ type: 'App', name: 'x' }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/items\.0\.id|items\[0\]\.id/);
      const notCustom = await createScraper('not-custom', {
        http: [{ url: 'http://127.0.0.1:1/x', type: 'T', id: '$.id' }],
      });
      const refused = await call('admin', 'POST', '/api/catalog/push', { scraper_id: notCustom, items: [] });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('scraper_id');
    }, 120_000);

    it('a kind without a reader fails its run clearly; an unreachable source deletes nothing', async () => {
      const id = await createScraper('aws', { aws: [{ awsConnection: { connection: 'connection://default/aws' } }] });
      const run = await runNow(id);
      expect(run.status).toBe('FAILED');
      expect(JSON.stringify(run.details.errors)).toContain('scraper kind aws is not supported yet');
      const { rows } = await db.query<any>(
        `SELECT status, error_count FROM job_history WHERE resource_id = $1 AND name = 'ConfigScraper'`,
        [id],
      );
      expect(rows).toEqual([{ status: 'FAILED', error_count: 1 }]);

      const dir = join(work, 'vanishing');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'a.json'), '{"n": 1}');
      const gitless = await createScraper('vanishing', {
        file: [{ paths: [`${dir}/*.json`], format: 'json', icon: 'x', type: 'Thing' }],
        http: [{ url: 'http://127.0.0.1:1/none', type: 'Thing', id: '$.id' }],
      });
      const partial = await runNow(gitless);
      expect(partial.status).toBe('WARNING');
      unlinkSync(join(dir, 'a.json'));
      await runNow(gitless);
      // the http entry failed, so the run was incomplete: nothing is deleted for not being seen
      expect((await items(gitless)).map((r: any) => r.deleted_at)).toEqual([null]);
    }, 120_000);

    it('bad scraper specs are refused with a 400 naming the field', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ file: [{ format: 'yaml', icon: 'x' }] }, /spec\.file\[0\]\.paths is required/],
        [
          { file: [{ paths: ['*.yaml'], format: 'xml', icon: 'x' }] },
          /spec\.file\[0\]\.format must be json, yaml or text/,
        ],
        [
          { file: [{ paths: ['*.yaml'], format: 'yaml', icon: 'x', items: '$.items[?(@.x)]' }] },
          /spec\.file\[0\]\.items/,
        ],
        [{ http: [{ url: 'http://x/', type: 'T', id: '$.id', health: 'config.state ==' }] }, /spec\.http\[0\]\.health/],
        [{ http: [{ url: 'ftp://x/', type: 'T', id: '$.id' }] }, /spec\.http\[0\]\.url must be an http or https URL/],
        [
          { sql: [{ connection: 'c', query: 'select 1', type: 'T', id: '$.id', driver: 'oracle' }] },
          /spec\.sql\[0\]\.driver/,
        ],
        [{ http: [{ type: 'T', id: '$.id' }] }, /spec\.http\[0\]\.url is required/],
      ];
      for (const [spec, message] of cases) {
        const res = await call('admin', 'POST', '/api/db/config_scrapers', { name: 'bad', spec });
        expect(res.status, JSON.stringify(spec)).toBe(400);
        expect(res.body.message, JSON.stringify(spec)).toMatch(message);
      }
      const { rows } = await db.query<any>(`SELECT count(*)::int AS n FROM config_scrapers WHERE name = 'bad'`);
      expect(rows[0].n).toBe(0);
      const badId = await call('admin', 'POST', '/api/catalog/scrapers/nope/run');
      expect(badId.status).toBe(400);
      expect(badId.body.message).toContain('id');
      const viewer = await call('viewer', 'POST', `/api/catalog/scrapers/00000000-0000-4000-8000-000000000000/run`);
      expect(viewer.status).toBe(403);
      const missing = await call('admin', 'POST', `/api/catalog/scrapers/00000000-0000-4000-8000-000000000000/run`);
      expect(missing.status).toBe(404);
    }, 120_000);

    it("post-scrape hooks run in the run's transaction with the items it saw; a throwing hook rolls the run back", async () => {
      const dir = join(work, 'hooked');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'a.json'), '{"a": 1}');
      writeFileSync(join(dir, 'b.json'), '{"b": 1}');
      const spec = { file: [{ paths: [`${dir}/*.json`], format: 'json', icon: 'x', type: 'Doc' }] };
      const seen = await createScraper('hooked', spec);
      const failing = await createScraper('hooked-failing', spec);
      const calls: { scraperId: string; visible: number }[] = [];
      afterScrape(async (tx, run) => {
        if (run.scraperId === failing) throw new Error('analyzer broke');
        if (run.scraperId !== seen) return;
        const { rows } = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM config_items WHERE id = ANY($1::uuid[])`,
          [run.configIds],
        );
        calls.push({ scraperId: run.scraperId, visible: rows[0].n });
      });
      expect((await runNow(seen)).status).toBe('SUCCESS');
      expect(calls).toEqual([{ scraperId: seen, visible: 2 }]);
      const broken = await runNow(failing);
      expect(broken.status).toBe('FAILED');
      expect(JSON.stringify(broken.details.errors)).toContain('analyzer broke');
      expect(await items(failing)).toEqual([]);
    }, 120_000);

    it('retention by change count and age, and by the age of deleted items', async () => {
      const dir = join(work, 'retained');
      mkdirSync(dir, { recursive: true });
      const id = await createScraper('retained', {
        file: [{ paths: [`${dir}/*.json`], format: 'json', icon: 'x', type: 'Doc' }],
        retention: {
          changes: [{ name: 'diff', count: 2, age: '7d' }],
          types: [{ name: 'Doc', deletedAge: '1d' }],
        },
      });
      for (let v = 1; v <= 5; v++) {
        writeFileSync(join(dir, 'a.json'), JSON.stringify({ v }));
        writeFileSync(join(dir, 'b.json'), JSON.stringify({ v: 1 }));
        if (v === 5) unlinkSync(join(dir, 'b.json'));
        await runNow(id);
      }
      expect((await changes(id)).filter((c: any) => c.change_type === 'diff')).toHaveLength(4);
      // one of the kept changes is older than the age
      await db.query(`UPDATE config_changes SET created_at = now() - interval '8 days' WHERE summary = 'v: 3 -> 4'`);
      await db.query(
        `UPDATE config_items SET deleted_at = now() - interval '2 days' WHERE scraper_id = $1 AND name = 'b.json'`,
        [id],
      );
      const out = await applyAllRetention(db);
      expect(out.removed).toBe(1);
      const left = await changes(id);
      // 3 -> 4 went for its age; of the rest the newest two stay
      expect(left.filter((c: any) => c.change_type === 'diff').map((c: any) => c.summary)).toEqual([
        'v: 2 -> 3',
        'v: 4 -> 5',
      ]);
      expect((await items(id)).map((r: any) => r.name)).toEqual(['a.json']);
    }, 120_000);
  });
}
