// The HTTP route: a POST body into the pipeline (within the connection limits, the request limit
// and the framing rules), and its reply written back, with backpressure when it is large.

import type * as uWS from './uws.js';
import { RPC, limitError, protocolError } from '../errors.js';
import { invalidReply } from '../protocol/jsonrpc.js';
import { holdable, releaseReply } from '../protocol/reply-slab.js';
import type { Connection } from '../pipeline/connection.js';
import { framingFault } from './framing.js';
import { STATUS_TEXT, addressOf, credentialsFrom, decoder, type RouteContext, type Routes } from './routes.js';
import { requestBuffers } from '../protocol/request-buffers.js';
import { READ_IN_POOL_FROM_BYTES, SMALL_REPLY_BYTES } from '../tuning.js';
import type { Message } from './ingress.js';

/**
 * Registers the HTTP route (every path, every method: only POST is served) on `app`. Returns the
 * requests handed to a connection and not answered yet, which shutdown answers past the drain.
 */
export function serveHttp(app: Routes, ctx: RouteContext): Set<Connection> {
  const { config, log, buffered, monitor, limits, waitingRequests } = ctx;
  const maxBody = config.maxRequestBytes;
  const httpCalls = new Set<Connection>();
  const refusedRequest = (address: string) => {
    monitor.refused('max-request-bytes');
    const unlogged = ctx.refusalLog.admit(performance.now());
    if (unlogged >= 0) log.info({ address, limit: 'max-request-bytes', unlogged }, 'HTTP request refused by a limit');
  };

  app.any('/*', (res, req) => {
    const method = req.getMethod();
    const authorization = req.getHeader('authorization');
    const contentLength = Number(req.getHeader('content-length') || '0');
    const address = addressOf(limits, res, req);
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
    /** the reply held while the client reads it (released once written, or when the client goes) */
    let held: Uint8Array | undefined;
    res.onAborted(() => {
      answered = true;
      if (held) releaseReply(held);
      release();
      conn?.close();
      if (conn) httpCalls.delete(conn);
    });
    /** Writes the body with backpressure: what the socket cannot take now is held here, counted, and sent as it drains. */
    const sendBody = (body: string | Uint8Array) => {
      // Bytes held here until the client reads them: a reply in a slot of the reply slab copied out of
      // it (the slot let go), one in a run of its large part in place (holdable).
      const bytes = (held = holdable(body));
      const finish = () => {
        releaseReply(bytes);
        release();
      };
      const start = res.getWriteOffset();
      const [, done] = res.tryEnd(bytes, bytes.byteLength);
      if (done) return finish();
      const track = () => {
        buffered.set(res, bytes.byteLength - (res.getWriteOffset() - start));
        // Over the node's budget and over its share: drop this slow reader, freeing what it holds.
        if (buffered.overShare(res)) {
          log.warn({ address, held: bytes.byteLength - (res.getWriteOffset() - start) }, 'HTTP client does not read and the node is over --max-buffered-bytes; closing');
          monitor.closed('max-buffered-bytes');
          releaseReply(bytes);
          res.close();
        }
      };
      res.onWritable((offset) => {
        const [ok, finished] = res.tryEnd(bytes.subarray(offset - start), bytes.byteLength);
        if (finished) finish();
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
      ctx.refusedConnection(address, refused);
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
      // A large body is kept as bytes, read in the pool (src/protocol/read-in-pool.ts).
      const text: Message =
        size >= READ_IN_POOL_FROM_BYTES
          ? requestBuffers.copy(chunks === undefined ? [chunk] : [...chunks, chunk])
          : chunks === undefined
            ? decoder.decode(chunk)
            : Buffer.concat([...chunks, Buffer.from(chunk)]).toString('utf8');
      conn = ctx.newConnection('http', credentialsFrom(authorization), address, (reply) => {
        if (conn) httpCalls.delete(conn);
        if (reply === null) write(204, undefined);
        else write(reply.status, reply.body);
      });
      httpCalls.add(conn);
      const read = (body: Message) => {
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
  return httpCalls;
}
