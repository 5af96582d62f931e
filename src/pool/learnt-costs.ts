// Cost classes learnt from what calls did. A call's class is guessed before it runs, from list
// lengths and limits (src/pipeline/cost.ts); some calls that look light are not (a range of full
// blocks, a transaction of thousands of operations). A light call that uses up its slice in a
// worker is stopped and run again as heavy (src/pool/scheduler.ts), and its shape (method and the
// size of its arguments) gets a strike here. A shape whose calls strike STRIKES times, and at least
// STRIKE_SHARE of its light calls since it first did, is heavy from the start for LEARNT_FOR_MS.
// The share, not a count alone: on a busy machine an ordinary call now and then uses up its slice
// for reasons of the moment (a collection, its thread waiting for a CPU), and learning from a few
// of a million would make a wallet's everyday calls heavy. The share counts only calls of the shape
// scheduled since its first strike (they are what `seen` counts): a call that ran past its slice to
// the end, scheduled before that, is no strike. A node started under load gets a burst of calls at
// once, all scheduled before any struck, and the first calls of a kind are slow (each market's book
// is built for the snapshot, the code is compiled); their strikes against the one call counted made
// a market call's shape heavy for LEARNT_FOR_MS, and halved what a node polled by trading bots
// answered. A call stopped at its slice proved its cost, and is a strike whenever it was scheduled,
// as a client pipelining 99 of them needs. Bounded: at most LEARNT_SHAPES shapes are kept, the least
// recently struck forgotten first. Nor does a call among its worker thread's first few of its
// method strike (COLD_CALLS, workers/method-warmth.ts): those compile the method's code, and a
// thread's first history calls cost 3 to 11 ms of CPU against a 5 ms slice. In one bench run a node
// that served history calls from its start ran them all as heavy, four to a task, for as long as it
// was measured (minutes), at three fifths of the calls/s of the same node warmed by other calls
// first: strikes at its start are the likeliest cause, and this takes them away.

import { argSize } from '../protocol/read-in-pool.js';
import { LEARNT_SHAPES, STRIKES, STRIKE_SHARE, STRIKE_WINDOW, LEARNT_FOR_MS } from '../tuning.js';

/**
 * A call's shape: its API set and method, and the size of its arguments in powers of two (lists'
 * lengths, one level into objects: a transaction's operations; a string's length in KiB; the span
 * of a range of blocks). Cheap: it looks at the arguments' top level and one below.
 */
export function shapeOf(t: { readonly setKey: string; readonly method: string; readonly args: readonly unknown[] }): string {
  let size = 0;
  const args = t.args;
  for (let i = 0; i < args.length; i++) size += argSize(args[i]);
  if (t.method === 'get_blocks' && typeof args[0] === 'number' && typeof args[1] === 'number') size += Math.max(0, args[1] - args[0]);
  return `${t.setKey}.${t.method}:${32 - Math.clz32(Math.min(size, 0xffffffff))}`;
}

interface Shape {
  strikes: number;
  /** light calls of this shape scheduled since its first strike (the struck one included) */
  seen: number;
  /** when it first struck (the scheduling clock): calls scheduled before ran long without striking */
  firstStrike: number;
  /** Date.now() when it was learnt heavy; undefined while it is not */
  heavySince?: number;
}

export class LearntCosts {
  /** shape → its strikes; Map order is the order of last strikes */
  private readonly shapes = new Map<string, Shape>();
  /** calls stopped at their slice and run again as heavy, since start */
  requeued = 0;
  /** light calls that ran past their slice to the end (no look at the clock stopped them), since start */
  ranLong = 0;

  /**
   * `now`: the clock of LEARNT_FOR_MS; `schedulingClock`: the clock calls are scheduled by (the
   * scheduler's performance.now()), against which a strike's call is told from those scheduled
   * before the first
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = LEARNT_SHAPES,
    private readonly schedulingClock: () => number = () => performance.now(),
  ) {}

  /**
   * Whether a call of this shape, guessed light, is heavy from the start; else it is counted as one
   * of the shape's light calls (only for shapes that have struck: the others cost a failed lookup).
   */
  isHeavy(shape: string): boolean {
    if (this.shapes.size === 0) return false;
    const s = this.shapes.get(shape);
    if (!s) return false;
    if (s.heavySince !== undefined) {
      if (this.now() - s.heavySince <= LEARNT_FOR_MS) return true;
      this.shapes.delete(shape);
      return false;
    }
    if (++s.seen > STRIKE_WINDOW) {
      s.seen = 0;
      s.strikes = 0;
    }
    return false;
  }

  /** Whether this shape is learnt heavy now (no counting: for calls already counted when queued). */
  learntHeavy(shape: string): boolean {
    if (this.shapes.size === 0) return false;
    const since = this.shapes.get(shape)?.heavySince;
    return since !== undefined && this.now() - since <= LEARNT_FOR_MS;
  }

  /**
   * A light call of this shape, scheduled at `scheduledAt` (the scheduling clock), used up its slice:
   * `stopped` at it, or it ran past it to the end.
   */
  strike(shape: string, stopped: boolean, scheduledAt = Number.POSITIVE_INFINITY): void {
    const known = this.shapes.get(shape);
    // Ran long, and scheduled before the shape first struck: no call counted stands against it.
    if (known && !stopped && scheduledAt < known.firstStrike) return;
    const s = known ?? { strikes: 0, seen: 1, firstStrike: this.schedulingClock() };
    this.shapes.delete(shape);
    this.shapes.set(shape, s);
    s.strikes++;
    if (s.heavySince === undefined && s.strikes >= STRIKES && s.strikes >= s.seen * STRIKE_SHARE) s.heavySince = this.now();
    if (this.shapes.size > this.max) this.shapes.delete(this.shapes.keys().next().value!);
  }

  /** Shapes heavy from the start now. */
  get learnt(): number {
    let n = 0;
    const now = this.now();
    for (const s of this.shapes.values()) if (s.heavySince !== undefined && now - s.heavySince <= LEARNT_FOR_MS) n++;
    return n;
  }

  /** Shapes kept (learnt, or counting strikes). */
  get kept(): number {
    return this.shapes.size;
  }
}
