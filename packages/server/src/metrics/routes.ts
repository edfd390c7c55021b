import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';
import { checkGauges } from '../health/index.ts';
import { sendError } from '../http/errors.ts';
import { noReadInput, typed } from '../http/validation.ts';
import { metricsAccess } from './access.ts';
import type { AppMetrics } from './collectors.ts';
import { renderCheckGauges } from './check-gauges.ts';

export interface MetricsRouteOptions {
  db: Db;
  metrics: AppMetrics;
  token?: string;
  allow: string[];
  checkLabelKeys: number;
}

/**
 * GET /metrics in Prometheus's text format. Outside /api, so the session guard leaves it alone:
 * access is the address list or the bearer token (access.ts), checked before anything is read.
 */
export function metricsRoutes(app: FastifyInstance, opts: MetricsRouteOptions): void {
  const access = metricsAccess(opts.allow, opts.token);
  typed(app).get('/metrics', { schema: noReadInput }, async (req, reply) => {
    const verdict = access(req.ip, req.headers.authorization);
    if (verdict === 'unauthenticated') {
      reply.header('www-authenticate', 'Bearer realm="watchdeck metrics"');
      return sendError(reply, 401, 'unauthenticated', 'Metrics need a bearer token (WATCHDECK_METRICS_TOKEN).');
    }
    if (verdict === 'forbidden')
      return sendError(reply, 403, 'forbidden', 'Metrics are not served to this address (WATCHDECK_METRICS_ALLOW).');
    const [own, checks] = await Promise.all([opts.metrics.registry.metrics(), checkGauges(opts.db)]);
    return reply
      .type(opts.metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send((own.endsWith('\n') ? own : `${own}\n`) + renderCheckGauges(checks, opts.checkLabelKeys));
  });
}
