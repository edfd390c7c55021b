import { did, insertRows, ago, ahead, DAY, HOUR, MINUTE, type SeedContext, type Row } from './util.ts';
import { person, team } from './people.ts';
import { checkId, canaryId, CANARIES } from './health.ts';
import { configId, type CatalogResult } from './catalog.ts';
import { componentId } from './topology.ts';

const RULES = [
  {
    key: 'check-failures',
    name: 'check-failures',
    title: 'Failing checks to SRE',
    events: ['check.failed', 'check.passed'],
    team: 'sre',
    repeat: '1h',
    filter: "check.severity in ['high', 'critical']",
    template: '{{.check.name}} is {{.status}}: {{.status.message}}',
  },
  {
    key: 'unhealthy-configs',
    name: 'unhealthy-configs',
    title: 'Unhealthy production configs',
    events: ['config.unhealthy', 'config.warning'],
    person: 'liam' as const,
    repeat: '6h',
    filter: "config.tags.cluster == 'prod-eu-1'",
  },
  {
    key: 'component-health',
    name: 'component-health',
    title: 'Component health to #sre-alerts',
    events: ['component.unhealthy', 'component.warning', 'component.healthy'],
    custom: [{ name: 'sre-slack', connection: 'connection://default/sre-slack' }],
    repeat: '2h',
  },
  {
    key: 'playbook-approvals',
    name: 'playbook-approvals',
    title: 'Playbook approvals',
    events: ['playbook.approval.inserted', 'playbook.spec.approval.updated'],
    team: 'platform',
  },
  {
    key: 'config-deleted',
    name: 'config-deleted',
    title: 'Deleted configs',
    events: ['config.deleted', 'config.created'],
    person: 'ava' as const,
    source: 'KubernetesCRD',
    error: 'template: body:1: unexpected "}" in operand',
  },
];

