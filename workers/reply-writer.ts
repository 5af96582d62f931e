// Builds a reply as UTF-8 bytes in one growing buffer, so stored JSON is copied once, straight from
// LMDB's memory into the reply, and the finished buffer is transferred (not copied) to the front end.
//
// Every handler writes its result through here, row by row, so this is also where a call's limits
// are checked as it goes: the reply may not grow past --max-reply-bytes, and every
// DEADLINE_CHECK_EVERY writes the call's deadline (--call-budget-ms) is looked at. A call over
// either stops at once, with an error that names the limit, instead of finishing a giant reply.
// The same look tells whether the caller has gone (its connection closed): the call then stops with
// -32011, an answer nobody reads, and its worker is free for the others.
import { RPC, RpcError, limitError, protocolError } from '../src/errors.js';
import type { SlabSlots } from './slab-slots.js';
import { copyBytes } from '../src/protocol/shared-copy.js';
import { DEADLINE_CHECK_EVERY, DEADLINE_CHECK_BYTES, ARENA_BYTES, INITIAL_BYTES, SLOT_BYTES } from '../src/tuning.js';

export interface WriterLimits {
  /** bytes; the reply may not grow beyond this */
  readonly maxBytes: number;
  /** Date.now() after which the call stops; Infinity for none */
  readonly deadline: number;
  /** the budget in ms, for the error message */
  readonly budgetMs: number;
  /** true once the caller has gone (its connection closed); none: never */
  readonly cancelled?: () => boolean;
  /** Date.now() past which a light call stops to run again as heavy (SliceOver); none: no slice */
  readonly sliceEnd?: number;
  /**
   * With a slice: ms of CPU the thread has had since the call's task began (workers/thread-clock.ts).
   * At the slice's end, a call whose thread had less than its slice waited for a CPU rather than
   * worked: its slice goes on for the rest. None: the slice is wall time alone.
   */
  readonly cpuSinceTask?: () => number;
  /** the slice's length in ms (with cpuSinceTask) */
  readonly sliceMs?: number;
}

/**
 * Thrown at a look at the deadline once a light call has used up its slice: not an error for its
 * caller, a sign to the worker that the call goes back to run again as heavy.
 */
export class SliceOver extends Error {
  constructor() {
    super('the call used up its slice as a light call');
  }
}

/**
 * Whether a light call's thread had less CPU than the call's slice since its task began: the call
 * waited for a CPU rather than worked, and is not slow. Without a clock (`cpuSinceTask`), never.
 */
export function waitedForCpu(cpuSinceTask: (() => number) | undefined, sliceMs: number): boolean {
  return cpuSinceTask !== undefined && cpuSinceTask() < sliceMs;
}

const NO_LIMITS: WriterLimits = { maxBytes: Number.POSITIVE_INFINITY, deadline: Number.POSITIVE_INFINITY, budgetMs: 0 };

const EMPTY = new Uint8Array(0);

/**
 * Where the replies of one task are written one after another.
 *
 * With the reply slab (memory the front end shares, src/protocol/reply-slab.ts) each reply is written
 * into a private staging buffer and, once finished, copied whole into a slab slot, at an 8-byte
 * aligned place, by memcpy (src/protocol/shared-copy.ts); it crosses as a position, with no buffer
 * allocated, transferred and collected for it. Not written into the slot piece by piece: V8 copies
 * into shared memory with relaxed atomic moves, byte by byte unless source and target are equally
 * aligned, so a hundred small unaligned copies (a history page's entries) cost ten times one aligned
 * copy of the whole page. With every slot held, a reply gets a buffer of its own.
 *
 * Without a slab (tests, tools), replies go straight into buffers of the arena's own, a few replies
 * each, that are transferred: each transferred buffer costs a backing store, a transfer and a detach
 * on both threads, more than copying a small reply.
 *
 * Replies run one at a time, so one writer at a time writes in the arena.
 */
export class ReplyArena {
  /** where the finished replies end in `buf` (with a slab: always 0, each reply starts its staging buffer) */
  used = 0;
  /** where the next reply is written: the arena's buffer, or with a slab the staging buffer */
  buf: Uint8Array = EMPTY;
  /** with a slab: the slot being filled (-1: none yet), its bytes, and where its replies end */
  private slot = -1;
  private slotBytes: Uint8Array = EMPTY;
  private slotUsed = 0;
  /** the slots this task claimed, and how many finished replies each holds */
  private readonly claimed: number[] = [];
  private readonly replies: number[] = [];

  constructor(private readonly slots?: SlabSlots) {
    if (slots) this.buf = slots.staging();
  }

