import { did, didSql, insertRows, ago, DAY, LOCAL_AGENT, type SeedContext } from './util.ts';
import { person, agent } from './people.ts';
import { canaryId, CANARIES } from './health.ts';
import { scraperId } from './catalog.ts';
import { topologyId } from './topology.ts';

/** Properties set by the demo (besides the demo.seeded marker). No feature is disabled. */
export const DEMO_PROPERTIES: [string, string, string][] = [
  ['job_history.retention_days', '30', 'Days of job history kept'],
  ['catalog.changes.retention_days', '30', 'Days of config changes kept'],
  ['incidents.auto_close.timeout', '30m', 'Close incidents created by rules this long after recovery'],
  ['settings.event_queue_status.disable', 'false', 'Event Queue page shown'],
];

/** Connections (placeholder secrets only), logging backends, properties, job history, dead letters. */
export async function seedSettings(ctx: SeedContext): Promise<void> {
  const rng = ctx.rng;
  const conn = (key: string, type: string, namespace: string, o: Record<string, unknown>) => ({
    id: did('connection', key),
    name: key,
    namespace,
    type,
    source: 'UI',
    insecure_tls: false,
    created_by: person('ava'),
    created_at: ago(ctx, rng.int(20, 60) * DAY),
    updated_at: ago(ctx, rng.int(1, 15) * DAY),
    ...o,
  });
  // Secret-like fields hold references to secrets that do not exist, never real credentials.
  await insertRows(ctx, 'connections', [
    conn('orders-db', 'postgres', 'data', {
      url: 'postgres://127.0.0.1:5432/orders?sslmode=disable',
      username: 'watchdeck_ro',
      password: 'secret://data/orders-db/password',
      properties: { database: 'orders', host: '127.0.0.1', port: '5432' },
    }),
    conn('orders-db-replica', 'postgres', 'data', {
      url: 'postgres://127.0.0.1:5433/orders?sslmode=disable',
      username: 'watchdeck_ro',
      password: 'secret://data/orders-db-replica/password',
      properties: { database: 'orders', host: '127.0.0.1', port: '5433' },
    }),
    conn('ledger-db', 'mysql', 'data', {
      url: 'mysql://127.0.0.1:3306/ledger',
      username: 'watchdeck_ro',
      password: 'secret://data/ledger-db/password',
    }),
    conn('payments-redis', 'redis', 'data', {
      url: 'redis://127.0.0.1:6379/0',
      password: 'secret://data/payments-redis/password',
    }),
    conn('prometheus', 'prometheus', 'default', { url: 'http://127.0.0.1:9090' }),
    conn('sre-slack', 'slack', 'default', {
      // field layouts per type: packages/core/src/connection-types.ts
      url: 'https://slack.com',
      username: 'C0SREALERTS',
      password: 'secret://default/sre-slack/token',
      properties: { botName: 'Watchdeck' },
    }),
    conn('smtp', 'email', 'default', {
      url: 'smtp://127.0.0.1:2525',
      username: 'watchdeck',
      password: 'secret://default/smtp/password',
      properties: {
        host: '127.0.0.1',
        port: 2525,
        encryptionMethod: 'Auto',
        authMethod: 'Plain',
        from: 'watchdeck@example.com',
        fromName: 'Watchdeck',
      },
    }),
    conn('incident-webhook', 'generic_webhook', 'default', {
      url: 'http://127.0.0.1:8088/hooks/watchdeck',
      properties: { requestMethod: 'POST', contentType: 'application/json', messageKey: 'message', titleKey: 'title' },
    }),
    conn('aws-prod', 'aws', 'default', {
      username: 'secret://default/aws-prod/access-key-id',
      password: 'secret://default/aws-prod/secret-access-key',
      properties: { region: 'eu-west-1' },
    }),
    conn('manifests-git', 'git', 'default', {
      url: 'https://git.example.com/platform/manifests.git',
      username: 'watchdeck-bot',
      password: 'secret://default/manifests-git/token',
      properties: { branch: 'main' },
    }),
  ]);

  await insertRows(ctx, 'logging_backends', [
    {
      id: did('logging_backend', 'loki'),
      agent_id: LOCAL_AGENT,
      name: 'loki',
      namespace: 'default',
      labels: { env: 'production' },
      source: 'UI',
      spec: { loki: { url: 'http://127.0.0.1:3100', routes: [{ type: 'Service', labels: { cluster: 'prod-eu-1' } }] } },
      created_by: person('lucas'),
      created_at: ago(ctx, 30 * DAY),
      updated_at: ago(ctx, 4 * DAY),
    },
    {
      id: did('logging_backend', 'opensearch'),
      agent_id: agent('eu-west-prod'),
      name: 'opensearch',
      namespace: 'default',
      labels: { env: 'production' },
      source: 'UI',
      spec: { elasticsearch: { address: 'http://127.0.0.1:9200', index: 'logs-*', routes: [{ type: 'Database' }] } },
      created_by: person('lucas'),
      created_at: ago(ctx, 20 * DAY),
      updated_at: ago(ctx, 20 * DAY),
    },
  ]);

  await insertRows(
    ctx,
    'properties',
    DEMO_PROPERTIES.map(([name, value, description]) => ({ name, value, description, created_by: person('ava') })),
    'ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, description = EXCLUDED.description',
  );

  // Job history, set-based: canaries every 15 min, scrapers every 30 min, topologies every 30
  // min over two days; system jobs hourly over a week. Deterministic outcomes from md5.
  const resources = [
    ...CANARIES.map((c) => ({
      name: 'CanaryRun',
      type: 'canary',
      id: canaryId(c.key),
      agent: c.agent === LOCAL_AGENT ? LOCAL_AGENT : agent('eu-west-prod'),
      step: 15,
      span: 2 * 24 * 60,
      warnPm: c.key === 'public-endpoints' || c.key === 'eu-west-internal' ? 300 : 30,
      failPm: 5,
    })),
    {
      name: 'ConfigScraper',
      type: 'config_scraper',
      id: scraperId('kubernetes-prod-eu-1'),
      agent: agent('eu-west-prod'),
      step: 30,
      span: 2 * 24 * 60,
      warnPm: 80,
      failPm: 10,
    },
    {
      name: 'ConfigScraper',
      type: 'config_scraper',
      id: scraperId('kubernetes-staging-us-1'),
      agent: agent('us-east-staging'),
      step: 60,
      span: 2 * 24 * 60,
      warnPm: 20,
      failPm: 10,
    },
    {
      name: 'ConfigScraper',
      type: 'config_scraper',
      id: scraperId('aws-prod-account'),
      agent: LOCAL_AGENT,
      step: 60,
      span: 2 * 24 * 60,
      warnPm: 150,
      failPm: 40,
    },
    {
      name: 'TopologyRun',
      type: 'topology',
      id: topologyId('production'),
      agent: agent('eu-west-prod'),
      step: 30,
      span: 2 * 24 * 60,
      warnPm: 20,
      failPm: 5,
    },
    {
      name: 'TopologyRun',
      type: 'topology',
      id: topologyId('staging'),
      agent: LOCAL_AGENT,
      step: 30,
      span: 2 * 24 * 60,
      warnPm: 0,
      failPm: 200,
    },
    {
      name: 'LogBackendCheck',
      type: 'logging_backend',
      id: did('logging_backend', 'loki'),
      agent: LOCAL_AGENT,
      step: 120,
      span: 2 * 24 * 60,
      warnPm: 0,
      failPm: 20,
    },
    {
      name: 'CleanupJobHistory',
      type: null,
      id: null,
      agent: LOCAL_AGENT,
      step: 24 * 60,
      span: 7 * 24 * 60,
      warnPm: 0,
      failPm: 0,
    },
    {
      name: 'CleanupEventQueue',
      type: null,
      id: null,
      agent: LOCAL_AGENT,
      step: 60,
      span: 7 * 24 * 60,
      warnPm: 0,
      failPm: 0,
    },
    {
      name: 'PushCheckStatuses',
      type: 'agent',
      id: agent('eu-west-prod'),
      agent: agent('eu-west-prod'),
      step: 60,
      span: 7 * 24 * 60,
      warnPm: 10,
      failPm: 15,
    },
    {
      name: 'SyncNotificationSilences',
      type: null,
      id: null,
      agent: LOCAL_AGENT,
      step: 180,
      span: 7 * 24 * 60,
      warnPm: 0,
      failPm: 0,
    },
  ];
  await ctx.tx.query(
    `INSERT INTO job_history (id, name, resource_type, resource_id, agent_id, hostname, status, success_count, error_count,
       duration_millis, details, time_start, time_end, created_at)
     SELECT ${didSql('job', "r.name || ':' || coalesce(r.id, '') || ':' || k")}, r.name, r.type, r.id, r.agent,
       CASE WHEN r.agent = '${LOCAL_AGENT}' THEN 'watchdeck-0' ELSE 'watchdeck-agent-7c9f6d5b8-x2kqp' END,
       CASE WHEN k = 0 AND r.name = 'ConfigScraper' AND r.id = '${scraperId('aws-prod-account')}' THEN 'RUNNING'
            WHEN k = 40 AND r.name = 'CanaryRun' THEN 'STOPPED'
            WHEN h.v % 1000 < r.fail_pm THEN 'FAILED'
            WHEN h.v % 1000 < r.fail_pm + r.warn_pm THEN 'WARNING' ELSE 'SUCCESS' END AS status,
       CASE WHEN h.v % 1000 < r.fail_pm THEN 0 ELSE 5 + h.v % 200 END,
       CASE WHEN h.v % 1000 < r.fail_pm + r.warn_pm THEN 1 + h.v % 3 ELSE 0 END,
       CASE WHEN k = 0 AND r.name = 'ConfigScraper' AND r.id = '${scraperId('aws-prod-account')}' THEN NULL ELSE 150 + (h.v >> 4) % 45000 END,
       CASE
         WHEN h.v % 1000 < r.fail_pm THEN jsonb_build_object('errors', CASE r.type
           WHEN 'config_scraper' THEN to_jsonb('failed to list resources: Unauthorized'::text)
           WHEN 'topology' THEN to_jsonb('lookup configs: agent us-east-staging is offline'::text)
           ELSE to_jsonb('context deadline exceeded'::text) END)
         WHEN h.v % 1000 < r.fail_pm + r.warn_pm THEN jsonb_build_object('errors', CASE r.type
           WHEN 'config_scraper' THEN jsonb_build_object('AWS::Lambda::Function/webhook-dispatcher', 'AccessDeniedException: not authorized to perform lambda:GetPolicy')
           WHEN 'canary' THEN jsonb_build_array('payments-api health: expected response code [200] but got 502', 'smtp relay: connection refused')
           ELSE to_jsonb('partial result'::text) END)
         WHEN r.type = 'config_scraper' THEN jsonb_build_object('scrape_summary', jsonb_build_object(
           'Kubernetes::Pod', jsonb_build_object('added', h.v % 3, 'updated', 10 + h.v % 30, 'unchanged', 40),
           'Kubernetes::Deployment', jsonb_build_object('updated', h.v % 4, 'unchanged', 18)))
         WHEN r.type = 'topology' THEN jsonb_build_object('summary', jsonb_build_object('components', 35, 'updated', h.v % 6))
         ELSE NULL END,
       t.at, t.at + make_interval(secs => ((150 + (h.v >> 4) % 45000) / 1000.0)), t.at
     FROM jsonb_to_recordset($1::jsonb) AS r(name text, type text, id text, agent uuid, step int, span int, warn_pm int, fail_pm int)
     CROSS JOIN LATERAL (
       SELECT k, date_trunc('minute', now()) - make_interval(mins => r.step * k)
         - make_interval(secs => 7 + ('x' || substr(md5(r.name || coalesce(r.id, '')), 1, 4))::bit(16)::int % 600) AS at
       FROM generate_series(0, r.span / r.step) k
     ) t
     CROSS JOIN LATERAL (SELECT ('x' || substr(md5(r.name || coalesce(r.id, '') || k), 1, 7))::bit(28)::int AS v) h`,
    [JSON.stringify(resources.map((r) => ({ ...r, warn_pm: r.warnPm, fail_pm: r.failPm })))],
  );
  // The RUNNING row has not finished.
  await ctx.tx.query(
    `UPDATE job_history SET time_end = NULL, success_count = 0, error_count = 0, details = NULL WHERE status = 'RUNNING' AND id BETWEEN $1 AND $2`,
    ['d3e30000-0000-0000-0000-000000000000', 'd3e30000-ffff-ffff-ffff-ffffffffffff'],
  );
}
