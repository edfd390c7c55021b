/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { callers, peer } from './support.ts';

/**
 * POST /api/logs over a real app and database: file backends over files this test writes, a
 * PostgreSQL table, Loki and OpenSearch as local HTTP servers speaking their documented answers,
 * an unreachable backend, bad input, path escapes and roles.
 */
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

for (const driver of testDrivers()) {
  describe(`log search (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let call: Awaited<ReturnType<typeof callers>>;
    let tmp: string;
    const now = Date.now();
    const component: Record<string, string> = {};

    const addComponent = async (name: string, logs: unknown[], labels: Record<string, string> = {}) => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO components (name, type, labels, logs) VALUES ($1, 'Service', $2, $3) RETURNING id`,
        [name, JSON.stringify(labels), JSON.stringify(logs)],
      );
      component[name] = rows[0].id;
    };
    const addBackend = async (name: string, spec: unknown) => {
      const r = await call('editor', 'POST', '/api/db/logging_backends', { name, spec });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    const search = (body: Record<string, unknown>, who = 'viewer') => call(who, 'POST', '/api/logs', body);

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'watchdeck-logs-'));
      const logs = join(tmp, 'data', 'logs');
      mkdirSync(join(logs, 'orders'), { recursive: true });
      mkdirSync(join(logs, 'payments'), { recursive: true });
      mkdirSync(join(tmp, 'outside'), { recursive: true });
      // text lines with ISO times, oldest first as a log is written; one continuation line without a time
      const orders: string[] = [];
      for (let i = 0; i < 30; i++)
        orders.push(`${iso(now - (30 - i) * MIN)} INFO order ${i} ${i % 10 === 0 ? 'timeout talking to db' : 'ok'}`);
      orders.splice(25, 0, '    at retry (db.js:12)');
      writeFileSync(join(logs, 'orders', 'app.log'), orders.join('\n') + '\n');
      // pino JSON lines
      writeFileSync(
        join(logs, 'payments', 'app.log'),
        [0, 1, 2]
          .map((i) =>
            JSON.stringify({ level: i === 2 ? 50 : 30, time: now - (5 - i) * MIN + 30_000, msg: `payment ${i}` }),
          )
          .join('\n') + '\n',
      );
      writeFileSync(join(tmp, 'outside', 'secret.log'), `${iso(now - MIN)} the secret\n`);
      symlinkSync(join(tmp, 'outside', 'secret.log'), join(logs, 'orders', 'sneaky.log'));

      db = await driver.open();
      ({ app } = await startApp(db, { dataDir: join(tmp, 'data'), logRoots: [] }).then(async (s) => {
        call = await callers(db, s.url, { admin: 'admin', editor: 'editor', viewer: 'viewer' });
        return s;
      }));
      await addBackend('app-logs', { file: { paths: ['{app}/*.log'], labels: { source: 'file' } } });
      await addComponent('orders', [{ name: 'app-logs', type: 'file', labels: { app: 'orders' } }]);
      await addComponent('everything', [
        { name: 'app-logs', type: 'file' },
        { name: 'loki', type: 'loki' },
      ]);
      await addComponent('no-logs', []);
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('refuses log backend specs that are not one valid backend', async () => {
      const none = await call('editor', 'POST', '/api/db/logging_backends', { name: 'x', spec: {} });
      expect(none.status).toBe(400);
      expect(none.body.message).toMatch(/exactly one of file, postgres, loki, elasticsearch, opensearch/);
      const two = await call('editor', 'POST', '/api/db/logging_backends', {
        name: 'x',
        spec: { loki: { url: 'http://127.0.0.1:3100' }, file: { paths: ['a.log'] } },
      });
      expect(two.status).toBe(400);
      const badUrl = await call('editor', 'POST', '/api/db/logging_backends', {
        name: 'x',
        spec: { loki: { url: 'file:///etc/passwd' } },
      });
      expect(badUrl.status).toBe(400);
      expect(badUrl.body.message).toBe('spec.loki.url: url must be an http(s) URL');
    });

    it('searches a file newest first, with timestamps, labels from the path, text and paging', async () => {
      const all = await search({ id: component.orders, start: '2h' });
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      // 30 timed lines and the continuation line; the symlink out of the root is not read
      expect(all.body.total).toBe(31);
      expect(all.body.totalRelation).toBe('eq');
      expect(all.body.results[0]).toEqual({
        timestamp: iso(now - MIN),
        message: 'INFO order 29 ok',
        labels: { source: 'file', app: 'orders' },
      });
      expect(all.body.results.some((l: any) => l.message.includes('the secret'))).toBe(false);
      const times = all.body.results.map((l: any) => Date.parse(l.timestamp));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      // the continuation line takes the time of the entry after it
      const cont = all.body.results.find((l: any) => l.message.includes('at retry'));
      expect(cont.timestamp).toBe(iso(now - 5 * MIN));

      const text = await search({ id: component.orders, start: '2h', query: 'TIMEOUT' });
      expect(text.body.results.map((l: any) => l.message)).toEqual([
        'INFO order 20 timeout talking to db',
        'INFO order 10 timeout talking to db',
        'INFO order 0 timeout talking to db',
      ]);
      expect(text.body.total).toBe(3);

      // pages of 7 cover every line once, in order
      const seen: string[] = [];
      let page: string | undefined;
      for (let i = 0; i < 10; i++) {
        const r = await search({ id: component.orders, start: '2h', limit: 7, ...(page ? { page } : {}) });
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(31);
        seen.push(...r.body.results.map((l: any) => l.message));
        page = r.body.next;
        if (!page) break;
      }
      expect(seen).toEqual(all.body.results.map((l: any) => l.message));

      // the range: the last 10 minutes, and an end
      const recent = await search({ id: component.orders, start: 'now-10m' });
      expect(recent.body.results.length).toBe(10);
      const ended = await search({ id: component.orders, start: iso(now - 40 * MIN), end: iso(now - 28.5 * MIN) });
      expect(ended.body.results.map((l: any) => l.message.split(' ')[2])).toEqual(['1', '0']);
    });

    it('merges several files by time and reads JSON lines', async () => {
      const r = await search({ id: component.everything, name: 'app-logs', start: '6m' });
      expect(r.status).toBe(200);
      const top = r.body.results.slice(0, 4).map((l: any) => [l.message, l.labels.app, l.labels.level]);
      expect(top).toEqual([
        ['INFO order 29 ok', 'orders', undefined],
        ['INFO order 28 ok', 'orders', undefined],
        ['payment 2', 'payments', 'error'],
        ['INFO order 27 ok', 'orders', undefined],
      ]);
    });

    it('refuses paths outside the log roots', async () => {
      await addBackend('shadow', { file: { paths: ['/etc/shadow'] } });
      await addBackend('escape', { file: { paths: ['../../outside/*.log'] } });
      await addBackend('everywhere', { file: { paths: ['/**/*.log'] } });
      await addComponent('attacker', [
        { name: 'shadow', type: 'file' },
        { name: 'escape', type: 'file' },
        { name: 'everywhere', type: 'file' },
      ]);
      const shadow = await search({ id: component.attacker, name: 'shadow' });
      expect(shadow.status).toBe(403);
      expect(shadow.body.message).toMatch(/^log path \/etc\/shadow is outside the log roots/);
      const escape = await search({ id: component.attacker, name: 'escape' });
      expect(escape.status).toBe(400);
      expect(escape.body.message).toMatch(/has a '\.\.' segment/);
      const everywhere = await search({ id: component.attacker, name: 'everywhere' });
      expect(everywhere.status).toBe(403);
    });

    it('searches Loki through query_range', async () => {
      const loki = await peer(({ path }) =>
        path === '/loki/api/v1/query_range'
          ? {
              body: {
                status: 'success',
                data: {
                  resultType: 'streams',
                  result: [
                    {
                      stream: { app: 'orders', level: 'info' },
                      values: [[`${BigInt(now - MIN) * 1_000_000n}`, 'orders line']],
                    },
                    {
                      stream: { app: 'payments' },
                      values: [
                        [`${BigInt(now - 30_000) * 1_000_000n + 5n}`, 'payments newest'],
                        [`${BigInt(now - 3 * MIN) * 1_000_000n}`, 'payments older'],
                      ],
                    },
                  ],
                  stats: {},
                },
              },
            }
          : { status: 404, body: '404 page not found' },
      );
      try {
        await addBackend('loki', { loki: { url: loki.url, query: '{cluster="prod"}', username: 'u', password: 'p' } });
        const r = await search({ id: component.everything, name: 'loki', query: 'a"b', limit: 3 });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.results).toEqual([
          { timestamp: iso(now - 30_000), message: 'payments newest', labels: { app: 'payments' } },
          { timestamp: iso(now - MIN), message: 'orders line', labels: { app: 'orders', level: 'info' } },
          { timestamp: iso(now - 3 * MIN), message: 'payments older', labels: { app: 'payments' } },
        ]);
        expect(r.body.next).toBeTruthy();
        const q = loki.seen[0].query;
        expect(q.get('query')).toBe('{cluster="prod"} |~ "(?i)a\\"b"');
        expect(q.get('direction')).toBe('backward');
        expect(q.get('limit')).toBe('3');
        expect(BigInt(q.get('end')!) - BigInt(q.get('start')!)).toBeGreaterThan(3_500_000_000_000n);
        // the next page ends just before the oldest line of this one
        await search({ id: component.everything, name: 'loki', query: 'a"b', limit: 3, page: r.body.next });
        expect(loki.seen[1].query.get('end')).toBe(`${BigInt(now - 3 * MIN) * 1_000_000n - 1n}`);
      } finally {
        await loki.close();
      }
    });

    it('searches OpenSearch through _search', async () => {
      const os = await peer(({ path }) =>
        path === '/logs-app/_search'
          ? {
              body: {
                took: 3,
                timed_out: false,
                hits: {
                  total: { value: 42, relation: 'eq' },
                  max_score: null,
                  hits: [
                    {
                      _index: 'logs-app',
                      _id: '1',
                      _source: { '@timestamp': iso(now - MIN), message: 'opened', kubernetes: { pod: 'orders-1' } },
                      sort: [now - MIN],
                    },
                    {
                      _index: 'logs-app',
                      _id: '2',
                      _source: { '@timestamp': iso(now - 2 * MIN), message: 'closed', level: 'warn' },
                      sort: [now - 2 * MIN],
                    },
                  ],
                },
              },
            }
          : { status: 404, body: { error: 'no such index' } },
      );
      try {
        await addBackend('search', { opensearch: { address: os.url, index: 'logs-app' } });
        await addComponent('searched', [{ name: 'search', type: 'opensearch' }]);
        const r = await search({ id: component.searched, query: 'open', limit: 2 });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body).toEqual({
          total: 42,
          totalRelation: 'eq',
          results: [
            { timestamp: iso(now - MIN), message: 'opened', labels: { 'kubernetes.pod': 'orders-1' } },
            { timestamp: iso(now - 2 * MIN), message: 'closed', labels: { level: 'warn' } },
          ],
          next: expect.any(String),
        });
        const body = os.seen[0].body;
        expect(body.size).toBe(2);
        expect(body.sort).toEqual([{ '@timestamp': { order: 'desc' } }]);
        expect(body.query.bool.must).toEqual([{ match_phrase: { message: 'open' } }]);
        expect(body.query.bool.filter[0].range['@timestamp'].gte).toMatch(/^\d{4}-/);
        await search({ id: component.searched, query: 'open', limit: 2, page: r.body.next });
        expect(os.seen[1].body.search_after).toEqual([now - 2 * MIN]);
      } finally {
        await os.close();
      }
    });

    it('answers 502 naming the backend when it cannot be reached or fails', async () => {
      // a port nothing listens on: one the system gave out and took back
      const closed = await peer(() => ({ body: {} }));
      await closed.close();
      await addBackend('down', { loki: { url: closed.url } });
      const failing = await peer(() => ({ status: 500, body: 'parse error at line 1, col 5' }));
      try {
        await addBackend('broken', { elasticsearch: { address: failing.url } });
        await addComponent('unlucky', [
          { name: 'down', type: 'loki' },
          { name: 'broken', type: 'elasticsearch' },
        ]);
        const down = await search({ id: component.unlucky, name: 'down' });
        expect(down.status).toBe(502);
        expect(down.body.code).toBe('log_backend_unavailable');
        expect(down.body.message).toMatch(
          /^Log backend down: Loki at http:\/\/127\.0\.0\.1:\d+\/loki\/api\/v1\/query_range cannot be reached: .*ECONNREFUSED/,
        );
        const broken = await search({ id: component.unlucky, name: 'broken' });
        expect(broken.status).toBe(502);
        expect(broken.body.message).toMatch(/^Log backend broken: Elasticsearch at .* answered 500: parse error/);
      } finally {
        await failing.close();
      }
    });

    it('searches a PostgreSQL table through a connection', async () => {
      const adminUrl = process.env.TEST_DATABASE_URL;
      if (!adminUrl) return; // a PostgreSQL server to hold the table is needed; CI sets TEST_DATABASE_URL
      const table = `app_logs_${randomBytes(4).toString('hex')}`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE TABLE ${table} (ts timestamptz, line text, pod text, level text)`);
        for (let i = 0; i < 5; i++)
          await client.query(`INSERT INTO ${table} VALUES ($1, $2, $3, $4)`, [
            new Date(now - (5 - i) * MIN),
            `row ${i}${i === 3 ? ' 100%_done' : ''}`,
            `pod-${i % 2}`,
            i === 4 ? 'error' : 'info',
          ]);
        const conn = await call('admin', 'POST', '/api/db/connections', {
          name: 'log-db',
          type: 'postgres',
          url: adminUrl,
          // the test server trusts local connections: the password is not checked
          username: new URL(adminUrl).username || 'postgres',
          password: 'unused',
        });
        expect(conn.status, JSON.stringify(conn.body)).toBe(201);
        await addBackend('pg-logs', {
          postgres: {
            connection: 'log-db',
            table,
            columns: { timestamp: 'ts', message: 'line', labels: ['pod', 'level'] },
          },
        });
        await addBackend('pg-query', {
          postgres: {
            connection: 'log-db',
            query: `SELECT ts, line AS message FROM ${table} WHERE level = 'info'`,
            columns: { timestamp: 'ts' },
          },
        });
        await addComponent('tabled', [
          { name: 'pg-logs', type: 'postgres' },
          { name: 'pg-query', type: 'postgres' },
          { name: 'pg-logs-pod1', type: 'postgres' },
        ]);
        const r = await search({ id: component.tabled, limit: 2 });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.total).toBe(5);
        expect(r.body.results).toEqual([
          { timestamp: iso(now - MIN), message: 'row 4', labels: { pod: 'pod-0', level: 'error' } },
          { timestamp: iso(now - 2 * MIN), message: 'row 3 100%_done', labels: { pod: 'pod-1', level: 'info' } },
        ]);
        const second = await search({ id: component.tabled, limit: 2, page: r.body.next });
        expect(second.body.results.map((l: any) => l.message)).toEqual(['row 2', 'row 1']);
        // LIKE wildcards in the text are literal
        const literal = await search({ id: component.tabled, query: '%_d' });
        expect(literal.body.results.map((l: any) => l.message)).toEqual(['row 3 100%_done']);
        const viaQuery = await search({ id: component.tabled, name: 'pg-query' });
        expect(viaQuery.body.total).toBe(4);
        // the session is read-only: a query that writes fails as the backend's error
        await addBackend('pg-writer', {
          postgres: {
            connection: 'log-db',
            query: `WITH x AS (DELETE FROM ${table} RETURNING *) SELECT ts AS timestamp, line AS message FROM x`,
          },
        });
        await addComponent('writer', [{ name: 'pg-writer', type: 'postgres' }]);
        const writer = await search({ id: component.writer });
        expect(writer.status).toBe(502);
        expect(writer.body.message).toMatch(
          /refused the log query: (.*read-only transaction|WITH clause containing a data-modifying statement)/,
        );
        expect((await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n).toBe(5);
      } finally {
        await client.query(`DROP TABLE IF EXISTS ${table}`);
        await client.end();
      }
    });

    it('refuses bad input with 400 and unknown components or sources with 404', async () => {
      expect((await search({})).status).toBe(400);
      const notUuid = await search({ id: 'nope' });
      expect(notUuid.status).toBe(400);
      expect(notUuid.body.message).toBe('id must be a component id');
      const big = await search({ id: component.orders, limit: 5000 });
      expect(big.status).toBe(400);
      expect(big.body.message).toBe('limit must be at most 1000');
      const when = await search({ id: component.orders, start: 'yesterday-ish' });
      expect(when.status).toBe(400);
      expect((await search({ id: component.orders, start: '1h', end: '2h' })).status).toBe(400);
      expect((await search({ id: component.orders, page: 'garbage' })).status).toBe(400);
      expect((await search({ id: component.orders, extra: 1 })).status).toBe(400);
      expect((await search('{"id":' as any)).status).toBe(400);
      const missing = await search({ id: '00000000-0000-0000-0000-0000000000aa' });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Component not found');
      const noLogs = await search({ id: component['no-logs'] });
      expect(noLogs.status).toBe(404);
      const noSource = await search({ id: component.orders, name: 'kubernetes' });
      expect(noSource.status).toBe(404);
      expect(noSource.body.message).toBe('orders has no log source kubernetes; its sources: app-logs');
    });

    it('lets every role read logs but nobody without a session', async () => {
      for (const who of ['admin', 'editor', 'viewer'])
        expect((await search({ id: component.orders }, who)).status).toBe(200);
      expect((await search({ id: component.orders }, 'nobody')).status).toBe(401);
    });
  });
}
