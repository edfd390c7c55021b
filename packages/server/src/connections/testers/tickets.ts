import { requireUrl, requirePassword, prop, join, call, refused, basicAuth, type PlainConnection } from './common.ts';

/** Incident responder ticket systems: read the signed-in account (or get a token); no ticket is opened. */
export async function testJira(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/rest/api/2/myself'), {
    headers: { Accept: 'application/json', ...basicAuth(c.username, requirePassword(c, 'API token')) },
  });
  const body = a.json as { errorMessages?: string[] } | undefined;
  if (a.status >= 400) throw refused('Jira', a, body?.errorMessages?.join('; '));
}

export async function testServiceNow(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=sys_id'), {
    headers: { Accept: 'application/json', ...basicAuth(c.username, requirePassword(c, 'password')) },
  });
  const body = a.json as { error?: { message?: string } } | undefined;
  if (a.status >= 400) throw refused('ServiceNow', a, body?.error?.message);
}

export async function testMsPlanner(c: PlainConnection) {
  const tenant = prop(c, 'tenant');
  if (!tenant) throw new Error('the connection has no tenant id');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: c.username ?? '',
    client_secret: requirePassword(c, 'client secret'),
    scope: 'https://graph.microsoft.com/.default',
  });
  const a = await call(
    c,
    join(
      prop(c, 'loginUrl') || 'https://login.microsoftonline.com',
      `/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    ),
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
  );
  const body = a.json as { access_token?: string; error_description?: string } | undefined;
  if (a.status >= 400 || !body?.access_token) throw refused('Microsoft identity platform', a, body?.error_description);
}
