// The worker thread: piscina loads this file by URL. At load it freezes its copy of the config
// (structured clone drops frozenness) and opens the chain store once; then each task is one call.
//
// Imports only leaf modules (config types, errors, codec, store, API-set tables) and never the front end.
import { Piscina } from 'piscina';
import { deepFreeze } from '../src/config.js';
import { openChainStore } from '../src/chain/store/store.js';
import { setAddressPrefix } from '../src/chain/crypto/public-key.js';
import { decodeTasks } from '../src/protocol/codec.js';
import type { PoolAnswer, PoolTask, SliceReport, WireAnswer, WorkerInit, WorkerUp } from '../src/protocol/thread-messages.js';
import { slabRef } from '../src/protocol/reply-slab.js';
import { taskLength, taskReader } from '../src/protocol/task-slab.js';
import { openThreadClock } from './thread-clock.js';
import { CLOCK_REUSE_MS } from '../src/tuning.js';
import { SlabSlots } from './slab-slots.js';
import { RPC, protocolError } from '../src/errors.js';
import { OVER_SLICE, runCall } from './run-call.js';
import { ReplyArena, waitedForCpu } from './reply-writer.js';
import { MethodWarmth } from './method-warmth.js';
import type { WorkerContext } from './context.js';
import { createLogger, kernelThreadId } from '../src/log.js';
import { parentPort, threadId } from 'node:worker_threads';
import { ThreadPriority, runAsBatch } from '../src/thread-priority.js';

const init = Piscina.workerData as WorkerInit;
const config = deepFreeze(init.config);
// Keys in requests, replies and the store carry the chain's prefix (public-key.ts).
setAddressPrefix(config.addressPrefix);
// Read-only: every write goes through the front end's chain writer, the store's one writer.
const store = openChainStore(config.dataDir, { readOnly: true });
const storeVersion = new Int32Array(init.storeVersion);
// None yet: the first task starts on a fresh snapshot. Opening the store began one, and blocks
// written while this thread started (a follower catches up while the pool starts, before the front
// end listens for its blocks) did not change the version; without this they stay unseen until the next.
let seenVersion: number | undefined;

/** Starts the call on a fresh snapshot if the store changed since this worker last read it. */
function refreshSnapshot(): void {
  const v = Atomics.load(storeVersion, 0);
  if (v !== seenVersion) {
    seenVersion = v;
    store.root.resetReadTxn();
    ctx.snapshot = (ctx.snapshot ?? 0) + 1;
  }
}
const ctx: WorkerContext = { store, config, snapshot: 0, cancelled: new Int32Array(init.cancelled) };
const log = createLogger(config.logLevel, { worker: threadId }, config.logFormat);
// The kernel's id of this thread, so that an operator's `top -H` or the bench (which splits CPU time
// into the front-end thread, these threads and the rest) can tell this thread's CPU time apart.
const tid = kernelThreadId();
// Under SCHED_BATCH (--batch-worker-threads) before the first task: woken, this thread does not
// preempt the front end's (src/thread-priority.ts runAsBatch says why).
const notBatch = config.batchWorkerThreads ? runAsBatch(tid) : undefined;
const underBatch = config.batchWorkerThreads && notBatch === undefined;
log.info({ tid, policy: underBatch ? 'batch' : 'normal' }, 'worker thread started');
if (notBatch !== undefined) log.info({ why: notBatch }, 'this worker thread runs under the default CPU policy, not SCHED_BATCH: it may preempt the front end when woken');
parentPort!.postMessage({ workerUp: threadId } satisfies WorkerUp);

/** This thread's priority, task by task: heavy tasks at --heavy-worker-nice where it can be raised again (src/thread-priority.ts). */
const priority = init.heavyNice ? new ThreadPriority(init.heavyNice) : undefined;

/** This thread's side of the reply slab; none when the pool gives none (tests' own pools). */
const slots = init.replySlab ? new SlabSlots(init.replySlab, threadId) : undefined;

/** This thread's CPU clock (Linux), to tell a light call that waited for a CPU from a slow one. */
const clock = openThreadClock();

/**
 * The thread's CPU ms at a light task's start, read at most once a CLOCK_REUSE_MS: a read costs about
 * 2 µs, which at tens of thousands of small tasks a second was a tenth of the workers' CPU per call.
 * A reading up to CLOCK_REUSE_MS old stands in for it: it counts at most that much more CPU against
 * the task's calls, so a call is never taken for starved when it was not.
 */
