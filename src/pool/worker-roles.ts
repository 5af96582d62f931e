// Which worker threads heavy calls go to, and at what CPU priority. The fair scheduler keeps a
// worker's worth of tasks for light calls while they are about (scheduler.ts), but the threads
// themselves were equals for the operating system: on a machine whose CPUs are short (two CPUs,
// the node's front end, a worker packing a transaction of 6,500 operations, the collector's
// helper threads, the clients), a light call waited 3 to 48 ms for its worker thread to be given
// a CPU after it was woken, and its answer as long again for the front end's thread.
//
// So one worker of each pool is the light calls' thread, at the front end's priority, and the
// others are heavy calls' threads, reniced to --heavy-worker-nice: a task goes to an idle thread
// of its own kind first, and to any idle thread when none is (light calls still spread over every
// worker when there are many of them; heavy calls use every worker when no light call is about).
// Where the CPUs are not short, the nice value changes nothing. A thread cannot be made more
// urgent again without privileges, so roles are kept for a thread's life: the first thread up is
// the light one, and when it ends, the next one up (its replacement) takes its place.
//
// The pool names each task's kind by the function the worker runs it with (piscina's `name`:
// `default` for light tasks, HEAVY_TASK for heavy ones; workers/load.cts exports both), which is
// what the balancer sees of a task.
import os from 'node:os';
import type { Logger } from '../log.js';

/** The worker function name heavy tasks are run by (workers/load.cts exports it). */
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
  private failureLogged = false;

  constructor(
    /** --heavy-worker-nice; 0: no thread is reniced (roles still hold) */
    private readonly nice: number,
    private readonly log: Logger,
    /** sets a thread's nice value (os.setPriority; tests give a fake) */
    private readonly setPriority: (tid: number, nice: number) => void = (tid, nice) => os.setPriority(tid, nice),
  ) {}

  /** A worker thread is up: the light one if there is none, else a heavy one, reniced. */
  up(threadId: number, tid: number | undefined): void {
    if (this.light === undefined) {
      this.light = threadId;
      return;
    }
    this.heavy.add(threadId);
    if (this.nice === 0 || tid === undefined) return;
    try {
      this.setPriority(tid, this.nice);
    } catch (err) {
      // Not Linux, or a sandbox that refuses: the roles hold, without the priority.
      if (!this.failureLogged) this.log.warn({ err, nice: this.nice }, 'a heavy-call worker thread could not be reniced (--heavy-worker-nice); it runs at the front end\'s priority');
      this.failureLogged = true;
    }
  }

  /** A worker thread ended. */
  gone(threadId: number): void {
    if (this.light === threadId) this.light = undefined;
    this.heavy.delete(threadId);
  }

  /** Whether a thread is one of the heavy calls' (tests, metrics). */
  isHeavy(threadId: number): boolean {
    return this.heavy.has(threadId);
  }

  /**
   * piscina's load balancer: an idle thread of the task's kind, else any idle one, else none (the
   * task waits in piscina's queue for the first thread to be free).
   */
  readonly balance = (task: BalancedTask, workers: readonly BalancedWorker[]): BalancedWorker | null => {
    const heavyTask = task.name === HEAVY_TASK;
    let other: BalancedWorker | null = null;
    for (const w of workers) {
      if (w.currentUsage !== 0 || w.terminating || w.destroyed) continue;
      if (this.heavy.has(w.id) === heavyTask) return w;
      other ??= w;
    }
    return other;
  };
}
