/**
 * The topology's read routes (issue 17, server items 3 and 4; seed 002 section 7.2):
 *   GET /api/topology                       the dashboard's listing (queries/listing.ts): read on
 *                                           topologies
 *   GET /api/snapshot/topology/{id}         a zip of a component, its descendants, checks, config
 *                                           items and incidents over a range (snapshot.ts): read
 *                                           on everything the zip holds
 * Both are off (404) when the 'topology' feature is disabled.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuidField } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { needs } from '#server/auth/index.ts';
import { sendError } from '#server/http/errors.ts';
import { noParams, typed } from '#server/http/validation.ts';
import { listingQuery } from './queries/filters.ts';
import { topologyListing } from './queries/listing.ts';
import {
  DEFAULT_START,
  parseStart,
  snapshotArchive,
  snapshotDisposition,
  snapshotQuery,
  snapshotScope,
} from './snapshot.ts';

const NOT_FOUND = 'Component not found';

export function registerTopologyRoutes(app: FastifyInstance, { db }: { db: Db }): void {
  const t = typed(app);

  t.get(
    '/api/topology',
    {
      config: needs('topologies', 'read', { feature: 'topology' }),
      schema: { params: noParams, querystring: listingQuery },
    },
    async (req, reply) => {
      const result = await topologyListing(db, req.query);
      if (!result.found) return sendError(reply, 404, 'not_found', NOT_FOUND);
      // a listing past the limits (queries/listing.ts) says so rather than pretending to be whole
      if (result.truncated) reply.header('x-result-truncated', 'true');
      return result.response;
    },
  );

  t.get(
    '/api/snapshot/topology/:id',
    {
      config: {
        feature: 'topology',
        // the zip holds components, checks, config items and incidents
        access: [
          { resource: 'topologies', action: 'read' },
          { resource: 'canaries', action: 'read' },
          { resource: 'database', action: 'read' },
          { resource: 'incident', action: 'read' },
        ],
      },
      schema: { params: z.object({ id: uuidField('id') }), querystring: snapshotQuery },
    },
    async (req, reply) => {
      const scope = await snapshotScope(db, req.params.id, req.query.related);
      if (!scope) return sendError(reply, 404, 'not_found', NOT_FOUND);
      const end = new Date();
      const start = parseStart(req.query.start?.trim() || DEFAULT_START, end)!;
      // the client going away stops the queries (the archive waits on it otherwise)
      const abort = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const archive = snapshotArchive(db, scope, {
        start,
        end,
        related: req.query.related,
        signal: abort.signal,
        log: (err) => req.log.warn({ err }, 'topology snapshot: a file ended early'),
      });
      archive.on('error', (err) => req.log.warn({ err }, 'topology snapshot failed'));
      archive.on('warning', (err) => req.log.warn({ err }, 'topology snapshot warning'));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', snapshotDisposition(scope.root.name))
        .header('cache-control', 'no-store')
        .send(archive);
    },
  );
}
