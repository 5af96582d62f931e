// The transport: uWebSockets.js on one port for HTTP and WebSocket (and, with --rpc-tls-endpoint, on a
// second port for HTTPS and wss, with the same routes). It turns bodies and frames into text, hands
// them to a connection (src/pipeline/connection.ts), and writes what it answers. It knows nothing
// about API sets or sessions. This file assembles it: the WebSocket route (ws.ts), the HTTP route
// (http.ts), the probes and /metrics (probes.ts) on every app, then listening and drain (listen.ts).
//
// uWS rules this file follows (uWebSockets.js docs/index.d.ts):
//  - MUST copy data out of `req` and out of message/body ArrayBuffers before any await or return;
//  - MUST attach onAborted to a response that is not answered at once, and never touch it after;
//  - MUST cork every write that happens outside the immediate callback;
//  - a WebSocket is unusable after `close`: mark the connection closed first and drop late replies.

import * as uWS from './uws.js';
import type { Config } from '../config.js';
import { ingress } from './ingress.js';
import { LogBudget, type Logger } from '../log.js';
import { RPC, httpStatusFor, limitError } from '../errors.js';
import type { ConnectionFactory } from '../pipeline/connection.js';
import { connectionLimits, type Refusal } from './connection-limits.js';
import type { BufferedBytes } from './buffered-bytes.js';
import type { Probes } from '../readiness.js';
import type { ServerPem } from './tls.js';
import { onEvery, type RouteContext, type TransportMonitor } from './routes.js';
import { serveWebSockets } from './ws.js';
import { serveHttp } from './http.js';
import { serveProbes } from './probes.js';
import { drain, listen, portOf, sslApp } from './listen.js';
import { TRANSPORT_REFUSAL_LOG_EVERY_MS } from '../tuning.js';

export type { TransportMonitor };

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
  /**
   * Closes every socket at once, listening ones included, without a close frame: what is left once
   * close() has answered and said 1001 (HTTP keep-alive connections, WebSockets whose client has not
   * closed yet), or everything after a failure. A serving thread must do this before it ends.
   */
  closeSockets(): void;
}

/** What startServer is made of. */
export interface ServerOptions {
  readonly config: Config;
  readonly log: Logger;
  /** makes the connection each WebSocket, and each HTTP request, is handed to */
  readonly newConnection: ConnectionFactory;
  /** the bytes held for slow readers, node-wide (--max-buffered-bytes) */
  readonly buffered: BufferedBytes;
  /** what GET /ready answers */
  readonly probes: Probes;
  readonly monitor: TransportMonitor;
  /** the checked --server-pem, needed with --rpc-tls-endpoint */
  readonly pem?: ServerPem;
  /** the port (and TLS port) is held by sibling serving processes of the same node already */
  readonly sharedPort?: boolean;
}

export async function startServer(options: ServerOptions): Promise<RpcServer> {
  const { config, log, monitor, pem, sharedPort = false } = options;
  if (config.rpcTlsEndpoint && !pem) throw new Error('--rpc-tls-endpoint needs the checked --server-pem');
  // Both apps are made before either listens: a certificate uWS refuses stops the start, not half of it.
  const plainApp = uWS.App();
  const tlsApp = config.rpcTlsEndpoint && pem ? sslApp(pem) : undefined;
  const app = onEvery(tlsApp ? [plainApp, tlsApp] : [plainApp]);
  const limits = connectionLimits(config);
  // A client refused in a loop must not flood the log: the first refusal is logged, then one line
  // a second with how many were not.
  const refusalLog = new LogBudget(TRANSPORT_REFUSAL_LOG_EVERY_MS);
  const ctx: RouteContext = {
    config,
    log,
    newConnection: options.newConnection,
    buffered: options.buffered,
    monitor,
    limits,
    waitingRequests: ingress({ maxBytes: () => config.maxIngressBytes, maxPerConnection: () => config.maxPendingCallsPerConnection }),
    refusalLog,
    refusedConnection(address: string, refusal: Refusal) {
      monitor.refused(refusal.limit);
      const unlogged = refusalLog.admit(performance.now());
      if (unlogged >= 0) log.info({ address, limit: refusal.limit, unlogged }, 'connection refused by a limit');
    },
  };
  const { sockets, writeAll } = serveWebSockets(app, ctx);
  serveProbes(app, options.probes, monitor, log);
  // Registered last: it answers every path the others do not.
  const httpCalls = serveHttp(app, ctx);

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
  /** The listening sockets are closed (once: uWS frees a closed listening socket), and every socket. */
  let unlistened = false;
  let socketsClosed = false;
  const unlisten = () => {
    if (unlistened) return;
    unlistened = true;
    uWS.us_listen_socket_close(plain);
    if (secure) uWS.us_listen_socket_close(secure);
  };
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
      unlisten();
      // Calls in flight: each WebSocket's unanswered ones, and HTTP requests not yet answered.
      const inFlight = () => {
        let n = limits.total - sockets.size;
        for (const ws of sockets) n += ws.getUserData().conn?.pending ?? 0;
        return n;
      };
      await drain(inFlight, drainMs);
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
    closeSockets() {
      if (socketsClosed) return;
      socketsClosed = true;
      // App.close closes the listening sockets too: they must not be closed a second time.
      unlistened = true;
      uWS.closeApp(plainApp);
      if (tlsApp) uWS.closeApp(tlsApp);
    },
  };
}
