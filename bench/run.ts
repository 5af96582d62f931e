// `graphene-rpc bench` (`npm run bench`): the capacity benchmark.
//
// It generates (or reuses) a chain, starts each system under test as its own process — graphene-rpc
// at a sweep of worker counts, the ceiling (bare uWebSockets.js with canned replies) and the
// conventional stack (Fastify + ws, handlers inline) — drives it from load generators in worker
// threads, and stops everything by itself. Every run is bounded in time and in requests. Results go
// to the terminal (a table), to JSON and to a Markdown report with SVG charts (bench/report.ts).
// Over 500 lines because it sequences every scenario and system in one place; the adversarial
// scenarios, which run on graphene-rpc alone, live in bench/adversarial.ts.
import { Worker } from 'node:worker_threads';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import hdr from 'hdr-histogram-js';
import { runGenerate } from '../src/generate/command.js';
import { openChainStore } from '../src/chain/store/store.js';
import { upgradeDataDir } from '../src/chain/node/block-applier.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { parseFcTime } from '../src/chain/fc/fc-json.js';
import type { FeeSchedule } from '../src/chain/protocol/fees.js';
import { buildTransaction, headOf, signTransaction } from '../src/chain/protocol/transaction-builder.js';
import { DEV_BLOCK_SIGNING_WIF } from '../src/chain/crypto/dev-key.js';
import { transferOp } from '../src/chain/protocol/operation-builders.js';
import { autoFrontEnds, autoWorkers, usableCpus } from '../src/sizing.js';
import { gcBetween, processUsage, readGcTotals, startSystem, threadTimes, type RunningSystem } from './systems.js';
import type { LoadResult, LoadSpec, RequestKind } from './load-worker.js';
import type { Arrival, PollStats, SessionSpec } from './session-worker.js';
import { bestGraphene, nodeCpu, projectThroughput, saturated, storeWarmupLine, writeReport } from './report.js';
import { printAdversarial, runAdversarial } from './adversarial.js';
import { warmPageCache } from './page-cache.js';
import { minutes, planLine, planRun } from './plan.js';
import { ADVERSARIAL_SCENARIOS, BENCH_OPTIONS, PAIRED_SCENARIOS, SCENARIOS, benchDefault, type AdversarialName, type Preset, type ScenarioName } from './options.js';
import { PAIRED_KINDS, type BenchReport, type CpuPerCall, type MarketBook, type PairedKind, type PairedRound, type Percentiles, type RunResult, type ScalingCheck } from './results.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export { SCENARIOS };

interface Options {
  quick: boolean;
  tiny: boolean;
  out: string;
  dataDir: string;
  /** size of the chain generated when the data directory holds none */
  accounts: number;
  operations: number;
  orders: number;
  /** ws-market: the depth of each get_order_book */
  marketDepth: number;
  scenarios: ReadonlySet<ScenarioName>;
  workersSweep: number[];
  workersGiven: boolean;
  /** graphene-rpc --processes counts above 1 whose closed-loop runs are reported beside one process' */
  processesSweep: number[];
  /** graphene-rpc --serving-threads counts above 1, likewise */
  threadsSweep: number[];
  /** measure the node at its automatic sizes too (--auto yes) */
  autoRun: boolean;
  /** a built checkout whose node runs instead of this one (graphene-rpc runs only) */
  nodeDir: string | undefined;
  /** adversarial scenarios: the prober's measuring time, idle and under each attack */
  attackMs: number;
  rssBudgetMiB: number;
  attackCall: string | undefined;
  /** adversarial scenarios: attackers at nice 19, the prober's thread raised (bench/adversarial.ts) */
  clientPriorities: boolean;
  durationMs: number;
  /** an upper bound on each scenario's connections */
  maxConnections: number;
  /** open-loop rates, as shares of the best closed-loop throughput */
  openLoopShares: number[];
  generators: number;
  p99TargetMs: number;
  depositSessions: number;
  depositRate: number;
  depositSeconds: number;
  idleSessions: number;
  /** the pauses that let the node settle around ws-idle and after the last deposit */
  settleMs: number;
  /** ms between two GET /metrics of graphene-rpc while its throughput is measured (0: none) */
  scrapeMs: number;
  /** graphene-rpc's --log-level in the throughput runs (debug writes a served line per call) */
  nodeLogLevel: string;
  /** transfers broadcast, and left pending, before graphene-rpc's throughput runs */
  pendingTransactions: number;
  /** ws-exchange: pollers, and deposit accounts per poller */
  exchangeClients: number;
  exchangeAccounts: number;
  /** processes of the conventional stack in cluster mode (0: not run) */
  clusterProcesses: number;
  /** run graphene-rpc pinned to one CPU against all, to check the scaling model */
  scalingCheck: boolean;
  /** rounds of the ratio targets' scenarios on the three systems back to back (0: none) */
  pairedRounds: number;
}

function parseOptions(argv: string[]): Options {
  // The options and their defaults are one table (bench/options.ts), shared with `bench --help`.
  const { values: v } = parseArgs({
    args: argv,
    options: Object.fromEntries(BENCH_OPTIONS.map((o) => [o.name, { type: o.value ? ('string' as const) : ('boolean' as const) }])),
  });
  const values = v as Record<string, string | undefined> & { quick?: boolean; tiny?: boolean };
  // --tiny: the smallest run that still goes through every scenario and system (the test suite's
  // smoke test, a few seconds); its figures mean nothing. It is --quick with these defaults.
  const tiny = values.tiny ?? false;
  const quick = (values.quick ?? false) || tiny;
  const preset: Preset = tiny ? 'tiny' : quick ? 'quick' : 'full';
  const def = (name: string) => benchDefault(name, preset);
  const num = (v: string | undefined, d: number, name: string): number => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} expects a positive number, got '${v}'`);
    return n;
  };
  const list = (v: string | undefined, d: string, name: string): number[] => (v ?? d).split(',').map((x) => num(x, 1, name));
  const yesNo = (v: string | undefined, d: string, name: string): boolean => {
    const t = v ?? d;
    if (t !== 'yes' && t !== 'no') throw new Error(`--${name} expects yes or no, got '${t}'`);
    return t === 'yes';
  };
  const scenarios = (values.scenarios ?? SCENARIOS.join(',')).split(',').map((x) => x.trim());
  for (const name of scenarios) {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--scenarios: unknown scenario '${name}' (known: ${SCENARIOS.join(', ')})`);
  }
  return {
    quick,
    tiny,
    out: values.out ?? path.join(root, def('out')),
    dataDir: values['data-dir'] ?? path.join(root, def('data-dir')),
    accounts: Math.max(6, Math.round(num(values.accounts, Number(def('accounts')), 'accounts'))),
    operations: Math.round(num(values.operations, Number(def('operations')), 'operations')),
    orders: Math.round(num(values.orders, Number(def('orders')), 'orders')),
    marketDepth: Math.round(num(values['market-depth'], Number(def('market-depth')), 'market-depth')),
    scenarios: new Set(scenarios as ScenarioName[]),
    workersSweep: list(values.workers, def('workers'), 'workers'),
    workersGiven: values.workers !== undefined,
    processesSweep: list(values.processes, def('processes'), 'processes').filter((n) => n > 1),
    threadsSweep: list(values['serving-threads'], def('serving-threads'), 'serving-threads').filter((n) => n > 1),
    autoRun: yesNo(values.auto, def('auto'), 'auto'),
    nodeDir: values['node-dir'] === undefined ? undefined : path.resolve(values['node-dir']),
    attackMs: num(values['attack-seconds'], Number(def('attack-seconds')), 'attack-seconds') * 1000,
    rssBudgetMiB: num(values['rss-budget'], Number(def('rss-budget')), 'rss-budget'),
    attackCall: values['attack-call'],
    clientPriorities: yesNo(values['client-priorities'], def('client-priorities'), 'client-priorities'),
    durationMs: num(values.duration, Number(def('duration')), 'duration') * 1000,
    maxConnections: num(values.connections, tiny ? Number(def('connections')) : Infinity, 'connections'),
    openLoopShares: list(values['open-loop-shares'], def('open-loop-shares'), 'open-loop-shares'),
    // auto: one generator thread per 4 CPUs, so that on a big machine the client is not the limit
    // (a saturated generator is still flagged, and the ceiling retried with more).
    generators: (values.generators ?? def('generators')) === 'auto' ? Math.max(1, Math.floor(os.availableParallelism() / 4)) : num(values.generators, Number(def('generators')), 'generators'),
    p99TargetMs: num(values['p99-target'], Number(def('p99-target')), 'p99-target'),
    depositSessions: num(values['deposit-sessions'], Number(def('deposit-sessions')), 'deposit-sessions'),
    depositRate: num(values['deposit-rate'], Number(def('deposit-rate')), 'deposit-rate'),
    depositSeconds: num(values['deposit-seconds'], Number(def('deposit-seconds')), 'deposit-seconds'),
    idleSessions: num(values['idle-sessions'], Number(def('idle-sessions')), 'idle-sessions'),
    settleMs: num(values.settle, Number(def('settle')), 'settle') * 1000,
    scrapeMs: values['scrape-ms'] === undefined ? 0 : num(values['scrape-ms'], 0, 'scrape-ms'),
    nodeLogLevel: values['node-log-level'] ?? def('node-log-level'),
    pendingTransactions: (() => {
      const v = values['pending-transactions'] ?? def('pending-transactions');
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new Error(`--pending-transactions expects a transaction count (0 for none), got '${v}'`);
      return n;
    })(),
    exchangeClients: Math.round(num(values['exchange-clients'], Number(def('exchange-clients')), 'exchange-clients')),
    exchangeAccounts: Math.round(num(values['exchange-accounts'], Number(def('exchange-accounts')), 'exchange-accounts')),
    clusterProcesses: (() => {
      const v = values.cluster ?? def('cluster');
      if (v === 'cores') return os.availableParallelism();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new Error(`--cluster expects a process count (0 for none) or 'cores', got '${v}'`);
      return n;
    })(),
    pairedRounds: (() => {
      const v = values['paired-rounds'] ?? def('paired-rounds');
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new Error(`--paired-rounds expects a round count (0 for none), got '${v}'`);
      return n;
    })(),
    scalingCheck: yesNo(values['scaling-check'], def('scaling-check'), 'scaling-check'),
  };
}


