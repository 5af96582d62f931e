// Confirmations: a waiter registered after its transaction's outcome still gets it. With several
// serving processes a push is answered only once every process has read the change, and a block
// that confirms or drops the transaction can arrive before that answer.
import test from 'ava';
import { Confirmations, type Waiter } from '../src/handlers/confirmations.js';
import type { ProducedBlock } from '../src/chain/node/producer.js';
import { RECENT_OUTCOMES } from '../src/tuning.js';

const block = (num: number, ids: string[]) => ({ blockNum: num, transactionIds: ids, transactions: ids.map((id) => ({ id })) }) as unknown as ProducedBlock;
const outcome = (c: Confirmations, id: string) => {
  let got: Parameters<Waiter>[0] | undefined;
  c.wait(id, (o) => (got = o));
  return got;
};

test('a waiter registered after its transaction was dropped gets the reason at once', (t) => {
  const c = new Confirmations();
  c.onDropped('aa', 'expired');
  t.deepEqual(outcome(c, 'aa'), { dropped: 'expired' });
  t.is(c.size, 0);
});

test('a waiter registered after the block that holds its transaction gets the confirmation at once', (t) => {
  const c = new Confirmations();
  c.onBlock(block(7, ['x', 'y']));
  t.like(outcome(c, 'y'), { id: 'y', block_num: 7, trx_num: 1 });
});

test('a waiter registered before the outcome waits for it; outcomes kept are bounded', (t) => {
  const c = new Confirmations();
  t.is(outcome(c, 'later'), undefined);
  t.is(c.size, 1);
  c.onBlock(block(1, [...Array.from({ length: RECENT_OUTCOMES + 1 }, (_, i) => `t${i}`), 'later']));
  t.is(c.size, 0, 'the waiter was called');
  t.is(outcome(c, 't0'), undefined, 'the oldest outcome was forgotten');
  t.like(outcome(c, `t${RECENT_OUTCOMES}`), { block_num: 1, trx_num: RECENT_OUTCOMES });
});
