import { did, insertRows, ago, DAY, type SeedContext, type Row } from './util.ts';

/** Demo people: at least one per role; keys are used by the other sections. */
const PEOPLE = [
  { key: 'ava', first: 'Ava', last: 'Thompson', roles: ['admin'] },
  { key: 'liam', first: 'Liam', last: 'Chen', roles: ['editor'] },
  { key: 'lucas', first: 'Lucas', last: 'Schmidt', roles: ['editor'] },
  { key: 'sofia', first: 'Sofia', last: 'Martinez', roles: ['commander'] },
  { key: 'olivia', first: 'Olivia', last: 'Nguyen', roles: ['commander', 'responder'] },
  { key: 'noah', first: 'Noah', last: 'Patel', roles: ['responder'] },
  { key: 'mia', first: 'Mia', last: 'Kowalski', roles: ['responder'] },
  { key: 'isabella', first: 'Isabella', last: 'Rossi', roles: ['responder'] },
  { key: 'ethan', first: 'Ethan', last: 'Brooks', roles: ['viewer'] },
  { key: 'james', first: 'James', last: "O'Connor", roles: ['viewer'] },
] as const;
export type PersonKey = (typeof PEOPLE)[number]['key'];

export const person = (key: PersonKey): string => did('person', key);
export const team = (key: string): string => did('team', key);
const agent = (key: 'eu-west-prod' | 'us-east-staging'): string => did('agent', key);

const TEAMS = [
  {
    key: 'platform',
    name: 'Platform',
    icon: 'kubernetes',
    members: ['ava', 'liam', 'lucas'] as PersonKey[],
    spec: {
      responder_clients: {
        email: {
          values: { to: 'platform@example.com' },
          defaults: { subject: '[{{.incident.incident_id}}] {{.incident.title}}' },
        },
        jira: {
          values: { project: 'PLAT' },
          defaults: {
            issueType: 'Task',
            priority: 'Medium',
            summary: '{{.incident.title}}',
            description: '{{.incident.description}}',
          },
          linkUrl: 'https://jira.example.com/browse/{{.external_id}}',
        },
      },
    },
  },
  {
    key: 'sre',
    name: 'SRE',
    icon: 'heart-pulse',
    members: ['sofia', 'olivia', 'noah', 'mia'] as PersonKey[],
    spec: {
      responder_clients: {
        jira: {
          values: { project: 'OPS', issueType: 'Incident' },
          defaults: { priority: 'High', summary: '{{.incident.title}}', description: '{{.incident.description}}' },
          linkUrl: 'https://jira.example.com/browse/{{.external_id}}',
        },
        email: {
          values: { to: 'sre-oncall@example.com' },
          defaults: { subject: '[{{.incident.incident_id}}] {{.incident.title}}', body: '{{.incident.description}}' },
        },
      },
    },
  },
  {
    key: 'database',
    name: 'Database',
    icon: 'postgres',
    members: ['isabella', 'noah'] as PersonKey[],
    spec: {
      responder_clients: {
        ms_planner: {
          values: { plan_id: 'demo-plan-databases', bucket_id: 'demo-bucket-incidents' },
          defaults: { priority: 'important', title: '{{.incident.title}}' },
        },
      },
    },
  },
  {
    key: 'payments',
    name: 'Payments',
    icon: 'credit-card',
    members: ['liam', 'mia', 'ethan'] as PersonKey[],
    spec: {
      responder_clients: {
        service_now: { values: { category: 'Payments' }, defaults: { description: '{{.incident.title}}' } },
      },
    },
  },
] as const;

/** People, identities (no credentials: sign-in accounts are made by the identity service),
 * roles, teams and members, and the two remote agents with their agent identities. */
