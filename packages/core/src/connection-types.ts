/**
 * Connection types and their field lists (seed 002 sections 3 and 5). Shared by the web form
 * (what to ask for, defaults, required fields) and the server tests (every type can be stored).
 *
 * A connection row has fixed columns (url, username, password, certificate, insecure_tls) and a
 * `properties` object. Each field says where it is stored. Secrets go only to `password` or
 * `certificate`: the server encrypts those two at rest and never returns them, so a field that
 * holds a token or a key must use one of them. Types without a URL field build `url` from their
 * non-secret parts (seed: "the url is built from the parts"); the url never carries a secret.
 */

export const CONNECTION_TYPES = [
  'postgres',
  'mysql',
  'sql_server',
  'http',
  'prometheus',
  'elasticsearch',
  'mongo',
  'ldap',
  'redis',
  'windows',
  'google_cloud',
  'gcs',
  'sftp',
  'aws',
  's3',
  'kubernetes',
  'azure_devops',
  'azure',
  'github',
  'gitlab',
  'restic',
  'smb',
  'jmeter',
  'dynatrace',
] as const;
export const NOTIFICATION_CONNECTION_TYPES = [
  'discord',
  'email',
  'google_chat',
  'ifttt',
  'mattermost',
  'matrix',
  'ntfy',
  'opsgenie',
  'pushbullet',
  'pushover',
  'rocketchat',
  'slack',
  'teams',
  'telegram',
  'zulip_chat',
  'generic_webhook',
] as const;
export const OTHER_CONNECTION_TYPES = ['folder', 'git'] as const;
/**
 * Ticket systems that incident responders open tickets in (seed 001 section 3). The case systems
 * (ca, aws_support, aws_ams_services_request, redhat, oracle, vmware) share one generic
 * 'case_webhook' type: Watchdeck posts the case as JSON to its URL (server incidents/README.md).
 */
export const RESPONDER_CONNECTION_TYPES = ['jira', 'service_now', 'ms_planner', 'case_webhook'] as const;

export type ConnectionTypeName =
  | (typeof CONNECTION_TYPES)[number]
  | (typeof NOTIFICATION_CONNECTION_TYPES)[number]
  | (typeof OTHER_CONNECTION_TYPES)[number]
  | (typeof RESPONDER_CONNECTION_TYPES)[number];

export type ConnectionColumn = 'url' | 'username' | 'password' | 'certificate' | 'insecure_tls';
/** Columns the server encrypts and masks. */
export const SECRET_COLUMNS: readonly ConnectionColumn[] = ['password', 'certificate'];
/** What the API shows instead of a stored secret. */
export const SECRET_MASK = '********';

/**
 * text: a plain input; number: a numeric input (minimum 0); checkbox; select (options);
 * value: secret-or-value input shown back as stored (e.g. a username);
 * secret: secret-or-value input, encrypted and never shown back.
 */
export type ConnectionFieldKind = 'text' | 'number' | 'checkbox' | 'select' | 'value' | 'secret';

export interface ConnectionField {
  key: string;
  label: string;
  kind: ConnectionFieldKind;
  /** a column, or else `properties[key]` */
  column?: ConnectionColumn;
  required?: boolean;
  default?: string | number | boolean;
  hint?: string;
  options?: readonly string[];
  /** a multi-line value (certificates, kubeconfig, service account JSON) */
  multiline?: boolean;
}

export type ConnectionValues = Record<string, string | number | boolean | undefined>;

export interface ConnectionTypeDef {
  type: ConnectionTypeName;
  title: string;
  group: 'Connections' | 'Notifications' | 'Incident responders' | 'Other';
  /** left out of the type chooser (seed: jmeter hidden) */
  hidden?: boolean;
  /** the fields after the common Name and Namespace */
  fields: readonly ConnectionField[];
  /** builds `url` from the other fields when the type has no URL field */
  buildUrl?: (v: ConnectionValues) => string | undefined;
}

// ---- field helpers ---------------------------------------------------------------------------

