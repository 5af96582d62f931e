// The front end's side of the reply slab (src/protocol/reply-slab.ts): replies arrive as positions in
// the slab and become views of it (LeasedBytes); a slot is free again for the workers once every
// reply in it has been written (releaseReply), or dropped and collected, and a large reply's run of
// pages once that reply has.
import { HELD_BY_FRONT_END, LeasedBytes, holdersOf, slabLength, slabOffset, type Lease, type ReplySlabInit } from '../protocol/reply-slab.js';

/** What SlabLeases needs of a FinalizationRegistry (the lease is its own unregister token). */
export type SafetyNet<T extends object> = Pick<FinalizationRegistry<T>, 'register' | 'unregister'>;

export class SlabLeases {
  private readonly holders: Int32Array;
  /** replies handed out and not yet ended, per slot (this thread's own count) */
  private readonly pending: Int32Array;
  /** ends a lease once: the slot goes back to the workers with its last reply */
  private readonly end = (lease: Lease): void => {
    if (lease.done) return;
    lease.done = true;
    // Off the safety net as soon as it is written. V8's young-generation collector treats a
    // registered object as alive (only a full collection sees registrations as weak), so every
    // reply view left registered survived each scavenge and was moved to the old generation: about
    // an eighth of what the front end's scavenges copied at 4,500 small calls/s (README "The front
    // end's collector pauses").
    this.net.unregister(lease);
    if (lease.pages > 0) for (let k = 0; k < lease.pages; k++) Atomics.store(this.holders, lease.slot + k, 0);
    else if (--this.pending[lease.slot]! === 0) Atomics.store(this.holders, lease.slot, 0);
  };
  /**
   * The safety net: a reply dropped without being written (its connection closed while it waited
   * its turn, say) ends its lease when it is collected, so no path can keep a slot for good.
   */
  private readonly net: SafetyNet<Lease>;
  /** leases ended by the safety net rather than by a write (for tests and metrics) */
  collected = 0;

  constructor(
    private readonly init: ReplySlabInit,
    /** tests pass a fake to see what is registered and when it is taken off */
    makeNet: (collect: (lease: Lease) => void) => SafetyNet<Lease> = (collect) => new FinalizationRegistry<Lease>(collect),
  ) {
    this.holders = new Int32Array(init.holders);
    this.pending = new Int32Array(this.holders.length);
    this.net = makeNet((lease) => {
      if (lease.done) return;
      this.collected++;
      this.end(lease);
    });
  }

  /** The reply at `ref` (slabRef) as a view of the slab, held until released. */
  view(ref: number): LeasedBytes {
    const offset = slabOffset(ref);
    const length = slabLength(ref);
    const { first: slot, count, large } = holdersOf(this.init, offset, length);
    // A run of large pages holds one reply; a slot may hold many, counted until the last is written.
    if (large) for (let k = 0; k < count; k++) Atomics.store(this.holders, slot + k, HELD_BY_FRONT_END);
    else if (this.pending[slot]!++ === 0) Atomics.store(this.holders, slot, HELD_BY_FRONT_END);
    // Typed arrays take a SharedArrayBuffer; the lib types name ArrayBuffer only.
    const body = new LeasedBytes(this.init.bytes as unknown as ArrayBuffer, offset, length);
    const lease: Lease = { slot, pages: large ? count : 0, done: false, end: this.end };
    body.lease = lease;
    // Registered only if still held when this turn of the event loop is over (registerHeld).
    this.fresh.push(body);
    if (this.fresh.length === 1) setImmediate(this.registerHeld);
    return body;
  }

  /**
   * Replies handed out in this turn of the event loop, not yet on the safety net. Most are written
   * within the turn they arrive in and never need it: each registration makes a record (a WeakCell)
   * in the old generation, one per reply, whose growth set the pace of the front end's full
   * collections (README "The front end's collector pauses"). Held here until the turn's end, they
   * cannot be collected unregistered.
   */
  private fresh: LeasedBytes[] = [];
  /** Puts on the safety net the replies of the last turn that are still not written. */
  private readonly registerHeld = (): void => {
    const held = this.fresh;
    this.fresh = [];
    for (const body of held) if (!body.lease.done) this.net.register(body, body.lease, body.lease);
  };

  /**
   * Frees the slots held by worker threads that are gone (`live`: the threadIds of the pool's
   * threads now): a thread that died during a task never handed its replies over.
   */
  sweep(live: ReadonlySet<number>): number {
    let freed = 0;
    for (let i = 0; i < this.holders.length; i++) {
      const h = Atomics.load(this.holders, i);
      if (h > 0 && !live.has(h) && Atomics.compareExchange(this.holders, i, h, 0) === h) freed++;
    }
    return freed;
  }

  /** Slots held now, by a worker or by the front end. */
  get slotsInUse(): number {
    return this.held(0, this.init.slots);
  }

  get slots(): number {
    return this.init.slots;
  }

  /** Pages of the large part held now, by a worker or by the front end. */
  get largePagesInUse(): number {
    return this.held(this.init.slots, this.holders.length);
  }

  get largePages(): number {
    return this.holders.length - this.init.slots;
  }

  private held(from: number, to: number): number {
    let n = 0;
    for (let i = from; i < to; i++) if (Atomics.load(this.holders, i) !== 0) n++;
    return n;
  }
}
