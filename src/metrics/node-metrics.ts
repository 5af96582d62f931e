// The node's metrics, served as Prometheus text at GET /metrics (README "Metrics" lists them all).
//
// Two kinds of source:
//  - facts read when scraped, through the functions `MetricSources` gives (connections, sessions,
//    the pool's queue and workers, the head block): gauges with collect() callbacks, nothing
//    updated per event;
//  - events, counted where they happen by the part that owns them (the record layer for calls, the
//    scheduler for pool waits, the session for notices, the login flow, the transport) into plain
//    numbers and preallocated buckets that this module hands out (series.ts says why not
//    prom-client's own per-call API).
// Each node has its own registry (a process may run several nodes: the tests do); the process
// metrics (prom-client's default metrics: CPU, memory, event-loop lag, GC, handles) are per process,
// collected once into a registry of their own and merged in.
import { AggregatorRegistry, Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Session, NoticeCounts } from '../session/session.js';
import { CallStats } from './calls.js';
import { HistogramFamily, count, counterOf, tally, type Buckets } from './series.js';

export interface MetricSources {
  /** open WebSocket connections, and HTTP requests in progress */
  connections(): { readonly ws: number; readonly http: number };
  /** calls waiting in the fair scheduler, calls in tasks the pool holds, and worker threads busy with a task */
  pool(): {
    readonly queued: number;
    readonly running: number;
    readonly busyWorkers: number;
    readonly workers: number;
    /** the reply slab: its slots, those held now, and replies let go only when collected (never written) */
    readonly replySlab: { readonly slots: number; readonly inUse: number; readonly collected: number; readonly largePages: number; readonly largePagesInUse: number };
    /** light calls that used up their slice (src/pool/learnt-costs.ts); absent where the node has none */
    readonly slices?: { readonly learnt: number; readonly kept: number; readonly requeued: number; readonly ranLong: number };
    /** calls waiting for their clients to read their replies (their sessions are paused) */
    readonly heldCalls?: number;
    /** call shapes known to answer large replies (src/pool/reply-sizes.ts) */
    readonly replySizesKept?: number;
  };
  /** the head block's number and time (unix seconds), and the last irreversible block's number */
  head(): { readonly number: number; readonly time: number; readonly lastIrreversible: number };
  /** bytes held for clients that do not read (WebSocket queues and unsent HTTP replies) */
  bufferedBytes(): number;
  /** whether the store takes blocks now (false while a block write fails: a full disk, say) */
  storeWritable(): boolean;
  /** subscribe_transfers subscriptions held now */
  transferSubscriptions(): number;
  /** on a follower (--follow): its view of the upstream; absent on a producer, which has no follow metrics */
  follow?: () => { readonly connected: boolean; readonly lagBlocks: number; readonly lagSeconds: number; readonly reconnects: number; readonly stopped: string | undefined };
}

export const TRANSPORTS = ['ws', 'http'] as const;
/** A session's login state, as the `state` label of graphene_rpc_sessions says it. */
export const SESSION_STATES = ['user', 'wildcard', 'none'] as const;
export const LOGIN_VIAS = ['login', 'basic'] as const;
/** Why a connection was closed for not reading (or for sending without waiting for its replies, or flooding pings). */
export const BACKPRESSURE_LIMITS = ['max-buffered-bytes', 'ws-max-buffered-bytes', 'max-pending-calls-per-connection', 'ws-max-pings-per-second'] as const;
export type BackpressureLimit = (typeof BACKPRESSURE_LIMITS)[number];
/** What a subscription cap leaves out (the hub's SubscriptionKind). */
export const SUBSCRIPTION_KINDS = ['objects', 'accounts', 'markets'] as const;
/** Pages the deposit feed reads for subscriptions: while reading a backlog, or live. */
export const FEED_PAGE_KINDS = ['backlog', 'live'] as const;

