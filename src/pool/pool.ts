// The worker pool: piscina threads running workers/entry.ts against the chain store. The front end
// sends a task of calls as msgpackr bytes (in the task slab, or transferred) and gets back finished
// reply bytes (in the reply slab, or transferred) or plain error data, one answer per call. Which
// calls travel together, and when, is the scheduler's choice (scheduler.ts): the cost of crossing
// threads is paid per task.
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ownBytes, packTasks } from '../protocol/codec.js';
import { isSliceReport, isWorkerUp, type PoolAnswer, type PoolTask, type SliceReport, type WireAnswer, type WorkerInit } from '../protocol/thread-messages.js';
import { createReplySlab } from '../protocol/reply-slab.js';
import { SlabLeases } from './slab-leases.js';
import { createTaskSlab } from '../protocol/task-slab.js';
import { TaskSlots } from './task-slots.js';
import { keepDescriptionsOf } from './worker-descriptions.js';
import { HEAVY_TASK, WorkerRoles } from './worker-roles.js';
import { canRaisePriority } from '../thread-priority.js';
import { RPC, limitError, protocolError } from '../errors.js';
import { LARGE_TASK_BYTES, MAX_CALLS_PER_TASK, TASKS_PER_WORKER, WORKER_CLOSE_TIMEOUT_MS } from '../tuning.js';

/**
 * A task's abort signal as piscina takes it: an AbortSignal, or the EventEmitter-shaped signal
 * piscina accepts too (`once` and `off`/`removeListener` of 'abort'; the scheduler's TaskSignal).
 */
export type TaskAbortSignal =
  | AbortSignal
  | {
      readonly aborted: boolean;
      readonly reason?: unknown;
      once(event: 'abort', listener: () => void): void;
      off(event: 'abort', listener: () => void): void;
      removeListener(event: 'abort', listener: () => void): void;
    };

/** A task's answers, one per call, and what the worker said of calls that used up their slice. */
export type TaskAnswers = PoolAnswer[] & { slices?: SliceReport };

