/**
 * Operability (issue 23): health probes and Prometheus metrics for the people who run the
 * console. README.md in this folder says what is exposed and how it is protected.
 */
export { registerProbes } from './probes.ts';
export { createMetrics } from './collectors.ts';
export { metricsRoutes } from './routes.ts';
export { openApiRoutes } from './openapi.ts';
