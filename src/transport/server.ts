// The transport: uWebSockets.js on one port for HTTP and WebSocket (and, with --rpc-tls-endpoint, on a
// second port for HTTPS and wss, with the same routes). It turns bodies and frames into text, hands
// them to a connection (src/pipeline/connection.ts), and writes what it answers. It knows nothing
// about API sets or sessions.
//
// uWS rules this file follows (uWebSockets.js docs/index.d.ts):
//  - MUST copy data out of `req` and out of message/body ArrayBuffers before any await or return;
//  - MUST attach onAborted to a response that is not answered at once, and never touch it after;
//  - MUST cork every write that happens outside the immediate callback;
//  - a WebSocket is unusable after `close`: mark the connection closed first and drop late replies.

import net from 'node:net';
import * as uWS from './uws.js';
import type { Config, Endpoint } from '../config.js';
import { ingress } from './ingress.js';
import { LogBudget, type Logger } from '../log.js';
import { parseBasicAuth } from '../access.js';
import { RPC, httpStatusFor, limitError, protocolError } from '../errors.js';
import { invalidReply } from '../protocol/jsonrpc.js';
import { LeasedBytes, releaseReply } from '../protocol/reply-slab.js';
import type { Connection, ConnectionFactory, Credentials } from '../pipeline/connection.js';
import { connectionLimits, type Refusal } from './connection-limits.js';
import { framingFault } from './framing.js';
import { TokenBucket } from '../token-bucket.js';
import type { BufferedBytes } from './buffered-bytes.js';
import type { Probes } from '../readiness.js';
import { ServerPemError, type ServerPem } from './tls.js';

/**
 * What the transport reports to the node's metrics, and the text it serves at GET /metrics. The
 * composition root wires it; the transport knows no metric names.
 */
export interface TransportMonitor {
  /** GET /metrics: the Prometheus text and its content type */
  scrape(): Promise<{ readonly contentType: string; readonly text: string }>;
  /** a connection, or a message, refused by one of the transport's limits */
  refused(limit: Refusal['limit'] | 'max-request-bytes' | 'max-ingress-bytes'): void;
  /** a connection closed for not reading its replies, or for sending far past its calls in flight */
  closed(limit: 'max-buffered-bytes' | 'ws-max-buffered-bytes' | 'max-pending-calls-per-connection' | 'ws-max-pings-per-second'): void;
  /** requests a connection sent that were still waiting to be read (large ones, and those behind them) when it closed: never read */
  unread(requests: number): void;
}

/** Refused connections and oversized HTTP requests are logged at most this often, node-wide (ms). */
export const TRANSPORT_REFUSAL_LOG_EVERY_MS = 1000;

export interface RpcServer {
  readonly port: number;
  /** the --rpc-tls-endpoint port (HTTPS and wss), when TLS is served */
  readonly tlsPort: number | undefined;
  /** Open WebSocket sessions. */
  readonly connections: number;
  /** HTTP requests received and not yet answered in full. */
  readonly httpRequests: number;
  /**
   * Stops accepting, lets the calls in flight be answered for up to `drainMs`, then answers the ones
   * still unanswered with -32016 (server shutting down) and closes every WebSocket with 1001.
   * Resolves with the calls it answered so.
   */
  close(drainMs?: number): Promise<number>;
}

interface WsData {
  credentials: Credentials;
  /** pings this client may still send this second (--ws-max-pings-per-second) */
  readonly pings: TokenBucket;
  /** the client address its place in the connection limits is counted under */
  address: string;
  conn?: Connection;
  /** performance.now() at open */
  openedAt?: number;
  /** this connection's oversized messages, logged at most once a second (made on the first) */
  refusals?: LogBudget;
}

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  204: '204 No Content',
  400: '400 Bad Request',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/**
 * Credentials of a request. As in Core, a header of another scheme (a proxy's Bearer token, say)
 * means no credentials: the wildcard user. A Basic header that cannot be decoded is a failed login.
 */
function credentialsFrom(header: string): Credentials {
  if (!/^basic /i.test(header)) return undefined;
  return parseBasicAuth(header) ?? 'malformed';
}

const decoder = new TextDecoder();

/**
 * Refuses a port another process listens on. uWebSockets.js listens with SO_REUSEPORT, so a second
 * node would otherwise share the port and clients would alternate between two chains; a plain
 * exclusive listen on it first tells. (Port 0 picks a free port: nothing to check.)
 */
function portFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `cannot listen on ${host}:${port}: the port is in use by another process` : `cannot listen on ${host}:${port}: ${err.message}`)),
    );
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** ms between two looks at the calls still in flight while draining on shutdown. */
const DRAIN_POLL_MS = 10;

/** Replies up to this size are handed to uWS whole (see `write`). */
const SMALL_REPLY_BYTES = 48 * 1024;

/** What the routes are registered with: every listener's app, so that both serve the same routes. */
type Routes = Pick<uWS.TemplatedApp, 'ws' | 'get' | 'any'>;

/** Registers each route on every app (the plain one, and the TLS one when there is one). */
function onEvery(apps: readonly uWS.TemplatedApp[]): Routes {
  return {
    ws(pattern, behavior) {
      for (const a of apps) a.ws(pattern, behavior);
      return apps[0]!;
    },
    get(pattern, handler) {
      for (const a of apps) a.get(pattern, handler);
      return apps[0]!;
    },
    any(pattern, handler) {
      for (const a of apps) a.any(pattern, handler);
      return apps[0]!;
    },
  };
}

/**
 * The TLS app. The PEM was checked already (tls.ts); if uWS still refuses it, say which file rather
 * than uWS's bare "App construction failed".
 */
function sslApp(pem: ServerPem): uWS.TemplatedApp {
  try {
    // One file for both: OpenSSL's PEM readers take the blocks of their kind and skip the others.
    return uWS.SSLApp({ cert_file_name: pem.file, key_file_name: pem.file, ...(pem.passphrase ? { passphrase: pem.passphrase } : {}) });
  } catch (err) {
    throw new ServerPemError(`--server-pem ${pem.file}: uWebSockets.js cannot serve TLS with it (${(err as Error).message})`);
  }
}

/**
 * Listens on one endpoint once no other process holds it; with `shared`, beside the sibling serving
 * processes (--processes) that hold it already, which SO_REUSEPORT allows: the kernel spreads new
 * connections over every process listening.
 */
async function listen(app: uWS.TemplatedApp, at: Endpoint, shared: boolean): Promise<uWS.us_listen_socket> {
  if (!shared) await portFree(at.host, at.port);
  return new Promise((resolve, reject) => {
    app.listen(at.host, at.port, (listenSocket) => {
      if (listenSocket) resolve(listenSocket);
      else reject(new Error(`cannot listen on ${at.host}:${at.port}`));
    });
  });
}

const portOf = (listenSocket: uWS.us_listen_socket): number => uWS.us_socket_local_port(listenSocket as unknown as uWS.us_socket);

