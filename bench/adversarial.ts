// The adversarial scenarios of `bench` (issue 12): a well-behaved prober — one WebSocket connection
// asking for one account every 100 ms, open loop — measured idle, then next to each attack:
//   adv-expensive   connections keeping one call in flight, cycling the three most expensive legal calls
//   adv-pipelined   connections pipelining 99 such calls each
//   adv-flood       a flood of cheap-but-nonzero calls (lookup_accounts("", 1000))
//   adv-nonreaders  clients that ask for large replies and never read (while the prober measures)
// Each phase runs on a fresh node at its own defaults (no benchmark-lifted limits), so that what one
// attack left queued does not blur the next (--tiny, a smoke test, runs them all on one node). The figures: the prober's latency against its idle
// latency, what the attackers got, and the node's peak RSS.
import { fork } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import http from 'node:http';
import hdr from 'hdr-histogram-js';
import { processRss, processUsage, serveOptions, startSystem, type RunningSystem } from './systems.js';
import type { AttackOutcome, AttackSpec } from './attack-worker.js';
import type { AdversarialReport, AttackRun, CallCost, Percentiles, ProberResult } from './results.js';
import { attackersLine } from './report.js';
import { ADVERSARIAL_SCENARIOS, type AdversarialName } from './options.js';

export { ADVERSARIAL_SCENARIOS, type AdversarialName };

/** The targets of issue 12 on the project's 2-core machine. */
export const TARGETS = { proberP99Ms: 25, ratioToIdle: 10, rssBudgetMiB: 1024 };

export interface AdversarialOptions {
  readonly dataDir: string;
  readonly workers: number;
  readonly nodeDir?: string;
  readonly scenarios: ReadonlySet<AdversarialName>;
  /** how long the prober measures, idle and under each attack */
  readonly durationMs: number;
  readonly size: 'full' | 'quick' | 'tiny';
  readonly rssBudgetMiB: number;
  /** the method of the candidate the expensive and pipelined attacks use, instead of the slowest */
  readonly attackCall?: string;
  /** the attackers at ATTACKERS_NICE and the prober's thread at PROBER_NICE (false: all at the node's priority) */
  readonly clientPriorities: boolean;
  readonly settleMs: number;
  readonly log: (s: string) => void;
}

export interface ChainSample {
  readonly busiest: string;
  readonly busiestOps: number;
  readonly users: readonly string[];
  readonly accounts: number;
}

const PROBE_INTERVAL_MS = 100;
/** how long the prober waits for its last replies before counting them at their age */
const PROBE_GRACE_MS = 2000;

function percentiles(h: hdr.Histogram): Percentiles {
  const ms = (us: number) => Math.round(us) / 1000;
  return { p50: ms(h.getValueAtPercentile(50)), p90: ms(h.getValueAtPercentile(90)), p99: ms(h.getValueAtPercentile(99)), p999: ms(h.getValueAtPercentile(99.9)), max: ms(h.maxValue), count: h.totalCount };
}

const connect = (url: string): Promise<WebSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

/**
 * The HTTP prober's client address: another loopback address than the attackers' (127.0.0.1), as
 * a neighbour on another machine would be. Linux answers every 127/8 address; where binding it
 * fails, the prober falls back to the attackers' own address and the report says so.
 */
const HTTP_PROBER_ADDRESS = '127.0.0.2';

/**
 * The clients' priorities. On a real server the neighbour and the attackers are other machines:
 * their own CPU time is not the node's. On one host they compete with the node for its CPUs, and
 * on two CPUs the prober's own thread lagged 20 to 35 ms behind, as long as the p99s it measured.
 * So the attackers run at the lowest priority (their every thread; lowering needs no privilege),
 * and the prober's thread above the node's while it measures, where the bench may raise it (root
 * or CAP_SYS_NICE; elsewhere it stays at 0 and the report says so). The node runs as it would alone.
 */
export const ATTACKERS_NICE = 19;
export const PROBER_NICE = -10;

/** Sets the calling thread's nice value; false where this process may not (raising needs privilege). */
function raisePriority(nice: number): boolean {
  try {
    os.setPriority(0, nice);
    return true;
  } catch {
    return false;
  }
}

