// How many front ends (serving processes) and worker threads a node runs when left to choose
// (`--processes auto`, `--workers auto`, the defaults): sized from the CPUs this process may use.
//
// The rule, from the 16-core measurements (README "Automatic sizes"):
//  - one front end per FRONT_END_CPUS CPUs. A front end is one thread: it bounds what its process
//    carries (about 130,000 small or 45,000 history calls/s on a Xeon core), so a big machine needs
//    several; but each costs a process (its heap, its V8 and libuv threads), and past one per four
//    CPUs the front ends themselves cost more a call as they contend for the cores;
//  - WORKERS_PER_FRONT_END workers each, or one per two CPUs of its share where that is more. Two,
//    not one: the fair scheduler keeps a worker for light calls while heavy ones run, so one worker
//    would let a heavy call hold up every light call of its front end.
// What is left (a quarter of the CPUs on big machines) goes to the kernel's network work, the
// collectors' helper threads and the writer.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { FRONT_END_CPUS, WORKERS_PER_FRONT_END } from './tuning.js';

/**
 * The CPUs this process may use: the CPUs it may run on (os.availableParallelism(), which follows
 * its affinity mask), capped by a cgroup CPU quota where one is set (a container given "2 CPUs" on a
 * 64-core host runs on all 64 but gets the time of 2). At least 1.
 */
export function usableCpus(readText: (file: string) => string | undefined = readIfThere): number {
  const cpus = os.availableParallelism();
  const quota = cgroupCpuQuota(readText);
  return Math.max(1, quota === undefined ? cpus : Math.min(cpus, Math.ceil(quota)));
}

/** The cgroup's CPU quota in CPUs (v2's cpu.max, else v1's cfs quota over period), if one is set. */
export function cgroupCpuQuota(readText: (file: string) => string | undefined = readIfThere): number | undefined {
  const v2 = readText('/sys/fs/cgroup/cpu.max')?.trim().split(/\s+/);
  if (v2 && v2.length >= 1) {
    if (v2[0] === 'max') return undefined;
    const quota = Number(v2[0]);
    const period = Number(v2[1] ?? 100000);
    if (quota > 0 && period > 0) return quota / period;
  }
  const q = Number(readText('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')?.trim());
  const p = Number(readText('/sys/fs/cgroup/cpu/cpu.cfs_period_us')?.trim());
  if (q > 0 && p > 0) return q / p;
  return undefined;
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Front ends for `cpus` CPUs: one per FRONT_END_CPUS, at least one. */
export function autoFrontEnds(cpus: number): number {
  return Math.max(1, Math.floor(cpus / FRONT_END_CPUS));
}

/** Workers per front end for `frontEnds` front ends on `cpus` CPUs. */
export function autoWorkers(cpus: number, frontEnds: number): number {
  return Math.max(WORKERS_PER_FRONT_END, Math.floor(cpus / (2 * Math.max(1, frontEnds))));
}
