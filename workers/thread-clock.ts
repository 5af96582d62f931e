// The CPU time this worker thread has had, in ms, for telling a light call that is slow from one
// that waited for a CPU (workers/reply-writer.ts: a slice's end). A slice is wall time, looked at
// with Date.now() every 64 rows; on a machine whose CPUs are short a light call of a millisecond's
// work could wait past its 5 ms slice for a CPU, be stopped, and run again as heavy behind other
// clients' heavy calls: a neighbour's probe took 221 ms so (docs/design/light-slices.md).
//
// Linux counts each thread's time on a CPU in /proc/thread-self/schedstat (its first field, in ns).
// Node 20 has no thread clock of its own (process.threadCpuUsage came with Node 23.9), so the
// thread opens that file once and reads it with one pread (about 2 µs) at the start of a light task
// (at most once a millisecond: a reading that recent stands in) and at a slice's end. The file is closed when the thread exits (process 'exit' runs in a
// worker thread, also when the pool terminates it). Where the file cannot be read, there is no
// clock, and a slice is wall time alone, as before.
import fs from 'node:fs';

/** ms of CPU this thread has had so far. */
export type ThreadClock = () => number;

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** This thread's clock, or undefined where the system keeps none. Call it on the thread it is for. */
export function openThreadClock(file = SCHEDSTAT): ThreadClock | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(64);
  const clock: ThreadClock = () => {
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    let ns = 0;
    for (let i = 0; i < n; i++) {
      const c = buf[i]!;
      if (c < 48 || c > 57) break;
      ns = ns * 10 + (c - 48);
    }
    return ns / 1e6;
  };
  try {
    clock();
  } catch {
    fs.closeSync(fd);
    return undefined;
  }
  process.once('exit', () => fs.closeSync(fd));
  return clock;
}
