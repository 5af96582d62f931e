// A fuzz campaign against a running node (issue 14): frames from bench/fuzz-frames.ts over WebSocket
// connections and HTTP requests, odd raw HTTP (half-sent, pipelined, HTTP/1.0, conflicting framing
// headers, garbage) over plain sockets, while a prober on its own connection keeps asking for the
// head block. It checks, without timing anything:
//  - every frame with a readable id gets exactly one reply with that id, and an unreadable one one
//    reply with "id":null: replies on a WebSocket come in request order, so a sentinel request after
//    each window of frames marks the point by which all of the window's replies have come;
//  - every HTTP request gets exactly one response;
//  - no steady connection is closed by the node;
//  - the prober is answered throughout.
// What uWebSockets.js itself does with some classes of input (issue 14, handled in the transport) is
// counted apart and is not a violation: invalid UTF-8 in a text frame closes the connection abruptly,
// an HTTP/1.0 request with a body is not answered, two pipelined HTTP requests close the connection.
// Used by test/fuzz.test.ts (a few thousand frames) and bench/fuzz.ts (`npm run fuzz -- --minutes N`).
// Over 500 lines because the three kinds of traffic (WebSocket, HTTP, raw sockets) and the prober run
// together on one report and one stopping rule; the frames themselves come from bench/fuzz-frames.ts.
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { expectationFor, FrameSource, type Expectation, type Frame } from './fuzz-frames.js';

export interface FuzzOptions {
  readonly port: number;
  readonly seed: number;
  /** stop after this many frames (WebSocket and HTTP), or at `deadline`, whichever comes first */
  readonly maxFrames?: number;
  /** Date.now() to stop at */
  readonly deadline?: number;
  /** the node's --max-request-bytes and --max-json-depth */
  readonly maxRequestBytes: number;
  readonly maxJsonDepth: number;
  /** parallel WebSocket connections and HTTP clients */
  readonly wsConnections?: number;
  readonly httpClients?: number;
  /** frames per window before a sentinel */
  readonly window?: number;
  /** how long the prober (and any single exchange) may wait for an answer before it counts as a violation; a liveness bound, generous */
  readonly livenessMs?: number;
  readonly progress?: (r: FuzzReport) => void;
}

export interface FuzzReport {
  seed: number;
  frames: number;
  framesByKind: Record<string, number>;
  wsFrames: number;
  httpRequests: number;
  rawHttp: number;
  replies: number;
  results: number;
  errorsByCode: Record<string, number>;
  httpStatus: Record<string, number>;
  /** closes of the connections that carried frames which may close them (invalid UTF-8 text, oversized), by close code */
  closes: Record<string, number>;
  /** what uWebSockets.js does that issue 14 leaves to the transport: counted, not a violation */
  knownUws: Record<string, number>;
  rawOutcomes: Record<string, number>;
  proberReplies: number;
  violations: string[];
  sweepRounds: number;
}

const inc = (o: Record<string, number>, k: string, n = 1) => {
  o[k] = (o[k] ?? 0) + n;
};

const preview = (f: Frame): string => {
  const s = f.bytes.subarray(0, 160).toString(f.utf8 ? 'utf8' : 'hex');
  return `${f.kind} ${f.bytes.length}B ${f.utf8 ? '' : 'hex:'}${JSON.stringify(s)}`;
};

/** Reports the frames among `frames` answered -32603 (`internal`: the ids of those replies). */
function reportInternalErrors(report: FuzzReport, internal: readonly string[], frames: readonly Frame[], expected: readonly Expectation[], where: string): void {
  for (const key of internal) {
    const culprits = frames.filter((_, i) => expected[i] !== 'none' && (expected[i] as { id: string }).id === key).map(preview);
    report.violations.push(`${where}: -32603 (an unexpected exception) for id ${key}: ${culprits.join(' | ').slice(0, 600) || 'frame not found'}`);
  }
}