export async function seedPeople(ctx: SeedContext): Promise<void> {
  const people: Row[] = PEOPLE.map((p, i) => ({
    id: person(p.key),
    name: `${p.first} ${p.last}`,
    email: `${p.first}.${p.last}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com',
    type: 'person',
    created_at: ago(ctx, (90 - i) * DAY),
    updated_at: ago(ctx, (10 - i) * DAY),
  }));
  people.push(
    {
      id: did('person', 'agent:eu-west-prod'),
      name: 'agent-eu-west-prod',
      type: 'agent',
      created_at: ago(ctx, 60 * DAY),
      updated_at: ago(ctx, 60 * DAY),
    },
    {
      id: did('person', 'agent:us-east-staging'),
      name: 'agent-us-east-staging',
      type: 'agent',
      created_at: ago(ctx, 45 * DAY),
      updated_at: ago(ctx, 45 * DAY),
    },
  );
  // Upserts keep ids stable for anything a user created against demo people.
  await insertRows(
    ctx,
    'people',
    people,
    `ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, type = EXCLUDED.type, deleted_at = NULL`,
  );

  await insertRows(
    ctx,
    'identities',
    PEOPLE.map((p, i) => ({
      id: person(p.key),
      traits: { email: people[i].email, name: { first: p.first, last: p.last } },
      state: p.key === 'james' ? 'inactive' : 'active',
      state_changed_at: ago(ctx, (80 - i) * DAY),
      created_at: ago(ctx, (90 - i) * DAY),
      updated_at: ago(ctx, (10 - i) * DAY),
    })),
    `ON CONFLICT (id) DO UPDATE SET traits = EXCLUDED.traits, state = EXCLUDED.state`,
  );

  await insertRows(
    ctx,
    'people_roles',
    PEOPLE.map((p) => ({ id: person(p.key), roles: [...p.roles] })),
    `ON CONFLICT (id) DO UPDATE SET roles = EXCLUDED.roles`,
  );

  await insertRows(
    ctx,
    'teams',
    TEAMS.map((t, i) => ({
      id: team(t.key),
      name: t.name,
      icon: t.icon,
      spec: t.spec,
      source: 'UI',
      created_by: person('ava'),
      created_at: ago(ctx, (70 - i) * DAY),
      updated_at: ago(ctx, (20 - i) * DAY),
    })),
    `ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, spec = EXCLUDED.spec, deleted_at = NULL`,
  );
  await insertRows(
    ctx,
    'team_members',
    TEAMS.flatMap((t) => t.members.map((m) => ({ team_id: team(t.key), person_id: person(m) }))),
    'ON CONFLICT DO NOTHING',
  );

  // Two remote agents, registered but never connected: no last_seen, hostname or version (an
  // agent reports those when it connects). The local agent is the server's own engines, seen
  // while they run (settings/local-agent.ts).
  await insertRows(
    ctx,
    'agents',
    [
      {
        id: agent('eu-west-prod'),
        name: 'eu-west-prod',
        description: 'Production cluster prod-eu-1 (eu-west-1)',
        person_id: did('person', 'agent:eu-west-prod'),
        properties: { region: 'eu-west-1', cluster: 'prod-eu-1', env: 'production' },
        spec: {
          kubernetes: { enabled: true, interval: '30m' },
          pushTelemetry: { enabled: true, topologyName: 'prod-eu-1' },
        },
        created_by: person('ava'),
        created_at: ago(ctx, 60 * DAY),
        updated_at: ago(ctx, 2 * DAY),
      },
      {
        id: agent('us-east-staging'),
        name: 'us-east-staging',
        description: 'Staging cluster staging-us-1 (us-east-1)',
        person_id: did('person', 'agent:us-east-staging'),
        properties: { region: 'us-east-1', cluster: 'staging-us-1', env: 'staging' },
        spec: { kubernetes: { enabled: true, interval: '1h' }, pushTelemetry: { enabled: false } },
        created_by: person('liam'),
        created_at: ago(ctx, 45 * DAY),
        updated_at: ago(ctx, 5 * DAY),
      },
    ],
    // a re-seed also clears what an older demo claimed these agents reported
    `ON CONFLICT (id) DO UPDATE SET properties = EXCLUDED.properties, spec = EXCLUDED.spec, deleted_at = NULL,
        last_seen = NULL, last_received = NULL, hostname = NULL, version = NULL`,
  );

  // Agent tokens: placeholders that can never match a real token hash (not hex).
  await insertRows(ctx, 'access_tokens', [
    {
      id: did('token', 'eu-west-prod'),
      name: 'agent eu-west-prod',
      value: 'demo-placeholder-not-a-token-1',
      person_id: did('person', 'agent:eu-west-prod'),
      created_by: person('ava'),
      created_at: ago(ctx, 60 * DAY),
    },
    {
      id: did('token', 'us-east-staging'),
      name: 'agent us-east-staging',
      value: 'demo-placeholder-not-a-token-2',
      person_id: did('person', 'agent:us-east-staging'),
      created_by: person('liam'),
      created_at: ago(ctx, 45 * DAY),
    },
  ]);

  await insertRows(ctx, 'saved_searches', [
    {
      id: did('search', 1),
      name: 'Open critical incidents',
      scope: 'incidents',
      query: 'status=open&severity=critical',
      created_by: person('sofia'),
    },
    {
      id: did('search', 2),
      name: 'Unhealthy pods in production',
      scope: 'catalog',
      query: 'configType=Kubernetes::Pod&health=unhealthy:1&tags=cluster____prod-eu-1',
      created_by: person('noah'),
    },
    {
      id: did('search', 3),
      name: 'Payments API errors',
      scope: 'logs',
      query: 'level=error service=payments-api',
      created_by: person('mia'),
    },
  ]);
}
