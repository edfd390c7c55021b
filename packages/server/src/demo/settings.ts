import { LOCAL_AGENT_ID } from '@watchdeck/core';
import { did, insertRows, ago, DAY, type SeedContext } from './util.ts';
import { person } from './people.ts';
import { DEMO_LOG_PATHS } from './logs.ts';

/** Properties set by the demo (besides the demo.seeded marker). No feature is disabled. */
const DEMO_PROPERTIES: [string, string, string][] = [
  ['job_history.retention_days', '30', 'Days of job history kept'],
  ['catalog.changes.retention_days', '30', 'Days of config changes kept'],
  ['incidents.auto_close.timeout', '30m', 'Close incidents created by rules this long after recovery'],
  ['settings.event_queue_status.disable', 'false', 'Event Queue page shown'],
];

/**
 * Connections (placeholder secrets only), logging backends and properties. No job history, log
 * backend status or event-queue rows: those come from the engines as they run.
 */
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

  // The demo's log backend reads the log files the console itself writes while the demo runs
  // (demo/logs.ts): its HTTP access log and its engines' job runs, labelled by service.
  await insertRows(ctx, 'logging_backends', [
    {
      id: did('logging_backend', 'app-logs'),
      agent_id: LOCAL_AGENT_ID,
      name: 'app-logs',
      namespace: 'default',
      labels: { env: 'demo' },
      source: 'UI',
      spec: { file: { paths: DEMO_LOG_PATHS, labels: { host: 'watchdeck' } } },
      created_by: person('lucas'),
      created_at: ago(ctx, 30 * DAY),
      updated_at: ago(ctx, 4 * DAY),
    },
  ]);

  await insertRows(
    ctx,
    'properties',
    DEMO_PROPERTIES.map(([name, value, description]) => ({ name, value, description, created_by: person('ava') })),
    'ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, description = EXCLUDED.description',
  );
}
