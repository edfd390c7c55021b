/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { createConnection, type Api } from '../incidents/support.ts';
import { startListener, type Listener } from '../notifications/support.ts';
import type { Db } from '#server/db/index.ts';
import { callers, insertPlaybook, waitFor, type App } from './support.ts';

/**
 * The webhook's JWT issuer verified through its JWKS (RS256 by the issuer's discovery document,
 * ES256 by a named jwksUri), against a local issuer made here: a good token is accepted; a wrong
 * issuer, audience, an expired token, a bad signature or an algorithm the config does not take is
 * refused with 401. And the playbook events on the bus: an approval (playbook.approval.inserted)
 * and a change of a spec's approval rule (playbook.spec.approval.updated) reach a notification
 * rule, which really sends to a local webhook.
 */
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

function token(alg: 'RS256' | 'ES256', key: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const head = `${b64({ alg, typ: 'JWT', kid })}.${b64(claims)}`;
  const sig =
    alg === 'RS256'
      ? sign('sha256', Buffer.from(head), key)
      : sign('sha256', Buffer.from(head), { key, dsaEncoding: 'ieee-p1363' });
  return `${head}.${sig.toString('base64url')}`;
}

/** An OpenID issuer's discovery document and key set, served on loopback. */
async function startIssuer() {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let base = '';
  let jwksHits = 0;
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration')
      return res.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }));
    if (req.url === '/jwks') {
      jwksHits++;
      return res.end(
        JSON.stringify({
          keys: [
            { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
            { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec-1', use: 'sig' },
          ],
        }),
      );
    }
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    rsa: rsa.privateKey,
    ec: ec.privateKey,
    jwksHits: () => jwksHits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

for (const driver of testDrivers()) {
  describe(`playbook webhook JWKS and playbook events (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: App;
    let url: string;
    let api: Awaited<ReturnType<typeof callers>>;
    let issuer: Awaited<ReturnType<typeof startIssuer>>;
    let peer: Listener;

    beforeAll(async () => {
      issuer = await startIssuer();
      peer = await startListener();
      db = await driver.open();
      ({ app, url } = await startApp(db, { playbookWorkers: 1, secretKey: 'playbook-events-key-0123456789abc' }));
      api = await callers(db, url, { admin: 'admin', approver: 'editor' });
      await app.engines.start();
    }, 300_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      await issuer?.close();
      await peer?.close();
    });

    const post = (path: string, bearer: string) =>
      fetch(`${url}/api/playbook/webhook/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: '{}',
      }).then((r) => r.status);

    it('accepts a JWT of the issuer signed by a key of its JWKS; refuses the wrong ones with 401', async () => {
      await insertPlaybook(db, 'hook-oidc', {
        on: { webhook: { path: 'oidc', authentication: { jwt: { issuer: issuer.base, audience: 'watchdeck' } } } },
        actions: [{ name: 'ok', exec: { script: 'true' } }],
      });
      await insertPlaybook(db, 'hook-jwks', {
        on: {
          webhook: {
            path: 'jwks',
            authentication: { jwt: { issuer: 'https://ci.example', jwksUri: `${issuer.base}/jwks` } },
          },
        },
        actions: [{ name: 'ok', exec: { script: 'true' } }],
      });
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: issuer.base, aud: 'watchdeck', exp: now + 300 };
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

      expect(await post('oidc', token('RS256', issuer.rsa, 'rsa-1', claims))).toBe(201);
      expect(await post('oidc', token('RS256', issuer.rsa, 'rsa-1', { ...claims, iss: 'https://evil.example' }))).toBe(
        401,
      );
      expect(await post('oidc', token('RS256', issuer.rsa, 'rsa-1', { ...claims, aud: 'someone-else' }))).toBe(401);
      expect(await post('oidc', token('RS256', issuer.rsa, 'rsa-1', { ...claims, exp: now - 60 }))).toBe(401);
      // signed by a key the issuer does not publish, under its key id
      expect(await post('oidc', token('RS256', other, 'rsa-1', claims))).toBe(401);
      // a token naming a key the set does not have (fetched again once, then refused)
      expect(await post('oidc', token('RS256', other, 'rsa-unknown', claims))).toBe(401);
      // an HS256 token signed with the public key as secret (key confusion) and an unsigned one
      const head = `${b64({ alg: 'HS256', kid: 'rsa-1' })}.${b64(claims)}`;
      expect(await post('oidc', `${head}.${Buffer.from('x').toString('base64url')}`)).toBe(401);
      expect(await post('oidc', `${b64({ alg: 'none' })}.${b64(claims)}.`)).toBe(401);

      // ES256 through a named jwksUri
      const ci = { iss: 'https://ci.example', exp: now + 300 };
      expect(await post('jwks', token('ES256', issuer.ec, 'ec-1', ci))).toBe(201);
      expect(await post('jwks', token('ES256', issuer.ec, 'ec-1', { ...ci, iss: issuer.base }))).toBe(401);
      const otherEc = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
      expect(await post('jwks', token('ES256', otherEc, 'ec-1', ci))).toBe(401);
      // the key set is kept between calls, not fetched for each
      expect(issuer.jwksHits()).toBeLessThanOrEqual(3);
    });

    it('refuses a jwt config with both a secret and a jwksUri, naming the field', async () => {
      const r = await api.call('admin', 'POST', '/api/db/playbooks', {
        name: 'both',
        title: 'Both',
        spec: {
          on: {
            webhook: {
              path: 'both',
              authentication: { jwt: { issuer: 'x', secret: 's', jwksUri: 'https://x.example/jwks' } },
            },
          },
          actions: [{ name: 'ok', exec: { script: 'true' } }],
        },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('spec.on.webhook.authentication.jwt.jwksUri: give secret or jwksUri, not both');
    });

    it('publishes playbook.approval.inserted and playbook.spec.approval.updated to notification rules', async () => {
      const call: Api = (method, path, body, headers) =>
        api.call('admin', method, path, body, { prefer: 'return=representation', ...headers });
      await createConnection(call, 'generic_webhook', {
        name: 'playbook-hook',
        url: `${peer.url}/playbook-events`,
        requestMethod: 'POST',
        contentType: 'application/json',
        messageKey: 'message',
        titleKey: 'title',
      });
      const rule = await call('POST', '/api/db/notifications', {
        name: 'approvals',
        events: ['playbook.approval.inserted', 'playbook.spec.approval.updated'],
        custom_services: [{ name: 'hook', connection: 'connection://default/playbook-hook' }],
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      const ruleId = rule.body[0].id;

      const approval = { type: 'any', approvers: { people: ['approver@playbooks.test'] } };
      const pb = await insertPlaybook(db, 'guarded', {
        approval,
        actions: [{ name: 'ok', exec: { script: 'true' } }],
      });
      const run = await api.call('admin', 'POST', '/api/playbook/run', { id: pb });
      expect(run.status).toBe(201);
      const approved = await api.call('approver', 'POST', `/api/playbook/run/${run.body.run_id}/approve`);
      expect(approved.status).toBe(200);

      const sent = await waitFor('the approval notification', async () =>
        peer.at('/playbook-events').find((r) => String(r.body?.title).includes('was approved')),
      );
      expect(sent.body?.title).toBe('A run of playbook guarded was approved');
      // the peer has the request before the sender records it as sent
      const rows = await waitFor('the approval send recorded', async () => {
        const { rows } = await db.query<any>(
          `SELECT status, source_event FROM notification_send_history WHERE notification_id = $1`,
          [ruleId],
        );
        return rows.some((r: any) => r.status === 'sent') ? rows : undefined;
      });
      expect(rows).toEqual([{ status: 'sent', source_event: 'playbook.approval.inserted' }]);

      // a person changes who approves: one event; an edit that leaves the approval alone: none
      const spec = { approval: { ...approval, type: 'all' }, actions: [{ name: 'ok', exec: { script: 'true' } }] };
      expect(
        (await api.call('admin', 'PATCH', `/api/db/playbooks?id=eq.${pb}`, { title: 'guarded', spec })).status,
      ).toBe(204);
      expect((await api.call('admin', 'PATCH', `/api/db/playbooks?id=eq.${pb}`, { description: 'same' })).status).toBe(
        204,
      );
      const updated = await waitFor('the approval rule notification', async () =>
        peer.at('/playbook-events').find((r) => String(r.body?.title).includes('approval of playbook')),
      );
      expect(updated.body?.title).toBe('The approval of playbook guarded was updated');
      const events = await waitFor('both rows', async () => {
        const { rows } = await db.query<any>(
          `SELECT source_event FROM notification_send_history WHERE notification_id = $1 ORDER BY created_at`,
          [ruleId],
        );
        return rows.length >= 2 ? rows : undefined;
      });
      expect(events.map((r: any) => r.source_event)).toEqual([
        'playbook.approval.inserted',
        'playbook.spec.approval.updated',
      ]);
    });
  });
}
