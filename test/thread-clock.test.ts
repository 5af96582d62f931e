// A worker thread's CPU clock (workers/thread-clock.ts): it counts the time this thread runs, not
// the time it waits, so that a light call that waited for a CPU is not taken for a slow one.
import test from 'ava';
import { Worker } from 'node:worker_threads';
import { openThreadClock } from '../workers/thread-clock.js';

test('the clock moves with this thread\'s work and not with its waits (Linux)', async (t) => {
  const clock = openThreadClock();
  if (!clock) return t.pass('no /proc/thread-self/schedstat on this system: slices stay wall time');
  // Work until the clock shows 20 ms (on a busy machine that takes longer in wall time).
  const a = clock();
  const giveUp = Date.now() + 10_000;
  while (clock() - a < 20 && Date.now() < giveUp) for (let i = 0; i < 100_000; i++) Math.sqrt(i);
  const b = clock();
  t.true(b - a >= 20, `work moved the clock by ${(b - a).toFixed(1)} ms in 10 s`);
  await new Promise((r) => setTimeout(r, 50));
  const c = clock();
  t.true(c - b < 20, `50 ms of waiting counted as ${(c - b).toFixed(1)} ms`);
});

test('each thread has its own clock: another thread\'s work does not move this one\'s', async (t) => {
  const clock = openThreadClock();
  if (!clock) return t.pass('no thread clock here');
  const before = clock();
  const worker = new Worker('const until = Date.now() + 100; while (Date.now() < until);', { eval: true });
  await new Promise((r) => worker.once('exit', r));
  t.true(clock() - before < 50, 'the worker\'s 100 ms are not this thread\'s');
});

test('without the file there is no clock', (t) => {
  t.is(openThreadClock('/nonexistent/schedstat'), undefined);
});
