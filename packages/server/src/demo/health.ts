import { did, insertRows, ago, DAY, LOCAL_AGENT, type SeedContext, type Row } from './util.ts';
import { person, agent } from './people.ts';

type Profile = 'stable' | 'flaky' | 'down' | 'recovered';

interface CheckDef {
  key: string;
  name: string;
  type: string;
  endpoint: string;
  description: string;
  severity: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  /** typical latency and spread, ms */
  base: number;
  jitter: number;
  profile: Profile;
  ok: string;
  err: string;
  icon?: string;
}

interface CanaryDef {
  key: string;
  name: string;
  namespace: string;
  schedule: string;
  step: number; // minutes between runs
  agent: string;
  labels: Record<string, string>;
  checks: CheckDef[];
}

const http = (key: string, name: string, url: string, o: Partial<CheckDef> = {}): CheckDef => ({
  key,
  name,
  type: 'http',
  endpoint: url,
  description: `HTTP ${o.description ?? 'health endpoint'} of ${name.split(' ')[0]}`,
  severity: 'high',
  labels: {},
  spec: { name, url, method: 'GET', responseCodes: [200], thresholdMillis: 2000 },
  base: 45,
  jitter: 80,
  profile: 'stable',
  ok: 'HTTP 200 OK',
  err: `Get "${url}": dial tcp ${new URL(url).host}: connect: connection refused`,
  ...o,
});