/** Counts a reply; returns its id's JSON text. The ids of -32603 replies go to `internal`. */
function tally(report: FuzzReport, text: string, internal: string[] = []): string | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    report.violations.push(`a reply that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    return undefined;
  }
  if (v.method === 'notice') return undefined;
  report.replies++;
  if ('error' in v) inc(report.errorsByCode, String((v.error as { code?: unknown })?.code));
  else report.results++;
  // -32603 is an unexpected exception in the node: never an answer to what a client sent.
  if ((v.error as { code?: unknown } | undefined)?.code === -32603) internal.push(JSON.stringify(v.id));
  if (!('id' in v)) {
    report.violations.push(`a reply without an id: ${text.slice(0, 200)}`);
    return undefined;
  }
  return JSON.stringify(v.id);
}

function connectWs(port: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/**
 * One window on a WebSocket: the frames, then a sentinel; resolves when the sentinel's reply came
 * (then every earlier reply has) or the connection closed. Returns the ids seen and how it ended.
 */
function wsWindow(ws: WebSocket, frames: readonly Frame[], sentinel: string, report: FuzzReport, livenessMs: number): Promise<{ seen: Map<string, number>; internal: string[]; closed?: number }> {
  return new Promise((resolve) => {
    const seen = new Map<string, number>();
    const internal: string[] = [];
    const sentinelKey = JSON.stringify(sentinel);
    let done = false;
    const finish = (closed?: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.off('message', onMessage);
      ws.off('close', onClose);
      resolve(closed === undefined ? { seen, internal } : { seen, internal, closed });
    };
    const onMessage = (data: WebSocket.RawData) => {
      const key = tally(report, data.toString(), internal);
      if (key === undefined) return;
      if (key === sentinelKey) return finish();
      seen.set(key, (seen.get(key) ?? 0) + 1);
    };
    const onClose = (code: number) => finish(code);
    // A liveness bound only: a node that neither answers nor closes within it has hung this connection.
    const timer = setTimeout(() => {
      report.violations.push(`no reply to a sentinel within ${livenessMs} ms after ${frames.map(preview).join(' | ').slice(0, 400)}`);
      finish(-1);
    }, livenessMs);
    ws.on('message', onMessage);
    ws.on('close', onClose);
    for (const f of frames) ws.send(f.bytes, { binary: !f.utf8 });
    ws.send(JSON.stringify({ id: sentinel, method: 'call', params: [0, 'get_chain_id', []] }));
  });
}

/** Compares the ids a window was answered with against what its frames call for. */
function checkWindow(report: FuzzReport, frames: readonly Frame[], expected: readonly Expectation[], seen: Map<string, number>, where: string): void {
  const want = new Map<string, number>();
  for (const e of expected) if (e !== 'none') want.set(e.id, (want.get(e.id) ?? 0) + 1);
  for (const key of new Set([...want.keys(), ...seen.keys()])) {
    const w = want.get(key) ?? 0;
    const s = seen.get(key) ?? 0;
    if (w !== s) {
      const culprits = frames.filter((_, i) => expected[i] !== 'none' && (expected[i] as { id: string }).id === key).map(preview);
      report.violations.push(`${where}: id ${key} answered ${s} times, expected ${w}${culprits.length ? `: ${culprits.join(' | ').slice(0, 600)}` : ''}`);
    }
  }
}

function expectationOf(f: Frame, o: FuzzOptions): Expectation {
  if (f.bytes.length > o.maxRequestBytes) return { id: 'null' };
  return expectationFor(new TextDecoder().decode(f.bytes), o.maxJsonDepth);
}

async function wsLoop(o: FuzzOptions, source: FrameSource, report: FuzzReport, more: () => boolean, n: number): Promise<void> {
  const window = o.window ?? 24;
  const livenessMs = o.livenessMs ?? 30_000;
  let ws = await connectWs(o.port);
  ws.on('error', () => {});
  let round = 0;
  while (more()) {
    const frames: Frame[] = [];
    const closing: Frame[] = [];
    while (frames.length < window && more()) {
      const f = source.next();
      report.frames++;
      inc(report.framesByKind, f.kind);
      // Invalid UTF-8 goes in binary frames here (the node decodes those leniently); in a text frame it is the closing class below.
      if (!f.utf8 && (round + frames.length) % 4 === 0) closing.push(f);
      else frames.push(f);
    }
    report.wsFrames += frames.length;
    const expected = frames.map((f) => expectationOf(f, o));
    const { seen, internal, closed } = await wsWindow(ws, frames, `sentinel-${n}-${round++}`, report, livenessMs);
    checkWindow(report, frames, expected, seen, `ws ${n}`);
    reportInternalErrors(report, internal, frames, expected, `ws ${n}`);
    if (closed !== undefined) {
      report.violations.push(`ws ${n}: the node closed a steady connection (${closed}) after ${frames.map(preview).join(' | ').slice(0, 600)}`);
      ws = await connectWs(o.port);
      ws.on('error', () => {});
    }
    for (const f of closing) await closingFrame(o, f, report, livenessMs);
  }
  ws.close();
}

/** A frame that may close its connection, on a connection of its own: invalid UTF-8 sent as text. */
async function closingFrame(o: FuzzOptions, f: Frame, report: FuzzReport, livenessMs: number): Promise<void> {
  const ws = await connectWs(o.port);
  ws.on('error', () => {});
  report.wsFrames++;
  const seen = new Map<string, number>();
  const done = await new Promise<{ seen: Map<string, number>; internal: string[]; closed?: number }>((resolve) => {
    // The frame goes out as a text frame with its bytes as they are.
    ws.send(f.bytes, { binary: false });
    void wsWindow(ws, [], `sentinel-closing-${report.frames}`, report, livenessMs).then(resolve);
  });
  for (const [k, v] of done.seen) seen.set(k, v);
  if (done.closed !== undefined) {
    inc(report.closes, String(done.closed));
    // RFC 6455 wants 1007; uWS closes without a close frame (1006): issue 14, the transport's part.
    if (done.closed === 1006) inc(report.knownUws, 'ws text frame with invalid UTF-8: closed abruptly (1006), no reply');
  } else {
    checkWindow(report, [f], [expectationOf(f, o)], seen, 'ws invalid-utf8 text');
    reportInternalErrors(report, done.internal, [f], [expectationOf(f, o)], 'ws invalid-utf8 text');
    ws.close();
  }
}

const agentFor = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

function httpPost(agent: http.Agent, port: number, body: Buffer, livenessMs: number, method = 'POST'): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/rpc', method, agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => resolve({ error: err.message }));
    });
    req.setTimeout(livenessMs, () => req.destroy(new Error(`no response within ${livenessMs} ms`)));
    req.on('error', (err) => resolve({ error: err.message }));
    req.end(body);
  });
}

async function httpLoop(o: FuzzOptions, source: FrameSource, report: FuzzReport, more: () => boolean): Promise<void> {
  let agent = agentFor();
  const livenessMs = o.livenessMs ?? 30_000;
  while (more()) {
    const f = source.next();
    report.frames++;
    inc(report.framesByKind, f.kind);
    report.httpRequests++;
    const method = f.kind === 'random-bytes' && f.bytes.length % 7 === 0 ? 'PUT' : 'POST';
    const r = await httpPost(agent, o.port, f.bytes, livenessMs, method);
    if ('error' in r) {
      report.violations.push(`HTTP: no response (${r.error}) to ${preview(f)}`);
      agent.destroy();
      agent = agentFor();
      continue;
    }
    inc(report.httpStatus, String(r.status));
    if (method === 'PUT') {
      if (r.status !== 405) report.violations.push(`HTTP PUT answered ${r.status}, expected 405`);
      continue;
    }
    const expected = f.bytes.length > o.maxRequestBytes ? ({ id: 'null' } as const) : expectationFor(f.bytes.toString('utf8'), o.maxJsonDepth);
    if (r.status === 413 || f.bytes.length > o.maxRequestBytes) {
      // Refused for its size; the node closes the connection after it.
      agent.destroy();
      agent = agentFor();
    }
    if (expected === 'none') {
      if (r.status !== 204 || r.body !== '') report.violations.push(`HTTP: a notification answered ${r.status} ${r.body.slice(0, 120)}: ${preview(f)}`);
      continue;
    }
    const internal: string[] = [];
    const key = tally(report, r.body, internal);
    if (key !== expected.id) report.violations.push(`HTTP: answered with id ${key}, expected ${expected.id}: ${preview(f)}`);
    reportInternalErrors(report, internal, [f], [expected], 'HTTP');
  }
  agent.destroy();
}

// ---- raw HTTP over plain sockets ----

interface RawOutcome {
  /** complete responses read, by status */
  readonly statuses: number[];
  /** whether the node closed the socket */
  readonly closed: boolean;
}

/** Writes `chunks` (pausing a turn between them), then reads responses until `expect` came, the node closed, or `waitMs` passed. */
function rawExchange(port: number, chunks: readonly (Buffer | string)[], expect: number, waitMs: number, destroyAfterWrite = false): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const statuses: number[] = [];
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses, closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('error', () => done(true));
    socket.on('close', () => done(true));
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      // Complete responses: a status line, headers, and Content-Length bytes of body.
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = buf.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) break;
        statuses.push(Number(head.split(' ')[1]));
        buf = buf.subarray(end + 4 + length);
      }
      if (statuses.length >= expect) done(false);
    });
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (socket.destroyed) return;
        socket.write(c);
        await new Promise((r) => setImmediate(r));
      }
      if (destroyAfterWrite) done(false);
    });
  });
}

const BODY = '{"id":1,"method":"call","params":[0,"get_chain_id",[]]}';
const post = (body: string, extra = '', version = '1.1') => `POST /rpc HTTP/${version}\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

/** The raw HTTP scenarios, one round. `waitMs` bounds the wait for an answer that may never come (HTTP/1.0, a stalled socket). */
async function rawRound(o: FuzzOptions, report: FuzzReport, rng: () => number, waitMs: number): Promise<void> {
  const run = async (name: string, p: Promise<RawOutcome>, judge: (r: RawOutcome) => string) => {
    report.rawHttp++;
    const r = await p;
    const outcome = judge(r);
    inc(report.rawOutcomes, `${name}: ${outcome}`);
  };
  const cut = 1 + Math.floor(rng() * (BODY.length - 2));
  await Promise.all([
    // Half-sent: headers without their end, or a body short of its Content-Length, then gone.
    run('half-sent headers, then the client leaves', rawExchange(o.port, [post(BODY).slice(0, 20 + Math.floor(rng() * 40))], 1, waitMs, true), () => 'no crash'),
    run('half-sent body, then the client leaves', rawExchange(o.port, [post(BODY).slice(0, post(BODY).length - cut)], 1, waitMs, true), () => 'no crash'),
    // A body sent one byte a turn: one response.
    run('body in small pieces', rawExchange(o.port, [...post(BODY).match(/[\s\S]{1,7}/g)!], 1, o.livenessMs ?? 30_000), (r) =>
      r.statuses.length === 1 ? `answered ${r.statuses[0]}` : violation(report, `a request sent in pieces got ${r.statuses.length} responses (${r.closed ? 'closed' : 'left open'})`),
    ),
    // The same request whole, on a socket of its own: one response.
    run('one request', rawExchange(o.port, [post(BODY)], 1, o.livenessMs ?? 30_000), (r) =>
      r.statuses.length === 1 ? `answered ${r.statuses[0]}` : violation(report, `a plain request got ${r.statuses.length} responses (${r.closed ? 'closed' : 'left open'})`),
    ),
    // Pipelined: two requests in one write.
    run('pipelined pair', rawExchange(o.port, [post(BODY) + post(BODY)], 2, waitMs), (r) => {
      if (r.statuses.length === 2) return 'both answered';
      if (r.statuses.length === 0 && r.closed) {
        inc(report.knownUws, 'pipelined HTTP/1.1 requests: connection closed, neither answered');
        return 'closed, unanswered (known)';
      }
      return `${r.statuses.length} answered, ${r.closed ? 'closed' : 'left open'}`;
    }),
    // HTTP/1.0 with a body.
    run('HTTP/1.0 with a body', rawExchange(o.port, [post(BODY, '', '1.0')], 1, waitMs), (r) => {
      if (r.statuses.length === 1) return `answered ${r.statuses[0]}`;
      inc(report.knownUws, 'HTTP/1.0 POST with a body: not answered');
      return r.closed ? 'closed, unanswered (known)' : 'unanswered (known)';
    }),
    // Two different Content-Length headers (RFC 9112 §6.3: reject). Recorded; the transport's part.
    run('two Content-Length headers', rawExchange(o.port, [post(BODY, `Content-Length: ${BODY.length + 5}\r\n`)], 1, waitMs), (r) => {
      if (r.statuses.length && r.statuses[0]! < 400) inc(report.knownUws, 'two different Content-Length headers: accepted');
      return r.statuses.length ? `answered ${r.statuses.join(',')}` : r.closed ? 'closed' : 'unanswered';
    }),
    // Garbage request lines and headers: a 400 and a close would be right.
    run('garbage request line', rawExchange(o.port, ['\x00\xff GARBAGE \r\n\r\n'], 1, waitMs), (r) => malformed(report, 'a garbage request line', r)),
    run('header without a colon', rawExchange(o.port, [`POST /rpc HTTP/1.1\r\nHost x\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`], 1, waitMs), (r) => malformed(report, 'a header line without a colon', r)),
    // Chunked transfer encoding: a valid request.
    run('chunked body', rawExchange(o.port, [`POST /rpc HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`], 1, waitMs), (r) => (r.statuses.length ? `answered ${r.statuses.join(',')}` : r.closed ? 'closed' : 'unanswered')),
  ]);
}

/** A malformed request: answered (a 4xx), closed, or, as uWS does, neither within the wait (counted apart). */
function malformed(report: FuzzReport, what: string, r: RawOutcome): string {
  if (r.statuses.length) return `answered ${r.statuses.join(',')}`;
  if (r.closed) return 'closed';
  inc(report.knownUws, `${what}: neither answered nor closed within the wait`);
  return 'unanswered (known)';
}

function violation(report: FuzzReport, text: string): string {
  report.violations.push(text);
  return 'VIOLATION';
}

/** The prober: one call after another on its own connection, each answered within the liveness bound. */
async function prober(o: FuzzOptions, report: FuzzReport, more: () => boolean): Promise<void> {
  const ws = await connectWs(o.port);
  ws.on('error', () => {});
  let n = 0;
  while (more()) {
    const id = `probe-${n++}`;
    const answered = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), o.livenessMs ?? 30_000);
      const onMessage = (data: WebSocket.RawData) => {
        if ((JSON.parse(data.toString()) as { id?: unknown }).id !== id) return;
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve(true);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method: 'call', params: [0, 'get_dynamic_global_properties', []] }));
    });
    if (!answered) {
      report.violations.push(`the prober was not answered within ${o.livenessMs ?? 30_000} ms (call ${n})`);
      break;
    }
    report.proberReplies++;
    // A prober paces itself: one call a turn of the timers, not a flood.
    await new Promise((r) => setTimeout(r, 20));
  }
  ws.close();
}

