import { did, insertRows, ago, DAY, HOUR, type SeedContext, type Row } from './util.ts';
import { person, team, type PersonKey } from './people.ts';
import type { CatalogResult } from './catalog.ts';
import type { TopologyResult } from './topology.ts';

type Status = 'new' | 'open' | 'investigating' | 'mitigated' | 'resolved' | 'closed';

interface EvidenceDef {
  // what a person attaches; no logs, changes or insights: those are engine output, never seeded
  type: 'topology' | 'config' | 'comment';
  description: string;
  ref?: string; // config key, component key
  dod?: boolean;
  done?: boolean;
}

interface HypothesisDef {
  title: string;
  type?: 'factor' | 'solution';
  status: 'proven' | 'likely' | 'possible' | 'unlikely' | 'improbable' | 'disproven';
  evidence?: EvidenceDef[];
  children?: HypothesisDef[];
}

interface IncidentDef {
  key: string;
  title: string;
  description: string;
  type: string;
  status: Status;
  severity: string;
  ageHours: number;
  commander: PersonKey;
  communicator?: PersonKey;
  creator: PersonKey;
  responders: ({ person: PersonKey } | { team: string; responderType: string; props: Record<string, string> })[];
  root: HypothesisDef;
  comments: [PersonKey, string][];
}

