import { guardedFetch } from '#server/http/outbound.ts';
import { credentialsFor } from '../connections.ts';
import { str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * Shared by prometheus and alertmanager: a GET answered with JSON, through fetch (undici, the
 * outbound HTTP client DESIGN.md names), with basic auth from a connection when it has one.
 */
export async function baseUrl(
  spec: Record<string, unknown>,
  ctx: CheckContext,
  field: string,
): Promise<{ url: string; headers: Record<string, string> }> {
  let url = str(spec, field) ?? str(spec, 'url');
  const headers: Record<string, string> = { Accept: 'application/json' };
  const connection = str(spec, 'connection');
  if (connection) {
    const c = await ctx.connections.get(connection);
    url ??= c.url ?? undefined;
    const { username, password } = credentialsFor(c, url);
    if (username) headers.Authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`;
    else if (password) headers.Authorization = `Bearer ${password}`;
  }
  if (!url) throw new Error(`${field} is required (or a connection)`);
  return { url: url.replace(/\/+$/, ''), headers };
}

export async function getJson(
  url: string,
  headers: Record<string, string>,
  ctx: CheckContext,
  what: string,
): Promise<unknown> {
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch(url, { headers, signal: ctx.signal });
  } catch (err) {
    if (ctx.signal.aborted) throw ctx.signal.reason as Error;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED')
      throw new Error(`${what} at ${new URL(url).host} refused the connection`, { cause: err });
    throw new Error(`${what} at ${new URL(url).host} cannot be reached: ${cause?.message ?? (err as Error).message}`, {
      cause: err,
    });
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok) {
    const msg = (body as { error?: string } | undefined)?.error;
    throw new Error(`${what} answered ${res.status}${msg ? `: ${msg}` : ''}`);
  }
  return body;
}

interface PromSample {
  metric?: Record<string, string>;
  value?: [number, string];
}

/**
 * Prometheus check: runs the PromQL `query` (instant query) and hands the series to `test` as
 * `results`: a list of the series' labels plus `value` (a number), e.g. `results[0].value < 0.01`.
 * Without a test the check passes when the query runs.
 */
export async function prometheusCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const query = str(spec, 'query');
  if (!query) throw new Error('query is required (PromQL)');
  const { url, headers } = await baseUrl(spec, ctx, 'host');
  const body = (await getJson(
    `${url}/api/v1/query?query=${encodeURIComponent(query)}`,
    headers,
    ctx,
    'Prometheus',
  )) as {
    status?: string;
    error?: string;
    data?: { resultType?: string; result?: PromSample[] | [number, string] };
  };
  if (body.status !== 'success') throw new Error(`Prometheus rejected the query: ${body.error ?? body.status}`);
  const raw = body.data?.result;
  let results: Record<string, unknown>[];
  if (body.data?.resultType === 'scalar' && Array.isArray(raw) && raw.length === 2 && typeof raw[1] === 'string') {
    results = [{ value: Number(raw[1]) }];
  } else {
    results = ((raw as PromSample[] | undefined) ?? []).map((s) => ({
      ...(s.metric ?? {}),
      value: s.value ? Number(s.value[1]) : null,
    }));
  }
  const vars = { results, value: results[0]?.value ?? null, count: results.length };
  const message = results.length
    ? `${results.length} series; ${results
        .slice(0, 3)
        .map((r) => String(r.value))
        .join(', ')}`
    : 'no series';
  return { pass: true, message, vars };
}
