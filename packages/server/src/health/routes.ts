import type { FastifyInstance } from 'fastify';
import { canRunCheck } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { needs } from '../auth/index.ts';
import type { HealthEngine } from './engine.ts';
import { checksSummaryEach, parseLabelFilter } from './summary.ts';
import { checkGraph } from './graph.ts';
import { parseWindow } from './time-range.ts';
import { CANARY_GRAPH_POINTS } from '@watchdeck/core';

/**
 * The canary service's routes under /api/canary (seed 000 section 7 "Health and checks"):
 *   POST /api/canary/run/check/{id}    Run Now: runs the check, records it, answers the result
 *   GET  /api/canary/api/summary       {checks_summary: [...]} for start (default 1h), end,
 *                                      check_id, canary_id, agent_id, namespace, type, labels
 *   GET  /api/canary/api/graph         ?check=&start=&end=&count=300 -> {status: [points], ...}
 * Bad parameters answer 400 {error} naming the parameter; unknown checks 404.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_POINTS = 1000;

type Query = Record<string, string | undefined>;

function uuidParam(q: Query, name: string): string | undefined {
  const v = q[name];
  if (v === undefined || v === '') return undefined;
  if (!UUID.test(v)) throw new RangeError(`${name} must be a UUID`);
  return v;
}

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

export function healthRoutes(app: FastifyInstance, { db, engine }: { db: Db; engine: HealthEngine }): void {
  const read = needs('canaries', 'read', { feature: 'health' });
  /**
   * Summary answers being computed, by query string. Every dashboard open on the same view asks
   * the same question on the same refresh timer, and one answer for 5,000 checks costs about
   * 100 ms of database and server time: a request that arrives while the same question is being
   * answered waits for that answer instead of asking again. It is then at most one computation
   * older than the request (its window ends when the first request arrived). The feed is the same
   * for every caller allowed to read canaries, so sharing it reveals nothing. Answers are not
   * kept once sent.
   */
  const summariesInFlight = new Map<string, Promise<Buffer>>();

  app.post<{ Params: { id: string } }>(
    '/api/canary/run/check/:id',
    // seed 000 section 6: Run Now is available to commanders, besides those who may write canaries
    { config: { feature: 'health', access: { label: 'run checks', check: canRunCheck } } },
    async (req, reply) => {
      if (!UUID.test(req.params.id)) return reply.code(400).send({ error: 'the check id must be a UUID' });
      const result = await engine.runCheck(req.params.id);
      if (!result) return reply.code(404).send({ error: 'check not found' });
      return result;
    },
  );

  app.get<{ Querystring: Query }>('/api/canary/api/summary', { config: read }, async (req, reply) => {
    const q = req.query;
    let window;
    let filter;
    try {
      window = parseWindow(q, '1h');
      filter = {
        checkId: uuidParam(q, 'check_id') ?? uuidParam(q, 'checkId'),
        canaryId: uuidParam(q, 'canary_id'),
        agentId: uuidParam(q, 'agent_id'),
        namespace: q.namespace || undefined,
        type: q.type || undefined,
        labels: parseLabelFilter(q.labels),
      };
    } catch (err) {
      if (err instanceof RangeError) return reply.code(400).send({ error: err.message });
      throw err;
    }
    const key = req.url.slice(req.url.indexOf('?') + 1);
    let answer = summariesInFlight.get(key);
    if (!answer) {
      const started = performance.now();
      const body = new JsonChunks('{"checks_summary":[');
      answer = checksSummaryEach(db, window, filter, (json) => body.item(json)).then((source) =>
        body.end(
          `],${JSON.stringify({
            duration: Math.round(performance.now() - started),
            source,
            start: window.start,
            end: window.end,
          }).slice(1)}`,
        ),
      );
      summariesInFlight.set(key, answer);
      const forget = () => summariesInFlight.get(key) === answer && summariesInFlight.delete(key);
      answer.then(forget, forget);
    }
    // the rows arrive as JSON text from PostgreSQL and are spliced in, never parsed and re-serialised
    return reply.type('application/json; charset=utf-8').send(await answer);
  });

  app.get<{ Querystring: Query }>('/api/canary/api/graph', { config: read }, async (req, reply) => {
    const q = req.query;
    let check: string | undefined;
    let window;
    let count = CANARY_GRAPH_POINTS;
    try {
      check = uuidParam(q, 'check') ?? uuidParam(q, 'check_id');
      if (!check) throw new RangeError('check is required (the check id)');
      window = parseWindow(q, '1h');
      if (q.count !== undefined && q.count !== '') {
        count = Number(q.count);
        if (!Number.isInteger(count) || count < 1 || count > MAX_POINTS)
          throw new RangeError(`count must be a whole number from 1 to ${MAX_POINTS}`);
      }
    } catch (err) {
      if (err instanceof RangeError) return reply.code(400).send({ error: err.message });
      throw err;
    }
    const exists = await db.query(`SELECT 1 FROM checks WHERE id = $1`, [check]);
    if (!exists.rows.length) return reply.code(404).send({ error: 'check not found' });
    return checkGraph(db, check, window, count);
  });
}
