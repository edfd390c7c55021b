import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isConnectionError, isStatementTimeout } from '../db/index.ts';

/**
 * The one error shape of the app's own routes (not /api/db, which answers as PostgREST does, nor
 * the identity flows, which answer as Kratos does):
 *
 *   { statusCode, code, error, message, errors? }
 *
 * `error` is the status text, `code` a stable name (invalid_body, invalid_query, invalid_path,
 * conflict, ...; Fastify's FST_ codes for what Fastify refuses itself), `message` the sentence
 * to show, naming the field, and `errors` one message per field when the input was refused.
 */
export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
  errors?: Record<string, string>;
}

export function errorBody(
  statusCode: number,
  code: string,
  message: string,
  errors?: Record<string, string>,
): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(errors ? { errors } : {}) };
}

export function sendError(
  reply: FastifyReply,
  statusCode: number,
  code: string,
  message: string,
  errors?: Record<string, string>,
) {
  return reply.code(statusCode).send(errorBody(statusCode, code, message, errors));
}

const CLIENT_CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/**
 * The last word on errors no route answered itself: a client's mistake keeps its 4xx and
 * message; the database gone or too slow is a 503 saying so; anything else a 500 that shows
 * nothing of the failure (it is logged).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: unknown; errors?: unknown }, req, reply) => {
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) {
      const code = typeof err.code === 'string' ? err.code : (CLIENT_CODES[status] ?? 'bad_request');
      const errors =
        err.errors && typeof err.errors === 'object' && !Array.isArray(err.errors)
          ? (err.errors as Record<string, string>)
          : undefined;
      return sendError(reply, status, code, err.message, errors);
    }
    if (isConnectionError(err)) {
      req.log.warn({ err: { message: err.message } }, 'database unavailable');
      return sendError(reply, 503, 'database_unavailable', 'The database is unavailable; try again in a moment');
    }
    // a value the route passed to the database unchecked: the caller's input, not our failure
    const sqlstate = err.code;
    if (typeof sqlstate === 'string' && /^2[23][0-9A-Z]{3}$/.test(sqlstate)) {
      req.log.info({ err: { message: err.message, code: sqlstate } }, 'input refused by the database');
      if (sqlstate === '23505' || sqlstate === '23503')
        return sendError(reply, 409, 'conflict', 'The request conflicts with stored data');
      return sendError(reply, 400, 'invalid_value', 'A value in the request is not valid');
    }
    if (isStatementTimeout(err)) {
      req.log.warn({ err: { message: err.message } }, 'statement timeout');
      return sendError(reply, 503, 'statement_timeout', 'The database took too long to answer; try again later');
    }
    req.log.error({ err }, 'request failed');
    return sendError(reply, 500, 'internal', 'Internal Server Error');
  });
}
