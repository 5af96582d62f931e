// Which worker threads light and heavy calls go to, and at what CPU priority they run. The fair
// scheduler keeps a worker's worth of tasks for light calls while they are about (scheduler.ts),
// but the threads themselves were equals for the operating system: on a machine whose CPUs are
// short (two CPUs, the node's front end, a worker packing a transaction of 6,500 operations, the
// collector's helper threads, the clients), a light call waited 3 to 48 ms for its worker thread
// to be given a CPU after it was woken, and its answer as long again for the front end's thread.
//
// So heavy tasks run at --heavy-worker-nice (the worker sets its own thread's priority as each
// task starts, src/thread-priority.ts, where it may raise it again for the next light task), and
// one worker of each pool is kept for light calls where it can be: the first thread up takes light
// tasks first, the others heavy tasks first, and a task goes to an idle thread of its kind, else to
// any idle one (light calls still spread over every worker when one cannot keep up with them, and
// heavy calls use every worker when no light call is about). When the light thread ends, the next
// one up (its replacement) takes its place. While light calls are about (LIGHT_RECENT_MS), a heavy
// task never goes to the light calls' thread: it waits behind a heavy thread's task instead.
//
// The pool names each task's kind by the function the worker runs it with (piscina's `name`:
// `default` for light tasks, HEAVY_TASK for heavy ones; workers/load.cts exports both), which is
// what the balancer sees of a task.

import { LIGHT_RECENT_MS } from '../tuning.js';

/** The worker function name heavy tasks are run by (workers/entry.ts exports it). */
export const HEAVY_TASK = 'heavy';

/** What piscina's balancer is shown of a worker and of a task (piscina 5). */
interface BalancedWorker {
  readonly id: number;
  readonly currentUsage: number;
  readonly terminating?: boolean;
  readonly destroyed?: boolean;
}
interface BalancedTask {
  readonly name: string;
}

export class WorkerRoles {
  /** the light calls' thread, by threadId */
  private light: number | undefined;
  /** the heavy calls' threads, by threadId */
  private readonly heavy = new Set<number>();
  /** when a light task was last placed (performance.now()) */
  private lastLight = Number.NEGATIVE_INFINITY;

  /** `now`: the clock (tests give their own) */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A worker thread is up: the light one if there is none, else a heavy one. */
  up(threadId: number): void {
    if (this.light === undefined) this.light = threadId;
    else this.heavy.add(threadId);
  }

  /** A worker thread ended. */
  gone(threadId: number): void {
    if (this.light === threadId) this.light = undefined;
    this.heavy.delete(threadId);
  }

  /** Threads up that take heavy calls first. */
  get heavyThreads(): number {
    return this.heavy.size;
  }

  /** Whether a thread is one of the heavy calls' (tests). */
  isHeavy(threadId: number): boolean {
    return this.heavy.has(threadId);
  }

  /**
   * piscina's load balancer: an idle thread of the task's kind, else any idle one, else none (the
   * task waits in piscina's queue for the first thread to be free).
   */
  readonly balance = (task: BalancedTask, workers: readonly BalancedWorker[]): BalancedWorker | null => {
    const heavyTask = task.name === HEAVY_TASK;
    const now = this.now();
    if (!heavyTask) this.lastLight = now;
    let other: BalancedWorker | null = null;
    let busyHeavy: BalancedWorker | null = null;
    for (const w of workers) {
      if (w.terminating || w.destroyed) continue;
      if (w.currentUsage !== 0) {
        if (heavyTask && this.heavy.has(w.id) && (busyHeavy === null || w.currentUsage < busyHeavy.currentUsage)) busyHeavy = w;
        continue;
      }
      if (this.heavy.has(w.id) === heavyTask) return w;
      other ??= w;
    }
    // While light calls are about, a heavy task does not take their thread: it waits behind the
    // heavy thread's task (a light task that went there while the light thread was busy, say).
    // On the light thread it ran at the heavy nice value for as long as it took, and one that ran
    // past its hard bound had the light calls' thread replaced: a neighbour's call waited 200 ms.
    // (The scheduler sends no more heavy tasks than there are heavy threads up while light calls
    // are about, so one waits here at most.)
    if (heavyTask && busyHeavy && now - this.lastLight < LIGHT_RECENT_MS) return busyHeavy;
    return other;
  };
}
