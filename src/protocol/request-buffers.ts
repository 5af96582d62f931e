// Buffers for large requests (READ_IN_POOL_FROM_BYTES and up), kept and reused on the front end.
//
// A large request must be copied out of uWS' memory, which is valid only during its callback, and
// is then read in the worker pool. Each copy was a fresh buffer of up to --max-request-bytes, an
// allocation outside V8's heap that V8 counts towards its next collection: at tens of 1 MB
// requests a second the front end ran a full collection of its heap several times a second, and
// every call on its thread waited each one out (docs/design/large-replies.md). A buffer goes back
// here once its request is read (src/pipeline/decode.ts), and the next large request of its size
// class takes it.
//
// Only requests read successfully give their buffer back: one refused or never read may still be
// read for its id on shutdown, and is left to the collector. Buffers are kept in power-of-two size
// classes, at most REQUEST_BUFFERS_KEPT_BYTES of them free; a request larger than the largest
// class gets a buffer of its own.
import { REQUEST_BUFFERS_KEPT_BYTES } from '../tuning.js';

/** The smallest and largest size class: 16 KiB to 4 MiB. */
const SMALLEST = 16 * 1024;
const LARGEST = 4 * 1024 * 1024;

const classOf = (length: number): number => Math.max(SMALLEST, 2 ** Math.ceil(Math.log2(length)));

export class RequestBuffers {
  /** free buffers by size class */
  private readonly free = new Map<number, ArrayBuffer[]>();
  private freeBytes = 0;
  /** buffers handed out and not back: only these are taken back (once each) */
  private readonly out = new WeakSet<ArrayBuffer>();
  /** buffers taken from the free lists (for tests and the design note) */
  reused = 0;

  constructor(private readonly keptBytes = REQUEST_BUFFERS_KEPT_BYTES) {}

  /** A copy of `chunks` (uWS' memory, or copies of it), in a kept buffer when one of its class is free. */
  copy(chunks: readonly (ArrayBuffer | Uint8Array)[]): Uint8Array {
    let length = 0;
    for (const c of chunks) length += c.byteLength;
    const size = classOf(length);
    let buffer: ArrayBuffer;
    if (size > LARGEST) buffer = new ArrayBuffer(length);
    else {
      const kept = this.free.get(size)?.pop();
      if (kept) {
        this.freeBytes -= size;
        this.reused++;
        buffer = kept;
      } else buffer = new ArrayBuffer(size);
      this.out.add(buffer);
    }
    const bytes = new Uint8Array(buffer, 0, length);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c instanceof Uint8Array ? c : new Uint8Array(c), at);
      at += c.byteLength;
    }
    return bytes;
  }

  /** `bytes` (from copy) are no longer read by anyone: their buffer is free for the next request. */
  release(bytes: Uint8Array): void {
    const buffer = bytes.buffer as ArrayBuffer;
    if (!this.out.delete(buffer)) return;
    if (this.freeBytes + buffer.byteLength > this.keptBytes) return;
    const list = this.free.get(buffer.byteLength);
    if (list) list.push(buffer);
    else this.free.set(buffer.byteLength, [buffer]);
    this.freeBytes += buffer.byteLength;
  }

  /** Bytes of free buffers kept now. */
  get kept(): number {
    return this.freeBytes;
  }
}

/** The front end's buffers: one thread, one set (each serving thread or process has its own). */
export const requestBuffers = new RequestBuffers();
