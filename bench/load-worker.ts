// A load generator, run in its own worker thread so that the client is not the hidden limit: it
// opens HTTP keep-alive or WebSocket connections, sends JSON-RPC requests closed-loop (each
// connection keeps N calls in flight) or open-loop (at a fixed rate, latency counted from the
// intended send time, so a slow server cannot hide its queueing), and records latencies in HDR
// histograms. Replies are matched in order per connection, which every system under test keeps.
import { parentPort, workerData } from 'node:worker_threads';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
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
  /** open loop: encoded HDR histogram of how late requests left against their schedule, µs */
  readonly lateness?: string;
}

const spec = workerData as LoadSpec;
const histograms = new Map<string, hdr.Histogram>();
for (const k of spec.kinds) histograms.set(k.label, hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 }));

/**
 * Open loop: how late each request left against its scheduled time, in µs. Its latency counts from
 * the scheduled time (a slow server cannot hide its queueing), so the generator's own lateness (its
 * timers, its thread waiting for a CPU) is in every latency too: this says how much of it.
 */
const lateness = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
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

/**
 * An HTTP/1.1 keep-alive connection written by hand on a TCP socket, as wrk drives one: each
 * request's bytes are made once per body and reused, and a reply is read by its status line and
 * Content-Length alone, in place. node:http's client spent about 70 µs a call on headers, agents and
 * streams (README "Benchmarks"), more than the servers it measured; the generator's own cost is what
 * a throughput figure must not hide. Requests beyond one in flight are pipelined (replies come in
 * order). A reply the parser cannot read (chunked, malformed) fails the run rather than miscount it.
 */
async function httpConn(onReply: () => void): Promise<Conn> {
  const u = new URL(spec.url);
  const socket = await openSocket(u);
  const { conn, inFlight } = rawConn(socket, (body) => Buffer.from(`POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`), () => socket.destroy());
  let buf: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    for (;;) {
      const headEnd = buf.indexOf(HEAD_END);
      if (headEnd < 0) return;
      const head = buf.toString('latin1', 0, headEnd);
      const length = CONTENT_LENGTH.exec(head);
      if (!length) throw new Error(`the load generator reads replies with a Content-Length only; got: ${head.slice(0, 200)}`);
      const bodyStart = headEnd + HEAD_END.length;
      const bodyEnd = bodyStart + Number(length[1]);
      if (buf.length < bodyEnd) return;
      const status = head.slice(9, 12);
      const p = inFlight.shift();
      if (p) {
        record(p.kind, p.startedAt, status !== '200' || isErrorReply(buf.subarray(bodyStart, bodyEnd)));
        onReply();
      }
      buf = buf.subarray(bodyEnd);
    }
  });
  return conn;
}

