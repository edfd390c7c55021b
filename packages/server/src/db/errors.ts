/**
 * Errors that mean the connection to PostgreSQL failed, not the statement: a backend terminated
 * (pg_terminate_backend, a restart: 57P01/57P02), a server starting up or shutting down (57P03),
 * a connection exception (08xxx), a refused or reset socket, or node-postgres saying the client
 * is gone. Such a failure says nothing about the statement, so a read may be sent again.
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const MESSAGES =
  /Connection terminated|not queryable|Client was closed|Connection ended|timeout exceeded when trying to connect/i;

export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08')) return true;
    if (SOCKET_CODES.has(code)) return true;
  }
  return MESSAGES.test(String((err as { message?: unknown }).message ?? ''));
}

/** PostgreSQL cancelled the statement: statement_timeout (or a pg_cancel_backend). */
export function isStatementTimeout(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: unknown }).code === '57014';
}
