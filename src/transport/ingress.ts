// Large requests wait their turn. Reading a request costs the front end in proportion to its size
// (JSON.parse, the pipeline's checks, packing its arguments for a worker: about 15 ms for one of
// 850 KB on this project's machines), and uWebSockets.js hands over every message a read brought,
// one after another, in one turn of the event loop. Four connections pipelining such requests kept
// the front end on them for a hundred milliseconds at a time while a neighbour's small call waited
// to be read. (Those of READ_IN_POOL_FROM_BYTES or more are now read in the worker pool,
// src/protocol/read-in-pool.ts, which leaves the front end a copy of their bytes; the turns still
// bound how many a read of the socket hands over at once.) So a request over LARGE_REQUEST_BYTES is
// kept (as text, or bytes) and read later, one large
// request per turn of the event loop, the connections in turn; small requests are read at once,
// except those of a connection with a large one waiting, which stay behind it (a connection's
// requests are read in the order they came). What is kept is bounded: per connection by
// --max-pending-calls-per-connection requests, on the node by --max-ingress-bytes.

import { LARGE_REQUEST_BYTES } from '../tuning.js';

/** A request as the transport hands it over: its text, or its bytes (READ_IN_POOL_FROM_BYTES or more). */
export type Message = string | Uint8Array;

/** One connection's requests waiting to be read, in order. */
export interface Waiting {
  readonly texts: Message[];
  /** their bytes */
  bytes: number;
}

export interface Ingress {
  /**
   * Whether the request must wait (it is large, or its connection has requests waiting): if so it
   * is kept, and `read` gets it later, in turn. Returns 'refused' when it cannot be kept (the node
   * holds --max-ingress-bytes, or the connection --max-pending-calls-per-connection requests).
   */
  offer(key: object, text: Message, read: (text: Message) => void): 'now' | 'kept' | 'refused';
  /** Forgets a closed connection's waiting requests; returns how many there were. */
  forget(key: object): number;
  /** bytes kept now */
  readonly bytes: number;
}

export function ingress(limits: { readonly maxBytes: () => number; readonly maxPerConnection: () => number }): Ingress {
  const waiting = new Map<object, Waiting & { read: (text: Message) => void }>();
  let bytes = 0;
  let scheduled = false;
  const turn = () => {
    scheduled = false;
    // The connection longest in line reads its first request; if that was large, this turn's
    // large request is spent; small ones behind it are read with it, up to its next large one.
    const first = waiting.entries().next();
    if (first.done) return;
    const [key, w] = first.value;
    waiting.delete(key);
    let large = false;
    while (w.texts.length > 0 && !(large && w.texts[0]!.length > LARGE_REQUEST_BYTES)) {
      const text = w.texts.shift()!;
      w.bytes -= text.length;
      bytes -= text.length;
      if (text.length > LARGE_REQUEST_BYTES) large = true;
      w.read(text);
    }
    // Still some: back of the line.
    if (w.texts.length > 0) waiting.set(key, w);
    if (waiting.size > 0) later();
  };
  const later = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turn);
  };
  return {
    offer(key, text, read) {
      const w = waiting.get(key);
      if (!w && text.length <= LARGE_REQUEST_BYTES) return 'now';
      if (bytes + text.length > limits.maxBytes() || (w && w.texts.length >= limits.maxPerConnection())) return 'refused';
      if (w) w.texts.push(text);
      else waiting.set(key, { texts: [text], bytes: 0, read });
      const entry = waiting.get(key)!;
      entry.bytes += text.length;
      bytes += text.length;
      later();
      return 'kept';
    },
    forget(key) {
      const w = waiting.get(key);
      if (!w) return 0;
      bytes -= w.bytes;
      waiting.delete(key);
      return w.texts.length;
    },
    get bytes() {
      return bytes;
    },
  };
}