/** The HTTP prober: calls at the times `sendAt` gives, over one keep-alive connection from `address`. */
function httpProber(url: string, address: string) {
  const u = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address });
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
  let errors = 0;
  const inFlight = new Set<number>();
  return {
    send(body: string, at: number) {
      const req = http.request({ host: u.hostname, port: u.port, path: '/rpc', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          if (!inFlight.delete(at)) return;
          if (res.statusCode !== 200 || text.includes('"error":')) errors++;
          h.recordValue(Math.max(1, Math.round((performance.now() - at) * 1000)));
        });
      });
      inFlight.add(at);
      req.on('error', () => {
        if (inFlight.delete(at)) errors++;
      });
      req.end(body);
    },
    async finish(graceMs: number) {
      const until = performance.now() + graceMs;
      while (inFlight.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
      const unanswered = inFlight.size;
      for (const at of inFlight) h.recordValue(Math.max(1, Math.round((performance.now() - at) * 1000)));
      agent.destroy();
      return { ...percentiles(h), errors, unanswered, address };
    },
  };
}

/** Whether this machine lets a client bind `address` (127.0.0.2 on Linux; not on every system). */
async function canBind(address: string): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(0, address, () => s.close(() => resolve(true)));
  });
}

/**
 * The prober: one call every 100 ms for `durationMs` over WebSocket, and the same call at the same
 * times over HTTP from another address, latency counted from the scheduled send time (so a stalled
 * node cannot hide its queueing); replies not back within the grace count at their age.
 */
async function probe(url: string, users: readonly string[], durationMs: number, raise: boolean): Promise<ProberResult> {
  const n = Math.max(1, Math.floor(durationMs / PROBE_INTERVAL_MS));
  let ws: WebSocket;
  try {
    ws = await connect(url);
  } catch (err) {
    // Kept out by the attack: a failed prober, not a failed benchmark.
    process.stderr.write(`prober could not connect: ${err instanceof Error ? err.message : String(err)}\n`);
    return { p50: 0, p90: 0, p99: 0, p999: 0, max: 0, count: 0, errors: 0, unanswered: n, closed: true, sendLagMaxMs: 0, clientLoopDelayMaxMs: 0, proberNice: 0 };
  }
  const body = (i: number) => JSON.stringify({ id: i, method: 'get_accounts', params: [[users[i % users.length]]] });
  // Warm-up, not recorded: the connection's first calls and the node's first compilations.
  for (let i = 0; i < 5; i++) {
    await new Promise<void>((resolve) => {
      ws.once('message', () => resolve());
      ws.send(body(i));
    });
  }
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
  const scheduled = new Map<number, number>();
  let errors = 0;
  let closed = false;
  ws.on('message', (data) => {
    const text = data.toString();
    const id = Number(/"id":(\d+)/.exec(text)?.[1]);
    const at = scheduled.get(id);
    if (at === undefined) return;
    scheduled.delete(id);
    if (text.includes('"error":')) errors++;
    h.recordValue(Math.max(1, Math.round((performance.now() - at) * 1000)));
  });
  ws.on('close', () => (closed = true));
  ws.on('error', () => (closed = true));
  // The client's own delays, to tell a slow node from a starved prober on a shared machine.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const raised = raise && raisePriority(PROBER_NICE);
  const overHttp = httpProber(url, (await canBind(HTTP_PROBER_ADDRESS)) ? HTTP_PROBER_ADDRESS : '127.0.0.1');
  let sendLagMax = 0;
  const t0 = performance.now();
  for (let i = 0; i < n && !closed; i++) {
    const at = t0 + i * PROBE_INTERVAL_MS;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // From the scheduled time, or from the send when a timer fired a little early.
    const now = performance.now();
    scheduled.set(1000 + i, Math.min(at, now));
    sendLagMax = Math.max(sendLagMax, now - at);
    ws.send(body(1000 + i));
    overHttp.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'get_accounts', params: [[users[i % users.length]]] }), Math.min(at, now));
  }
  const until = performance.now() + PROBE_GRACE_MS;
  while (scheduled.size > 0 && !closed && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
  const unanswered = scheduled.size;
  for (const at of scheduled.values()) h.recordValue(Math.max(1, Math.round((performance.now() - at) * 1000)));
  const httpResult = await overHttp.finish(Math.max(0, until - performance.now()));
  loop.disable();
  if (raised) os.setPriority(0, 0);
  ws.terminate();
  const round = (x: number) => Math.round(x * 100) / 100;
  return { ...percentiles(h), errors, unanswered, closed, sendLagMaxMs: round(sendLagMax), clientLoopDelayMaxMs: round(loop.max / 1e6), proberNice: raised ? PROBER_NICE : 0, http: httpResult };
}

