/**
 * The catalog's query and link routes (issue 16 part B): the summary, the changes list and
 * manual links. Reads need read on 'database' (the catalog's resource in /api/db), links need
 * write; all are off when the 'config' feature is disabled.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuidField } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { noBody, noParams, noQuery, typed } from '#server/http/validation.ts';
import { sendError } from '#server/http/errors.ts';
import { needs } from '#server/auth/index.ts';
import { catalogSummary, summaryRequest } from './queries/summary.ts';
import { catalogChanges, changesRequest } from './queries/changes.ts';
import { createManualLink, deleteManualLink } from './relationships/links.ts';

const read = needs('database', 'read', { feature: 'config' });
const write = needs('database', 'write', { feature: 'config' });

const linkBody = z.strictObject({
  config_id: uuidField('config_id'),
  related_id: uuidField('related_id'),
  relation: z.string().max(200, { error: 'relation must be at most 200 characters long' }).optional(),
});
const linkParams = z.object({ config_id: uuidField('config_id'), related_id: uuidField('related_id') });

export function catalogGraphRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const t = typed(app);

  t.post(
    '/api/catalog/summary',
    { config: read, schema: { params: noParams, querystring: noQuery, body: summaryRequest } },
    async (req) => catalogSummary(db, req.body),
  );

  t.post(
    '/api/catalog/changes',
    { config: read, schema: { params: noParams, querystring: noQuery, body: changesRequest } },
    async (req) => catalogChanges(db, req.body),
  );

  t.post(
    '/api/catalog/links',
    { config: write, schema: { params: noParams, querystring: noQuery, body: linkBody } },
    async (req, reply) => {
      const r = await db.transaction((tx) => createManualLink(tx, req.body, req.caller?.person.id));
      if (!r.ok)
        return sendError(
          reply,
          r.status,
          r.status === 404 ? 'not_found' : 'invalid_body',
          r.message,
          r.field ? { [r.field]: r.message } : undefined,
        );
      return reply.code(r.created ? 201 : 200).send(r.link);
    },
  );

  t.delete(
    '/api/catalog/links/:config_id/:related_id',
    { config: write, schema: { params: linkParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      const r = await deleteManualLink(db, req.params.config_id, req.params.related_id);
      if (!r.ok) return sendError(reply, r.status, r.status === 404 ? 'not_found' : 'conflict', r.message);
      return reply.code(204).send();
    },
  );
}
