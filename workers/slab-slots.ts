// A worker's side of the reply slab (src/protocol/reply-slab.ts): claiming free slots to write replies
// into, and giving back the ones a task ended up not using. The front end frees the others.
import { claimRun, largestPlaced, type ReplySlabInit } from '../src/protocol/reply-slab.js';
import { STAGING_KEPT_BYTES, SLOT_BYTES } from '../src/tuning.js';

/** A staging buffer's first size: a slot's, so that a reply that fits a slot is written without growing it. */
const STAGING_BYTES = SLOT_BYTES;

export class SlabSlots {
  private readonly holders: Int32Array;
  private readonly view: Buffer;
  private readonly count: number;
  /** where the next search for a free slot starts: slots are taken round the slab, not always the first free one */
  private next = 0;

  /** `me`: this thread's mark in the holders, a non-zero id no other live thread uses (its threadId). */
  constructor(
    private readonly init: ReplySlabInit,
    private readonly me: number,
  ) {
    if (me <= 0) throw new Error('a slab holder needs an id above 0');
    this.holders = new Int32Array(init.holders);
    this.view = Buffer.from(init.bytes);
    this.count = init.slots;
    this.pages = this.holders.length - init.slots;
    this.largest = largestPlaced(init);
  }

  /** the large part's pages (holders after the slots), the largest reply it takes, and where the next search for a run starts */
  private readonly pages: number;
  private readonly largest: number;
  private nextPage = 0;

  /**
   * A run of free pages in the large part for a reply of `length` bytes, now this thread's: the
   * run's bytes (a view of the shared memory), or undefined when no run is free or the reply is too
   * large. Pages are claimed one by one, as slots are; a page found held gives back the run so far.
   */
  claimRun(length: number): Buffer | undefined {
    if (length > this.largest) return undefined;
    const need = Math.ceil(length / SLOT_BYTES);
    const base = this.count;
    const start = claimRun(
      this.pages,
      need,
      this.nextPage,
      (page) => Atomics.compareExchange(this.holders, base + page, 0, this.me) === 0,
      (page) => Atomics.store(this.holders, base + page, 0),
    );
    if (start < 0) return undefined;
    this.nextPage = (start + need) % this.pages;
    const offset = (base + start) * SLOT_BYTES;
    return this.view.subarray(offset, offset + length);
  }

  /** Gives back a run claimRun gave (its reply was never handed over). */
  releaseRun(run: Uint8Array): void {
    const first = Math.floor(run.byteOffset / SLOT_BYTES);
    for (let k = 0; k < Math.ceil(run.byteLength / SLOT_BYTES); k++) Atomics.compareExchange(this.holders, first + k, this.me, 0);
  }

  /** A free slot, now this thread's; -1 when every slot is held. */
  claim(): number {
    for (let k = 0; k < this.count; k++) {
      const i = (this.next + k) % this.count;
      if (Atomics.compareExchange(this.holders, i, 0, this.me) === 0) {
        this.next = i + 1;
        return i;
      }
    }
    return -1;
  }

  /** Gives back a slot this thread claimed and wrote no finished reply into. */
  release(slot: number): void {
    Atomics.compareExchange(this.holders, slot, this.me, 0);
  }

  /** The slot's bytes (a view of the shared memory). */
  bytes(slot: number): Buffer {
    return this.view.subarray(slot * SLOT_BYTES, (slot + 1) * SLOT_BYTES);
  }

  /** Staging buffers not in use: one per task running at once on this thread, kept between tasks. */
  private readonly spare: Buffer[] = [];

  /** A buffer to write replies in before they are placed in the slab (ReplyArena). */
  staging(): Buffer {
    return this.spare.pop() ?? Buffer.allocUnsafeSlow(STAGING_BYTES);
  }

  /** A staging buffer back for the next task; one grown past STAGING_KEPT_BYTES (a huge reply) is let go. */
  unstage(buf: Buffer): void {
    if (buf.length <= STAGING_KEPT_BYTES && this.spare.length < 4) this.spare.push(buf);
  }

  /** Whether `bytes` lie in the slab. */
  holds(bytes: Uint8Array): boolean {
    return bytes.buffer === this.init.bytes;
  }
}