/** Seconds; a call's wait for a worker, and a task's time in the pool, are usually well under a millisecond. */
export const POOL_SECONDS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface NodeMetrics {
  /** calls by set, method and outcome, their durations, and refusals by limit (the record layer's) */
  readonly calls: CallStats;
  /** notices handed to the transport, and notices of closed sessions never sent (the sessions') */
  readonly notices: NoticeCounts;
  /** seconds each pool call waited in the fair scheduler, and each task took in the pool (the scheduler's) */
  readonly poolTiming: { readonly wait: Buckets; readonly run: Buckets };
  readonly failedLogins: Record<(typeof LOGIN_VIAS)[number], number>;
  readonly connectionsOpened: Record<(typeof TRANSPORTS)[number], number>;
  readonly backpressureCloses: Record<BackpressureLimit, number>;
  readonly workersReplaced: { n: number };
  /** requests of closed connections dropped before they were read (src/transport/ingress.ts) */
  readonly droppedUnread: { n: number };
  /** subscriptions a per-connection cap left out, by kind (the subscription hub's) */
  readonly subscriptionsRefused: Record<(typeof SUBSCRIPTION_KINDS)[number], number>;
  /** the deposit feed's subscriptions: transfers sent, pages read (the transfer feed's) */
  readonly transferFeed: { transfers: number; readonly pages: Record<(typeof FEED_PAGE_KINDS)[number], number> };
  /** A WebSocket session opened: it is counted by login state while it lives. */
  sessionOpened(s: Session): void;
  /** The text of a scrape, and its content type. */
  scrape(): Promise<{ readonly contentType: string; readonly text: string }>;
  /** The same metrics as data, for a writer process that aggregates its serving processes' (--processes). */
  json(): Promise<MetricsJson>;
}

/** Metrics as prom-client's getMetricsAsJSON gives them. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/**
 * How a gauge of several serving processes (--processes) reads as one: `sum` for what each process
 * holds (connections, queues, workers, bytes), `max`/`min` for facts of the one shared chain that
 * each process reads at its own moment (the head), `min` for "the store takes blocks" (0 anywhere is 0).
 */
type Aggregator = 'sum' | 'max' | 'min';

let processRegistry: Registry | undefined;

