import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { canRunCheck, uuidField } from '@watchdeck/core';
import { noBody, noParams, noQuery, optionalText, queryInt, typed } from '../http/validation.ts';
import type { Db } from '../db/index.ts';
import { needs } from '../auth/index.ts';
import type { HealthEngine } from './engine.ts';
import { checksSummaryEach, feedVersion, parseLabelFilter } from './summary.ts';
import { checkGraph } from './graph.ts';
import { parseWindow } from './time-range.ts';
import { CANARY_GRAPH_POINTS } from '@watchdeck/core';

/**
 * The canary service's routes under /api/canary (seed 000 section 7 "Health and checks"):
 *   POST /api/canary/run/check/{id}    Run Now: runs the check, records it, answers the result
 *   GET  /api/canary/api/summary       {checks_summary: [...]} for start (default 1h), end,
 *                                      check_id, canary_id, agent_id, namespace, type, labels
 *   GET  /api/canary/api/graph         ?check=&start=&end=&count=300 -> {status: [points], ...}
 * Bad parameters answer 400 in the app's one error shape (http/errors.ts), the message naming the
 * parameter; unknown checks 404 {error}.
 */
const MAX_POINTS = 1000;

/** An optional uuid query parameter ('' is absent). */
const optionalId = (name: string) => optionalText.pipe(uuidField(name).optional());

/**
 * The time window and label filter are read as the schema is checked, so their RangeErrors
 * (which name the parameter) are 400s in the one error shape like any other field.
 */
function parsed<T>(ctx: z.RefinementCtx, field: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    ctx.addIssue({ code: 'custom', message: err.message, path: [/^end\b/.test(err.message) ? 'end' : field] });
    return z.NEVER;
  }
}

const windowFields = { start: optionalText, end: optionalText };

const summaryQuery = z
  .object({
    ...windowFields,
    check_id: optionalId('check_id'),
    checkId: optionalId('checkId'),
    canary_id: optionalId('canary_id'),
    agent_id: optionalId('agent_id'),
    namespace: optionalText,
    type: optionalText,
    labels: optionalText,
  })
  .transform((q, ctx) => ({
    window: parsed(ctx, 'start', () => parseWindow(q, '1h')),
    filter: {
      checkId: q.check_id ?? q.checkId,
      canaryId: q.canary_id,
      agentId: q.agent_id,
      namespace: q.namespace,
      type: q.type,
      labels: parsed(ctx, 'labels', () => parseLabelFilter(q.labels)),
    },
  }));

const graphQuery = z
  .object({
    ...windowFields,
    check: optionalId('check'),
    check_id: optionalId('check_id'),
    count: queryInt('count', 1, MAX_POINTS),
  })
  .transform((q, ctx) => {
    const check = q.check ?? q.check_id;
    if (!check) ctx.addIssue({ code: 'custom', message: 'check is required (the check id)', path: ['check'] });
    return {
      check: check!,
      window: parsed(ctx, 'start', () => parseWindow(q, '1h')),
      count: q.count ?? CANARY_GRAPH_POINTS,
    };
  });

/**
 * A JSON answer of thousands of items built as they come, in Buffers of about CHUNK bytes. The
 * summary of 5,000 checks is about 4 MB: held as strings until the last row is in, it was copied by
 * every young-generation collection it lived through (20-30 ms of collector time per answer,
 * more than the rendering itself); encoded into Buffers as it grows, it lives outside the V8 heap.
 */
const CHUNK = 64 * 1024;
class JsonChunks {
  private readonly done: Buffer[] = [];
  private piece: string;
  private first = true;
  constructor(head: string) {
    this.piece = head;
  }
  /** Appends one item of the array, after a comma unless it is the first. */
  item(json: string): void {
    this.piece += this.first ? json : `,${json}`;
    this.first = false;
    if (this.piece.length >= CHUNK) {
      this.done.push(Buffer.from(this.piece));
      this.piece = '';
    }
  }
  end(tail: string): Buffer {
    this.done.push(Buffer.from(this.piece + tail));
    this.piece = '';
    return Buffer.concat(this.done);
  }
}

