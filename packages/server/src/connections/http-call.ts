import http from 'node:http';
import https from 'node:https';

/**
 * One HTTP request for the connection testers. Built on node:http(s) rather than fetch because a
 * connection may say "Insecure TLS" (self-signed certificates), which needs rejectUnauthorized
 * per request; fetch would need another dependency for that.
 */
export interface HttpAnswer {
  status: number;
  text: string;
  /** the body parsed as JSON, when it is JSON */
  json: unknown;
}

export interface HttpCallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  insecureTls?: boolean;
  /** redirects followed (GET/HEAD only) */
  maxRedirects?: number;
  /** bytes of the answer kept (default 64 KiB; the rest is read and dropped) */
  maxBody?: number;
}

const MAX_BODY = 64 * 1024;

/** Testers put tokens in many headers (Authorization, PRIVATE-TOKEN, Access-Token, ...): keep only the harmless ones. */
function withoutCredentials(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => /^(accept|content-type|user-agent)$/i.test(k)));
}

export function httpCall(url: string, opts: HttpCallOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new Error('the connection URL is not a valid URL'));
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      return reject(new Error(`unsupported URL scheme ${target.protocol.replace(':', '')}; use http or https`));
    }
    const lib = target.protocol === 'https:' ? https : http;
    const method = opts.method ?? 'GET';
    const headers: Record<string, string> = { 'User-Agent': 'watchdeck', ...opts.headers };
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    const req = lib.request(
      target,
      {
        method,
        headers,
        timeout: opts.timeoutMs,
        ...(target.protocol === 'https:' ? { rejectUnauthorized: !opts.insecureTls } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        const redirects = opts.maxRedirects ?? 3;
        if (status >= 300 && status < 400 && location && redirects > 0 && (method === 'GET' || method === 'HEAD')) {
          res.resume();
          const next = new URL(location, target);
          // A connection's credentials go only to its own origin: a redirect elsewhere drops them
          // (as browsers and fetch do), or a peer could hand them to any host by redirecting.
          const headers = next.origin === target.origin ? opts.headers : withoutCredentials(opts.headers);
          return resolve(httpCall(next.toString(), { ...opts, headers, maxRedirects: redirects - 1 }));
        }
        const chunks: Buffer[] = [];
        const maxBody = opts.maxBody ?? MAX_BODY;
        let size = 0;
        res.on('data', (d: Buffer) => {
          if (size < maxBody) chunks.push(d);
          size += d.length;
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, maxBody);
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs / 1000}s`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Node's messages for refused/unknown hosts carry the address, never the path or query.
      reject(new Error(err.message));
    });
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