/** The process metrics, collected once per process whatever the number of nodes in it. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

function stateOf(s: Session): (typeof SESSION_STATES)[number] {
  if (s.entry === undefined) return 'none';
  return s.entry === '*' ? 'wildcard' : 'user';
}

export function nodeMetrics(sources: MetricSources): NodeMetrics {
  const registry = new Registry();
  const gauge = (name: string, help: string, read: () => number, aggregator: Aggregator = 'sum') =>
    new Gauge({
      name,
      help,
      aggregator,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  const sessions = new Set<Session>();

  new Gauge({
    name: 'graphene_rpc_connections',
    help: 'Open WebSocket connections (ws) and HTTP requests in progress (http)',
    labelNames: ['transport'],
    registers: [registry],
    collect() {
      const c = sources.connections();
      this.set({ transport: 'ws' }, c.ws);
      this.set({ transport: 'http' }, c.http);
    },
  });
  const connectionsOpened = tally(registry, 'graphene_rpc_connections_opened_total', 'WebSocket connections opened and HTTP requests received, by transport', 'transport', TRANSPORTS);
  new Gauge({
    name: 'graphene_rpc_sessions',
    help: 'Open WebSocket sessions by login state: user (a listed access-file user), wildcard (the * entry), none (no login in force)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const by = { user: 0, wildcard: 0, none: 0 };
      for (const s of sessions) by[stateOf(s)]++;
      for (const state of SESSION_STATES) this.set({ state }, by[state]);
    },
  });
  const calls = new CallStats(registry);
  gauge('graphene_rpc_pool_queued_calls', 'Calls waiting in the fair scheduler for a worker', () => sources.pool().queued);
  gauge('graphene_rpc_pool_running_calls', 'Calls in tasks the worker pool holds (running, or next in line on a worker)', () => sources.pool().running);
  gauge('graphene_rpc_pool_busy_workers', 'Worker threads running a task', () => sources.pool().busyWorkers);
  gauge('graphene_rpc_pool_workers', 'Worker threads (--workers; with --processes or --serving-threads, of every front end)', () => sources.pool().workers);
  gauge('graphene_rpc_reply_slab_slots', 'Slots of the reply slab, the memory workers write replies into', () => sources.pool().replySlab.slots);
  gauge('graphene_rpc_reply_slab_slots_in_use', 'Reply slab slots held: a worker writing into them, or replies not yet written to their clients', () => sources.pool().replySlab.inUse);
  gauge('graphene_rpc_reply_slab_large_pages', 'Pages of the reply slab\'s large part, where each reply larger than a slot takes a run of pages', () => sources.pool().replySlab.largePages);
  gauge('graphene_rpc_reply_slab_large_pages_in_use', 'Pages of the reply slab\'s large part held: a worker writing into them, or large replies not yet written to their clients', () => sources.pool().replySlab.largePagesInUse);
  counterOf(registry, 'graphene_rpc_reply_slab_collected_total', 'Replies in the reply slab dropped unwritten (their connection had closed), whose slots came back only when they were collected', () => sources.pool().replySlab.collected);
  gauge('graphene_rpc_learnt_heavy_shapes', 'Call shapes (method and argument size) learnt heavy: their light calls used up their slice (--light-slice-ms) often enough', () => sources.pool().slices?.learnt ?? 0);
  gauge('graphene_rpc_learnt_shapes_kept', 'Call shapes kept by the cost learner, learnt heavy or counting strikes (at most 1024)', () => sources.pool().slices?.kept ?? 0);
  counterOf(registry, 'graphene_rpc_calls_requeued_heavy_total', 'Light calls stopped at the end of their slice (--light-slice-ms) and run again as heavy', () => sources.pool().slices?.requeued ?? 0);
  gauge('graphene_rpc_pool_held_calls', 'Calls waiting for their clients to read: their connection has more replies outstanding than --max-unread-bytes-per-connection', () => sources.pool().heldCalls ?? 0);
  gauge('graphene_rpc_reply_sizes_kept', 'Call shapes (method and argument size) known to answer large replies, whose calls count their size against their connection while in a worker (at most 1024)', () => sources.pool().replySizesKept ?? 0);
  gauge('graphene_rpc_reply_bytes_outstanding', 'Bytes of replies outstanding on WebSocket connections: unread by their clients, waiting for their turn, or expected of their calls in a worker', () => {
    let n = 0;
    for (const s of sessions) n += s.outstandingBytes;
    return n;
  });
  counterOf(registry, 'graphene_rpc_light_calls_ran_long_total', 'Light calls that ran past their slice to the end (nothing stopped them in time; their shape gets a strike)', () => sources.pool().slices?.ranLong ?? 0);
  const poolTiming = {
    wait: new HistogramFamily('graphene_rpc_pool_wait_seconds', 'Seconds a pool call waited in the fair scheduler before its task went to a worker', POOL_SECONDS, registry).series(),
    run: new HistogramFamily('graphene_rpc_pool_run_seconds', 'Seconds a task of calls took in the worker pool, from handing it over to its answers', POOL_SECONDS, registry).series(),
  };
  const droppedUnread = count(registry, 'graphene_rpc_requests_dropped_unread_total', 'Requests a connection sent that were still waiting to be read (over 64 KiB, or behind one, or 16 KiB or more and waiting for a worker to read it) when it closed: never read, never run');
  const workersReplaced = count(registry, 'graphene_rpc_workers_replaced_total', 'Worker threads lost and replaced (terminated for a task past its hard time bound, or exited or crashed)');
  const notices = { sent: 0, dropped: 0 };
  counterOf(registry, 'graphene_rpc_notices_sent_total', 'Notices (subscriptions, broadcast callbacks) handed to the transport', () => notices.sent);
  counterOf(registry, 'graphene_rpc_notices_dropped_total', 'Notices never sent because their connection had closed', () => notices.dropped);
  gauge('graphene_rpc_head_block_number', 'Number of the head block', () => sources.head().number, 'max');
  gauge('graphene_rpc_head_block_age_seconds', 'Seconds since the head block time', () => Math.max(0, Date.now() / 1000 - sources.head().time), 'min');
  gauge('graphene_rpc_last_irreversible_block_number', 'Number of the last irreversible block', () => sources.head().lastIrreversible, 'max');
  const failedLogins = tally(registry, 'graphene_rpc_failed_logins_total', 'Failed logins, by how the credentials came: login (the login API) or basic (an Authorization header)', 'via', LOGIN_VIAS);
  const backpressureCloses = tally(
    registry,
    'graphene_rpc_backpressure_closes_total',
    'Connections closed for not reading their replies (max-buffered-bytes, ws-max-buffered-bytes) or for sending far past their calls in flight (max-pending-calls-per-connection)',
    'limit',
    BACKPRESSURE_LIMITS,
  );
  const subscriptionsRefused = tally(
    registry,
    'graphene_rpc_subscriptions_refused_total',
    'Subscriptions a per-connection cap left out: objects (ids past --max-subscribed-objects-per-connection), accounts (past api-limit-get-full-accounts-subscribe), markets (subscribe_to_market calls past --max-market-subscriptions-per-connection)',
    'kind',
    SUBSCRIPTION_KINDS,
  );
  const feedTransfers = count(registry, 'graphene_rpc_transfer_feed_transfers_total', 'Transfers sent in subscribe_transfers notices (backlog and live)');
  const feedPages = tally(registry, 'graphene_rpc_transfer_feed_pages_total', 'Pages of the deposit feed read for subscribe_transfers, by whether the subscription was reading its backlog or was live', 'kind', FEED_PAGE_KINDS);
  gauge('graphene_rpc_transfer_feed_subscriptions', 'subscribe_transfers subscriptions held now', sources.transferSubscriptions);
  const transferFeed = {
    get transfers() {
      return feedTransfers.n;
    },
    set transfers(n: number) {
      feedTransfers.n = n;
    },
    pages: feedPages,
  };
  gauge('graphene_rpc_store_writable', '1 while the store takes blocks, 0 while block writes fail (a full disk, say) and transactions are refused', () => (sources.storeWritable() ? 1 : 0), 'min');
  gauge('graphene_rpc_buffered_bytes', 'Bytes held for clients that do not read (WebSocket queues and unsent HTTP replies)', sources.bufferedBytes);

  const follow = sources.follow;
  if (follow) {
    // One follower per node: with --processes every serving process reports the writer's one view,
    // so several read as one by min/max, never by sum.
    gauge('graphene_rpc_follow_upstream_connected', 'On a follower: 1 while connected to its upstream and following it, 0 while not (unreachable, reconnecting, or following stopped)', () => (follow().connected ? 1 : 0), 'min');
    gauge('graphene_rpc_follow_lag_blocks', 'On a follower: blocks the upstream has that this node has not applied yet', () => follow().lagBlocks, 'max');
    gauge('graphene_rpc_follow_lag_seconds', "On a follower: seconds between the upstream's head block time and this node's, while behind", () => follow().lagSeconds, 'max');
    counterOf(registry, 'graphene_rpc_follow_reconnects_total', 'On a follower: connections to the upstream made again after one was lost', () => follow().reconnects, 'max');
    gauge('graphene_rpc_follow_stopped', 'On a follower: 1 once following stopped for good (a block that does not fit: see the log), 0 while it follows', () => (follow().stopped !== undefined ? 1 : 0), 'max');
  }
  const merged = Registry.merge([registry, processMetrics()]);
  return {
    calls,
    notices,
    poolTiming,
    failedLogins,
    connectionsOpened,
    backpressureCloses,
    workersReplaced,
    droppedUnread,
    subscriptionsRefused,
    transferFeed,
    sessionOpened(s) {
      sessions.add(s);
      s.onClose(() => sessions.delete(s));
    },
    async scrape() {
      return { contentType: merged.contentType, text: await merged.metrics() };
    },
    json: () => merged.getMetricsAsJSON(),
  };
}

/**
 * The writer's own metrics when it runs serving processes (--processes N > 1) or serving threads
 * (--serving-threads N > 1): how many run, how often one was restarted, and the process metrics (CPU,
 * memory) of the writer's process, which aggregation adds to the serving processes' own (serving
 * threads leave theirs out: they are this process', see threadShare).
 */
