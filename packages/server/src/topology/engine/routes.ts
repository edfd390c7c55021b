/**
 * The topology engine's route:
 *   POST /api/topology/{id}/run   Run now: one run of the topology, answered with its job history
 *                                 row (status, counts, details.summary: added, updated, unchanged,
 *                                 deleted, errors); write on topologies (editor and admin)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuidField } from '@watchdeck/core';
import { needs } from '#server/auth/index.ts';
import { sendError } from '#server/http/errors.ts';
import { noBody, noQuery, typed } from '#server/http/validation.ts';
import type { TopologyEngine } from './engine.ts';

export function topologyEngineRoutes(fastify: FastifyInstance, { engine }: { engine: TopologyEngine }): void {
  const app = typed(fastify);
  const write = needs('topologies', 'write', { feature: 'settings.topology' });
  const run = { params: z.object({ id: uuidField('the topology id') }), querystring: noQuery, body: noBody };
  app.post('/api/topology/:id/run', { config: write, schema: run }, async (req, reply) => {
    const result = await engine.runNow(req.params.id);
    if (!result) return sendError(reply, 404, 'not_found', `topology ${req.params.id} not found`);
    return result;
  });
}
