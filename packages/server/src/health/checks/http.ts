import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { guardedLookup, outboundRefusal } from '#server/http/outbound.ts';
import { credentialsFor } from '../connections.ts';
import { num, secretOrValue, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * HTTP check (seed 002: url required, method, body, headers, authentication basic/ntlm/ntlmv2,
 * responseCodes, thresholdMillis, responseContent, maxSSLExpiry, test, display).
 *
 * Built on node:http(s) rather than fetch: the check needs the peer certificate (maxSSLExpiry)
 * and a per-request TLS policy (tlsConfig.insecureSkipVerify / ca), which fetch does not expose.
 * Every run opens its own connection (no keep-alive pool) so latency includes the connect, as a
 * real client would see it.
 */
const MAX_BODY = 1024 * 1024;
const DAY_MS = 86_400_000;

interface Answer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  elapsed: number;
  certExpiry?: Date;
}

function request(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; ca?: string; insecure: boolean },
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const refusal = outboundRefusal(url.hostname.replace(/^\[|\]$/g, ''));
    if (refusal) return reject(new Error(refusal));
    const lib = url.protocol === 'https:' ? https : http;
    const started = performance.now();
    const headers: Record<string, string> = { 'User-Agent': 'watchdeck-health', ...init.headers };
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    const req = lib.request(
      url,
      {
        method: init.method,
        headers,
        agent: false,
        lookup: guardedLookup,
        signal,
        ...(url.protocol === 'https:'
          ? { rejectUnauthorized: !init.insecure, ...(init.ca ? { ca: init.ca } : {}) }
          : {}),
      },
      (res) => {
        let certExpiry: Date | undefined;
        const socket = res.socket as TLSSocket;
        if (typeof socket.getPeerCertificate === 'function') {
          const cert = socket.getPeerCertificate();
          if (cert?.valid_to) certExpiry = new Date(cert.valid_to);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (d: Buffer) => {
          if (size < MAX_BODY) chunks.push(d);
          size += d.length;
        });
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: out,
            body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY),
            elapsed: Math.round(performance.now() - started),
            certExpiry,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

function describeError(err: Error & { code?: string }, url: URL): string {
  const where = `${url.protocol}//${url.host}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}: nothing is listening there`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve host ${url.hostname}`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return `TLS: ${where} presented a self-signed certificate; set tlsConfig.ca to trust it or tlsConfig.insecureSkipVerify: true`;
    case 'CERT_HAS_EXPIRED':
      return `TLS: the certificate of ${where} has expired`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS: the certificate of ${where} is not valid for ${url.hostname}`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return `TLS: the certificate of ${where} is signed by an unknown authority`;
    default:
      return err.message;
  }
}

