// Prometheus metrics: the registry every module adds its own to, and the request metrics of every route.
import { type Metric, Registry, collectDefaultMetrics } from 'prom-client';

/** The process figures (memory, CPU, event loop, GC) watch the process for its lifetime: only when /metrics is on. */
export function createMetricsRegistry(options: { processMetrics: boolean }): Registry {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'kyx_' });
  return registry;
}

const REQUESTS = 'kyx_http_requests_total';
const DURATION = 'kyx_http_request_duration_seconds';
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One route and method: answers by status, and the latency histogram (counts per bucket, not yet cumulative). */
interface Series {
  labels: { method: string; route: string };
  byStatus: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

interface Sample {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName?: string;
}

/**
 * The requests counter and latency histogram. prom-client's Counter and Histogram build and check a key from their
 * label object on every call, which profiled as the largest part of the gate's own cost on validate-key; here a
 * request adds to numbers found through two map lookups, and the samples are made when /metrics is scraped, in the
 * form prom-client prints (the same names, labels and buckets as its Counter and Histogram).
 * They serve the Prometheus text format that GET /metrics answers; under prom-client's OpenMetrics content type the
 * counter would print without its renamed `_total` family, so switching /metrics to OpenMetrics needs this revisited.
 * `reset` empties them, as registry.resetMetrics() expects of every metric.
 */
function createRequestMetrics(registry: Registry) {
  const series = new Map<string, Map<string, Series>>();
  const all: Series[] = [];

  const seriesOf = (method: string, route: string): Series => {
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map()));
    let one = byMethod.get(method);
    if (!one) {
      one = { labels: { method, route }, byStatus: new Map(), buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      byMethod.set(method, one);
      all.push(one);
    }
    return one;
  };

  const metric = (name: string, help: string, type: 'counter' | 'histogram', samples: () => Sample[]) => {
    // prom-client's registry reads `getForPromString` for the text format and `get` for JSON.
    const read = async () => ({ name, help, type, aggregator: 'sum' as const, values: samples() });
    return {
      name,
      help,
      type,
      aggregator: 'sum' as const,
      getForPromString: read,
      reset: () => {
        series.clear();
        all.length = 0;
      },
      get: async () => {
        const data = await read();
        return { ...data, values: data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...sharedLabels, ...labels } })) };
      },
    };
  };

  registry.registerMetric(
    metric(REQUESTS, 'Answered requests', 'counter', () =>
      all.flatMap((one) => [...one.byStatus].map(([status, value]) => ({ labels: { ...one.labels, status }, value }))),
    ) as unknown as Metric,
  );
  registry.registerMetric(
    metric(DURATION, 'Time to answer, by route', 'histogram', () =>
      all.flatMap((one): Sample[] => {
        let cumulative = 0;
        return [
          ...BUCKETS.map((le, index) => ({ labels: { le }, sharedLabels: one.labels, value: (cumulative += one.buckets[index]), metricName: `${DURATION}_bucket` })),
          { labels: { le: '+Inf' }, sharedLabels: one.labels, value: one.count, metricName: `${DURATION}_bucket` },
          { labels: {}, sharedLabels: one.labels, value: one.sum, metricName: `${DURATION}_sum` },
          { labels: {}, sharedLabels: one.labels, value: one.count, metricName: `${DURATION}_count` },
        ];
      }),
    ) as unknown as Metric,
  );

  return (method: string, route: string, status: number, seconds: number) => {
    const one = seriesOf(method, route);
    one.byStatus.set(status, (one.byStatus.get(status) ?? 0) + 1);
    one.count++;
    one.sum += seconds;
    for (let index = 0; index < BUCKETS.length; index++) {
      if (seconds <= BUCKETS[index]) {
        one.buckets[index]++;
        break;
      }
    }
  };
}

// One app per registry in production; a second app over the same context (tests) adds to the same metrics.
const recorders = new WeakMap<Registry, ReturnType<typeof createRequestMetrics>>();

/**
 * Counts one answered request by route pattern (never the raw URL: ids and names stay out) and status, with its
 * latency; the app calls it from its one onResponse hook.
 */
export function requestMetrics(registry: Registry): (method: string, route: string, status: number, seconds: number) => void {
  let record = recorders.get(registry);
  if (!record) recorders.set(registry, (record = createRequestMetrics(registry)));
  return record;
}
