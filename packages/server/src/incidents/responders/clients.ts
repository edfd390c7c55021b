import { plannerPriority, PLANNER_PRIORITIES } from '@watchdeck/core';
import { httpCall, type HttpAnswer, type HttpCallOptions } from '#server/connections/index.ts';
import { redactSecrets, type PlainConnection } from '#server/connections/index.ts';

/**
 * The ticket systems' APIs, used to open a responder's ticket (dispatch.ts) and to fill the
 * responder wizard's pickers (routes.ts). Each call names the system in its errors, never the URL
 * or a credential (messages are redacted), and carries the upstream's own message.
 *
 *   Jira            REST API v2, basic auth (username + API token)
 *   ServiceNow      Table API, basic auth
 *   Microsoft Graph Planner, OAuth2 client credentials (tenant, client id, client secret); the
 *                   Graph URL (connection url) and login URL (properties.loginUrl) are settable
 *   case webhook    the generic contract of README.md: POST the case as JSON
 */
const UPSTREAM_TIMEOUT_MS = 10_000;
/** answers kept up to this size: a large Jira's project list is hundreds of kilobytes */
const UPSTREAM_MAX_BODY = 8 * 1024 * 1024;

/** The ticket system could not be reached or refused: the route answers 502, dispatch retries. */
export class UpstreamError extends Error {}

/** The connection cannot be used as it is (missing URL or credentials): retrying will not help. */
export class ConfigurationError extends Error {}

export interface Option {
  value: string;
  label: string;
}

const join = (base: string, path: string) => base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const prop = (c: PlainConnection, key: string) => {
  const v = c.properties?.[key];
  return v === undefined || v === null ? '' : String(v).trim();
};

function need(c: PlainConnection, field: 'url' | 'username' | 'password', what: string): string {
  const v = c[field];
  if (!v) throw new ConfigurationError(`the connection has no ${what}`);
  return v;
}

/** The most useful text of an error answer: Jira's errorMessages/errors, Graph's error.message, ... */
function upstreamText(a: HttpAnswer): string {
  const j = a.json as Record<string, unknown> | undefined;
  const parts: string[] = [];
  if (j && typeof j === 'object') {
    if (Array.isArray(j.errorMessages)) parts.push(...j.errorMessages.map(String));
    if (j.errors && typeof j.errors === 'object')
      parts.push(...Object.entries(j.errors).map(([k, v]) => `${k}: ${String(v)}`));
    const err = j.error;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      parts.push([e.message, e.detail].filter((x) => typeof x === 'string' && x).join(': '));
    } else if (typeof err === 'string')
      parts.push(typeof j.error_description === 'string' ? `${err}: ${j.error_description}` : err);
    if (typeof j.message === 'string') parts.push(j.message);
  }
  const text = parts.filter(Boolean).join('; ') || a.text;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

async function request(
  c: PlainConnection,
  what: string,
  url: string,
  init: Omit<HttpCallOptions, 'timeoutMs'> = {},
): Promise<HttpAnswer> {
  let a: HttpAnswer;
  try {
    a = await httpCall(url, {
      timeoutMs: UPSTREAM_TIMEOUT_MS,
      insecureTls: !!c.insecure_tls,
      maxBody: UPSTREAM_MAX_BODY,
      ...init,
    });
  } catch (err) {
    throw new UpstreamError(redactSecrets(`${what} could not be reached: ${(err as Error).message}`, c));
  }
  if (a.status >= 400) {
    const text = upstreamText(a);
    throw new UpstreamError(redactSecrets(`${what} answered ${a.status}${text ? `: ${text}` : ''}`, c));
  }
  return a;
}

/** A list answer must be JSON: a proxy's HTML page or a cut-off answer is an error, not "no options". */
function jsonOf(what: string, a: HttpAnswer): unknown {
  if (a.json === undefined)
    throw new UpstreamError(`${what} answered ${a.status} with something that is not JSON: ${a.text.slice(0, 120)}`);
  return a.json;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
  body: JSON.stringify(body),
});

const matches = (q: string | undefined) => (o: Option) =>
  !q || o.label.toLowerCase().includes(q.toLowerCase()) || o.value.toLowerCase().includes(q.toLowerCase());

const MAX_OPTIONS = 200;
export const filterOptions = (options: Option[], q?: string) => options.filter(matches(q)).slice(0, MAX_OPTIONS);

// ---- Jira -------------------------------------------------------------------------------------------