const log = (s: string) => process.stderr.write(`${s}\n`);

const nodeDirOf = (o: Options): { nodeDir?: string } => (o.nodeDir ? { nodeDir: o.nodeDir } : {});

function percentiles(h: hdr.Histogram): Percentiles {
  const ms = (us: number) => Math.round(us) / 1000;
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    max: ms(h.maxValue),
    count: h.totalCount,
  };
}

/** Runs `spec` split over the generator threads; merges their histograms. */
async function load(spec: LoadSpec, generators: number): Promise<{ result: LoadResult; latency: Record<string, Percentiles>; lateness?: Percentiles }> {
  const parts = Array.from({ length: generators }, (_, i) => ({
    ...spec,
    connections: Math.max(1, Math.floor(spec.connections / generators) + (i < spec.connections % generators ? 1 : 0)),
    rate: spec.rate / generators,
    maxRequests: Math.ceil(spec.maxRequests / generators),
  }));
  const results = await Promise.all(
    parts.map(
      (p) =>
        new Promise<LoadResult>((resolve, reject) => {
          const w = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: p });
          w.once('message', (m: LoadResult | { failed: string }) => ('failed' in m ? reject(new Error(m.failed)) : resolve(m)));
          w.once('error', reject);
        }),
    ),
  );
  const merged = new Map<string, hdr.Histogram>();
  for (const r of results) {
    for (const [label, enc] of Object.entries(r.histograms)) {
      const h = hdr.decodeFromCompressedBase64(enc);
      const m = merged.get(label);
      if (m) m.add(h);
      else merged.set(label, h);
    }
  }
  const latency: Record<string, Percentiles> = {};
  for (const [label, h] of merged) latency[label] = percentiles(h);
  let late: hdr.Histogram | undefined;
  for (const r of results) {
    if (!r.lateness) continue;
    const h = hdr.decodeFromCompressedBase64(r.lateness);
    if (late) late.add(h);
    else late = h;
  }
  return {
    result: {
      sent: results.reduce((a, r) => a + r.sent, 0),
      completed: results.reduce((a, r) => a + r.completed, 0),
      errors: results.reduce((a, r) => a + r.errors, 0),
      elapsedMs: Math.max(...results.map((r) => r.elapsedMs)),
      histograms: {},
      // The busiest thread's: one saturated generator thread limits its connections whatever the others do.
      generatorUtilisation: Math.max(...results.map((r) => r.generatorUtilisation)),
    },
    latency,
    ...(late ? { lateness: percentiles(late) } : {}),
  };
}

interface ChainInfo {
  accounts: number;
  operations: number;
  busiest: string;
  busiestOps: number;
  users: string[];
  /** the markets with open limit orders, most orders first */
  markets: Market[];
  /** the symbols of the market-issued assets with debt positions (generate --orders makes two) */
  smartcoins: string[];
  /** operations a second `generate` made the chain at, as it recorded (absent: made before it recorded its time) */
  generatedPerSecond?: number;
}

interface Market {
  /** the two assets' symbols, the core asset first when it is one of them */
  assets: [string, string];
  /** open orders on each side: selling assets[0], selling assets[1] */
  orders: [number, number];
}

/**
 * The markets that hold open orders, from the store's by-price order index (keys [sell, receive,
 * price, order]): the ones a bot would poll, so that the bench's books are not empty.
 */
function marketsOf(store: ReturnType<typeof openChainStore>): Market[] {
  const sides = new Map<string, number>();
  for (const [sell, receive] of store.orderPrices.getKeys()) {
    const k = `${sell},${receive}`;
    sides.set(k, (sides.get(k) ?? 0) + 1);
  }
  const symbol = (instance: number) => (JSON.parse(store.objects.get([1, 3, instance])!.toString('utf8')) as { symbol: string }).symbol;
  const markets: Market[] = [];
  for (const k of sides.keys()) {
    const [a, b] = k.split(',').map(Number) as [number, number];
    if (a > b && sides.has(`${b},${a}`)) continue; // counted from the other side
    const [lo, hi] = a < b ? [a, b] : [b, a];
    markets.push({ assets: [symbol(lo), symbol(hi)], orders: [sides.get(`${lo},${hi}`) ?? 0, sides.get(`${hi},${lo}`) ?? 0] });
  }
  return markets.sort((x, y) => y.orders[0] + y.orders[1] - (x.orders[0] + x.orders[1]));
}

/** The market-issued assets that have debt positions (the bitasset index: [6, asset] lists them, [0, asset, …] their positions). */
function smartcoinsOf(store: ReturnType<typeof openChainStore>): string[] {
  const out: string[] = [];
  for (const key of store.bitassetIndex.getKeys({ start: [6], end: [7] })) {
    const asset = key[1] as number;
    for (const _ of store.bitassetIndex.getKeys({ start: [0, asset], end: [0, asset + 1], limit: 1 })) {
      out.push((JSON.parse(store.objects.get([1, 3, asset])!.toString('utf8')) as { symbol: string }).symbol);
    }
  }
  return out;
}

function chainInfo(dataDir: string): ChainInfo {
  const store = openChainStore(dataDir, { readOnly: true });
  try {
    const accounts = Number(store.meta.get('next_instance:1.2') ?? 0);
    const operations = Number(store.meta.get('next_instance:1.11') ?? 0);
    const busiestId = store.accountNames.get('exchange-1');
    if (busiestId === undefined) throw new Error(`${dataDir} was not made by graphene-rpc generate (no exchange-1)`);
    const stats = JSON.parse(store.objects.get([2, 6, busiestId])!.toString('utf8')) as { total_ops: number | string };
    const users: string[] = [];
    for (const { key } of store.accountNames.getRange({ start: 'user-', end: 'user.', limit: 20_000 })) users.push(key);
    const generated = JSON.parse(store.meta.get('generated') ?? '{}') as { operations?: number; seconds?: number };
    const generatedPerSecond = generated.operations !== undefined && generated.seconds ? Math.round(generated.operations / generated.seconds) : undefined;
    return { accounts, operations, busiest: 'exchange-1', busiestOps: Number(stats.total_ops), users, markets: marketsOf(store), smartcoins: smartcoinsOf(store), generatedPerSecond };
  } finally {
    void store.close();
  }
}

/** The scenarios measured as throughput and latency. */
interface Scenario {
  name: ScenarioName;
  transport: 'http' | 'ws';
  connections: number;
  inflight: number;
  kinds: RequestKind[];
}

