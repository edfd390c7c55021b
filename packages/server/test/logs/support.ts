/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Role } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';

/** Signed-in callers with the given roles, and a call helper that sends as one of them. */
export async function callers(db: Db, url: string, names: Record<string, Role>) {
  const cookies: Record<string, string> = {};
  for (const [name, role] of Object.entries(names)) {
    const identity = await createIdentity(db, {
      traits: { email: `${name}@logs.test`, name: { first: name, last: 'Tester' } },
      roles: [role],
    });
    const { token } = await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 });
    cookies[name] = `${SESSION_COOKIE}=${token}`;
  }
  return async (who: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        accept: 'application/json',
        cookie: cookies[who] ?? '',
        origin: new URL(url).origin,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      // a string is sent as it is (malformed bodies)
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
  };
}

/** A local HTTP server answering with `handler`; records each request (method, path, query, body). */
export async function peer(
  handler: (req: { method: string; path: string; query: URLSearchParams; body: any }) => {
    status?: number;
    body: unknown;
  },
) {
  const seen: { method: string; path: string; query: URLSearchParams; body: any }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const r = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: u.searchParams,
        body: raw ? JSON.parse(raw) : undefined,
      };
      seen.push(r);
      const out = handler(r);
      res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}
