// Numbers recorded on the hot path, and how prom-client exports them.
//
// prom-client's own `counter.labels(...).inc()` and `histogram.labels(...).observe()` build a label
// hash string and an object or two on every call, even through a cached child. A call's metrics are
// recorded here instead, into numbers and preallocated arrays held per label set (made once, the
// first time that label set is seen); prom-client reads them only when /metrics is scraped:
//  - counters and gauges are prom-client's, filled by their `collect()` callbacks at scrape time;
//  - histograms are `HistogramFamily`, a metric object of the shape prom-client's registry reads
//    (name, help, type, get()), since prom-client's Histogram cannot be given bucket counts.
import { Counter, type Metric, type Registry } from 'prom-client';

/** One label set's histogram: counts per bucket (not cumulative), their sum and count. */
export class Buckets {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    // The last slot counts what is above every bound (+Inf).
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && value > b[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

/** A value line as prom-client's registry formats it. */
interface ExportedValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName: string;
}

/**
 * A histogram family whose label sets each own a `Buckets`. `series(labels)` makes a label set's
 * buckets the first time it is asked for (callers cache what it returns); scraping reads them all.
 */
export class HistogramFamily {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: { labels: Readonly<Record<string, string>>; buckets: Buckets }[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  series(labels: Readonly<Record<string, string>> = {}): Buckets {
    const buckets = new Buckets(this.bounds);
    this.all.push({ labels, buckets });
    return buckets;
  }

  /** As prom-client's metrics have it (Registry.resetMetrics). */
  reset(): void {
    for (const { buckets } of this.all) {
      buckets.counts.fill(0);
      buckets.sum = 0;
      buckets.count = 0;
    }
  }

  /** What prom-client's registry formats: `_bucket` lines (cumulative, `le`), `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: ExportedValue[] } {
    const values: ExportedValue[] = [];
    for (const { labels, buckets } of this.all) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += buckets.counts[i]!;
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: buckets.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: buckets.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: buckets.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/**
 * Counts by one label whose values are all known up front: the owner of the fact writes
 * `counts[value]++`, and a prom-client Counter reads the numbers at scrape time. Every value is
 * exported from the start (at 0), so that rates and alerts work before the first event.
 */
export function tally<K extends string>(registry: Registry, name: string, help: string, label: string, values: readonly K[]): Record<K, number> {
  const counts = Object.fromEntries(values.map((v) => [v, 0])) as Record<K, number>;
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const v of values) this.inc({ [label]: v }, counts[v]);
    },
  });
  return counts;
}

/** A counter without labels whose value `read` gives at scrape time (a number its owner increments). */
export function counterOf(registry: Registry, name: string, help: string, read: () => number, aggregator: 'sum' | 'max' = 'sum'): void {
  new Counter({
    name,
    help,
    aggregator,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** A counter without labels: the owner writes `count.n++`, prom-client reads it at scrape time. */
export function count(registry: Registry, name: string, help: string): { n: number } {
  const c = { n: 0 };
  counterOf(registry, name, help, () => c.n);
  return c;
}
