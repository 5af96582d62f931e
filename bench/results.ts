// The benchmark's result shapes: what bench/run.ts measures and bench/report.ts draws. Kept apart
// from both so that the report reads results without importing the runner.
import type { FrontEndGc, SystemKind } from './systems.js';
import type { AttackOutcome } from './attack-worker.js';
import type { StoreWarmup } from './page-cache.js';

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  count: number;
}

export interface RunResult {
  scenario: string;
  system: string;
  kind: SystemKind;
  workers?: number;
  /** graphene-rpc-processes: serving processes (--processes), each with `workers` threads */
  processes?: number;
  /** graphene-rpc-threads: serving threads (--serving-threads), each with `workers` threads */
  servingThreads?: number;
  /** the node at its automatic sizes (no --workers, no --processes): `processes` × `workers` is what it chose */
  auto?: boolean;
  loop: 'closed' | 'open';
  /** open loop: the offered rate, requests/s */
  offeredRate?: number;
  throughput: number;
  /** latency in ms, per request kind */
  latency: Record<string, Percentiles>;
  sent: number;
  completed: number;
  errors: number;
  nodeCpuPercent: number;
  nodeRssMiB: number;
  /** the node's proportional set size (its processes' shares of the pages they map), MiB; absent where the kernel does not say */
  nodePssMiB?: number;
  /** the event-loop utilisation of the busiest load-generator thread */
  generatorUtilisation: number;
  /** load-generator threads of this run, when not --generators (the ceiling's retries) */
  generators?: number;
  /** closed loop: calls kept in flight (connections × calls in flight on each) */
  inFlight?: number;
  /** GET /metrics that answered during the run (--scrape-ms) */
  scrapes?: number;
  /** CPU microseconds per completed call, by thread (bench/run.ts cpuPerCall) */
  cpuUs?: CpuPerCall;
  /** graphene-rpc: its front end's garbage-collector pauses during the run (from its GET /metrics) */
  frontEndGc?: FrontEndGc;
  /**
   * graphene-rpc (one process): calls handed to the pool per task during the run, from its GET
   * /metrics. Each task costs a crossing of threads (and a wake of a sleeping worker) whatever it
   * carries, so fewer calls a task is more CPU a call.
   */
  callsPerTask?: number;
  /**
   * graphene-rpc: shapes learnt heavy at the run's end, and light calls stopped at their slice
   * (requeued as heavy) and run past it during the run (src/pool/learnt-costs.ts)
   */
  slices?: { learntHeavy: number; requeued: number; ranLong: number };
  /**
   * open loop: how late the generator sent requests against their schedule (ms). Latencies count
   * from the schedule, so this much of each is the generator's own, not the system's.
   */
  generatorLateness?: Percentiles;
}

/** CPU microseconds per call: the system's threads by role, and the load generator's own. */
export interface CpuPerCall {
  /** each process's main thread: graphene-rpc's front end, or all of a single-threaded server's JavaScript */
  frontEnd: number;
  /** graphene-rpc's pool threads */
  workers: number;
  /** every other thread of the system (GC helpers, libuv, V8 platform, the block signer) */
  other: number;
  /** the bench process (load generators), which shares the machine's cores with the system */
  generator: number;
  /**
   * context switches per call by the same roles (from each thread's /proc status): how often a
   * thread slept or was preempted, each a wake someone paid for; absent in reports from before
   */
  switches?: { frontEnd: number; workers: number; other: number };
}

export interface BenchReport {
  started: string;
  /** seconds the run took, from its start (after the chain was generated) to its report; absent in reports from before */
  elapsedS?: number;
  /** what the bench estimated before it started (bench/plan.ts); absent in reports from before */
  plan?: { runs: number; seconds: number; parts: { name: string; runs: number; seconds: number }[] };
  quick: boolean;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string };
  chain: {
    dataDir: string;
    accounts: number;
    operations: number;
    busiestAccountOps: number;
    openOrders: number;
    /** operations a second `graphene-rpc generate` made this chain at (on the machine that made it); absent for chains made before it recorded its time */
    generatedPerSecond?: number;
  };
  settings: Record<string, unknown>;
  /** the store read through once before the runs, so that no system pays for cold reads the others do not (bench/page-cache.ts); absent in reports from before */
  storeWarmup?: StoreWarmup;
  /** transactions broadcast and accepted, and left pending, before graphene-rpc's throughput runs */
  pendingLeft?: number;
  runs: RunResult[];
  deposits?: { system: string; sessions: number; deliveries: number; rate: number; delayMs: Percentiles; nodeCpuPercent: number; notes: string; refused?: number };
  exchange?: {
    system: string;
    clients: number;
    accountsPerClient: number;
    watcherSessions: number;
    rate: number;
    pollCalls: number;
    pollCallsPerSecond: number;
    pollErrors: number;
    pollLatencyMs: Percentiles;
    /** ms from a deposit's block to its first sighting by a poller */
    pollerFreshnessMs: Percentiles;
    /** ms from a deposit's block to the watcher's notice about it */
    watcherFreshnessMs: Percentiles;
    nodeCpuPercent: number;
    refused: number;
    notes: string;
  };
  idle: { system: string; sessions: number; bytesPerSession: number; rssBeforeMiB: number; rssAfterMiB: number }[];
  capacity?: {
    scenario: string;
    p99TargetMs: number;
    recommendedWorkers: number;
    /** per worker count, the mean over the swept scenarios of its throughput as a share of the scenario's best */
    workerScores?: Record<number, number>;
    sustainableRate: number;
    /**
     * the advised rate run once more on its own: one pass in a search on a shared machine can be
     * luck, so the advice is what this run showed (absent in reports from before)
     */
    check?: { rate: number; throughput: number; p99Ms: number; errors: number; met: boolean; generatorLatenessP99Ms?: number };
    note: string;
  };
  adversarial?: AdversarialReport;
  /** the scaling model checked on this machine: graphene-rpc on one CPU against all (bench/run.ts scalingCheck) */
  scalingCheck?: ScalingCheck[];
  /**
   * the ratio targets' scenarios run again in rounds, the three systems back to back in each
   * (bench/run.ts pairedRounds); absent in reports from before and with --paired-rounds 0
   */
  pairedRounds?: PairedRound[];
  /** ws-market: the markets polled and what graphene-rpc answered for each, asked once before measuring */
  market?: { depth: number; connections: number; books: MarketBook[]; meanReplyBytes: number };
}