function scenarios(info: ChainInfo, o: Options): Scenario[] {
  const pick = <T>(a: readonly T[], n: number) => Array.from({ length: n }, (_, i) => a[(i * 7919) % a.length]!);
  const small: RequestKind = {
    label: 'small',
    weight: 1,
    bodies: pick(info.users, 200).map((u) => JSON.stringify({ id: 1, method: 'get_accounts', params: [[u]] })),
  };
  const starts = Array.from({ length: 200 }, (_, i) => 100 + ((i * 104729) % Math.max(1, info.busiestOps - 100)));
  const history: RequestKind = {
    label: 'history',
    weight: 1,
    bodies: starts.map((s) => JSON.stringify({ id: 1, method: 'call', params: ['history', 'get_relative_account_history', [info.busiest, 0, 100, s]] })),
  };
  // A trading bot polls its markets: the order book and the ticker, by symbol, in the orientation it
  // trades (both occur), and waits for both before it decides; hence two calls in flight.
  const orientations = info.markets.flatMap((m) => [m.assets, [m.assets[1], m.assets[0]] as const]);
  // With smartcoins on the chain, a fifth of the calls are what a bot watching their debt asks:
  // get_call_orders, the least collateralized positions first.
  const calls: RequestKind = { label: 'calls', weight: 0.2, bodies: info.smartcoins.map((s) => marketBody('get_call_orders', [s, o.marketDepth])) };
  const share = calls.bodies.length > 0 ? 0.4 : 0.5;
  const book: RequestKind = { label: 'book', weight: share, bodies: orientations.map(([b, q]) => marketBody('get_order_book', [b, q, o.marketDepth])) };
  const ticker: RequestKind = { label: 'ticker', weight: share, bodies: orientations.map(([b, q]) => marketBody('get_ticker', [b, q])) };
  return [
    { name: 'http-small', transport: 'http', connections: 32, inflight: 1, kinds: [small] },
    { name: 'ws-small', transport: 'ws', connections: 64, inflight: 4, kinds: [small] },
    { name: 'ws-history', transport: 'ws', connections: 32, inflight: 2, kinds: [history] },
    { name: 'ws-mixed', transport: 'ws', connections: 64, inflight: 4, kinds: [{ ...small, weight: 0.9 }, { ...history, weight: 0.1 }] },
    { name: 'ws-market', transport: 'ws', connections: 64, inflight: 2, kinds: calls.bodies.length > 0 ? [book, ticker, calls] : [book, ticker] },
  ];
}

const marketBody = (method: string, params: unknown[]) => JSON.stringify({ id: 1, method: 'call', params: ['database', method, params] });

/**
 * ws-market's replies, asked once of a system before it is measured: every book must hold orders
 * and every ticker must answer, or the scenario would measure empty answers. Also the mean reply
 * size, which the ceiling imitates.
 */
async function sampleMarkets(port: number, info: ChainInfo, depth: number, system: string): Promise<{ books: MarketBook[]; meanReplyBytes: number }> {
  const post = async (body: string) => {
    const text = await (await fetch(`http://127.0.0.1:${port}/rpc`, { method: 'POST', body })).text();
    const reply = JSON.parse(text) as { result?: any; error?: { message: string } };
    if (reply.error || reply.result === undefined) throw new Error(`ws-market on ${system}: ${body} answered ${text.slice(0, 300)}`);
    return { result: reply.result, bytes: Buffer.byteLength(text) };
  };
  const books: MarketBook[] = [];
  let bytes = 0;
  for (const m of info.markets) {
    const [base, quote] = m.assets;
    const book = await post(marketBody('get_order_book', [base, quote, depth]));
    const ticker = await post(marketBody('get_ticker', [base, quote]));
    bytes += book.bytes + ticker.bytes;
    const b = { base, quote, orders: m.orders[0] + m.orders[1], bids: book.result.bids.length as number, asks: book.result.asks.length as number, latest: String(ticker.result.latest) };
    if (b.bids + b.asks === 0) throw new Error(`ws-market on ${system}: the order book of ${base}/${quote} is empty, though the store holds ${b.orders} orders there`);
    books.push(b);
  }
  return { books, meanReplyBytes: Math.round(bytes / (2 * info.markets.length)) };
}

/**
 * Scrapes graphene-rpc's GET /metrics every `everyMs` until stopped, as Prometheus would; says how
 * many scrapes answered 200 and their size.
 */
function scraping(port: number, everyMs: number): { stop(): Promise<{ scrapes: number; failed: number; bytes: number }> } {
  let scrapes = 0;
  let failed = 0;
  let bytes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = fetch(`http://127.0.0.1:${port}/metrics`).then(
      async (res) => {
        const text = await res.text();
        if (res.status === 200) {
          scrapes++;
          bytes = text.length;
        } else failed++;
      },
      () => void failed++,
    );
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      return { scrapes, failed, bytes };
    },
  };
}

/**
 * The worker count to advise, weighing every scenario of the sweep alike: each run's throughput as a
 * share of its scenario's best, averaged per worker count (so a count that is best for small calls but
 * poor for history pages does not win on small calls alone).
 */
export function adviseWorkers(runs: readonly { scenario: string; workers?: number; throughput: number }[]): { workers: number; scores: Record<number, number> } | undefined {
  const bestOf = new Map<string, number>();
  for (const r of runs) bestOf.set(r.scenario, Math.max(bestOf.get(r.scenario) ?? 0, r.throughput));
  const shares = new Map<number, number[]>();
  for (const r of runs) {
    if (r.workers === undefined || !(bestOf.get(r.scenario)! > 0)) continue;
    shares.set(r.workers, [...(shares.get(r.workers) ?? []), r.throughput / bestOf.get(r.scenario)!]);
  }
  const scores: Record<number, number> = {};
  for (const [w, list] of shares) scores[w] = Math.round((list.reduce((a, b) => a + b, 0) / list.length) * 1000) / 1000;
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]));
  return ranked.length > 0 ? { workers: Number(ranked[0]![0]), scores } : undefined;
}

/** The lowest open-loop rate the capacity search tries, calls/s. */
export const MIN_OPEN_LOOP_RATE = 10;
/** Rates the capacity search tries between the best that met the p99 target and the next that did not. */
export const CAPACITY_BISECTIONS = 2;

/**
 * The capacity search, after the open-loop runs at the configured shares (`runs`): below them while
 * none keeps p99 within the target (halving, down to MIN_OPEN_LOOP_RATE), then bisecting between the
 * highest rate that kept it and the lowest above that did not. Adds every run it makes to `runs`.
 */
export async function searchCapacity<R extends { offeredRate?: number }>(runs: R[], at: (rate: number) => Promise<R>, meets: (r: R) => boolean): Promise<void> {
  let low = Math.min(...runs.map((r) => r.offeredRate!));
  while (!runs.some(meets) && low > MIN_OPEN_LOOP_RATE) {
    low = Math.max(MIN_OPEN_LOOP_RATE, Math.floor(low / 2));
    runs.push(await at(low));
  }
  for (let step = 0; step < CAPACITY_BISECTIONS; step++) {
    const good = runs.filter(meets).sort((a, b) => b.offeredRate! - a.offeredRate!)[0];
    if (!good) break;
    const bad = runs.filter((r) => !meets(r) && r.offeredRate! > good.offeredRate!).sort((a, b) => a.offeredRate! - b.offeredRate!)[0];
    if (!bad || bad.offeredRate! - good.offeredRate! < good.offeredRate! * 0.1) break;
    runs.push(await at(Math.round((good.offeredRate! + bad.offeredRate!) / 2)));
  }
}

/** The kernel thread ids graphene-rpc logs (`tid`) on its lines with `message`. */
function loggedThreadIds(sys: RunningSystem, message: string): Set<number> {
  const tids = new Set<number>();
  for (const line of sys.lines) {
    if (!line.includes(message)) continue;
    try {
      const tid = (JSON.parse(line) as { tid?: number }).tid;
      if (tid !== undefined) tids.add(tid);
    } catch {
      // not a JSON log line
    }
  }
  return tids;
}

/** graphene-rpc's serving threads (--serving-threads), by the kernel thread id the writer logs for each */
const servingThreadIds = (sys: RunningSystem) => loggedThreadIds(sys, 'serving thread listening');

/** graphene-rpc's pool threads, by the kernel thread id each logs when it starts */
const workerThreadIds = (sys: RunningSystem) => loggedThreadIds(sys, 'worker thread started');

/**
 * CPU microseconds per call by thread: the main thread of each process (graphene-rpc's front end; the
 * conventional stack's and the ceiling's only JavaScript thread), graphene-rpc's pool threads, and the
 * rest (GC helpers, libuv's pool, V8's platform threads, the block signer); and the load generator's
 * own (the bench process), which shares this machine's cores.
 */