const url = (label = 'URL', extra: Partial<ConnectionField> = {}): ConnectionField => ({
  key: 'url',
  label,
  kind: 'text',
  column: 'url',
  required: true,
  ...extra,
});
const username = (label = 'Username', required = true, extra: Partial<ConnectionField> = {}): ConnectionField => ({
  key: 'username',
  label,
  kind: 'value',
  column: 'username',
  required,
  ...extra,
});
const password = (label = 'Password', required = true, extra: Partial<ConnectionField> = {}): ConnectionField => ({
  key: 'password',
  label,
  kind: 'secret',
  column: 'password',
  required,
  ...extra,
});
const certificate = (label: string, required = true, extra: Partial<ConnectionField> = {}): ConnectionField => ({
  key: 'certificate',
  label,
  kind: 'secret',
  column: 'certificate',
  required,
  multiline: true,
  ...extra,
});
const insecureTls: ConnectionField = {
  key: 'insecure_tls',
  label: 'Insecure TLS',
  kind: 'checkbox',
  column: 'insecure_tls',
};
const prop = (key: string, label: string, extra: Partial<ConnectionField> = {}): ConnectionField => ({
  key,
  label,
  kind: 'text',
  ...extra,
});

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
const hostUrl = (scheme: string, host: unknown, port?: unknown, path = '') => {
  const h = str(host);
  if (!h) return undefined;
  const p = str(port);
  return `${scheme}://${h}${p ? `:${p}` : ''}${path}`;
};

const database = (type: ConnectionTypeName, title: string, hint: string): ConnectionTypeDef => ({
  type,
  title,
  group: 'Connections',
  fields: [url('URL', { hint }), username(), password()],
});

// ---- the types -------------------------------------------------------------------------------

