// The automatic sizes (src/sizing.ts): front ends and workers from the CPUs this process may use,
// a cgroup quota included.
import test from 'ava';
import os from 'node:os';
import { autoFrontEnds, autoWorkers, cgroupCpuQuota, usableCpus } from '../src/sizing.js';
import { FRONT_END_CPUS, WORKERS_PER_FRONT_END } from '../src/tuning.js';

const files = (m: Record<string, string>) => (f: string) => m[f];

test('one front end per four CPUs, at least one; two workers each, or one per two CPUs of its share where more', (t) => {
  const sizes = [1, 2, 4, 6, 8, 12, 16, 32, 64].map((c) => [c, autoFrontEnds(c), autoWorkers(c, autoFrontEnds(c))]);
  t.deepEqual(sizes, [
    [1, 1, 2],
    [2, 1, 2],
    [4, 1, 2],
    [6, 1, 3],
    [8, 2, 2],
    [12, 3, 2],
    [16, 4, 2],
    [32, 8, 2],
    [64, 16, 2],
  ]);
  t.is(FRONT_END_CPUS, 4);
  t.is(WORKERS_PER_FRONT_END, 2);
  // Threads the node asks for never pass the CPUs on machines of 8 or more, leaving the rest to the kernel and the collectors.
  for (const c of [8, 12, 16, 32, 64]) t.true(autoFrontEnds(c) * (1 + autoWorkers(c, autoFrontEnds(c))) <= c * 0.75, `${c} CPUs`);
  t.is(autoWorkers(16, 1), 8, 'one front end given on 16 CPUs gets one worker per two CPUs');
});

test('a cgroup CPU quota caps the usable CPUs: v2 cpu.max, v1 cfs quota over period; none or "max" leaves the CPUs as they are', (t) => {
  t.is(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu.max': '200000 100000\n' })), 2);
  t.is(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' })), 1.5);
  t.is(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' })), undefined);
  t.is(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })), 3);
  t.is(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })), undefined);
  t.is(cgroupCpuQuota(files({})), undefined);
  t.is(usableCpus(files({ '/sys/fs/cgroup/cpu.max': '50000 100000' })), 1, 'half a CPU rounds up to one');
  t.is(usableCpus(files({ '/sys/fs/cgroup/cpu.max': '100000000 100000' })), os.availableParallelism(), 'a quota above the CPUs leaves them');
  t.is(usableCpus(files({})), os.availableParallelism());
});
