// chain/protocol/transaction-builder.ts: TaPoS, expiration and fees as a wallet sets them, and signatures that
// recover to the signing keys.
import test from 'ava';
import { buildTransaction, headOf, signTransaction } from '../src/chain/protocol/transaction-builder.js';
import { transferOp } from '../src/chain/protocol/operation-builders.js';
import { BUNDLED_GENESIS, loadGenesis } from '../src/chain/node/genesis.js';
import { requiredFee, type FeeSchedule } from '../src/chain/protocol/fees.js';
import { signatureKeys } from '../src/chain/protocol/authority.js';
import { publicKeyOf } from '../src/chain/crypto/keys.js';
import { refBlockPrefix } from '../src/chain/protocol/serializer.js';

const CHAIN_ID = 'ab'.repeat(32);
const HEAD_ID = '0001e2400fa57d0b8c1e3f0a9b8c7d6e5f4a3b2c';
const schedule = loadGenesis(BUNDLED_GENESIS).genesis.initial_parameters.current_fees as FeeSchedule;

test('TaPoS names the head block; expiration counts from its time', (t) => {
  const head = headOf({ head_block_number: 123456, head_block_id: HEAD_ID, time: '2026-01-01T00:00:00' });
  const trx = buildTransaction(head, [transferOp('1.2.6', '1.2.7', 5)], { expiresIn: 30 });
  t.is(trx.ref_block_num, 123456 & 0xffff);
  t.is(trx.ref_block_prefix, refBlockPrefix(HEAD_ID));
  t.is(trx.expiration, '2026-01-01T00:00:30');
  t.deepEqual(Object.keys(trx), ['ref_block_num', 'ref_block_prefix', 'expiration', 'operations', 'extensions']);
});

test('a transaction on the genesis block refers to block 0 with prefix 0', (t) => {
  const trx = buildTransaction({ number: 0, id: '0'.repeat(40), time: 100 }, [transferOp('1.2.6', '1.2.7', 5)], { expiration: 500 });
  t.is(trx.ref_block_num, 0);
  t.is(trx.ref_block_prefix, 0);
  t.is(trx.expiration, '1970-01-01T00:08:20');
});

test('fees come from the schedule, from quoted amounts, or from one override', (t) => {
  const head = { number: 1, id: HEAD_ID, time: 0 };
  const a = buildTransaction(head, [transferOp('1.2.6', '1.2.7', 5)], { fees: schedule });
  t.deepEqual(a.operations[0]![1].fee, { amount: requiredFee(a.operations[0], schedule), asset_id: '1.3.0' });
  const b = buildTransaction(head, [transferOp('1.2.6', '1.2.7', 5), transferOp('1.2.6', '1.2.8', 5)], { fees: [7, '8'] });
  t.deepEqual(b.operations.map((o) => o[1].fee), [{ amount: 7, asset_id: '1.3.0' }, { amount: '8', asset_id: '1.3.0' }]);
  const c = buildTransaction(head, [transferOp('1.2.6', '1.2.7', 5)], { fees: schedule, fee: 1 });
  t.deepEqual(c.operations[0]![1].fee, { amount: 1, asset_id: '1.3.0' });
  t.throws(() => buildTransaction(head, [transferOp('1.2.6', '1.2.7', 5)], { fees: [] }), { message: 'no fee given for operation 0' });
});

test('each key signs once; the signatures recover to the keys', (t) => {
  const keys = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
  const trx = buildTransaction({ number: 5, id: HEAD_ID, time: 0 }, [transferOp('1.2.6', '1.2.7', 5)], { fees: schedule });
  const signed = signTransaction(CHAIN_ID, trx, keys);
  t.is(signed.signatures.length, 2);
  t.deepEqual(signatureKeys(CHAIN_ID, signed), keys.map((k) => publicKeyOf(k)));
});