export function healthRoutes(
  fastify: FastifyInstance,
  { db, engine, cacheTtlMs = 0 }: { db: Db; engine: HealthEngine; cacheTtlMs?: number },
): void {
  const app = typed(fastify);
  const read = needs('canaries', 'read', { feature: 'health' });
  /**
   * Summary answers by query string: being computed, or computed less than `cacheTtlMs` ago.
   * Every dashboard open on the same view asks the same question on the same refresh timer, and
   * one answer for 5,000 checks costs 100 ms on PostgreSQL and a second or more on PGlite, where
   * it shares the one connection with the check engine: a request that arrives while the same
   * question is being answered waits for that answer instead of asking again (single flight),
   * and one that arrives within the TTL of the computation's start gets its answer. A cached
   * answer is dropped when this process's check engine records a status change or a Run Now
   * (engine.changes) or a check is added or renamed (the feed version): those show at once. What
   * else changed (counts and latencies of new runs, a run recorded by another replica, a check or
   * canary deleted) shows within the TTL. The feed is the same for every caller allowed to read
   * canaries, so sharing it reveals nothing.
   */
  const summaries = new Map<string, { answer: Promise<Buffer>; started: number; done: boolean; version: string }>();
  const fresh = (e: { started: number; done: boolean; version: string }, version: string, now: number) =>
    !e.done || (now - e.started < cacheTtlMs && e.version === version);

  const run = { params: z.object({ id: uuidField('the check id') }), querystring: noQuery, body: noBody };
  app.post(
    '/api/canary/run/check/:id',
    // seed 000 section 6: Run Now is available to commanders, besides those who may write canaries
    { config: { feature: 'health', access: { label: 'run checks', check: canRunCheck } }, schema: run },
    async (req, reply) => {
      const result = await engine.runCheck(req.params.id);
      if (!result) return reply.code(404).send({ error: 'check not found' });
      return result;
    },
  );

  const summary = { params: noParams, querystring: summaryQuery };
  app.get('/api/canary/api/summary', { config: read, schema: summary }, async (req, reply) => {
    const { window, filter } = req.query;
    const key = req.url.slice(req.url.indexOf('?') + 1);
    const version = cacheTtlMs ? `${engine.changes}/${await feedVersion(db)}` : '';
    const now = performance.now();
    let entry = summaries.get(key);
    if (!entry || !fresh(entry, version, now)) {
      const started = performance.now();
      const body = new JsonChunks('{"checks_summary":[');
      const answer = checksSummaryEach(db, window, filter, (json) => body.item(json)).then((source) =>
        body.end(
          `],${JSON.stringify({
            duration: Math.round(performance.now() - started),
            source,
            start: window.start,
            end: window.end,
          }).slice(1)}`,
        ),
      );
      const made = { answer, started, done: false, version };
      entry = made;
      summaries.set(key, made);
      const forget = () => summaries.get(key) === made && summaries.delete(key);
      answer.then(() => {
        made.done = true;
        if (!cacheTtlMs) forget();
        // answers of questions nobody asks again are dropped as others are asked
        else
          for (const [k, e] of summaries)
            if (e.done && performance.now() - e.started >= cacheTtlMs) summaries.delete(k);
      }, forget);
    }
    const answer = entry.answer;
    // the rows arrive as JSON text from PostgreSQL and are spliced in, never parsed and re-serialised
    return reply.type('application/json; charset=utf-8').send(await answer);
  });

  const graph = { params: noParams, querystring: graphQuery };
  app.get('/api/canary/api/graph', { config: read, schema: graph }, async (req, reply) => {
    const { check, window, count } = req.query;
    const exists = await db.query(`SELECT 1 FROM checks WHERE id = $1`, [check]);
    if (!exists.rows.length) return reply.code(404).send({ error: 'check not found' });
    return checkGraph(db, check, window, count);
  });
}
