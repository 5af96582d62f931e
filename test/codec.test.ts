// The pool's codec (src/protocol/codec.ts): every pack writes from the start of one kept buffer, so
// that packing tasks, however large, allocates nothing new once the buffer has grown to them; what a
// pack returns is copied at once by its callers, and must decode exactly as packed.
import test from 'ava';
import { decode, decodeTasks, encode, packTasks } from '../src/protocol/codec.js';
import type { PoolTask } from '../src/protocol/thread-messages.js';

const call = (params: unknown[]): PoolTask => ({ set: 'database', method: 'get_transaction_hex', params, head: '{"id":1,"result":', deadline: 1e13, budgetMs: 5000 });

test('every pack is written from the start of the same buffer, which a large pack grows once and is kept', (t) => {
  const a = packTasks([call([1])]);
  const b = packTasks([call([2])]);
  t.is(a.buffer, b.buffer, 'one buffer');
  t.is(b.byteOffset, 0, 'from its start');
  const big = packTasks([call(['x'.repeat(1_000_000)])]);
  t.true(big.buffer.byteLength >= 1_000_000);
  t.deepEqual(decodeTasks(big)[0]!.params, ['x'.repeat(1_000_000)]);
  const again = packTasks([call(['y'.repeat(1_000_000)])]);
  t.is(again.buffer, big.buffer, 'the grown buffer is kept for the next large pack');
  const small = packTasks([call([3])]);
  t.is(small.buffer, big.buffer);
  t.deepEqual(decodeTasks(small)[0]!.params, [3]);
});

test('what encode returns is its own copy: a later pack does not change it', (t) => {
  const first = encode({ a: 'é'.repeat(100), n: [1, 2, 3] });
  encode({ b: 'z'.repeat(5000) });
  packTasks([call(['w'.repeat(20_000)])]);
  t.deepEqual(decode(first), { a: 'é'.repeat(100), n: [1, 2, 3] });
});
