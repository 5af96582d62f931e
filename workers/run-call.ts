// One call in a worker: its handler, run against the worker's store with the call's deadline and
// reply cap, turned into the answer the front end gets (the finished reply bytes, or an error as
// plain data). Kept apart from the thread entry (entry.ts) so that tests and tools can run calls
// through exactly this path in their own thread, against a store of their own.
import type { Logger } from '../src/log.js';
import type { PoolAnswer, PoolTask } from '../src/protocol/thread-messages.js';
import { RPC, protocolError, toWireError, isWireError } from '../src/errors.js';
import { READ_SET, readRequest } from '../src/protocol/read-in-pool.js';
import { PACKED_ARG_FROM_BYTES } from '../src/tuning.js';
import { ReplyWriter, SliceOver, type ReplyArena } from './reply-writer.js';
import { handlerFor } from './handlers/index.js';
import type { WorkerContext } from './context.js';

/**
 * What runCall answers for a light call stopped at the end of its slice (PoolTask.sliceMs): nothing
 * for its caller yet; the worker reports it (SliceReport) and the front end runs it again as heavy.
 */
export const OVER_SLICE: PoolAnswer = Object.freeze({ error: Object.freeze(protocolError(RPC.INTERNAL)) });

/**
 * One call: the finished reply bytes, or an error (with subscriptions when the call made some), or
 * OVER_SLICE. With an arena, the reply is written at its end when it fits (the caller transfers the
 * arena's buffers). `cpuSinceTask`: the thread's CPU ms since the task began, for the slice's end
 * (workers/thread-clock.ts); none: the slice is wall time alone.
 */
export async function runCall(ctx: WorkerContext, log: Logger, task: PoolTask, arena?: ReplyArena, cpuSinceTask?: () => number): Promise<PoolAnswer> {
  // A large request to read for the front end (src/protocol/read-in-pool.ts): its bytes and --max-json-depth.
  if (task.set === READ_SET) return readRequest(task.params[0] as Uint8Array, task.params[1] as number, PACKED_ARG_FROM_BYTES);
  const handler = handlerFor(task.set, task.method);
  if (!handler) {
    // The front end routes only methods the registry gives the pool: this is a bug, not a client's fault.
    log.error({ api: task.set, method: task.method }, 'no worker handler for this call');
    return { error: protocolError(RPC.INTERNAL) };
  }
  const budgetMs = task.budgetMs ?? ctx.config.callBudgetMs;
  const flags = task.cancelSlot === undefined ? undefined : ctx.cancelled;
  const slot = task.cancelSlot ?? 0;
  const out = new ReplyWriter({
    maxBytes: ctx.config.maxReplyBytes,
    deadline: task.deadline ?? Number.POSITIVE_INFINITY,
    budgetMs,
    ...(flags ? { cancelled: () => Atomics.load(flags, slot) !== 0 } : {}),
    ...(task.sliceMs !== undefined ? { sliceEnd: Date.now() + task.sliceMs, sliceMs: task.sliceMs, ...(cpuSinceTask ? { cpuSinceTask } : {}) } : {}),
  }, arena);
  out.subscribing = task.subscribe === true;
  if (task.head !== undefined) out.text(task.head);
  try {
    // A call that waited past its deadline, or whose caller has gone, is not started.
    out.checkDeadline();
    // Handlers must await everything they start: an idle piscina worker blocks in Atomics.wait.
    await handler(ctx, task.params, out);
  } catch (err) {
    // What it wrote is left unfinished, as a call that fails leaves it.
    if (err instanceof SliceOver || out.sliceOver) return OVER_SLICE;
    const wire = toWireError(err);
    if (!isWireError(err) && !(err as { wire?: unknown })?.wire) {
      // An unexpected failure: the caller gets -32603 without details; the details go to the log.
      log.error({ api: task.set, method: task.method, err }, 'call failed');
    }
    return { error: wire };
  }
  if (task.head !== undefined) out.text('}');
  const bytes = out.finish();
  if (out.subscribedIds.length > 0 || out.subscribedAccounts.length > 0) {
    return { bytes, subscriptions: { ids: out.subscribedIds, accounts: out.subscribedAccounts } };
  }
  return bytes;
}
