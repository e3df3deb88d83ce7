import { collectDefaultMetrics, Counter, Gauge, register, type Registry } from 'prom-client';

/**
 * The Prometheus series of a process (docs/operations.md lists them with a starter alert set).
 * One registry per process: when services run together (`npm start`) they share these series,
 * told apart by their labels.
 */
export const metricsRegistry: Registry = register;

let defaultsCollected = false;
/** Process figures (CPU, memory, event-loop lag, GC), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'gatehouse_' });
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels<L extends string> = Record<L, string | number>;

type SeriesTree<Entry> = Map<string | number, SeriesTree<Entry> | Entry>;

/** One line of a scrape, as prom-client's metrics answer them to the registry. */
interface SeriesLine {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A series counted on every request (a page view's check counts in four), kept in plain numbers
 * and read when Prometheus scrapes: prom-client's own counters and histograms check and hash their
 * labels on every call, which was a measurable part of an access check (docs/performance.md). In
 * the registry beside prom-client's, and exposed exactly as they are (names, types, lines).
 */
abstract class HotSeries<L extends string, Entry> {
  /** Label values, one level of maps per label name, down to the series: no key string is built per call. */
  private readonly tree: SeriesTree<Entry> = new Map();
  private readonly series: Array<{ labels: Labels<L>; entry: Entry }> = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    readonly type: 'counter' | 'histogram',
  ) {
    // A series without labels needs no lookup: prom-client's own is as cheap.
    if (labelNames.length === 0) throw new Error(`${name}: a hot series has labels`);
    metricsRegistry.registerMetric(this as never);
  }

  protected abstract create(): Entry;
  protected abstract valuesOf(labels: Labels<L>, entry: Entry): SeriesLine[];

  /** This label set's numbers, made when first counted (as prom-client shows only label sets it counted). */
  protected entryOf(labels: Labels<L>): Entry {
    let level = this.tree;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const value = labels[this.labelNames[i]];
      let next = level.get(value) as SeriesTree<Entry> | undefined;
      if (!next) level.set(value, (next = new Map()));
      level = next;
    }
    const found = level.get(labels[this.labelNames[last]]) as Entry | undefined;
    if (found !== undefined) return found;
    const entry = this.create();
    level.set(labels[this.labelNames[last]], entry);
    this.series.push({ labels: Object.fromEntries(this.labelNames.map((name) => [name, labels[name]])) as Labels<L>, entry });
    return entry;
  }

  /** As prom-client's `get()`: what the registry writes at a scrape. */
  async get(): Promise<{ name: string; help: string; type: string; values: SeriesLine[]; aggregator: 'sum' }> {
    const values = this.series.flatMap(({ labels, entry }) => this.valuesOf(labels, entry));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }

  reset(): void {
    this.tree.clear();
    this.series.length = 0;
  }
}

/** A counter of the per-request paths (see HotSeries). */
export class HotCounter<L extends string> extends HotSeries<L, { value: number }> {
  constructor(options: { name: string; help: string; labelNames: readonly L[] }) {
    super(options.name, options.help, options.labelNames, 'counter');
  }

  inc(labels: Labels<L>, by = 1): void {
    this.entryOf(labels).value += by;
  }

  protected create(): { value: number } {
    return { value: 0 };
  }

  protected valuesOf(labels: Labels<L>, { value }: { value: number }): SeriesLine[] {
    return [{ labels, value }];
  }
}

interface Observed {
  /** Observations per bucket, not cumulative; the last one is +Inf's. */
  counts: number[];
  sum: number;
  count: number;
}

/** A histogram of the per-request paths (see HotSeries), with prom-client's `_bucket`, `_sum` and `_count` lines. */
export class HotHistogram<L extends string> extends HotSeries<L, Observed> {
  private readonly buckets: readonly number[];

  constructor(options: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[] }) {
    super(options.name, options.help, options.labelNames, 'histogram');
    this.buckets = options.buckets;
  }

  observe(labels: Labels<L>, value: number): void {
    const observed = this.entryOf(labels);
    let bucket = 0;
    while (bucket < this.buckets.length && value > this.buckets[bucket]) bucket++;
    observed.counts[bucket]++;
    observed.sum += value;
    observed.count++;
  }

  protected create(): Observed {
    return { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  protected valuesOf(labels: Labels<L>, { counts, sum, count }: Observed): SeriesLine[] {
    let cumulative = 0;
    const bucketLines = counts.map((observations, i) => {
      cumulative += observations;
      return { labels: { le: i < this.buckets.length ? this.buckets[i] : '+Inf', ...labels }, value: cumulative, metricName: `${this.name}_bucket` };
    });
    return [...bucketLines, { labels, value: sum, metricName: `${this.name}_sum` }, { labels, value: count, metricName: `${this.name}_count` }];
  }
}

export const httpMetrics = {
  /** Every answer of the gateway by route class (`access-check`, `events`, `admin`, …), method and status. */
  requests: new HotHistogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'HTTP requests answered, by route class, method and status, with their latency.',
    labelNames: ['route_class', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
  }),
};