function cpuPerCall(
  sys: RunningSystem,
  before: ReturnType<typeof threadTimes>,
  after: ReturnType<typeof threadTimes>,
  generator: NodeJS.CpuUsage,
  calls: number,
): CpuPerCall {
  const ours = sys.kind === 'graphene-rpc' || sys.kind === 'graphene-rpc-processes' || sys.kind === 'graphene-rpc-threads';
  const workers = ours ? workerThreadIds(sys) : new Set<number>();
  // Serving threads are front ends too, beside each process' main thread.
  const frontEnds = sys.kind === 'graphene-rpc-threads' ? servingThreadIds(sys) : new Set<number>();
  const split = { frontEnd: 0, workers: 0, other: 0 };
  const switched = { frontEnd: 0, workers: 0, other: 0 };
  for (const [tid, t] of after) {
    const role = tid === t.process || frontEnds.has(tid) ? 'frontEnd' : workers.has(tid) ? 'workers' : 'other';
    split[role] += t.cpuSeconds - (before.get(tid)?.cpuSeconds ?? 0);
    switched[role] += t.switches - (before.get(tid)?.switches ?? 0);
  }
  const us = (seconds: number) => Math.round((seconds * 1e6 * 10) / Math.max(1, calls)) / 10;
  const perCall = (n: number) => Math.round((n * 1000) / Math.max(1, calls)) / 1000;
  return {
    frontEnd: us(split.frontEnd),
    workers: us(split.workers),
    other: us(split.other),
    generator: us((generator.user + generator.system) / 1e6),
    switches: { frontEnd: perCall(switched.frontEnd), workers: perCall(switched.workers), other: perCall(switched.other) },
  };
}

async function measure(sys: RunningSystem, scenario: string, spec: LoadSpec, o: Options, extra: Partial<RunResult> = {}): Promise<RunResult> {
  const scraper = o.scrapeMs > 0 && sys.kind === 'graphene-rpc' ? scraping(sys.port, o.scrapeMs) : undefined;
  // Several processes: their CPU is the tree's (graphene-rpc's serving processes are the writer's children).
  const tree = sys.kind === 'conventional-cluster' || sys.kind === 'graphene-rpc-processes' || sys.kind === 'ceiling-cluster';
  // Read before the CPU counters start and after they stop: a scrape costs the front end a little.
  const gcBefore = sys.kind === 'graphene-rpc' ? await readGcTotals(sys.port) : undefined;
  const before = processUsage(sys.pid, tree);
  const threadsBefore = threadTimes(sys.pid);
  const generatorBefore = process.cpuUsage();
  const { result, latency, lateness } = await load(spec, o.generators);
  const generator = process.cpuUsage(generatorBefore);
  const threadsAfter = threadTimes(sys.pid);
  const after = processUsage(sys.pid, tree);
  const scraped = await scraper?.stop();
  const gcAfter = gcBefore && (await readGcTotals(sys.port));
  if (scraped) log(`  ${scraped.scrapes} scrapes of /metrics (${scraped.bytes} bytes each), ${scraped.failed} failed`);
  const secs = result.elapsedMs / 1000;
  return {
    scenario,
    system: sys.name,
    kind: sys.kind,
    loop: spec.rate > 0 ? 'open' : 'closed',
    // Successful replies only: an error (a refusal such as -32013, a lost call) is no throughput.
    throughput: Math.round((result.completed - result.errors) / secs),
    latency,
    sent: result.sent,
    completed: result.completed,
    errors: result.errors,
    nodeCpuPercent: Math.round(((after.cpuSeconds - before.cpuSeconds) / secs) * 100),
    nodeRssMiB: Math.round(after.rssBytes / 1024 / 1024),
    ...(after.pssBytes > 0 ? { nodePssMiB: Math.round(after.pssBytes / 1024 / 1024) } : {}),
    generatorUtilisation: Math.round(result.generatorUtilisation * 100) / 100,
    cpuUs: cpuPerCall(sys, threadsBefore, threadsAfter, generator, result.completed),
    ...(spec.rate > 0 ? { offeredRate: spec.rate } : { inFlight: spec.connections * spec.inflight }),
    ...(scraped ? { scrapes: scraped.scrapes } : {}),
    ...(gcBefore && gcAfter ? { frontEndGc: gcBetween(gcBefore, gcAfter, result.elapsedMs) } : {}),
    ...(lateness ? { generatorLateness: lateness } : {}),
    ...(gcBefore?.pool && gcAfter?.pool && gcAfter.pool.tasks > gcBefore.pool.tasks
      ? { callsPerTask: Math.round(((gcAfter.pool.calls - gcBefore.pool.calls) / (gcAfter.pool.tasks - gcBefore.pool.tasks)) * 10) / 10 }
      : {}),
    ...(gcBefore?.pool && gcAfter?.pool
      ? { slices: { learntHeavy: gcAfter.pool.learntHeavy, requeued: gcAfter.pool.requeued - gcBefore.pool.requeued, ranLong: gcAfter.pool.ranLong - gcBefore.pool.ranLong } }
      : {}),
    ...extra,
  };
}

/**
 * A run whose load generator saturates measures the generator as much as the system: while it does,
 * the system is measured again with one more generator thread (up to one per CPU), and its best run
 * is kept, so that a ratio rests on the system's limit rather than the client's where the machine
 * allows. The sweep does this for the ceiling, which answers faster than one generator thread asks;
 * paired rounds for all three systems (HTTP's generator, for one, can saturate on any of them).
 */
async function measureUnsaturated(sys: RunningSystem, scenario: string, spec: LoadSpec, o: Options, extra: Partial<RunResult> = {}): Promise<RunResult> {
  let best = await measure(sys, scenario, spec, o, extra);
  for (let generators = o.generators + 1; saturated(best) && generators <= os.availableParallelism(); generators++) {
    log(`  its load generator saturated (utilisation ${best.generatorUtilisation}): again with ${generators} generator threads…`);
    const run = await measure(sys, scenario, spec, { ...o, generators }, { ...extra, generators });
    if (run.throughput <= best.throughput) break;
    best = run;
  }
  return best;
}

/** Sets the CPU affinity of every thread of this process (the load generators start as its threads and inherit it). */
function pinSelf(cpus: string): void {
  // taskset walks the threads one by one and fails when one ends meanwhile (load generators come and
  // go): try again; the threads it did reach keep the new affinity either way
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
      return;
    } catch (err) {
      if (attempt === 5) throw err;
    }
  }
}

/**
 * Checks the scaling model where this machine can: graphene-rpc (at the best worker count) pinned to
 * CPU 0 with the load generator pinned to CPU 1, against the unpinned run of the sweep on all CPUs.
 * Each run's throughput is predicted from the other's CPU cost per call: on c cores the node does
 * min(1e6 / front end µs, c_free × 1e6 / total µs) calls/s, where c_free is c less what the load
 * generator on the same cores uses (none when it has its own CPU).
 */
async function scalingCheck(
  o: Options,
  chosen: readonly Scenario[],
  specFor: (s: Scenario, port: number) => LoadSpec,
  workers: number,
  runs: readonly RunResult[],
): Promise<ScalingCheck[]> {
  const cpus = os.availableParallelism();
  if (cpus < 2 || chosen.length === 0) return [];
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  } catch {
    log('scaling check left out: taskset is not available');
    return [];
  }
  const out: ScalingCheck[] = [];
  const sys = await startSystem('graphene-rpc', { dataDir: o.dataDir, workers, logLevel: o.nodeLogLevel, cpus: '0', ...nodeDirOf(o) });
  try {
    pinSelf('1');
    for (const s of chosen) {
      const all = runs.find((r) => r.scenario === s.name && r.kind === 'graphene-rpc' && r.loop === 'closed' && r.workers === workers);
      if (!all?.cpuUs) continue;
      log(`${s.name} on ${sys.name} (the load generator on CPU 1)…`);
      const one = await measure(sys, s.name, specFor(s, sys.port), o, { workers });
      const c1 = one.cpuUs!;
      // one CPU, the generator elsewhere: the node's cost per call alone bounds it
      const predictOne = projectThroughput(all, 1)!;
      // all CPUs shared with the generator: what the generator leaves, divided by the node's cost
      const predictAll = Math.min(1e6 / c1.frontEnd, (cpus * 1e6) / (nodeCpu(c1) + c1.generator));
      out.push({
        scenario: s.name,
        workers,
        oneCpu: { measured: one.throughput, predicted: predictOne, cpuUs: c1 },
        allCpus: { cpus, measured: all.throughput, predicted: Math.round(predictAll), cpuUs: all.cpuUs },
      });
    }
  } finally {
    pinSelf(`0-${cpus - 1}`);
    await sys.stop();
  }
  return out;
}

/** Round `round` (from 0) runs the systems in this order: each round starts one further along. */
export function pairedOrder(round: number): PairedKind[] {
  const n = PAIRED_KINDS.length;
  return PAIRED_KINDS.map((_, i) => PAIRED_KINDS[(i + round) % n]!);
}

/**
 * The ratio targets measured in rounds. The sweep runs the ceiling and the conventional stack many
 * minutes after graphene-rpc, and a shared machine's speed drifts by as much as 2× in that time, so a
 * ratio of two such runs says as much about the machine as about the systems. Here the three systems
 * are started together and, in each round, run one scenario back to back (a warm-up for each first,
 * not recorded); the order turns each round so that a drift favours none of them. Each round gives
 * ratios of its own, and the goals take the median round's.
 */
