/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { callers } from './support.ts';

/**
 * Kubernetes pod logs: an API server stand-in over TLS speaking the documented pod list and pod log
 * endpoints (`GET /api/v1/namespaces/{ns}/pods?labelSelector=`, `.../pods/{name}/log?timestamps=true`),
 * reached through a kubernetes connection's kubeconfig.
 */
const TOKEN = 'k8s-logs-token';

async function standIn(now: number) {
  const requests: URL[] = [];
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    notBeforeDate: new Date(now - 86_400_000),
    notAfterDate: new Date(now + 86_400_000),
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const ts = (ago: number) => new Date(now - ago).toISOString().replace('Z', '123456Z');
  const logs: Record<string, string> = {
    'orders-1/app': `${ts(60_000)} GET /orders 200\n${ts(20_000)} GET /orders 500 timeout\n`,
    'orders-1/proxy': `${ts(40_000)} proxy ok\n`,
    'orders-2/app': `${ts(30_000)} GET /orders 200\n${ts(7_200_000)} too old\n`,
    // the billing Deployment's pod (through its ReplicaSet), with a crashed earlier instance
    'billing-7f-a/app': `${ts(10_000)} charged order 42\n`,
    'billing-7f-a/app/previous': `${ts(300_000)} panic: nil map\n`,
    'billing-7f-a/proxy': `${ts(15_000)} proxy up\n`,
    // a canary Deployment's pod: same labels, another owner
    'billing-canary-5-x/app': `${ts(12_000)} canary line\n`,
  };
  const owner = (kind: string, name: string, uid: string) => [{ apiVersion: 'v1', kind, name, uid, controller: true }];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(url);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ kind: 'Status', status: 'Failure', message: 'Unauthorized', code: 401 }));
    }
    if (url.pathname === '/api/v1/namespaces/shop/pods') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pod = (name: string, containers: string[]) => ({
        metadata: { name, namespace: 'shop', labels: { app: 'orders' } },
        spec: { containers: containers.map((c) => ({ name: c, image: 'x' })) },
      });
      const billing = [
        {
          metadata: {
            name: 'billing-7f-a',
            namespace: 'shop',
            labels: { app: 'billing' },
            ownerReferences: owner('ReplicaSet', 'billing-7f', 'rs-1'),
          },
          spec: { containers: [{ name: 'app' }, { name: 'proxy' }] },
          status: {
            containerStatuses: [
              { name: 'app', restartCount: 3 },
              { name: 'proxy', restartCount: 0 },
            ],
          },
        },
        {
          metadata: {
            name: 'billing-canary-5-x',
            namespace: 'shop',
            labels: { app: 'billing' },
            ownerReferences: owner('ReplicaSet', 'billing-canary-5', 'rs-2'),
          },
          spec: { containers: [{ name: 'app' }] },
        },
      ];
      const selector = url.searchParams.get('labelSelector');
      const items =
        selector === 'app=orders'
          ? [pod('orders-1', ['app', 'proxy']), pod('orders-2', ['app'])]
          : selector === 'app=billing'
            ? billing
            : [];
      return res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items }));
    }
    if (url.pathname === '/apis/apps/v1/namespaces/shop/replicasets') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const rs = (name: string, uid: string, deployment: string, deploymentUid: string) => ({
        metadata: { name, uid, namespace: 'shop', ownerReferences: owner('Deployment', deployment, deploymentUid) },
      });
      const items =
        url.searchParams.get('labelSelector') === 'app=billing'
          ? [rs('billing-7f', 'rs-1', 'billing', 'dep-1'), rs('billing-canary-5', 'rs-2', 'billing-canary', 'dep-2')]
          : [];
      return res.end(JSON.stringify({ kind: 'ReplicaSetList', apiVersion: 'apps/v1', metadata: {}, items }));
    }
    const m = /^\/api\/v1\/namespaces\/shop\/pods\/([^/]+)\/log$/.exec(url.pathname);
    const previous = url.searchParams.get('previous') === 'true' ? '/previous' : '';
    const text = m && logs[`${m[1]}/${url.searchParams.get('container')}${previous}`];
    if (text !== undefined && text !== null) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(text);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', status: 'Failure', message: `no ${url.pathname}`, code: 404 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = (token: string) => `apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: ${url}
    certificate-authority-data: ${Buffer.from(pems.cert).toString('base64')}
users:
- name: reader
  user:
    token: ${token}
contexts:
- name: test
  context: {cluster: test, user: reader}
