// The attackers of the adversarial scenarios (bench/adversarial.ts), in a process of their own so
// that their work on big replies does not delay the prober's clock: as a worker thread they shared
// the prober's process, its V8 helper threads (their collections of 10 MB replies) and its
// allocator, and the prober's own event loop lagged 25 to 35 ms behind, as long as the p99 it
// measured. They still share the machine's CPUs, so they run at the lowest priority (AttackSpec.nice:
// bench/adversarial.ts ATTACKERS_NICE), as clients on other machines would take none. Two modes: connections that keep
// N calls in flight (closed loop: each reply, served or refused, sends the next), and connections
// that send requests for large replies and never read (their sockets paused) until told to stop,
// then read what the node kept for them, for a bounded time. Bounded in time and in requests.
import fs from 'node:fs';
import os from 'node:os';
import WebSocket from 'ws';

export interface AttackSpec {
  readonly mode: 'inflight' | 'nonreader';
  readonly url: string;
  readonly connections: number;
  /** inflight: calls each connection keeps in flight */
  readonly inflight: number;
  /** request texts, cycled through */
  readonly bodies: readonly string[];
  /** nonreader: requests each connection sends, at most */
  readonly maxRequestsPerConnection: number;
  /** nonreader: ms between a connection's requests, spreading them over the attack */
  readonly intervalMs: number;
  /** stop by itself after this long even if never told to */
  readonly hardStopMs: number;
  /** nonreader: how long to read what the node held, after the stop */
  readonly drainMs: number;
  /** the attackers' nice value (0: left as is) */
  readonly nice: number;
}

export interface AttackOutcome {
  connections: number;
  sent: number;
  /** replies with a result */
  served: number;
  /** replies with an error, by error code */
  refused: Record<string, number>;
  /** connections the node closed (or reset), by close code */
  closedByNode: Record<string, number>;
  connectFailed: number;
  /** replies not received by the end (nonreaders: not even once they read) */
  unanswered: number;
}

/** What the parent sends: the spec first, then the stop. */
const fromParent = (): Promise<unknown> => new Promise((resolve) => process.once('message', resolve));
const toParent = (m: unknown) => process.send!(m);
let spec: AttackSpec;
const outcome: AttackOutcome = { connections: 0, sent: 0, served: 0, refused: {}, closedByNode: {}, connectFailed: 0, unanswered: 0 };
let stopping = false;
let cursor = 0;
const nextBody = () => spec.bodies[cursor++ % spec.bodies.length]!;

// Error replies are small; a big reply is a result, and is neither decoded nor searched: decoding
// each 10 MB reply cost this thread milliseconds of CPU the node under test shares.
function count(data: Buffer): void {
  const error = data.length < 65_536 ? /"error":\{"code":(-?\d+)/.exec(data.toString()) : null;
  if (error) outcome.refused[error[1]!] = (outcome.refused[error[1]!] ?? 0) + 1;
  else outcome.served++;
}

interface Attacker {
  ws: WebSocket;
  outstanding: number;
  closed: boolean;
  sentHere: number;
  /** closed by the attacker itself, at the end */
  ours: boolean;
}

function open(): Promise<Attacker | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(spec.url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    const a: Attacker = { ws, outstanding: 0, closed: false, sentHere: 0, ours: false };
    ws.on('message', (data: Buffer) => {
      a.outstanding--;
      count(data);
      if (spec.mode === 'inflight' && !stopping) send(a);
    });
    ws.on('close', (code) => {
      if (!a.closed && !a.ours) outcome.closedByNode[String(code)] = (outcome.closedByNode[String(code)] ?? 0) + 1;
      a.closed = true;
    });
    ws.on('error', (err: NodeJS.ErrnoException) => {
      // A reset or refused connection: counted as closed by the node (or as a failed connect).
      if (ws.readyState === WebSocket.CONNECTING) {
        outcome.connectFailed++;
        resolve(undefined);
      } else if (!a.closed && !a.ours) outcome.closedByNode[err.code ?? 'error'] = (outcome.closedByNode[err.code ?? 'error'] ?? 0) + 1;
      a.closed = true;
    });
    ws.once('open', () => resolve(a));
  });
}

function send(a: Attacker): void {
  if (a.closed || a.ws.readyState !== WebSocket.OPEN) return;
  a.ws.send(nextBody());
  a.outstanding++;
  a.sentHere++;
  outcome.sent++;
}

/**
 * Every thread of this process at `nice` (threads made later inherit it from the thread that makes
 * them). Lowering a thread's priority needs no privilege; where /proc is missing it does nothing.
 */
function lowerPriority(nice: number): void {
  let tids: string[] = [];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      os.setPriority(Number(tid), nice);
    } catch {
      // a thread that ended meanwhile
    }
  }
}

async function main(): Promise<void> {
  spec = (await fromParent()) as AttackSpec;
  if (spec.nice > 0) lowerPriority(spec.nice);
  const attackers = (await Promise.all(Array.from({ length: spec.connections }, open))).filter((a): a is Attacker => a !== undefined);
  outcome.connections = attackers.length;
  let nonreaderTimer: NodeJS.Timeout | undefined;
  if (spec.mode === 'inflight') {
    for (const a of attackers) for (let i = 0; i < spec.inflight; i++) send(a);
  } else {
    for (const a of attackers) a.ws.pause();
    // Requests spread over the attack, so that the node is asked for more all along, up to the bound.
    const tick = () => {
      for (const a of attackers) if (a.sentHere < spec.maxRequestsPerConnection) send(a);
      if (!stopping && attackers.some((a) => !a.closed && a.sentHere < spec.maxRequestsPerConnection)) nonreaderTimer = setTimeout(tick, spec.intervalMs);
    };
    tick();
  }
  toParent({ ready: attackers.length });
  await new Promise<void>((resolve) => {
    const hard = setTimeout(resolve, spec.hardStopMs);
    void fromParent().then(() => {
      clearTimeout(hard);
      resolve();
    });
  });
  stopping = true;
  clearTimeout(nonreaderTimer);
  if (spec.mode === 'nonreader') {
    // What the node still holds for them: read it for a bounded time.
    for (const a of attackers) a.ws.resume();
    const until = Date.now() + spec.drainMs;
    while (Date.now() < until && attackers.some((a) => !a.closed && a.outstanding > 0)) await new Promise((r) => setTimeout(r, 20));
  }
  for (const a of attackers) {
    outcome.unanswered += Math.max(0, a.outstanding);
    a.ours = true;
    a.ws.terminate();
  }
  // Once sent, the channel goes (it alone would keep the process).
  process.send!(outcome, () => process.disconnect());
}

main().catch((err: unknown) => toParent({ failed: err instanceof Error ? err.stack ?? err.message : String(err) }));