const jiraAuth = (c: PlainConnection) => ({
  Authorization: basic(need(c, 'username', 'username'), need(c, 'password', 'API token')),
  Accept: 'application/json',
});
/** an option value that is all digits is an id, anything else a name */
const idOrName = (v: unknown) => (/^\d+$/.test(String(v)) ? { id: String(v) } : { name: String(v) });

export const jira = {
  async createIssue(
    c: PlainConnection,
    f: Record<string, unknown>,
  ): Promise<{ id: string; key: string; self?: string }> {
    const a = await request(c, 'Jira', join(need(c, 'url', 'URL'), '/rest/api/2/issue'), {
      method: 'POST',
      ...json(
        {
          fields: {
            project: { key: String(f.project) },
            issuetype: idOrName(f.issueType),
            priority: idOrName(f.priority),
            summary: String(f.summary),
            description: String(f.description),
          },
        },
        jiraAuth(c),
      ),
    });
    const body = a.json as { id?: string | number; key?: string; self?: string } | undefined;
    if (!body?.key) throw new UpstreamError(`Jira answered ${a.status} without an issue key`);
    return { id: String(body.id ?? ''), key: body.key, self: body.self };
  },

  async projects(c: PlainConnection): Promise<Option[]> {
    const a = await request(c, 'Jira', join(need(c, 'url', 'URL'), '/rest/api/2/project'), { headers: jiraAuth(c) });
    const body = jsonOf('Jira', a);
    const list = Array.isArray(body) ? (body as { key: string; name?: string }[]) : [];
    return list.map((p) => ({ value: p.key, label: p.name ? `${p.name} (${p.key})` : p.key }));
  },

  /** Jira 9+ and Cloud: createmeta per project; older servers: the project's issueTypes. */
  async issueTypes(c: PlainConnection, project: string): Promise<Option[]> {
    const base = need(c, 'url', 'URL');
    type IssueType = { id: string; name: string; subtask?: boolean };
    let types: IssueType[];
    try {
      const a = await request(
        c,
        'Jira',
        join(base, `/rest/api/2/issue/createmeta/${encodeURIComponent(project)}/issuetypes`),
        { headers: jiraAuth(c) },
      );
      const body = a.json as { values?: IssueType[]; issueTypes?: IssueType[] } | undefined;
      types = body?.values ?? body?.issueTypes ?? [];
    } catch (err) {
      if (!(err instanceof UpstreamError) || !/ answered 404/.test(err.message)) throw err;
      const a = await request(c, 'Jira', join(base, `/rest/api/2/project/${encodeURIComponent(project)}`), {
        headers: jiraAuth(c),
      });
      types = (a.json as { issueTypes?: IssueType[] } | undefined)?.issueTypes ?? [];
    }
    return types.filter((t) => !t.subtask).map((t) => ({ value: t.name, label: t.name }));
  },

  async priorities(c: PlainConnection): Promise<Option[]> {
    const a = await request(c, 'Jira', join(need(c, 'url', 'URL'), '/rest/api/2/priority'), { headers: jiraAuth(c) });
    const body = jsonOf('Jira', a);
    const list = Array.isArray(body) ? (body as { id: string; name: string }[]) : [];
    return list.map((p) => ({ value: p.name, label: p.name }));
  },
};

// ---- ServiceNow -------------------------------------------------------------------------------------

export const serviceNow = {
  async createIncident(
    c: PlainConnection,
    f: Record<string, unknown>,
    incident: { incident_id?: string },
  ): Promise<{ sys_id: string; number?: string }> {
    const a = await request(c, 'ServiceNow', join(need(c, 'url', 'URL'), '/api/now/table/incident'), {
      method: 'POST',
      ...json(
        {
          short_description: String(f.description),
          description: String(f.body),
          category: String(f.category),
          ...(incident.incident_id ? { correlation_id: incident.incident_id, correlation_display: 'Watchdeck' } : {}),
        },
        { Authorization: basic(need(c, 'username', 'username'), need(c, 'password', 'password')) },
      ),
    });
    const result = (a.json as { result?: { sys_id?: string; number?: string } } | undefined)?.result;
    if (!result?.sys_id) throw new UpstreamError(`ServiceNow answered ${a.status} without a sys_id`);
    return { sys_id: result.sys_id, number: result.number };
  },
};

// ---- Microsoft Planner (Graph) --------------------------------------------------------------------

const graphBase = (c: PlainConnection) => c.url || 'https://graph.microsoft.com/v1.0';