  /** Whether replies are staged and then placed in the slab (finish calls place). */
  get staged(): boolean {
    return this.slots !== undefined;
  }

  /** Room for a reply: the free end of this arena, or a fresh buffer when too little is left (the full one stays with its replies). */
  room(): void {
    if (this.slots) {
      this.used = 0;
      return;
    }
    if (this.buf.length - this.used >= INITIAL_BYTES) return;
    this.buf = Buffer.allocUnsafeSlow(ARENA_BYTES);
    this.used = 0;
  }

  /** The staging buffer outgrew itself: `next` replaces it (and is kept for later replies and tasks). */
  restaged(next: Buffer): void {
    this.buf = next;
  }

  /** Without a slab: a reply ends at `end` in `buf`, and its place is kept. */
  finished(end: number): void {
    this.used = end;
  }

  /**
   * With a slab: the staged reply of `length` bytes, copied to its place: a slab slot, or if larger
   * than a slot a run of the slab's large part; with none free, a buffer of its own.
   */
  place(length: number): Uint8Array {
    const reply = this.buf.subarray(0, length);
    if (length <= SLOT_BYTES) {
      let at = (this.slotUsed + 7) & ~7;
      if (this.slot < 0 || at + length > SLOT_BYTES) {
        this.slot = this.slots!.claim();
        if (this.slot >= 0) {
          this.claimed.push(this.slot);
          this.replies.push(0);
          this.slotBytes = this.slots!.bytes(this.slot);
        }
        at = 0;
      }
      if (this.slot >= 0) {
        copyBytes(this.slotBytes, at, reply);
        this.slotUsed = at + length;
        this.replies[this.replies.length - 1]!++;
        return this.slotBytes.subarray(at, at + length);
      }
    } else {
      const run = this.slots!.claimRun(length);
      if (run) {
        copyBytes(run, 0, reply);
        this.runs.push(run);
        return run;
      }
    }
    const own = Buffer.allocUnsafeSlow(length);
    own.set(reply);
    return own;
  }

  /** runs of the slab's large part this task's replies were placed in (handed over with them, unless the task fails) */
  private readonly runs: Uint8Array[] = [];

  /**
   * After the task: the slots that hold no finished reply are free again (the front end frees the
   * others once it has sent them); with `all`, every slot (the task failed: no answer crosses).
   */
  settle(all = false): void {
    for (let i = 0; i < this.claimed.length; i++) if (all || this.replies[i] === 0) this.slots!.release(this.claimed[i]!);
    if (all) for (const run of this.runs) this.slots!.releaseRun(run);
    this.runs.length = 0;
    this.claimed.length = 0;
    this.replies.length = 0;
    if (this.slots && this.buf !== EMPTY) this.slots.unstage(this.buf as Buffer);
    this.buf = EMPTY;
    this.slot = -1;
    this.slotBytes = EMPTY;
    this.slotUsed = 0;
    this.used = 0;
  }
}

export class ReplyWriter {
  private buf: Uint8Array;
  /** where this reply starts in `buf` (after the arena's earlier replies), and where it ends */
  private start = 0;
  private len = 0;
  /** the arena this reply is written in, until it outgrows it */
  private arena: ReplyArena | undefined;
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

  /** set once a look at the clock found the call's slice used up (it threw SliceOver) */
  sliceOver = false;
  /** where the call's slice ends now: limits.sliceEnd, moved on while its thread waited for a CPU */
  private sliceEnd: number | undefined;
  private writes = 0;
  /** the reply's size at the last look at the deadline that bytes brought (DEADLINE_CHECK_BYTES) */
  private checkedAtSize = 0;

  constructor(
    private readonly limits: WriterLimits = NO_LIMITS,
    initial: number | ReplyArena = INITIAL_BYTES,
  ) {
    this.sliceEnd = limits.sliceEnd;
    if (typeof initial === 'number') this.buf = new Uint8Array(initial);
    else {
      initial.room();
      this.arena = initial;
      this.buf = initial.buf;
      this.start = this.len = initial.used;
    }
  }


  /**
   * Throws when the call is over its deadline, or its caller has gone. Handlers that walk rows
   * without writing them count those rows with `skipped()`, which calls this as writes do.
   */
  checkDeadline(): void {
    if (this.limits.cancelled?.()) throw new RpcError(protocolError(RPC.CALL_CANCELLED));
    const now = Date.now();
    if (now > this.limits.deadline) throw new RpcError(limitError(RPC.BUDGET_EXCEEDED, `${this.limits.budgetMs} ms: --call-budget-ms`));
    if (this.sliceEnd !== undefined && now > this.sliceEnd) {
      // Waited for a CPU rather than worked: the slice goes on for what it has left (a look at
      // the thread's clock, only here, at a slice's end).
      const { cpuSinceTask, sliceMs } = this.limits;
      if (sliceMs !== undefined && waitedForCpu(cpuSinceTask, sliceMs)) {
        this.sliceEnd = now + (sliceMs - cpuSinceTask!());
        return;
      }
      // Remembered here too: a handler that wraps what it catches (a serializer's parse error) must
      // not turn the end of a slice into its caller's error.
      this.sliceOver = true;
      throw new SliceOver();
    }
  }