export function servingProcessesMetrics(sources: { kind: 'processes' | 'threads'; running(): number; configured: number }): { readonly restarts: { n: number }; json(): Promise<MetricsJson> } {
  const registry = new Registry();
  const [plural, singular, option] = sources.kind === 'processes' ? ['processes', 'process', '--processes'] : ['threads', 'thread', '--serving-threads'];
  new Gauge({
    name: `graphene_rpc_serving_${plural}`,
    help: `Serving ${plural} running now (${option}); fewer while one is being restarted`,
    registers: [registry],
    collect() {
      this.set(sources.running());
    },
  });
  new Gauge({
    name: `graphene_rpc_serving_${plural}_configured`,
    help: `Serving ${plural} the node runs when all are up (${option})`,
    registers: [registry],
    collect() {
      this.set(sources.configured);
    },
  });
  const restarts = { n: 0 };
  new Counter({
    name: `graphene_rpc_serving_${singular}_restarts_total`,
    help: sources.kind === 'processes' ? 'Serving processes that ended without being asked to (a crash, kill -9) and were started again by the writer' : 'Serving threads that ended without being asked to (an error they did not catch) and were started again by the writer',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(restarts.n);
    },
  });
  const merged = Registry.merge([registry, processMetrics()]);
  return { restarts, json: () => merged.getMetricsAsJSON() };
}