async function pairedRounds(
  o: Options,
  chosen: readonly Scenario[],
  specFor: (s: Scenario, port: number, rate?: number, urlPath?: string) => LoadSpec,
  workersFor: (s: Scenario) => number,
  replySize: Readonly<Record<string, number>>,
): Promise<PairedRound[]> {
  const others = new Map<Exclude<PairedKind, 'graphene-rpc'>, RunningSystem>();
  const out: PairedRound[] = [];
  try {
    others.set('ceiling', await startSystem('ceiling', { dataDir: o.dataDir }));
    others.set('conventional', await startSystem('conventional', { dataDir: o.dataDir }));
    // Each scenario at its own worker count. One node holds the store at a time (its lock), so the
    // scenarios of one count run their rounds on one node, then the next count's on the next.
    const byWorkers = new Map<number, Scenario[]>();
    for (const s of chosen) {
      const workers = workersFor(s);
      byWorkers.set(workers, [...(byWorkers.get(workers) ?? []), s]);
    }
    for (const [workers, group] of byWorkers) {
      const node = await startSystem('graphene-rpc', { dataDir: o.dataDir, workers, logLevel: o.nodeLogLevel, ...nodeDirOf(o) });
      try {
        // graphene-rpc as the sweep ran it: over the same pending state, when there is one.
        if (o.pendingTransactions > 0) await leavePending(node.port, o.pendingTransactions);
        const systemFor = (kind: PairedKind): RunningSystem => (kind === 'graphene-rpc' ? node : others.get(kind)!);
        /** One run of `s` on `kind`, measured again while its generator saturates; a warm-up is short, and once. */
        const run = (kind: PairedKind, s: Scenario, warmUp = false): Promise<RunResult> => {
          const sys = systemFor(kind);
          const base = kind === 'ceiling' ? specFor(s, sys.port, 0, `/bytes/${replySize[s.name]}`) : specFor(s, sys.port);
          const extra = kind === 'graphene-rpc' ? { workers } : {};
          if (warmUp) return measure(sys, s.name, { ...base, durationMs: Math.min(o.durationMs, 1000) }, o, extra);
          return measureUnsaturated(sys, s.name, base, o, extra);
        };
        for (const s of group) for (const kind of PAIRED_KINDS) await run(kind, s, true);
        for (let round = 0; round < o.pairedRounds; round++) {
          for (const s of group) {
            const order = pairedOrder(round);
            const runs = {} as Record<PairedKind, RunResult>;
            for (const kind of order) {
              log(`${s.name}, paired round ${round + 1} of ${o.pairedRounds}, on ${systemFor(kind).name}…`);
              runs[kind] = await run(kind, s);
            }
            out.push({ scenario: s.name, round: round + 1, order, runs });
          }
        }
      } finally {
        await node.stop();
      }
    }
  } finally {
    for (const sys of others.values()) await sys.stop();
  }
  // Listed by round, each round's scenarios in the order asked for.
  const at = (name: string) => chosen.findIndex((s) => s.name === name);
  return out.sort((a, b) => a.round - b.round || at(a.scenario) - at(b.scenario));
}

const spawnSessions = (spec: SessionSpec) => new Worker(new URL('./session-worker.js', import.meta.url), { workerData: spec });

function nextMessage<T>(w: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/** ws-idle: many logged-in sessions that do nothing; the figure is the node's memory per session. */
async function idle(sys: RunningSystem, o: Options): Promise<BenchReport['idle'][number]> {
  await new Promise((r) => setTimeout(r, o.settleMs));
  const rssBefore = processUsage(sys.pid).rssBytes;
  const w = spawnSessions({ mode: 'idle', url: `ws://127.0.0.1:${sys.port}/ws`, accounts: Array.from({ length: o.idleSessions }, () => '') });
  const ready = await nextMessage<{ ready: number; failed: number; error?: string }>(w);
  if (ready.error) throw new Error(ready.error);
  await new Promise((r) => setTimeout(r, 2 * o.settleMs));
  const rssAfter = processUsage(sys.pid).rssBytes;
  w.postMessage('close');
  await nextMessage(w);
  await w.terminate();
  return {
    system: sys.name,
    sessions: ready.ready,
    bytesPerSession: Math.round((rssAfter - rssBefore) / Math.max(1, ready.ready)),
    rssBeforeMiB: Math.round(rssBefore / 1024 / 1024),
    rssAfterMiB: Math.round(rssAfter / 1024 / 1024),
  };
}

/**
 * ws-deposits: thousands of sessions each subscribed to one account; nathan sends transfers to those
 * accounts at a fixed rate; the figure is the delay from the block's application (the node's own log
 * line, ms) to each subscriber's first notice about that block.
 */
async function deposits(o: Options, info: ChainInfo, workers: number): Promise<BenchReport['deposits']> {
  const accounts = info.users.slice(0, Math.min(o.depositSessions, info.users.length));
  const feed = await depositFeed(o, workers, accounts, (url) => [spawnSessions({ mode: 'subscribe', url, accounts })]);
  const [subscribers] = feed.sessions;
  return {
    system: feed.system,
    sessions: subscribers!.ready,
    deliveries: subscribers!.delay.totalCount,
    rate: o.depositRate,
    delayMs: percentiles(subscribers!.delay),
    nodeCpuPercent: feed.nodeCpuPercent,
    notes: `${feed.transfers}, ${feed.sessionErrors} session errors; delay from the node's "produced block" log time (ms) to the notice's arrival`,
    refused: feed.refused,
  };
}

/**
 * ws-exchange: an exchange watching its deposit accounts as exchanges do (reference/peers.md: poll the
 * history cursor, use subscriptions as a wake-up): N pollers, each asking the newest history of its M
 * accounts once per block interval, and a watcher subscribed to the same accounts; nathan pays
 * deposits into them at a fixed rate. The figures: the pollers' calls/s and latency, and the freshness
 * of each deposit when first seen (from the block's application in the node's log), by poller and by
 * watcher.
 */
async function exchange(o: Options, info: ChainInfo, workers: number): Promise<BenchReport['exchange']> {
  const accounts = info.users.slice(0, Math.min(o.exchangeClients * o.exchangeAccounts, info.users.length));
  const groups = (size: number) => Array.from({ length: Math.ceil(accounts.length / size) }, (_, i) => accounts.slice(i * size, (i + 1) * size));
  const feed = await depositFeed(o, workers, accounts, (url) => [
    spawnSessions({ mode: 'poll', url, accounts: [], groups: groups(o.exchangeAccounts), pollMs: 1000, pollLimit: 10 }),
    // one get_full_accounts subscribes at most api_limit_get_full_accounts (50) accounts
    spawnSessions({ mode: 'watch', url, accounts: [], groups: groups(50) }),
  ]);
  const [pollers, watchers] = feed.sessions;
  const poll = pollers!.poll!;
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
  for (const us of poll.latenciesUs) h.recordValue(Math.max(1, us));
  return {
    system: feed.system,
    clients: pollers!.ready,
    accountsPerClient: o.exchangeAccounts,
    watcherSessions: watchers!.ready,
    rate: o.depositRate,
    pollCalls: poll.calls,
    pollCallsPerSecond: Math.round(poll.calls / Math.max(0.001, poll.elapsedMs / 1000)),
    pollErrors: poll.errors,
    pollLatencyMs: percentiles(h),
    pollerFreshnessMs: percentiles(pollers!.delay),
    watcherFreshnessMs: percentiles(watchers!.delay),
    nodeCpuPercent: feed.nodeCpuPercent,
    refused: feed.refused,
    notes: `${feed.transfers}, ${feed.sessionErrors} session errors; freshness from the node's "produced block" log time (ms) to the deposit's first sighting`,
  };
}

interface FeedSessions {
  ready: number;
  /** ms from each block's application to a session's first sighting of it */
  delay: hdr.Histogram;
  poll?: PollStats;
}

/** A JSON-RPC call over HTTP; a reply without a result throws with the node's answer. */
async function rpcPost(port: number, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}/rpc`, { method: 'POST', body: JSON.stringify({ id: 1, method, params }) });
  const text = await res.text();
  const reply = JSON.parse(text) as { result?: unknown };
  if (reply.result === undefined) throw new Error(`${method === 'call' ? String(params[1]) : method} answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  return reply.result;
}

/**
 * Broadcasts `count` transfers of nathan's (the development key's account) to the chain's accounts,
 * each a transaction of its own, and leaves them pending: the bench's nodes produce blocks only on
 * demand. Every one must be accepted (the pending state then holds `count` transactions), so a
 * refusal stops the bench. They expire an hour after the head block's time: a generated chain's head
 * may be far in the past, and the expiration is checked against it.
 */
