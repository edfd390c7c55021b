import { did, insertRows, ago, ahead, DAY, HOUR, MINUTE, type SeedContext, type Row } from './util.ts';
import { person, team } from './people.ts';
import { checkId, canaryId } from './health.ts';
import type { CatalogResult } from './catalog.ts';
import type { TopologyResult } from './topology.ts';

const RULES = [
  {
    key: 'check-failures',
    name: 'check-failures',
    title: 'Failing checks to SRE',
    events: ['check.failed', 'check.passed'],
    team: 'sre',
    repeat: '1h',
    filter: "check.severity in ['high', 'critical']",
    template: '{{.check.name}} is {{.status}}: {{.check.error}}',
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
  },
];

/**
 * Notification rules and silences, as people wrote them. No sends and no rule errors: those are
 * what the notification engine reports once it delivers.
 */
export async function seedNotifications(
  ctx: SeedContext,
  catalog: CatalogResult,
  topology: TopologyResult,
): Promise<void> {
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
      created_by: person(i % 2 ? 'sofia' : 'ava'),
      created_at: ago(ctx, (40 - i * 3) * DAY),
      updated_at: ago(ctx, (9 - i) * DAY),
    })),
  );

  const silences: Row[] = [
    {
      id: did('silence', 'deliberate'),
      description: 'The demo fails this check on purpose',
      check_id: checkId('tcp-closed'),
      from: ago(ctx, 2 * HOUR),
      until: ahead(ctx, 30 * DAY),
      created_by: person('noah'),
    },
    {
      id: did('silence', 'staging'),
      description: 'Staging cluster rebuild',
      component_id: topology.component('staging'),
      recursive: true,
      from: ago(ctx, 1 * DAY),
      until: ahead(ctx, 6 * DAY),
      created_by: person('liam'),
    },
    {
      id: did('silence', 'crashloop'),
      description: 'Known crash loop, fix in progress (OPS-1842)',
      config_id: catalog.config('k8s/prod-eu-1/Pod/payments/payments-api/1').id,
      from: ago(ctx, 40 * MINUTE),
      until: ahead(ctx, 4 * HOUR),
      created_by: person('olivia'),
    },
    {
      id: did('silence', 'deliberate-canary'),
      description: 'Deliberate failures while preparing a demo',
      canary_id: canaryId('deliberate-failures'),
      recursive: true,
      from: ago(ctx, 3 * DAY),
      until: ago(ctx, 2 * DAY),
      created_by: person('sofia'),
    },
    {
      id: did('silence', 'old'),
      description: 'Temporary silence, superseded',
      check_id: checkId('dns-closed'),
      from: ago(ctx, 5 * DAY),
      until: ago(ctx, 4 * DAY),
      created_by: person('mia'),
      deleted_at: ago(ctx, 4 * DAY + HOUR),
    },
  ].map((s) => ({ namespace: 'default', source: 'UI', created_at: s.from, updated_at: s.from, ...s }));
  await insertRows(ctx, 'notification_silences', silences);
}