export const CONNECTION_TYPE_DEFS: readonly ConnectionTypeDef[] = [
  database('postgres', 'Postgres', 'postgres://host:5432/database?sslmode=disable'),
  database('mysql', 'MySQL', 'mysql://host:3306/database'),
  database('sql_server', 'SQL Server', 'sqlserver://host:1433?database=name'),
  {
    type: 'http',
    title: 'HTTP',
    group: 'Connections',
    fields: [url(), username('Username', false), password('Password', false), insecureTls],
  },
  {
    type: 'prometheus',
    title: 'Prometheus',
    group: 'Connections',
    fields: [
      url('URL', { hint: 'http://prometheus:9090' }),
      username('Username', false),
      password('Password', false),
      insecureTls,
    ],
  },
  {
    type: 'elasticsearch',
    title: 'Elasticsearch',
    group: 'Connections',
    fields: [url(), username('Username', false), password('Password', false), insecureTls],
  },
  {
    type: 'mongo',
    title: 'Mongo',
    group: 'Connections',
    fields: [url('URL', { hint: 'mongodb://host:27017/database' }), username(), password(), insecureTls],
  },
  {
    type: 'ldap',
    title: 'LDAP',
    group: 'Connections',
    fields: [url('URL', { hint: 'ldaps://ldap.example.com:636' }), username('Bind DN'), password(), insecureTls],
  },
  {
    type: 'redis',
    title: 'Redis',
    group: 'Connections',
    fields: [
      url('URL', { hint: 'redis://host:6379' }),
      prop('db', 'Database', { kind: 'number', default: 0, required: true }),
      username('Username', false),
      password('Password', false),
      insecureTls,
    ],
  },
  {
    type: 'windows',
    title: 'Windows',
    group: 'Connections',
    fields: [prop('host', 'Host', { required: true }), username(), password(), prop('domain', 'Domain')],
    buildUrl: (v) => hostUrl('winrm', v.host),
  },
  {
    type: 'google_cloud',
    title: 'Google Cloud',
    group: 'Connections',
    fields: [
      url('Endpoint', { required: false }),
      certificate('Credentials', true, { hint: 'The service account key (JSON)' }),
    ],
  },
  {
    type: 'gcs',
    title: 'Google Cloud Storage',
    group: 'Connections',
    fields: [
      prop('bucket', 'Bucket', { required: true }),
      url('Endpoint', { required: false }),
      certificate('Credentials', true, { hint: 'The service account key (JSON)' }),
    ],
  },
  {
    type: 'sftp',
    title: 'SFTP',
    group: 'Connections',
    fields: [
      prop('host', 'Host', { required: true }),
      prop('port', 'Port', { kind: 'number', default: 22 }),
      prop('path', 'Path', { hint: 'Directory to list when testing, e.g. /upload' }),
      username(),
      password(),
    ],
    buildUrl: (v) => hostUrl('sftp', v.host, v.port, str(v.path) ? `/${str(v.path).replace(/^\/+/, '')}` : ''),
  },
  {
    type: 'aws',
    title: 'AWS',
    group: 'Connections',
    fields: [
      prop('region', 'Region'),
      prop('profile', 'Profile'),
      username('Access Key', false),
      password('Secret Key', false),
      url('Endpoint', { required: false }),
      insecureTls,
    ],
  },
  {
    type: 's3',
    title: 'S3',
    group: 'Connections',
    fields: [
      prop('bucket', 'Bucket', { required: true }),
      prop('region', 'Region'),
      username('Access Key', false),
      password('Secret Key', false),
      url('Endpoint', { required: false }),
      prop('usePathStyle', 'Use path style', { kind: 'checkbox' }),
      insecureTls,
    ],
  },
  { type: 'kubernetes', title: 'Kubernetes', group: 'Connections', fields: [certificate('Kubeconfig', true)] },
  {
    type: 'azure_devops',
    title: 'Azure Devops',
    group: 'Connections',
    fields: [{ ...username('Organization'), kind: 'text' }, password('Personal Access Token')],
    buildUrl: (v) => (str(v.username) ? `https://dev.azure.com/${encodeURIComponent(str(v.username))}` : undefined),
  },
  {
    type: 'azure',
    title: 'Azure',
    group: 'Connections',
    fields: [
      { ...username('Client ID'), kind: 'text' },
      password('Client Secret'),
      prop('tenant', 'Tenant ID', { required: true }),
    ],
  },
  {
    type: 'github',
    title: 'GitHub',
    group: 'Connections',
    fields: [password('Personal Access Token')],
    buildUrl: () => 'https://api.github.com',
  },
  {
    type: 'gitlab',
    title: 'GitLab',
    group: 'Connections',
    fields: [url('URL', { default: 'https://gitlab.com' }), password('Personal Access Token')],
  },
  {
    type: 'restic',
    title: 'Restic',
    group: 'Connections',
    fields: [
      url('Repository URL', { hint: 's3:s3.amazonaws.com/bucket or /srv/restic-repo' }),
      password(),
      prop('awsConnectionName', 'AWS Connection', { hint: 'Name of an AWS connection for S3 repositories' }),
    ],
  },
  {
    type: 'smb',
    title: 'SMB',
    group: 'Connections',
    fields: [
      prop('host', 'Server', { required: true }),
      prop('port', 'Port', { kind: 'number', default: 445 }),
      prop('sharename', 'Share name'),
      prop('searchPath', 'Search path'),
      prop('workstation', 'Workstation'),
      { ...username(), kind: 'text' },
      password(),
    ],
    buildUrl: (v) => hostUrl('smb', v.host, v.port, str(v.sharename) ? `/${str(v.sharename)}` : ''),
  },
  {
    type: 'jmeter',
    title: 'JMeter',
    group: 'Connections',
    hidden: true,
    fields: [url('Host'), prop('port', 'Port', { kind: 'number' })],
  },
  {
    type: 'dynatrace',
    title: 'Dynatrace',
    group: 'Connections',
    fields: [
      prop('host', 'Host', { required: true, hint: 'abc12345.live.dynatrace.com' }),
      password('API Key'),
      prop('scheme', 'Scheme', { kind: 'select', options: ['https', 'http'], default: 'https', required: true }),
    ],
    buildUrl: (v) => hostUrl(str(v.scheme) || 'https', v.host),
  },

  // ---- notifications ----
  {
    type: 'discord',
    title: 'Discord',
    group: 'Notifications',
    fields: [password('Webhook URL', true, { hint: 'https://discord.com/api/webhooks/…' })],
  },
  {
    type: 'email',
    title: 'Email',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true }),
      prop('port', 'Port', { kind: 'number', default: 587, required: true }),
      prop('encryptionMethod', 'Encryption method', {
        kind: 'select',
        options: ['Auto', 'None', 'ExplicitTLS', 'ImplicitTLS'],
        default: 'Auto',
        required: true,
      }),
      prop('authMethod', 'SMTP authentication method', {
        kind: 'select',
        options: ['Unknown', 'None', 'Plain', 'CRAMMD5', 'OAuth2'],
        default: 'Unknown',
        required: true,
      }),
      { ...username('Username', false), kind: 'text' },
      password('Password', false, { hint: 'SMTP server password or OAuth2 token' }),
      prop('from', 'From Address', { required: true }),
      prop('fromName', 'From Name'),
      insecureTls,
    ],
    buildUrl: (v) => hostUrl(str(v.encryptionMethod) === 'ImplicitTLS' ? 'smtps' : 'smtp', v.host, v.port),
  },
  {
    type: 'google_chat',
    title: 'Google Chat',
    group: 'Notifications',
    fields: [
      prop('webhook', 'Space', { required: true, hint: 'The space id of the webhook URL (spaces/<id>/messages)' }),
      { ...username('Key'), kind: 'text' },
      password('Token'),
    ],
    buildUrl: (v) =>
      str(v.webhook)
        ? `https://chat.googleapis.com/v1/spaces/${encodeURIComponent(str(v.webhook))}/messages`
        : undefined,
  },
  {
    type: 'ifttt',
    title: 'IFTTT',
    group: 'Notifications',
    fields: [
      password('Webhook Key'),
      prop('events', 'Events', { required: true, hint: 'Comma separated event names' }),
    ],
    buildUrl: () => 'https://maker.ifttt.com',
  },
  {
    type: 'mattermost',
    title: 'Mattermost',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true, hint: 'Mattermost server host (host:port)' }),
      password('Token', true, { hint: 'The incoming webhook token' }),
      prop('channel', 'Channel', { hint: 'Override webhook channel' }),
      { ...username('Username', false, { hint: 'Override webhook user' }), kind: 'text' },
    ],
    buildUrl: (v) => hostUrl('https', v.host),
  },
  {
    type: 'matrix',
    title: 'Matrix',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true }),
      { ...username('User', false, { hint: 'Username, or empty when using an access token' }), kind: 'text' },
      password('Password', true, { hint: 'Password or access token' }),
      prop('room', 'Room'),
      insecureTls,
    ],
    buildUrl: (v) => hostUrl('https', v.host),
  },
  {
    type: 'ntfy',
    title: 'Ntfy',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true, default: 'ntfy.sh', hint: 'Server hostname and port' }),
      prop('topic', 'Topic', { required: true }),
      { ...username('Username', false), kind: 'text' },
      password('Password', false),
      insecureTls,
    ],
    buildUrl: (v) =>
      str(v.topic) ? hostUrl('https', v.host, undefined, `/${encodeURIComponent(str(v.topic))}`) : undefined,
  },
  {
    type: 'opsgenie',
    title: 'OpsGenie',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true, default: 'api.opsgenie.com' }),
      prop('port', 'Port', { kind: 'number', default: 443, required: true }),
      password('API Key'),
    ],
    buildUrl: (v) => hostUrl('https', v.host, v.port),
  },
  {
    type: 'pushbullet',
    title: 'Pushbullet',
    group: 'Notifications',
    fields: [
      password('Token'),
      prop('targets', 'Targets', { required: true, hint: 'Device, channel or email targets, comma separated' }),
    ],
    buildUrl: () => 'https://api.pushbullet.com',
  },
  {
    type: 'pushover',
    title: 'Pushover',
    group: 'Notifications',
    fields: [{ ...username('User'), kind: 'text' }, password('Token')],
    buildUrl: () => 'https://api.pushover.net',
  },
  {
    type: 'rocketchat',
    title: 'Rocketchat',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true }),
      prop('port', 'Port', { kind: 'number', default: 443 }),
      password('Webhook Token', true, { hint: 'The part of the webhook URL after /hooks/' }),
      prop('channel', 'Channel', { required: true }),
      { ...username('Username', false), kind: 'text' },
    ],
    buildUrl: (v) => hostUrl('https', v.host, v.port),
  },
  {
    type: 'slack',
    title: 'Slack',
    group: 'Notifications',
    fields: [
      { ...username('Channel', true, { hint: 'Channel to send messages to in Cxxxxxxxxxx format' }), kind: 'text' },
      password('Bot Token'),
      prop('botName', 'Bot Name'),
    ],
    buildUrl: () => 'https://slack.com',
  },
  {
    type: 'teams',
    title: 'Teams',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true, default: 'outlook.office.com' }),
      prop('group', 'Group', { required: true }),
      prop('tenant', 'Tenant', { required: true }),
      password('AltID', true, { hint: 'The webhook id after /IncomingWebhook/' }),
      prop('groupOwner', 'GroupOwner', { required: true }),
    ],
    buildUrl: (v) =>
      str(v.group) && str(v.tenant)
        ? hostUrl('https', v.host, undefined, `/webhookb2/${str(v.group)}@${str(v.tenant)}/IncomingWebhook`)
        : undefined,
  },
  {
    type: 'telegram',
    title: 'Telegram',
    group: 'Notifications',
    fields: [
      password('Token'),
      {
        ...username('Chats', true, { hint: 'Chat IDs or channel names (@channel-name), comma separated' }),
        kind: 'text',
      },
    ],
    buildUrl: () => 'https://api.telegram.org',
  },
  {
    type: 'zulip_chat',
    title: 'Zulip Chat',
    group: 'Notifications',
    fields: [
      prop('host', 'Host', { required: true }),
      { ...username('BotMail', true, { hint: 'Bot e-mail address' }), kind: 'text' },
      password('BotKey'),
    ],
    buildUrl: (v) => hostUrl('https', v.host),
  },
  {
    type: 'generic_webhook',
    title: 'Generic Webhook',
    group: 'Notifications',
    fields: [
      url(),
      prop('contentType', 'Content Type', { default: 'application/json' }),
      prop('requestMethod', 'Request Method', {
        kind: 'select',
        options: ['POST', 'GET'],
        default: 'POST',
        required: true,
      }),
      prop('messageKey', 'Message Key', { default: 'message', required: true }),
      prop('titleKey', 'Title Key', { default: 'title', required: true }),
      username('Username', false),
      password('Password', false),
      insecureTls,
    ],
  },

  // ---- incident responders (server: incidents/responders/) ----
  {
    type: 'jira',
    title: 'Jira',
    group: 'Incident responders',
    fields: [
      url('URL', { hint: 'https://example.atlassian.net' }),
      { ...username('Username', true, { hint: 'The account email (Jira Cloud) or user name' }), kind: 'text' },
      password('API Token', true, { hint: 'An API token (Jira Cloud) or the password / personal access token' }),
      insecureTls,
    ],
  },
  {
    type: 'service_now',
    title: 'ServiceNow',
    group: 'Incident responders',
    fields: [
      url('URL', { hint: 'https://example.service-now.com' }),
      { ...username(), kind: 'text' },
      password(),
      insecureTls,
    ],
  },
  {
    type: 'ms_planner',
    title: 'Microsoft Planner',
    group: 'Incident responders',
    fields: [
      prop('tenant', 'Tenant ID', { required: true }),
      { ...username('Client ID'), kind: 'text' },
      password('Client Secret'),
      prop('group', 'Group ID', { hint: 'The Microsoft 365 group whose plans are offered' }),
      url('Graph URL', { required: false, default: 'https://graph.microsoft.com/v1.0' }),
      prop('loginUrl', 'Login URL', { default: 'https://login.microsoftonline.com' }),
    ],
  },
  {
    type: 'case_webhook',
    title: 'Support Case Webhook',
    group: 'Incident responders',
    fields: [
      url('URL', { hint: 'Receives each case as a JSON POST (CA, AWS Support, AWS AMS, Red Hat, Oracle, VMware)' }),
      prop('responderType', 'Responder type', {
        kind: 'select',
        options: ['', 'ca', 'aws_support', 'aws_ams_services_request', 'redhat', 'oracle', 'vmware'],
        default: '',
        hint: 'The case system it serves; empty: any',
      }),
      { ...username('Username', false), kind: 'text' },
      password('Password or token', false, { hint: 'With a username: basic auth; alone: a bearer token' }),
      insecureTls,
    ],
  },

  // ---- other ----
  { type: 'folder', title: 'Folder', group: 'Other', fields: [prop('path', 'Path', { required: true })] },
  {
    type: 'git',
    title: 'Git',
    group: 'Other',
    fields: [
      url('URL', { hint: 'https://github.com/org/repo.git or git@github.com:org/repo.git' }),
      prop('branch', 'Branch', { default: 'main' }),
      username('Username', false),
      password('Password or token', false),
      certificate('SSH private key', false),
    ],
  },
];

