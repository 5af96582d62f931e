// What the record layer counts for every answered call: calls by API set, method and outcome, their
// durations, and refusals by the limit that refused them. Label sets are bounded: the set and method
// come from the call's target, which exists only for methods of the registry's tables; a call
// without one (an unknown method or API ID, an unreadable message) is counted under
// api="unknown", method="unknown", whatever name the client sent.
import { Counter, Registry } from 'prom-client';
import { HistogramFamily, tally, type Buckets } from './series.js';

/** How a call ended, as the `outcome` label says it. */
export const OUTCOMES = ['ok', 'error', 'limited', 'internal', 'invalid', 'cancelled'] as const;
export type OutcomeName = (typeof OUTCOMES)[number];
/** Index of each outcome in a series' counts. */
export const OUTCOME: { readonly [K in OutcomeName]: number } = Object.freeze(Object.fromEntries(OUTCOMES.map((o, i) => [o, i])) as Record<OutcomeName, number>);

/**
 * The limits a call or a connection can be refused by, named as their option (or, with `_`, as
 * their access-file field). The `limit` label of graphene_rpc_refusals_total.
 */
export const LIMITS = [
  'max-request-bytes',
  'max-ingress-bytes',
  'max-json-depth',
  'max-pending-calls-per-connection',
  'max-calls-per-second',
  'max_calls_per_second',
  'max-ids-per-call',
  'max-queued-calls',
  'max-buffered-bytes',
  'call-budget-ms',
  'max-reply-bytes',
  'max_connections',
  'max-connections',
  'max-connections-per-ip',
] as const;
export type LimitName = (typeof LIMITS)[number];

/** Seconds; from 100 µs (a call answered in the front end) to the default call budget and past it. */
export const CALL_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One API set's method: its calls by outcome and their durations. */
export class CallSeries {
  readonly outcomes = new Float64Array(OUTCOMES.length);

  constructor(
    readonly labels: { readonly api: string; readonly method: string },
    private readonly duration: Buckets,
  ) {}

  /** A call answered with `outcome` (an index of OUTCOMES) after `seconds`. */
  record(outcome: number, seconds: number): void {
    this.outcomes[outcome]! += 1;
    this.duration.observe(seconds);
  }
}

export class CallStats {
  /** By the set's table object (a set key alone would not tell the login variants' tables apart), then method name. */
  private readonly bySet = new Map<object, Map<string, CallSeries>>();
  private readonly all: CallSeries[] = [];
  private readonly durations: HistogramFamily;
  /** calls without a target: unknown methods and API IDs, unreadable messages */
  readonly unknown: CallSeries;
  /** refusals by limit, from the call path and from the transport */
  readonly refusals: Record<LimitName, number>;
  /** requests read in the worker pool, not on the front end (src/protocol/read-in-pool.ts) */
  readInPool = 0;

  /** `registry`: the node's (without one, as in tests of the pipeline alone, nothing reads them). */
  constructor(registry: Registry = new Registry()) {
    this.durations = new HistogramFamily(
      'graphene_rpc_call_duration_seconds',
      'Seconds from the arrival of a call to its answer, by API set and method',
      CALL_SECONDS,
      registry,
    );
    const all = this.all;
    new Counter({
      name: 'graphene_rpc_calls_total',
      help: 'Calls answered, by API set, method and outcome (ok, error, limited, internal, invalid, cancelled)',
      labelNames: ['api', 'method', 'outcome'],
      registers: [registry],
      collect() {
        // Read at scrape time from the numbers the record layer keeps.
        this.reset();
        for (const s of all) {
          s.outcomes.forEach((n, i) => {
            if (n > 0) this.inc({ ...s.labels, outcome: OUTCOMES[i]! }, n);
          });
        }
      },
    });
    const stats = this;
    new Counter({
      name: 'graphene_rpc_requests_read_in_pool_total',
      help: 'Requests of 16 KiB or more, read (parsed and checked) in a worker thread rather than on the front end',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(stats.readInPool);
      },
    });
    this.refusals = tally(registry, 'graphene_rpc_refusals_total', 'Calls and connections refused by a limit, by the limit (its option or access-file field)', 'limit', LIMITS);
    this.unknown = this.make('unknown', 'unknown');
  }

  /** The series of `method` of the set whose table is `set` (key `setKey`); made the first time it is asked for. */
  series(set: object, setKey: string, method: string): CallSeries {
    let methods = this.bySet.get(set);
    if (!methods) this.bySet.set(set, (methods = new Map()));
    let s = methods.get(method);
    if (!s) methods.set(method, (s = this.make(setKey, method)));
    return s;
  }

  private make(api: string, method: string): CallSeries {
    const labels = Object.freeze({ api, method });
    const s = new CallSeries(labels, this.durations.series(labels));
    this.all.push(s);
    return s;
  }
}
