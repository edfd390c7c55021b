/**
 * The /api/db engine on its own fixture schema (fixture.sql + seed.sql), served by a minimal
 * Fastify app that registers only restPlugin, listening on a loopback port. Tests talk to it over
 * real HTTP, through @supabase/postgrest-js (as the web app does) or raw fetch for what the client
 * cannot express (hand-written URLs, malformed bodies, odd headers).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { PostgrestClient } from '@supabase/postgrest-js';
import { restPlugin, type WriteRegistration } from '#server/pgrest/index.ts';
import { RestError } from '#server/pgrest/errors.ts';
import type { RestLimits } from '#server/pgrest/limits.ts';
import { SecretBox } from '#server/connections/secret-box.ts';
import type { ExposedTables } from '#server/db/exposed.ts';
import type { Db } from '#server/db/index.ts';
import type { TestDriver } from '../support/db.ts';

const schemaSql = readFileSync(new URL('./fixture.sql', import.meta.url), 'utf8');
const seedSql = readFileSync(new URL('./seed.sql', import.meta.url), 'utf8');

const FIXTURE_TABLES = [
  'authors',
  'books',
  'genres',
  'book_genres',
  'reviews',
  'hidden_notes',
  'numbers',
  'vaults',
  'counters',
  'topics',
];

/** Small on purpose, so the cap is observable with the 120-row `numbers` table. */
export const ROW_CAP = 50;

const t = { resource: 'fixture' };
const ro = { resource: 'fixture', readOnly: true };

/** Everything but hidden_notes and hidden_fn. */
export const fixtureExposed: ExposedTables = {
  authors: t,
  books: t,
  genres: t,
  book_genres: t,
  reviews: t,
  numbers: t,
  vaults: { resource: 'fixture', secrets: ['password'] },
  counters: t,
  topics: t,
  book_cards: ro,
  author_stats: ro,
  review_cards: ro,
  'rpc/add_numbers': ro,
  'rpc/books_by_author': ro,
  'rpc/author_names': ro,
  'rpc/book_count': ro,
  'rpc/sum_array': ro,
  'rpc/echo_json': ro,
  'rpc/rate_author': t,
  'rpc/touch_nothing': t,
  'rpc/fail_always': ro,
  'rpc/fail_with': ro,
  'rpc/split_name': ro,
  'rpc/search_books': ro,
  'rpc/greet': ro,
  'rpc/pick': ro,
  // created by a test at run time, then found after a schema reload
  late_table: t,
};

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** the body parsed as JSON, or undefined when it is not JSON (tests assert its shape) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON document
  json: any;
}

export interface Fixture {
  db: Db;
  /** base URL of the engine: http://127.0.0.1:<port>/api/db */
  api: string;
  client: PostgrestClient;
  /** every (table, access) the authorize hook was asked about, in order */
  authorized: [string, 'read' | 'write'][];
  box: SecretBox;
  http(method: string, path: string, init?: { headers?: Record<string, string>; body?: string }): Promise<HttpResult>;
  /** re-reads the schema cache (after DDL) */
  reloadSchema(): Promise<void>;
  /** truncates the fixture tables and reloads seed.sql */
  reset(): Promise<void>;
  /** a fingerprint of every fixture table's content and of the schema's tables and functions */
  checksum(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function startFixture(
  driver: TestDriver,
  opts: {
    rowCap?: number;
    limits?: Partial<RestLimits>;
    statementTimeoutMs?: number;
    writes?: WriteRegistration[];
  } = {},
): Promise<Fixture> {
  const db = await driver.open({ migrations: false, statementTimeoutMs: opts.statementTimeoutMs });
  await db.exec(schemaSql);
  await db.exec(seedSql);
  const box = new SecretBox('pgrest-fixture-key');
  const authorized: Fixture['authorized'] = [];
  let reloadSchema: () => Promise<void> = async () => {};
  const app: FastifyInstance = Fastify({ logger: false });
  await app.register(restPlugin, {
    prefix: '/api/db',
    db,
    exposed: fixtureExposed,
    rowCap: opts.rowCap ?? ROW_CAP,
    limits: opts.limits,
    writes: opts.writes,
    encryptSecret: (plain) => box.encrypt(plain),
    onSchemaReload: (reload) => {
      reloadSchema = reload;
    },
    // A stand-in for the RBAC hook: records what it was asked, and denies the tables named in
    // the x-deny header, so tests can prove every touched relation is checked before SQL runs.
    authorize: (req, table, access) => {
      authorized.push([table, access]);
      const deny = String(req.headers['x-deny'] ?? '').split(',');
      if (deny.includes(table)) throw new RestError(403, '42501', `permission denied for ${table}`);
    },
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const api = `${base}/api/db`;
  const client = new PostgrestClient(api, { retry: false });

  return {
    db,
    api,
    client,
    authorized,
    box,
    async http(method, path, init = {}) {
      const res = await fetch(`${api}${path}`, { method, headers: init.headers, body: init.body });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
    reloadSchema: () => reloadSchema(),
    async reset() {
      await db.exec(`TRUNCATE ${FIXTURE_TABLES.join(', ')} RESTART IDENTITY CASCADE;\n${seedSql}`);
    },
    async checksum() {
      const out: Record<string, string> = {};
      for (const table of FIXTURE_TABLES) {
        const r = await db.query<{ n: number; digest: string }>(
          `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM ${table} x`,
        );
        out[table] = `${r.rows[0].n}:${r.rows[0].digest}`;
      }
      const objects = await db.query<{ list: string }>(
        `SELECT string_agg(name, ',' ORDER BY name) AS list FROM (
           SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm')
           UNION ALL
           SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
         ) o`,
      );
      out.objects = objects.rows[0].list;
      return out;
    },
    async close() {
      await app.close();
      await db.dispose();
    },
  };
}

/** `encodeURIComponent` for hand-written query strings. */
export const enc = encodeURIComponent;
