// Fee computation against BitShares Core's rules (fee_schedule_calc.cpp, set_fee, each operation's
// calculate_fee), with the bundled genesis fee schedule.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { BUNDLED_GENESIS } from '../src/chain/genesis.js';
import { packOperation } from '../src/chain/serializer.js';
import { calculateCoreFee, convertCoreFee, dataFee, isCheapName, normaliseOperation, requiredFee, requiredFeeAsset, setFee, type FeeScheduleJson, type PriceJson } from '../src/chain/fees.js';
import { op, DEV_PUB } from './helpers/chain.js';

const schedule = (JSON.parse(readFileSync(BUNDLED_GENESIS, 'utf8')) as { initial_parameters: { current_fees: FeeScheduleJson } }).initial_parameters.current_fees;
const PER_KB = 47575n;
const data = (bytes: number): bigint => (BigInt(bytes) * PER_KB) / 1024n;
const structSize = (o: unknown): number => packOperation(o).length - 1;
const memo = { from: DEV_PUB, to: DEV_PUB, nonce: '12345678901234', message: '00'.repeat(32) };

const wireError = (t: any, fn: () => unknown): { code: number; message: string } => {
  const err = t.throws(fn) as { wire: { code: number; message: string } };
  return err.wire;
};

test('a transfer costs the flat fee, plus the data fee of its memo when it has one', (t) => {
  t.is(calculateCoreFee(normaliseOperation(op.transfer('1.2.6', '1.2.7', 1)), schedule), 86869n);
  // optional<memo_data>: flag byte + 33 + 33 + 8 + varint(32) + 32 = 108 bytes
  t.is(calculateCoreFee(normaliseOperation(op.transfer('1.2.6', '1.2.7', 1, '1.3.0', memo)), schedule), 86869n + data(108));
});

test('asset_issue always pays the data fee of its optional memo, even without one', (t) => {
  t.is(calculateCoreFee(normaliseOperation(op.assetIssue('1.3.1', '1.2.7', 5)), schedule), 57913n + data(1));
});

test('account_create charges the premium fee for names without digits, dashes or no vowels', (t) => {
  t.false(isCheapName('alice'));
  t.true(isCheapName('bob1'));
  t.true(isCheapName('a-b'));
  t.true(isCheapName('bcd'));
  t.true(isCheapName('x.y'));
  const premium = normaliseOperation(op.accountCreate('alice'));
  t.is(calculateCoreFee(premium, schedule), 72391505n + data(structSize(premium)));
  const cheap = normaliseOperation(op.accountCreate('bob1'));
  t.is(calculateCoreFee(cheap, schedule), 1447830n + data(structSize(cheap)));
});

test('account_update adds the data fee only when new_options are given', (t) => {
  const plain = normaliseOperation([6, { account: '1.2.6', active: { weight_threshold: 1, account_auths: [], key_auths: [[DEV_PUB, 1]], address_auths: [] } }]);
  t.is(calculateCoreFee(plain, schedule), 2895n);
  const withOptions = normaliseOperation([6, { account: '1.2.6', new_options: { memo_key: DEV_PUB, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] } }]);
  t.is(calculateCoreFee(withOptions, schedule), 2895n + data(structSize(withOptions)));
});

test('asset_create is priced by symbol length, plus the whole operation as data', (t) => {
  for (const [symbol, fee] of [
    ['ABC', 2895660104n],
    ['ABCD', 724965026n],
    ['ABCDE', 14479300n],
    ['ABCDEFGHIJ', 14479300n],
  ] as const) {
    const o = normaliseOperation(op.assetCreate(symbol));
    t.is(calculateCoreFee(o, schedule), fee + data(structSize(o)), symbol);
  }
});

