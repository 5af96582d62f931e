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
// Both sides import this file; it holds only the layout.

import { SLOT_BYTES, SLOTS_PER_WORKER } from '../tuning.js';

/** `holders` value of a slot whose replies the front end holds. */
export const HELD_BY_FRONT_END = -1;

/** What the pool creates and every worker receives (WorkerInit.replySlab). */
export interface ReplySlabInit {
  /** the replies: slots × SLOT_BYTES */
  readonly bytes: SharedArrayBuffer;
  /** Int32 per slot: who holds it (see above) */
  readonly holders: SharedArrayBuffer;
}

export function createReplySlab(workers: number): ReplySlabInit {
  const slots = Math.max(1, workers) * SLOTS_PER_WORKER;
  return { bytes: new SharedArrayBuffer(slots * SLOT_BYTES), holders: new SharedArrayBuffer(slots * 4) };
}

/**
 * A reply in the slab as one number: its byte offset times 2^24 plus its length (a reply in the slab
 * is at most SLOT_BYTES long). Exact in a double for a slab up to 512 MiB.
 */
const LENGTH_SPAN = 0x1000000;

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
  readonly slot: number;
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

/** Lets the slab slot under a written reply body be used again; any other body: nothing to do. */
export function releaseReply(body: string | Uint8Array): void {
  if (body instanceof LeasedBytes) body.lease.end(body.lease);
}