export async function leavePending(port: number, count: number): Promise<number> {
  const key = privateKeyFromWif(DEV_BLOCK_SIGNING_WIF);
  const chainId = (await rpcPost(port, 'get_chain_id', [])) as string;
  const gp = (await rpcPost(port, 'get_global_properties', [])) as { parameters: { current_fees: FeeSchedule } };
  const dgp = await rpcPost(port, 'get_dynamic_global_properties', []);
  const accounts = (await rpcPost(port, 'get_account_count', [])) as number;
  for (let i = 0; i < count; i++) {
    // distinct amounts make distinct transactions; recipients past the committee's special accounts
    const to = `1.2.${17 + (i % Math.max(1, accounts - 17))}`;
    const trx = buildTransaction(headOf(dgp), [transferOp('1.2.6', to, 1 + i)], { expiration: parseFcTime(dgp.time) + 3600, fees: gp.parameters.current_fees });
    await rpcPost(port, 'call', ['network_broadcast', 'broadcast_transaction', [signTransaction(chainId, trx, [key])]]);
  }
  // Accepted and in no block: still pending while the runs measure.
  const after = await rpcPost(port, 'get_dynamic_global_properties', []);
  if (after.head_block_number !== dgp.head_block_number) throw new Error(`a block was produced while transactions were left pending (head ${dgp.head_block_number} → ${after.head_block_number})`);
  return count;
}

/**
 * The deposit feed both scenarios share: a devnet node making a block every second, the session
 * workers `spawn` starts (each reporting when it first saw each block), and nathan's transfers into
 * `accounts` at --deposit-rate for --deposit-seconds, broadcast over HTTP.
 */
