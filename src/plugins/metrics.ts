// Prometheus metrics: request counts and latencies by route and status. One registry per app, so
// several apps in one process (tests) never share counters.
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastAnswers } from './fast-answers.ts';

export function installMetrics(app: FastifyInstance, options: { defaultMetrics: boolean; fast?: FastAnswers }): Registry {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // The counter and histogram of each (method, route, status), found once: prom-client hashes a
  // label object on every call, a visible share of a cached answer's cost (docs/performance.md).
  const series = new Map<string, { count: { inc(): void }; latency: { observe(v: number): void } }>();
  const record = (method: string, route: string, status: number, seconds: number) => {
    const key = `${method} ${status} ${route}`;
    let s = series.get(key);
    if (!s) {
      const labels = { method, route, status_code: String(status) };
      s = { count: requests.labels(labels), latency: duration.labels(labels) };
      series.set(key, s);
    }
    s.count.inc();
    s.latency.observe(seconds);
  };
  options.fast?.provide({
    series: (method, route, status) => {
      const labels = { method, route, status_code: String(status) };
      const count = requests.labels(labels);
      const latency = duration.labels(labels);
      return (seconds) => {
        count.inc();
        latency.observe(seconds);
      };
    },
  });
  app.addHook('onResponse', async (req, reply) => {
    // Unmatched URLs share one label, so scanners cannot blow up the label set.
    record(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}

/** The pauses of giving V8's heap back when idle (lib/idle-heap.ts), in the app's registry. */
export function heapReleaseMetric(registry: Registry): { observe(seconds: number): void } {
  return new Histogram({
    name: 'insights_idle_heap_release_seconds',
    help:
      "Collections that gave V8's heap back to the system once no request was in flight (INSIGHTS_IDLE_RELEASE_MS), " +
      'by how long they held the event loop',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
}