/** One market's order book and ticker as sampled: the base/quote orientation of the first sample. */
export interface MarketBook {
  base: string;
  quote: string;
  /** open orders the store holds in this market, both sides */
  orders: number;
  bids: number;
  asks: number;
  /** the ticker's latest price */
  latest: string;
}

/** The prober's latency (ms) and what went wrong for it. */
export interface ProberResult extends Percentiles {
  errors: number;
  /** calls with no reply within the grace after the last send (counted in the latency at their age) */
  unanswered: number;
  closed: boolean;
  /** the latest a probe left after its scheduled time (the prober's own thread was late) */
  sendLagMaxMs: number;
  /** the prober thread's longest event-loop delay while it measured: above a few ms, the client, not the node, was starved */
  clientLoopDelayMaxMs: number;
  /** the nice value the prober's thread measured at (bench/adversarial.ts PROBER_NICE; 0: not raised, or a report made before) */
  proberNice?: number;
  /**
   * The HTTP prober beside it: the same call at the same times over keep-alive HTTP, from another
   * client address (`address`; the node serves HTTP requests in shares by address). Absent in
   * reports made before it was added.
   */
  http?: Percentiles & { readonly errors: number; readonly unanswered: number; readonly address: string };
}

/** A candidate "most expensive legal call", timed alone. */
export interface CallCost {
  label: string;
  body: string;
  medianMs: number;
  replyBytes: number;
  /** the node refused it (not legal under its defaults) */
  error?: string;
}

export interface AttackRun {
  scenario: string;
  system: string;
  attack: string;
  prober: ProberResult;
  /** prober p99 under attack / idle p99 */
  ratioToIdle: number;
  pass: boolean;
  failures: string[];
  attackers: AttackOutcome;
  nodeRssMaxMiB: number;
  nodeCpuPercent: number;
}

/** The adversarial scenarios (issue 12), run on graphene-rpc only. */
export interface AdversarialReport {
  system: string;
  /** --node-dir: the checkout whose node ran */
  nodeDir?: string;
  workers: number;
  durationMs: number;
  /** the node's --max-buffered-bytes default; null when it has no such option */
  maxBufferedBytes: number | null;
  targets: { proberP99Ms: number; ratioToIdle: number; rssBudgetMiB: number };
  calls: CallCost[];
  /** the label of the slowest legal call, the one the attacks use */
  expensive: string;
  idle: ProberResult;
  /** the attackers' nice value (bench/adversarial.ts ATTACKERS_NICE); absent in reports made before */
  attackersNice?: number;
  runs: AttackRun[];
}

/** One scenario's throughput on one pinned CPU and on all CPUs, each measured and predicted from the other's cost per call. */
export interface ScalingCheck {
  scenario: string;
  workers: number;
  oneCpu: { measured: number; predicted: number; cpuUs: CpuPerCall };
  allCpus: { cpus: number; measured: number; predicted: number; cpuUs: CpuPerCall };
}

/** The systems a paired round runs, and the two graphene-rpc is compared with. */
export const PAIRED_KINDS = ['graphene-rpc', 'ceiling', 'conventional'] as const;
export type PairedKind = (typeof PAIRED_KINDS)[number];

/** One scenario in one round: graphene-rpc, the ceiling and the conventional stack, measured back to back. */
export interface PairedRound {
  scenario: string;
  /** 1, 2, … */
  round: number;
  /** the order the three ran in this round (turned by one each round, so that drift favours none) */
  order: PairedKind[];
  runs: Record<PairedKind, RunResult>;
}