/** A TCP connection to the system under test, open, with Nagle's delay off. */
async function openSocket(u: URL): Promise<Socket> {
  const socket = net.connect({ host: u.hostname, port: Number(u.port) });
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

interface InFlight {
  readonly kind: RequestKind;
  readonly startedAt: number;
}

/**
 * The Conn over a raw socket: each body's bytes (`encode`: an HTTP request, a WebSocket frame) made
 * once and written again, the calls in flight in order, and those still in flight when the socket
 * ends counted as failed, never as throughput. The caller reads the replies and shifts `inFlight`.
 */
function rawConn(socket: Socket, encode: (body: string) => Buffer, close: () => void): { conn: Conn; inFlight: InFlight[] } {
  const made = new Map<string, Buffer>();
  const inFlight: InFlight[] = [];
  const lost = () => {
    for (const _ of inFlight.splice(0)) {
      completed++;
      errors++;
    }
  };
  socket.on('error', lost);
  socket.on('close', lost);
  const conn: Conn = {
    send(body, kind, startedAt) {
      if (socket.destroyed) {
        sent--;
        return;
      }
      let bytes = made.get(body);
      if (!bytes) made.set(body, (bytes = encode(body)));
      inFlight.push({ kind, startedAt });
      corkFor(socket);
      socket.write(bytes);
    },
    get pending() {
      return socket.destroyed ? 0 : inFlight.length;
    },
    close,
  };
  return { conn, inFlight };
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

/** The requests written in one turn of the event loop leave in one write, as a pipelining client's would. */
const corked = new Set<Socket>();
const uncorkAll = () => {
  for (const s of corked) s.uncork();
  corked.clear();
};
function corkFor(socket: Socket): void {
  if (corked.has(socket)) return;
  if (corked.size === 0) process.nextTick(uncorkAll);
  corked.add(socket);
  socket.cork();
}

/**
 * A WebSocket client written by hand on a TCP socket: the upgrade, then text frames made once per
 * body (masked with a zero key, which leaves the payload as it is: RFC 6455 asks a client to mask,
 * not for a secret key) and the server's frames read in place. The ws package cost the generator
 * about 12 µs a small call, as much as the node's front end; this costs a fraction of that.
 */
async function wsConn(onReply: () => void): Promise<Conn> {
  const u = new URL(spec.url);
  const socket = await openSocket(u);
  const key = randomBytes(16).toString('base64');
  socket.write(`GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  let buf: Buffer = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf(HEAD_END);
      if (end < 0) return;
      socket.off('data', onData);
      const head = buf.toString('latin1', 0, end);
      buf = buf.subarray(end + HEAD_END.length);
      if (!/^HTTP\/1\.1 101/.test(head)) reject(new Error(`WebSocket upgrade refused: ${head.split('\r\n')[0]}`));
      else resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  const { conn, inFlight } = rawConn(socket, (body) => clientFrame(Buffer.from(body)), () => {
    if (!socket.destroyed) socket.end(clientFrame(Buffer.alloc(0), 0x88));
  });
  let setupLeft = spec.setup?.length ?? 0;
  let setupDone: () => void = () => {};
  const setup = new Promise<void>((resolve) => {
    setupDone = resolve;
    if (setupLeft === 0) resolve();
  });
  const onMessage = (data: Buffer) => {
    if (isNotice(data)) return;
    if (setupLeft > 0) {
      if (--setupLeft === 0) setupDone();
      return;
    }
    const p = inFlight.shift();
    if (!p) return;
    record(p.kind, p.startedAt, isErrorReply(data));
    onReply();
  };
  let fragments: Buffer[] = [];
  const onData = (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const b0 = buf[0]!;
      const b1 = buf[1]!;
      let len = b1 & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        at = 10;
      }
      const masked = (b1 & 0x80) !== 0;
      const maskAt = at;
      if (masked) at += 4;
      if (buf.length < at + len) return;
      const payload = buf.subarray(at, at + len);
      if (masked) for (let i = 0; i < len; i++) payload[i] = payload[i]! ^ buf[maskAt + (i & 3)]!;
      buf = buf.subarray(at + len);
      const opcode = b0 & 0x0f;
      const fin = (b0 & 0x80) !== 0;
      if (opcode === 0x8) {
        socket.end();
        return;
      }
      if (opcode === 0x9) {
        socket.write(clientFrame(Buffer.from(payload), 0x8a));
        continue;
      }
      if (opcode === 0xa) continue;
      if (!fin) {
        fragments.push(Buffer.from(payload));
        continue;
      }
      if (opcode === 0x0 && fragments.length > 0) {
        fragments.push(payload);
        const whole = Buffer.concat(fragments);
        fragments = [];
        onMessage(whole);
      } else onMessage(payload);
    }
  };
  socket.on('data', onData);
  if (buf.length > 0) onData(Buffer.alloc(0));
  for (const m of spec.setup ?? []) socket.write(clientFrame(Buffer.from(m)));
  await setup;
  return conn;
}

/** A client's frame: FIN, the opcode (text by default), masked with a zero key. */
function clientFrame(payload: Buffer, first = 0x81): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const f = Buffer.alloc(head + 4 + n);
  f[0] = first;
  if (n < 126) f[1] = 0x80 | n;
  else if (n < 65536) {
    f[1] = 0x80 | 126;
    f.writeUInt16BE(n, 2);
  } else {
    f[1] = 0x80 | 127;
    f.writeBigUInt64BE(BigInt(n), 2);
  }
  // bytes head … head + 3: the mask key, zero
  payload.copy(f, head + 4);
  return f;
}

async function main(): Promise<void> {
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
    box.c = spec.transport === 'http' ? await httpConn(onReply) : await wsConn(onReply);
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
        lateness.recordValue(Math.max(1, Math.round((now - next) * 1000)));
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
  const encoded: Record<string, string> = {};
  for (const [label, h] of histograms) encoded[label] = hdr.encodeIntoCompressedBase64(h);
  const result: LoadResult = {
    sent,
    completed,
    errors,
    elapsedMs,
    histograms: encoded,
    generatorUtilisation: elu.utilization,
    ...(spec.rate > 0 ? { lateness: hdr.encodeIntoCompressedBase64(lateness) } : {}),
  };
  parentPort!.postMessage(result);
}

main().catch((err: unknown) => {
  parentPort!.postMessage({ failed: (err as Error).message });
});
