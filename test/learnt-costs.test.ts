// The cost learner (src/pool/learnt-costs.ts): shapes that use up their slice STRIKES times are
// heavy from the start, for a while; the shapes kept are bounded.
import test from 'ava';
import { LearntCosts, shapeOf } from '../src/pool/learnt-costs.js';
import { LEARNT_FOR_MS, LEARNT_SHAPES, STRIKES, STRIKE_SHARE } from '../src/tuning.js';

test('a shape is heavy after STRIKES strikes that are most of its calls, and forgotten LEARNT_FOR_MS later', (t) => {
  let now = 1_000_000;
  const l = new LearntCosts(() => now);
  l.strike('database.get_blocks:6', true);
  t.false(l.isHeavy('database.get_blocks:6'), 'one strike is not enough: one slow call may be the moment\'s');
  l.strike('database.get_blocks:6', true);
  t.false(l.isHeavy('database.get_blocks:6'));
  l.strike('database.get_blocks:6', true);
  l.strike('database.get_blocks:6', true);
  t.true(l.isHeavy('database.get_blocks:6'), '4 strikes of 3 calls counted (the first struck, two guessed light since)');
  t.false(l.isHeavy('database.get_blocks:5'), 'another size is another shape');
  t.is(l.learnt, 1);
  now += LEARNT_FOR_MS + 1;
  t.false(l.isHeavy('database.get_blocks:6'), 'forgotten after a while');
  t.is(l.kept, 0);
});

test('an everyday shape whose calls now and then use up their slice on a busy machine is never learnt: the strikes must be a share of its calls', (t) => {
  const l = new LearntCosts();
  for (let round = 0; round < 50; round++) {
    l.strike('database.get_accounts:1', false);
    for (let i = 0; i < 200; i++) t.false(l.isHeavy('database.get_accounts:1'));
  }
  t.is(l.learnt, 0, `${50} strikes among ${50 * 200} calls: not heavy`);
  t.is(STRIKE_SHARE, 0.5);
});

test('calls that ran past their slice to the end, scheduled before their shape first struck (a node started under load), are no strikes; calls stopped at their slice are', (t) => {
  let mono = 100;
  const l = new LearntCosts(Date.now, LEARNT_SHAPES, () => mono);
  // A burst scheduled at 50: the first book of each market is built for the snapshot, slowly.
  for (let s = 0; s < 2 * STRIKES; s++) l.strike('database.get_order_book:6', false, 50);
  t.false(l.learntHeavy('database.get_order_book:6'), 'one strike: the calls scheduled with the first one are not counted, nor are their strikes');
  // The books are built: the calls that follow are light.
  mono = 200;
  for (let i = 0; i < 100; i++) t.false(l.isHeavy('database.get_order_book:6'));
  l.strike('database.get_order_book:6', false, 150);
  t.is(l.learnt, 0);
  // A shape whose calls scheduled since its first strike run long, most of them, is learnt.
  const m = new LearntCosts(Date.now, LEARNT_SHAPES, () => mono);
  m.strike('database.get_full_accounts:4', false, 190);
  for (let i = 1; i < STRIKES; i++) {
    t.false(m.learntHeavy('database.get_full_accounts:4'));
    m.isHeavy('database.get_full_accounts:4');
    m.strike('database.get_full_accounts:4', false, 210);
  }
  t.is(m.learnt, 1);
  // Calls stopped at their slice proved their cost: STRIKES of them teach at once, however scheduled.
  const p = new LearntCosts(Date.now, LEARNT_SHAPES, () => mono);
  for (let s = 0; s < STRIKES; s++) p.strike('database.get_transaction_hex:13', true, 50);
  t.true(p.learntHeavy('database.get_transaction_hex:13'));
});

test('at most LEARNT_SHAPES shapes are kept: a client inventing sizes cannot grow it, and the least recently struck go first', (t) => {
  const l = new LearntCosts(Date.now, 8);
  for (let s = 0; s < STRIKES; s++) l.strike('database.get_transaction_hex:13', true);
  t.true(l.isHeavy('database.get_transaction_hex:13'), 'STRIKES strikes and no other call: learnt');
  for (let i = 0; i < 7; i++) l.strike(`database.m${i}:1`, true);
  t.is(l.kept, 8);
  t.true(l.isHeavy('database.get_transaction_hex:13'));
  l.strike('database.m7:1', true);
  t.is(l.kept, 8, 'bounded');
  t.false(l.isHeavy('database.get_transaction_hex:13'), 'the oldest went first');
  t.is(LEARNT_SHAPES, 1024);
});

test('a call\'s shape: its method and the size of its arguments in powers of two, a range of blocks and a transaction\'s operations included', (t) => {
  const shape = (method: string, args: unknown[]) => shapeOf({ setKey: 'database', method, args });
  t.is(shape('get_accounts', [['1.2.0']]), 'database.get_accounts:1');
  t.is(shape('get_accounts', [['1.2.0', '1.2.1']]), 'database.get_accounts:2');
  t.is(shape('get_accounts', [['1.2.0', '1.2.1', '1.2.2']]), 'database.get_accounts:2');
  t.is(shape('get_chain_id', []), 'database.get_chain_id:0');
  t.is(shape('get_blocks', [1, 49]), 'database.get_blocks:6', 'a range of 48 blocks');
  t.is(shape('get_transaction_hex', [{ operations: new Array(6500).fill([0, {}]), signatures: [] }]), 'database.get_transaction_hex:13');
  t.is(shape('lookup_accounts', ['a'.repeat(4096), 10]), 'database.lookup_accounts:3', 'a long string counts by KiB');
});
