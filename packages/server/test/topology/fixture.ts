/**
 * The topology the listing and snapshot tests read, written as rows (the engine that normally
 * writes them is tested on its own), with an admin and a viewer signed in.
 *
 *   name       parent  type      status     labels               team      agent  other
 *   alpha      -       Cluster   healthy    env=prod             Platform  local  cpu 40 (headline)
 *     a-web    alpha   Service   unhealthy  -                    -         local
 *       a-web-pod a-web Pod      healthy    -                    -         local
 *     a-db     alpha   Database  healthy    -                    -         local
 *     a-hidden alpha   Service   healthy    -                    -         local  hidden
 *     a-gone   alpha   Service   healthy    -                    -         local  deleted
 *   bravo      -       Cluster   unhealthy  env=dev              Payments  local  cpu 90
 *     b-pod    bravo   Pod       warning    -                    -         local
 *   charlie    -       Database  warning    env=prod, tier=db    -         edge
 *   india      -       Service   info       -                    -         local
 *   uniform    -       Service   unknown    -                    -         local
 *   hotel      -       Cluster   healthy    -                    -         local  hidden
 *   delta      -       Cluster   healthy    -                    -         local  deleted
 *
 * updated_at: alpha oldest, then bravo, charlie, india, uniform (one minute apart).
 * Attached to alpha's tree: check 'web-http' (on a-web, 3 results in the last hour, one 3 days
 * ago), config 'web-deploy' (on a-web; a change 10 minutes ago and one 5 days ago; an insight),
 * an open incident with evidence on a-web and a resolved one from last month on alpha.
 * bravo is linked (component_relationships) to charlie.
 */
import { createIdentity } from '#server/auth/identities.ts';
import type { Db } from '#server/db/index.ts';
import { Browser, startLoggedApp, type TestApp } from '../auth/support.ts';

const PASSWORD = 'topology test passphrase';
const LOCAL_AGENT = '00000000-0000-0000-0000-000000000000';

export interface Fixture {
  t: TestApp;
  admin: Browser;
  viewer: Browser;
  anonymous: Browser;
  /** ids by name */
  id: Record<string, string>;
}

