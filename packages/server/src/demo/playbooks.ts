import { did, insertRows, ago, ahead, DAY, MINUTE, LOCAL_AGENT, type SeedContext, type Row } from './util.ts';
import { person, team, agent, type PersonKey } from './people.ts';
import { checkId } from './health.ts';
import { configId, type CatalogResult } from './catalog.ts';
import { componentId } from './topology.ts';

interface PlaybookDef {
  key: string;
  title: string;
  description: string;
  icon: string;
  category: string | null;
  source?: string;
  spec: Record<string, unknown>;
  target: 'config' | 'component' | 'check';
  targets: string[];
  params: (i: number) => Record<string, string>;
  approval?: boolean;
}

const exec = (name: string, script: string) => ({ name, exec: { script } });

export const PLAYBOOKS: PlaybookDef[] = [
  {
    key: 'restart-deployment',
    title: 'Restart deployment',
    icon: 'kubernetes',
    category: 'Kubernetes',
    description: 'Rolling restart of a Kubernetes deployment',
    target: 'config',
    targets: [
      'k8s/prod-eu-1/Deployment/payments/payments-api',
      'k8s/prod-eu-1/Deployment/checkout/cart-service',
      'k8s/prod-eu-1/Deployment/identity/auth-service',
      'k8s/staging-us-1/Deployment/checkout/cart-service',
    ],
    params: (i) => ({
      reason: [
        'Memory leak mitigation',
        'Pick up new ConfigMap',
        'Stuck connections to orders-db',
        'Clear ImagePullBackOff',
      ][i % 4],
    }),
    spec: {
      description: 'Rolling restart of a Kubernetes deployment',
      configs: [{ types: ['Kubernetes::Deployment'] }],
      parameters: [
        {
          name: 'reason',
          label: 'Reason',
          type: 'text',
          required: true,
          properties: { multiline: 'true', maxLength: 200 },
        },
      ],
      actions: [
        exec('restart', 'kubectl rollout restart deployment/{{.config.name}} -n {{.config.tags.namespace}}'),
        exec(
          'wait for rollout',
          'kubectl rollout status deployment/{{.config.name}} -n {{.config.tags.namespace}} --timeout=5m',
        ),
      ],
    },
  },
  {
    key: 'scale-deployment',
    title: 'Scale deployment',
    icon: 'kubernetes',
    category: 'Kubernetes',
    description: 'Change the replica count of a deployment',
    target: 'config',
    targets: ['k8s/prod-eu-1/Deployment/checkout/checkout-web', 'k8s/prod-eu-1/Deployment/payments/payments-worker'],
    params: (i) => ({ replicas: String(3 + (i % 4)) }),
    spec: {
      configs: [{ types: ['Kubernetes::Deployment', 'Kubernetes::StatefulSet'] }],
      parameters: [
        {
          name: 'replicas',
          label: 'Replicas',
          type: 'text',
          required: true,
          properties: { regex: '^[0-9]+$', min: 0, max: 50 },
        },
        { name: 'dry_run', label: 'Dry run', type: 'checkbox', default: 'false' },
      ],
      actions: [
        exec(
          'scale',
          'kubectl scale --replicas={{.params.replicas}} deployment/{{.config.name}} -n {{.config.tags.namespace}}',
        ),
      ],
    },
  },
  {
    key: 'diagnose-http-endpoint',
    title: 'Diagnose HTTP endpoint',
    icon: 'http',
    category: 'Health',
    description: 'Collect DNS, TLS and response details for a failing HTTP check',
    target: 'check',
    targets: ['payments-api', 'cart-service', 'grafana', 'checkout-web'],
    params: () => ({ verbose: 'true' }),
    spec: {
      checks: [{ types: ['http'] }],
      parameters: [{ name: 'verbose', label: 'Verbose output', type: 'checkbox', default: 'true' }],
      actions: [
        exec('resolve', 'getent hosts $(echo {{.check.spec.url}} | cut -d/ -f3 | cut -d: -f1)'),
        exec('request', 'curl -sS -o /dev/null -w "%{http_code} %{time_total}s\\n" {{.check.spec.url}}'),
        { name: 'wait', delay: '10s', exec: { script: 'sleep 10' } },
        exec('retry', 'curl -sS -o /dev/null -w "%{http_code} %{time_total}s\\n" {{.check.spec.url}}'),
      ],
    },
  },
  {
    key: 'reboot-ec2-instance',
    title: 'Reboot EC2 instance',
    icon: 'aws-ec2-instance',
    category: 'AWS',
    description: 'Reboot an EC2 instance after approval from the Platform team',
    target: 'config',
    targets: ['aws/EC2::Instance/jenkins', 'aws/EC2::Instance/build-runner-1', 'aws/EC2::Instance/bastion'],
    params: () => ({ confirm: 'true' }),
    approval: true,
    spec: {
      configs: [{ types: ['AWS::EC2::Instance'] }],
      approval: { type: 'any', approvers: { teams: ['Platform'] } },
      parameters: [
        { name: 'confirm', label: 'I understand the instance will be unavailable', type: 'checkbox', required: true },
      ],
      actions: [
        exec('reboot', 'aws ec2 reboot-instances --instance-ids {{.config.config.InstanceId}}'),
        exec('wait for instance', 'aws ec2 wait instance-running --instance-ids {{.config.config.InstanceId}}'),
      ],
    },
  },
  {
    key: 'delete-crashlooping-pod',
    title: 'Delete crash-looping pod',
    icon: 'kubernetes',
    category: 'Kubernetes',
    source: 'KubernetesCRD',
    description: 'Delete a pod so its ReplicaSet creates a fresh one',
    target: 'config',
    targets: ['k8s/prod-eu-1/Pod/payments/payments-api/1', 'k8s/staging-us-1/Pod/checkout/cart-service/0'],
    params: () => ({}),
    spec: {
      configs: [{ types: ['Kubernetes::Pod'], healths: ['unhealthy'] }],
      actions: [exec('delete', 'kubectl delete pod {{.config.name}} -n {{.config.tags.namespace}}')],
    },
  },
  {
    key: 'vacuum-analyze',
    title: 'VACUUM ANALYZE table',
    icon: 'postgres',
    category: 'Database',
    description: 'Run VACUUM (ANALYZE) on a table of a database component',
    target: 'component',
    targets: ['prod/data/orders-db'],
    params: (i) => ({ table: ['orders', 'order_items', 'payments'][i % 3], full: 'false' }),
    spec: {
      components: [{ types: ['Database'] }],
      parameters: [
        { name: 'table', label: 'Table', type: 'text', required: true, properties: { format: 'dns1123' } },
        { name: 'full', label: 'VACUUM FULL', type: 'checkbox', default: 'false' },
        { name: 'notes', label: 'Notes', type: 'code', properties: { language: 'yaml', size: 'small' } },
      ],
      actions: [
        {
          name: 'vacuum',
          sql: { connection: 'connection://data/orders-db', query: 'VACUUM (ANALYZE) {{.params.table}}' },
        },
      ],
    },
  },
  {
    key: 'notify-owners',
    title: 'Notify owners',
    icon: 'bell',
    category: null,
    description: 'Send a message to the owning team of a component',
    target: 'component',
    targets: ['prod/payments/payments-api', 'prod/data/kafka', 'prod/edge/smtp'],
    params: (i) => ({
      team: ['Payments', 'SRE', 'Platform'][i % 3],
      message: 'Please take a look at the current alerts.',
    }),
    spec: {
      components: [{ types: ['Service', 'MessageBroker', 'Database'] }],
      parameters: [
        { name: 'team', label: 'Team', type: 'team', required: true },
        { name: 'message', label: 'Message', type: 'text', properties: { multiline: 'true' } },
      ],
      actions: [
        {
          name: 'notify',
          notification: {
            connection: 'connection://default/sre-slack',
            title: 'Heads up',
            message: '{{.params.message}}',
          },
        },
      ],
    },
  },
];

