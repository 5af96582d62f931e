// What a WebSocket is sent, in order, as fast as its socket takes it. A reply of up to
// WS_WHOLE_REPLY_BYTES is handed to uWebSockets.js whole when nothing waits, as before: what the
// socket does not take, uWS copies into its own buffer. A larger one is written as one message in
// fragments of WS_FRAGMENT_BYTES, each only once uWS holds nothing unsent, and the rest of it stays
// here, in the buffer the worker filled, until the socket drains. Handed to uWS whole, a 9.4 MB
// reply to a client that did not read cost the front end's thread a copy of the 5 MB the kernel
// did not take (4 to 36 ms, with the allocation of a buffer that size), and the node that copy
// besides the reply itself (README "Replies outstanding per connection"). Once something is held
// here, every later reply waits behind it (a message may not start inside another); those in a
// reply slab slot are copied out, so that a slow reader holds no slot other replies share. A reply
// in a run of the slab's large part is held in place until written: the run is its alone, and
// copying it out made a fresh 10 MB buffer on this thread for every block range, which set V8 on
// a full collection of the front end's heap several times a second (docs/design/large-replies.md).
// Once the large part is full, large replies have buffers of their own again.
//
// A turn of the event loop writes at most WS_WRITE_TURN_BYTES of what outboxes hold, all WebSockets
// together (the transport keeps the share, src/transport/ws.ts): a client that reads as fast as the
// loopback delivers took a whole 9.9 MB reply in one call, 640 fragments and as many sends, and the
// front end's thread was at it for 10 ms and more while every other connection's replies and
// requests waited (issue 31: a neighbour's p99 under four connections pipelining such calls).
// Past the share, the writing goes on in a later turn (MORE), after what else is ready.
//
// Fragments stay under 16 KiB: uWS 20.30 writes a frame of 16 KiB or more, sent with nothing
// buffered, as its header and then its payload, and when the socket takes the header but none of
// the payload it buffers the header a second time (a client then reads a frame header inside a
// payload: "RSV2 and RSV3 must be clear"). Smaller frames go through its cork buffer, whole.

import { holdable, releaseReply } from '../protocol/reply-slab.js';
import { WS_FRAGMENT_BYTES, WS_WHOLE_REPLY_BYTES, WS_WRITE_TURN_BYTES } from '../tuning.js';

/** What the outbox uses of a uWS WebSocket (tests give an imitation). */
export interface FragmentSocket {
  send(message: string | Uint8Array, isBinary?: boolean): number;
  // uWebSockets.js 20.30 answers these with a number (its send status), whatever its declarations say.
  sendFirstFragment(message: string | Uint8Array, isBinary?: boolean): number | boolean;
  sendFragment(message: string | Uint8Array): number | boolean;
  sendLastFragment(message: string | Uint8Array): number | boolean;
  getBufferedAmount(): number;
}

/** uWS' send status for a message dropped at its backpressure limit (it then closes the socket). */
export const DROPPED = 2;
/**
 * The outbox's own status: the socket takes more, but this turn's share (WS_WRITE_TURN_BYTES) is
 * written; the caller writes on in a later turn. (uWS' statuses are 0 to 2.)
 */
export const MORE = 3;

interface Held {
  /** the reply's bytes: its own, or a run of the slab's large part (released once written) */
  readonly bytes: Uint8Array;
  /** bytes of it handed to uWS already */
  offset: number;
}

export class WsOutbox {
  private readonly held: Held[] = [];
  private heldBytes = 0;
  /** Bytes of held replies handed to uWS since the start (what a turn's share counts) */
  handed = 0;

  /** Bytes of replies held here, not yet handed to uWS. */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Sends `body` after everything before it: at once when nothing is held and it is small, else
   * held and written as the socket takes it. Returns DROPPED when uWS dropped a message (it closes
   * the socket: nothing more may be written), else 0 when something waits (in uWS or here), MORE
   * when the socket would take more than this turn's share, 1 when the socket took everything.
   */
  write(ws: FragmentSocket, body: string | Uint8Array, budget = WS_WRITE_TURN_BYTES): number {
    if (this.held.length === 0 && body.length <= WS_WHOLE_REPLY_BYTES) {
      const status = ws.send(body, false);
      releaseReply(body);
      return status;
    }
    // Out of a slab slot, or a text encoded once; a run of the large part in place (see above).
    const bytes = holdable(body);
    this.held.push({ bytes, offset: 0 });
    this.heldBytes += bytes.length;
    return this.drain(ws, budget);
  }

  /**
   * Writes on what is held while uWS holds nothing unsent, at most about `budget` bytes (what is
   * left of this turn's share; with none left, nothing: MORE). Returns as write does.
   */
  drain(ws: FragmentSocket, budget = WS_WRITE_TURN_BYTES): number {
    while (this.held.length > 0) {
      if (ws.getBufferedAmount() > 0) return 0;
      if (budget <= 0) return MORE;
      const h = this.held[0]!;
      const { bytes } = h;
      // A reply of one fragment or less goes whole.
      if (h.offset === 0 && bytes.length <= WS_FRAGMENT_BYTES) {
        this.held.shift();
        this.heldBytes -= bytes.length;
        budget -= bytes.length;
        this.handed += bytes.length;
        const status = ws.send(bytes, false);
        releaseReply(bytes);
        if (status === DROPPED) return DROPPED;
        continue;
      }
      const end = Math.min(bytes.length, h.offset + WS_FRAGMENT_BYTES);
      const chunk = bytes.subarray(h.offset, end);
      const status = h.offset === 0 ? ws.sendFirstFragment(chunk, false) : end === bytes.length ? ws.sendLastFragment(chunk) : ws.sendFragment(chunk);
      if (status === DROPPED) return DROPPED;
      this.heldBytes -= end - h.offset;
      budget -= end - h.offset;
      this.handed += end - h.offset;
      h.offset = end;
      if (end === bytes.length) {
        this.held.shift();
        // uWS has copied what the socket did not take: the run is free for the workers.
        releaseReply(bytes);
      }
    }
    return ws.getBufferedAmount() > 0 ? 0 : 1;
  }

  /** Lets go of everything held (the socket closed). */
  clear(): void {
    for (const h of this.held) releaseReply(h.bytes);
    this.held.length = 0;
    this.heldBytes = 0;
  }
}