async function depositFeed(
  o: Options,
  workers: number,
  accounts: readonly string[],
  spawn: (url: string) => Worker[],
): Promise<{ system: string; sessions: FeedSessions[]; nodeCpuPercent: number; transfers: string; refused: number; sessionErrors: number }> {
  const sys = await startSystem('graphene-rpc', { dataDir: o.dataDir, workers, blockInterval: 1, ...nodeDirOf(o) });
  const startedAt = Math.floor(Date.now() / 1000);
  try {
    const url = `http://127.0.0.1:${sys.port}/rpc`;
    // A refused call stops the scenario with the node's reply, not with a TypeError about `result`.
    const post = async (body: { id: number; method: string; params: unknown[] }) => {
      const res = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
      const text = await res.text();
      let reply: { result?: any; error?: any };
      try {
        reply = JSON.parse(text);
      } catch {
        reply = {};
      }
      if (reply.result === undefined && !(body.params[0] === 'network_broadcast' && reply.error)) throw new Error(`deposits: ${body.method === 'call' ? String(body.params[1]) : body.method} answered HTTP ${res.status}: ${text.slice(0, 300)}`);
      return reply;
    };
    // Until the devnet's first block the head may be a generated chain's, far in the past; the node
    // would refuse transfers that expire a minute from now as too far after the head block time.
    while (parseFcTime((await post({ id: 1, method: 'get_dynamic_global_properties', params: [] })).result.time) < startedAt) await new Promise((r) => setTimeout(r, 100));
    const ws = spawn(`ws://127.0.0.1:${sys.port}/ws`);
    // listening to every worker at once: a message no listener hears is lost
    const ready = await Promise.all(ws.map((w) => nextMessage<{ ready: number; failed: number; error?: string }>(w)));
    for (const r of ready) if (r.error) throw new Error(r.error);
    const cpu0 = processUsage(sys.pid);
    const t0 = Date.now();
    const key = privateKeyFromWif(DEV_BLOCK_SIGNING_WIF);
    const chainId = (await post({ id: 1, method: 'get_chain_id', params: [] })).result as string;
    const gp = (await post({ id: 1, method: 'get_global_properties', params: [] })).result as { parameters: { current_fees: FeeSchedule } };
    // in calls of at most --max-ids-per-call's default (1,000) names, as any client must
    const ids = new Map<string, string | undefined>();
    for (let i = 0; i < accounts.length; i += 1000) {
      const names = accounts.slice(i, i + 1000);
      const found = (await post({ id: 1, method: 'lookup_account_names', params: [names] })).result as ({ id: string } | null)[];
      found.forEach((a, j) => ids.set(names[j]!, a?.id));
    }
    let sent = 0;
    let refused = 0;
    /** the node's refusals by message, for the report: a refused transfer is a deposit never seen */
    const refusals = new Map<string, number>();
    const interval = 1000 / o.depositRate;
    const end = t0 + o.depositSeconds * 1000;
    let nextAt = t0;
    while (Date.now() < end) {
      const dgp = (await post({ id: 1, method: 'get_dynamic_global_properties', params: [] })).result;
      const to = ids.get(accounts[sent % accounts.length]!);
      const trx = buildTransaction(headOf(dgp), [transferOp('1.2.6', String(to), 1 + sent)], {
        expiration: Math.max(parseFcTime(dgp.time), Math.floor(Date.now() / 1000)) + 60,
        fees: gp.parameters.current_fees,
      });
      const r = await post({ id: 1, method: 'call', params: ['network_broadcast', 'broadcast_transaction', [signTransaction(chainId, trx, [key])]] });
      if (r.error) {
        refused++;
        const why = String((r.error as { message?: unknown }).message ?? 'no message').slice(0, 160);
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
      }
      sent++;
      nextAt += interval;
      const wait = nextAt - Date.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
    // The last transfers' block, and its notices (and the pollers' next round).
    await new Promise((r) => setTimeout(r, Math.max(2.5 * o.settleMs, 1500)));
    const cpu1 = processUsage(sys.pid);
    const done: { arrivals: Arrival[]; failed: number; poll?: PollStats }[] = [];
    for (const w of ws) {
      w.postMessage('close');
      done.push(await nextMessage<{ arrivals: Arrival[]; failed: number; poll?: PollStats }>(w));
      await w.terminate();
    }
    // When each block was applied, from the node's log.
    const applied = new Map<number, number>();
    for (const line of sys.lines) {
      if (!line.includes('produced block')) continue;
      try {
        const j = JSON.parse(line) as { block: number; time: number };
        applied.set(j.block, j.time);
      } catch {
        /* not a log line */
      }
    }
    const sessions = done.map((d, i) => {
      const delay = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
      for (const [block, at] of d.arrivals) {
        const t = applied.get(block);
        if (t !== undefined) delay.recordValue(Math.max(1, Math.round((at - t) * 1000)));
      }
      return { ready: ready[i]!.ready, delay, ...(d.poll ? { poll: d.poll } : {}) };
    });
    return {
      system: sys.name,
      sessions,
      nodeCpuPercent: Math.round(((cpu1.cpuSeconds - cpu0.cpuSeconds) / ((Date.now() - t0) / 1000)) * 100),
      transfers: `${sent} transfers broadcast (${refused} refused${refused > 0 ? `: ${[...refusals].map(([why, n]) => `${n}× "${why}"`).join('; ')}` : ''})`,
      refused,
      sessionErrors: ready.reduce((n, r) => n + r.failed, 0) + done.reduce((n, d) => n + d.failed, 0),
    };
  } finally {
    await sys.stop();
  }
}

export async function runBench(argv: string[]): Promise<BenchReport> {
  const o = parseOptions(argv);
  const startedAt = new Date();
  if (!existsSync(path.join(o.dataDir, 'chain'))) {
    log(`generating ${o.dataDir} (${o.accounts} accounts, ${o.operations} transfers, ${o.orders} limit orders)…`);
    log(await runGenerate({ dataDir: o.dataDir, accounts: o.accounts, operations: o.operations, orders: o.orders, seed: 1, progress: !o.quick }));
  }
  // A chain made by an older version gets its indexes now: the systems under test open it read-only.
  if (o.nodeDir && !existsSync(path.join(o.nodeDir, 'dist/src/cli.js'))) throw new Error(`--node-dir: ${o.nodeDir} has no dist/src/cli.js (build that checkout first)`);
  if (await upgradeDataDir(o.dataDir)) log(`upgraded ${o.dataDir} to the current store schema`);
  const info = chainInfo(o.dataDir);
  const storeWarmup = warmPageCache(path.join(o.dataDir, 'chain'), os.totalmem() / 2);
  log(storeWarmupLine(storeWarmup).trim());
  if (o.scenarios.has('ws-market') && info.markets.length === 0) {
    // Refused before anything runs: polling empty books would measure nothing a bot sees.
    throw new Error(
      `ws-market: the chain in ${o.dataDir} has no open limit orders (it was generated before the bench made markets, or with --orders 0). ` +
        `Remove that directory to have it generated again, give another --data-dir, or leave ws-market out of --scenarios.`,
    );
  }
  const report: BenchReport = {
    started: startedAt.toISOString(),
    quick: o.quick,
    machine: { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 1024 ** 3), node: process.version },
    chain: { dataDir: o.dataDir, accounts: info.accounts, operations: info.operations, busiestAccountOps: info.busiestOps, openOrders: info.markets.reduce((n, m) => n + m.orders[0] + m.orders[1], 0), generatedPerSecond: info.generatedPerSecond },
    storeWarmup,
    settings: {
      scenarios: [...o.scenarios],
      workersSweep: o.workersSweep,
      processesSweep: o.processesSweep,
      threadsSweep: o.threadsSweep,
      durationMs: o.durationMs,
      maxConnections: Number.isFinite(o.maxConnections) ? o.maxConnections : undefined,
      openLoopShares: o.openLoopShares,
      generators: o.generators,
      p99TargetMs: o.p99TargetMs,
      settleMs: o.settleMs,
      nodeDir: o.nodeDir,
      attackMs: o.attackMs,
      scrapeMs: o.scrapeMs,
      nodeLogLevel: o.nodeLogLevel,
      pendingTransactions: o.pendingTransactions,
      pairedRounds: o.pairedRounds,
    },
    runs: [],
    idle: [],
  };
  const list = scenarios(info, o).filter((s) => o.scenarios.has(s.name));
  const plan = planRun({ ...o, autoFrontEnds: autoFrontEnds(usableCpus()) });
  report.plan = { runs: plan.runs, seconds: Math.round(plan.seconds), parts: plan.parts.map((x) => ({ ...x, seconds: Math.round(x.seconds * 10) / 10 })) };
  log(planLine(plan, o.durationMs));
  const runStarted = performance.now();
  const specFor = (s: Scenario, port: number, rate = 0, urlPath = s.transport === 'http' ? '/rpc' : '/ws'): LoadSpec => ({
    transport: s.transport,
    url: `${s.transport}://127.0.0.1:${port}${urlPath}`,
    connections: Math.min(s.connections, o.maxConnections),
    inflight: s.inflight,
    rate,
    durationMs: o.durationMs,
    maxRequests: 2_000_000,
    kinds: s.kinds,
  });

  // graphene-rpc at each worker count (closed loop), and the reply sizes the ceiling imitates.
  const replySize: Record<string, number> = {};
  for (const workers of o.workersSweep) {
    const sys = await startSystem('graphene-rpc', { dataDir: o.dataDir, workers, logLevel: o.nodeLogLevel, ...nodeDirOf(o) });
    try {
      if (o.pendingTransactions > 0) {
        log(`broadcasting ${o.pendingTransactions} transfers to leave pending on ${sys.name}…`);
        report.pendingLeft = await leavePending(sys.port, o.pendingTransactions);
      }
      for (const s of list) {
        if (s.name === 'ws-market' && report.market === undefined) {
          const sampled = await sampleMarkets(sys.port, info, o.marketDepth, sys.name);
          report.market = { depth: o.marketDepth, connections: specFor(s, sys.port).connections, ...sampled };
          // Books and tickers differ in size; the ceiling answers with their mean.
          replySize[s.name] = sampled.meanReplyBytes;
        }
        if (replySize[s.name] === undefined) {
          const sample = await fetch(`http://127.0.0.1:${sys.port}/rpc`, { method: 'POST', body: s.kinds[0]!.bodies[0] });
          replySize[s.name] = (await sample.arrayBuffer()).byteLength;
        }
        log(`${s.name} on ${sys.name}…`);
        report.runs.push(await measure(sys, s.name, specFor(s, sys.port), o, { workers }));
      }
    } finally {
      await sys.stop();
    }
  }
  // graphene-rpc with several front ends, serving processes then serving threads in one process, at
  // the same worker counts (per front end), closed loop.
  const frontEndSweeps = [
    ...o.processesSweep.map((processes) => ({ kind: 'graphene-rpc-processes' as const, fronts: { processes } })),
    ...o.threadsSweep.map((servingThreads) => ({ kind: 'graphene-rpc-threads' as const, fronts: { servingThreads } })),
  ];
  for (const { kind, fronts } of frontEndSweeps) {
    for (const workers of o.workersSweep) {
      const sys = await startSystem(kind, { dataDir: o.dataDir, workers, ...fronts, logLevel: o.nodeLogLevel, ...nodeDirOf(o) });
      try {
        if (o.pendingTransactions > 0) await leavePending(sys.port, o.pendingTransactions);
        for (const s of list) {
          if (s.name === 'ws-idle' || s.name === 'ws-deposits' || s.name === 'ws-exchange' || s.name.startsWith('adv-')) continue;
          log(`${s.name} on ${sys.name}…`);
          report.runs.push(await measure(sys, s.name, specFor(s, sys.port), o, { workers, ...fronts }));
        }
      } finally {
        await sys.stop();
      }
    }
  }
  // The node as it sizes itself (--processes auto, --workers auto: the defaults), the configuration an
  // operator who sets neither gets; the report weighs it against the sweep's best.
  if (o.autoRun) {
    const cpus = usableCpus();
    const processes = autoFrontEnds(cpus);
    const workers = autoWorkers(cpus, processes);
    const sys = await startSystem('graphene-rpc-processes', { dataDir: o.dataDir, workers, processes, auto: true, logLevel: o.nodeLogLevel, ...nodeDirOf(o) });
    try {
      if (o.pendingTransactions > 0) await leavePending(sys.port, o.pendingTransactions);
      for (const s of list) {
        if (s.name === 'ws-idle' || s.name === 'ws-deposits' || s.name === 'ws-exchange' || s.name.startsWith('adv-')) continue;
        log(`${s.name} on ${sys.name}…`);
        report.runs.push(await measure(sys, s.name, specFor(s, sys.port), o, { workers, processes, auto: true }));
      }
    } finally {
      await sys.stop();
    }
  }
  // The best worker count for small calls over WebSocket (or for whatever ran); its open-loop runs
  // give the capacity advice.
  const swept = report.runs.filter((r) => r.kind === 'graphene-rpc');
  const advice = adviseWorkers(swept);
  const best = advice ? swept.find((r) => r.workers === advice.workers) : undefined;
  const bestWorkers = advice?.workers ?? o.workersSweep[0]!;
  const openLoop = list.filter((s) => s.name === 'ws-small' || s.name === 'ws-mixed');
  let capacityCheck: NonNullable<BenchReport['capacity']>['check'];
  if (openLoop.length > 0) {
    const sys = await startSystem('graphene-rpc', { dataDir: o.dataDir, workers: bestWorkers, logLevel: o.nodeLogLevel, ...nodeDirOf(o) });
    try {
      for (const s of openLoop) {
        const max = report.runs.find((r) => r.scenario === s.name && r.workers === bestWorkers)!.throughput;
        const at = async (rate: number): Promise<RunResult> => {
          log(`${s.name} open loop at ${rate}/s on ${sys.name}…`);
          const run = await measure(sys, s.name, specFor(s, sys.port, rate), o, { workers: bestWorkers });
          report.runs.push(run);
          return run;
        };
        const rates = o.openLoopShares.map((share) => Math.max(MIN_OPEN_LOOP_RATE, Math.round(max * share)));
        // A warm-up at the lowest rate, not recorded: the first open-loop run after a restart pays for
        // the JIT and the first connections, and would make the lowest rate look worse than it is.
        await measure(sys, s.name, specFor(s, sys.port, Math.min(...rates)), o, { workers: bestWorkers });
        const runs: RunResult[] = [];
        for (const rate of rates) runs.push(await at(rate));
        if (s.name === 'ws-small') {
          const meets = (r: RunResult): boolean => r.errors === 0 && (r.latency.small?.p99 ?? Infinity) <= o.p99TargetMs;
          await searchCapacity(runs, at, meets);
          // The advised rate, run again on its own (not added to the runs the search chose from).
          const good = runs.filter(meets).sort((a, b) => b.offeredRate! - a.offeredRate!)[0];
          if (good) {
            log(`${s.name} open loop at the advised ${good.offeredRate}/s again, to check it…`);
            const again = await measure(sys, s.name, specFor(s, sys.port, good.offeredRate), o, { workers: bestWorkers });
            capacityCheck = {
              rate: good.offeredRate!,
              throughput: again.throughput,
              p99Ms: again.latency.small?.p99 ?? NaN,
              errors: again.errors,
              met: meets(again),
              ...(again.generatorLateness ? { generatorLatenessP99Ms: again.generatorLateness.p99 } : {}),
            };
          }
        }
      }
    } finally {
      await sys.stop();
    }
  }
  // The conventional stack and the ceiling, closed loop.
  if (list.length > 0) {
    const sys = await startSystem('conventional', { dataDir: o.dataDir });
    try {
      // The same check of real books: the conventional stack must not be measured answering errors.
      if (list.some((s) => s.name === 'ws-market')) await sampleMarkets(sys.port, info, o.marketDepth, sys.name);
      for (const s of list) {
        log(`${s.name} on ${sys.name}…`);
        report.runs.push(await measure(sys, s.name, specFor(s, sys.port), o));
      }
    } finally {
      await sys.stop();
    }
  }
  // The same server in cluster mode: one process per core, the multi-core peer.
  if (list.length > 0 && o.clusterProcesses > 1) {
    const sys = await startSystem('conventional-cluster', { dataDir: o.dataDir, processes: o.clusterProcesses });
    try {
      for (const s of list) {
        log(`${s.name} on ${sys.name}…`);
        report.runs.push(await measure(sys, s.name, specFor(s, sys.port), o));
      }
    } finally {
      await sys.stop();
    }
  }
  if (o.scalingCheck) report.scalingCheck = await scalingCheck(o, list.filter((s) => s.name === 'ws-small' || s.name === 'ws-history'), specFor, bestWorkers, report.runs);
  // The ceiling: one process, each scenario on the path that gives replies of graphene-rpc's size.
  if (list.length > 0) {
    const sys = await startSystem('ceiling', { dataDir: o.dataDir });
    try {
      for (const s of list) {
        log(`${s.name} on ${sys.name} (${replySize[s.name]}-byte replies)…`);
        report.runs.push(await measureUnsaturated(sys, s.name, specFor(s, sys.port, 0, `/bytes/${replySize[s.name]}`), o));
      }
    } finally {
      await sys.stop();
    }
  }  // The wire limit of the machine's cores: the ceiling in as many processes as the conventional
  // cluster has, on one port. Only the throughput scenarios: it bounds what any number of front ends
  // could carry here.
  if (list.length > 0 && o.clusterProcesses > 1) {
    const sys = await startSystem('ceiling-cluster', { dataDir: o.dataDir, processes: o.clusterProcesses });
    try {
      for (const s of list.filter((x) => PAIRED_SCENARIOS.includes(x.name))) {
        log(`${s.name} on ${sys.name} (${replySize[s.name]}-byte replies)…`);
        report.runs.push(await measureUnsaturated(sys, s.name, specFor(s, sys.port, 0, `/bytes/${replySize[s.name]}`), o));
      }
    } finally {
      await sys.stop();
    }
  }

  const paired = list.filter((s) => PAIRED_SCENARIOS.includes(s.name));
  // Each scenario at the worker count of its own best one-process run (the run the goals' "sweep"
  // figure takes), not the count best over all scenarios: on 2 CPUs that count has been 1 in some
  // runs, and at 1 worker ws-history made 27% fewer calls/s than at its best (full run of 11-29).
  const pairedWorkers = (s: Scenario) => bestGraphene(report, s.name)?.workers ?? bestWorkers;
  if (o.pairedRounds > 0 && paired.length > 0) report.pairedRounds = await pairedRounds(o, paired, specFor, pairedWorkers, replySize);
  // ws-idle on fresh processes, so that what earlier runs left in the heap does not blur the figure.
  const idleOn = o.scenarios.has('ws-idle') ? ([['graphene-rpc', bestWorkers], ['conventional', 1]] as const) : [];
  for (const [kind, workers] of idleOn) {
    const sys = await startSystem(kind, { dataDir: o.dataDir, workers, ...(kind === 'graphene-rpc' ? nodeDirOf(o) : {}) });
    try {
      log(`ws-idle with ${o.idleSessions} sessions on ${sys.name}…`);
      report.idle.push(await idle(sys, o));
    } finally {
      await sys.stop();
    }
  }
  if (o.scenarios.has('ws-deposits')) {
    log(`ws-deposits with ${o.depositSessions} subscribed sessions…`);
    report.deposits = await deposits(o, info, bestWorkers);
  }
  if (o.scenarios.has('ws-exchange')) {
    log(`ws-exchange: ${o.exchangeClients} pollers of ${o.exchangeAccounts} deposit accounts each, and a watcher…`);
    report.exchange = await exchange(o, info, bestWorkers);
  }
  const adversarial = new Set(ADVERSARIAL_SCENARIOS.filter((s) => o.scenarios.has(s)));
  if (adversarial.size > 0) {
    report.adversarial = await runAdversarial(
      {
        dataDir: o.dataDir,
        // The best worker count of this run; without a sweep, the one asked for, else 2.
        workers: best?.workers ?? (o.workersGiven ? o.workersSweep[0]! : 2),
        ...nodeDirOf(o),
        scenarios: adversarial as ReadonlySet<AdversarialName>,
        durationMs: o.attackMs,
        size: o.tiny ? 'tiny' : o.quick ? 'quick' : 'full',
        rssBudgetMiB: o.rssBudgetMiB,
        ...(o.attackCall === undefined ? {} : { attackCall: o.attackCall }),
        clientPriorities: o.clientPriorities,
        settleMs: o.settleMs,
        log,
      },
      info,
    );
  }

  // Capacity: the highest offered rate whose p99 met the target, at the best worker count (the
  // search above tried rates down to MIN_OPEN_LOOP_RATE before saying none does).
  if (o.scenarios.has('ws-small')) {
    const open = report.runs.filter((r) => r.scenario === 'ws-small' && r.loop === 'open' && r.errors === 0);
    const ok = open.filter((r) => (r.latency.small?.p99 ?? Infinity) <= o.p99TargetMs).sort((a, b) => b.throughput - a.throughput)[0];
    report.capacity = {
      scenario: 'ws-small',
      p99TargetMs: o.p99TargetMs,
      recommendedWorkers: bestWorkers,
      ...(advice ? { workerScores: advice.scores } : {}),
      sustainableRate: ok?.throughput ?? 0,
      ...(capacityCheck ? { check: capacityCheck } : {}),
      note: ok
        ? `open-loop runs at ${open.map((r) => r.offeredRate!).sort((a, b) => a - b).join(', ')} calls/s; the highest whose p99 stayed within ${o.p99TargetMs} ms`
        : `no open-loop rate kept p99 within ${o.p99TargetMs} ms: tried ${open.map((r) => r.offeredRate!).sort((a, b) => a - b).join(', ')} calls/s, down to ${Math.min(...open.map((r) => r.offeredRate!))}`,
    };
  }

  report.elapsedS = Math.round((performance.now() - runStarted) / 1000);
  log(`the run took ${minutes(report.elapsedS)} (estimated ${minutes(plan.seconds)})`);
  mkdirSync(o.out, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const jsonFile = path.join(o.out, `bench-${stamp}.json`);
  writeFileSync(jsonFile, JSON.stringify(report, null, 2));
  const md = await writeReport(report, o.out, stamp);
  printTable(report);
  log(`wrote ${jsonFile}\nwrote ${md}`);
  return report;
}

function printTable(r: BenchReport): void {
  const rows = r.runs.map((x) => ({
    scenario: x.scenario,
    system: x.system,
    loop: x.loop + (x.offeredRate ? ` @${x.offeredRate}/s` : ''),
    'calls/s': x.throughput,
    'p50 ms': Object.values(x.latency)[0]?.p50,
    'p99 ms': x.latency.small?.p99 ?? Object.values(x.latency)[0]?.p99,
    'gen late p99 ms': x.generatorLateness?.p99 ?? '-',
    errors: x.errors,
    'node cpu %': x.nodeCpuPercent,
    'node rss MiB': x.nodeRssMiB,
    'gen util': x.generatorUtilisation,
  }));
  if (rows.length > 0) console.table(rows);
  if (r.market) console.log(`ws-market: ${r.market.books.map((b) => `${b.base}/${b.quote} ${b.bids} bids ${b.asks} asks`).join(', ')} (depth ${r.market.depth})`);
  if (r.exchange) console.log(`ws-exchange: ${r.exchange.clients} pollers, ${r.exchange.pollCallsPerSecond} calls/s, p99 ${r.exchange.pollLatencyMs.p99} ms; freshness p99: pollers ${r.exchange.pollerFreshnessMs.p99} ms, watcher ${r.exchange.watcherFreshnessMs.p99} ms`);
  if (r.deposits) console.log(`ws-deposits: ${r.deposits.sessions} sessions, ${r.deposits.deliveries} notices, delay p50 ${r.deposits.delayMs.p50} ms, p99 ${r.deposits.delayMs.p99} ms`);
  for (const i of r.idle) console.log(`ws-idle: ${i.system}: ${i.sessions} sessions, ${(i.bytesPerSession / 1024).toFixed(1)} KiB per session`);
  if (r.adversarial) printAdversarial(r.adversarial);
  if (r.capacity) console.log(`capacity: ${r.capacity.recommendedWorkers} workers; ${r.capacity.sustainableRate} calls/s of ${r.capacity.scenario} within p99 ${r.capacity.p99TargetMs} ms`);
}
