import type { FastifyReply } from 'fastify';

/**
 * Kubernetes `Status` bodies: every refusal of /k8s answers one, so kubectl prints its message
 * (`Error from server (Conflict): ...`). Reasons are Kubernetes' StatusReason names.
 */
export type Reason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'InternalError';

export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: Reason,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; causes?: { message: string; field?: string }[] },
  ) {
    super(message);
  }
}

export function statusBody(code: number, reason: string, message: string, details?: KubeError['details']) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: code < 400 ? 'Success' : 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

export function sendStatus(reply: FastifyReply, err: KubeError) {
  return reply
    .code(err.code)
    .type('application/json')
    .send(statusBody(err.code, err.reason, err.message, err.details));
}

export const notFound = (kind: { plural: string }, name: string) =>
  new KubeError(404, 'NotFound', `${kind.plural}.watchdeck.io "${name}" not found`, {
    name,
    group: 'watchdeck.io',
    kind: kind.plural,
  });