export interface CallPool {
  /**
   * Runs one task (calls in order, on one worker); resolves to their answers. Never rejects. When
   * `signal` aborts before the task is done, its worker thread is terminated and replaced, and its
   * calls are answered as over their time budget.
   */
  runTask(tasks: readonly PoolTask[], signal?: TaskAbortSignal, kind?: 'light' | 'heavy'): Promise<TaskAnswers>;
  /**
   * Places for cancellable calls (PoolTask.cancelSlot), 0 … cancelSlots - 1: as many as calls the
   * scheduler may have in the pool at once. A slot is cleared when its task's answers are back.
   */
  readonly cancelSlots: number;
  /** Stops the call in `slot` at its next look at its deadline: its caller has gone. */
  cancel(slot: number): void;
  /** worker threads */
  readonly workers: number;
  /** worker threads running a task now */
  readonly busyWorkers: number;
  /**
   * Worker threads up now: started, store open, not failed. Below `workers` while a thread is being
   * replaced (one that failed or ran past its hard time bound) until its replacement is up.
   */
  readonly workersUp: number;
  /**
   * Threads up that take heavy calls first (worker-roles.ts): every thread but the light calls'
   * one. While light calls are about, heavy tasks go only to these; none (one replacing a thread
   * ended for its task's sake): heavy calls wait, rather than take the light calls' thread.
   * Absent (tests' pools): not counted.
   */
  readonly heavyThreadsUp?: number;
  /**
   * The reply slab now: its slots, those held (by a worker writing, or by the front end until it has
   * written their replies), the replies let go only when collected (dropped unwritten), and its
   * large part's pages and those held.
   */
  readonly replySlab: { readonly slots: number; readonly inUse: number; readonly collected: number; readonly largePages: number; readonly largePagesInUse: number };
  /** Tells the workers that the store changed (after a block): their next reads see it. */
  storeChanged(): void;
  /** Resolves once every worker has loaded and opened the store. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Named by URL, not imported: the front end never loads worker code. */
const WORKER_ENTRY = new URL('../../workers/entry.js', import.meta.url).href;
/** What piscina loads: a CommonJS file that imports the entry (why: workers/load.cts). */
const WORKER_LOADER = new URL('../../workers/load.cjs', import.meta.url).href;

export interface PoolOptions {
  /** the worker entry, by URL (tests give one of their own) */
  readonly workerFile?: string;
  /** ms; default WORKER_CLOSE_TIMEOUT_MS */
  readonly closeTimeoutMs?: number;
  /**
   * told each time a worker thread ends while the pool is open and piscina replaces it (the node's
   * metrics): terminated past its hard time bound, exited, or crashed, with or without a task
   */
  readonly onWorkerReplaced?: () => void;
  /** told each time a worker thread is up (its store open): a heavy thread back lets held heavy calls go (scheduler.ts) */
  readonly onWorkerUp?: () => void;
}

export function openPool(config: Config, log: Logger, opts: PoolOptions = {}): CallPool {
  const storeVersion = new SharedArrayBuffer(4);
  const version = new Int32Array(storeVersion);
  const cancelSlots = TASKS_PER_WORKER * config.workers * MAX_CALLS_PER_TASK;
  const cancelled = new SharedArrayBuffer(4 * cancelSlots);
  const cancelFlags = new Int32Array(cancelled);
  const replySlab = createReplySlab(config.workers);
  const leases = new SlabLeases(replySlab);
  // A slot for each task the scheduler lets the pool hold, and as many again for a failed task's
  // calls run one to a task; past that a task crosses in a buffer of its own.
  const taskSlab = createTaskSlab(2 * TASKS_PER_WORKER * config.workers, LARGE_TASK_BYTES);
  const taskSlots = new TaskSlots(taskSlab, 2 * TASKS_PER_WORKER * config.workers);
  // Heavy tasks run at --heavy-worker-nice where a thread may raise its priority again after one
  // (src/thread-priority.ts); elsewhere every task runs at the front end's priority.
  const heavyNice = config.heavyWorkerNice > 0 && config.workers > 1 && canRaisePriority() ? config.heavyWorkerNice : 0;
  if (config.heavyWorkerNice > 0 && config.workers > 1 && heavyNice === 0) log.info({ heavyWorkerNice: config.heavyWorkerNice }, 'worker threads may not raise their priority again here (no CAP_SYS_NICE, RLIMIT_NICE under 20): heavy calls run at the front end\'s priority');
  const init: WorkerInit = { entry: opts.workerFile ?? WORKER_ENTRY, config, storeVersion, cancelled, replySlab, taskSlab, heavyNice };
  // Heavy calls go to threads of their own first, keeping one for light calls (worker-roles.ts).
  const roles = new WorkerRoles();
  const piscina = new Piscina({
    loadBalancer: roles.balance as unknown as NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer'],
    filename: WORKER_LOADER,
    minThreads: config.workers,
    maxThreads: config.workers,
    // Workers hold an open LMDB environment; keep them for the life of the node.
    idleTimeout: Number.POSITIVE_INFINITY,
    // Calls wait in the fair scheduler (scheduler.ts), which keeps at most two tasks per worker here.
    maxQueue: Number.POSITIVE_INFINITY,
    workerData: init,
    closeTimeout: opts.closeTimeoutMs ?? WORKER_CLOSE_TIMEOUT_MS,
    // The scheduler times tasks itself (SchedulerTiming); piscina's own histograms would cost two
    // clock reads and two histogram records per task for figures nothing reads.
    recordTiming: false,
  });
  keepDescriptionsOf(piscina, () => log.warn('piscina is not the version whose worker descriptions the pool keeps; it builds them per task'));
  // Threads that said they are up (their store open), by threadId. piscina drops a thread that
  // fails from its list (and a thread that has ended has threadId -1), so only live ones count.
  const up = new Set<number>();
  piscina.on('message', (m: unknown) => {
    if (isWorkerUp(m)) {
      up.add(m.workerUp);
      roles.up(m.workerUp);
      opts.onWorkerUp?.();
    }
  });
  const workersUp = (): number => {
    const threads = piscina.threads;
    let n = 0;
    for (const w of threads) if (up.has(w.threadId)) n++;
    // Forget the threads that are gone, so that replacements over months do not grow the set.
    if (up.size > threads.length) for (const id of [...up]) if (!threads.some((w) => w.threadId === id)) up.delete(id);
    return n;
  };
  // A worker that dies is replaced by piscina; its task rejects (below): its calls run again one to a
  // task, and the one that fails alone gets -32603. piscina emits 'error' only for a worker that
  // fails with no task on it; one that exits or crashes during a task just rejects that task.
  piscina.on('error', (err: unknown) => {
    log.error({ err }, 'worker thread failed; piscina replaces it');
  });
  // Replacements are counted where piscina removes a thread, the one place every cause passes
  // (terminated past its bound, exited, crashed, with or without a task). A task's rejection cannot
  // tell them apart: a handler's thrown error and a crash both arrive as the worker's Error, but only
  // the crash costs a thread. close() removes every thread too; those are not replacements.
  let closing = false;
  // Slots a dead thread held go back (it never handed their replies over).
  const sweepSlab = () => {
    const live = new Set<number>();
    for (const w of piscina.threads) if (w.threadId > 0) live.add(w.threadId);
    const freed = leases.sweep(live);
    if (freed > 0) log.warn({ slots: freed }, 'reply slab slots of a worker thread that ended are free again');
  };
  piscina.on('workerDestroy', (worker: { id: number }) => {
    roles.gone(worker.id);
    if (closing) return;
    // After this event piscina drops the thread from its list: look once it has.
    setImmediate(sweepSlab);
    log.warn({ thread: worker.id }, 'a worker thread ended; piscina starts another');
    opts.onWorkerReplaced?.();
  });
  /** An answer as the front end uses it: a reply in the slab becomes a view of it, held until written. */
  const fromWire = (a: WireAnswer): PoolAnswer => {
    if (typeof a === 'number') return leases.view(a);
    if ('bytes' in a && typeof a.bytes === 'number') return { bytes: leases.view(a.bytes), subscriptions: a.subscriptions };
    return a as PoolAnswer;
  };
  /**
   * One task on a worker. When the worker fails (the task throws, the thread exits or crashes) the
   * calls of a task of several run again one to a task: the calls are read-only, and one call that
   * kills its worker must not take the others that happened to travel with it. The one that fails
   * alone is answered -32603 and logged by name.
   */
  const runOnce = (tasks: readonly PoolTask[], signal: TaskAbortSignal | undefined, heavy: boolean): Promise<TaskAnswers> => {
    const packed = packTasks(tasks);
    const ref = taskSlots.take(packed);
    const task = ref ?? Piscina.move(ownBytes(packed));
    const options = heavy ? (signal ? { signal, name: HEAVY_TASK } : { name: HEAVY_TASK }) : signal ? { signal } : {};
    return piscina.run(task, options).then(
      (wire: WireAnswer[]) => {
        if (ref !== undefined) taskSlots.release(ref);
        // A report of slices follows the answers when some light call used up its slice.
        const last = wire.length === tasks.length + 1 ? wire[tasks.length] : undefined;
        const slices = isSliceReport(last) ? last : undefined;
        if (slices) wire.length = tasks.length;
        const answers = wire.map(fromWire);
        if (answers.length !== tasks.length) log.error({ sent: tasks.length, answered: answers.length }, 'worker answered a task with the wrong number of replies');
        const out: TaskAnswers = tasks.map((_, i) => answers[i] ?? { error: protocolError(RPC.INTERNAL) });
        if (slices) out.slices = slices;
        return out;
      },
      (err: unknown) => {
        if (ref !== undefined) taskSlots.release(ref);
        const calls = tasks.map((t) => `${t.set}.${t.method}`);
        if (signal?.aborted) {
          // piscina has terminated the worker running it and starts a new one: capacity comes back.
          log.warn({ calls }, 'a task ran past its hard time bound; its worker thread was replaced');
          return tasks.map((t) => ({ error: limitError(RPC.BUDGET_EXCEEDED, `${t.budgetMs ?? config.callBudgetMs} ms: --call-budget-ms`) }));
        }
        if (tasks.length > 1) {
          log.warn({ err, calls }, 'worker task failed; its calls run again one to a task');
          return Promise.all(tasks.map((t) => runOnce([t], signal, heavy))).then((each) => {
            const out: TaskAnswers = each.map((a) => a[0]!);
            const sliced = each.flatMap((a, i) => (a.slices?.sliced.length ? [i] : []));
            const slow = each.flatMap((a, i) => (a.slices?.slow.length ? [i] : []));
            const cold = each.flatMap((a, i) => (a.slices?.cold?.length ? [i] : []));
            if (sliced.length + slow.length > 0) out.slices = cold.length > 0 ? { sliced, slow, cold } : { sliced, slow };
            return out;
          });
        }
        log.error({ err, calls }, 'worker task failed; its calls get -32603');
        return tasks.map(() => ({ error: protocolError(RPC.INTERNAL) }));
      },
    );
  };
  // Once the answers are back no worker reads the calls' flags: they are cleared for the next calls.
  const runTask = (tasks: readonly PoolTask[], signal?: TaskAbortSignal, kind?: 'light' | 'heavy'): Promise<TaskAnswers> =>
    runOnce(tasks, signal, kind === 'heavy').then((answers) => {
      for (const t of tasks) if (t.cancelSlot !== undefined) Atomics.store(cancelFlags, t.cancelSlot, 0);
      return answers;
    });
  return {
    workers: config.workers,
    cancelSlots,
    cancel(slot) {
      Atomics.store(cancelFlags, slot, 1);
    },
    get busyWorkers() {
      // Ready threads minus the idle ones; a thread still starting (a replacement) counts as busy.
      return Math.max(0, piscina.threads.length - piscina.idleThreads);
    },
    get workersUp() {
      return workersUp();
    },
    get heavyThreadsUp() {
      return roles.heavyThreads;
    },
    runTask,
    get replySlab() {
      return { slots: leases.slots, inUse: leases.slotsInUse, collected: leases.collected, largePages: leases.largePages, largePagesInUse: leases.largePagesInUse };
    },
    storeChanged() {
      Atomics.add(version, 0, 1);
    },
    // Terminating a worker while it is still inside LMDB's native open aborts the whole process, so
    // the node does not serve (and tests do not close it) before every worker is up.
    async ready(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (workersUp() < config.workers) {
        if (Date.now() > deadline) throw new Error(`worker threads did not start within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () => {
      closing = true;
      return piscina.close({ force: false });
    },
  };
}
