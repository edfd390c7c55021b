/**
 * Resources as code with the real kubectl: a signed-in person downloads the kubeconfig
 * (GET /api/kubeconfig) and drives the console with it: api-resources, apply of a directory
 * (create, then one change: one update), get with a label selector, diff, server-side apply, a
 * stale replace refused with a conflict, delete; a viewer's kubeconfig may read but not apply.
 * The objects are the rows the UI shows (source kubectl); a connection's secret never comes back
 * in clear.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:https';
import YAML from 'yaml';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Browser } from '../auth/support.ts';
import { kubectlWith, selfSignedCert, signedIn, tlsFront, type Kubectl } from './support.ts';

const canary = (name: string, schedule: string, team = 'ops') => `apiVersion: watchdeck.io/v1
kind: Canary
metadata:
  name: ${name}
  labels:
    team: ${team}
spec:
  schedule: "${schedule}"
  http:
    - name: ${name}-home
      url: https://example.invalid/${name}
`;

const connection = `apiVersion: watchdeck.io/v1
kind: Connection
metadata:
  name: api-gateway
spec:
  type: http
  url: https://gateway.example.invalid
  username: deploy
  password:
    valueFrom:
      secretKeyRef:
        name: gateway
        key: password
`;

for (const driver of testDrivers()) {
  describe(`kubectl against the console (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    let front: Server;
    let admin: Browser;
    let kubectl: Kubectl;
    let certPath: string;
    let repo: string;

    beforeAll(async () => {
      db = await driver.open();
      const tls = await selfSignedCert(mkdtempSync(join(tmpdir(), 'watchdeck-tls-')));
      certPath = tls.certPath;
      let appUrl = '';
      const f = await tlsFront(tls, () => appUrl);
      front = f.server;
      app = await startApp(db, { role: 'api', publicUrl: f.url });
      appUrl = app.url;
      admin = await signedIn(db, app.url, 'admin');
      const download = await admin.get('/api/kubeconfig');
      expect(download.status).toBe(200);
      kubectl = kubectlWith(download.body as string, certPath);
      repo = join(kubectl.dir, 'repo');
      mkdirSync(join(repo, 'canaries'), { recursive: true });
      writeFileSync(join(repo, 'canaries', 'web.yaml'), canary('web', '@every 5m'));
      writeFileSync(join(repo, 'canaries', 'api.yaml'), canary('api', '@every 5m', 'platform'));
      writeFileSync(join(repo, 'connection.yaml'), connection);
    }, 60_000);
    afterAll(async () => {
      front?.close();
      await app?.app.close();
      await db?.dispose();
    });

    it('downloads a kubeconfig for the signed-in person: the console URL, a new token listed on the profile', async () => {
      const r = await admin.get('/api/kubeconfig');
      expect(r.headers.get('content-disposition')).toBe('attachment; filename="watchdeck-kubeconfig.yaml"');
      const doc = YAML.parse(r.body as string);
      expect(doc['current-context']).toBe('watchdeck');
      expect(doc.clusters[0].cluster.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/k8s$/);
      expect(doc.users[0].user.token).toMatch(/^wdpat_/);
      const tokens = await admin.get('/api/auth/tokens');
      expect(tokens.body.filter((t: { name: string }) => t.name.startsWith('kubeconfig download')).length).toBe(2);
      expect(tokens.body[0].role).toBe('admin');
    });

    it('lists the kinds with their short names (kubectl api-resources)', async () => {
      const r = await kubectl('api-resources', '--api-group=watchdeck.io', '-o', 'wide');
      expect(r.stderr).toBe('');
      for (const plural of [
        'canaries',
        'scrapeconfigs',
        'topologies',
        'playbooks',
        'notifications',
        'notificationsilences',
        'connections',
        'incidentrules',
        'teams',
        'loggingbackends',
      ])
        expect(r.stdout).toMatch(new RegExp(`^${plural}\\s`, 'm'));
      expect(r.stdout).toMatch(/^incidentrules\s+ir\s+watchdeck\.io\/v1\s+false\s+IncidentRule/m);
    });

    it('applies a directory: creates, then one change is one update', async () => {
      const first = await kubectl('apply', '-R', '-f', repo);
      expect(first.stderr).toBe('');
      expect(first.stdout.trim().split('\n').sort()).toEqual([
        'canary.watchdeck.io/api created',
        'canary.watchdeck.io/web created',
        'connection.watchdeck.io/api-gateway created',
      ]);
      // the rows the UI shows, from kubectl
      const rows = await db.query<{ name: string; source: string }>(
        `SELECT name, source FROM canaries WHERE deleted_at IS NULL AND name IN ('web', 'api') ORDER BY name`,
      );
      expect(rows.rows).toEqual([
        { name: 'api', source: 'kubectl' },
        { name: 'web', source: 'kubectl' },
      ]);

      writeFileSync(join(repo, 'canaries', 'web.yaml'), canary('web', '@every 10m'));
      const again = await kubectl('apply', '-R', '-f', repo);
      expect(again.stdout.trim().split('\n').sort()).toEqual([
        'canary.watchdeck.io/api unchanged',
        'canary.watchdeck.io/web configured',
        'connection.watchdeck.io/api-gateway unchanged',
      ]);
      const web = await db.query<{ spec: { schedule: string } }>(
        `SELECT spec FROM canaries WHERE name = 'web' AND deleted_at IS NULL`,
      );
      expect(web.rows[0].spec.schedule).toBe('@every 10m');
    });

    it('gets with a label selector and shows the object as applied', async () => {
      const r = await kubectl('get', 'canaries', '-l', 'team=ops', '-o', 'json');
      const list = JSON.parse(r.stdout);
      expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['web']);
      expect(list.items[0].spec.http[0].url).toBe('https://example.invalid/web');
      // the table kubectl prints: the server's columns
      const printed = await kubectl('get', 'canaries', '-l', 'team=ops');
      expect(printed.stdout).toMatch(/^NAME\s+SOURCE\s+AGE\n/);
      expect(printed.stdout).toMatch(/^web\s+kubectl\s+\d+s\n/m);
      const names = await kubectl('get', 'canaries', '-l', 'team in (ops,platform)', '-o', 'name');
      expect(names.stdout.trim().split('\n')).toEqual(['canary.watchdeck.io/api', 'canary.watchdeck.io/web']);
    });

    it("never returns a connection's secret in clear; a reference comes back as valueFrom", async () => {
      const r = await kubectl('get', 'connection', 'api-gateway', '-o', 'json');
      const c = JSON.parse(r.stdout);
      expect(c.spec.password).toEqual({ valueFrom: { secretKeyRef: { name: 'gateway', key: 'password' } } });
      expect(c.spec.username).toBe('deploy');
      // a literal secret is stored encrypted and shown masked
      const withLiteral = connection.replace(/password:\n(.*\n){4}/, 'password: s3cret-value\n');
      writeFileSync(join(repo, 'connection.yaml'), withLiteral);
      expect((await kubectl('apply', '-f', join(repo, 'connection.yaml'))).stdout).toContain('configured');
      const shown = await kubectl('get', 'connection', 'api-gateway', '-o', 'yaml');
      expect(shown.stdout).not.toContain('s3cret-value');
      expect(YAML.parse(shown.stdout).spec.password).toBe('********');
      const stored = await db.query<{ password: string }>(
        `SELECT password FROM connections WHERE name = 'api-gateway'`,
      );
      expect(stored.rows[0].password).toMatch(/^enc:v1:/);
    });

    it('diffs a local change against the server without writing it', async () => {
      writeFileSync(join(repo, 'canaries', 'api.yaml'), canary('api', '@every 15m', 'platform'));
      const r = await kubectl('diff', '-f', join(repo, 'canaries'));
      expect(r.code).toBe(1); // kubectl diff: 1 means differences found
      expect(r.stdout).toContain("-  schedule: '@every 5m'");
      expect(r.stdout).toContain("+  schedule: '@every 15m'");
      const api = await db.query<{ spec: { schedule: string } }>(
        `SELECT spec FROM canaries WHERE name = 'api' AND deleted_at IS NULL`,
      );
      expect(api.rows[0].spec.schedule).toBe('@every 5m');
    });

    it('applies server-side, recording the field manager', async () => {
      const r = await kubectl('apply', '--server-side', '-f', join(repo, 'canaries', 'api.yaml'));
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('canary.watchdeck.io/api serverside-applied');
      const obj = JSON.parse((await kubectl('get', 'canary', 'api', '-o', 'json')).stdout);
      expect(obj.spec.schedule).toBe('@every 15m');
      // (newer kubectl hides managedFields unless asked; older has no flag to ask)
      const meta = await db.query<{ managed_fields: unknown[] }>(
        `SELECT managed_fields FROM kube_objects WHERE row_id = $1`,
        [obj.metadata.uid],
      );
      expect(meta.rows[0].managed_fields).toContainEqual(
        expect.objectContaining({ manager: 'kubectl', operation: 'Apply' }),
      );
      // a server-side apply that creates
      writeFileSync(join(repo, 'canaries', 'db.yaml'), canary('db', '@every 5m'));
      const created = await kubectl('apply', '--server-side', '-f', join(repo, 'canaries', 'db.yaml'));
      expect(created.stdout.trim()).toBe('canary.watchdeck.io/db serverside-applied');
    });

    it('refuses a replace of a stale version with a conflict', async () => {
      const old = (await kubectl('get', 'canary', 'web', '-o', 'json')).stdout;
      writeFileSync(join(repo, 'canaries', 'web.yaml'), canary('web', '@every 20m'));
      expect((await kubectl('apply', '-f', join(repo, 'canaries', 'web.yaml'))).stdout).toContain('configured');
      writeFileSync(join(kubectl.dir, 'stale.json'), old);
      const r = await kubectl('replace', '-f', join(kubectl.dir, 'stale.json'));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Error from server (Conflict)');
      expect(r.stderr).toContain('the object has been modified');
    });

    it("lets a viewer's kubeconfig read but refuses its apply with 403", async () => {
      const viewer = await signedIn(db, app.url, 'viewer');
      const download = await viewer.get('/api/kubeconfig');
      expect(download.status).toBe(200);
      const asViewer = kubectlWith(download.body as string, certPath);
      const list = await asViewer('get', 'canaries', '-o', 'name');
      expect(list.stdout).toContain('canary.watchdeck.io/web');
      writeFileSync(join(asViewer.dir, 'new.yaml'), canary('viewer-made', '@every 5m'));
      const r = await asViewer('apply', '-f', join(asViewer.dir, 'new.yaml'));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Error from server (Forbidden)');
      expect(r.stderr).toContain('write access to canaries is required');
      const tokens = await viewer.get('/api/auth/tokens');
      expect(tokens.body[0].role).toBe('viewer');
    });

    it('deletes (a soft delete, as the UI deletes)', async () => {
      const r = await kubectl('delete', '-f', join(repo, 'canaries', 'db.yaml'));
      expect(r.stdout.trim()).toBe('canary.watchdeck.io "db" deleted');
      const gone = await kubectl('get', 'canary', 'db');
      expect(gone.stderr).toContain('NotFound');
      const row = await db.query(`SELECT deleted_at FROM canaries WHERE name = 'db'`);
      expect(row.rows[0].deleted_at).not.toBeNull();
    });

    it('leaves resources made in the UI to the UI', async () => {
      await db.query(`INSERT INTO canaries (name, namespace, spec, source) VALUES ('ui-made', 'default', '{}', 'UI')`);
      const r = await kubectl('delete', 'canary', 'ui-made');
      expect(r.stderr).toContain('Error from server (Conflict)');
      expect(r.stderr).toContain('comes from UI');
    });
  });
}
