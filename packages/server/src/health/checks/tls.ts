import tls from 'node:tls';
import { guardedSocketLookup } from '#server/http/outbound.ts';
import { hostPort, num, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * TLS check: connects, completes the handshake and reads the certificate. Fails when the
 * certificate is not trusted (unless insecureSkipVerify or a ca is given), does not match the
 * host, has expired, or expires within maxSSLExpiry days.
 */
const DAY_MS = 86_400_000;

export async function tlsCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const endpoint = str(spec, 'endpoint') ?? str(spec, 'host');
  if (!endpoint) throw new Error('endpoint is required (host:port)');
  const { host, port } = hostPort(endpoint);
  // the outbound deny list (WATCHDECK_OUTBOUND_DENY) holds for sockets too
  const lookup = guardedSocketLookup(host);
  const servername = str(spec, 'serverName') ?? (/^[\d.:]+$/.test(host) ? undefined : host);
  const insecure = spec.insecureSkipVerify === true;
  const started = performance.now();
  const cert = await new Promise<tls.PeerCertificate & { authorized: boolean; authorizationError?: string }>(
    (resolve, reject) => {
      const socket = tls.connect({ host, port, lookup, servername, rejectUnauthorized: false, ca: str(spec, 'ca') });
      const onAbort = () => socket.destroy(ctx.signal.reason as Error);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      socket.once('secureConnect', () => {
        ctx.signal.removeEventListener('abort', onAbort);
        const peer = socket.getPeerCertificate();
        const authorizationError = socket.authorizationError ? String(socket.authorizationError) : undefined;
        socket.destroy();
        resolve({ ...peer, authorized: socket.authorized, authorizationError });
      });
      socket.once('error', (err: Error & { code?: string }) => {
        ctx.signal.removeEventListener('abort', onAbort);
        if (err.code === 'ECONNREFUSED')
          reject(new Error(`connection to ${host}:${port} refused: nothing is listening on that port`));
        else reject(new Error(`TLS handshake with ${host}:${port} failed: ${err.message}`));
      });
    },
  );
  const elapsed = Math.round(performance.now() - started);
  if (!cert.valid_to) throw new Error(`${host}:${port} presented no certificate`);
  const expires = new Date(cert.valid_to);
  const days = Math.floor((expires.getTime() - Date.now()) / DAY_MS);
  const subject = cert.subject?.CN ?? host;
  const vars = { expiry: expires.toISOString(), days, subject, issuer: cert.issuer?.CN ?? '', elapsed };
  const message = `certificate for ${subject} expires in ${days} days (${expires.toISOString().slice(0, 10)})`;
  if (!cert.authorized && !insecure) {
    const reason = cert.authorizationError ?? 'untrusted';
    const hint = reason.includes('SELF_SIGNED')
      ? ': it is self-signed; give its ca or set insecureSkipVerify: true'
      : '';
    return { pass: false, message, error: `certificate of ${host}:${port} is not trusted (${reason})${hint}`, vars };
  }
  if (days < 0)
    return { pass: false, message, error: `certificate of ${host}:${port} expired ${-days} days ago`, vars };
  const max = num(spec, 'maxSSLExpiry');
  if (max !== undefined && days < max) {
    return { pass: false, message, error: `certificate expires in ${days} days, within the ${max}-day limit`, vars };
  }
  return { pass: true, message, vars };
}