test('missing operation fields keep their C++ defaults, as fc from_variant does', (t) => {
  t.is(calculateCoreFee(normaliseOperation([0, {}]), schedule), 86869n);
  t.is(calculateCoreFee(normaliseOperation([14, {}]), schedule), 57913n + data(1));
  // an empty account name has no vowel: the cheap fee
  const o = normaliseOperation([5, {}]);
  t.is(calculateCoreFee(o, schedule), 1447830n + data(structSize(o)));
});

test('the schedule scale multiplies every fee by scale/10000', (t) => {
  const half = { ...schedule, scale: 5000 };
  t.is(calculateCoreFee(normaliseOperation(op.transfer('1.2.6', '1.2.7', 1)), half), 43434n);
  t.is(calculateCoreFee(normaliseOperation(op.transfer('1.2.6', '1.2.7', 1)), { ...schedule, scale: 0 }), 0n);
});

test('an operation missing from the schedule uses its fee_params_t defaults', (t) => {
  const without = { ...schedule, parameters: schedule.parameters.filter(([c]) => c !== 0) };
  t.is(calculateCoreFee(normaliseOperation(op.transfer('1.2.6', '1.2.7', 1)), without), 2000000n);
});

test('fees convert at the core_exchange_rate, rounding up, in either orientation', (t) => {
  const rate = (b: [number, string], q: [number, string]): PriceJson => ({ base: { amount: b[0], asset_id: b[1] }, quote: { amount: q[0], asset_id: q[1] } });
  t.deepEqual(convertCoreFee(86869n, rate([1, '1.3.0'], [3, '1.3.1'])), { amount: 260607n, asset_id: '1.3.1' });
  t.deepEqual(convertCoreFee(86869n, rate([7, '1.3.0'], [2, '1.3.1'])), { amount: 24820n, asset_id: '1.3.1' });
  t.deepEqual(convertCoreFee(86869n, rate([2, '1.3.1'], [7, '1.3.0'])), { amount: 24820n, asset_id: '1.3.1' });
  t.deepEqual(convertCoreFee(86869n, rate([1, '1.3.0'], [1, '1.3.0'])), { amount: 86869n, asset_id: '1.3.0' });
  t.regex(wireError(t, () => convertCoreFee(1n, rate([1, '1.3.1'], [1, '1.3.2']))).message, /invalid asset::multiply_and_round_up\(price\)/);
  t.regex(wireError(t, () => convertCoreFee(1n, rate([0, '1.3.0'], [1, '1.3.1']))).message, /b\.base\.amount\.value > 0/);
});

test('set_fee writes the fee into the operation and recomputes until the packed size settles', (t) => {
  // Paying in 1.3.200 makes the fee's asset id a two-byte varint, one byte more than 1.3.0.
  const rate: PriceJson = { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.200' } };
  const o = normaliseOperation(op.accountCreate('alice'));
  const before = calculateCoreFee(o, schedule);
  const f = setFee(o, schedule, rate);
  t.deepEqual(o[1].fee, { amount: Number(f.amount), asset_id: '1.3.200' });
  t.is(f.amount, calculateCoreFee(o, schedule));
  t.true(f.amount >= before);
});

test('amounts beyond 2^31-1 come back as strings, smaller ones as numbers', (t) => {
  t.deepEqual(requiredFeeAsset(op.assetCreate('ABC'), schedule), { amount: String(2895660104n + data(structSize(normaliseOperation(op.assetCreate('ABC'))))), asset_id: '1.3.0' });
  t.is(requiredFee(op.transfer('1.2.6', '1.2.7', 1), schedule), 86869);
});

test('an operation code Core does not define is refused as fc\'s static_variant refuses it', (t) => {
  const e = wireError(t, () => requiredFee([78, {}], schedule));
  t.is(e.code, 10);
  t.regex(e.message, /Unable to set tag '78' when the number of supported tags is 78/);
});

test('data fees are bytes * price_per_kbyte / 1024, truncated', (t) => {
  t.is(dataFee(1024, 100n), 100n);
  t.is(dataFee(1, 1023n), 0n);
  t.is(dataFee(0, 47575n), 0n);
});