current-context: test
`;
  return { requests, kubeconfig, close: () => new Promise<void>((r) => server.close(() => r())) };
}

for (const driver of testDrivers()) {
  describe(`kubernetes pod logs (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let call: Awaited<ReturnType<typeof callers>>;
    let api: Awaited<ReturnType<typeof standIn>>;
    const now = Date.now();
    let componentId: string;
    let billingId: string;

    beforeAll(async () => {
      api = await standIn(now);
      db = await driver.open();
      const s = await startApp(db, {});
      app = s.app;
      call = await callers(db, s.url, { admin: 'admin', editor: 'editor', viewer: 'viewer' });
      for (const [name, token] of [
        ['prod-cluster', TOKEN],
        ['wrong-cluster', 'nope'],
      ])
        expect(
          (
            await call('admin', 'POST', '/api/db/connections', {
              name,
              type: 'kubernetes',
              certificate: api.kubeconfig(token),
            })
          ).status,
        ).toBe(201);
      for (const [name, connection] of [
        ['kubernetes', 'prod-cluster'],
        ['kubernetes-wrong', 'wrong-cluster'],
      ])
        expect(
          (await call('editor', 'POST', '/api/db/logging_backends', { name, spec: { kubernetes: { connection } } }))
            .status,
        ).toBe(201);
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO components (name, type, labels, logs) VALUES ('orders', 'Service', $1, $2) RETURNING id`,
        [
          JSON.stringify({ namespace: 'shop', app: 'orders' }),
          JSON.stringify([
            { name: 'kubernetes', type: 'kubernetes' },
            { name: 'kubernetes-wrong', type: 'kubernetes' },
          ]),
        ],
      );
      componentId = rows[0].id;
      // a component made from the catalog's billing Deployment (as a topology lookup links it),
      // with neither an app label nor a name its pods carry
      const item = await db.query<{ id: string }>(
        `INSERT INTO config_items (type, config_class, name, tags, config) VALUES ('Kubernetes::Deployment', 'Deployment', 'billing', $1, $2) RETURNING id`,
        [
          JSON.stringify({ namespace: 'shop', cluster: 'prod' }),
          JSON.stringify({
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'billing', namespace: 'shop', uid: 'dep-1' },
            spec: { selector: { matchLabels: { app: 'billing' } } },
          }),
        ],
      );
      const billing = await db.query<{ id: string }>(
        `INSERT INTO components (name, type, labels, logs) VALUES ('Billing service', 'Service', '{}', $1) RETURNING id`,
        [JSON.stringify([{ name: 'kubernetes', type: 'kubernetes' }])],
      );
      billingId = billing.rows[0].id;
      await db.query(
        `INSERT INTO config_component_relationships (component_id, config_id, selector_id) VALUES ($1, $2, 'topology')`,
        [billingId, item.rows[0].id],
      );
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      await api?.close();
    });

    it("reads the component's pods' containers, merged newest first, with pod labels", async () => {
      const r = await call('viewer', 'POST', '/api/logs', { id: componentId, start: '1h' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.total).toBe(4);
      expect(r.body.results.map((l: any) => [l.message, l.labels.pod, l.labels.container])).toEqual([
        ['GET /orders 500 timeout', 'orders-1', 'app'],
        ['GET /orders 200', 'orders-2', 'app'],
        ['proxy ok', 'orders-1', 'proxy'],
        ['GET /orders 200', 'orders-1', 'app'],
      ]);
      expect(r.body.results[0].timestamp).toBe(new Date(now - 20_000).toISOString());
      const logCall = api.requests.find((u) => u.pathname.endsWith('/log'))!;
      expect(logCall.searchParams.get('timestamps')).toBe('true');
      expect(Number(logCall.searchParams.get('sinceSeconds'))).toBeGreaterThanOrEqual(3600);

      const text = await call('viewer', 'POST', '/api/logs', { id: componentId, start: '1h', query: 'TIMEOUT' });
      expect(text.body.results.map((l: any) => l.message)).toEqual(['GET /orders 500 timeout']);
      const paged = await call('viewer', 'POST', '/api/logs', { id: componentId, start: '1h', limit: 3 });
      const rest = await call('viewer', 'POST', '/api/logs', {
        id: componentId,
        start: '1h',
        limit: 3,
        page: paged.body.next,
      });
      expect(rest.body.results.map((l: any) => l.labels.pod)).toEqual(['orders-1']);
      expect(rest.body.next).toBeUndefined();
    });

    it("follows the component's linked catalog workload: the pods it owns, not others with its labels", async () => {
      const r = await call('viewer', 'POST', '/api/logs', { id: billingId, start: '1h' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.results.map((l: any) => [l.message, l.labels.pod, l.labels.container])).toEqual([
        ['charged order 42', 'billing-7f-a', 'app'],
        ['proxy up', 'billing-7f-a', 'proxy'],
      ]);
      // the Deployment's ReplicaSets, listed with its selector, lead to its pods
      const rsCall = api.requests.find((u) => u.pathname.endsWith('/replicasets'))!;
      expect(rsCall.searchParams.get('labelSelector')).toBe('app=billing');
      expect(api.requests.some((u) => u.pathname.endsWith('/billing-canary-5-x/log'))).toBe(false);
    });

    it('reads the previous instance of the containers that restarted when asked', async () => {
      const r = await call('viewer', 'POST', '/api/logs', { id: billingId, start: '1h', previous: true });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.results).toEqual([
        {
          timestamp: new Date(now - 300_000).toISOString(),
          message: 'panic: nil map',
          labels: { namespace: 'shop', pod: 'billing-7f-a', container: 'app', previous: 'true' },
        },
      ]);
      const logCalls = api.requests.filter((u) => u.pathname.endsWith('/log') && u.searchParams.get('previous'));
      expect(logCalls.map((u) => [u.pathname.split('/')[6], u.searchParams.get('container')])).toEqual([
        ['billing-7f-a', 'app'],
      ]);
      const bad = await call('viewer', 'POST', '/api/logs', { id: billingId, previous: 'yes' });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('previous must be true or false');
    });

    it("answers 502 with the API server's reason when it refuses", async () => {
      const r = await call('viewer', 'POST', '/api/logs', { id: componentId, name: 'kubernetes-wrong' });
      expect(r.status).toBe(502);
      expect(r.body.message).toMatch(
        /^Log backend kubernetes-wrong: Kubernetes at https:\/\/127\.0\.0\.1:\d+ did not list the pods \(shop, app=orders\): 401 Unauthorized$/,
      );
    });
  });
}
