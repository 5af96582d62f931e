// A worker thread's first calls of a method are slow for the thread's sake (compiling the method's
// code): their slices teach the learner nothing.
import test from 'ava';
import { MethodWarmth } from '../workers/method-warmth.js';
import { COLD_CALLS } from '../src/tuning.js';

test('a thread\'s first COLD_CALLS calls of each method are cold, and every later one is warm', (t) => {
  const w = new MethodWarmth();
  const history = Array.from({ length: COLD_CALLS + 3 }, () => w.start('history', 'get_relative_account_history'));
  t.deepEqual(history, [...Array<boolean>(COLD_CALLS).fill(true), false, false, false]);
  // Another method, or the same name in another API set, is cold again: its code is its own.
  t.true(w.start('database', 'get_accounts'));
  t.true(w.start('database', 'get_relative_account_history'));
  t.false(w.start('history', 'get_relative_account_history'));
});

test('with no cold calls, every call is warm', (t) => {
  const w = new MethodWarmth(0);
  t.false(w.start('history', 'get_account_history'));
});
