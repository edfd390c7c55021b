import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test listener received. */
interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** the body as JSON, or as form fields, or undefined */
  body: Record<string, unknown> | undefined;
}

/**
 * A local HTTP peer standing in for every notification service: it records each request and
 * answers as the service does on success (Slack's ok:true, Pushover's status:1, Matrix's login).
 * `fail(prefix, n, status)` makes the next n requests under a path fail with that status.
 */
export interface Listener {
  url: string;
  received: Received[];
  at(prefix: string): Received[];
  fail(prefix: string, times: number, status?: number, text?: string): void;
  close(): Promise<void>;
}

function answer(path: string): unknown {
  if (path.startsWith('/api/chat.postMessage')) return { ok: true, ts: '1.2' };
  if (/^\/bot[^/]+\/sendMessage/.test(path)) return { ok: true, result: { message_id: 1 } };
  if (path.startsWith('/1/messages.json')) return { status: 1, request: 'r1' };
  if (path.startsWith('/_matrix/client/v3/login')) return { access_token: 'mx-session', user_id: '@bot:local' };
  if (path.startsWith('/_matrix/client/v3/directory/room/')) return { room_id: '!room:local' };
  if (path.includes('/send/m.room.message/')) return { event_id: '$event' };
  if (path.startsWith('/v2/alerts')) return { result: 'Request will be processed', requestId: 'x' };
  return { ok: true };
}

export async function startListener(): Promise<Listener> {
  const received: Received[] = [];
  const failures: { prefix: string; left: number; status: number; text: string }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const path = req.url ?? '/';
      let body: Record<string, unknown> | undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = /x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')
          ? Object.fromEntries(new URLSearchParams(text))
          : undefined;
      }
      received.push({ method: req.method ?? '', path, headers: req.headers, text, body });
      const f = failures.find((x) => path.startsWith(x.prefix) && x.left > 0);
      if (f) {
        f.left--;
        res.writeHead(f.status, { 'content-type': 'application/json' }).end(f.text);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(path)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    at: (prefix) => received.filter((r) => r.path.startsWith(prefix)),
    fail: (prefix, times, status = 503, text = '{"error":"unavailable"}') =>
      void failures.push({ prefix, left: times, status, text }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