export async function runFuzzCampaign(o: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = {
    seed: o.seed,
    frames: 0,
    framesByKind: {},
    wsFrames: 0,
    httpRequests: 0,
    rawHttp: 0,
    replies: 0,
    results: 0,
    errorsByCode: {},
    httpStatus: {},
    closes: {},
    knownUws: {},
    rawOutcomes: {},
    proberReplies: 0,
    violations: [],
    sweepRounds: 0,
  };
  const source = new FrameSource(o.seed, o.maxRequestBytes);
  const more = () => (o.maxFrames === undefined || report.frames < o.maxFrames) && (o.deadline === undefined || Date.now() < o.deadline) && report.violations.length < 50;
  let rawSeed = o.seed;
  const rawRng = () => {
    rawSeed = (rawSeed * 1103515245 + 12345) & 0x7fffffff;
    return rawSeed / 0x80000000;
  };
  let proberOn = true;
  const proberDone = prober(o, report, () => proberOn && report.violations.length < 50);
  const progress = o.progress ? setInterval(() => o.progress!(report), 5000) : undefined;
  try {
    const raw = (async () => {
      while (more()) await rawRound(o, report, rawRng, 1000);
    })();
    await Promise.all([
      ...Array.from({ length: o.wsConnections ?? 3 }, (_, i) => wsLoop(o, source, report, more, i)),
      ...Array.from({ length: o.httpClients ?? 2 }, () => httpLoop(o, source, report, more)),
      raw,
    ]);
  } finally {
    proberOn = false;
    if (progress) clearInterval(progress);
    await proberDone;
  }
  report.sweepRounds = source.sweepRounds;
  if (report.proberReplies === 0) report.violations.push('the prober was never answered');
  return report;
}