export const busMetrics = {
  requests: new HotHistogram({
    name: 'gatehouse_bus_request_duration_seconds',
    help: 'Bus requests sent, by pattern and outcome (ok, error: answered with a problem, timeout, unreachable), with their latency.',
    labelNames: ['pattern', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
  }),
  requestsDropped: new Counter({
    name: 'gatehouse_bus_requests_dropped_total',
    help: 'Requests received after their caller had stopped waiting, dropped without doing their work.',
    labelNames: ['pattern'] as const,
  }),
  queueGroupMember: new Gauge({
    name: 'gatehouse_bus_queue_group_member',
    help: '1 while this replica takes its service’s requests, 0 while it has left the queue group (unready or draining).',
    labelNames: ['service'] as const,
  }),
};

export const rateLimitMetrics = {
  fallback: new Gauge({
    name: 'gatehouse_rate_limit_fallback',
    help: '1 while this gateway counts rate limits in its own memory because Redis is unreachable.',
  }),
  storeErrors: new Counter({
    name: 'gatehouse_redis_errors_total',
    help: 'Redis calls that failed or took too long, by use (rate_limit, idempotency).',
    labelNames: ['use'] as const,
  }),
};

export const edgeMetrics = {
  /** Access checks the gateway answered from its read models, and those it sent to access (with the reason). */
  checks: new HotCounter({
    name: 'gatehouse_access_checks_total',
    help: 'Access checks by who decided them: decided_by="gateway" (from its read models) or "access" (forwarded, with the reason: share, meter, pass, visit_count, crawler, past_due, time_pass, rules, entitlements, networks, not_caught_up, invalid).',
    labelNames: ['decided_by', 'reason'] as const,
  }),
  /** Edge-answered checks whose record (visit, rollup) access has not taken yet and that were dropped past the buffer's bound. */
  recordsDropped: new Counter({
    name: 'gatehouse_access_edge_records_dropped_total',
    help: 'Records of gateway-answered checks dropped because access did not take them and the buffer was full.',
  }),
};

export const cacheMetrics = {
  lookups: new HotCounter({
    name: 'gatehouse_cache_lookups_total',
    help: 'Lookups in a replica-local cache, by cache and result (hit, miss).',
    labelNames: ['cache', 'result'] as const,
  }),
};

export const webhookMetrics = {
  attempts: new Counter({
    name: 'gatehouse_webhook_delivery_attempts_total',
    help: 'Outbound webhook delivery attempts, by outcome (delivered, failed, gave_up).',
    labelNames: ['outcome'] as const,
  }),
};

/** A gauge whose value is read when Prometheus scrapes (pool sizes, outbox backlog), from one source per label set. */
export function sampledGauge<L extends string>(name: string, help: string, labelNames: readonly L[]): SampledGauge<L> {
  const sources = new Map<string, { labels: Record<L, string>; read: () => Promise<number | undefined> | number | undefined }>();
  const existing = metricsRegistry.getSingleMetric(name) as (Gauge<L> & { sources?: typeof sources }) | undefined;
  if (existing?.sources) return toSampled(existing.sources);
  const gauge = new Gauge<L>({
    name,
    help,
    labelNames,
    async collect() {
      this.reset();
      await Promise.all(
        [...sources.values()].map(async ({ labels, read }) => {
          const value = await Promise.resolve()
            .then(read)
            .catch(() => undefined);
          if (value !== undefined) this.set(labels as Partial<Record<L, string>>, value);
        }),
      );
    },
  }) as Gauge<L> & { sources?: typeof sources };
  gauge.sources = sources;
  return toSampled(sources);
}

export interface SampledGauge<L extends string> {
  /** Reads `read()` for these labels at each scrape (undefined: no sample); the returned function stops it. */
  track(labels: Record<L, string>, read: () => Promise<number | undefined> | number | undefined): () => void;
}

function toSampled<L extends string>(sources: Map<string, { labels: Record<L, string>; read: () => Promise<number | undefined> | number | undefined }>): SampledGauge<L> {
  return {
    track(labels, read) {
      const key = JSON.stringify(labels);
      const source = { labels, read };
      sources.set(key, source);
      return () => {
        if (sources.get(key) === source) sources.delete(key);
      };
    },
  };
}
