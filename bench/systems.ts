// The systems a benchmark compares, each started as its own process: graphene-rpc (at a given worker
// count), the ceiling (bare uWebSockets.js, canned replies) and the conventional stack (Fastify + ws,
// handlers inline). Also reads a process's CPU time and resident memory from /proc.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePromText } from './prom-text.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * graphene-rpc-processes: graphene-rpc with --processes N > 1 (one writer and N serving processes);
 * graphene-rpc-threads: with --serving-threads N > 1 (one process: the writer and N serving threads)
 */
export type SystemKind = 'graphene-rpc' | 'graphene-rpc-processes' | 'graphene-rpc-threads' | 'ceiling' | 'ceiling-cluster' | 'conventional' | 'conventional-cluster';

export interface RunningSystem {
  readonly name: string;
  readonly kind: SystemKind;
  readonly port: number;
  readonly pid: number;
  /** lines the process printed (graphene-rpc's JSON log) */
  readonly lines: string[];
  /** options left out because the node (an older checkout) does not know them */
  readonly dropped: readonly string[];
  stop(): Promise<void>;
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

export interface StartOptions {
  readonly dataDir: string;
  readonly workers?: number;
  /** graphene-rpc: seconds between blocks (0: none) */
  readonly blockInterval?: number;
  /** graphene-rpc: --log-level (default debug: the deposits read the 'produced block' lines) */
  readonly logLevel?: string;
  /** ceiling: size of the canned reply */
  readonly replyBytes?: number;
  /** graphene-rpc: extra serve options */
  readonly extra?: readonly string[];
  /** graphene-rpc: run the node at its own defaults, without the benchmark's lifted per-connection limits */
  readonly nodeDefaults?: boolean;
  /** graphene-rpc: a built checkout whose `dist/src/cli.js` is the node to start (default: this one) */
  readonly nodeDir?: string;
  /** conventional-cluster: processes (default: one per core); graphene-rpc-processes: --processes */
  readonly processes?: number;
  /** graphene-rpc-threads: --serving-threads */
  readonly servingThreads?: number;
  /** run the system under `taskset -c CPUS` (for example "0"), to measure it on fewer cores */
  readonly cpus?: string;
  /**
   * graphene-rpc-processes: neither --workers nor --processes, so that the node sizes itself
   * (src/sizing.ts); `workers` and `processes` then only name the sizes it will choose
   */
  readonly auto?: boolean;
}

/** The `serve` options a node's CLI knows and their defaults, from its `--help` (cached per CLI). */
export interface ServeOptions {
  readonly known: ReadonlySet<string>;
  readonly defaults: ReadonlyMap<string, string>;
}

const serveOptionsCache = new Map<string, ServeOptions>();

export function serveOptions(nodeDir?: string): ServeOptions {
  const cli = nodeCli(nodeDir);
  const cached = serveOptionsCache.get(cli);
  if (cached) return cached;
  const help = execFileSync(process.execPath, [cli, 'serve', '--help'], { encoding: 'utf8', timeout: 30_000 });
  const known = new Set<string>();
  const defaults = new Map<string, string>();
  for (const line of help.split('\n')) {
    const m = /^\s+(?:-\w, )?(--[a-z0-9-]+)/.exec(line);
    if (!m) continue;
    known.add(m[1]!);
    const d = /\(default: ([^)]*)\)\s*$/.exec(line);
    if (d) defaults.set(m[1]!, d[1]!);
  }
  const o = { known, defaults };
  serveOptionsCache.set(cli, o);
  return o;
}

const nodeCli = (nodeDir?: string) => (nodeDir ? path.resolve(nodeDir, 'dist/src/cli.js') : path.join(dist, 'src/cli.js'));

/**
 * Drops the options (each with its value) that the node does not know, so that an older checkout
 * given with --node-dir starts instead of refusing an option it predates; the essential ones must be
 * known.
 */
function knownOnly(args: readonly string[], o: ServeOptions, essential: ReadonlySet<string>, dropped: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    if (o.known.has(name)) out.push(name, args[i + 1]!);
    else if (essential.has(name)) throw new Error(`the node does not know ${name}`);
    else dropped.push(name);
  }
  return out;
}