type RunStatus = 'pending' | 'scheduled' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** Playbooks and about 50 runs over the last week, in every status, with their actions. */
export async function seedPlaybooks(ctx: SeedContext, catalog: CatalogResult): Promise<void> {
  const rng = ctx.rng;
  await insertRows(
    ctx,
    'playbooks',
    PLAYBOOKS.map((p, i) => ({
      id: did('playbook', p.key),
      name: p.key,
      namespace: 'default',
      title: p.title,
      description: p.description,
      icon: p.icon,
      category: p.category,
      source: p.source ?? 'UI',
      spec: { title: p.title, icon: p.icon, category: p.category ?? undefined, ...p.spec },
      created_by: person(i % 3 === 0 ? 'ava' : i % 3 === 1 ? 'liam' : 'lucas'),
      created_at: ago(ctx, (45 - i * 4) * DAY),
      updated_at: ago(ctx, (10 - i) * DAY),
    })),
  );

  const runs: Row[] = [];
  const actions: Row[] = [];
  const approvals: Row[] = [];
  const triggerers: PersonKey[] = ['liam', 'noah', 'mia', 'sofia', 'olivia', 'lucas', 'ava'];
  // Every status appears; most runs completed.
  const statuses: RunStatus[] = ['pending', 'scheduled', 'running', 'running', 'waiting', 'cancelled', 'cancelled'];
  const N = 52;
  for (let n = 0; n < N; n++) {
    const pb = PLAYBOOKS[n % PLAYBOOKS.length];
    const status: RunStatus =
      n < statuses.length
        ? statuses[n]
        : rng.weighted([
            ['completed', 9],
            ['failed', 1],
          ] as const);
    const target = pb.targets[n % pb.targets.length];
    const runId = did('playbook_run', n);
    const recent = ['pending', 'running', 'waiting'].includes(status);
    const createdMs = recent ? rng.int(1, 20) * MINUTE : rng.int(30, 7 * 24 * 60) * MINUTE;
    const scheduled = status === 'scheduled' ? ahead(ctx, rng.int(10, 120) * MINUTE) : ago(ctx, createdMs - 2000);
    const startMs = createdMs - rng.int(2, 30) * 1000;
    const specActions = (pb.spec.actions as { name: string }[]) ?? [];
    const stepMs = rng.int(3, 90) * 1000;
    const started =
      ['running', 'completed', 'failed', 'cancelled'].includes(status) && !(status === 'cancelled' && n % 2 === 0);
    const endMs = started && status !== 'running' ? Math.max(startMs - stepMs * specActions.length, 1000) : null;
    const runAgent = target.includes('prod-eu-1') ? agent('eu-west-prod') : LOCAL_AGENT;
    const run: Row = {
      id: runId,
      playbook_id: did('playbook', pb.key),
      status,
      agent_id: runAgent,
      parameters: pb.params(n),
      spec: pb.spec,
      trigger_source: n % 9 === 4 ? 'event' : n % 11 === 6 ? 'schedule' : 'manual',
      scheduled_time: scheduled,
      start_time: started ? ago(ctx, startMs) : null,
      end_time: endMs !== null ? ago(ctx, endMs) : null,
      error:
        status === 'failed' && n % 2 === 1
          ? 'failed to template action "restart": map has no entry for key "namespace"'
          : null,
      created_by: person(triggerers[n % triggerers.length]),
      created_at: ago(ctx, createdMs),
      updated_at: ago(ctx, endMs ?? createdMs),
      parent_id: n >= 20 && n % 10 === 0 ? did('playbook_run', n - 7) : null,
    };
    if (pb.target === 'config') run.config_id = configId(target);
    if (pb.target === 'component') run.component_id = componentId(target);
    if (pb.target === 'check') run.check_id = checkId(target);
    runs.push(run);
    if (!catalog.configs.has(target) && pb.target === 'config')
      throw new Error(`demo playbook target ${target} is not a config`);

    if (pb.approval && ['completed', 'failed', 'running'].includes(status)) {
      approvals.push({
        id: did('approval', n),
        run_id: runId,
        person_id: person('ava'),
        team_id: team('platform'),
        created_at: ago(ctx, startMs + 1000),
      });
    }
    if (!started) continue;
    // Actions: completed before the failing/running one, then skipped/pending after it.
    const failAt = status === 'failed' && !run.error ? rng.int(0, specActions.length - 1) : -1;
    const waitIdx = specActions.findIndex((a) => a.name === 'wait');
    const runningAt = status === 'running' ? (waitIdx >= 0 ? waitIdx : Math.min(1, specActions.length - 1)) : -1;
    specActions.forEach((a, k) => {
      const aStart = startMs - stepMs * k;
      let st: string;
      if (status === 'failed' && run.error) st = 'skipped';
      else if (status === 'cancelled') st = k < specActions.length - 1 ? 'completed' : 'cancelled';
      else if (failAt >= 0) st = k < failAt ? 'completed' : k === failAt ? 'failed' : 'skipped';
      else if (runningAt >= 0)
        st = k < runningAt ? 'completed' : k === runningAt ? (a.name === 'wait' ? 'sleeping' : 'running') : 'pending';
      else st = 'completed';
      const ran = ['completed', 'failed', 'running', 'sleeping'].includes(st);
      const done = st === 'completed' || st === 'failed';
      actions.push({
        id: did('playbook_action', `${n}:${k}`),
        playbook_run_id: runId,
        name: a.name,
        status: st,
        agent_id: runAgent,
        scheduled_time: ago(ctx, aStart + 500),
        start_time: ran ? ago(ctx, aStart) : null,
        end_time: done ? ago(ctx, Math.max(aStart - stepMs, 500)) : null,
        result:
          st === 'completed'
            ? {
                stdout: actionOutput(pb.key, a.name, run.parameters as Record<string, string>),
                stderr: '',
                exitCode: 0,
                logs: n % 5 === 0 ? `https://logs.example.com/playbooks/${runId}` : undefined,
              }
            : st === 'failed'
              ? {
                  stdout: '',
                  stderr:
                    'Error from server (Forbidden): deployments.apps is forbidden: User "system:serviceaccount:watchdeck:playbooks" cannot patch resource',
                  exitCode: 1,
                }
              : null,
        error: st === 'failed' ? 'exit status 1' : null,
        created_at: ago(ctx, aStart + 500),
        updated_at: ago(ctx, done ? Math.max(aStart - stepMs, 500) : aStart),
      });
    });
  }
  await insertRows(
    ctx,
    'playbook_runs',
    runs.filter((r) => !r.parent_id),
  );
  await insertRows(
    ctx,
    'playbook_runs',
    runs.filter((r) => r.parent_id),
  );
  await insertRows(ctx, 'playbook_run_actions', actions);
  await insertRows(ctx, 'playbook_approvals', approvals);
}