  /** `rows` rows read and not written (a filter turned them down, or they are gathered to be written later): counted as writes are, for the look at the deadline. */
  skipped(rows = 1): void {
    const before = this.writes;
    this.writes += rows;
    if (Math.floor(this.writes / DEADLINE_CHECK_EVERY) !== Math.floor(before / DEADLINE_CHECK_EVERY)) this.checkDeadline();
  }

  /** After writing `rows` rows (stored objects, or one piece of text): the reply's cap, and now and then the deadline. */
  private afterWrite(rows = 1): void {
    const size = this.len - this.start;
    if (size > this.limits.maxBytes) throw new RpcError(limitError(RPC.REPLY_TOO_BIG, `over ${this.limits.maxBytes} bytes: --max-reply-bytes`));
    if (size - this.checkedAtSize >= DEADLINE_CHECK_BYTES) {
      this.checkedAtSize = size;
      this.checkDeadline();
    }
    this.skipped(rows);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const written = this.len - this.start;
    let size = Math.max(INITIAL_BYTES, (this.arena ? written : this.buf.length) * 2);
    while (size < written + n) size *= 2;
    // Not zero-filled (everything up to len is written before it is read) and never from Node's
    // shared pool: the finished buffer is transferred to the front end whole. A reply that outgrows
    // its arena moves out of it; the arena's free end stays for the next reply.
    const next = Buffer.allocUnsafeSlow(size);
    next.set(this.buf.subarray(this.start, this.len));
    this.buf = next;
    this.start = 0;
    this.len = written;
    // A staged reply stays staged (the larger buffer is kept for the arena's later replies).
    if (this.arena?.staged) this.arena.restaged(next);
    else this.arena = undefined;
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

  /**
   * Bytes `start` to `end` of `source`, already JSON, copied without cutting a view out of it: `rows`
   * stored objects in one piece (a run of a history record), counted as that many writes.
   */
  rawRange(source: Buffer, start: number, end: number, rows = 1): this {
    this.reserve(end - start);
    this.len += source.copy(this.buf, this.len, start, end);
    this.afterWrite(rows);
    return this;
  }

  /** Makes room for `n` more bytes at once, when the caller knows what it will write. */
  expect(n: number): this {
    this.reserve(n);
    return this;
  }

  /** JSON text (ASCII-fast path; anything else is UTF-8 encoded). */
  text(s: string): this {
    // Room for the worst case (3 bytes a UTF-16 unit) when there is that much; else the exact size,
    // so that a long text does not move a reply out of a slot it fits.
    this.reserve(s.length * 3 <= this.buf.length - this.len ? s.length * 3 : Buffer.byteLength(s));
    // Short ASCII (the commas and brackets between stored objects, a small number) is copied byte by
    // byte: cheaper than a subarray and a native encodeInto call, which cost as much as the copy of
    // a stored object.
    if (s.length <= SHORT_TEXT && this.ascii(s)) {
      this.afterWrite();
      return this;
    }
    const { written } = encoder.encodeInto(s, this.buf.subarray(this.len));
    this.len += written;
    this.afterWrite();
    return this;
  }

  /** Writes `s` if it is all ASCII (room is reserved); false, having written nothing, if not. */
  private ascii(s: string): boolean {
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
    const buf = this.buf;
    let at = this.len;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.len = at;
    return true;
  }

  /** A value serialised with JSON.stringify (numbers must already follow fc's rules). */
  json(v: unknown): this {
    return this.text(v === undefined ? 'null' : JSON.stringify(v));
  }

  /**
   * A view of exactly the written bytes; its buffer can be transferred (an arena's buffer once, with
   * the other replies in it). In an arena, the reply now holds its place there.
   */
  finish(): Uint8Array {
    if (this.arena?.staged) return this.arena.place(this.len);
    if (this.arena) this.arena.finished(this.len);
    return this.buf.subarray(this.start, this.len);
  }

  get length(): number {
    return this.len - this.start;
  }
}

const encoder = new TextEncoder();
/** Texts up to this length are checked for ASCII and copied byte by byte. */
const SHORT_TEXT = 32;
