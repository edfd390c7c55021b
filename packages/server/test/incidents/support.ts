/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { expect } from 'vitest';
import { connectionToRow, connectionTypeDef, type ConnectionValues } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';

/** Helpers for the incident automation tests: /api/db calls as the AUTH=none admin, fixtures, polling. */
export interface Api {
  (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
}

export function apiAt(url: string): Api {
  return async (method, path, body, headers = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        accept: 'application/json',
        prefer: 'return=representation',
        origin: new URL(url).origin, // as the web app's fetch sends it (the CSRF check reads it)
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  };
}

export async function createIncident(api: Api, o: Record<string, unknown> = {}): Promise<any> {
  const r = await api('POST', '/api/db/incidents', { title: 'Checkout is down', description: 'p95 above 2s', ...o });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body[0];
}

export async function createTeam(api: Api, name: string, spec: Record<string, unknown>): Promise<string> {
  const r = await api('POST', '/api/db/teams', { name, spec });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body[0].id;
}

export async function createConnection(api: Api, type: string, values: ConnectionValues): Promise<string> {
  const def = connectionTypeDef(type)!;
  const r = await api('POST', '/api/db/connections', connectionToRow(def, { namespace: 'default', ...values }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body[0].id;
}

/** Retries due later become due now: the event queue's backoff without the wait. */
export async function hurryRetries(db: Db, name: string): Promise<void> {
  await db.query(
    `UPDATE event_deliveries d SET next_attempt_at = now() FROM event_queue e
     WHERE e.id = d.event_id AND e.name = $1 AND d.status = 'pending'`,
    [name],
  );
}

/** Polls until fn's value passes check (generous: the queue and the scheduler run on their own). */
export async function waitFor<T>(
  fn: () => Promise<T>,
  check: (v: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await fn();
    if (check(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
}