/** A fixed-width summary of a report, for the terminal and the test log. */
export function formatReport(r: FuzzReport): string {
  const kv = (o: Record<string, number>) => Object.entries(o).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  return [
    `seed ${r.seed}: ${r.frames} frames fuzzed (${r.wsFrames} over WebSocket, ${r.httpRequests} HTTP requests), ${r.rawHttp} raw HTTP exchanges, ${r.sweepRounds} full sweeps of every method and argument position`,
    `frames by kind: ${kv(r.framesByKind)}`,
    `replies: ${r.replies} (${r.results} results); errors by code: ${kv(r.errorsByCode)}`,
    `HTTP statuses: ${kv(r.httpStatus)}`,
    `closes of connections that sent invalid UTF-8 text: ${kv(r.closes)}`,
    `raw HTTP: ${kv(r.rawOutcomes)}`,
    `known uWebSockets.js behaviours (issue 14, transport): ${kv(r.knownUws)}`,
    `prober replies: ${r.proberReplies}`,
    `violations: ${r.violations.length}${r.violations.length ? `\n  ${r.violations.slice(0, 20).join('\n  ')}` : ''}`,
  ].join('\n');
}

/** The access file of a fuzzed node: every API set but debug_api (whose calls write files and make blocks) for everyone. */
export const FUZZ_ACCESS = {
  permission_map: [
    ['*', { password_hash_b64: '*', password_salt_b64: '*', allowed_apis: ['database_api', 'network_broadcast_api', 'history_api', 'network_node_api', 'crypto_api', 'asset_api', 'orders_api', 'block_api', 'custom_operations_api'] }],
  ],
};

/**
 * Options of a fuzzed node, as on the command line. Failed logins are not throttled: the fuzzer logs
 * in with junk all the time, and a throttled login holds back its connection's later replies.
 */
export const fuzzNodeOptions = (accessFile: string): Record<string, string> => ({ 'api-access': accessFile, 'login-failures-before-delay': '1000000', 'block-interval': '0' });

/** The process's memory after full collections, when the runtime lets us ask for them. */
export async function settledMemory(): Promise<{ heapUsed: number; rss: number; collected: boolean }> {
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, collected: typeof gc === 'function' };
}
