import { did, insertRows, ago, DAY, type SeedContext } from './util.ts';
import { person } from './people.ts';

interface PlaybookDef {
  key: string;
  title: string;
  description: string;
  icon: string;
  category: string | null;
  source?: string;
  spec: Record<string, unknown>;
}

const exec = (name: string, script: string) => ({ name, exec: { script } });

const PLAYBOOKS: PlaybookDef[] = [
  // These two run on this machine as shipped: a script in the sandbox and a call to the console itself.
  {
    key: 'inspect-check-host',
    title: 'Inspect check host',
    icon: 'terminal',
    category: 'Health',
    description: 'Resolve a check endpoint and show the sandbox host details',
    spec: {
      checks: [{ types: ['http', 'tcp', 'dns', 'icmp', 'tls'] }],
      parameters: [
        { name: 'lines', label: 'Lines of output', type: 'text', default: '5', properties: { min: 1, max: 50 } },
      ],
      actions: [
        exec('host', 'uname -srm; echo "check: {{.check.name}} ({{.check.type}})"; date -u'),
        exec('endpoint', 'echo "{{.check.endpoint}}" | head -n {{.params.lines}}'),
      ],
    },
  },
  {
    key: 'console-health',
    title: 'Console health',
    icon: 'heart-pulse',
    category: 'Health',
    description: "Ask this console's own health endpoint and report the answer",
    spec: {
      actions: [
        { name: 'health', http: { url: '{{.console.url}}/api/health', expectedStatus: [200] } },
        exec('report', 'echo "database: {{.actions.health.result.body.database}}"'),
      ],
    },
  },
  {
    key: 'restart-deployment',
    title: 'Restart deployment',
    icon: 'kubernetes',
    category: 'Kubernetes',
    description: 'Rolling restart of a Kubernetes deployment',
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

/**
 * Playbooks as people wrote them. No runs, actions or approvals: those are what the playbook
 * runner records when someone runs one.
 */
export async function seedPlaybooks(ctx: SeedContext): Promise<void> {
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
}