const INCIDENTS: IncidentDef[] = [
  {
    key: 'checkout-latency',
    title: 'Checkout latency above 2s p95',
    type: 'performance',
    status: 'investigating',
    severity: 'high',
    ageHours: 5,
    description: 'p95 latency of checkout-web rose from 350 ms to 2.4 s after 09:40 UTC. Conversion is down 8%.',
    commander: 'sofia',
    communicator: 'olivia',
    creator: 'sofia',
    responders: [
      { person: 'noah' },
      { person: 'mia' },
      {
        team: 'sre',
        responderType: 'jira',
        props: {
          project: 'OPS',
          issueType: 'Incident',
          priority: 'High',
          summary: 'Checkout latency above 2s p95',
          description: 'See Watchdeck incident',
        },
      },
    ],
    root: {
      title: 'Checkout is slow for all customers',
      status: 'likely',
      evidence: [
        {
          type: 'config',
          description: 'checkout-web deployment',
          ref: 'config:k8s/prod-eu-1/Deployment/checkout/checkout-web',
        },
      ],
      children: [
        {
          title: 'cart-service is throttled on CPU',
          status: 'likely',
          evidence: [
            { type: 'topology', description: 'cart-service warning', ref: 'component:prod/checkout/cart-service' },
            { type: 'comment', description: 'checkout-web logs: upstream timed out while reading from cart-service' },
          ],
          children: [{ title: 'Raise the CPU limit of cart-service to 1 core', type: 'solution', status: 'possible' }],
        },
        {
          title: 'Redis cache evictions',
          status: 'unlikely',
          evidence: [
            {
              type: 'config',
              description: 'payments-redis cache cluster',
              ref: 'config:aws/ElastiCache::CacheCluster/payments-redis',
            },
          ],
        },
        { title: 'A bad deploy of checkout-web', status: 'disproven' },
      ],
    },
    comments: [
      ['sofia', 'Declaring an incident: checkout p95 is at 2.4s. @Noah Patel can you look at cart-service?'],
      ['noah', 'cart-service pods are throttled at the 500m limit; CPU is pegged since the 09:40 traffic spike.'],
      ['mia', 'Redis looks fine: hit ratio 97%, no evictions.'],
      ['sofia', 'Ticket OPS-1842 opened for the SRE queue.'],
    ],
  },
  {
    key: 'payments-502',
    title: 'Payments API returning 502s',
    type: 'availability',
    status: 'open',
    severity: 'critical',
    ageHours: 1.2,
    description: 'payments-api health check failing; 13.7% of requests end in 502 at the gateway.',
    commander: 'olivia',
    creator: 'olivia',
    responders: [
      { person: 'mia' },
      {
        team: 'payments',
        responderType: 'service_now',
        props: {
          category: 'Payments',
          description: 'payments-api 502s',
          body: 'Customer payments failing intermittently',
        },
      },
    ],
    root: {
      title: 'Payments API unavailable for a share of requests',
      status: 'likely',
      evidence: [
        {
          type: 'config',
          description: 'payments-api deployment',
          ref: 'config:k8s/prod-eu-1/Deployment/payments/payments-api',
        },
        { type: 'comment', description: 'Gateway logs: 13.7% of payments requests end in 502' },
      ],
      children: [
        {
          title: 'A payments-api pod is crash looping',
          status: 'proven',
          evidence: [
            {
              type: 'config',
              description: 'Pod in CrashLoopBackOff',
              ref: 'config:k8s/prod-eu-1/Pod/payments/payments-api/1',
            },
            { type: 'comment', description: 'Back-off restarting failed container (kubectl describe pod)' },
          ],
        },
        {
          title: 'orders-db connection pool exhausted',
          status: 'possible',
          evidence: [
            { type: 'topology', description: 'orders-db connections 142/500', ref: 'component:prod/data/orders-db' },
          ],
        },
      ],
    },
    comments: [
      ['olivia', 'Paging payments on-call. Gateway shows 502 from one upstream pod.'],
      ['mia', 'payments-api-…-1 is in CrashLoopBackOff after the 1.14.2 rollout; OOMKilled twice.'],
    ],
  },
  {
    key: 'replica-lag',
    title: 'orders-db replica lag above 5 minutes',
    type: 'reliability',
    status: 'mitigated',
    severity: 'blocker',
    ageHours: 30,
    description: 'Read replica orders-db-replica fell 412 s behind the primary; reporting served stale data.',
    commander: 'sofia',
    communicator: 'noah',
    creator: 'isabella',
    responders: [
      { person: 'isabella' },
      {
        team: 'database',
        responderType: 'ms_planner',
        props: {
          plan_id: 'demo-plan-databases',
          bucket_id: 'demo-bucket-incidents',
          priority: 'important',
          title: 'orders-db replica lag',
          description: 'Replica lag above 5 minutes',
        },
      },
    ],
    root: {
      title: 'Replica cannot keep up with the primary',
      status: 'proven',
      evidence: [
        {
          type: 'config',
          description: 'orders-db-replica instance',
          ref: 'config:aws/RDS::DBInstance/orders-db-replica',
          dod: true,
          done: true,
        },
      ],
      children: [
        {
          title: 'Long-running analytics query holds a snapshot',
          status: 'proven',
          evidence: [
            { type: 'comment', description: 'Replica log: canceling statement due to conflict with recovery' },
          ],
          children: [{ title: 'Move analytics to a dedicated replica', type: 'solution', status: 'likely' }],
        },
        {
          title: 'Replica instance too small',
          status: 'improbable',
          evidence: [
            {
              type: 'config',
              description: 'db.r6g.large like the primary',
              ref: 'config:aws/RDS::DBInstance/orders-db-replica',
            },
          ],
        },
      ],
    },
    comments: [
      ['isabella', 'Lag caused by a 40-minute analytics query on the replica; cancelled it and lag is dropping.'],
      ['noah', 'Lag back under 30s. Keeping the incident mitigated until the analytics job moves.'],
      ['sofia', 'Definition of done: replica check healthy for 5 minutes.'],
    ],
  },
  {
    key: 'tls-expired',
    title: 'Expired TLS certificate on api-gateway',
    type: 'security',
    status: 'resolved',
    severity: 'high',
    ageHours: 50,
    description: 'The api-gateway certificate expired; clients failed TLS handshakes for 40 minutes.',
    commander: 'olivia',
    creator: 'lucas',
    responders: [
      { person: 'lucas' },
      {
        team: 'platform',
        responderType: 'email',
        props: { to: 'platform@example.com', subject: 'Expired certificate on api-gateway', body: 'Renewal needed' },
      },
    ],
    root: {
      title: 'Certificate renewal did not run',
      status: 'proven',
      evidence: [
        {
          type: 'config',
          description: 'prod-public-alb listener certificate',
          ref: 'config:aws/ElasticLoadBalancingV2::LoadBalancer/prod-public-alb',
          dod: true,
          done: true,
        },
      ],
      children: [
        {
          title: 'cert-manager lost its DNS01 credentials',
          status: 'proven',
          evidence: [
            {
              type: 'comment',
              description: 'Rotate the DNS01 credentials and add an expiry alert at 14 days',
              dod: true,
              done: true,
            },
          ],
          children: [{ title: 'Alert 14 days before expiry', type: 'solution', status: 'proven' }],
        },
      ],
    },
    comments: [
      ['lucas', 'Renewed manually; new cert valid for 90 days.'],
      ['olivia', 'Added maxSSLExpiry 14 to the TLS canary so this pages earlier next time.'],
    ],
  },
  {
    key: 'ec2-spend',
    title: 'Unexpected spend on EC2 build runners',
    type: 'cost',
    status: 'closed',
    severity: 'medium',
    ageHours: 24 * 18,
    description: 'Build runners ran idle over a long weekend: about $420 of unplanned spend.',
    commander: 'liam',
    creator: 'liam',
    responders: [{ person: 'lucas' }],
    root: {
      title: 'Runners are not scaled down when idle',
      status: 'proven',
      evidence: [
        { type: 'comment', description: 'Cost explorer: build runners averaged 4% CPU over the weekend' },
        {
          type: 'config',
          description: 'build-runner-1',
          ref: 'config:aws/EC2::Instance/build-runner-1',
          dod: true,
          done: true,
        },
      ],
      children: [{ title: 'Schedule runners to stop outside working hours', type: 'solution', status: 'proven' }],
    },
    comments: [
      ['liam', 'Added an instance scheduler; build-runner-2 is stopped by default now.'],
      ['lucas', 'Verified the schedule over two days. Closing.'],
    ],
  },
  {
    key: 'kafka-lag',
    title: 'Kafka consumer lag growing on ledger',
    type: 'performance',
    status: 'new',
    severity: 'warning',
    ageHours: 0.5,
    description: 'Consumer group ledger lag crossed 40k messages and is still rising.',
    commander: 'sofia',
    creator: 'mia',
    responders: [],
    root: {
      title: 'ledger consumers fall behind',
      status: 'possible',
      evidence: [{ type: 'config', description: 'kafka brokers', ref: 'config:k8s/prod-eu-1/StatefulSet/data/kafka' }],
    },
    comments: [['mia', 'Opening this to track; lag grows ~2k/min.']],
  },
  {
    key: 'auth-memory',
    title: 'auth-service memory leak',
    type: 'reliability',
    status: 'resolved',
    severity: 'low',
    ageHours: 24 * 6,
    description: 'auth-service memory grows ~50 MiB/hour until the pod is OOMKilled.',
    commander: 'olivia',
    creator: 'noah',
    responders: [{ person: 'noah' }],
    root: {
      title: 'Session cache never evicts',
      status: 'proven',
      evidence: [
        {
          type: 'config',
          description: 'auth-service pod restarts',
          ref: 'config:k8s/prod-eu-1/Pod/identity/auth-service/0',
        },
        {
          type: 'comment',
          description: 'Heap profile shows the session map growing without bound',
          dod: true,
          done: true,
        },
      ],
      children: [{ title: 'Bound the session cache with an LRU', type: 'solution', status: 'proven' }],
    },
    comments: [['noah', 'Fix released in auth-service 2.7.1; memory flat for 24h.']],
  },
  {
    key: 's3-public',
    title: 'Public S3 bucket policy detected',
    type: 'security',
    status: 'closed',
    severity: 'critical',
    ageHours: 24 * 12,
    description: 'example-data-exports allowed anonymous read access.',
    commander: 'ava',
    creator: 'ava',
    responders: [
      { person: 'lucas' },
      {
        team: 'platform',
        responderType: 'email',
        props: { to: 'security@example.com', subject: 'Public bucket', body: 'example-data-exports is public' },
      },
    ],
    root: {
      title: 'Bucket policy grants s3:GetObject to everyone',
      status: 'proven',
      evidence: [
        {
          type: 'config',
          description: 'example-data-exports bucket',
          ref: 'config:aws/S3::Bucket/example-data-exports',
        },
        { type: 'comment', description: 'CloudTrail: PutBucketPolicy granted s3:GetObject to Principal "*"' },
      ],
      children: [{ title: 'Enable Block Public Access account-wide', type: 'solution', status: 'proven' }],
    },
    comments: [
      ['ava', 'Policy reverted within 20 minutes; access logs show no anonymous reads.'],
      ['lucas', 'Block Public Access enabled at the account level.'],
    ],
  },
  {
    key: 'grafana-dashboards',
    title: 'Grafana dashboards failing to load',
    type: 'integration',
    status: 'closed',
    severity: 'info',
    ageHours: 24 * 21,
    description: 'The Prometheus data source in Grafana timed out after the Prometheus upgrade.',
    commander: 'sofia',
    creator: 'noah',
    responders: [{ person: 'noah' }],
    root: {
      title: 'Data source URL changed',
      status: 'proven',
      evidence: [{ type: 'topology', description: 'grafana', ref: 'component:prod/monitoring/grafana' }],
    },
    comments: [['noah', 'Updated the data source URL to the new service name.']],
  },
  {
    key: 'cis-nodes',
    title: 'CIS benchmark failures on nodes',
    type: 'compliance',
    status: 'open',
    severity: 'medium',
    ageHours: 24 * 3,
    description: 'kube-bench reports 4.2.6 failing on most production nodes.',
    commander: 'liam',
    creator: 'ava',
    responders: [
      {
        team: 'platform',
        responderType: 'jira',
        props: {
          project: 'PLAT',
          issueType: 'Task',
          priority: 'Medium',
          summary: 'CIS 4.2.6 on nodes',
          description: 'protect-kernel-defaults',
        },
      },
    ],
    root: {
      title: 'Node AMI kubelet flags',
      status: 'likely',
      evidence: [{ type: 'config', description: 'CIS 4.2.6 fails on this node', ref: 'config:k8s/prod-eu-1/Node/0' }],
    },
    comments: [['liam', 'Needs a new launch template; planned for next maintenance window.']],
  },
  {
    key: 'deprecated-apis',
    title: 'Deprecated API versions in manifests',
    type: 'technicalDebt',
    status: 'new',
    severity: 'low',
    ageHours: 24 * 2,
    description: 'grafana Ingress still uses extensions/v1beta1, removed in Kubernetes 1.22.',
    commander: 'lucas',
    creator: 'lucas',
    responders: [],
    root: {
      title: 'Old Helm chart for grafana',
      status: 'possible',
      evidence: [
        { type: 'config', description: 'grafana Ingress', ref: 'config:k8s/prod-eu-1/Ingress/monitoring/grafana' },
      ],
    },
    comments: [],
  },
  {
    key: 'dns-failures',
    title: 'Intermittent DNS resolution failures',
    type: 'availability',
    status: 'investigating',
    severity: 'high',
    ageHours: 9,
    description: 'api.internal lookups fail for about one minute every day; clients see "server misbehaving".',
    commander: 'olivia',
    communicator: 'sofia',
    creator: 'noah',
    responders: [{ person: 'noah' }, { person: 'isabella' }],
    root: {
      title: 'Internal resolution is flaky',
      status: 'likely',
      evidence: [
        {
          type: 'config',
          description: 'coredns deployment',
          ref: 'config:k8s/prod-eu-1/Deployment/kube-system/coredns',
        },
      ],
      children: [
        {
          title: 'CoreDNS pods restart during node scale-down',
          status: 'possible',
          evidence: [{ type: 'topology', description: 'coredns', ref: 'component:prod/kube-system/coredns' }],
        },
        { title: 'Upstream resolver rate limiting', status: 'unlikely' },
      ],
    },
    comments: [
      ['noah', 'Failures line up with cluster-autoscaler scale-down events.'],
      ['isabella', 'Adding a PodDisruptionBudget for coredns to test the theory.'],
    ],
  },
];