export async function httpCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  let raw = str(spec, 'url') ?? str(spec, 'endpoint');
  let user: string | undefined;
  let pass: string | undefined;
  const connection = str(spec, 'connection');
  if (connection) {
    const c = await ctx.connections.get(connection);
    raw ??= c.url ?? undefined;
    ({ username: user, password: pass } = credentialsFor(c, raw));
  }
  if (!raw) throw new Error('url is required');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`url "${raw}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`url scheme ${url.protocol} is not supported; use http or https`);

  const method = (str(spec, 'method') ?? 'GET').toUpperCase();
  const body = typeof spec.body === 'string' ? spec.body : undefined;
  if (body !== undefined && method !== 'POST' && method !== 'PUT')
    throw new Error('body is allowed only for POST and PUT');

  const headers: Record<string, string> = {};
  if (Array.isArray(spec.headers)) {
    for (const h of spec.headers as Record<string, unknown>[]) {
      if (h && typeof h.name === 'string')
        headers[h.name] = secretOrValue(h.valueFrom ? h : (h.value ?? ''), `header ${h.name}`) ?? '';
    }
  }
  const auth = spec.authentication as Record<string, unknown> | undefined;
  if (auth && typeof auth === 'object') {
    if (auth.ntlm || auth.ntlmv2) {
      throw new Error(
        'NTLM authentication is not supported: none of the HTTP libraries this server uses speaks NTLM; use basic authentication, or a check on an agent inside the Windows domain',
      );
    }
    user = secretOrValue(auth.username, 'authentication.username') ?? user;
    pass = secretOrValue(auth.password, 'authentication.password') ?? pass;
  }
  if (url.username || url.password) {
    user ??= decodeURIComponent(url.username);
    pass ??= decodeURIComponent(url.password);
    // credentials travel in the Authorization header, never in the recorded URL
    url.username = '';
    url.password = '';
  }
  if (user) headers.Authorization ??= `Basic ${Buffer.from(`${user}:${pass ?? ''}`).toString('base64')}`;
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain';
  }

  const tls = (spec.tlsConfig ?? {}) as Record<string, unknown>;
  let answer: Answer;
  try {
    answer = await request(
      url,
      {
        method,
        headers,
        body,
        ca: typeof tls.ca === 'string' ? tls.ca : undefined,
        insecure: tls.insecureSkipVerify === true,
      },
      ctx.signal,
    );
  } catch (err) {
    if (ctx.signal.aborted) throw ctx.signal.reason as Error;
    throw new Error(describeError(err as Error & { code?: string }, url), { cause: err });
  }

  let json: unknown;
  if (answer.body && (answer.headers['content-type']?.includes('json') || /^\s*[[{]/.test(answer.body))) {
    try {
      json = JSON.parse(answer.body);
    } catch {
      json = undefined;
    }
  }
  const sslDays = answer.certExpiry ? Math.floor((answer.certExpiry.getTime() - Date.now()) / DAY_MS) : undefined;
  const vars = {
    code: answer.status,
    headers: answer.headers,
    body: answer.body,
    content: answer.body,
    json: json ?? {},
    elapsed: answer.elapsed,
    sslAge: sslDays ?? null,
    url: url.toString(),
  };
  const detail = {
    code: answer.status,
    elapsed: answer.elapsed,
    ...(sslDays !== undefined ? { sslDaysLeft: sslDays } : {}),
  };
  const observed = `${answer.status} ${answer.statusText}`.trim();
  const fail = (error: string): CheckOutcome => ({ pass: false, message: observed, error, vars, detail });

  const codes = Array.isArray(spec.responseCodes)
    ? (spec.responseCodes as unknown[]).map(Number).filter(Number.isFinite)
    : [];
  if (codes.length ? !codes.includes(answer.status) : answer.status < 200 || answer.status >= 300) {
    const want = codes.length ? `[${codes.join(', ')}]` : '2xx';
    return fail(`expected response code ${want} but got ${observed}`);
  }
  const threshold = num(spec, 'thresholdMillis');
  if (threshold !== undefined && threshold > 0 && answer.elapsed > threshold) {
    return fail(`response took ${answer.elapsed}ms, above the ${threshold}ms threshold`);
  }
  const content = typeof spec.responseContent === 'string' ? spec.responseContent : undefined;
  if (content && !answer.body.includes(content)) {
    return fail(`the response does not contain "${content}"`);
  }
  const maxExpiry = num(spec, 'maxSSLExpiry');
  if (maxExpiry !== undefined && maxExpiry > 0) {
    if (url.protocol !== 'https:' || !answer.certExpiry || sslDays === undefined)
      return fail('maxSSLExpiry is set but the URL is not https, so there is no certificate to check');
    if (sslDays < maxExpiry) {
      return fail(
        `the TLS certificate expires in ${sslDays} days (${answer.certExpiry.toISOString().slice(0, 10)}), within the ${maxExpiry}-day limit`,
      );
    }
  }
  return {
    pass: true,
    message: `${observed} in ${answer.elapsed}ms${sslDays !== undefined ? `, certificate valid for ${sslDays} more days` : ''}`,
    vars,
    detail,
  };
}
