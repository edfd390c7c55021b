import { request } from 'undici';
import { outboundAgent } from '#server/http/outbound.ts';

/**
 * The one HTTP client every sender uses (undici, DESIGN.md), with the one retry policy: a
 * network error, a timeout, 429 or a 5xx is tried again after a growing wait (or the peer's
 * Retry-After, when shorter than the cap); anything else is the answer. A send takes at most
 * ATTEMPTS * TIMEOUT_MS plus the waits, well inside the event delivery's 2-minute lease.
 */
const RETRY = { attempts: 3, baseMs: 250, maxMs: 4000 } as const;
const TIMEOUT_MS = 10_000;
/** bytes of an answer kept for the error text */
const MAX_ERROR_TEXT = 500;

const secure = outboundAgent({ connections: 64, keepAliveTimeout: 10_000 });
/** for connections marked "Insecure TLS" (self-signed certificates) */
const insecure = outboundAgent({
  connections: 16,
  keepAliveTimeout: 10_000,
  connect: { rejectUnauthorized: false },
});

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  /** a JSON value (sent as application/json), or a ready body with its content type in headers */
  json?: unknown;
  body?: string;
  insecureTls?: boolean;
  /** answers that are errors although 2xx (Slack and Telegram say ok:false) */
  check?: (status: number, json: unknown, text: string) => string | undefined;
}

export interface HttpAnswer {
  status: number;
  text: string;
  json: unknown;
}

/** A send that failed for good: its message is what the send history shows. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The provider's own words: a JSON error field when there is one, else the start of the body. */
function errorText(status: number, text: string, json: unknown): string {
  const j = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const field = [j.error, j.description, j.message, j.msg, j.errors, j.error_description].find(
    (v) => v !== undefined && v !== null && v !== '',
  );
  const said = field === undefined ? text.trim() : typeof field === 'string' ? field : JSON.stringify(field);
  return `HTTP ${status}${said ? `: ${said.slice(0, MAX_ERROR_TEXT)}` : ''}`;
}

function retryAfterMs(h: string | null): number | undefined {
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s)) return s * 1000;
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

async function once(req: HttpRequest): Promise<HttpAnswer & { retryAfter?: number }> {
  const target = new URL(req.url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new SendError(`unsupported URL scheme ${target.protocol.replace(':', '')}; use http or https`);
  const headers: Record<string, string> = { 'User-Agent': 'watchdeck', ...req.headers };
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['Content-Type'] ??= 'application/json';
  }
  let status: number;
  let text: string;
  let retryAfter: string | null;
  try {
    // undici's request rather than its fetch: the same client at a fraction of the cost per call.
    // It follows no redirects: a connection's credentials go to its own host only.
    const res = await request(target, {
      method: req.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      dispatcher: req.insecureTls ? insecure : secure,
    });
    status = res.statusCode;
    const h = res.headers['retry-after'];
    retryAfter = Array.isArray(h) ? (h[0] ?? null) : (h ?? null);
    text = (await res.body.text()).slice(0, 64 * 1024);
  } catch (err) {
    const e = err as Error & { code?: string; cause?: Error & { code?: string } };
    const why = /Timeout/.test(e.code ?? e.name)
      ? `no answer within ${TIMEOUT_MS / 1000}s`
      : (e.code ?? e.cause?.code ?? e.message);
    // the host only: the path may hold a token (webhook URLs)
    throw new SendError(`${target.host}: ${why}`, true);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, text, json, retryAfter: retryAfterMs(retryAfter) };
}

/** Sends with the retry policy; resolves with a 2xx answer, else throws a SendError. */
export async function send(req: HttpRequest): Promise<HttpAnswer> {
  let last: SendError | undefined;
  for (let attempt = 1; attempt <= RETRY.attempts; attempt++) {
    let wait: number | undefined;
    try {
      const a = await once(req);
      if (a.status >= 200 && a.status < 300) {
        const refused = req.check?.(a.status, a.json, a.text);
        if (!refused) return a;
        last = new SendError(refused);
        break;
      }
      const transient = a.status === 429 || a.status >= 500;
      last = new SendError(
        a.status >= 300 && a.status < 400
          ? `HTTP ${a.status}: redirected, not followed`
          : errorText(a.status, a.text, a.json),
        transient,
      );
      if (!transient) break;
      wait = a.retryAfter;
    } catch (err) {
      if (!(err instanceof SendError)) throw err;
      last = err;
      if (!err.transient) break;
    }
    if (attempt < RETRY.attempts) {
      const backoff = Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** (attempt - 1));
      await sleep(Math.min(RETRY.maxMs, wait ?? backoff));
    }
  }
  throw last ?? new SendError('not sent');
}