/**
 * A serving thread's metrics as the writer sums them: without the process metrics (process_*: CPU,
 * resident memory, file descriptors), which every thread reads for the whole process and the writer
 * reports once. The Node.js ones (nodejs_*: heap, GC, event loop) are each thread's own and stay.
 */
export function threadShare(json: MetricsJson): MetricsJson {
  return json.filter((m) => !m.name.startsWith('process_'));
}

/**
 * One scrape of a node of several processes: each metric summed over the processes (counters,
 * histograms, most gauges), or as its aggregator says (aggregators above; prom-client's own for the
 * process metrics: event-loop lag averaged, start time left out). This is prom-client's cluster-mode
 * aggregation, so the node reads as one target whichever process answers the scrape.
 */
export async function aggregateMetrics(each: readonly MetricsJson[]): Promise<{ readonly contentType: string; readonly text: string }> {
  const registry = AggregatorRegistry.aggregate(each as Parameters<typeof AggregatorRegistry.aggregate>[0]);
  return { contentType: registry.contentType, text: await registry.metrics() };
}

/**
 * What a serving process that ended leaves to the node's totals: its counters and histograms as last
 * seen, so that the sum over the processes does not fall back when one is replaced by a fresh one
 * (Prometheus would read a fall as a counter reset). Gauges of a process that is gone count nothing.
 */
export function retiredCounts(last: MetricsJson): MetricsJson {
  return last.filter((m) => String(m.type) === 'counter' || String(m.type) === 'histogram');
}

/** Several processes' retired counts as one (summed), so that what ended processes leave stays one set however many ended. */
export function foldCounts(each: readonly MetricsJson[]): Promise<MetricsJson> {
  return AggregatorRegistry.aggregate(each as Parameters<typeof AggregatorRegistry.aggregate>[0]).getMetricsAsJSON();
}