export async function topologyFixture(db: Db): Promise<Fixture> {
  const t = await startLoggedApp(db);
  for (const role of ['admin', 'viewer'])
    await createIdentity(db, {
      traits: { email: `${role}@topology.test`, name: { first: role, last: 'T' } },
      roles: [role],
      password: PASSWORD,
    });
  const admin = new Browser(t.url);
  const viewer = new Browser(t.url);
  if ((await admin.login('admin@topology.test', PASSWORD)).status !== 200) throw new Error('admin sign-in');
  if ((await viewer.login('viewer@topology.test', PASSWORD)).status !== 200) throw new Error('viewer sign-in');

  const id: Record<string, string> = {};
  const one = async (sql: string, params: unknown[] = []) => (await db.query<{ id: string }>(sql, params)).rows[0].id;

  id.edge = await one(`INSERT INTO agents (name) VALUES ('edge') RETURNING id`);
  id.topology = await one(`INSERT INTO topologies (name, spec) VALUES ('shop', '{}') RETURNING id`);
  id.Platform = await one(`INSERT INTO teams (name, icon) VALUES ('Platform', 'k8s') RETURNING id`);
  id.Payments = await one(`INSERT INTO teams (name) VALUES ('Payments') RETURNING id`);

  const components: [string, string | null, string, string, object, string, object[], boolean, boolean][] = [
    // name, parent, type, status, labels, agent, properties, hidden, deleted
    [
      'alpha',
      null,
      'Cluster',
      'healthy',
      { env: 'prod' },
      LOCAL_AGENT,
      [{ name: 'cpu', value: 40, headline: true }],
      false,
      false,
    ],
    ['bravo', null, 'Cluster', 'unhealthy', { env: 'dev' }, LOCAL_AGENT, [{ name: 'cpu', value: 90 }], false, false],
    ['charlie', null, 'Database', 'warning', { env: 'prod', tier: 'db' }, 'edge', [], false, false],
    ['india', null, 'Service', 'info', {}, LOCAL_AGENT, [], false, false],
    ['uniform', null, 'Service', 'unknown', {}, LOCAL_AGENT, [], false, false],
    ['hotel', null, 'Cluster', 'healthy', {}, LOCAL_AGENT, [], true, false],
    ['delta', null, 'Cluster', 'healthy', {}, LOCAL_AGENT, [], false, true],
    ['a-web', 'alpha', 'Service', 'unhealthy', {}, LOCAL_AGENT, [], false, false],
    ['a-db', 'alpha', 'Database', 'healthy', {}, LOCAL_AGENT, [], false, false],
    ['a-hidden', 'alpha', 'Service', 'healthy', {}, LOCAL_AGENT, [], true, false],
    ['a-gone', 'alpha', 'Service', 'healthy', {}, LOCAL_AGENT, [], false, true],
    ['a-web-pod', 'a-web', 'Pod', 'healthy', {}, LOCAL_AGENT, [], false, false],
    ['b-pod', 'bravo', 'Pod', 'warning', {}, LOCAL_AGENT, [], false, false],
  ];
  const order = ['alpha', 'bravo', 'charlie', 'india', 'uniform'];
  for (const [name, parent, type, status, labels, agent, properties, hidden, deleted] of components) {
    const parentId = parent ? id[parent] : null;
    const parentPath = parent
      ? (await db.query<{ path: string }>(`SELECT path FROM components WHERE id = $1`, [parentId])).rows[0].path
      : '';
    id[name] = await one(
      `INSERT INTO components (topology_id, parent_id, path, name, type, status, labels, agent_id, properties, hidden, deleted_at,
         summary, logs, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() - $14 * interval '1 minute') RETURNING id`,
      [
        id.topology,
        parentId,
        parent ? [parentPath, parentId].filter(Boolean).join('.') : '',
        name,
        type,
        status,
        JSON.stringify(labels),
        agent === 'edge' ? id.edge : agent,
        JSON.stringify(properties),
        hidden,
        deleted ? new Date() : null,
        JSON.stringify(name === 'alpha' ? { checks: { unhealthy: 1 }, unhealthy: 1, healthy: 1 } : {}),
        JSON.stringify(name === 'a-web' ? [{ name: 'app', type: 'file' }] : []),
        order.includes(name) ? 10 - order.indexOf(name) : 30,
      ],
    );
  }
  await db.query(`INSERT INTO team_components (team_id, component_id) VALUES ($1, $2), ($3, $4)`, [
    id.Platform,
    id.alpha,
    id.Payments,
    id.bravo,
  ]);
  await db.query(`INSERT INTO component_relationships (component_id, relationship_id) VALUES ($1, $2)`, [
    id.charlie,
    id.bravo,
  ]);

  // a check on a-web with its history
  id.canary = await one(`INSERT INTO canaries (name, spec) VALUES ('web', '{}') RETURNING id`);
  id['web-http'] = await one(
    `INSERT INTO checks (canary_id, name, type, status) VALUES ($1, 'web-http', 'http', 'unhealthy') RETURNING id`,
    [id.canary],
  );
  await db.query(`INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES ($1, $2, $3)`, [
    id['a-web'],
    id['web-http'],
    id.canary,
  ]);
  for (const [minutes, ok] of [
    [5, false],
    [25, true],
    [45, true],
    [3 * 24 * 60, true],
  ] as const)
    await db.query(
      `INSERT INTO check_statuses (check_id, time, duration, status, message)
       VALUES ($1, now() - $2 * interval '1 minute', 12, $3, $4)`,
      [id['web-http'], minutes, ok, `${minutes} minutes ago`],
    );

  // a config item on a-web with changes and an insight
  id['web-deploy'] = await one(
    `INSERT INTO config_items (name, type, config_class, config, health) VALUES ('web-deploy', 'Kubernetes::Deployment',
       'Deployment', '{"spec": {"replicas": 3}}', 'healthy') RETURNING id`,
  );
  await db.query(`INSERT INTO config_component_relationships (component_id, config_id) VALUES ($1, $2)`, [
    id['a-web'],
    id['web-deploy'],
  ]);
  for (const [minutes, type] of [
    [10, 'scaled'],
    [5 * 24 * 60, 'deployed'],
  ] as const)
    await db.query(
      `INSERT INTO config_changes (config_id, change_type, severity, summary, created_at)
       VALUES ($1, $2, 'info', $3, now() - $4 * interval '1 minute')`,
      [id['web-deploy'], type, `web ${type}`, minutes],
    );
  await db.query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, message) VALUES ($1, 'replicas', 'reliability', 'medium', 'one zone')`,
    [id['web-deploy']],
  );

  // incidents: an open one on a-web, one resolved last month on alpha
  for (const [title, component, type, status, resolvedDaysAgo] of [
    ['web is down', 'a-web', 'availability', 'open', null],
    ['old cluster outage', 'alpha', 'reliability', 'resolved', 30],
  ] as const) {
    id[title] = await one(
      `INSERT INTO incidents (title, type, status, resolved, created_at) VALUES ($1, $2, $3, $4, now() - interval '40 days' * ($4::timestamptz IS NOT NULL)::int) RETURNING id`,
      [title, type, status, resolvedDaysAgo === null ? null : new Date(Date.now() - resolvedDaysAgo * 86_400_000)],
    );
    const hypothesis = await one(
      `INSERT INTO hypotheses (incident_id, type, title) VALUES ($1, 'root', $2) RETURNING id`,
      [id[title], title],
    );
    await db.query(`INSERT INTO evidences (hypothesis_id, type, component_id) VALUES ($1, 'topology', $2)`, [
      hypothesis,
      id[component],
    ]);
  }
  return { t, admin, viewer, anonymous: new Browser(t.url), id };
}