const BY_TYPE = new Map(CONNECTION_TYPE_DEFS.map((d) => [d.type as string, d]));

export function connectionTypeDef(type: string): ConnectionTypeDef | undefined {
  return BY_TYPE.get(type);
}

/** Name and Namespace come first on every form. */
export const COMMON_CONNECTION_FIELDS: readonly ConnectionField[] = [
  { key: 'name', label: 'Name', kind: 'text', required: true },
  { key: 'namespace', label: 'Namespace', kind: 'text', required: true, default: 'default' },
];

export function connectionFields(def: ConnectionTypeDef): ConnectionField[] {
  return [...COMMON_CONNECTION_FIELDS, ...def.fields];
}

/** The values a new connection of this type starts with. */
export function connectionDefaults(def: ConnectionTypeDef): ConnectionValues {
  const out: ConnectionValues = {};
  for (const f of connectionFields(def)) {
    if (f.default !== undefined) out[f.key] = f.default;
    else if (f.kind === 'checkbox') out[f.key] = false;
    else out[f.key] = '';
  }
  return out;
}

export interface ConnectionRow {
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean;
  properties: Record<string, string | number | boolean>;
}

const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Form values -> the connections row (properties keep only non-empty values). */
export function connectionToRow(def: ConnectionTypeDef, v: ConnectionValues): ConnectionRow {
  const row: ConnectionRow = {
    name: str(v.name),
    namespace: str(v.namespace) || 'default',
    type: def.type,
    url: null,
    username: null,
    password: null,
    certificate: null,
    insecure_tls: false,
    properties: {},
  };
  for (const f of def.fields) {
    const value = v[f.key];
    if (f.column === 'insecure_tls') row.insecure_tls = value === true;
    else if (f.column) row[f.column] = empty(value) ? null : String(value).trim();
    else if (f.kind === 'checkbox') {
      if (value === true) row.properties[f.key] = true;
    } else if (!empty(value)) row.properties[f.key] = f.kind === 'number' ? Number(value) : String(value).trim();
  }
  if (def.buildUrl) row.url = def.buildUrl(v) ?? null;
  return row;
}

/** A stored row -> form values (secrets arrive masked; the form keeps them as they are). */
export function rowToConnectionValues(
  def: ConnectionTypeDef,
  row: Partial<Omit<ConnectionRow, 'properties'>> & { properties?: Record<string, unknown> | null },
): ConnectionValues {
  const out = connectionDefaults(def);
  out.name = row.name ?? '';
  out.namespace = row.namespace ?? 'default';
  const props = row.properties ?? {};
  for (const f of def.fields) {
    if (f.column === 'insecure_tls') out[f.key] = row.insecure_tls === true;
    else if (f.column) out[f.key] = (row[f.column] as string | null | undefined) ?? '';
    else if (props[f.key] !== undefined && props[f.key] !== null) {
      const p = props[f.key];
      out[f.key] = typeof p === 'boolean' || typeof p === 'number' ? p : String(p);
    }
  }
  return out;
}