let lastCpu = 0;
let lastCpuAt = Number.NEGATIVE_INFINITY;
function cpuBaseline(): number {
  const now = performance.now();
  if (now - lastCpuAt >= CLOCK_REUSE_MS) {
    lastCpu = clock!();
    lastCpuAt = now;
  }
  return lastCpu;
}

/** Tasks as they cross: in the task slab (src/protocol/task-slab.ts), or in buffers of their own. */
const taskBytes = taskReader(init.taskSlab);
/** This thread's calls of each method so far: the first few of one are slow for the thread's sake. */
const warmth = new MethodWarmth();

/**
 * A batch of calls (the front end sends every call that arrived in one event-loop turn together,
 * so the thread hop is paid once per batch, not once per call). Answers come back in order; a reply
 * in the slab crosses as its position, every other reply buffer is transferred, not copied.
 */
export default function light(task: Uint8Array | number): Promise<unknown> {
  priority?.enter(false);
  return batch(task);
}

/** A task of heavy calls (piscina runs it by this name: src/pool/worker-roles.ts HEAVY_TASK). */
export function heavy(task: Uint8Array | number): Promise<unknown> {
  priority?.enter(true);
  return batch(task);
}

async function batch(task: Uint8Array | number): Promise<unknown> {
  let tasks: PoolTask[];
  try {
    tasks = decodeTasks(taskBytes(task));
  } catch (err) {
    log.error({ err, bytes: typeof task === 'number' ? taskLength(task) : task.byteLength }, 'a task could not be decoded; its calls get -32603');
    return [{ error: protocolError(RPC.INTERNAL) }];
  }
  refreshSnapshot();
  const answers: WireAnswer[] = [];
  // Replies go one after another into slab slots (or, with none free, a few arena buffers); a large one has its own buffer.
  const arena = new ReplyArena(slots);
  const buffers = new Set<ArrayBuffer>();
  const wire = (bytes: Uint8Array): number | Uint8Array => {
    if (slots?.holds(bytes)) return slabRef(bytes.byteOffset, bytes.byteLength);
    buffers.add(bytes.buffer as ArrayBuffer);
    return bytes;
  };
  // A light task's calls are judged at their slice's end by the CPU the thread had since the task
  // began (a read of the thread's clock here, another only at a slice's end).
  const cpuAtStart = clock && tasks.some((t) => t.sliceMs !== undefined) ? cpuBaseline() : undefined;
  const cpuSinceTask = cpuAtStart === undefined ? undefined : () => clock!() - cpuAtStart;
  // Light calls that used up their slice: stopped (sliced) or, past every look at the clock, finished late (slow).
  let sliced: number[] | undefined;
  let slow: number[] | undefined;
  let unrun: number[] | undefined;
  // Of those, the calls among this thread's first of their method (MethodWarmth).
  let cold: number[] | undefined;
  try {
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i]!;
      const started = task.sliceMs === undefined ? 0 : Date.now();
      const early = warmth.start(task.set, task.method);
      const a: PoolAnswer = await runCall(ctx, log, task, arena, cpuSinceTask);
      let overSlice = true;
      if (a === OVER_SLICE) (sliced ??= []).push(i);
      else if (task.sliceMs !== undefined && Date.now() - started > task.sliceMs && !waitedForCpu(cpuSinceTask, task.sliceMs)) (slow ??= []).push(i);
      else overSlice = false;
      if (overSlice && early) (cold ??= []).push(i);
      if (a instanceof Uint8Array) answers.push(wire(a));
      else if ('bytes' in a) answers.push({ bytes: wire(a.bytes), subscriptions: a.subscriptions });
      else answers.push(a);
      // The light calls behind one that used up its slice have waited a slice already: they go
      // back unrun, to be sent again at once, not kept behind the next such call.
      if ((sliced || slow) && i + 1 < tasks.length && tasks[i + 1]!.sliceMs !== undefined) {
        unrun = [];
        for (let k = i + 1; k < tasks.length; k++) {
          unrun.push(k);
          answers.push(OVER_SLICE as WireAnswer);
        }
        break;
      }
    }
  } catch (err) {
    arena.settle(true);
    throw err;
  }
  arena.settle();
  if (sliced || slow) {
    const report: SliceReport = { sliced: sliced ?? [], slow: slow ?? [], ...(unrun ? { unrun } : {}), ...(cold ? { cold } : {}) };
    answers.push(report as unknown as WireAnswer);
  }
  return Piscina.move({ [Piscina.transferableSymbol]: [...buffers], [Piscina.valueSymbol]: answers } as never);
}
