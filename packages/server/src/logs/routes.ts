/**
 * POST /api/logs (seed 001 section 7 "Log search"): a component's log lines, newest first, paged.
 * Reading logs needs read on logging_backends and on topologies (the component); viewers may.
 * The logs feature switched off answers 404, as every route of a disabled feature.
 */
import type { FastifyInstance } from 'fastify';
import { logSearchRequestSchema } from '@watchdeck/core';
import { needs } from '#server/auth/index.ts';
import { sendError } from '#server/http/errors.ts';
import { noParams, noQuery, typed } from '#server/http/validation.ts';
import { LogBackendError, LogRequestError } from './errors.ts';
import { searchLogs, type LogsDeps } from './service.ts';

const FEATURE = { feature: 'logs' };
const CODES = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found' } as const;

export function logRoutes(app: FastifyInstance, deps: LogsDeps): void {
  const access = needs('logging_backends', 'read', FEATURE);
  typed(app).post(
    '/api/logs',
    {
      config: {
        ...access,
        access: [
          { resource: 'logging_backends', action: 'read' },
          { resource: 'topologies', action: 'read' },
        ],
      },
      schema: { params: noParams, querystring: noQuery, body: logSearchRequestSchema },
    },
    async (req, reply) => {
      // a caller who hangs up stops the scan
      const abort = new AbortController();
      req.raw.on('close', () => {
        if (!reply.sent) abort.abort();
      });
      try {
        return await searchLogs(deps, req.body, abort.signal);
      } catch (err) {
        if (err instanceof LogRequestError) return sendError(reply, err.statusCode, CODES[err.statusCode], err.message);
        if (err instanceof LogBackendError) {
          req.log.warn({ err: { message: err.message } }, 'log backend failed');
          return sendError(reply, 502, 'log_backend_unavailable', err.message);
        }
        throw err;
      }
    },
  );
}