/** Canaries with their checks. Every target is a loopback address. */
export const CANARIES: CanaryDef[] = [
  {
    key: 'public-endpoints',
    name: 'public-endpoints',
    namespace: 'default',
    schedule: '@every 5m',
    step: 5,
    agent: LOCAL_AGENT,
    labels: { env: 'production', tier: 'edge' },
    checks: [
      http('checkout-web', 'checkout-web home', 'http://127.0.0.1:8080/', {
        labels: { team: 'payments', service: 'checkout-web' },
        severity: 'critical',
        base: 120,
        jitter: 200,
      }),
      http('payments-api', 'payments-api health', 'http://127.0.0.1:8081/healthz', {
        labels: { team: 'payments', service: 'payments-api' },
        severity: 'critical',
        profile: 'down',
        err: 'expected response code [200] but got 502 Bad Gateway',
      }),
      http('auth-service', 'auth-service health', 'http://127.0.0.1:8082/healthz', {
        labels: { team: 'platform', service: 'auth-service' },
        profile: 'recovered',
      }),
      http('user-service', 'user-service health', 'http://127.0.0.1:8083/healthz', {
        labels: { team: 'platform', service: 'user-service' },
      }),
      http('api-gateway', 'api-gateway status', 'http://localhost:8000/status', {
        labels: { team: 'platform', service: 'api-gateway' },
        severity: 'critical',
        base: 15,
        jitter: 30,
      }),
      http('grafana', 'grafana login page', 'http://127.0.0.1:3000/login', {
        labels: { team: 'sre', service: 'grafana' },
        severity: 'low',
        profile: 'flaky',
        base: 300,
        jitter: 900,
        err: 'timeout after 2000ms',
      }),
      http('prometheus', 'prometheus ready', 'http://127.0.0.1:9090/-/ready', {
        labels: { team: 'sre', service: 'prometheus' },
        severity: 'medium',
        base: 8,
        jitter: 20,
      }),
      http('cart-service', 'cart-service health', 'http://127.0.0.1:8084/healthz', {
        labels: { team: 'payments', service: 'cart-service' },
        severity: 'medium',
        profile: 'flaky',
        err: 'expected response code [200] but got 503 Service Unavailable',
      }),
    ],
  },
  {
    key: 'databases',
    name: 'databases',
    namespace: 'data',
    schedule: '@every 10m',
    step: 10,
    agent: LOCAL_AGENT,
    labels: { env: 'production', tier: 'data' },
    checks: [
      {
        key: 'orders-db',
        name: 'orders-db primary',
        type: 'postgres',
        endpoint: 'postgres://127.0.0.1:5432/orders',
        description: 'Primary accepts queries',
        severity: 'critical',
        labels: { team: 'database', db: 'orders' },
        spec: { name: 'orders-db primary', connection: 'connection://data/orders-db', query: 'SELECT 1', results: 1 },
        base: 4,
        jitter: 10,
        profile: 'stable',
        ok: 'query returned 1 row',
        err: 'dial tcp 127.0.0.1:5432: connect: connection refused',
        icon: 'postgres',
      },
      {
        key: 'orders-db-replica',
        name: 'orders-db replica lag',
        type: 'postgres',
        endpoint: 'postgres://127.0.0.1:5433/orders',
        description: 'Replication lag under 30s',
        severity: 'high',
        labels: { team: 'database', db: 'orders' },
        spec: {
          name: 'orders-db replica lag',
          connection: 'connection://data/orders-db-replica',
          query: 'SELECT extract(epoch FROM now() - pg_last_xact_replay_timestamp())::int AS lag',
          test: { expr: 'results.rows[0].lag < 30' },
        },
        base: 6,
        jitter: 12,
        profile: 'recovered',
        ok: 'lag 2s',
        err: 'replication lag 412s exceeds 30s',
        icon: 'postgres',
      },
      {
        key: 'redis-cache',
        name: 'redis-cache ping',
        type: 'redis',
        endpoint: 'redis://127.0.0.1:6379',
        description: 'Redis answers PING',
        severity: 'high',
        labels: { team: 'payments', db: 'redis' },
        spec: { name: 'redis-cache ping', addr: '127.0.0.1:6379', db: 0 },
        base: 2,
        jitter: 5,
        profile: 'stable',
        ok: 'PONG',
        err: 'dial tcp 127.0.0.1:6379: i/o timeout',
        icon: 'redis',
      },
      {
        key: 'ledger-db',
        name: 'ledger-db',
        type: 'mysql',
        endpoint: 'mysql://127.0.0.1:3306/ledger',
        description: 'Ledger database reachable',
        severity: 'high',
        labels: { team: 'payments', db: 'ledger' },
        spec: { name: 'ledger-db', connection: 'connection://data/ledger-db', query: 'SELECT 1', results: 1 },
        base: 5,
        jitter: 12,
        profile: 'stable',
        ok: 'query returned 1 row',
        err: 'Error 1045: Access denied for user',
        icon: 'mysql',
      },
      {
        key: 'orders-db-port',
        name: 'orders-db port',
        type: 'tcp',
        endpoint: '127.0.0.1:5432',
        description: 'TCP port open',
        severity: 'medium',
        labels: { team: 'database', db: 'orders' },
        spec: { name: 'orders-db port', endpoint: '127.0.0.1:5432', thresholdMillis: 500 },
        base: 1,
        jitter: 3,
        profile: 'stable',
        ok: 'connected',
        err: 'dial tcp 127.0.0.1:5432: connect: connection refused',
      },
      {
        key: 'catalog-mongo',
        name: 'catalog mongo',
        type: 'mongodb',
        endpoint: 'mongodb://127.0.0.1:27017',
        description: 'Product catalog store',
        severity: 'medium',
        labels: { team: 'payments', db: 'mongo' },
        spec: { name: 'catalog mongo', url: 'mongodb://127.0.0.1:27017' },
        base: 7,
        jitter: 15,
        profile: 'flaky',
        ok: 'ping ok',
        err: 'server selection error: context deadline exceeded',
        icon: 'mongodb',
      },
    ],
  },
  {
    key: 'network',
    name: 'network',
    namespace: 'infra',
    schedule: '@every 10m',
    step: 10,
    agent: LOCAL_AGENT,
    labels: { env: 'production', tier: 'network' },
    checks: [
      {
        key: 'gateway-ping',
        name: 'gateway ping',
        type: 'icmp',
        endpoint: '127.0.0.1',
        description: 'Default gateway answers ICMP',
        severity: 'high',
        labels: { team: 'sre' },
        spec: {
          name: 'gateway ping',
          endpoint: '127.0.0.1',
          packetCount: 3,
          packetLossThreshold: 10,
          thresholdMillis: 50,
        },
        base: 1,
        jitter: 2,
        profile: 'stable',
        ok: '3 packets, 0% loss',
        err: '100% packet loss',
      },
      {
        key: 'resolver-ping',
        name: 'dns resolver ping',
        type: 'icmp',
        endpoint: '127.0.0.53',
        description: 'Local resolver answers ICMP',
        severity: 'medium',
        labels: { team: 'sre' },
        spec: { name: 'dns resolver ping', endpoint: '127.0.0.53', packetCount: 3 },
        base: 1,
        jitter: 2,
        profile: 'stable',
        ok: '3 packets, 0% loss',
        err: '66% packet loss',
      },
      {
        key: 'bastion-ssh',
        name: 'bastion ssh',
        type: 'tcp',
        endpoint: '127.0.0.1:22',
        description: 'SSH on the bastion',
        severity: 'low',
        labels: { team: 'sre' },
        spec: { name: 'bastion ssh', endpoint: '127.0.0.1:22' },
        base: 2,
        jitter: 4,
        profile: 'stable',
        ok: 'connected',
        err: 'dial tcp 127.0.0.1:22: connect: connection refused',
      },
      {
        key: 'smtp-relay',
        name: 'smtp relay',
        type: 'tcp',
        endpoint: '127.0.0.1:25',
        description: 'Outbound mail relay',
        severity: 'medium',
        labels: { team: 'platform' },
        spec: { name: 'smtp relay', endpoint: '127.0.0.1:25' },
        base: 3,
        jitter: 6,
        profile: 'down',
        ok: 'connected',
        err: 'dial tcp 127.0.0.1:25: connect: connection refused',
      },
      {
        key: 'kafka-broker',
        name: 'kafka broker',
        type: 'tcp',
        endpoint: '127.0.0.1:9092',
        description: 'Kafka broker 0',
        severity: 'high',
        labels: { team: 'payments' },
        spec: { name: 'kafka broker', endpoint: '127.0.0.1:9092' },
        base: 2,
        jitter: 5,
        profile: 'stable',
        ok: 'connected',
        err: 'dial tcp 127.0.0.1:9092: i/o timeout',
        icon: 'kafka',
      },
      {
        key: 'dns-api',
        name: 'api.internal record',
        type: 'dns',
        endpoint: 'api.internal.localhost',
        description: 'Internal API A record resolves to loopback',
        severity: 'high',
        labels: { team: 'sre' },
        spec: {
          name: 'api.internal record',
          server: '127.0.0.1',
          port: 53,
          query: 'api.internal.localhost',
          querytype: 'A',
          exactreply: ['127.0.0.1'],
        },
        base: 3,
        jitter: 8,
        profile: 'flaky',
        ok: 'api.internal.localhost A 127.0.0.1',
        err: 'lookup api.internal.localhost on 127.0.0.1:53: server misbehaving',
      },
      {
        key: 'dns-localhost',
        name: 'localhost record',
        type: 'dns',
        endpoint: 'localhost',
        description: 'localhost resolves',
        severity: 'low',
        labels: { team: 'sre' },
        spec: {
          name: 'localhost record',
          server: '127.0.0.1',
          query: 'localhost',
          querytype: 'A',
          exactreply: ['127.0.0.1'],
        },
        base: 1,
        jitter: 3,
        profile: 'stable',
        ok: 'localhost A 127.0.0.1',
        err: 'no such host',
      },
    ],
  },
  {
    key: 'tls-certificates',
    name: 'tls-certificates',
    namespace: 'infra',
    schedule: '@every 15m',
    step: 15,
    agent: LOCAL_AGENT,
    labels: { env: 'production', tier: 'edge' },
    checks: [
      {
        key: 'tls-gateway',
        name: 'api-gateway certificate',
        type: 'tls',
        endpoint: 'localhost:8443',
        description: 'Certificate valid for more than 14 days',
        severity: 'high',
        labels: { team: 'platform' },
        spec: { name: 'api-gateway certificate', endpoint: 'localhost:8443', maxSSLExpiry: 14 },
        base: 20,
        jitter: 30,
        profile: 'recovered',
        ok: 'certificate expires in 83 days',
        err: 'certificate expired 2 days ago',
      },
      {
        key: 'tls-checkout',
        name: 'checkout-web certificate',
        type: 'tls',
        endpoint: '127.0.0.1:9443',
        description: 'Certificate valid for more than 14 days',
        severity: 'high',
        labels: { team: 'payments' },
        spec: { name: 'checkout-web certificate', endpoint: '127.0.0.1:9443', maxSSLExpiry: 14 },
        base: 22,
        jitter: 30,
        profile: 'stable',
        ok: 'certificate expires in 41 days',
        err: 'x509: certificate has expired',
      },
      {
        key: 'tls-grafana',
        name: 'grafana certificate',
        type: 'tls',
        endpoint: 'localhost:3443',
        description: 'Certificate valid for more than 7 days',
        severity: 'low',
        labels: { team: 'sre' },
        spec: { name: 'grafana certificate', endpoint: 'localhost:3443', maxSSLExpiry: 7 },
        base: 18,
        jitter: 25,
        profile: 'stable',
        ok: 'certificate expires in 12 days',
        err: 'x509: certificate signed by unknown authority',
      },
      http('auth-portal', 'auth portal certificate', 'https://localhost:8444/', {
        type: 'http',
        description: 'login page',
        labels: { team: 'platform' },
        spec: {
          name: 'auth portal certificate',
          url: 'https://localhost:8444/',
          maxSSLExpiry: 21,
          responseCodes: [200, 302],
        },
        base: 60,
        jitter: 90,
      }),
    ],
  },
  {
    key: 'eu-west-internal',
    name: 'eu-west-internal',
    namespace: 'payments',
    schedule: '@every 10m',
    step: 10,
    agent: 'eu-west-prod',
    labels: { env: 'production', cluster: 'prod-eu-1' },
    checks: [
      http('payments-worker', 'payments-worker health', 'http://127.0.0.1:9101/healthz', {
        labels: { team: 'payments', service: 'payments-worker' },
        severity: 'high',
      }),
      http('ledger', 'ledger health', 'http://127.0.0.1:9102/healthz', {
        labels: { team: 'payments', service: 'ledger' },
        severity: 'high',
        profile: 'flaky',
        err: 'expected response code [200] but got 500 Internal Server Error',
      }),
      {
        key: 'disk-usage',
        name: 'node disk usage',
        type: 'exec',
        endpoint: 'df -h /',
        description: 'Root volume under 85%',
        severity: 'medium',
        labels: { team: 'sre' },
        spec: {
          name: 'node disk usage',
          script: "df --output=pcent / | tail -1 | tr -dc '0-9'",
          test: { expr: 'int(results.stdout) < 85' },
        },
        base: 30,
        jitter: 40,
        profile: 'stable',
        ok: '61',
        err: '91: root volume above 85%',
      },
      {
        key: 'error-rate',
        name: 'payments 5xx rate',
        type: 'prometheus',
        endpoint: 'http://127.0.0.1:9090',
        description: '5xx rate under 1%',
        severity: 'critical',
        labels: { team: 'payments' },
        spec: {
          name: 'payments 5xx rate',
          url: 'http://127.0.0.1:9090',
          query:
            'sum(rate(http_requests_total{service="payments-api",code=~"5.."}[5m])) / sum(rate(http_requests_total{service="payments-api"}[5m]))',
          test: { expr: 'results[0].value < 0.01' },
        },
        base: 35,
        jitter: 50,
        profile: 'down',
        ok: '0.002',
        err: '0.137 exceeds 0.01',
        icon: 'prometheus',
      },
      {
        key: 'consumer-lag',
        name: 'ledger consumer lag',
        type: 'prometheus',
        endpoint: 'http://127.0.0.1:9090',
        description: 'Kafka consumer lag under 10k',
        severity: 'medium',
        labels: { team: 'payments' },
        spec: {
          name: 'ledger consumer lag',
          url: 'http://127.0.0.1:9090',
          query: 'sum(kafka_consumergroup_lag{group="ledger"})',
          test: { expr: 'results[0].value < 10000' },
        },
        base: 40,
        jitter: 60,
        profile: 'flaky',
        ok: '1204',
        err: '48211 exceeds 10000',
        icon: 'kafka',
      },
    ],
  },
];

