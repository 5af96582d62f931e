// Builds a reply as UTF-8 bytes in one growing buffer, so stored JSON is copied once, straight from
// LMDB's memory into the reply, and the finished buffer is transferred (not copied) to the front end.
//
// Every handler writes its result through here, row by row, so this is also where a call's limits
// are checked as it goes: the reply may not grow past --max-reply-bytes, and every
// DEADLINE_CHECK_EVERY writes the call's deadline (--call-budget-ms) is looked at. A call over
// either stops at once, with an error that names the limit, instead of finishing a giant reply.
import { RPC, RpcError, limitError } from '../src/errors.js';

/** Writes between two looks at the clock: a look costs ~25 ns, a write of a stored object ~100 ns or more. */
export const DEADLINE_CHECK_EVERY = 64;

export interface WriterLimits {
  /** bytes; the reply may not grow beyond this */
  readonly maxBytes: number;
  /** Date.now() after which the call stops; Infinity for none */
  readonly deadline: number;
  /** the budget in ms, for the error message */
  readonly budgetMs: number;
}

const NO_LIMITS: WriterLimits = { maxBytes: Number.POSITIVE_INFINITY, deadline: Number.POSITIVE_INFINITY, budgetMs: 0 };

export class ReplyWriter {
  private buf: Uint8Array;
  private len = 0;
  /** true when the caller's session subscribes to what this call returns (the front end decides) */
  subscribing = false;
  /** object ids and accounts the session should subscribe to, reported back with the reply */
  readonly subscribedIds: string[] = [];
  readonly subscribedAccounts: number[] = [];

  /** Notes an object the caller subscribes to, when it subscribes at all. */
  subscribe(id: string): void {
    if (this.subscribing) this.subscribedIds.push(id);
  }

  /** Notes an account whose every change the caller wants (get_full_accounts). */
  subscribeAccount(instance: number): void {
    if (this.subscribing) this.subscribedAccounts.push(instance);
  }

  private writes = 0;

  constructor(
    private readonly limits: WriterLimits = NO_LIMITS,
    initial = 4096,
  ) {
    this.buf = new Uint8Array(initial);
  }

  /** Throws when the call is over its deadline; handlers that scan rows without writing call it too. */
  checkDeadline(): void {
    if (Date.now() > this.limits.deadline) throw new RpcError(limitError(RPC.BUDGET_EXCEEDED, `${this.limits.budgetMs} ms: --call-budget-ms`));
  }

  private afterWrite(): void {
    if (this.len > this.limits.maxBytes) throw new RpcError(limitError(RPC.REPLY_TOO_BIG, `over ${this.limits.maxBytes} bytes: --max-reply-bytes`));
    if (++this.writes % DEADLINE_CHECK_EVERY === 0) this.checkDeadline();
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** Bytes that are already JSON (a stored object). */
  raw(bytes: Uint8Array): this {
    // lmdb-js' getBinaryFast returns a Buffer over its whole shared read buffer with `length` set
    // to the value's size; copy exactly `length` bytes.
    const view = bytes.byteLength === bytes.length ? bytes : bytes.subarray(0, bytes.length);
    this.reserve(view.length);
    this.buf.set(view, this.len);
    this.len += view.length;
    this.afterWrite();
    return this;
  }

  /** JSON text (ASCII-fast path; anything else is UTF-8 encoded). */
  text(s: string): this {
    this.reserve(s.length * 3);
    const { written } = encoder.encodeInto(s, this.buf.subarray(this.len));
    this.len += written;
    this.afterWrite();
    return this;
  }

  /** A value serialised with JSON.stringify (numbers must already follow fc's rules). */
  json(v: unknown): this {
    return this.text(v === undefined ? 'null' : JSON.stringify(v));
  }

  /** A view of exactly the written bytes; its buffer can be transferred. */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  get length(): number {
    return this.len;
  }
}

const encoder = new TextEncoder();
