/**
 * The scraper engine's routes:
 *   POST /api/catalog/scrapers/{id}/run   Run now: one run of the scraper, answered with its job
 *                                         history row (status, counts, scrape_summary); write on
 *                                         config_scrapers
 *   POST /api/catalog/push                items (and changes, relationships) pushed to a scraper
 *                                         with a `custom` entry, written by the same ingest; write
 *                                         on config_scrapers
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuidField } from '@watchdeck/core';
import { needs } from '#server/auth/index.ts';
import type { Db } from '#server/db/index.ts';
import { sendError } from '#server/http/errors.ts';
import { noBody, noParams, noQuery, typed } from '#server/http/validation.ts';
import type { ScraperEngine } from './engine.ts';
import type { ScrapeResult, ScrapedChange, ScrapedRelationship, Severity } from './scrape/types.ts';

const HEALTH = z.enum(['healthy', 'unhealthy', 'warning', 'unknown']);
const SEVERITIES: readonly [Severity, ...Severity[]] = [
  'info',
  'warning',
  'low',
  'medium',
  'high',
  'blocker',
  'critical',
];
const SEVERITY = z.enum(SEVERITIES);
const text = (max: number) => z.string().trim().min(1).max(max);
const stringMap = z.record(z.string(), z.string().max(1000));
const ref = z.object({ type: text(200), id: text(500) });
const timestamp = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const MAX_PUSH_ITEMS = 10_000;

const pushBody = z.object({
  scraper_id: uuidField('scraper_id'),
  items: z
    .array(
      z.object({
        type: text(200),
        id: text(500),
        name: text(500),
        config_class: text(200).optional(),
        config: z.unknown(),
        format: z.enum(['json', 'yaml', 'text']).optional(),
        namespace: z.string().max(253).optional(),
        labels: stringMap.optional(),
        tags: stringMap.optional(),
        description: z.string().max(10_000).optional(),
        source: z.string().max(2000).optional(),
        health: HEALTH.optional(),
        status: z.string().max(200).optional(),
        ready: z.boolean().optional(),
        created_at: timestamp.optional(),
        deleted_at: timestamp.optional(),
        parents: z.array(ref).max(10).optional(),
      }),
    )
    .max(MAX_PUSH_ITEMS)
    .default([]),
  changes: z
    .array(
      ref.extend({
        change_type: text(200),
        external_change_id: z.string().max(500).optional(),
        severity: SEVERITY.optional(),
        source: z.string().max(500).optional(),
        summary: z.string().max(10_000).optional(),
        details: z.unknown().optional(),
        created_at: timestamp.optional(),
        created_by: z.string().max(500).optional(),
      }),
    )
    .max(MAX_PUSH_ITEMS)
    .default([]),
  relationships: z
    .array(z.object({ from: ref, to: ref, relation: z.string().max(200).default('') }))
    .max(MAX_PUSH_ITEMS)
    .default([]),
});

export function catalogRoutes(fastify: FastifyInstance, { db, engine }: { db: Db; engine: ScraperEngine }): void {
  const app = typed(fastify);
  const write = needs('config_scrapers', 'write', { feature: 'settings.config_scraper' });

  const run = { params: z.object({ id: uuidField('the scraper id') }), querystring: noQuery, body: noBody };
  app.post('/api/catalog/scrapers/:id/run', { config: write, schema: run }, async (req, reply) => {
    const result = await engine.runNow(req.params.id);
    if (!result) return sendError(reply, 404, 'not_found', `scraper ${req.params.id} not found`);
    return result;
  });

  app.post(
    '/api/catalog/push',
    { config: write, schema: { params: noParams, querystring: noQuery, body: pushBody } },
    async (req, reply) => {
      const body = req.body;
      const { rows } = await db.query<{ agent_id: string; custom: boolean }>(
        `SELECT agent_id, jsonb_typeof(spec->'custom') = 'array' AS custom FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL`,
        [body.scraper_id],
      );
      if (!rows[0]) return sendError(reply, 404, 'not_found', `scraper ${body.scraper_id} not found`);
      if (!rows[0].custom)
        return sendError(
          reply,
          400,
          'invalid_request',
          `scraper_id: scraper ${body.scraper_id} has no custom entry (spec.custom) to push to`,
        );
      const result: ScrapeResult = {
        items: body.items.map((i) => ({
          type: i.type,
          externalId: i.id,
          name: i.name,
          configClass: i.config_class ?? i.type,
          config: i.config ?? null,
          format: i.format,
          namespace: i.namespace,
          labels: i.labels,
          tags: i.tags,
          description: i.description,
          source: i.source ?? 'push',
          health: i.health,
          status: i.status,
          ready: i.ready,
          createdAt: i.created_at,
          deletedAt: i.deleted_at,
          parents: i.parents?.map((p) => ({ type: p.type, externalId: p.id })),
        })),
        changes: body.changes.map((c): ScrapedChange => ({
          type: c.type,
          externalId: c.id,
          changeType: c.change_type,
          externalChangeId: c.external_change_id,
          severity: c.severity,
          source: c.source ?? 'push',
          summary: c.summary,
          details: c.details,
          createdAt: c.created_at,
          createdBy: c.created_by,
        })),
        relationships: body.relationships.map((r): ScrapedRelationship => ({
          from: { type: r.from.type, externalId: r.from.id },
          to: { type: r.to.type, externalId: r.to.id },
          relation: r.relation,
        })),
        errors: [],
      };
      const outcome = await engine.write(body.scraper_id, rows[0].agent_id, result, { full: false, pushed: true });
      return { scrape_summary: outcome.summary, changes: outcome.changes };
    },
  );
}
