import type { LogLine } from '@watchdeck/core';

/** One search as a backend receives it: times resolved, paging token decoded by the backend. */
export interface BackendQuery {
  /** text the message contains (case-insensitive) */
  text?: string;
  startMs: number;
  endMs: number;
  limit: number;
  /** the backend's own token from the previous page */
  page?: string;
  /** labels every line must carry (the component's log source may name some) */
  labels?: Record<string, string>;
  signal: AbortSignal;
}

export interface BackendAnswer {
  results: LogLine[];
  total: number;
  totalRelation: 'eq' | 'gte';
  next?: string;
}

/** Page tokens are base64url JSON; a token that does not decode is the caller's mistake. */
export function encodePage(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

export function decodePage<T>(token: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (!token) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (!check(v)) throw new PageTokenError();
  return v;
}

export class PageTokenError extends Error {
  constructor() {
    super('page is not a page token of this search');
  }
}
