/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';

/** A real HTTP listener that records every request (method, path, headers, body). */
export async function startRecorder(
  answer: (req: { method: string; path: string; body: string }) => {
    status?: number;
    body?: unknown;
    delayMs?: number;
  } = () => ({}),
) {
  const hits: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      hits.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const a = answer({ method: req.method ?? 'GET', path, body });
      setTimeout(() => {
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body ?? { ok: true, path }));
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type Role = 'admin' | 'editor' | 'commander' | 'viewer';

/** Signed-in callers of the app under test, and JSON calls as each. */
export async function callers(db: Db, url: string, names: Record<string, Role>) {
  const cookies: Record<string, string> = {};
  const people: Record<string, string> = {};
  for (const [name, role] of Object.entries(names)) {
    const identity = await createIdentity(db, {
      traits: { email: `${name}@playbooks.test`, name: { first: name, last: 'Tester' } },
      roles: [role],
    });
    const { token } = await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 });
    cookies[name] = `${SESSION_COOKIE}=${token}`;
    people[name] = identity.id;
  }
  const call = async (
    who: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        accept: 'application/json',
        cookie: cookies[who] ?? '',
        origin: new URL(url).origin,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // text answers (log downloads)
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return { call, people };
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const FINAL = ['completed', 'failed', 'cancelled'];

/** Waits for a run to end; the run and its actions by name. */
export async function finished(db: Db, runId: string, timeoutMs = 30_000) {
  const run = await waitFor(
    `run ${runId} to end`,
    async () => {
      const { rows } = await db.query<any>(`SELECT * FROM playbook_runs WHERE id = $1`, [runId]);
      return FINAL.includes(rows[0]?.status) ? rows[0] : undefined;
    },
    timeoutMs,
  );
  const { rows } = await db.query<any>(
    `SELECT * FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY created_at`,
    [runId],
  );
  return { run, actions: Object.fromEntries(rows.map((a: any) => [a.name, a])) as Record<string, any> };
}

/** A playbook row written as the sync or a test fixture would (no person): its id. */
export async function insertPlaybook(db: Db, name: string, spec: unknown, source = 'UI'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO playbooks (name, title, spec, source) VALUES ($1, $1, $2::jsonb, $3) RETURNING id`,
    [name, JSON.stringify(spec), source],
  );
  return rows[0]!.id;
}

export type App = FastifyInstance;
