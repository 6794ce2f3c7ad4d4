// Prometheus metrics: the registry every module adds its own to, and the request metrics of every route.
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The process figures (memory, CPU, event loop, GC) watch the process for its lifetime: only when /metrics is on. */
export function createMetricsRegistry(options: { processMetrics: boolean }): Registry {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'kyx_' });
  return registry;
}

/** Requests by route pattern (never the raw URL: ids and names stay out) and status, and their latency. */
export function registerHttpMetrics(app: FastifyInstance, registry: Registry): void {
  // One app per registry in production; a second app over the same context (tests) reuses the instruments.
  const requests = (registry.getSingleMetric('kyx_http_requests_total') as Counter | undefined) ?? new Counter({ name: 'kyx_http_requests_total', help: 'Answered requests', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = (registry.getSingleMetric('kyx_http_request_duration_seconds') as Histogram | undefined) ?? new Histogram({
    name: 'kyx_http_request_duration_seconds',
    help: 'Time to answer, by route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: reply.statusCode });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
}
