// A load generator, run in its own worker thread so that the client is not the hidden limit: it
// opens HTTP keep-alive or WebSocket connections, sends JSON-RPC requests closed-loop (each
// connection keeps N calls in flight) or open-loop (at a fixed rate, latency counted from the
// intended send time, so a slow server cannot hide its queueing), and records latencies in HDR
// histograms. Replies are matched in order per connection, which every system under test keeps.
import { parentPort, workerData } from 'node:worker_threads';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import hdr from 'hdr-histogram-js';
import type { Socket } from 'node:net';
import { isErrorReply, isNotice } from './replies.js';

export interface RequestKind {
  /** label of this kind in the results ("small", "history") */
  readonly label: string;
  /** share of requests of this kind */
  readonly weight: number;
  /** request texts, cycled through */
  readonly bodies: readonly string[];
}

export interface LoadSpec {
  readonly transport: 'http' | 'ws';
  readonly url: string;
  readonly connections: number;
  /** closed loop: calls in flight per connection; open loop: ignored */
  readonly inflight: number;
  /** open loop: total requests per second over all connections of this worker; 0 = closed loop */
  readonly rate: number;
  readonly durationMs: number;
  /** hard cap on requests, so that every run is bounded in requests as well as time */
  readonly maxRequests: number;
  readonly kinds: readonly RequestKind[];
  /** messages each WebSocket sends once, before measuring (login, subscriptions) */
  readonly setup?: readonly string[];
}

export interface LoadResult {
  readonly sent: number;
  readonly completed: number;
  readonly errors: number;
  readonly elapsedMs: number;
  /** encoded HDR histograms of latency in µs, per kind label */
  readonly histograms: Record<string, string>;
  /** share of this generator thread's time spent working (event loop utilisation) */
  readonly generatorUtilisation: number;
}

const spec = workerData as LoadSpec;
const histograms = new Map<string, hdr.Histogram>();
for (const k of spec.kinds) histograms.set(k.label, hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 }));

let sent = 0;
let completed = 0;
let errors = 0;
let stopping = false;

const cursor = new Map<string, number>();
function nextRequest(): { kind: RequestKind; body: string } {
  let r = Math.random();
  let kind = spec.kinds[spec.kinds.length - 1]!;
  for (const k of spec.kinds) {
    if (r < k.weight) {
      kind = k;
      break;
    }
    r -= k.weight;
  }
  const i = cursor.get(kind.label) ?? 0;
  cursor.set(kind.label, i + 1);
  return { kind, body: kind.bodies[i % kind.bodies.length]! };
}

function record(kind: RequestKind, startedAt: number, failed: boolean): void {
  completed++;
  if (failed) errors++;
  histograms.get(kind.label)!.recordValue(Math.max(1, Math.round((performance.now() - startedAt) * 1000)));
}

const canSend = (): boolean => !stopping && sent < spec.maxRequests;

interface Conn {
  send(body: string, kind: RequestKind, startedAt: number): void;
  readonly pending: number;
  close(): void;
}

function httpConn(agent: http.Agent, onReply: () => void): Conn {
  const u = new URL(spec.url);
  let pending = 0;
  return {
    send(body, kind, startedAt) {
      pending++;
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          pending--;
          record(kind, startedAt, res.statusCode !== 200 || isErrorReply(text));
          onReply();
        });
      });
      req.on('error', () => {
        pending--;
        errors++;
        completed++;
        onReply();
      });
      req.end(body);
    },
    get pending() {
      return pending;
    },
    close() {},
  };
}

async function wsConn(onReply: () => void): Promise<Conn> {
  const ws = new WebSocket(spec.url, { perMessageDeflate: false });
  let socket: Socket | undefined;
  ws.once('upgrade', (res) => (socket = res.socket as Socket));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // Setup messages are answered before the measured ones (replies come in order).
  let setupLeft = spec.setup?.length ?? 0;
  const setupDone = new Promise<void>((resolve) => {
    if (setupLeft === 0) resolve();
    ws.on('message', (data: Buffer) => {
      if (isNotice(data)) return;
      if (setupLeft > 0) {
        if (--setupLeft === 0) resolve();
        return;
      }
      const p = queue.shift();
      if (!p) return;
      record(p.kind, p.startedAt, isErrorReply(data));
      onReply();
    });
  });
  const queue: { kind: RequestKind; startedAt: number }[] = [];
  for (const m of spec.setup ?? []) ws.send(m);
  await setupDone;
  // The requests sent in one turn of the event loop (one per reply that a read brought) leave in one
  // write, as a pipelining client's would: one writev per request was a quarter of this thread's time.
  let corked = false;
  const uncork = () => {
    corked = false;
    socket!.uncork();
  };
  return {
    send(body, kind, startedAt) {
      queue.push({ kind, startedAt });
      if (socket && !corked) {
        corked = true;
        socket.cork();
        process.nextTick(uncork);
      }
      ws.send(body);
    },
    get pending() {
      return queue.length;
    },
    close: () => ws.close(),
  };
}

async function main(): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const conns: Conn[] = [];
  const pump = (c: Conn) => {
    if (spec.rate > 0) return;
    while (c.pending < spec.inflight && canSend()) {
      const { kind, body } = nextRequest();
      sent++;
      c.send(body, kind, performance.now());
    }
  };
  for (let i = 0; i < spec.connections; i++) {
    const box: { c?: Conn } = {};
    const onReply = () => box.c && pump(box.c);
    box.c = spec.transport === 'http' ? httpConn(agent, onReply) : await wsConn(onReply);
    conns.push(box.c);
  }
  const elu0 = performance.eventLoopUtilization();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  if (spec.rate > 0) {
    // Open loop: requests leave at their scheduled times, round-robin over the connections.
    const interval = 1000 / spec.rate;
    let next = started;
    let i = 0;
    const tick = () => {
      const now = performance.now();
      while (next <= now && canSend()) {
        const { kind, body } = nextRequest();
        sent++;
        conns[i++ % conns.length]!.send(body, kind, next);
        next += interval;
      }
      if (canSend()) timer = setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  } else {
    for (const c of conns) pump(c);
  }
  await new Promise((r) => setTimeout(r, spec.durationMs));
  stopping = true;
  if (timer) clearTimeout(timer);
  const elapsedMs = performance.now() - started;
  const elu = performance.eventLoopUtilization(elu0);
  // Let calls in flight finish (bounded), so that they are not counted as lost.
  const drainUntil = performance.now() + 2000;
  while (conns.some((c) => c.pending > 0) && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 10));
  for (const c of conns) c.close();
  agent.destroy();
  const encoded: Record<string, string> = {};
  for (const [label, h] of histograms) encoded[label] = hdr.encodeIntoCompressedBase64(h);
  const result: LoadResult = { sent, completed, errors, elapsedMs, histograms: encoded, generatorUtilisation: elu.utilization };
  parentPort!.postMessage(result);
}

main().catch((err: unknown) => {
  parentPort!.postMessage({ failed: (err as Error).message });
});