export async function startServer(
  config: Config,
  log: Logger,
  newConnection: ConnectionFactory,
  buffered: BufferedBytes,
  probes: Probes,
  monitor: TransportMonitor,
  pem?: ServerPem,
  /** the port (and TLS port) is held by sibling serving processes of the same node already */
  sharedPort = false,
): Promise<RpcServer> {
  if (config.rpcTlsEndpoint && !pem) throw new Error('--rpc-tls-endpoint needs the checked --server-pem');
  // Both apps are made before either listens: a certificate uWS refuses stops the start, not half of it.
  const plainApp = uWS.App();
  const tlsApp = config.rpcTlsEndpoint && pem ? sslApp(pem) : undefined;
  const app = onEvery(tlsApp ? [plainApp, tlsApp] : [plainApp]);
  const sockets = new Set<uWS.WebSocket<WsData>>();
  /** HTTP requests handed to a connection and not answered yet (shutdown answers them past the drain) */
  const httpCalls = new Set<Connection>();
  const maxBody = config.maxRequestBytes;
  const limits = connectionLimits(config);
  /** Counts what a WebSocket holds queued, and closes it when the node is over budget and it over its share. */
  const holding = (ws: uWS.WebSocket<WsData>) => {
    const unread = ws.getBufferedAmount();
    buffered.set(ws, unread);
    ws.getUserData().conn?.unread(unread);
    if (buffered.overShare(ws)) {
      const data = ws.getUserData();
      data.conn?.log.warn({ held: ws.getBufferedAmount() }, 'client does not read and the node is over --max-buffered-bytes; closing');
      monitor.closed('max-buffered-bytes');
      data.conn?.close();
      ws.end(1013, 'node over its memory budget: read your replies');
    }
  };
  // A client refused in a loop must not flood the log: the first refusal is logged, then one line
  // a second with how many were not.
  const refusalLog = new LogBudget(TRANSPORT_REFUSAL_LOG_EVERY_MS);
  const refusedConnection = (address: string, refusal: Refusal) => {
    monitor.refused(refusal.limit);
    const unlogged = refusalLog.admit(performance.now());
    if (unlogged >= 0) log.info({ address, limit: refusal.limit, unlogged }, 'connection refused by a limit');
  };
  const refusedRequest = (address: string) => {
    monitor.refused('max-request-bytes');
    const unlogged = refusalLog.admit(performance.now());
    if (unlogged >= 0) log.info({ address, limit: 'max-request-bytes', unlogged }, 'HTTP request refused by a limit');
  };
  /** Large requests wait their turn to be read, the connections in turn (src/transport/ingress.ts). */
  const waitingRequests = ingress({ maxBytes: () => config.maxIngressBytes, maxPerConnection: () => config.maxPendingCallsPerConnection });
  /** Reads one WebSocket request: into the pipeline, and closes a connection far over its limit. */
  const readWs = (ws: uWS.WebSocket<WsData>, text: string) => {
    const data = ws.getUserData();
    const conn = data.conn;
    if (!conn || conn.isClosed) return;
    let keepOpen = true;
    try {
      keepOpen = conn.receive(text);
    } catch (err) {
      conn.log.error({ err }, 'message handling failed');
      conn.refuse(protocolError(RPC.INTERNAL));
    }
    if (!keepOpen) {
      // A client that keeps sending while far over its limit gets its connection closed (1013: try again later).
      // What is answered already goes first, as it would have without writeSoon.
      writeAll();
      conn.log.warn('too many calls in flight; closing');
      monitor.closed('max-pending-calls-per-connection');
      monitor.unread(waitingRequests.forget(data));
      conn.close();
      ws.end(1013, 'too many calls in flight');
    }
  };
  // A WebSocket's replies leave once per microtask checkpoint, every reply it has ready in one corked
  // write: the answers of a task (or of two tasks back at once) often hold several for one
  // connection, and each write is a syscall and a TCP segment of its own (ws-small: 2.3 replies
  // a write, 57% fewer sendto calls). The checkpoint ends the event-loop callback these replies
  // were made in, so none waits for another event.
  let toWrite: (() => void)[] = [];
  let spareWrites: (() => void)[] = [];
  const writeAll = () => {
    const now = toWrite;
    toWrite = spareWrites;
    for (const w of now) w();
    now.length = 0;
    spareWrites = now;
  };
  const writeSoon = (w: () => void) => {
    if (toWrite.push(w) === 1) queueMicrotask(writeAll);
  };
  const addressOf = (res: uWS.HttpResponse, req: uWS.HttpRequest): string =>
    limits.clientAddress(decoder.decode(res.getRemoteAddressAsText()), req.getHeader('x-forwarded-for'));

  app.ws<WsData>('/*', {
    compression: uWS.DISABLED,
    // Frames up to twice the request limit are read and answered with -32007; larger ones close
    // the connection (uWS refuses them before we see them).
    maxPayloadLength: maxBody * 2,
    idleTimeout: config.wsIdleTimeout,
    sendPingsAutomatically: true,
    maxBackpressure: config.wsMaxBufferedBytes,
    // A client that does not read is disconnected rather than allowed to grow our memory.
    closeOnBackpressureLimit: 1,
    upgrade(res, req, context) {
      const address = addressOf(res, req);
      const refused = limits.open(address);
      if (refused) {
        refusedConnection(address, refused);
        // Refused before the upgrade: a plain HTTP 503 with the JSON-RPC error, and the socket closed.
        res.cork(() => {
          res.writeStatus(STATUS_TEXT[503]!).writeHeader('Content-Type', 'application/json').end(invalidReply(refused.error), true);
        });
        return;
      }
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const credentials = credentialsFrom(req.getHeader('authorization'));
      // The upgrade happens now, in this callback, so `open` and later `close` follow for certain.
      res.upgrade<WsData>({ credentials, address, pings: new TokenBucket(config.wsMaxPingsPerSecond, performance.now()) }, key, protocol, extensions, context);
    },
    open(ws) {
      sockets.add(ws);
      const data = ws.getUserData();
      // Replies ready in this microtask checkpoint, written together by `writeOut`.
      const out: (string | Uint8Array)[] = [];
      const writeOut = () => {
        if (data.conn?.isClosed) {
          for (const body of out) releaseReply(body);
          out.length = 0;
          return;
        }
        let dropped = 0;
        let held = false;
        ws.cork(() => {
          for (const body of out) {
            const status = ws.send(body, false);
            // uWS has the bytes now (what the socket did not take is copied into its buffer).
            releaseReply(body);
            // 2 = dropped at the per-connection backpressure limit; uWS then closes the socket itself.
            if (status === 2) dropped++;
            else if (status === 0) held = true;
          }
        });
        out.length = 0;
        for (let i = 0; i < dropped; i++) {
          monitor.closed('ws-max-buffered-bytes');
          data.conn?.log.warn('client does not read; closing');
        }
        if (held && dropped === 0) holding(ws);
      };
      data.conn = newConnection('ws', data.credentials, data.address, (reply) => {
        if (!reply) return;
        if (data.conn?.isClosed) return releaseReply(reply.body);
        out.push(reply.body);
        if (out.length === 1) writeSoon(writeOut);
      });
      data.credentials = undefined;
      data.openedAt = performance.now();
      data.conn.log.info({ address: data.address }, 'connection opened');
    },
    message(ws, message) {
      const data = ws.getUserData();
      const conn = data.conn;
      if (!conn) return;
      // The ArrayBuffer is only valid during this callback: decode (copy) it now.
      if (message.byteLength > maxBody) {
        monitor.refused('max-request-bytes');
        const unlogged = (data.refusals ??= new LogBudget(TRANSPORT_REFUSAL_LOG_EVERY_MS)).admit(performance.now());
        if (unlogged >= 0) conn.log.info({ limit: 'max-request-bytes', bytes: message.byteLength, unlogged }, 'message refused by a limit');
        return conn.refuse(protocolError(RPC.REQUEST_TOO_BIG));
      }
      // Nothing may throw into uWS' native code: a failure becomes -32603 for this message only.
      let text: string;
      try {
        text = decoder.decode(message);
      } catch (err) {
        conn.log.error({ err }, 'message handling failed');
        return conn.refuse(protocolError(RPC.INTERNAL));
      }
      // A large request, or one behind it on its connection, waits its turn (src/transport/ingress.ts).
      const offered = waitingRequests.offer(data, text, (later) => readWs(ws, later));
      if (offered === 'now') readWs(ws, text);
      else if (offered === 'refused') {
        monitor.refused('max-ingress-bytes');
        conn.refuse(limitError(RPC.NODE_BUSY, 'large requests waiting to be read: --max-ingress-bytes, or --max-pending-calls-per-connection of them on one connection'));
      }
    },
    drain(ws) {
      holding(ws);
    },
    // uWS answers every ping itself; a client that floods them gets its connection closed instead
    // of an unbounded stream of pongs (1008: policy violation).
    ping(ws) {
      const data = ws.getUserData();
      if (data.pings.take(performance.now())) return;
      data.conn?.log.warn({ perSecond: config.wsMaxPingsPerSecond }, 'client sends too many pings; closing');
      monitor.closed('ws-max-pings-per-second');
      data.conn?.close();
      ws.end(1008, 'too many pings: --ws-max-pings-per-second');
    },
    close(ws, code) {
      sockets.delete(ws);
      buffered.set(ws, 0);
      const data = ws.getUserData();
      monitor.unread(waitingRequests.forget(data));
      data.conn?.close();
      limits.close(data.address);
      if (data.conn) {
        const seconds = Math.round(performance.now() - (data.openedAt ?? 0)) / 1000;
        const unlogged = data.refusals?.drain();
        data.conn.log.info({ address: data.address, code, seconds, unlogged: unlogged || undefined }, 'connection closed');
      }
    },
  });

  // Probes for load balancers and supervisors: plain GETs, no JSON-RPC, not counted as connections.
  const probe = (res: uWS.HttpResponse, ok: boolean, body: unknown) => {
    res.cork(() => {
      res.writeStatus(ok ? STATUS_TEXT[200]! : STATUS_TEXT[503]!).writeHeader('Content-Type', 'application/json').end(JSON.stringify(body));
    });
  };
  app.get('/health', (res) => probe(res, true, { status: 'ok' }));
  // Prometheus scrapes: the text comes from the node's metrics, after an await, so the write is corked.
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    monitor.scrape().then(
      ({ contentType, text }) => {
        if (aborted) return;
        res.cork(() => {
          res.writeStatus(STATUS_TEXT[200]!).writeHeader('Content-Type', contentType).end(text);
        });
      },
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        if (aborted) return;
        res.cork(() => {
          res.writeStatus(STATUS_TEXT[500]!).writeHeader('Content-Type', 'text/plain').end('metrics scrape failed\n');
        });
      },
    );
  });
  app.get('/ready', (res) => {
    let state;
    try {
      state = probes.ready();
    } catch (err) {
      log.error({ err }, 'readiness check failed');
      return probe(res, false, { ready: false, reason: 'readiness check failed' });
    }
    probe(res, state.ready, state);
  });

  app.any('/*', (res, req) => {
    const method = req.getMethod();
    const authorization = req.getHeader('authorization');
    const contentLength = Number(req.getHeader('content-length') || '0');
    const address = addressOf(res, req);
    const refused = limits.open(address);
    // `answered`: the status line is out (or the client left); nothing more may be written but the
    // rest of a body that did not fit in the socket at once.
    let answered = false;
    // The request's place in the connection limits, and what it holds for a slow reader, are given
    // back once: when the reply is fully written or the client is gone.
    let counted = refused === undefined;
    const release = () => {
      if (counted) limits.close(address);
      counted = false;
      buffered.set(res, 0);
    };
    // The request's connection, once its body is read. A client that goes away before its reply
    // closes it, as a WebSocket close does: its call, waiting or running, is dropped.
    let conn: Connection | undefined;
    res.onAborted(() => {
      answered = true;
      release();
      conn?.close();
      if (conn) httpCalls.delete(conn);
    });
    /** Writes the body with backpressure: what the socket cannot take now is held here, counted, and sent as it drains. */
    const sendBody = (body: string | Uint8Array) => {
      // Bytes held here until the client reads them must be ours: a reply in the reply slab is
      // copied out of it (and the slab's slot let go) rather than kept for as long as the client takes.
      const bytes = typeof body === 'string' || body instanceof LeasedBytes ? Buffer.from(body) : body;
      releaseReply(body);
      const start = res.getWriteOffset();
      const [, done] = res.tryEnd(bytes, bytes.byteLength);
      if (done) return release();
      const track = () => {
        buffered.set(res, bytes.byteLength - (res.getWriteOffset() - start));
        // Over the node's budget and over its share: drop this slow reader, freeing what it holds.
        if (buffered.overShare(res)) {
          log.warn({ address, held: bytes.byteLength - (res.getWriteOffset() - start) }, 'HTTP client does not read and the node is over --max-buffered-bytes; closing');
          monitor.closed('max-buffered-bytes');
          res.close();
        }
      };
      res.onWritable((offset) => {
        const [ok, finished] = res.tryEnd(bytes.subarray(offset - start), bytes.byteLength);
        if (finished) release();
        else track();
        return ok;
      });
      track();
    };
    const write = (status: number, body: string | Uint8Array | undefined, close = false) => {
      if (answered) {
        if (body !== undefined) releaseReply(body);
        return;
      }
      answered = true;
      res.cork(() => {
        res.writeStatus(STATUS_TEXT[status] ?? String(status));
        if (body !== undefined) res.writeHeader('Content-Type', 'application/json');
        if (status === 405) res.writeHeader('Allow', 'POST');
        // A small reply goes out with end(): uWS keeps what the socket does not take, at most
        // SMALL_REPLY_BYTES per request in progress (and requests are bounded per address); only
        // larger replies are written with backpressure and counted against --max-buffered-bytes.
        if (body === undefined || close || body.length <= SMALL_REPLY_BYTES / 3) {
          res.end(body, close);
          if (body !== undefined) releaseReply(body);
          release();
        } else {
          sendBody(body);
        }
      });
    };
    if (refused) {
      refusedConnection(address, refused);
      return write(503, invalidReply(refused.error), true);
    }
    // Conflicting framing (a request-smuggling vector behind proxies): 400, and the connection closes.
    const fault = framingFault(req);
    if (fault !== undefined) {
      log.info({ address, fault }, 'HTTP request refused for its framing; closing');
      return write(400, invalidReply(protocolError(RPC.HTTP_FRAMING)), true);
    }
    if (method !== 'post') {
      return write(405, invalidReply(protocolError(RPC.HTTP_METHOD)));
    }
    if (contentLength > maxBody) {
      refusedRequest(address);
      return write(413, invalidReply(protocolError(RPC.REQUEST_TOO_BIG)), true);
    }
    // Most bodies come in one chunk: that one is decoded straight from uWS' buffer, never copied.
    let chunks: Buffer[] | undefined;
    let size = 0;
    res.onData((chunk, isLast) => {
      if (answered) return;
      size += chunk.byteLength;
      if (size > maxBody) {
        refusedRequest(address);
        return write(413, invalidReply(protocolError(RPC.REQUEST_TOO_BIG)), true);
      }
      if (!isLast) {
        // Chunks are neutered after this callback: copy the ones kept for later.
        (chunks ??= []).push(Buffer.from(chunk.slice(0)));
        return;
      }
      const text = chunks === undefined ? decoder.decode(chunk) : Buffer.concat([...chunks, Buffer.from(chunk)]).toString('utf8');
      conn = newConnection('http', credentialsFrom(authorization), address, (reply) => {
        if (conn) httpCalls.delete(conn);
        if (reply === null) write(204, undefined);
        else write(reply.status, reply.body);
      });
      httpCalls.add(conn);
      const read = (body: string) => {
        if (answered || !conn) return;
        try {
          conn.receive(body);
        } catch (err) {
          httpCalls.delete(conn);
          conn.log.error({ err }, 'request handling failed');
          write(500, invalidReply(protocolError(RPC.INTERNAL)));
        }
      };
      // A large body waits its turn to be read, as a WebSocket's large message does.
      const offered = waitingRequests.offer(conn, text, read);
      if (offered === 'now') read(text);
      else if (offered === 'refused') {
        httpCalls.delete(conn);
        monitor.refused('max-ingress-bytes');
        write(503, invalidReply(limitError(RPC.NODE_BUSY, 'large requests waiting to be read: --max-ingress-bytes')));
      }
    });
  });

  const plain = await listen(plainApp, config.rpcEndpoint, sharedPort);
  let secure: uWS.us_listen_socket | undefined;
  if (tlsApp && config.rpcTlsEndpoint) {
    try {
      secure = await listen(tlsApp, config.rpcTlsEndpoint, sharedPort);
    } catch (err) {
      uWS.us_listen_socket_close(plain);
      throw err;
    }
  }
  log.debug({ status: httpStatusFor(undefined), tls: secure !== undefined }, 'listening');
  return {
    port: portOf(plain),
    tlsPort: secure && portOf(secure),
    get connections() {
      return sockets.size;
    },
    get httpRequests() {
      // Every WebSocket holds its place in the limits from upgrade to close; the rest are HTTP requests.
      return Math.max(0, limits.total - sockets.size);
    },
    async close(drainMs = 0) {
      uWS.us_listen_socket_close(plain);
      if (secure) uWS.us_listen_socket_close(secure);
      // Calls in flight: each WebSocket's unanswered ones, and HTTP requests not yet answered.
      const inFlight = () => {
        let n = limits.total - sockets.size;
        for (const ws of sockets) n += ws.getUserData().conn?.pending ?? 0;
        return n;
      };
      const deadline = Date.now() + drainMs;
      while (inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, DRAIN_POLL_MS));
      // Past the bound: what is still unanswered gets the error now, before its connection closes.
      let left = 0;
      if (inFlight() > 0) {
        const error = limitError(RPC.SHUTTING_DOWN, `not answered within --shutdown-drain-ms, ${drainMs} ms`);
        for (const ws of sockets) left += ws.getUserData().conn?.abandon(error) ?? 0;
        for (const conn of [...httpCalls]) left += conn.abandon(error);
      }
      // The answers just given wait for this checkpoint's write: they go before the close frames.
      writeAll();
      for (const ws of [...sockets]) {
        ws.getUserData().conn?.close();
        ws.end(1001, 'server shutting down');
      }
      sockets.clear();
      return left;
    },
  };
}
