import { requireUrl, requirePassword, join, call, refused, basicAuth, type PlainConnection } from './common.ts';

/** HTTP APIs: one authenticated read the service answers only to valid credentials; nothing is written. */
export async function testHttp(c: PlainConnection) {
  const a = await call(c, requireUrl(c), { headers: basicAuth(c.username, c.password) });
  if (a.status >= 400) throw new Error(`the server answered ${a.status}`);
}

export async function testPrometheus(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v1/query?query=1'), { headers: basicAuth(c.username, c.password) });
  const body = a.json as { status?: string; error?: string } | undefined;
  if (a.status >= 400 || body?.status !== 'success') throw new Error(body?.error ?? `Prometheus answered ${a.status}`);
}

export async function testElasticsearch(c: PlainConnection) {
  const a = await call(c, requireUrl(c), { headers: basicAuth(c.username, c.password) });
  if (a.status >= 400) throw refused('Elasticsearch', a);
}

export async function testGithub(c: PlainConnection) {
  const a = await call(c, join(c.url || 'https://api.github.com', '/user'), {
    headers: {
      Authorization: `Bearer ${requirePassword(c, 'token')}`,
      'User-Agent': 'watchdeck',
      Accept: 'application/vnd.github+json',
    },
  });
  if (a.status >= 400) throw refused('GitHub', a, (a.json as { message?: string } | undefined)?.message);
}

export async function testGitlab(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v4/user'), {
    headers: { 'PRIVATE-TOKEN': requirePassword(c, 'token') },
  });
  if (a.status >= 400) throw refused('GitLab', a, (a.json as { message?: string } | undefined)?.message);
}

export async function testAzureDevops(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/_apis/projects?api-version=7.0&$top=1'), {
    headers: basicAuth('pat', requirePassword(c, 'token')),
  });
  if (a.status >= 400) throw refused('Azure DevOps', a);
}

export async function testDynatrace(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v2/metrics?pageSize=1'), {
    headers: { Authorization: `Api-Token ${requirePassword(c, 'API key')}` },
  });
  if (a.status >= 400) throw refused('Dynatrace', a);
}
