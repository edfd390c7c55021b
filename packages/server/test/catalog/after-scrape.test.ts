/* eslint-disable @typescript-eslint/no-explicit-any -- rows are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { afterScrape, analyzeAll } from '#server/catalog/analyzers/index.ts';

const deployment = (name: string, container: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'shop', ...extra },
  spec: { replicas: 1, template: { spec: { containers: [{ name: 'app', ...container }] } } },
});
const safe = {
  image: 'shop/web:1.2.3',
  resources: { limits: { cpu: '500m', memory: '256Mi' } },
  securityContext: { runAsNonRoot: true },
};

/**
 * The post-scrape hook (catalog/analyzers/index.ts) on items written as the engine writes them:
 * insights open while an analyzer finds them and resolve when it no longer does; relationship
 * rules from the scraper's spec link items and unlink them when they stop matching.
 */
for (const driver of testDrivers()) {
  describe(`after a scrape: analyzers and relationship rules (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let scraperId: string;
    const id: Record<string, string> = {};
    const insert = async (name: string, type: string, config: unknown, extra: Record<string, unknown> = {}) => {
      const r = await db.query<{ id: string }>(
        `INSERT INTO config_items (scraper_id, name, type, config_class, config, labels, tags, health)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          scraperId,
          name,
          type,
          type.split('::').pop(),
          JSON.stringify(config),
          JSON.stringify(extra.labels ?? {}),
          JSON.stringify(extra.tags ?? { namespace: 'shop' }),
          extra.health ?? 'healthy',
        ],
      );
      id[name] = r.rows[0].id;
    };
    const run = () => db.transaction((tx) => afterScrape(tx, { scraperId, configIds: Object.values(id) }));
    const insights = async () =>
      (
        await db.query<any>(
          `SELECT ci.name, ca.analyzer, ca.analysis_type, ca.severity, ca.status, ca.message, ca.first_observed, ca.last_observed
           FROM config_analysis ca JOIN config_items ci ON ci.id = ca.config_id ORDER BY ci.name, ca.analyzer, ca.first_observed`,
        )
      ).rows;
    const open = async () =>
      (await insights()).filter((i) => i.status === 'open').map((i) => `${i.name} ${i.analyzer}`);

    beforeAll(async () => {
      db = await driver.open();
      scraperId = (
        await db.query<{ id: string }>(`INSERT INTO config_scrapers (name, spec) VALUES ('k8s', $1) RETURNING id`, [
          JSON.stringify({
            relationships: [
              // a deployment uses the config map named after it
              {
                filter: 'config.type == "Kubernetes::Deployment"',
                type: 'Kubernetes::ConfigMap',
                name: { expr: 'config.name + "-config"' },
                relation: 'uses',
              },
              // services are parents of deployments carrying their app label
              {
                filter: 'config.type == "Kubernetes::Deployment"',
                type: { value: 'Kubernetes::Service' },
                labels: { app: { label: 'app' } },
                parent: true,
                relation: 'routes',
              },
            ],
          }),
        ])
      ).rows[0].id;
      await insert('good', 'Kubernetes::Deployment', deployment('good', safe), { labels: { app: 'good' } });
      await insert('nolimits', 'Kubernetes::Deployment', deployment('nolimits', { ...safe, resources: {} }));
      await insert(
        'root',
        'Kubernetes::Deployment',
        deployment('root', { ...safe, securityContext: { runAsUser: 0 } }),
      );
      await insert(
        'priv',
        'Kubernetes::Deployment',
        deployment('priv', { ...safe, securityContext: { privileged: true, runAsNonRoot: true } }),
      );
      await insert('latest', 'Kubernetes::Deployment', deployment('latest', { ...safe, image: 'nginx' }));
      await insert('old-api', 'Kubernetes::Deployment', {
        ...deployment('old-api', safe),
        metadata: {
          name: 'old-api',
          annotations: {
            'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
              apiVersion: 'extensions/v1beta1',
              kind: 'Deployment',
            }),
          },
        },
      });
      // a pod its ReplicaSet owns is not reported (the owner is)
      await insert('owned-pod', 'Kubernetes::Pod', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'owned-pod', ownerReferences: [{ kind: 'ReplicaSet', uid: 'x' }] },
        spec: { containers: [{ name: 'app', image: 'nginx:latest' }] },
      });
      await insert('sick', 'File', { text: 'not kubernetes' }, { health: 'unhealthy' });
      await insert('good-config', 'Kubernetes::ConfigMap', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'good-config' },
      });
      await insert(
        'svc',
        'Kubernetes::Service',
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' } },
        { labels: { app: 'good' } },
      );
    }, 300_000);
    afterAll(async () => db?.dispose());

    it('opens an insight per item and analyzer found', async () => {
      const r = await run();
      expect(r.errors).toEqual([]);
      expect(await open()).toEqual([
        'latest kubernetes-latest-tag',
        'nolimits kubernetes-no-resource-limits',
        'old-api kubernetes-deprecated-api',
        'priv kubernetes-root-or-privileged',
        'root kubernetes-root-or-privileged',
      ]);
      const all = await insights();
      const by = (n: string) => all.find((i) => i.name === n);
      expect(by('root')).toMatchObject({
        analysis_type: 'security',
        severity: 'high',
        message: 'Deployment shop/root: app runs as root (runAsUser 0)',
      });
      expect(by('priv').message).toMatch(/app is privileged/);
      expect(by('latest')).toMatchObject({ analysis_type: 'reliability', severity: 'low' });
      expect(by('latest').message).toMatch(/nginx uses the 'latest' tag/);
      expect(by('old-api')).toMatchObject({ analysis_type: 'technical_debt' });
      expect(by('old-api').message).toMatch(/extensions\/v1beta1, removed in Kubernetes 1\.22/);
      expect(by('nolimits').message).toMatch(/app has no CPU or memory limit/);
      expect(r.opened).toBe(5);
    });

    it('keeps an insight open with its first_observed, resolves fixed ones, reopens returning ones', async () => {
      const before = (await insights()).find((i) => i.name === 'latest');
      await db.query(`UPDATE config_items SET config = $1 WHERE id = $2`, [
        JSON.stringify(deployment('nolimits', safe)),
        id.nolimits,
      ]);
      // unhealthy for over an hour now
      await db.query(`UPDATE config_items SET health_changed_at = now() - interval '61 minutes' WHERE id = $1`, [
        id.sick,
      ]);
      const r = await run();
      expect([r.opened, r.resolved, r.refreshed]).toEqual([1, 1, 4]);
      expect(await open()).toEqual([
        'latest kubernetes-latest-tag',
        'old-api kubernetes-deprecated-api',
        'priv kubernetes-root-or-privileged',
        'root kubernetes-root-or-privileged',
        'sick unhealthy-over-1h',
      ]);
      const after = (await insights()).find((i) => i.name === 'latest');
      expect(after.first_observed).toEqual(before.first_observed);
      expect(new Date(after.last_observed).getTime()).toBeGreaterThan(new Date(before.last_observed).getTime());
      expect((await insights()).find((i) => i.name === 'nolimits').status).toBe('resolved');
      expect((await insights()).find((i) => i.name === 'sick')).toMatchObject({
        analysis_type: 'availability',
        severity: 'high',
      });

      // the item turns healthy: resolved; it breaks again: the same row opens again with a new first_observed
      await db.query(`UPDATE config_items SET health = 'healthy' WHERE id = $1`, [id.sick]);
      await run();
      expect((await insights()).find((i) => i.name === 'sick').status).toBe('resolved');
      await db.query(`UPDATE config_items SET config = $1 WHERE id = $2`, [
        JSON.stringify(deployment('nolimits', { ...safe, resources: {} })),
        id.nolimits,
      ]);
      await run();
      const reopened = (await insights()).filter((i) => i.name === 'nolimits');
      expect(reopened).toHaveLength(1);
      expect(reopened[0].status).toBe('open');
      // a deleted item's insights resolve
      await db.query(`UPDATE config_items SET deleted_at = now() WHERE id = $1`, [id.root]);
      await run();
      expect(await open()).not.toContain('root kubernetes-root-or-privileged');
      // an item's health changing records when (the trigger behind the hour)
      const t = await db.query<any>(
        `SELECT health_changed_at > now() - interval '1 minute' AS recent FROM config_items WHERE id = $1`,
        [id.sick],
      );
      expect(t.rows[0].recent).toBe(true);
    });

    it('runs the analyzers between scrapes (the scheduled pass): an item unhealthy for over an hour is found', async () => {
      await db.query(`UPDATE config_items SET health = 'unhealthy' WHERE id = $1`, [id.sick]);
      await db.query(`UPDATE config_items SET health_changed_at = now() - interval '2 hours' WHERE id = $1`, [id.sick]);
      const before = await open();
      expect(before).not.toContain('sick unhealthy-over-1h');
      const r = await analyzeAll(db);
      expect(r.errors).toEqual([]);
      // its earlier (resolved) insight opens again
      expect([r.opened, r.refreshed, r.resolved]).toEqual([0, before.length + 1, 0]);
      expect(await open()).toEqual([...before, 'sick unhealthy-over-1h'].sort());
      // nothing new: refreshed only
      const again = await analyzeAll(db);
      expect([again.opened, again.resolved]).toEqual([0, 0]);
      expect(again.refreshed).toBe(before.length + 1);
    });

    it('links items by the scraper relationship rules and unlinks what stops matching', async () => {
      const links = async () =>
        (
          await db.query<any>(
            `SELECT a.name AS from, b.name AS to, r.relation, r.selector_id FROM config_relationships r
             JOIN config_items a ON a.id = r.config_id JOIN config_items b ON b.id = r.related_id ORDER BY 1, 2`,
          )
        ).rows.map((l) => `${l.from} ${l.relation} ${l.to} ${l.selector_id.replace(scraperId, 'S')}`);
      expect(await links()).toEqual(['good uses good-config rule:S:0', 'svc routes good rule:S:1']);
      // a manual link is never touched by rules
      await db.query(
        `INSERT INTO config_relationships (config_id, related_id, selector_id) VALUES ($1, $2, 'manual')`,
        [id.latest, id.svc],
      );
      await db.query(`UPDATE config_items SET labels = '{"app": "other"}' WHERE id = $1`, [id.good]);
      const r = await run();
      expect(r.unlinked).toBe(1);
      expect(await links()).toEqual(['good uses good-config rule:S:0', 'latest  svc manual']);
      // the relationship graph follows the rule's link
      const g = await db.query<any>(
        `SELECT name FROM related_configs_recursive($1, 'outgoing', 'both') ORDER BY name`,
        [id.good],
      );
      expect(g.rows.map((x) => x.name)).toEqual(['good', 'good-config']);
    });

    it('reports a broken rule expression without stopping the scrape', async () => {
      await db.query(`UPDATE config_scrapers SET spec = $1 WHERE id = $2`, [
        JSON.stringify({ relationships: [{ filter: 'config.type ==', type: 'x' }] }),
        scraperId,
      ]);
      const r = await run();
      expect(r.errors.length).toBeGreaterThan(0);
      expect(r.errors[0]).toMatch(/^relationships\[0\] on /);
    });
  });
}