/** One call, timed, on its own connection: its median time over a few runs and its reply size. */
async function cost(url: string, label: string, body: string, runs: number): Promise<CallCost> {
  const ws = await connect(url);
  try {
    const times: number[] = [];
    let bytes = 0;
    let error: string | undefined;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const text = await new Promise<string>((resolve) => {
        ws.once('message', (d) => resolve(d.toString()));
        ws.send(body);
      });
      times.push(performance.now() - t);
      bytes = Buffer.byteLength(text);
      if (text.length < 65_536 && /"error":\{/.test(text)) error = /"message":"([^"]*)"/.exec(text)?.[1] ?? 'error';
    }
    times.sort((a, b) => a - b);
    return { label, body, medianMs: Math.round(times[Math.floor(times.length / 2)]! * 100) / 100, replyBytes: bytes, ...(error ? { error } : {}) };
  } finally {
    ws.terminate();
  }
}

/**
 * Operations of the transaction get_transaction_hex is asked to pack: as many transfers as fit a
 * request under the node's default --max-request-bytes (1 MiB), about 130 bytes each.
 */
export const HEX_OPERATIONS = 6500;

/**
 * The candidate "most expensive legal calls" under the node's defaults: wide but legal arguments for
 * the read sets' costly methods, and calls that look light by their arguments' shape but are not (a
 * range of 99 blocks, the most the cost model calls light, over the chain's first and fullest
 * blocks; one transaction of thousands of operations to pack).
 */