function actionOutput(playbook: string, action: string, params: Record<string, string>): string {
  switch (`${playbook}/${action}`) {
    case 'restart-deployment/restart':
      return 'deployment.apps/payments-api restarted';
    case 'restart-deployment/wait for rollout':
      return 'Waiting for deployment "payments-api" rollout to finish: 1 of 3 updated replicas are available...\ndeployment "payments-api" successfully rolled out';
    case 'scale-deployment/scale':
      return `deployment.apps/checkout-web scaled to ${params.replicas ?? 3}`;
    case 'diagnose-http-endpoint/resolve':
      return '127.0.0.1       localhost';
    case 'diagnose-http-endpoint/request':
    case 'diagnose-http-endpoint/retry':
      return '200 0.041823s';
    case 'diagnose-http-endpoint/wait':
      return '';
    case 'reboot-ec2-instance/reboot':
      return '';
    case 'reboot-ec2-instance/wait for instance':
      return 'instance i-0a1b2c3d4e5f60718 is running';
    case 'delete-crashlooping-pod/delete':
      return 'pod "payments-api-6f7c9d8b5-x7k2p" deleted';
    case 'vacuum-analyze/vacuum':
      return `VACUUM\nINFO:  "${params.table ?? 'orders'}": scanned 1204 of 1204 pages, containing 88211 live rows and 312 dead rows`;
    case 'notify-owners/notify':
      return 'notification sent to #sre-alerts';
    default:
      return 'ok';
  }
}