/** Notification rules, about 200 sends over the last week in every status, and silences. */
export async function seedNotifications(ctx: SeedContext, catalog: CatalogResult): Promise<void> {
  const rng = ctx.rng;
  await insertRows(
    ctx,
    'notifications',
    RULES.map((r, i) => ({
      id: did('notification', r.key),
      name: r.name,
      namespace: 'default',
      title: r.title,
      events: r.events,
      filter: r.filter ?? null,
      template: r.template ?? null,
      repeat_interval: r.repeat ?? null,
      person_id: r.person ? person(r.person) : null,
      team_id: r.team ? team(r.team) : null,
      custom_services: r.custom ?? null,
      source: r.source ?? 'UI',
      properties: r.custom ? { slack: { channel: '#sre-alerts' } } : null,
      error: r.error ?? null,
      error_at: r.error ? ago(ctx, 3 * HOUR) : null,
      created_by: person(i % 2 ? 'sofia' : 'ava'),
      created_at: ago(ctx, (40 - i * 3) * DAY),
      updated_at: ago(ctx, (9 - i) * DAY),
    })),
  );

  const silences: Row[] = [
    {
      id: did('silence', 'grafana'),
      description: 'Grafana upgrade maintenance window',
      check_id: checkId('grafana'),
      from: ago(ctx, 2 * HOUR),
      until: ahead(ctx, 2 * DAY),
      created_by: person('noah'),
    },
    {
      id: did('silence', 'staging'),
      description: 'Staging cluster rebuild',
      component_id: componentId('staging'),
      recursive: true,
      from: ago(ctx, 1 * DAY),
      until: ahead(ctx, 6 * DAY),
      created_by: person('liam'),
    },
    {
      id: did('silence', 'crashloop'),
      description: 'Known crash loop, fix in progress (OPS-1842)',
      config_id: configId('k8s/prod-eu-1/Pod/payments/payments-api/1'),
      from: ago(ctx, 40 * MINUTE),
      until: ahead(ctx, 4 * HOUR),
      created_by: person('olivia'),
    },
    {
      id: did('silence', 'network'),
      description: 'Network canary during switch replacement',
      canary_id: canaryId('network'),
      recursive: true,
      from: ago(ctx, 3 * DAY),
      until: ago(ctx, 2 * DAY),
      created_by: person('sofia'),
    },
    {
      id: did('silence', 'old'),
      description: 'Temporary silence, superseded',
      check_id: checkId('smtp-relay'),
      from: ago(ctx, 5 * DAY),
      until: ago(ctx, 4 * DAY),
      created_by: person('mia'),
      deleted_at: ago(ctx, 4 * DAY + HOUR),
    },
  ].map((s) => ({ namespace: 'default', source: 'UI', created_at: s.from, updated_at: s.from, ...s }));
  await insertRows(ctx, 'notification_silences', silences);

  const checks = CANARIES.flatMap((c) =>
    c.checks.filter((k) => ['high', 'critical'].includes(k.severity)).map((k) => k),
  );
  const unhealthyConfigs = [...catalog.configs.values()].filter(
    (c) => c.health !== 'healthy' && c.key.startsWith('k8s/prod-eu-1'),
  );
  const comps = [
    'prod/payments/payments-api',
    'prod/payments/ledger',
    'prod/checkout/cart-service',
    'prod/edge/smtp',
    'prod/data/kafka',
    'prod/monitoring/grafana',
  ];
  const sends: Row[] = [];
  for (let n = 0; n < 210; n++) {
    const kind = rng.weighted([
      ['check', 5],
      ['config', 3],
      ['component', 3],
      ['playbook', 1],
    ] as const);
    const atMs = rng.int(1, 7 * 24 * 60) * MINUTE;
    const status =
      n < 3
        ? 'pending'
        : rng.weighted([
            ['sent', 70],
            ['error', 8],
            ['repeat-interval', 12],
            ['silenced', 6],
            ['cancelled', 4],
          ] as const);
    let row: Row;
    if (kind === 'check') {
      const k = rng.pick(checks);
      const failed = rng.chance(0.7);
      row = {
        notification_id: did('notification', 'check-failures'),
        source_event: failed ? 'check.failed' : 'check.passed',
        resource_type: 'check',
        resource_id: checkId(k.key),
        team_id: team('sre'),
        body: `**${k.name}** is ${failed ? 'failing' : 'passing again'}\n\n${failed ? k.err : k.ok}`,
        silenced_by: status === 'silenced' ? did('silence', k.key === 'grafana' ? 'grafana' : 'old') : null,
      };
    } else if (kind === 'config') {
      const c = rng.pick(unhealthyConfigs);
      row = {
        notification_id: did('notification', 'unhealthy-configs'),
        source_event: `config.${c.health === 'warning' ? 'warning' : 'unhealthy'}`,
        resource_type: 'config',
        resource_id: c.id,
        person_id: person('liam'),
        body: `${c.type} **${c.name}** is ${c.health}`,
        silenced_by: status === 'silenced' ? did('silence', 'crashloop') : null,
      };
    } else if (kind === 'component') {
      const key = rng.pick(comps);
      row = {
        notification_id: did('notification', 'component-health'),
        source_event: rng.pick(['component.unhealthy', 'component.warning', 'component.healthy']),
        resource_type: 'component',
        resource_id: componentId(key),
        body: `Component **${key.split('/').pop()}** changed health`,
        silenced_by: status === 'silenced' ? did('silence', 'staging') : null,
      };
    } else {
      row = {
        notification_id: did('notification', 'playbook-approvals'),
        source_event: 'playbook.approval.inserted',
        resource_type: 'playbook_run',
        resource_id: did('playbook_run', 4),
        team_id: team('platform'),
        body: 'Playbook **Reboot EC2 instance** is waiting for approval',
        silenced_by: null,
      };
    }
    const count = status === 'repeat-interval' ? rng.int(2, 14) : 1;
    sends.push({
      id: did('notification_send', n),
      status,
      count,
      error:
        status === 'error'
          ? rng.pick([
              'dial tcp 127.0.0.1:25: connect: connection refused',
              'slack: channel_not_found',
              'webhook returned 502 Bad Gateway',
            ])
          : null,
      duration_millis: ['sent', 'error'].includes(status) ? rng.int(80, 2400) : null,
      first_observed: ago(ctx, atMs + (count > 1 ? count * HOUR : 0)),
      created_at: ago(ctx, atMs),
      updated_at: ago(ctx, atMs),
      ...row,
    });
  }
  await insertRows(ctx, 'notification_send_history', sends);
}
