// Fee computation against BitShares Core's rules (fee_schedule_calc.cpp, set_fee, each operation's
// calculate_fee), with the bundled genesis fee schedule.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { BUNDLED_GENESIS } from '../src/chain/node/genesis.js';
import { packOperation } from '../src/chain/protocol/serializer.js';
import { calculateCoreFee, convertCoreFee, dataFee, defaultFeeSchedule, isCheapName, normaliseOperation, requiredFee, requiredFeeAsset, setFee, type FeeScheduleJson, type PriceJson } from '../src/chain/protocol/fees.js';
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

test('custom_operation costs custom.hpp\'s default 1 BTS plus 10 per KiB of the whole operation (as the bundled schedule lists it), or what a schedule of its own says', (t) => {
  const small = normaliseOperation(op.custom('1.2.6', 'ab'.repeat(100)));
  // fee 8+1, payer 1, required_auths 1, id 2, data 1+100: 114 bytes → 114 * 10 / 1024 = 1
  t.is(structSize(small), 114);
  t.is(calculateCoreFee(small, schedule), 100000n + 1n);
  const large = normaliseOperation(op.custom('1.2.6', 'ab'.repeat(1500), { requiredAuths: ['1.2.7', '1.2.8'] }));
  t.is(calculateCoreFee(large, schedule), 100000n + (BigInt(structSize(large)) * 10n) / 1024n);
  const own = { ...schedule, parameters: [...schedule.parameters.filter(([c]) => c !== 35), [35, { fee: 5000, price_per_kbyte: 2048 }]] as FeeScheduleJson['parameters'] };
  t.is(calculateCoreFee(small, own), 5000n + 228n);
  t.deepEqual(normaliseOperation([35, {}]), [35, { fee: { amount: 0, asset_id: '1.3.0' }, payer: '1.2.0', required_auths: [], id: 0, data: '' }]);
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

// ---------------------------------------------------------------------------------------------
// fee_helper's special cases (fee_schedule.hpp) and calc_fee_visitor's (fee_schedule_calc.cpp), on
// small schedules made for each

const only = (...entries: [number, Record<string, unknown>][]): FeeScheduleJson => ({ parameters: entries, scale: 10000 });
const core = (o: unknown, s: FeeScheduleJson): bigint => calculateCoreFee(normaliseOperation(o), s);

test('bid_collateral, asset_update_issuer and asset_claim_pool borrow an older operation\'s fee while the schedule has none of their own', (t) => {
  t.is(core([45, {}], only([3, { fee: 777 }])), 777n, 'bid_collateral: call_order_update\'s');
  t.is(core([45, {}], only([3, { fee: 777 }], [45, { fee: 5 }])), 5n);
  t.is(core([45, {}], only()), 2000000n, 'neither: its own default');
  t.is(core([48, {}], only([11, { fee: 888, price_per_kbyte: 1 }])), 888n, 'asset_update_issuer: asset_update\'s');
  t.is(core([47, {}], only([16, { fee: 999 }])), 999n, 'asset_claim_pool: asset_fund_fee_pool\'s');
});

test('ticket_create and ticket_update cost their default fee whatever the schedule says', (t) => {
  t.is(core([57, {}], only([57, { fee: 1 }])), 5000000n);
  t.is(core([58, {}], only([58, { fee: 1 }])), 5000000n);
  t.is(core([57, {}], { ...only([57, { fee: 1 }]), scale: 5000 }), 2500000n, 'scaled all the same');
});

test('a sub-asset costs account_transfer\'s fee only once the schedule has account_transfer and ticket_create', (t) => {
  const create = (symbol: string) => [10, { symbol }];
  const params = [10, { symbol3: 300, symbol4: 400, long_symbol: 500, price_per_kbyte: 0 }] as [number, Record<string, unknown>];
  t.is(core(create('AB.C'), only(params)), 400n, 'by length: four bytes');
  t.is(core(create('AB.C'), only(params, [9, { fee: 9 }])), 400n, 'no ticket_create: by length still');
  t.is(core(create('AB.C'), only(params, [9, { fee: 9 }], [57, {}])), 9n);
  t.is(core(create('ABC'), only(params, [9, { fee: 9 }], [57, {}])), 300n, 'not a sub-asset');
  // symbol.size() counts bytes: a two-byte character makes "Ä1" three long
  t.is(core(create('Ä1'), only(params)), 300n);
});

test('htlc fees: per started day, uint32 arithmetic as htlc.cpp; a memo at transfer\'s price_per_kbyte', (t) => {
  const s = only([49, { fee: 10, fee_per_day: 100 }], [52, { fee: 1, fee_per_day: 1000 }], [50, { fee: 7, fee_per_kb: 3 }]);
  t.is(core([49, { claim_period_seconds: 0 }], s), 10n);
  t.is(core([49, { claim_period_seconds: 1 }], s), 110n);
  t.is(core([49, { claim_period_seconds: 86400 }], s), 110n);
  t.is(core([49, { claim_period_seconds: 86401 }], s), 210n);
  // (seconds + 86399) wraps in uint32 near 2^32: 4294967295 + 86399 → 86398, no day at all
  t.is(core([49, { claim_period_seconds: 4294967295 }], s), 10n);
  t.is(core([52, { seconds_to_add: 172801 }], s), 3001n);
  t.is(core([50, { preimage: '' }], s), 7n);
  t.is(core([50, { preimage: '00'.repeat(1025) }], s), 13n);
  const withMemo = [49, { claim_period_seconds: 1, extensions: { memo } }];
  const memoSize = 1 + 33 + 33 + 8 + 1 + 32;
  t.is(core(withMemo, only([49, { fee: 10, fee_per_day: 100 }], [0, { fee: 1, price_per_kbyte: 1024 }])), 110n + BigInt(memoSize));
  t.is(core(withMemo, only([49, { fee: 10, fee_per_day: 100 }])), 110n + (BigInt(memoSize) * 1000000n) / 1024n, 'no transfer entry: its default price_per_kbyte');
});

test('per-item fees: assert per predicate, blind transfers per output, custom authorities per byte', (t) => {
  const s = only([36, { fee: 5 }], [39, { fee: 100, price_per_output: 7 }], [54, { basic_fee: 1000, price_per_byte: 2 }]);
  t.is(core([36, {}], s), 0n, 'no predicates, nothing to pay');
  t.is(core([36, { predicates: [[0, {}], [2, {}]] }], s), 10n);
  t.is(core([39, { outputs: [{}, {}, {}] }], s), 121n);
  // an empty restriction list is one byte, the default authority (threshold, three empty maps) seven
  t.is(core([54, {}], s), 1000n + 2n * (1n + 7n));
});

test('account_upgrade costs the lifetime or the annual fee; operations with empty fee parameters (the virtual ones, balance_claim) cost nothing', (t) => {
  const s = only([8, { membership_annual_fee: 20, membership_lifetime_fee: 100 }]);
  t.is(core([8, { upgrade_to_lifetime_member: true }], s), 100n);
  t.is(core([8, {}], s), 20n);
  for (const code of [4, 37, 42, 44, 46, 51, 53, 74]) t.is(core([code, {}], schedule), 0n, `${code}`);
});

test('the bundled genesis schedule has every operation\'s entry, with Core\'s defaults where it sets no price of its own', (t) => {
  const defaults = defaultFeeSchedule();
  t.deepEqual(schedule.parameters.map(([c]) => c), defaults.parameters.map(([c]) => c));
  t.is(defaults.parameters.length, 78);
  schedule.parameters.forEach(([code, params], i) => {
    const d = defaults.parameters[i]![1];
    t.deepEqual(Object.keys(params), Object.keys(d), `${code}: fee_params_t's members`);
    // transfer, account_create, account_update, asset_create and asset_issue keep the prices they had
    if (![0, 5, 6, 10, 14].includes(code)) t.deepEqual(params, d, `${code}`);
  });
  t.deepEqual(defaults.parameters[5], [5, { basic_fee: 500000, premium_fee: 200000000, price_per_kbyte: 100000 }]);
  t.deepEqual(defaults.parameters[10]![1].symbol3, '50000000000', 'a uint64 above 2^32 as fc writes it: a string');
});

test('a schedule that leaves members out keeps fee_schedule\'s defaults: no entries, scale 100%', (t) => {
  t.is(core([0, {}], {} as FeeScheduleJson), 2000000n);
  t.is(core([0, {}], { parameters: [[0, {}]] } as unknown as FeeScheduleJson), 2000000n);
  t.is(core([0, {}], { parameters: [[0, { fee: 7 }]] } as unknown as FeeScheduleJson), 7n);
});