function candidates(c: ChainSample): { label: string; body: string }[] {
  const ids = Array.from({ length: 1000 }, (_, i) => `1.2.${i % Math.max(1, c.accounts)}`);
  const names = Array.from({ length: 50 }, (_, i) => c.users[(i * 37) % c.users.length]!);
  const start = Math.max(1, c.busiestOps - 50);
  const op = [0, { fee: { amount: 100, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.7', amount: { amount: 1, asset_id: '1.3.0' }, extensions: [] }];
  const trx = { ref_block_num: 0, ref_block_prefix: 0, expiration: '2030-01-01T00:00:00', operations: Array.from({ length: HEX_OPERATIONS }, () => op), extensions: [], signatures: [] };
  return [
    { label: 'get_blocks(1, 100)', body: JSON.stringify({ id: 1, method: 'call', params: ['block', 'get_blocks', [1, 100]] }) },
    { label: `get_transaction_hex(${HEX_OPERATIONS} operations)`, body: JSON.stringify({ id: 1, method: 'get_transaction_hex', params: [trx] }) },
    { label: 'get_accounts(1000 ids)', body: JSON.stringify({ id: 1, method: 'get_accounts', params: [ids] }) },
    { label: 'get_objects(1000 ids)', body: JSON.stringify({ id: 1, method: 'get_objects', params: [ids] }) },
    { label: 'get_full_accounts(50 names)', body: JSON.stringify({ id: 1, method: 'get_full_accounts', params: [names, false] }) },
    { label: 'lookup_accounts("", 1000)', body: JSON.stringify({ id: 1, method: 'lookup_accounts', params: ['', 1000] }) },
    { label: 'get_relative_account_history(busiest, 100)', body: JSON.stringify({ id: 1, method: 'call', params: ['history', 'get_relative_account_history', [c.busiest, 0, 100, start]] }) },
  ];
}

function attack(spec: AttackSpec): { ready: Promise<number>; stop: () => Promise<AttackOutcome>; kill: () => Promise<number> } {
  const child = fork(fileURLToPath(new URL('./attack-worker.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages: unknown[] = [];
  const waiters: { resolve: (m: unknown) => void; reject: (e: Error) => void }[] = [];
  let failure: Error | undefined;
  child.on('message', (m: unknown) => {
    const next = waiters.shift();
    if (next) next.resolve(m);
    else messages.push(m);
  });
  // An attacker process that ends before its outcome fails the run, whoever is waiting.
  const failed = (err: Error) => {
    failure ??= err;
    for (const x of waiters.splice(0)) x.reject(failure);
  };
  child.on('error', failed);
  child.on('exit', (code, signal) => {
    if (messages.length === 0) failed(new Error(`the attackers' process ended (${signal ?? `exit ${code}`})`));
  });
  child.send(spec);
  const next = async (): Promise<unknown> => {
    const m = messages.length > 0 ? messages.shift() : await new Promise((resolve, reject) => (failure ? reject(failure) : waiters.push({ resolve, reject })));
    if (m && typeof m === 'object' && 'failed' in m) throw new Error(`attackers failed: ${String(m.failed)}`);
    return m;
  };
  const ended = () => new Promise<number>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode ?? 1) : child.once('exit', (code) => resolve(code ?? 1))));
  return {
    ready: next().then((m) => (m as { ready: number }).ready),
    async stop() {
      child.send('stop');
      const outcome = (await next()) as AttackOutcome;
      await ended();
      return outcome;
    },
    kill: () => {
      child.kill('SIGKILL');
      return ended();
    },
  };
}

interface Plan {
  readonly name: AdversarialName;
  readonly description: string;
  readonly spec: Omit<AttackSpec, 'url' | 'hardStopMs' | 'drainMs' | 'intervalMs' | 'nice'>;
}

function plans(o: AdversarialOptions, expensive: readonly CallCost[], largest: CallCost, flood: string): Plan[] {
  const size = <T>(full: T, quick: T, tiny: T) => (o.size === 'tiny' ? tiny : o.size === 'quick' ? quick : full);
  const conns = size(4, 4, 2);
  const depth = size(99, 99, 10);
  const flooders = size(8, 8, 2);
  const floodDepth = size(50, 50, 8);
  const nonreaders = size(20, 20, 4);
  const asks = size(300, 100, 5);
  return [
    { name: 'adv-expensive', description: `${conns} connections each keeping 1 call in flight, cycling ${cycle(expensive)}`, spec: { mode: 'inflight', connections: conns, inflight: 1, bodies: expensive.map((c) => c.body), maxRequestsPerConnection: 0 } },
    { name: 'adv-pipelined', description: `${conns} connections each pipelining ${depth} calls, cycling ${cycle(expensive)}`, spec: { mode: 'inflight', connections: conns, inflight: depth, bodies: expensive.map((c) => c.body), maxRequestsPerConnection: 0 } },
    { name: 'adv-flood', description: `${flooders} connections each keeping ${floodDepth} lookup_accounts("", 1000) in flight`, spec: { mode: 'inflight', connections: flooders, inflight: floodDepth, bodies: [flood], maxRequestsPerConnection: 0 } },
    { name: 'adv-nonreaders', description: `${nonreaders} clients each sending up to ${asks} ${largest.label} (${(largest.replyBytes / 1024).toFixed(0)} KiB replies) and never reading`, spec: { mode: 'nonreader', connections: nonreaders, inflight: 0, bodies: [largest.body], maxRequestsPerConnection: asks } },
  ];
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const cycle = (calls: readonly CallCost[]) => calls.map((c) => c.label).join('; ');
/** The expensive attacks cycle this many of the slowest legal candidates. */
export const ATTACK_CALLS = 3;

/**
 * The access file the attacked node runs with: every read set granted to everyone (block_api,
 * asset_api and the rest, beyond Core's public default), so that every method an attacker could
 * time is within reach, as on a node that serves them.
 */
export const READ_SETS_ACCESS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../config/api-access.read-sets.json');

const startNode = (o: AdversarialOptions) =>
  startSystem('graphene-rpc', { dataDir: o.dataDir, workers: o.workers, nodeDefaults: true, extra: ['--api-access', READ_SETS_ACCESS], ...(o.nodeDir ? { nodeDir: o.nodeDir } : {}) });

/** Runs `f` on a fresh node, or on `shared` (--tiny: its figures mean nothing, its time counts). */
async function withNode<T>(o: AdversarialOptions, shared: RunningSystem | undefined, f: (sys: RunningSystem) => Promise<T>): Promise<T> {
  if (shared) return f(shared);
  const sys = await startNode(o);
  try {
    return await f(sys);
  } finally {
    await sys.stop();
  }
}

export async function runAdversarial(o: AdversarialOptions, chain: ChainSample): Promise<AdversarialReport> {
  const shared = o.size === 'tiny' ? await startNode(o) : undefined;
  try {
    return await phases(o, chain, shared);
  } finally {
    await shared?.stop();
  }
}

async function phases(o: AdversarialOptions, chain: ChainSample, shared: RunningSystem | undefined): Promise<AdversarialReport> {
  const users = chain.users.slice(0, 50);
  const defaults = serveOptions(o.nodeDir).defaults;
  const maxBuffered = defaults.get('--max-buffered-bytes');
  const report: AdversarialReport = {
    system: '',
    ...(o.nodeDir ? { nodeDir: o.nodeDir } : {}),
    workers: o.workers,
    durationMs: o.durationMs,
    maxBufferedBytes: maxBuffered === undefined ? null : Number(maxBuffered),
    targets: { ...TARGETS, rssBudgetMiB: o.rssBudgetMiB },
    calls: [],
    expensive: '',
    idle: { p50: 0, p90: 0, p99: 0, p999: 0, max: 0, count: 0, errors: 0, unanswered: 0, closed: false, sendLagMaxMs: 0, clientLoopDelayMaxMs: 0, proberNice: 0 },
    attackersNice: o.clientPriorities ? ATTACKERS_NICE : 0,
    runs: [],
  };
  // Idle, and the cost of each candidate call, on a node of its own.
  await withNode(o, shared, async (sys) => {
    report.system = sys.name;
    const url = `ws://127.0.0.1:${sys.port}/ws`;
    o.log(`adversarial: prober idle on ${sys.name}…`);
    report.idle = await probe(url, users, o.durationMs, o.clientPriorities);
    for (const c of candidates(chain)) report.calls.push(await cost(url, c.label, c.body, o.size === 'tiny' ? 1 : 3));
  });
  const legal = report.calls.filter((c) => c.error === undefined);
  if (legal.length === 0) throw new Error(`no candidate call is legal on this node: ${report.calls.map((c) => `${c.label}: ${c.error}`).join('; ')}`);
  const chosen = o.attackCall === undefined ? undefined : legal.find((c) => c.label.startsWith(`${o.attackCall}(`));
  if (o.attackCall !== undefined && !chosen) throw new Error(`--attack-call: '${o.attackCall}' is none of the legal candidates (${legal.map((c) => c.label.slice(0, c.label.indexOf('('))).join(', ')})`);
  // The slowest legal calls on this chain, as an attacker timing every candidate would pick them.
  const expensive = chosen ? [chosen] : [...legal].sort((a, b) => b.medianMs - a.medianMs).slice(0, ATTACK_CALLS);
  const largest = [...legal].sort((a, b) => b.replyBytes - a.replyBytes)[0]!;
  report.expensive = cycle(expensive);
  const flood = JSON.stringify({ id: 1, method: 'lookup_accounts', params: ['', 1000] });
  for (const plan of plans(o, expensive, largest, flood).filter((p) => o.scenarios.has(p.name))) {
    await new Promise((r) => setTimeout(r, o.settleMs));
    report.runs.push(
      await withNode(o, shared, async (sys) => {
        const url = `ws://127.0.0.1:${sys.port}/ws`;
        o.log(`${plan.name} on ${sys.name}: ${plan.description}…`);
        let rssMax = processRss(sys.pid);
        const sampler = setInterval(() => (rssMax = Math.max(rssMax, processRss(sys.pid))), 50);
        try {
          const cpu0 = processUsage(sys.pid).cpuSeconds;
          const t0 = performance.now();
          const attackers = attack({
            ...plan.spec,
            url,
            intervalMs: Math.max(5, o.durationMs / Math.max(1, plan.spec.maxRequestsPerConnection)),
            hardStopMs: o.durationMs + PROBE_GRACE_MS + 30_000,
            drainMs: Math.min(3000, o.durationMs),
            nice: o.clientPriorities ? ATTACKERS_NICE : 0,
          });
          let prober: ProberResult;
          let outcome: AttackOutcome;
          try {
            await attackers.ready;
            prober = await probe(url, users, o.durationMs, o.clientPriorities);
            outcome = await attackers.stop();
          } catch (err) {
            await attackers.kill();
            throw err;
          }
          const secs = (performance.now() - t0) / 1000;
          rssMax = Math.max(rssMax, processRss(sys.pid));
          return judge(plan, sys, prober, outcome, report, mib(rssMax), Math.round(((processUsage(sys.pid).cpuSeconds - cpu0) / secs) * 100));
        } finally {
          clearInterval(sampler);
        }
      }),
    );
  }
  return report;
}

function judge(plan: Plan, sys: RunningSystem, prober: ProberResult, attackers: AttackOutcome, r: AdversarialReport, rssMaxMiB: number, nodeCpuPercent: number): AttackRun {
  const ratio = r.idle.p99 > 0 ? Math.round((prober.p99 / r.idle.p99) * 10) / 10 : Infinity;
  const failures: string[] = [];
  if (prober.p99 > r.targets.proberP99Ms) failures.push(`prober p99 ${prober.p99} ms > ${r.targets.proberP99Ms} ms`);
  if (ratio > r.targets.ratioToIdle) failures.push(`${ratio}× idle > ${r.targets.ratioToIdle}×`);
  if (prober.errors > 0 || prober.unanswered > 0 || prober.closed) failures.push(`prober: ${prober.errors} errors, ${prober.unanswered} unanswered${prober.closed ? ', closed' : ''}`);
  const h = prober.http;
  if (h) {
    const httpRatio = r.idle.http && r.idle.http.p99 > 0 ? Math.round((h.p99 / r.idle.http.p99) * 10) / 10 : Infinity;
    if (h.p99 > r.targets.proberP99Ms) failures.push(`HTTP prober p99 ${h.p99} ms > ${r.targets.proberP99Ms} ms`);
    if (httpRatio > r.targets.ratioToIdle) failures.push(`HTTP ${httpRatio}× idle > ${r.targets.ratioToIdle}×`);
    if (h.errors > 0 || h.unanswered > 0) failures.push(`HTTP prober: ${h.errors} errors, ${h.unanswered} unanswered`);
  }
  if (plan.name === 'adv-nonreaders' && rssMaxMiB > r.targets.rssBudgetMiB) failures.push(`RSS ${rssMaxMiB} MiB > ${r.targets.rssBudgetMiB} MiB`);
  return {
    scenario: plan.name,
    system: sys.name,
    attack: plan.description,
    prober,
    ratioToIdle: ratio,
    pass: failures.length === 0,
    failures,
    attackers,
    nodeRssMaxMiB: rssMaxMiB,
    nodeCpuPercent,
  };
}

export function printAdversarial(r: AdversarialReport): void {
  console.log(`under attack: ${r.system}; prober idle p50 ${r.idle.p50} ms, p99 ${r.idle.p99} ms (HTTP ${r.idle.http?.p99 ?? '—'} ms); attacks use ${r.expensive}`);
  console.table(
    r.runs.map((x) => ({
      scenario: x.scenario,
      'p50 ms': x.prober.p50,
      'p99 ms': x.prober.p99,
      'HTTP p99 ms': x.prober.http?.p99 ?? '—',
      '× idle p99': x.ratioToIdle,
      'rss max MiB': x.nodeRssMaxMiB,
      'client lag max ms': x.prober.clientLoopDelayMaxMs,
      result: x.pass ? 'pass' : `FAIL: ${x.failures.join('; ')}`,
      attackers: attackersLine(x.attackers),
    })),
  );
}
