// The WebSocket route: upgrade (within the connection limits), messages into the pipeline (large
// ones in turn, src/transport/ingress.ts), replies out once per microtask checkpoint, pings,
// backpressure and close.

import * as uWS from './uws.js';
import { LogBudget } from '../log.js';
import { RPC, limitError, protocolError } from '../errors.js';
import { invalidReply } from '../protocol/jsonrpc.js';
import { releaseReply } from '../protocol/reply-slab.js';
import { DROPPED, MORE, WsOutbox } from './ws-outbox.js';
import type { Connection, Credentials } from '../pipeline/connection.js';
import { TokenBucket } from '../token-bucket.js';
import { STATUS_TEXT, addressOf, credentialsFrom, decoder, type RouteContext, type Routes } from './routes.js';
import { requestBuffers } from '../protocol/request-buffers.js';
import { READ_IN_POOL_FROM_BYTES, TRANSPORT_REFUSAL_LOG_EVERY_MS, WS_WHOLE_REPLY_BYTES, WS_WRITE_TURN_BYTES } from '../tuning.js';
import type { Message } from './ingress.js';

export interface WsData {
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
  /** what it is sent and its socket has not taken yet (large replies, and what waits behind them) */
  outbox?: WsOutbox;
  /** true while a write of what the outbox holds is due (after a drain) */
  outboxDrains?: boolean;
}

export interface WebSockets {
  /** the open WebSockets */
  readonly sockets: Set<uWS.WebSocket<WsData>>;
  /** Writes every reply ready now, before what follows (close frames on shutdown). */
  writeAll(): void;
}

/** Registers the WebSocket route on `app`. */
export function serveWebSockets(app: Routes, ctx: RouteContext): WebSockets {
  const { config, buffered, monitor, limits, waitingRequests } = ctx;
  const maxBody = config.maxRequestBytes;
  const sockets = new Set<uWS.WebSocket<WsData>>();
  /** What a WebSocket holds queued: in uWS, and in its outbox. */
  const queuedFor = (ws: uWS.WebSocket<WsData>) => ws.getBufferedAmount() + (ws.getUserData().outbox?.bytes ?? 0);
  /** Counts what a WebSocket holds queued, and closes it when the node is over budget and it over its share. */
  const holding = (ws: uWS.WebSocket<WsData>) => {
    const data = ws.getUserData();
    const unread = queuedFor(ws);
    buffered.set(ws, unread);
    data.conn?.unread(unread);
    if (buffered.overShare(ws)) {
      data.conn?.log.warn({ held: unread }, 'client does not read and the node is over --max-buffered-bytes; closing');
      monitor.closed('max-buffered-bytes');
      data.conn?.close();
      ws.end(1013, 'node over its memory budget: read your replies');
    }
  };
  /** A WebSocket dropped for holding more than --ws-max-buffered-bytes unread when sent more. */
  const dropped = (ws: uWS.WebSocket<WsData>) => {
    monitor.closed('ws-max-buffered-bytes');
    ws.getUserData().conn?.log.warn('client does not read; closing');
  };
  /** Reads one WebSocket request: into the pipeline, and closes a connection far over its limit. */
  const readWs = (ws: uWS.WebSocket<WsData>, text: Message) => {
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

  // What outboxes may write in this turn of the event loop, all WebSockets together
  // (WS_WRITE_TURN_BYTES): the share comes back at the next turn's check phase.
  let turnLeft = WS_WRITE_TURN_BYTES;
  let turnRenews = false;
  const renewTurn = () => {
    turnLeft = WS_WRITE_TURN_BYTES;
    turnRenews = false;
  };
  /** What is left of this turn's share; the first ask in a turn has it renewed at the next. */
  const turnShare = () => {
    if (!turnRenews) {
      turnRenews = true;
      setImmediate(renewTurn);
    }
    return turnLeft;
  };
  /** Runs `write` against an outbox with this turn's share, and takes off what it wrote. */
  const inTurn = (outbox: WsOutbox, write: (share: number) => number): number => {
    const before = outbox.handed;
    const status = write(turnShare());
    turnLeft -= outbox.handed - before;
    return status;
  };

  /** Writes on what a WebSocket's outbox holds (after a drain), unless it has closed meanwhile. */
  const writeHeld = (ws: uWS.WebSocket<WsData>) => {
    const data = ws.getUserData();
    data.outboxDrains = false;
    if (!sockets.has(ws) || data.conn?.isClosed || !data.outbox) return;
    let status = 1;
    ws.cork(() => void (status = inTurn(data.outbox!, (share) => data.outbox!.drain(ws, share))));
    if (status === DROPPED) dropped(ws);
    else {
      if (status === MORE) writeLater(ws);
      holding(ws);
    }
  };
  /** What a WebSocket's outbox holds is written on in a later turn (after a drain, or past a turn's share). */
  const writeLater = (ws: uWS.WebSocket<WsData>) => {
    const data = ws.getUserData();
    if (data.outboxDrains) return;
    data.outboxDrains = true;
    setImmediate(writeHeld, ws);
  };

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
      const address = addressOf(limits, res, req);
      const refused = limits.open(address);
      if (refused) {
        ctx.refusedConnection(address, refused);
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
      const outbox = (data.outbox = new WsOutbox());
      const writeOut = () => {
        if (data.conn?.isClosed) {
          for (const body of out) releaseReply(body);
          out.length = 0;
          return;
        }
        // A client already holding more than --ws-max-buffered-bytes unread is disconnected rather
        // than allowed to grow our memory, without a close frame (it could not get past the unread
        // bytes): uWS' own rule for what it holds (its maxBackpressure), kept for what the outbox holds.
        if (outbox.bytes > 0 && queuedFor(ws) > config.wsMaxBufferedBytes) {
          for (const body of out) releaseReply(body);
          out.length = 0;
          dropped(ws);
          data.conn?.close();
          ws.close();
          return;
        }
        let status = 1;
        let held = false;
        ws.cork(() => {
          for (const body of out) {
            // After a drop uWS closes the socket itself: nothing more is written.
            if (status === DROPPED) {
              releaseReply(body);
              continue;
            }
            // uWS or the outbox has the bytes now (the body is released once written).
            // A small reply with nothing held goes whole, outside the turn's share (no closure, no
            // timer for the share: this is every small call's path).
            status = outbox.bytes === 0 && body.length <= WS_WHOLE_REPLY_BYTES ? outbox.write(ws, body) : inTurn(outbox, (share) => outbox.write(ws, body, share));
            if (status === 0 || status === MORE) held = true;
            if (status === MORE) writeLater(ws);
          }
        });
        out.length = 0;
        if (status === DROPPED) dropped(ws);
        else if (held) holding(ws);
      };
      data.conn = ctx.newConnection('ws', data.credentials, data.address, (reply) => {
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
      // A large message is kept as bytes, read in the pool (src/protocol/read-in-pool.ts).
      let text: Message;
      try {
        text = message.byteLength >= READ_IN_POOL_FROM_BYTES ? requestBuffers.copy([message]) : decoder.decode(message);
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
      const data = ws.getUserData();
      // What the outbox holds is written on after this callback: written in it, uWS stopped
      // watching the socket for room once the callback returned, and drained no further.
      if (data.outbox && data.outbox.bytes > 0) writeLater(ws);
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
      data.outbox?.clear();
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
  return { sockets, writeAll };
}
