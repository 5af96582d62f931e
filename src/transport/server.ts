// The transport: uWebSockets.js on one port for HTTP and WebSocket. It turns bodies and frames into
// text, hands them to a session, and writes what the session answers. It knows nothing about API sets.
//
// uWS rules this file follows (uWebSockets.js docs/index.d.ts):
//  - MUST copy data out of `req` and out of message/body ArrayBuffers before any await or return;
//  - MUST attach onAborted to a response that is not answered at once, and never touch it after;
//  - MUST cork every write that happens outside the immediate callback;
//  - a WebSocket is unusable after `close`: mark the session closed first and drop late replies.

import uWS from 'uWebSockets.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { parseBasicAuth } from '../access.js';
import { RPC, httpStatusFor, protocolError } from '../errors.js';
import { invalidReply } from '../protocol/jsonrpc.js';
import type { Credentials, Reply, Session } from '../session/session.js';

export type SessionFactory = (transport: 'ws' | 'http', credentials: Credentials, sink: (reply: Reply) => void) => Session;

export interface RpcServer {
  readonly port: number;
  /** Open WebSocket sessions. */
  readonly connections: number;
  close(): void;
}

interface WsData {
  credentials: Credentials;
  session?: Session;
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

export function startServer(config: Config, log: Logger, newSession: SessionFactory): Promise<RpcServer> {
  const app = uWS.App();
  const sockets = new Set<uWS.WebSocket<WsData>>();
  const maxBody = config.maxRequestBytes;

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
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const credentials = credentialsFrom(req.getHeader('authorization'));
      res.upgrade<WsData>({ credentials }, key, protocol, extensions, context);
    },
    open(ws) {
      sockets.add(ws);
      const data = ws.getUserData();
      data.session = newSession('ws', data.credentials, (reply) => {
        if (!reply || data.session?.isClosed) return;
        ws.cork(() => {
          // 2 = dropped at the backpressure limit; uWS then closes the socket itself.
          if (ws.send(reply.body, false) === 2) data.session?.log.warn('client does not read; closing');
        });
      });
      data.credentials = undefined;
    },
    message(ws, message) {
      const session = ws.getUserData().session;
      if (!session) return;
      // The ArrayBuffer is only valid during this callback: decode (copy) it now.
      if (message.byteLength > maxBody) return session.answerNow(protocolError(RPC.REQUEST_TOO_BIG));
      // Nothing may throw into uWS' native code: a failure becomes -32603 for this message only.
      try {
        session.receive(decoder.decode(message));
      } catch (err) {
        session.log.error({ err }, 'message handling failed');
        session.answerNow(protocolError(RPC.INTERNAL));
      }
      if (session.pending >= config.maxPendingCallsPerConnection * 2) {
        // A client that keeps sending while over its limit gets its connection closed (1013: try again later).
        session.log.warn('too many calls in flight; closing');
        session.close();
        ws.end(1013, 'too many calls in flight');
      }
    },
    close(ws) {
      sockets.delete(ws);
      ws.getUserData().session?.close();
    },
  });

  app.any('/*', (res, req) => {
    const method = req.getMethod();
    const authorization = req.getHeader('authorization');
    const contentLength = Number(req.getHeader('content-length') || '0');
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const write = (status: number, body: string | Uint8Array | undefined, close = false) => {
      if (aborted) return;
      res.cork(() => {
        res.writeStatus(STATUS_TEXT[status] ?? String(status));
        if (body !== undefined) res.writeHeader('Content-Type', 'application/json');
        if (status === 405) res.writeHeader('Allow', 'POST');
        res.end(body, close);
      });
      aborted = true;
    };
    if (method !== 'post') {
      return write(405, invalidReply(protocolError(RPC.HTTP_METHOD)));
    }
    if (contentLength > maxBody) {
      return write(413, invalidReply(protocolError(RPC.REQUEST_TOO_BIG)), true);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (aborted) return;
      size += chunk.byteLength;
      if (size > maxBody) return write(413, invalidReply(protocolError(RPC.REQUEST_TOO_BIG)), true);
      // Chunks are neutered after this callback: copy.
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast) return;
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
      const session = newSession('http', credentialsFrom(authorization), (reply) => {
        if (reply === null) write(204, undefined);
        else write(reply.status, reply.body);
      });
      try {
        session.receive(text);
      } catch (err) {
        session.log.error({ err }, 'request handling failed');
        write(500, invalidReply(protocolError(RPC.INTERNAL)));
      }
    });
  });

  return new Promise((resolve, reject) => {
    app.listen(config.rpcEndpoint.host, config.rpcEndpoint.port, (listenSocket) => {
      if (!listenSocket) {
        reject(new Error(`cannot listen on ${config.rpcEndpoint.host}:${config.rpcEndpoint.port}`));
        return;
      }
      log.debug({ status: httpStatusFor(undefined) }, 'listening');
      resolve({
        port: uWS.us_socket_local_port(listenSocket as unknown as uWS.us_socket),
        get connections() {
          return sockets.size;
        },
        close() {
          uWS.us_listen_socket_close(listenSocket);
          for (const ws of [...sockets]) {
            ws.getUserData().session?.close();
            ws.end(1001, 'server shutting down');
          }
          sockets.clear();
        },
      });
    });
  });
}
