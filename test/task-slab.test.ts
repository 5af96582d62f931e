// The task slab (src/protocol/task-slab.ts): the front end writes each task into a shared slot and
// sends the worker its place; a slot is reused only once its task is answered, and a task that does
// not fit, or finds no slot free, crosses in a buffer of its own. Every task must read in the worker
// exactly as the front end packed it.
import test from 'ava';
import { buildConfig } from '../src/config.js';
import { decodeTasks, packTasks } from '../src/protocol/codec.js';
import { createTaskSlab, taskReader } from '../src/protocol/task-slab.js';
import type { PoolTask } from '../src/protocol/thread-messages.js';
import { openPool } from '../src/pool/pool.js';
import { TaskSlots } from '../src/pool/task-slots.js';
import { captureLogs } from './helpers/logs.js';
import { tempDir } from './helpers/temp.js';
import { TASK_SLOT_BYTES } from '../src/tuning.js';

const call = (method: string, params: unknown[] = []): PoolTask => ({ set: 'database', method, params, head: '{"id":1,"result":', deadline: 1e13, budgetMs: 5000, cancelSlot: 3, subscribe: true, sliceMs: 5 });

test('a task written into the slab reads back in the worker as packed, long and non-ASCII strings too', (t) => {
  const slab = createTaskSlab(2);
  const slots = new TaskSlots(slab);
  const read = taskReader(slab);
  // Past 64 bytes msgpackr decodes a string with TextDecoder, which refuses shared memory.
  const tasks = [call('get_accounts', [['nathan']]), call('lookup_accounts', ['é'.repeat(500), 1000]), call('get_objects', [Array.from({ length: 100 }, (_, i) => `1.2.${i}`)])];
  const ref = slots.take(packTasks(tasks));
  t.is(typeof ref, 'number');
  t.deepEqual(decodeTasks(read(ref!)), tasks);
  // A task in a buffer of its own is read as it is.
  const own = Uint8Array.prototype.slice.call(packTasks(tasks));
  t.is(read(own), own);
});

test('a slot is taken per task until none is free, a task larger than a slot gets none, and a released slot is taken again', (t) => {
  const slab = createTaskSlab(2);
  const slots = new TaskSlots(slab);
  const read = taskReader(slab);
  const a = slots.take(packTasks([call('a')]))!;
  const b = slots.take(packTasks([call('b')]))!;
  t.is(slots.available, 0);
  t.is(slots.take(packTasks([call('c')])), undefined, 'none free');
  t.is(slots.take(new Uint8Array(TASK_SLOT_BYTES + 1)), undefined, 'too large');
  t.is(slots.available, 0, 'a refused task takes nothing');
  t.is(decodeTasks(read(a))[0]!.method, 'a', 'a held slot is not written over');
  slots.release(b);
  const c = slots.take(packTasks([call('c')]))!;
  t.is(decodeTasks(read(c))[0]!.method, 'c');
  t.is(decodeTasks(read(a))[0]!.method, 'a');
});

test('a task larger than a slot takes a run of the large part, reads back whole, and frees its run when released', (t) => {
  // Two slots, then a large part of 6 pages.
  const slab = createTaskSlab(2, 6 * TASK_SLOT_BYTES);
  const slots = new TaskSlots(slab, 2);
  const read = taskReader(slab);
  const big = (c: string, pages: number) => [call('get_transaction_hex', [c.repeat(pages * TASK_SLOT_BYTES - 200)])];
  const a = slots.take(packTasks(big('a', 3)))!;
  const b = slots.take(packTasks(big('b', 3)))!;
  t.is(typeof a, 'number');
  t.is(typeof b, 'number');
  t.is(slots.largePagesInUse, 6);
  t.is(slots.available, 2, 'the slots are untouched');
  t.is(slots.take(packTasks(big('x', 2))), undefined, 'no page free: a buffer of its own');
  const readA = read(a);
  t.deepEqual(decodeTasks(readA), big('a', 3));
  t.deepEqual(decodeTasks(read(b)), big('b', 3), 'a held run is not written over');
  t.deepEqual(decodeTasks(readA), big('a', 3), 'a large task\'s copy is its own, not the reader\'s reused one');
  slots.release(a);
  t.is(slots.largePagesInUse, 3);
  const c = slots.take(packTasks(big('c', 2)))!;
  t.deepEqual(decodeTasks(read(c)), big('c', 2));
  t.is(slots.take(packTasks(big('d', 2))), undefined, 'one page left: no run of two');
  slots.release(b);
  slots.release(c);
  t.is(slots.largePagesInUse, 0);
  t.is(slots.take(new Uint8Array(7 * TASK_SLOT_BYTES)), undefined, 'larger than the large part');
});

test('through a real pool, tasks beyond the slots and tasks larger than a slot are all answered, each with its own calls', async (t) => {
  const config = buildConfig({ workers: '2', 'log-level': 'silent', 'data-dir': tempDir(t) });
  const pool = openPool(config, captureLogs('warn').log, { workerFile: new URL('./fixtures/stuck-worker.js', import.meta.url).href, closeTimeoutMs: 200 });
  t.teardown(() => pool.close());
  await pool.ready();
  // Forty tasks at once, ten times the slots the scheduler would use, some too large for a slot.
  const tasks = Array.from({ length: 40 }, (_, i) => [call(`m${i}-a`, i % 7 === 0 ? ['x'.repeat(TASK_SLOT_BYTES)] : [i]), call(`m${i}-b`)]);
  const answers = await Promise.all(tasks.map((task) => pool.runTask(task)));
  const text = (a: unknown) => new TextDecoder().decode(a as Uint8Array);
  t.deepEqual(
    answers.map((a) => a.map(text)),
    tasks.map((task) => task.map((c) => c.method)),
  );
  // And again, once every slot has been released.
  t.deepEqual((await pool.runTask([call('again')])).map(text), ['again']);
});
