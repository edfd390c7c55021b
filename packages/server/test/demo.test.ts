import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENT_TYPES, SEVERITIES, ROLES } from '@watchdeck/core';
import { testDrivers } from './support/db.ts';
import { seedDemo } from '../src/demo/seed.ts';
import { exposedTables } from '../src/db/exposed.ts';
import { configId } from '../src/demo/catalog.ts';

const CORE_TABLES = [
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
  'check_statuses',
  'check_config_relationships',
  'check_component_relationships',
  'topologies',
  'components',
  'component_relationships',
  'config_component_relationships',
  'team_components',
  'config_scrapers',
  'config_items',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'incidents',
  'hypotheses',
  'evidences',
  'comments',
  'responders',
  'incident_histories',
  'incident_rules',
  'playbooks',
  'playbook_runs',
  'playbook_run_actions',
  'playbook_approvals',
  'notifications',
  'notification_send_history',
  'notification_silences',
  'connections',
  'properties',
  'logging_backends',
  'job_history',
];

/** Views that must have rows once the demo is loaded (every screen shows something). */
const NON_EMPTY_VIEWS = [
  'agents_summary',
  'checks_summary',
  'check_summary_for_config',
  'checks_by_component',
  'check_labels',
  'configs',
  'config_detail',
  'config_summary',
  'config_names',
  'config_types',
  'config_tags',
  'config_labels',
  'catalog_changes',
  'config_changes_summary',
  'config_changes_by_type',
  'change_types',
  'config_analysis_items',
  'analysis_types',
  'analyzers',
  'config_relationships_items',
  'config_scrapers_with_status',
  'canaries_with_status',
  'topologies_with_status',
  'teams_with_status',
  'logging_backends_with_status',
  'integrations_with_status',
  'component_names',
  'configs_by_component',
  'config_changes_by_component',
  'config_analysis_by_component',
  'check_relationships',
  'components_with_logs',
  'component_labels',
  'component_types',
  'incident_summary',
  'incidents_by_component',
  'incidents_by_config',
  'playbook_names',
  'playbook_runs_summary',
  'notifications_summary',
  'notifications_with_status',
  'notification_send_history_summary',
  'job_histories',
  'job_history_names',
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

    const counts = async () => {
      const out: Record<string, number> = {};
      for (const t of CORE_TABLES)
        out[t] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n;
      return out;
    };
    const distinct = async (sql: string) => (await db.query<{ v: string }>(sql)).rows.map((r) => r.v).sort();

    it('finishes in a few seconds', () => {
      expect(firstMs).toBeLessThan(15_000);
    });

    it('inserts rows in every core table, with enough volume for the screens', async () => {
      const c = await counts();
      expect(
        Object.entries(c)
          .filter(([, n]) => n === 0)
          .map(([t]) => t),
      ).toEqual([]);
      expect(c.check_statuses).toBeGreaterThanOrEqual(20_000);
      expect(c.check_statuses).toBeLessThanOrEqual(60_000);
      expect(c.checks).toBeGreaterThanOrEqual(20);
      expect(c.canaries).toBeGreaterThanOrEqual(4);
      expect(c.config_items).toBeGreaterThanOrEqual(200);
      expect(c.config_changes).toBeGreaterThanOrEqual(2000);
      expect(c.components).toBeGreaterThanOrEqual(20);
      expect(c.agents).toBeGreaterThanOrEqual(3);
    });

    it('is idempotent with force false, and force true replaces the demo rows without duplicating them', async () => {
      const before = await counts();
      expect(await seedDemo(db, { force: false })).toEqual({ seeded: false });
      expect(await counts()).toEqual(before);
      expect(await seedDemo(db, { force: true })).toEqual({ seeded: true });
      expect(await counts()).toEqual(before);
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
      expect(await distinct(`SELECT DISTINCT type AS v FROM evidences`)).toEqual([
        'check',
        'comment',
        'config',
        'config_analysis',
        'config_change',
        'log',
        'topology',
      ]);
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

    it('covers every role, run status, action status, send status and job status', async () => {
      expect(await distinct(`SELECT DISTINCT unnest(roles) AS v FROM people_roles`)).toEqual([...ROLES].sort());
      expect(await distinct(`SELECT DISTINCT status AS v FROM playbook_runs`)).toEqual([
        'cancelled',
        'completed',
        'failed',
        'pending',
        'running',
        'scheduled',
        'waiting',
      ]);
      expect(await distinct(`SELECT DISTINCT status AS v FROM playbook_run_actions`)).toEqual(
        expect.arrayContaining(['cancelled', 'completed', 'failed', 'pending', 'running', 'skipped', 'sleeping']),
      );
      expect(await distinct(`SELECT DISTINCT status AS v FROM notification_send_history`)).toEqual([
        'cancelled',
        'error',
        'pending',
        'repeat-interval',
        'sent',
        'silenced',
      ]);
      expect(await distinct(`SELECT DISTINCT status AS v FROM job_history`)).toEqual([
        'FAILED',
        'RUNNING',
        'STOPPED',
        'SUCCESS',
        'WARNING',
      ]);
      expect(await distinct(`SELECT DISTINCT status AS v FROM checks`)).toEqual(['healthy', 'unhealthy']);
      expect(await distinct(`SELECT DISTINCT analysis_type AS v FROM config_analysis`)).toEqual([
        'availability',
        'compliance',
        'cost',
        'integration',
        'other',
        'performance',
        'recommendation',
        'reliability',
        'security',
        'technical_debt',
      ]);
    });

    it("keeps check history consistent with each check's current state", async () => {
      const r = await db.query<{ n: number }>(`
        SELECT count(*)::int AS n FROM checks c
        JOIN LATERAL (SELECT status FROM check_statuses s WHERE s.check_id = c.id ORDER BY time DESC LIMIT 1) l ON true
        WHERE c.status <> CASE WHEN l.status THEN 'healthy' ELSE 'unhealthy' END
           OR c.last_runtime IS NULL OR c.last_transition_time IS NULL`);
      expect(r.rows[0].n).toBe(0);
      const span = await db.query<{ days: number }>(
        `SELECT extract(day FROM max(time) - min(time))::int AS days FROM check_statuses`,
      );
      expect(span.rows[0].days).toBeGreaterThanOrEqual(6);
    });

    it('has one online and one offline remote agent, and placeholder secrets only', async () => {
      const agents = await db.query<{ name: string; online: boolean }>(
        `SELECT name, last_seen > now() - interval '61 seconds' AS online FROM agents WHERE id <> '00000000-0000-0000-0000-000000000000' ORDER BY name`,
      );
      expect(agents.rows).toEqual([
        { name: 'eu-west-prod', online: true },
        { name: 'us-east-staging', online: false },
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

    it("makes every screen's view non-empty", async () => {
      const empty: string[] = [];
      for (const v of NON_EMPTY_VIEWS) {
        expect(exposedTables[v], `${v} is exposed`).toBeDefined();
        const r = await db.query(`SELECT 1 FROM ${v} LIMIT 1`);
        if (r.rows.length === 0) empty.push(v);
      }
      expect(empty).toEqual([]);
    });

    it('walks config relationships and related changes (rpc functions)', async () => {
      const id = configId('k8s/prod-eu-1/Deployment/payments/payments-api');
      const types = async (direction: string, soft: boolean) =>
        (
          await db.query<{ type: string }>(`SELECT DISTINCT type FROM related_configs($1, $2, $3) ORDER BY 1`, [
            id,
            direction,
            soft,
          ])
        ).rows.map((r) => r.type);
      expect(await types('outgoing', false)).toEqual(['Kubernetes::Pod', 'Kubernetes::ReplicaSet']);
      expect(await types('incoming', false)).toEqual(['Kubernetes::Cluster', 'Kubernetes::Namespace']);
      expect(await types('all', true)).toEqual(expect.arrayContaining(['AWS::RDS::DBInstance', 'AWS::IAM::Role']));
      const n = async (filter: string) =>
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM related_changes($1, $2)`, [id, filter])).rows[0]
          .n;
      const own = await n('none');
      expect(own).toBeGreaterThan(0);
      expect(await n('downstream')).toBeGreaterThan(own);
      expect(await n('upstream')).toBeGreaterThan(own);
    });

    it('marks the database as seeded', async () => {
      const r = await db.query<{ value: string }>(`SELECT value FROM properties WHERE name = 'demo.seeded'`);
      expect(r.rows).toEqual([{ value: 'true' }]);
    });
  });
}