export const canaryId = (key: string): string => did('canary', key);
export const checkId = (key: string): string => did('check', key);

/** Canaries, checks and a week of check_statuses, then each check's current state. */
/**
 * A check's entry in its canary's spec carries what the dashboard shows (description, icon,
 * labels, severity, owner), so the engine's re-sync of a canary keeps the demo checks as seeded.
 */
function specEntry(k: CheckDef): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    ...k.spec,
    description: k.description,
    icon: k.icon ?? k.type,
    labels: k.labels,
    severity: k.severity,
  };
  if (k.labels.team) entry.owner = k.labels.team;
  return entry;
}

export async function seedHealth(ctx: SeedContext): Promise<void> {
  const canaries: Row[] = [];
  const checks: Row[] = [];
  const series: Row[] = [];
  CANARIES.forEach((c, ci) => {
    const agentId = c.agent === LOCAL_AGENT ? LOCAL_AGENT : agent(c.agent as 'eu-west-prod');
    const spec: Record<string, unknown> = { schedule: c.schedule };
    for (const k of c.checks) ((spec[k.type] ??= []) as unknown[]).push(specEntry(k));
    canaries.push({
      id: canaryId(c.key),
      agent_id: agentId,
      name: c.name,
      namespace: c.namespace,
      labels: c.labels,
      spec,
      schedule: c.schedule,
      source: ci === 4 ? 'KubernetesCRD' : 'UI',
      icon: null,
      created_by: person(ci % 2 ? 'liam' : 'ava'),
      created_at: ago(ctx, (50 - ci * 5) * DAY),
      updated_at: ago(ctx, (6 - ci) * DAY),
    });
    c.checks.forEach((k, i) => {
      checks.push({
        id: checkId(k.key),
        canary_id: canaryId(c.key),
        agent_id: agentId,
        name: k.name,
        namespace: c.namespace,
        description: k.description,
        type: k.type,
        icon: k.icon ?? k.type,
        endpoint: k.endpoint,
        severity: k.severity,
        labels: { ...c.labels, ...k.labels },
        spec: specEntry(k),
        owner: k.labels.team ?? null,
        created_at: ago(ctx, (50 - ci * 5) * DAY),
        updated_at: ago(ctx, 1 * DAY),
      });
      const r = ctx.rng;
      series.push({
        id: checkId(k.key),
        step: c.step,
        base: k.base,
        jitter: k.jitter,
        ok: k.ok,
        err: k.err,
        // per-mille chance of an isolated failure
        fail_rate: k.profile === 'flaky' ? 40 : k.profile === 'stable' ? 4 : 8,
        flaky: k.profile === 'flaky',
        // minutes of the current outage (down) counted back from now
        down_min: k.profile === 'down' ? r.int(35, 95) : 0,
        // an older failing streak: starts this many minutes ago, lasts len minutes
        streak_start_min:
          k.profile === 'recovered'
            ? r.int(6, 60) * 60
            : k.profile === 'stable' && i % 3 === 0
              ? r.int(2, 6) * 1440
              : 0,
        streak_len_min:
          k.profile === 'recovered' ? r.int(30, 240) : k.profile === 'stable' && i % 3 === 0 ? r.int(10, 40) : 0,
      });
    });
  });
  await insertRows(ctx, 'canaries', canaries);
  await insertRows(ctx, 'checks', checks);

  // A week of history per check, set-based: one row per run, mostly passing; flaky checks
  // fail at random and for an hour every 31 hours; down checks have failed since down_min.
  await ctx.tx.query(
    `INSERT INTO check_statuses (check_id, time, duration, status, message, error, created_at)
     SELECT c.id, t.time,
       CASE WHEN s.ok THEN c.base + (h.v >> 8) % greatest(c.jitter, 1)
            ELSE c.base * 3 + (h.v >> 8) % greatest(c.jitter * 4, 1) END,
       s.ok,
       CASE WHEN s.ok THEN c.ok ELSE NULL END,
       CASE WHEN s.ok THEN NULL ELSE c.err END,
       t.time
     FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, step int, base int, jitter int, ok text, err text, fail_rate int,
            flaky boolean, down_min int, streak_start_min int, streak_len_min int)
     CROSS JOIN LATERAL (
       SELECT k, date_trunc('minute', now()) - make_interval(mins => c.step * k) - make_interval(secs => ('x' || substr(md5(c.id::text), 1, 4))::bit(16)::int % 50) AS time
       FROM generate_series(0, (7 * 24 * 60) / c.step) k
     ) t
     CROSS JOIN LATERAL (SELECT ('x' || substr(md5(c.id::text || ':' || t.k), 1, 7))::bit(28)::int AS v) h
     CROSS JOIN LATERAL (SELECT NOT (
         (h.v % 1000) < c.fail_rate
         OR (c.down_min > 0 AND t.k * c.step < c.down_min)
         OR (c.streak_len_min > 0 AND t.k * c.step BETWEEN c.streak_start_min AND c.streak_start_min + c.streak_len_min)
         OR (c.flaky AND (floor(extract(epoch FROM t.time) / 3600)::bigint % 31) = 0)
       ) AS ok) s`,
    [JSON.stringify(series)],
  );

  // Current state of each check from its history: latest status, when it last flipped.
  await ctx.tx.query(
    `UPDATE checks c SET
       status = CASE WHEN l.status THEN 'healthy' ELSE 'unhealthy' END,
       last_runtime = l.time,
       next_runtime = l.time + make_interval(mins => j.step),
       last_transition_time = coalesce((
         SELECT min(s.time) FROM check_statuses s
         WHERE s.check_id = c.id AND s.time > coalesce((
           SELECT max(s2.time) FROM check_statuses s2 WHERE s2.check_id = c.id AND s2.status <> l.status), '-infinity')
       ), l.time)
     FROM jsonb_to_recordset($1::jsonb) AS j(id uuid, step int),
       LATERAL (SELECT s.time, s.status FROM check_statuses s WHERE s.check_id = j.id ORDER BY s.time DESC LIMIT 1) l
     WHERE c.id = j.id`,
    [JSON.stringify(series.map((s) => ({ id: s.id, step: s.step })))],
  );
}