/** Incidents in every status and severity with hypotheses, evidence, comments, responders and history. */
export async function seedIncidents(ctx: SeedContext, catalog: CatalogResult, topology: TopologyResult): Promise<void> {
  const incidents: Row[] = [];
  const hyps: Row[] = [];
  const evs: Row[] = [];
  const comments: Row[] = [];
  const responders: Row[] = [];
  const history: Row[] = [];
  const rng = ctx.rng;

  for (const inc of INCIDENTS) {
    const id = did('incident', inc.key);
    const startMs = inc.ageHours * HOUR;
    const t = (fraction: number) => ago(ctx, startMs * (1 - fraction));
    const ackAt = inc.status === 'new' ? null : t(0.08);
    const resolvedAt = ['resolved', 'closed'].includes(inc.status) ? t(0.8) : null;
    const closedAt = inc.status === 'closed' ? t(0.95) : null;
    incidents.push({
      id,
      title: inc.title,
      description: inc.description,
      type: inc.type,
      status: inc.status,
      severity: inc.severity,
      commander_id: person(inc.commander),
      communicator_id: inc.communicator ? person(inc.communicator) : null,
      acknowledged: ackAt,
      resolved: resolvedAt,
      closed: closedAt,
      created_by: person(inc.creator),
      created_at: ago(ctx, startMs),
      updated_at: t(inc.status === 'new' ? 0.1 : 0.97),
    });
    const hist = (type: string, at: string, by: PersonKey, extra: Row = {}, description: string | null = null) =>
      history.push({
        id: did('history', `${inc.key}:${history.length}`),
        incident_id: id,
        type,
        description,
        created_by: person(by),
        created_at: at,
        ...extra,
      });
    hist('incident.created', ago(ctx, startMs), inc.creator, {}, inc.title);

    let evN = 0;
    let hN = 0;
    const addHyp = (h: HypothesisDef, parent: string | null, depth: number) => {
      const hid = did('hypothesis', `${inc.key}:${hN++}`);
      const at = t(0.02 + 0.05 * hN);
      hyps.push({
        id: hid,
        incident_id: id,
        parent_id: parent,
        title: h.title,
        type: parent ? (h.type ?? 'factor') : 'root',
        status: h.status,
        created_by: person(parent ? rng.pick(['noah', 'mia', 'sofia', 'olivia'] as const) : inc.creator),
        created_at: at,
        updated_at: at,
      });
      hist('hypothesis.created', at, inc.creator, { hypothesis_id: hid }, h.title);
      if (h.status !== 'possible')
        hist(
          'hypothesis.status_updated',
          t(0.1 + 0.05 * hN),
          inc.commander,
          { hypothesis_id: hid },
          `possible → ${h.status}`,
        );
      for (const e of h.evidence ?? []) {
        const eid = did('evidence', `${inc.key}:${evN++}`);
        const [kind, ...rest] = (e.ref ?? '').split(':');
        const ref = rest.join(':');
        const row: Row = {
          id: eid,
          hypothesis_id: hid,
          type: e.type,
          description: e.description,
          definition_of_done: e.dod ?? false,
          done: e.done ?? false,
          created_by: person(inc.commander),
          created_at: t(0.05 + 0.04 * evN),
          updated_at: t(0.05 + 0.04 * evN),
          properties: null,
          evidence: null,
        };
        if (kind === 'config') {
          const config = catalog.config(ref);
          row.config_id = config.id;
          row.evidence = { configName: config.name };
        }
        if (kind === 'component') row.component_id = topology.component(ref);
        if (e.type === 'comment') row.evidence = { comment: e.description };
        evs.push(row);
        hist(
          'evidence.created',
          row.created_at as string,
          inc.commander,
          { evidence_id: eid, hypothesis_id: hid },
          e.description,
        );
        if (e.dod) hist('evidence.done_definition_added', t(0.6), inc.commander, { evidence_id: eid }, e.description);
      }
      for (const c of h.children ?? []) addHyp(c, hid, depth + 1);
      return hid;
    };
    const rootId = addHyp(inc.root, null, 0);

    inc.responders.forEach((r, i) => {
      const rid = did('responder', `${inc.key}:${i}`);
      const created = t(0.05 + i * 0.03);
      const acked = inc.status !== 'new' ? t(0.1 + i * 0.03) : null;
      const done = ['resolved', 'closed', 'mitigated'].includes(inc.status);
      responders.push(
        'person' in r
          ? {
              id: rid,
              incident_id: id,
              type: 'person',
              person_id: person(r.person),
              properties: { responderType: 'person', person: person(r.person) },
              created_by: person(inc.commander),
              created_at: created,
              updated_at: created,
              acknowledge_time: acked,
              signoff_time: done ? t(0.8) : null,
              close_time: inc.status === 'closed' ? t(0.95) : null,
            }
          : {
              id: rid,
              incident_id: id,
              type: r.responderType,
              team_id: team(r.team),
              properties: { responderType: r.responderType, ...r.props },
              created_by: person(inc.commander),
              created_at: created,
              updated_at: created,
              acknowledge_time: acked,
              signoff_time: done ? t(0.8) : null,
              close_time: inc.status === 'closed' ? t(0.95) : null,
            },
      );
      hist(
        'responder.created',
        created,
        inc.commander,
        { responder_id: rid },
        'person' in r ? r.person : `${r.team} (${r.responderType})`,
      );
    });

    inc.comments.forEach(([by, text], i) => {
      const cid = did('comment', `${inc.key}:${i}`);
      const at = t(0.1 + (0.8 * (i + 1)) / (inc.comments.length + 1));
      comments.push({
        id: cid,
        incident_id: id,
        hypothesis_id: rootId,
        comment: text,
        created_by: person(by),
        created_at: at,
        updated_at: at,
      });
      hist('responder.commented', at, by, { comment_id: cid }, text.slice(0, 80));
    });

    // status path
    const path: Status[] = (
      {
        new: [],
        open: [],
        investigating: ['investigating'],
        mitigated: ['investigating', 'mitigated'],
        resolved: ['investigating', 'resolved'],
        closed: ['investigating', 'resolved', 'closed'],
      } as const
    )[inc.status].slice();
    let prev: Status = 'open';
    path.forEach((s, i) => {
      hist('incident.status_updated', t(0.2 + 0.25 * i), inc.commander, {}, `${prev} → ${s}`);
      prev = s;
    });
  }
  await insertRows(ctx, 'incident_rules', [
    {
      id: did('incident_rule', 'critical-checks'),
      name: 'critical-checks',
      priority: 10,
      source: 'UI',
      created_by: person('sofia'),
      spec: {
        name: 'critical-checks',
        filter: { kind: 'check', severities: ['critical'] },
        autoResolve: true,
        template: { type: 'availability', severity: 'critical', title: '{{.check.name}} is failing' },
        responders: { teams: [{ name: 'SRE', type: 'email' }] },
      },
      created_at: ago(ctx, 40 * DAY),
      updated_at: ago(ctx, 7 * DAY),
    },
    {
      id: did('incident_rule', 'security-insights'),
      name: 'unhealthy-data-stores',
      priority: 5,
      source: 'UI',
      created_by: person('ava'),
      spec: {
        name: 'unhealthy-data-stores',
        filter: { kind: 'component', types: ['Database', 'Cache', 'Queue'] },
        autoResolve: true,
        template: { type: 'reliability', severity: 'high', title: '{{.component.name}} is {{.component.status}}' },
        responders: { people: ['Isabella Rossi'] },
      },
      created_at: ago(ctx, 35 * DAY),
      updated_at: ago(ctx, 35 * DAY),
    },
  ]);
  // The demo writes its own backdated changelog below: the database's history triggers
  // (incidents/sql/50-incidents.sql) stay off for this seed transaction only.
  await ctx.tx.query(`SELECT set_config('watchdeck.incident_history', 'off', true)`);
  // Human-readable numbers (INC...) follow creation order.
  incidents.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  for (const row of incidents) await insertRows(ctx, 'incidents', [row]);
  await insertRows(ctx, 'hypotheses', hyps);
  await insertRows(ctx, 'evidences', evs);
  await insertRows(ctx, 'responders', responders);
  await insertRows(ctx, 'comments', comments);
  await insertRows(ctx, 'incident_histories', history);
}
