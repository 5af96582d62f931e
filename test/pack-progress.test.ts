// Packing and reading a transaction look at the call's deadline as they go (withProgress in
// src/chain/protocol/pack/combinators.ts): a transaction of thousands of operations stops where its
// deadline passes, not after it, and with no look set nothing changes.
import test from 'ava';
import { withProgress } from '../src/chain/protocol/pack/combinators.js';
import { canonicalSignedTransaction, packSignedTransaction } from '../src/chain/protocol/serializer.js';

const op = [0, { fee: { amount: 100, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.7', amount: { amount: 1, asset_id: '1.3.0' }, extensions: [] }];
const trx = (n: number) => ({ ref_block_num: 0, ref_block_prefix: 0, expiration: '2030-01-01T00:00:00', operations: Array.from({ length: n }, () => op), extensions: [], signatures: [] });

test('a look every 64 elements while a transaction is packed and read; none outside withProgress', (t) => {
  let looks = 0;
  const plain = packSignedTransaction(trx(640));
  const looked = withProgress(
    () => looks++,
    () => packSignedTransaction(trx(640)),
  );
  t.is(looks, 10, '640 operations: 10 looks');
  t.deepEqual(looked, plain, 'the same bytes');
  withProgress(
    () => looks++,
    () => canonicalSignedTransaction(trx(128)),
  );
  t.is(looks, 12);
  packSignedTransaction(trx(640));
  t.is(looks, 12, 'no look once withProgress is over');
});

test('a look that throws stops the packing there', (t) => {
  let looks = 0;
  const error = t.throws(() =>
    withProgress(
      () => {
        if (++looks === 3) throw new Error('past the deadline');
      },
      () => packSignedTransaction(trx(6500)),
    ),
  );
  t.is(error?.message, 'past the deadline');
  t.is(looks, 3, 'stopped at the third look, not after 6,500 operations');
});