/**
 * The systems this process started and has not seen exit. A bench that is stopped (a test's timeout
 * sends SIGTERM, an operator's ^C SIGINT) or that fails takes them with it; otherwise they would
 * live on as orphans holding their ports and CPU.
 */
const started = new Set<ChildProcess>();
const killStarted = () => {
  for (const c of started) c.kill('SIGKILL');
};
process.once('exit', killStarted);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    killStarted();
    process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
  });
}

/** Ports tried before a start that finds its port taken gives up. */
export const START_ATTEMPTS = 3;

/** A system that exited before it was ready because it could not listen on its port. */
class PortTaken extends Error {}

/**
 * Starts `kind` on a free port. freePort's port is free when it answers, not when the system binds
 * it a second later: meanwhile another process (a test's server, a client's ephemeral source port)
 * may take it. A start that fails so is tried again on a new port, up to START_ATTEMPTS in all.
 */
export async function startSystem(kind: SystemKind, o: StartOptions, nextPort: () => Promise<number> = freePort): Promise<RunningSystem> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(kind, o, await nextPort());
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt >= START_ATTEMPTS) throw err;
    }
  }
}

async function startOn(kind: SystemKind, o: StartOptions, port: number): Promise<RunningSystem> {
  let args: string[];
  let ready: RegExp;
  const dropped: string[] = [];
  if (kind === 'graphene-rpc' || kind === 'graphene-rpc-processes' || kind === 'graphene-rpc-threads') {
    const options = [
      '--data-dir',
      o.dataDir,
      '--rpc-endpoint',
      `127.0.0.1:${port}`,
      ...(o.auto ? [] : ['--workers', String(o.workers ?? 1)]),
      // One process unless asked for more: the node's own default (--processes auto) is one per 4 CPUs.
      ...(o.auto ? [] : ['--processes', kind === 'graphene-rpc-processes' ? String(o.processes ?? 2) : '1']),
      ...(kind === 'graphene-rpc-threads' ? ['--serving-threads', String(o.servingThreads ?? 2)] : []),
      '--block-interval',
      String(o.blockInterval ?? 0),
      '--log-level',
      o.logLevel ?? 'debug',
      // Benchmarks pipeline deeply and open many sessions, all from 127.0.0.1: lift the per-connection
      // limits (the call rate too: a throughput run's connection asks far more than the 2,000 a second
      // a public node allows, and refused calls are no throughput) and the connection caps
      // (ws-deposits opens 10,000 sessions, ws-idle 5,000, past the
      // 100 per address a public node allows), but not for the adversarial scenarios, which measure
      // the node as a public node runs it.
      ...(o.nodeDefaults
        ? []
        : ['--max-calls-per-second', '0', '--max-pending-calls-per-connection', '100000', '--max-queued-calls', '1000000', '--ws-idle-timeout', '0', '--max-connections', '1000000', '--max-connections-per-ip', '1000000']),
      ...(o.extra ?? []),
    ];
    args = [nodeCli(o.nodeDir), 'serve', ...knownOnly(options, serveOptions(o.nodeDir), new Set(['--data-dir', '--rpc-endpoint', '--workers', ...(kind === 'graphene-rpc-processes' ? ['--processes'] : []), ...(kind === 'graphene-rpc-threads' ? ['--serving-threads'] : [])]), dropped)];
    if (dropped.length > 0) process.stderr.write(`${nodeCli(o.nodeDir)} does not know ${dropped.join(', ')}: left out\n`);
    ready = /serving JSON-RPC/;
  } else if (kind === 'ceiling' || kind === 'ceiling-cluster') {
    args = [path.join(dist, 'bench/baselines/ceiling.js'), String(port), String(o.replyBytes ?? 1024), String(kind === 'ceiling-cluster' ? (o.processes ?? os.availableParallelism()) : 1)];
    ready = /listening/;
  } else {
    const processes = kind === 'conventional-cluster' ? (o.processes ?? os.availableParallelism()) : 1;
    args = [path.join(dist, 'bench/baselines/conventional.js'), String(port), o.dataDir, String(processes)];
    ready = /listening/;
  }
  const child: ChildProcess = o.cpus
    ? spawn('taskset', ['-c', o.cpus, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.once('exit', () => started.delete(child));
  const lines: string[] = [];
  let buffered = '';
  const onData = (d: Buffer) => {
    buffered += d.toString();
    let i;
    while ((i = buffered.indexOf('\n')) >= 0) {
      lines.push(buffered.slice(0, i));
      buffered = buffered.slice(i + 1);
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const deadline = Date.now() + 60_000;
  while (!lines.some((l) => ready.test(l))) {
    if (child.exitCode !== null) {
      const why = `${kind} exited: ${lines.slice(-5).join('\n')}`;
      throw lines.some((l) => /cannot listen on|EADDRINUSE/.test(l)) ? new PortTaken(why) : new Error(why);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${kind} did not start: ${lines.slice(-5).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const pinned = o.cpus ? ` on CPU ${o.cpus}` : '';
  const name =
    (kind === 'graphene-rpc'
      ? `graphene-rpc${o.nodeDir ? ` (${path.basename(path.resolve(o.nodeDir))})` : ''} ×${o.workers ?? 1}`
      : kind === 'graphene-rpc-processes'
        ? o.auto
          ? `graphene-rpc auto (${o.processes ?? 1} × ${o.workers ?? 1})`
          : `graphene-rpc ×${o.workers ?? 1} in ${o.processes ?? 2} serving processes`
      : kind === 'graphene-rpc-threads'
        ? `graphene-rpc ×${o.workers ?? 1} in ${o.servingThreads ?? 2} serving threads`
      : kind === 'conventional-cluster'
        ? `conventional ×${o.processes ?? os.availableParallelism()} processes`
        : kind === 'ceiling-cluster'
          ? `ceiling ×${o.processes ?? os.availableParallelism()} processes`
        : kind) + pinned;
  return {
    name,
    kind,
    port,
    pid: child.pid!,
    lines,
    dropped,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
      await new Promise((r) => child.once('exit', r));
      clearTimeout(killed);
    },
  };
}

const CLOCK_TICKS = 100; // _SC_CLK_TCK on Linux

/** user + system CPU seconds from a /proc stat line (the fields after the command's closing parenthesis) */
function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The process and its descendants (the conventional stack's cluster forks one process per core). */
export function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  return tree;
}

/** voluntary plus involuntary context switches, from a /proc status file */
function statusSwitches(status: string): number {
  const voluntary = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(status);
  const involuntary = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status);
  return Number(voluntary?.[1] ?? 0) + Number(involuntary?.[1] ?? 0);
}

/** What the bench reads of one thread. */
export interface ThreadTime {
  readonly process: number;
  readonly cpuSeconds: number;
  /** times the thread was switched out (it slept, or was preempted): each costs a wake to resume */
  readonly switches: number;
}

/**
 * CPU seconds and context switches of every thread of a process tree, keyed by thread id, with each
 * thread's process: what the bench splits into the front-end thread, the worker threads and the rest
 * (GC, libuv, I/O).
 */
export function threadTimes(pid: number): Map<number, ThreadTime> {
  const out = new Map<number, ThreadTime>();
  for (const p of processTree(pid)) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const cpuSeconds = statCpuSeconds(readFileSync(`/proc/${p}/task/${tid}/stat`, 'utf8'));
        out.set(Number(tid), { process: p, cpuSeconds, switches: statusSwitches(readFileSync(`/proc/${p}/task/${tid}/status`, 'utf8')) });
      } catch {
        // the thread ended between the listing and the read
      }
    }
  }
  return out;
}

/**
 * CPU seconds (user + system, all threads) and resident memory of a process, or of its whole tree.
 * `pssBytes` is the proportional share (smaps_rollup's Pss): a page several processes map (the
 * store's, the Node.js binary's) counts a share in each, so a tree's sum does not count it N times
 * as the RSS sum does; 0 where the kernel does not say.
 */
/**
 * A process's resident memory alone, from /proc/PID/status: what a sampler every few ms may read.
 * (processUsage also reads smaps_rollup, which walks the process's page tables under its memory
 * map's lock: tens of ms for a node of a few hundred MB, during which its threads' page faults and
 * mappings wait.)
 */
export function processRss(pid: number): number {
  try {
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return rss ? Number(rss[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function processUsage(pid: number, withChildren = false): { cpuSeconds: number; rssBytes: number; pssBytes: number } {
  if (withChildren) {
    const all = processTree(pid).map((p) => processUsage(p));
    return { cpuSeconds: all.reduce((n, u) => n + u.cpuSeconds, 0), rssBytes: all.reduce((n, u) => n + u.rssBytes, 0), pssBytes: all.reduce((n, u) => n + u.pssBytes, 0) };
  }
  try {
    const cpuSeconds = statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    let pss: RegExpExecArray | null = null;
    try {
      pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    } catch {
      // an older kernel: no rollup
    }
    return { cpuSeconds, rssBytes: rss ? Number(rss[1]) * 1024 : 0, pssBytes: pss ? Number(pss[1]) * 1024 : 0 };
  } catch {
    return { cpuSeconds: 0, rssBytes: 0, pssBytes: 0 };
  }
}

/**
 * The front-end thread's collections during one run, from the difference of prom-client's
 * `nodejs_gc_duration_seconds` before and after it: every call that arrives during a pause waits it out.
 */
export interface FrontEndGc {
  /** young-generation collections (scavenges) */
  minor: number;
  /** full collections, and their incremental marking steps */
  major: number;
  /** ms the thread was stopped for them, all kinds */
  pausedMs: number;
  /** pausedMs as a share of the run's length */
  share: number;
}

/** Seconds of pauses and collections so far, by kind, from prom-client's `nodejs_gc_duration_seconds` in Prometheus text. */
export type GcTotals = Map<string, { seconds: number; count: number }>;

export function gcTotals(metricsText: string): GcTotals {
  const totals: GcTotals = new Map();
  const family = parsePromText(metricsText).get('nodejs_gc_duration_seconds');
  for (const sample of family?.samples ?? []) {
    const kind = sample.labels.kind;
    if (kind === undefined || sample.name.endsWith('_bucket')) continue;
    const t = totals.get(kind) ?? { seconds: 0, count: 0 };
    if (sample.name.endsWith('_sum')) t.seconds = sample.value;
    else t.count = sample.value;
    totals.set(kind, t);
  }
  return totals;
}

/** Calls handed to the pool and tasks they travelled in so far, from the scheduler's histograms' counts. */
export interface PoolCounts {
  readonly calls: number;
  readonly tasks: number;
  /** shapes learnt heavy now, light calls stopped at their slice and run again as heavy, and those that ran past it (src/pool/learnt-costs.ts) */
  readonly learntHeavy: number;
  readonly requeued: number;
  readonly ranLong: number;
}

export function poolCounts(metricsText: string): PoolCounts {
  const f = parsePromText(metricsText);
  const count = (family: string) => f.get(family)?.samples.find((s) => s.name === `${family}_count`)?.value ?? 0;
  const value = (family: string) => f.get(family)?.samples[0]?.value ?? 0;
  return {
    calls: count('graphene_rpc_pool_wait_seconds'),
    tasks: count('graphene_rpc_pool_run_seconds'),
    learntHeavy: value('graphene_rpc_learnt_heavy_shapes'),
    requeued: value('graphene_rpc_calls_requeued_heavy_total'),
    ranLong: value('graphene_rpc_light_calls_ran_long_total'),
  };
}

/** graphene-rpc's front-end collections so far, read from its GET /metrics (the main thread's own). */
export async function readGcTotals(port: number): Promise<GcTotals & { pool?: PoolCounts }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  const text = await res.text();
  return Object.assign(gcTotals(text), { pool: poolCounts(text) });
}

/**
 * The front end's collections between two readings: young ones apart (they come every few hundred
 * ms under load), full collections and incremental marking steps together. Every kind's time counts
 * in the pause, weak callbacks' too.
 */
export function gcBetween(before: GcTotals, after: GcTotals, runMs: number): FrontEndGc {
  let minor = 0;
  let major = 0;
  let seconds = 0;
  for (const [kind, t] of after) {
    const b = before.get(kind) ?? { seconds: 0, count: 0 };
    const n = t.count - b.count;
    if (kind === 'minor') minor += n;
    else if (kind === 'major' || kind === 'incremental') major += n;
    seconds += t.seconds - b.seconds;
  }
  const pausedMs = Math.round(seconds * 1e4) / 10;
  return { minor, major, pausedMs, share: Math.round((pausedMs / Math.max(1, runMs)) * 1e4) / 1e4 };
}
