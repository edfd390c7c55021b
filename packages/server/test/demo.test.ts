import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENT_TYPES, SEVERITIES, ROLES } from '@watchdeck/core';
import { testDrivers } from './support/db.ts';
import { demoTargets, seedDemo } from '../src/demo/seed.ts';
import { exposedTables } from '../src/db/exposed.ts';

/** What people could have created: the demo fills every one of these. */
const RESOURCE_TABLES = [
  'people',
  'identities',
  'people_roles',
  'teams',
  'team_members',
  'agents',
  'access_tokens',
  'saved_searches',
  'canaries',
  'checks',
  'topologies',
  'components',
  'component_relationships',
  'config_component_relationships',
  'team_components',
  'config_scrapers',
  'config_items',
  'config_relationships',
  'incidents',
  'hypotheses',
  'evidences',
  'comments',
  'responders',
  'incident_histories',
  'incident_rules',
  'playbooks',
  'notifications',
  'notification_silences',
  'connections',
  'properties',
  'logging_backends',
];

/**
 * What engines produce when they run: the demo seeds none of it (demo data never pretends). Job
 * history and insights are checked on their own: they come from the real runs of the demo's
 * scrapers (and their analyzers) during seeding.
 */
const ENGINE_TABLES = [
  'notification_send_history',
  'playbook_runs',
  'playbook_run_actions',
  'playbook_approvals',
  'event_queue',
  'check_statuses',
  'check_statuses_1h',
  'check_statuses_1d',
  'config_changes',
  'check_config_relationships',
  'scheduler_claims',
];

/** Views of resources that must have rows once the demo is loaded. */
const NON_EMPTY_VIEWS = [
  'agents_summary',
  'checks_summary',
  'check_labels',
  'configs',
  'config_detail',
  'config_summary',
  'config_names',
  'config_types',
  'config_tags',
  'config_labels',
  'config_relationships_items',
  'config_scrapers_with_status',
  'job_histories',
  'job_history_names',
  'canaries_with_status',
  'topologies_with_status',
  'teams_with_status',
  'logging_backends_with_status',
  'integrations_with_status',
  'component_names',
  'configs_by_component',
  'components_with_logs',
  'component_labels',
  'component_types',
  'incident_summary',
  'incidents_by_component',
  'incidents_by_config',
  'playbook_names',
  'notifications_summary',
  'notifications_with_status',
  // the insights the analyzers of the seeding's scrapes found (the topology links their items)
  'config_analysis_items',
  'analysis_types',
  'analyzers',
  'config_analysis_by_component',
];

/** Views of engine results: empty until an engine runs. */
const EMPTY_VIEWS = [
  'catalog_changes',
  'config_changes_summary',
  'config_changes_by_type',
  'change_types',
  'config_changes_by_component',
  'check_summary_for_config',
  'playbook_runs_summary',
  'notification_send_history_summary',
];

