// What crosses between the front end and the workers. Both sides import only this file's types.
import type { WireError } from '../errors.js';
import type { Config } from '../config.js';
import type { ReplySlabInit } from './reply-slab.js';

/** One call, msgpackr-encoded by the front end. */
export interface PoolTask {
  /** API set getter name, e.g. "database" */
  readonly set: string;
  readonly method: string;
  readonly params: unknown[];
  /**
   * the reply's text up to and including `"result":`; the worker appends the result and `}`. Left
   * out, the worker answers the result's JSON alone (the front end's own lookups).
   */
  readonly head?: string;
  /** whether the caller's session subscribes to the objects this call returns */
  readonly subscribe?: boolean;
  /** Date.now() past which the call stops (its budget counts from its arrival); none for the front end's own lookups */
  readonly deadline?: number;
  /** the budget behind `deadline`, in ms, for the error message */
  readonly budgetMs?: number;
  /**
   * (set by the scheduler as the call goes into a task, on the task object the call submitted:
   * a copy per call would cost an object allocation for a field most of the way unused)
   * the call's place in WorkerInit.cancelled: once its connection closes, the front end sets it and
   * the call stops at its next look at its deadline (-32011, which nobody reads); none: not cancellable
   */
  cancelSlot?: number;
  /**
   * (set by the scheduler on light calls as they go into a task, like cancelSlot) ms the call may run
   * in its worker as a light call: past it, it stops at its next look at its deadline and goes back
   * to the front end to run again as heavy (src/pool/scheduler.ts "slices"); none: no slice
   */
  sliceMs?: number;
  /**
   * Where in `params` an argument is left packed (src/protocol/read-in-pool.ts PackedArg: its request
   * was read in the pool); it crosses as its bytes, and the worker unpacks it. None: every argument
   * is a plain value.
   */
  readonly packed?: readonly number[];
}

/**
 * Appended by a worker after a task's answers when some of its calls used up their slice
 * (PoolTask.sliceMs): the places, in the task, of the calls stopped at their slice (their answers
 * are placeholders, never delivered: the scheduler runs them again as heavy), of those that ran
 * past it to the end (they could not be stopped in time: their answers stand), and of those left
 * unrun behind them.
 */
export interface SliceReport {
  readonly sliced: readonly number[];
  readonly slow: readonly number[];
  /**
   * the calls after the first one that used up its slice, left unrun (placeholders too): they go
   * back to be sent again at once, rather than wait behind it and whatever else of its kind follows
   */
  readonly unrun?: readonly number[];
  /**
   * those of the sliced and slow calls that were among their worker thread's first COLD_CALLS of
   * their method (src/tuning.ts): their cost was the thread's, compiling, not their shape's, so
   * they teach the learner nothing
   */
  readonly cold?: readonly number[];
}

export function isSliceReport(x: unknown): x is SliceReport {
  return typeof x === 'object' && x !== null && Array.isArray((x as SliceReport).sliced) && Array.isArray((x as SliceReport).slow);
}

/** What a subscribing call asks the front end to watch for its session. */
export interface Subscriptions {
  readonly ids: readonly string[];
  readonly accounts: readonly number[];
}

/** A worker's answer: the finished reply bytes (transferred), with subscriptions when the call made
 * some, or an error as plain data. */
export type PoolAnswer = Uint8Array | { readonly bytes: Uint8Array; readonly subscriptions: Subscriptions } | { readonly error: WireError };

/**
 * An answer as it crosses from the worker: reply bytes in the reply slab travel as a number
 * (src/protocol/reply-slab.ts: slabRef), which the pool turns into a view of the slab.
 */
export type WireAnswer = number | Uint8Array | { readonly bytes: number | Uint8Array; readonly subscriptions: Subscriptions } | { readonly error: WireError };

/**
 * What a worker thread posts (parentPort) once its store is open, with its threadId: the pool counts
 * the threads that are up from these, so that a thread being replaced or still starting is not one.
 */
export interface WorkerUp {
  readonly workerUp: number;
}

export const isWorkerUp = (m: unknown): m is WorkerUp => typeof m === 'object' && m !== null && typeof (m as WorkerUp).workerUp === 'number';

/** What each worker thread receives: the config, and the counter of the store's writes. */
export interface WorkerInit {
  /** the module the worker runs (workers/load.cts imports it), by URL */
  readonly entry: string;
  readonly config: Config;
  /**
   * A counter bumped after every write to the store (a block, a peer). A worker whose last reads saw
   * an older value starts its next call on a fresh read snapshot: lmdb-js renews read transactions
   * on a timer, which never fires while piscina's worker waits in Atomics.wait.
   */
  readonly storeVersion: SharedArrayBuffer;
  /** Int32 flags, one per call that may be in a task at once (PoolTask.cancelSlot): non-zero when its caller has gone. */
  readonly cancelled: SharedArrayBuffer;
  /** where workers write their replies (src/protocol/reply-slab.ts); none: every reply in a buffer of its own */
  readonly replySlab?: ReplySlabInit;
  /** where the front end writes tasks (src/protocol/task-slab.ts); none: every task in a buffer of its own */
  readonly taskSlab?: SharedArrayBuffer;
  /** the nice value heavy tasks run at (src/thread-priority.ts); 0: every task at the front end's priority */
  readonly heavyNice?: number;
}
