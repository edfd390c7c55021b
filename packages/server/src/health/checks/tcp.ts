import net from 'node:net';
import { guardedSocketLookup } from '#server/http/outbound.ts';
import { hostPort, num, str, type CheckContext, type CheckOutcome } from './types.ts';

/** TCP check (seed 002: endpoint required, thresholdMillis): the port accepts a connection. */
export async function tcpCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const endpoint = str(spec, 'endpoint') ?? str(spec, 'host');
  if (!endpoint) throw new Error('endpoint is required (host:port)');
  const { host, port } = hostPort(endpoint);
  // the outbound deny list (WATCHDECK_OUTBOUND_DENY) holds for sockets too: no cloud metadata service
  const lookup = guardedSocketLookup(host);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host, port, lookup });
    const onAbort = () => socket.destroy(ctx.signal.reason as Error);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      ctx.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve();
    });
    socket.once('error', (err: Error & { code?: string }) => {
      ctx.signal.removeEventListener('abort', onAbort);
      if (err.code === 'ECONNREFUSED')
        reject(new Error(`connection to ${host}:${port} refused: nothing is listening on that port`));
      else if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') reject(new Error(`cannot resolve host ${host}`));
      else if (err.code === 'EOUTBOUNDDENIED') reject(new Error(err.message));
      else reject(err);
    });
  });
  const elapsed = Math.round(performance.now() - started);
  const threshold = num(spec, 'thresholdMillis');
  if (threshold && elapsed > threshold) {
    return {
      pass: false,
      message: `connected in ${elapsed}ms`,
      error: `connecting took ${elapsed}ms, above the ${threshold}ms threshold`,
      vars: { elapsed },
    };
  }
  return { pass: true, message: `connected to ${host}:${port} in ${elapsed}ms`, vars: { elapsed } };
}