async function graphToken(c: PlainConnection): Promise<string> {
  const tenant = prop(c, 'tenant');
  if (!tenant) throw new ConfigurationError('the connection has no tenant id');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: need(c, 'username', 'client id'),
    client_secret: need(c, 'password', 'client secret'),
    scope: 'https://graph.microsoft.com/.default',
  });
  const a = await request(
    c,
    'Microsoft identity platform',
    join(
      prop(c, 'loginUrl') || 'https://login.microsoftonline.com',
      `/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    ),
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    },
  );
  const token = (a.json as { access_token?: string } | undefined)?.access_token;
  if (!token) throw new UpstreamError('Microsoft identity platform answered without an access token');
  return token;
}

async function graph(
  c: PlainConnection,
  token: string,
  path: string,
  init: Omit<HttpCallOptions, 'timeoutMs'> = {},
): Promise<HttpAnswer> {
  return request(c, 'Microsoft Graph', join(graphBase(c), path), {
    ...init,
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...init.headers },
  });
}

const graphList = <T>(a: HttpAnswer) => (jsonOf('Microsoft Graph', a) as { value?: T[] }).value ?? [];

export const planner = {
  /** Creates the task, then sets its description (a task's details are a separate resource). */
  async createTask(c: PlainConnection, f: Record<string, unknown>): Promise<{ id: string; warning?: string }> {
    const priority = plannerPriority(f.priority);
    if (priority === undefined)
      throw new ConfigurationError(
        `priority "${String(f.priority)}" is not a Planner priority (urgent, important, medium, low or 0-10)`,
      );
    const token = await graphToken(c);
    const a = await graph(c, token, '/planner/tasks', {
      method: 'POST',
      ...json({ planId: String(f.plan_id), bucketId: String(f.bucket_id), title: String(f.title), priority }),
    });
    const id = (a.json as { id?: string } | undefined)?.id;
    if (!id) throw new UpstreamError(`Microsoft Graph answered ${a.status} without a task id`);
    try {
      const details = await graph(c, token, `/planner/tasks/${encodeURIComponent(id)}/details`);
      const etag = (details.json as { '@odata.etag'?: string } | undefined)?.['@odata.etag'];
      await graph(c, token, `/planner/tasks/${encodeURIComponent(id)}/details`, {
        method: 'PATCH',
        ...json({ description: String(f.description) }, etag ? { 'If-Match': etag } : {}),
      });
    } catch (err) {
      // the task exists: report, do not create it again on a retry
      return { id, warning: `the task was created, but its description could not be set: ${(err as Error).message}` };
    }
    return { id };
  },

  async plans(c: PlainConnection): Promise<Option[]> {
    const token = await graphToken(c);
    const group = prop(c, 'group');
    const a = await graph(c, token, group ? `/groups/${encodeURIComponent(group)}/planner/plans` : '/planner/plans');
    return graphList<{ id: string; title?: string }>(a).map((p) => ({ value: p.id, label: p.title || p.id }));
  },

  async buckets(c: PlainConnection, plan: string): Promise<Option[]> {
    const token = await graphToken(c);
    const a = await graph(c, token, `/planner/plans/${encodeURIComponent(plan)}/buckets`);
    return graphList<{ id: string; name?: string }>(a).map((b) => ({ value: b.id, label: b.name || b.id }));
  },

  priorities(): Option[] {
    return PLANNER_PRIORITIES.map((p) => ({ value: p.value, label: p.label }));
  },
};

// ---- support-case webhook ---------------------------------------------------------------------------

export const caseWebhook = {
  /** README.md "Support cases": answers 2xx; `id` (or case_id, caseId, number) and `url` are kept. */
  async postCase(
    c: PlainConnection,
    payload: Record<string, unknown>,
  ): Promise<{ id?: string; url?: string; answer: unknown }> {
    const headers: Record<string, string> = {};
    if (c.username) headers.Authorization = basic(c.username, c.password ?? '');
    else if (c.password) headers.Authorization = `Bearer ${c.password}`;
    const a = await request(c, 'The case webhook', need(c, 'url', 'URL'), {
      method: 'POST',
      ...json(payload, headers),
    });
    const body = (a.json && typeof a.json === 'object' ? a.json : {}) as Record<string, unknown>;
    const id = [body.id, body.case_id, body.caseId, body.number].find(
      (v) => typeof v === 'string' || typeof v === 'number',
    );
    const url = [body.url, body.link].find((v) => typeof v === 'string') as string | undefined;
    return { id: id === undefined ? undefined : String(id), url, answer: a.json ?? a.text };
  },
};
