// What the chain stores is what Core would write back, whatever the client's spelling.
import test from 'ava';
import { canonicalSignedTransaction, packSignedTransaction } from '../src/chain/protocol/serializer.js';
import { DEV_PUB } from './helpers/chain.js';

const KEY2 = 'BTS5z5e3BawwMY6UmcBQxYpkKZ8QQm4wdtS4KMZiWAcWBUC3RJuLT';

const trx = (transfer: Record<string, unknown>) => ({
  ref_block_num: 1,
  ref_block_prefix: 123,
  expiration: '2026-01-01T00:01:00',
  operations: [[0, transfer]],
  extensions: [],
  signatures: [],
});

test('amounts written as strings come back as fc numbers, large ones as strings', (t) => {
  const c = canonicalSignedTransaction(
    trx({ fee: { amount: '86869', asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.0', amount: { amount: '5000000000', asset_id: '1.3.0' }, extensions: [] }),
  ) as any;
  t.deepEqual(c.operations[0][1].fee, { amount: 86869, asset_id: '1.3.0' });
  t.deepEqual(c.operations[0][1].amount, { amount: '5000000000', asset_id: '1.3.0' });
});

test('an unset optional memo is left out, a set one keeps its fields with the nonce as fc writes uint64', (t) => {
  const base = { fee: { amount: 1, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.0', amount: { amount: 1, asset_id: '1.3.0' } };
  t.false('memo' in (canonicalSignedTransaction(trx({ ...base, memo: null, extensions: [] })) as any).operations[0][1]);
  const memo = { from: DEV_PUB, to: KEY2, nonce: 18446744073709551615n.toString(), message: 'ABCDEF' };
  const c = (canonicalSignedTransaction(trx({ ...base, memo, extensions: [] })) as any).operations[0][1];
  t.deepEqual(c.memo, { from: DEV_PUB, to: KEY2, nonce: '18446744073709551615', message: 'abcdef' });
  t.deepEqual(Object.keys(c), ['fee', 'from', 'to', 'amount', 'memo', 'extensions']);
});

test('sets and maps come back sorted as Core sorts them, and the binary form does not change', (t) => {
  const op = {
    fee: { amount: 1, asset_id: '1.3.0' },
    registrar: '1.2.6',
    referrer: '1.2.6',
    referrer_percent: 0,
    name: 'carol',
    owner: { weight_threshold: 1, account_auths: [['1.2.9', 1], ['1.2.7', 1]], key_auths: [[DEV_PUB, 1], [KEY2, 1]], address_auths: [] },
    active: { weight_threshold: 1, account_auths: [], key_auths: [[DEV_PUB, 1]], address_auths: [] },
    options: { memo_key: DEV_PUB, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: ['0:3', '1:0'], extensions: [] },
    extensions: {},
  };
  const raw = { ...trx({}), operations: [[5, op]] };
  const c = canonicalSignedTransaction(raw) as any;
  t.deepEqual(c.operations[0][1].owner.account_auths, [['1.2.7', 1], ['1.2.9', 1]]);
  // vote_id_type orders by its content, instance << 8 | type: 1:0 (1) before 0:3 (768).
  t.deepEqual(c.operations[0][1].options.votes, ['1:0', '0:3']);
  t.deepEqual(Buffer.from(packSignedTransaction(c)), Buffer.from(packSignedTransaction(raw)));
});
