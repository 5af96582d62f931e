// The reply slab: memory shared by the front end and every worker thread, where workers write the
// replies they send back. A reply written there crosses as two numbers (where it is, how long), not
// as a buffer: a transferred buffer is a fresh external allocation on both threads, and at the rate
// of history pages (30 KB each, thousands a second) those allocations drove V8 to a full collection
// every tenth of a second on every thread, with the GC's helper threads busy all the time.
//
// The slab is cut into slots of SLOT_BYTES. Each slot has one Int32 in `holders`:
//   0          free;
//   threadId   a worker claimed it (compare-and-swap from 0) and writes this task's replies into it;
//   HELD_BY_FRONT_END  its replies reached the front end, which frees the slot (0) once it has sent
//                      every one of them.
// A worker that cannot claim a slot (all are held: many replies wait for slow writes) writes into a
// buffer of its own and transfers it, as before: the slab makes replies cheaper, never fewer.
// A worker that dies holding slots leaves its threadId there; the front end frees those slots when
// it sees the thread gone (pool.ts).
//
// After the slots lies the large part (LARGE_PART_BYTES), in pages of SLOT_BYTES with a holder each:
// a reply larger than a slot takes a run of pages of its own, claimed page by page as slots are.
// Without it, each such reply (a block range of 10 MB, a page of full accounts) crossed as a buffer
// of its own, a fresh external allocation on the front end: at a hundred MB a second of them V8
// started a full collection of the front end's heap every 150 ms or so, 5 to 13 ms each, and every
// call on that thread waited it out (docs/design/large-replies.md).
//
// Both sides import this file; it holds only the layout.

import { LARGE_PART_BYTES, SLOT_BYTES, SLOTS_PER_WORKER } from '../tuning.js';
import { ownCopy } from './shared-copy.js';

/** `holders` value of a slot whose replies the front end holds. */
export const HELD_BY_FRONT_END = -1;

/** What the pool creates and every worker receives (WorkerInit.replySlab). */
export interface ReplySlabInit {
  /** the replies: slots × SLOT_BYTES, then the large part's pages × SLOT_BYTES */
  readonly bytes: SharedArrayBuffer;
  /** Int32 per slot, then per page: who holds it (see above) */
  readonly holders: SharedArrayBuffer;
  /** how many of the holders are slots; the rest are the large part's pages */
  readonly slots: number;
}

/** `largeBytes`: the large part's size (tests make it small). */
export function createReplySlab(workers: number, largeBytes = LARGE_PART_BYTES): ReplySlabInit {
  const slots = Math.max(1, workers) * SLOTS_PER_WORKER;
  const pages = Math.floor(largeBytes / SLOT_BYTES);
  return { bytes: new SharedArrayBuffer((slots + pages) * SLOT_BYTES), holders: new SharedArrayBuffer((slots + pages) * 4), slots };
}

/** The holders a reply at `offset` of `length` bytes occupies: its slot, or its run of large pages. */
export function holdersOf(init: ReplySlabInit, offset: number, length: number): { first: number; count: number; large: boolean } {
  const first = Math.floor(offset / SLOT_BYTES);
  if (first < init.slots) return { first, count: 1, large: false };
  return { first, count: Math.max(1, Math.ceil(length / SLOT_BYTES)), large: true };
}

/** The largest reply the large part can take: one that fits a reference (slabRef) and the part. */
export function largestPlaced(init: ReplySlabInit): number {
  const pages = init.holders.byteLength / 4 - init.slots;
  return Math.min(MAX_PLACED_BYTES, pages * SLOT_BYTES);
}

/**
 * The first run of `need` free pages of `count`, searched from `from` to the end and then from the
 * start: `take(i)` claims page i (false when it is held), `untake(i)` gives back a page claimed for
 * a run that fell short. The run's first page, now claimed, or -1 when none is free. The reply slab's
 * workers claim with compare-and-swap (workers/slab-slots.ts), the task slab's front end with plain
 * marks (src/pool/task-slots.ts).
 */
export function claimRun(count: number, need: number, from: number, take: (page: number) => boolean, untake: (page: number) => void): number {
  if (need > count) return -1;
  for (let start = from, scanned = 0; scanned < count; ) {
    if (start + need > count) {
      scanned += count - start;
      start = 0;
      continue;
    }
    let got = 0;
    while (got < need && take(start + got)) got++;
    if (got === need) return start;
    for (let k = 0; k < got; k++) untake(start + k);
    scanned += got + 1;
    start += got + 1;
  }
  return -1;
}

/**
 * A reply in the slab as one number: its byte offset times 2^24 plus its length (a reply in the slab
 * is under 16 MiB long; a longer one has a buffer of its own). Exact in a double for a slab up to 512 MiB.
 */
const LENGTH_SPAN = 0x1000000;

/** The longest payload a reference names (of either slab); a longer one has a buffer of its own. */
export const MAX_PLACED_BYTES = LENGTH_SPAN - 1;

export function slabRef(offset: number, length: number): number {
  return offset * LENGTH_SPAN + length;
}

export function slabOffset(ref: number): number {
  return Math.floor(ref / LENGTH_SPAN);
}

export function slabLength(ref: number): number {
  return ref % LENGTH_SPAN;
}

/** The front end's hold on one reply in the slab (src/pool/slab-leases.ts ends it). */
export interface Lease {
  /** the reply's slot, or the first page of its run in the large part */
  readonly slot: number;
  /** 0: a slot shared with other replies; otherwise the pages of its run, freed together */
  readonly pages: number;
  /** true once ended: ending twice is a no-op */
  done: boolean;
  readonly end: (lease: Lease) => void;
}

/**
 * Reply bytes that lie in the slab: a view the front end holds until it has written them. Whoever
 * writes a reply body calls releaseReply after the write (uWS copies what the socket does not take
 * at once); a body dropped unwritten is let go when it is collected (the pool's FinalizationRegistry).
 */
export class LeasedBytes extends Uint8Array {
  lease!: Lease;
}

/**
 * Reply bytes a transport may hold until its client reads them, then release (releaseReply): a reply
 * in a run of the slab's large part as it is (the run is its alone; a copy was a fresh large buffer on
 * the front end's thread, docs/design/large-replies.md), a reply in a slot copied out and its slot let
 * go now (a slow reader holds no slot other replies share), a text encoded once.
 */
export function holdable(body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return Buffer.from(body);
  if (!(body instanceof LeasedBytes) || body.lease.pages > 0) return body;
  const own = ownCopy(body);
  releaseReply(body);
  return own;
}

/** Lets the slab slot under a written reply body be used again; any other body: nothing to do. */
export function releaseReply(body: string | Uint8Array): void {
  if (body instanceof LeasedBytes) body.lease.end(body.lease);
}
