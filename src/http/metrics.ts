import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { secretsEqual } from '../crypto/constant-time.ts';
import { ApiError } from './errors.ts';
import { SERVICE_VERSION } from '../version.ts';

/** Prometheus metrics: request counts and latency by route template and status. */
/**
 * /metrics is closed unless configured: with METRICS_TOKEN it needs that bearer token, without it
 * it answers 404 unless METRICS_PUBLIC=true serves it openly (docs/operating/monitoring.md).
 */
export function registerMetrics(app: FastifyInstance, metricsToken: string | null, metricsPublic: boolean): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The usual build-info gauge: its label tells which version each scraped process runs.
  new Gauge({
    name: 'tasktracker_build_info',
    help: 'The running version',
    labelNames: ['version'],
    registers: [registry],
  }).set({ version: SERVICE_VERSION }, 1);
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route template, not the raw URL, keeps label cardinality bounded.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (metricsToken === null && !metricsPublic) {
      throw new ApiError('NOT_FOUND', 'Metrics are not served: set METRICS_TOKEN (or METRICS_PUBLIC=true).');
    }
    if (metricsToken && !secretsEqual(request.headers.authorization ?? '', `Bearer ${metricsToken}`)) {
      throw new ApiError('UNAUTHENTICATED', 'Metrics need the METRICS_TOKEN bearer token.');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}
