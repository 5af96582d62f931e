// A worker thread's CPU priority, task by task: heavy tasks run at --heavy-worker-nice, light ones
// at the front end's priority (nice 0), so that when the CPUs are short the front end and light
// calls get them first (src/pool/worker-roles.ts says why). A thread may only make itself less
// urgent unless it is allowed to raise its priority again (CAP_SYS_NICE, or an RLIMIT_NICE that
// reaches nice 0); where it is not, a heavy task would leave its thread behind everyone for every
// light task after it, so nothing is reniced there (a static split of threads cost 13% of
// http-small's calls/s with its clients on the same two CPUs).
//
// A leaf module: the front end asks whether priorities can be raised again, the workers set theirs.
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CAP_SYS_NICE's bit in /proc/self/status' CapEff. */
const CAP_SYS_NICE = 23n;

/**
 * Whether this process's threads may raise their priority back to nice 0 after lowering it:
 * CAP_SYS_NICE in effect, or an RLIMIT_NICE soft limit of 20 (Linux; false elsewhere).
 */
export function canRaisePriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const cap = /^CapEff:\s*([0-9a-f]+)$/m.exec(status)?.[1];
    if (cap !== undefined && (BigInt(`0x${cap}`) >> CAP_SYS_NICE) & 1n) return true;
    const limit = /^Max nice priority\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return limit === 'unlimited' || (limit !== undefined && Number(limit) >= 20);
  } catch {
    return false;
  }
}

/** The calling thread's priority, set as its tasks change kind. */
export class ThreadPriority {
  private current = 0;
  private broken = false;

  constructor(
    /** the nice value of heavy tasks */
    private readonly heavyNice: number,
    /** sets the calling thread's nice value (os.setPriority(0, n): on Linux, the calling thread); tests give a fake */
    private readonly set: (nice: number) => void = (nice) => os.setPriority(0, nice),
  ) {}

  /** Before a task: its kind's priority, set only when it changes. Returns false once setting failed (then it stays off). */
  enter(heavy: boolean): boolean {
    if (this.broken) return false;
    const want = heavy ? this.heavyNice : 0;
    if (want === this.current) return true;
    try {
      this.set(want);
      this.current = want;
      return true;
    } catch {
      // Back to where it was if it can be; either way, no more changes on this thread.
      this.broken = true;
      try {
        if (this.current !== 0) this.set(0);
      } catch {
        // left as it is
      }
      return false;
    }
  }
}

/** Runs a program and waits for it (tests give a fake). */
export type Run = (file: string, args: readonly string[]) => void;

const runProgram: Run = (file, args) => {
  execFileSync(file, args, { stdio: 'ignore', timeout: 5000 });
};

/**
 * Puts thread `tid` (the kernel's id) under Linux's SCHED_BATCH policy; undefined once it is, else
 * why not. Node has no call for it, so util-linux's chrt sets it, once per worker thread at start
 * (a few ms). Any process may move its threads from the default policy to this one.
 *
 * A thread under SCHED_BATCH that is woken does not preempt the thread running on its CPU: it runs
 * when that one blocks, or at the next tick. Its share of the CPUs is unchanged (its nice value
 * still counts). On two CPUs under ws-history, a worker woken for each task preempted the front end
 * 69 to 78 times per 1,000 calls; the front end then waited with replies to write and requests to
 * read while the worker ran calls it had not yet gathered. Under SCHED_BATCH, 13 to 17 times, and
 * the node made 9 to 11% more history calls a second (docs/design/worker-batch-policy.md). Where a
 * CPU is free, a woken worker takes it at once, as before.
 */
export function runAsBatch(tid: number | undefined, run: Run = runProgram): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (tid === undefined) return "the thread's id is unknown";
  try {
    run('chrt', ['--batch', '--pid', '0', String(tid)]);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
