// Reply sizes learnt from what calls answered. A connection may have --max-unread-bytes-per-connection
// of replies outstanding: unread by its client, waiting for their turn, or expected of its calls in
// the pool (src/session/session.ts). What a call will answer is not known before it runs; what
// calls of its shape (src/pool/learnt-costs.ts shapeOf: method and argument size) answered lately
// is. Only large replies are noted: a shape that answered LARGE_REPLY_BYTES or more is expected to
// answer the largest it answered within REPLY_SIZE_FOR_MS, every other call nothing. So the first
// calls of a shape run as the pool's capacity allows, and once one has come back large, a client
// that does not read gets at most one more of them (README "Replies outstanding per connection").
// A shape that answers HEAVY_REPLY_BYTES or more is heavy as well: its calls would only use up a
// light call's slice each, and be run again as heavy.
// Bounded: at most REPLY_SIZE_SHAPES shapes, the least recently noted forgotten first.

import { shapeOf } from './learnt-costs.js';
import { HEAVY_REPLY_BYTES, LARGE_REPLY_BYTES, REPLY_SIZE_FOR_MS, REPLY_SIZE_SHAPES } from '../tuning.js';

/** What a call is known by here: its API set, method and arguments (a PoolTask's fields, or a Target's). */
export type SizedCall = { readonly set: string; readonly method: string; readonly params: readonly unknown[] } | { readonly setKey: string; readonly method: string; readonly args: readonly unknown[] };

interface Size {
  readonly method: string;
  bytes: number;
  /** Date.now() when `bytes` was noted */
  at: number;
}

const shapeOfCall = (c: SizedCall) => shapeOf('setKey' in c ? c : { setKey: c.set, method: c.method, args: c.params });

export class ReplySizes {
  /** shape → its largest recent reply; Map order is the order of last notes */
  private readonly shapes = new Map<string, Size>();
  /**
   * Methods with a shape kept, and how many: a call of any other method is expected to answer
   * little without its shape being made (a string per call, for the few methods that need it).
   */
  private readonly methods = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = REPLY_SIZE_SHAPES,
  ) {}

  /** A call answered `bytes`. */
  note(call: SizedCall, bytes: number): void {
    if (bytes < LARGE_REPLY_BYTES && !this.methods.has(call.method)) return;
    const shape = shapeOfCall(call);
    const known = this.shapes.get(shape);
    const now = this.now();
    if (known) {
      this.shapes.delete(shape);
      // The largest within REPLY_SIZE_FOR_MS: small answers of a shape (a range of empty blocks) do
      // not make its large ones (the same range over full blocks) unexpected.
      if (now - known.at > REPLY_SIZE_FOR_MS || bytes >= known.bytes) {
        known.bytes = bytes;
        known.at = now;
      }
      if (known.bytes < LARGE_REPLY_BYTES) return this.forget(call.method);
      this.shapes.set(shape, known);
      return;
    }
    if (bytes < LARGE_REPLY_BYTES) return;
    this.shapes.set(shape, { method: call.method, bytes, at: now });
    this.methods.set(call.method, (this.methods.get(call.method) ?? 0) + 1);
    if (this.shapes.size > this.max) {
      const [oldest, size] = this.shapes.entries().next().value!;
      this.shapes.delete(oldest);
      this.forget(size.method);
    }
  }

  /** The bytes a call is expected to answer: the largest recent reply of its shape when that was large, else 0. */
  expected(call: SizedCall): number {
    if (this.shapes.size === 0 || !this.methods.has(call.method)) return 0;
    const shape = shapeOfCall(call);
    const known = this.shapes.get(shape);
    if (!known) return 0;
    if (this.now() - known.at <= REPLY_SIZE_FOR_MS) return known.bytes;
    this.shapes.delete(shape);
    this.forget(call.method);
    return 0;
  }

  /**
   * Whether a call is expected to answer HEAVY_REPLY_BYTES or more: writing that much takes longer
   * than a light call's slice, so such a call is heavy from the start (the schedule layer, and the
   * scheduler for calls queued light before their shape's size was known).
   */
  heavy(call: SizedCall): boolean {
    return this.expected(call) >= HEAVY_REPLY_BYTES;
  }

  /** Shapes known to answer large replies now. */
  get kept(): number {
    return this.shapes.size;
  }

  private forget(method: string): void {
    const n = (this.methods.get(method) ?? 0) - 1;
    if (n > 0) this.methods.set(method, n);
    else this.methods.delete(method);
  }
}
