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