for (const driver of testDrivers()) {
  describe(`demo data (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let firstMs = 0;
    beforeAll(async () => {
      db = await driver.open();
      const t = Date.now();
      expect(await seedDemo(db, { force: false })).toEqual({ seeded: true });
      firstMs = Date.now() - t;
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const count = async (table: string) =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
    const counts = async (tables: string[]) => {
      const out: Record<string, number> = {};
      for (const t of tables) out[t] = await count(t);
      return out;
    };
    const distinct = async (sql: string) => (await db.query<{ v: string }>(sql)).rows.map((r) => r.v).sort();

    it('finishes in a few seconds', () => {
      expect(firstMs).toBeLessThan(15_000);
    });

    it('inserts rows in every resource table, with enough volume for the screens', async () => {
      const c = await counts(RESOURCE_TABLES);
      expect(
        Object.entries(c)
          .filter(([, n]) => n === 0)
          .map(([t]) => t),
      ).toEqual([]);
      expect(c.canaries).toBe(3);
      expect(c.checks).toBeGreaterThanOrEqual(10);
      expect(c.config_items).toBeGreaterThanOrEqual(200);
      expect(c.components).toBeGreaterThanOrEqual(20);
      expect(c.agents).toBe(3);
    });

    it('seeds no engine result: no runs, sends, statuses, queue rows or changes (insights: below)', async () => {
      expect(await counts(ENGINE_TABLES)).toEqual(Object.fromEntries(ENGINE_TABLES.map((t) => [t, 0])));
      // nor any column that claims an engine computed or observed it
      const claims = await db.query<{ what: string; n: number }>(`
        SELECT 'checks with a status or run time' AS what, count(*)::int AS n FROM checks
          WHERE status IS NOT NULL OR last_runtime IS NOT NULL OR last_transition_time IS NOT NULL
        UNION ALL SELECT 'components not made by a topology run, or with metrics or costs', count(*)::int FROM components c
          WHERE cost_per_minute IS NOT NULL OR cost_total_30d IS NOT NULL
             OR NOT EXISTS (SELECT 1 FROM job_history j WHERE j.name = 'TopologyRun' AND j.status = 'SUCCESS'
                            AND j.resource_id = c.topology_id::text)
        UNION ALL SELECT 'check links not made by a topology run', count(*)::int FROM check_component_relationships
          WHERE selector_id NOT LIKE 'topology%'
        UNION ALL SELECT 'config items not found by a scraper run, or costed or deleted', count(*)::int FROM config_items
          WHERE scraper_id IS NULL OR last_scraped_time IS NULL OR cost_per_minute IS NOT NULL OR cost_total_30d IS NOT NULL
             OR deleted_at IS NOT NULL
        UNION ALL SELECT 'agents that reported', count(*)::int FROM agents
          WHERE last_seen IS NOT NULL OR last_received IS NOT NULL OR hostname IS NOT NULL OR version IS NOT NULL
        UNION ALL SELECT 'tokens used', count(*)::int FROM access_tokens WHERE last_used_at IS NOT NULL
        UNION ALL SELECT 'people signed in', count(*)::int FROM people WHERE last_login IS NOT NULL
        UNION ALL SELECT 'notification rules with an engine error', count(*)::int FROM notifications
          WHERE error IS NOT NULL OR error_at IS NOT NULL
        UNION ALL SELECT 'responders dispatched', count(*)::int FROM responders
          WHERE external_id IS NOT NULL OR dispatch_status IS NOT NULL OR dispatched_at IS NOT NULL
        UNION ALL SELECT 'incidents opened by a rule', count(*)::int FROM incidents WHERE incident_rule_id IS NOT NULL
        UNION ALL SELECT 'definitions of done evaluated by a script', count(*)::int FROM evidences WHERE script IS NOT NULL
        UNION ALL SELECT 'evidence of engine output', count(*)::int FROM evidences
          WHERE type IN ('log', 'config_change', 'config_analysis') OR config_change_id IS NOT NULL OR config_analysis_id IS NOT NULL`);
      expect(claims.rows.filter((r) => r.n > 0)).toEqual([]);
    });

    it('scrapes its catalog through the engine: one real run of each scraper the demo refers to', async () => {
      const runs = await db.query<{ scraper: string; name: string; status: string; success_count: number }>(
        `SELECT s.name AS scraper, j.name, j.status, j.success_count FROM job_history j
         JOIN config_scrapers s ON s.id::text = j.resource_id ORDER BY s.name`,
      );
      expect(runs.rows).toEqual([
        { scraper: 'aws-prod-account', name: 'ConfigScraper', status: 'SUCCESS', success_count: 57 },
        { scraper: 'kubernetes-prod-eu-1', name: 'ConfigScraper', status: 'SUCCESS', success_count: 113 },
        { scraper: 'kubernetes-staging-us-1', name: 'ConfigScraper', status: 'SUCCESS', success_count: 49 },
      ]);
      // and one run of each topology, whose components come from those items and the checks
      const topologies = await db.query<{ topology: string; name: string; status: string }>(
        `SELECT t.name AS topology, j.name, j.status FROM job_history j
         JOIN topologies t ON t.id::text = j.resource_id ORDER BY t.name`,
      );
      expect(topologies.rows).toEqual([
        { topology: 'production', name: 'TopologyRun', status: 'SUCCESS' },
        { topology: 'staging', name: 'TopologyRun', status: 'SUCCESS' },
      ]);
      expect(await count('job_history')).toBe(5);
      // health comes from the scrapers' health expressions over the exported status
      const troubled = await db.query<{ type: string; name: string; health: string }>(
        `SELECT type, name, health FROM config_items WHERE health IN ('unhealthy', 'warning') AND type LIKE '%Pod'
         ORDER BY name`,
      );
      expect(troubled.rows.map((r) => `${r.health} ${r.name.replace(/-[a-z0-9]+-[a-z0-9]+$/, '')}`)).toEqual([
        'warning auth-service',
        'unhealthy cart-service',
        'warning kafka-2',
        'warning ledger',
        'unhealthy payments-api',
      ]);
    });

    it("has insights, made by the analyzers of the seeding's scrape runs on the scraped items", async () => {
      const runs = await db.query<{
        scraper_id: string;
        analysis: { opened: number; refreshed: number; resolved: number };
      }>(
        `SELECT resource_id AS scraper_id, details->'analysis' AS analysis FROM job_history WHERE name = 'ConfigScraper'`,
      );
      expect(runs.rows).toHaveLength(3);
      const insights = await db.query<{
        analyzer: string;
        analysis_type: string;
        severity: string;
        status: string;
        source: string;
        scraper_id: string;
        item_scraper: string;
        type: string;
        name: string;
        first_observed: string;
        last_observed: string;
        time_start: string;
      }>(
        `SELECT a.analyzer, a.analysis_type, a.severity, a.status, a.source, a.scraper_id::text, ci.scraper_id::text AS item_scraper,
                ci.type, ci.name, a.first_observed::text, a.last_observed::text, j.time_start::text
         FROM config_analysis a JOIN config_items ci ON ci.id = a.config_id
         LEFT JOIN job_history j ON j.resource_id = a.scraper_id::text AND j.name = 'ConfigScraper'
         ORDER BY ci.type, ci.name, a.analyzer`,
      );
      expect(insights.rows.length).toBeGreaterThan(5);
      // every insight is one a run reported opening: the sum of the runs' counts, nothing else
      expect(runs.rows.reduce((n, r) => n + r.analysis.opened, 0)).toBe(insights.rows.length);
      expect(runs.rows.every((r) => r.analysis.refreshed === 0 && r.analysis.resolved === 0)).toBe(true);
      for (const i of insights.rows) {
        // made by the run of the scraper that found the item, after the run began
        expect(i.scraper_id).toBe(i.item_scraper);
        expect(i.time_start).not.toBeNull();
        expect(Date.parse(i.first_observed)).toBeGreaterThanOrEqual(Date.parse(i.time_start));
        expect(i).toMatchObject({ status: 'open', source: 'watchdeck' });
        expect(i.first_observed).toBe(i.last_observed);
      }
      // what the built-in analyzers find in the shipped exports
      const analyzers = new Set(insights.rows.map((i) => i.analyzer));
      expect([...analyzers].every((a) => a.startsWith('kubernetes-') || a === 'unhealthy-over-1h')).toBe(true);
      // e.g. the demo's payments-api Deployment runs without resource limits
      expect(insights.rows).toContainEqual(
        expect.objectContaining({
          analyzer: 'kubernetes-no-resource-limits',
          type: 'Kubernetes::Deployment',
          name: 'payments-api',
        }),
      );
      expect(insights.rows).toContainEqual(
        expect.objectContaining({
          analyzer: 'kubernetes-deprecated-api',
          type: 'Kubernetes::Ingress',
          name: 'grafana',
        }),
      );
    });

    it('is idempotent with force false, and force true replaces the demo rows without duplicating them', async () => {
      // the insights too: a forced re-seed scrapes (and analyses) again, without duplicates
      const all = [...RESOURCE_TABLES, ...ENGINE_TABLES, 'config_analysis'];
      const before = await counts(all);
      expect(await seedDemo(db, { force: false })).toEqual({ seeded: false });
      expect(await counts(all)).toEqual(before);
      expect(await seedDemo(db, { force: true })).toEqual({ seeded: true });
      expect(await counts(all)).toEqual(before);
    });

    it("points the demo's checks at the console's port, and follows it when the server moves", async () => {
      const specs = async () =>
        (await db.query<{ spec: string }>(`SELECT spec::text AS spec FROM canaries ORDER BY id`)).rows
          .map((r) => r.spec)
          .join('\n');
      expect(await specs()).toContain('http://127.0.0.1:8080/api/health');
      expect(await seedDemo(db, { force: false, targets: demoTargets({ port: 9191, host: '0.0.0.0' }) })).toEqual({
        seeded: false,
      });
      const moved = await specs();
      expect(moved).toContain('http://127.0.0.1:9191/api/health');
      expect(moved).toContain('"endpoint": "127.0.0.1:9191"');
      expect(moved).not.toContain('8080');
      // the deliberate failures keep their closed port
      expect(moved).toContain('"endpoint": "127.0.0.1:1"');
      await seedDemo(db, { force: false, targets: demoTargets({ port: 8080 }) });
      expect(await specs()).not.toContain('9191');
    });

    it('replaces a demo loaded by an older version, with the history it pretended', async () => {
      // what an older demo left: no demo.targets, a seeded job run and a dead letter in the demo id range
      await db.query(`DELETE FROM properties WHERE name = 'demo.targets'`);
      await db.query(
        `INSERT INTO job_history (id, name, status, time_start) VALUES ('d3e30000-0000-0000-0000-00000000a001', 'LogBackendCheck', 'SUCCESS', now())`,
      );
      await db.query(
        `INSERT INTO event_queue (id, name, event_id) VALUES ('d3e30000-0000-0000-0000-00000000a002', 'notification.send', 'demo-notification-1')`,
      );
      expect(await seedDemo(db, { force: false })).toEqual({ seeded: true });
      // the seeded run is gone; what is left are the three scraper and two topology runs of this seed
      expect(await counts(['job_history', 'event_queue'])).toEqual({ job_history: 5, event_queue: 0 });
      expect(await count(`job_history WHERE name NOT IN ('ConfigScraper', 'TopologyRun')`)).toBe(0);
      expect(await count(`properties WHERE name = 'demo.targets'`)).toBe(1);
    });

    it('covers every incident status, severity and type, and every hypothesis type', async () => {
      expect(await distinct(`SELECT DISTINCT status AS v FROM incidents`)).toEqual([
        'closed',
        'investigating',
        'mitigated',
        'new',
        'open',
        'resolved',
      ]);
      expect(await distinct(`SELECT DISTINCT severity AS v FROM incidents`)).toEqual([...SEVERITIES].sort());
      expect(await distinct(`SELECT DISTINCT type AS v FROM incidents`)).toEqual([...INCIDENT_TYPES].sort());
      expect(await distinct(`SELECT DISTINCT type AS v FROM hypotheses`)).toEqual(['factor', 'root', 'solution']);
      // what a person attaches: resources that exist, and comments
      expect(await distinct(`SELECT DISTINCT type AS v FROM evidences`)).toEqual(['comment', 'config', 'topology']);
      const dangling = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM evidences e
         WHERE (e.type = 'config' AND NOT EXISTS (SELECT 1 FROM config_items c WHERE c.id = e.config_id AND c.deleted_at IS NULL))
            OR (e.type = 'topology' AND NOT EXISTS (SELECT 1 FROM components c WHERE c.id = e.component_id))`,
      );
      expect(dangling.rows[0].n).toBe(0);
      // one root per incident, children point at hypotheses of the same incident
      const roots = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM incidents i WHERE (SELECT count(*) FROM hypotheses h WHERE h.incident_id = i.id AND h.parent_id IS NULL) <> 1`,
      );
      expect(roots.rows[0].n).toBe(0);
      const mixed = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM hypotheses c JOIN hypotheses p ON p.id = c.parent_id WHERE p.incident_id <> c.incident_id`,
      );
      expect(mixed.rows[0].n).toBe(0);
    });

    it('covers every role', async () => {
      expect(await distinct(`SELECT DISTINCT unnest(roles) AS v FROM people_roles`)).toEqual([...ROLES].sort());
    });

    it('has registered remote agents that never connected, and placeholder secrets only', async () => {
      const agents = await db.query<{ name: string; last_seen: string | null }>(
        `SELECT name, last_seen FROM agents WHERE id <> '00000000-0000-0000-0000-000000000000' ORDER BY name`,
      );
      expect(agents.rows).toEqual([
        { name: 'eu-west-prod', last_seen: null },
        { name: 'us-east-staging', last_seen: null },
      ]);
      const secrets = await db.query<{ name: string }>(
        `SELECT name FROM connections WHERE password IS NOT NULL AND password NOT LIKE 'secret://%'`,
      );
      expect(secrets.rows).toEqual([]);
      const creds = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity_credentials`);
      expect(creds.rows[0].n).toBe(0);
    });

    it('leaves the event queue to the engines: no seeded events, deliveries or failures (issue 13)', async () => {
      const n = await db.query<{ events: number; deliveries: number }>(
        `SELECT (SELECT count(*)::int FROM event_queue) AS events, (SELECT count(*)::int FROM event_deliveries) AS deliveries`,
      );
      expect(n.rows[0]).toEqual({ events: 0, deliveries: 0 });
    });

    it("makes every resource screen's view non-empty and leaves the engine results' views empty", async () => {
      const empty: string[] = [];
      for (const v of NON_EMPTY_VIEWS) {
        expect(exposedTables[v], `${v} is exposed`).toBeDefined();
        const r = await db.query(`SELECT 1 FROM ${v} LIMIT 1`);
        if (r.rows.length === 0) empty.push(v);
      }
      expect(empty).toEqual([]);
      const filled: string[] = [];
      for (const v of EMPTY_VIEWS) {
        expect(exposedTables[v], `${v} is exposed`).toBeDefined();
        const r = await db.query(`SELECT 1 FROM ${v} LIMIT 1`);
        if (r.rows.length > 0) filled.push(v);
      }
      expect(filled).toEqual([]);
    });

    it('walks config relationships (rpc functions); there are no changes to relate', async () => {
      const id = (
        await db.query<{ id: string }>(
          `SELECT id FROM config_items WHERE type = 'Kubernetes::Deployment' AND name = 'payments-api'
           AND tags->>'cluster' = 'prod-eu-1'`,
        )
      ).rows[0].id;
      const types = async (direction: string, soft: boolean) =>
        (
          await db.query<{ type: string }>(`SELECT DISTINCT type FROM related_configs($1, $2, $3) ORDER BY 1`, [
            id,
            direction,
            soft,
          ])
        ).rows.map((r) => r.type);
      // the file kind reads no ownership: owners and placement are manual links (soft), no parent tree
      expect(await types('outgoing', false)).toEqual([]);
      expect(await types('outgoing', true)).toEqual([
        'AWS::ElastiCache::CacheCluster',
        'AWS::RDS::DBInstance',
        'Kubernetes::Pod',
        'Kubernetes::ReplicaSet',
      ]);
      expect(await types('incoming', true)).toEqual([
        'AWS::EKS::Cluster',
        'AWS::IAM::Role',
        'Kubernetes::Cluster',
        'Kubernetes::Namespace',
      ]);
      expect(await types('all', true)).toEqual(expect.arrayContaining(['AWS::RDS::DBInstance', 'AWS::IAM::Role']));
      const n = async (filter: string) =>
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM related_changes($1, $2)`, [id, filter])).rows[0]
          .n;
      expect([await n('none'), await n('downstream'), await n('upstream')]).toEqual([0, 0, 0]);
    });

    it('marks the database as seeded', async () => {
      const r = await db.query<{ value: string }>(`SELECT value FROM properties WHERE name = 'demo.seeded'`);
      expect(r.rows).toEqual([{ value: 'true' }]);
    });
  });
}
