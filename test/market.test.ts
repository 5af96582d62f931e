// The matching engine (src/chain/evaluators/market.ts) through the chain writer, against numbers worked out by
// hand from BitShares Core's db_market.cpp: match_limit_normal_limit rounds down what the smaller
// side receives and rounds up what it pays, fill_limit_order culls a remainder that would receive
// nothing, apply_order matches best price first and oldest first at one price, and
// clear_expired_orders cancels at the block's end.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';
import { assetCreateOp } from '../src/chain/protocol/operation-builders.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { idInstance, objectIdParts } from '../src/chain/fc/object-id.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const BOB = '1.2.8';
const BTS = '1.3.0';
const GOLD = '1.3.1';
const FUNDS = 1_000_000_000;
/** limit_order_create's default fee (market.hpp fee_params_t: 5 BTS); the genesis schedule has none of its own. */
const CREATE_FEE = 500_000;

type Obj = Record<string, any>;

function market(t: ExecutionContext) {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')], [op.accountCreate('bob')]);
  chain.block([op.assetCreate('GOLD')]);
  chain.block([op.transfer(NATHAN, ALICE, FUNDS)], [op.transfer(NATHAN, BOB, FUNDS)], [op.assetIssue(GOLD, ALICE, FUNDS)], [op.assetIssue(GOLD, BOB, FUNDS)]);
  const obj = (id: string): Obj | undefined => {
    const { space, type, instance } = objectIdParts(id)!;
    const raw = chain.store.objects.get([space, type, instance]);
    return raw ? JSON.parse(raw.toString('utf8')) : undefined;
  };
  const balance = (account: string, asset: string): number => {
    const b = chain.store.balances.get([idInstance(account), idInstance(asset)]);
    return b === undefined ? 0 : Number(obj(`2.5.${b}`)!.balance);
  };
  /** The block's operation history objects, in order. */
  const blockOps = (blockNum: number): Obj[] => {
    const [first, count] = chain.store.blockOperations.get(blockNum)!;
    return Array.from({ length: count }, (_, i) => obj(`1.11.${first + i}`)!);
  };
  const withFee = (o: OperationJson, fee = CREATE_FEE): OperationJson => {
    o[1].fee = { amount: fee, asset_id: BTS };
    return o;
  };
  return { chain, obj, balance, blockOps, withFee };
}

const sell = (seller: string, amount: number, asset: string, receive: number, receiveAsset: string, o: { expiration?: string; fillOrKill?: boolean } = {}) =>
  op.limitOrderCreate(seller, [amount, asset], [receive, receiveAsset], o);

test('a taker fills at the maker price: the maker keeps the rest on the book, both see the fill, fees deferred to the first fill', (t) => {
  const m = market(t);
  // alice sells 1,000,000 BTS for 5,000 GOLD: 200 BTS a GOLD.
  const placed = m.chain.block([m.withFee(sell(ALICE, 1_000_000, BTS, 5_000, GOLD))]);
  t.deepEqual(placed.transactions[0]!.operation_results, [[1, '1.7.0']]);
  t.is(m.balance(ALICE, BTS), FUNDS - 1_000_000 - CREATE_FEE);
  t.deepEqual(m.obj('1.7.0'), {
    id: '1.7.0',
    expiration: '2106-02-07T06:28:15',
    seller: ALICE,
    for_sale: 1_000_000,
    sell_price: { base: { amount: 1_000_000, asset_id: BTS }, quote: { amount: 5_000, asset_id: GOLD } },
    filled_amount: '0',
    deferred_fee: CREATE_FEE,
    deferred_paid_fee: { amount: 0, asset_id: BTS },
    is_settled_debt: false,
    on_fill: [],
  });
  t.is(m.obj('2.6.7')!.total_core_in_orders, 1_000_000);
  t.is(m.obj('2.6.7')!.pending_fees, 0, 'the creation fee waits in the order');

  // bob sells 2,000 GOLD asking at least 300,000 BTS (150 a GOLD): he gets the maker's 200 a GOLD.
  const taken = m.chain.block([m.withFee(sell(BOB, 2_000, GOLD, 300_000, BTS))]);
  t.deepEqual(taken.transactions[0]!.operation_results, [[1, '1.7.1']]);
  const ops = m.blockOps(taken.blockNum);
  t.deepEqual(
    ops.map((o) => [o.op[0], o.virtual_op, o.is_virtual, o.trx_in_block, o.op_in_trx]),
    [
      [1, 0, false, 0, 0],
      [4, 1, true, 0, 0],
      [4, 2, true, 0, 0],
    ],
  );
  const fillPrice = { base: { amount: 1_000_000, asset_id: BTS }, quote: { amount: 5_000, asset_id: GOLD } };
  t.deepEqual(ops[1]!.op[1], { fee: { amount: 0, asset_id: BTS }, order_id: '1.7.1', account_id: BOB, pays: { amount: 2_000, asset_id: GOLD }, receives: { amount: 400_000, asset_id: BTS }, fill_price: fillPrice, is_maker: false });
  t.deepEqual(ops[2]!.op[1], { fee: { amount: 0, asset_id: GOLD }, order_id: '1.7.0', account_id: ALICE, pays: { amount: 400_000, asset_id: BTS }, receives: { amount: 2_000, asset_id: GOLD }, fill_price: fillPrice, is_maker: true });
  t.deepEqual(ops[1]!.result, [0, {}]);
  // Each fill is in its own account's history, as the newest operation.
  t.is(m.obj('2.6.8')!.total_ops, 5);
  t.is(m.chain.store.accountSequence.get([8, 5]), idInstance(ops[1]!.id));
  t.is(m.chain.store.accountSequence.get([7, 5]), idInstance(ops[2]!.id));

  // bob's order filled whole in its own block: it never shows as created or removed.
  t.is(m.obj('1.7.1'), undefined);
  t.false(taken.changes.created.includes('1.7.1'));
  t.false(taken.changes.removed.includes('1.7.1'));
  t.true(taken.changes.changed.includes('1.7.0'));
  t.is(m.balance(BOB, BTS), FUNDS + 400_000 - CREATE_FEE);
  t.is(m.balance(BOB, GOLD), FUNDS - 2_000);
  t.is(m.balance(ALICE, GOLD), FUNDS + 2_000);
  const left = m.obj('1.7.0')!;
  t.is(left.for_sale, 600_000);
  t.is(left.filled_amount, '400000');
  t.is(left.deferred_fee, 0);
  t.is(m.obj('2.6.7')!.total_core_in_orders, 600_000);
  t.is(m.obj('2.6.7')!.pending_fees, CREATE_FEE, "the maker's fee counts as paid at its first fill");
  t.is(m.obj('2.6.8')!.pending_fees, CREATE_FEE);
});

test('when the maker is the smaller side it is filled whole, and the taker pays the rounded-down amount for it', (t) => {
  const m = market(t);
  // maker: 3 BTS for 7 GOLD. taker: 10 GOLD for at least 4 BTS (crosses: 0.4 <= 3/7 BTS a GOLD).
  m.chain.block([sell(ALICE, 3, BTS, 7, GOLD)]);
  const b = m.chain.block([sell(BOB, 10, GOLD, 4, BTS)]);
  // maker_receives = 3 * 7/3 = 7 GOLD (down); taker_receives = 7 * 3/7 = 3 BTS (up).
  const fills = m.blockOps(b.blockNum).filter((o) => o.op[0] === 4).map((o) => [o.op[1].order_id, o.op[1].pays.amount, o.op[1].receives.amount]);
  t.deepEqual(fills, [
    ['1.7.1', 7, 3],
    ['1.7.0', 3, 7],
  ]);
  t.is(m.obj('1.7.0'), undefined);
  // The taker rests with 3 GOLD at its own price (3 * 4/10 = 1 BTS to receive: not culled).
  const rest = m.obj('1.7.1')!;
  t.is(rest.for_sale, 3);
  t.is(rest.filled_amount, '7');
  t.deepEqual(rest.sell_price, { base: { amount: 10, asset_id: GOLD }, quote: { amount: 4, asset_id: BTS } });
});

test('a taker left with too little to receive anything is culled with a virtual limit_order_cancel that refunds it', (t) => {
  const m = market(t);
  // maker: 3 BTS for 200 GOLD. taker: 100 GOLD for at least 1 BTS.
  m.chain.block([sell(ALICE, 3, BTS, 200, GOLD)]);
  const b = m.chain.block([sell(BOB, 100, GOLD, 1, BTS)]);
  // taker_receives = 100 * 3/200 = 1 BTS (down), maker_receives = 1 * 200/3 = 67 GOLD (up); the
  // taker's remaining 33 GOLD would receive 33 * 1/100 = 0 BTS: culled between the two fills.
  const ops = m.blockOps(b.blockNum);
  t.deepEqual(
    ops.map((o) => [o.op[0], o.virtual_op]),
    [
      [1, 0],
      [4, 1],
      [2, 2],
      [4, 3],
    ],
  );
  t.deepEqual([ops[1]!.op[1].pays.amount, ops[1]!.op[1].receives.amount], [67, 1]);
  t.deepEqual(ops[2]!.op, [2, { fee: { amount: 0, asset_id: BTS }, fee_paying_account: BOB, order: '1.7.1', extensions: [] }]);
  t.deepEqual(ops[2]!.result, [2, { amount: 33, asset_id: GOLD }]);
  t.deepEqual([ops[3]!.op[1].pays.amount, ops[3]!.op[1].receives.amount], [1, 67]);
  t.deepEqual(b.transactions[0]!.operation_results, [[1, '1.7.1']]);
  t.is(m.obj('1.7.1'), undefined);
  t.is(m.balance(BOB, GOLD), FUNDS - 67);
  t.is(m.balance(BOB, BTS), FUNDS + 1);
  t.is(m.obj('1.7.0')!.for_sale, 2);
});

test('a partly filled taker that would receive nothing at the next maker price is culled after matching', (t) => {
  const m = market(t);
  // Two makers, best first: 1 BTS for 1 GOLD, then 1 BTS for 2 GOLD. The taker sells 2 GOLD for at least 1 BTS.
  m.chain.block([sell(ALICE, 1, BTS, 1, GOLD)], [sell(ALICE, 1, BTS, 2, GOLD)]);
  const b = m.chain.block([sell(BOB, 2, GOLD, 1, BTS)]);
  // First maker: the taker pays 1 GOLD for 1 BTS. Second: 1 GOLD at 1/2 BTS a GOLD buys 0 BTS, so
  // the match ends with the taker "filled" (HARDFORK_CORE_184), and apply_order culls it.
  const ops = m.blockOps(b.blockNum);
  t.deepEqual(
    ops.map((o) => [o.op[0], o.op[1].order_id ?? o.op[1].order, o.virtual_op]),
    [
      [1, undefined, 0],
      [4, '1.7.2', 1],
      [4, '1.7.0', 2],
      [2, '1.7.2', 3],
    ],
  );
  t.deepEqual(ops[3]!.result, [2, { amount: 1, asset_id: GOLD }]);
  t.is(m.obj('1.7.0'), undefined);
  t.is(m.obj('1.7.1')!.for_sale, 1, 'the second maker is untouched');
  t.is(m.obj('1.7.2'), undefined);
});

test('orders fill best price first, and oldest first at one price', (t) => {
  const m = market(t);
  m.chain.block([sell(ALICE, 100, BTS, 100, GOLD)], [sell(ALICE, 100, BTS, 50, GOLD)], [sell(ALICE, 100, BTS, 50, GOLD)]);
  // Book order (selling BTS): 1.7.1 and 1.7.2 at 2 BTS a GOLD (oldest first), then 1.7.0 at 1.
  t.deepEqual(
    [...m.chain.store.orderPrices.getKeys({ start: [0, 1], end: [0, 2] })].map((k) => k[3]),
    [1, 2, 0],
  );
  const b = m.chain.block([sell(BOB, 50, GOLD, 50, BTS)]);
  t.deepEqual(
    m.blockOps(b.blockNum).filter((o) => o.op[0] === 4 && o.op[1].is_maker).map((o) => o.op[1].order_id),
    ['1.7.1'],
  );
  t.is(m.obj('1.7.2')!.for_sale, 100);
});

test('fill_or_kill: an order that cannot fill entirely is refused, and the block is not applied', (t) => {
  const m = market(t);
  m.chain.block([sell(ALICE, 100, BTS, 50, GOLD)]);
  const head = Number(m.obj('2.1.0')!.head_block_number);
  t.throws(() => m.chain.block([sell(BOB, 60, GOLD, 120, BTS, { fillOrKill: true })]), { message: /Killing limit order .* due to unable to fill/ });
  t.is(Number(m.obj('2.1.0')!.head_block_number), head);
  t.is(m.obj('1.7.0')!.for_sale, 100);
  // One that fills whole passes.
  const b = m.chain.block([sell(BOB, 50, GOLD, 100, BTS, { fillOrKill: true })]);
  t.deepEqual(b.transactions[0]!.operation_results, [[1, '1.7.1']]);
  t.is(m.obj('1.7.0'), undefined);
});

test('a cancel by the owner gives back what is unsold and the deferred fee; anyone else is refused', (t) => {
  const m = market(t);
  m.chain.block([m.withFee(sell(ALICE, 1_000, BTS, 10, GOLD))]);
  t.throws(() => m.chain.block([op.limitOrderCancel(BOB, '1.7.0')]), { message: /Limit order 1\.7\.0 is owned by someone else/ });
  t.throws(() => m.chain.block([op.limitOrderCancel(ALICE, '1.7.9')]), { message: /Limit order 1\.7\.9 does not exist/ });
  const b = m.chain.block([op.limitOrderCancel(ALICE, '1.7.0')]);
  t.deepEqual(b.transactions[0]!.operation_results, [[2, { amount: 1_000, asset_id: BTS }]]);
  t.deepEqual(b.changes.removed, ['1.7.0']);
  t.is(m.balance(ALICE, BTS), FUNDS);
  t.is(m.obj('2.6.7')!.total_core_in_orders, 0);
  t.is(m.chain.store.accountOrders.get([7, 0]), undefined);
  t.is(m.blockOps(b.blockNum).length, 1, 'a cancel by its owner has no virtual operation');
});

test('an order past its expiration is cancelled at the end of the block, with a virtual cancel after the block transactions', (t) => {
  const m = market(t);
  const now = parseFcTime(String(m.obj('2.1.0')!.time));
  // Blocks come every 3 s: this one is made at now+3, the next at now+6.
  m.chain.block([m.withFee(sell(ALICE, 100, BTS, 10, GOLD, { expiration: fcTime(now + 5) }))]);
  t.truthy(m.obj('1.7.0'));
  const b = m.chain.block([op.transfer(NATHAN, BOB, 1)], [op.transfer(NATHAN, BOB, 2)]);
  t.is(m.obj('1.7.0'), undefined);
  const cancel = m.blockOps(b.blockNum).at(-1)!;
  t.deepEqual(cancel.op, [2, { fee: { amount: 0, asset_id: BTS }, fee_paying_account: ALICE, order: '1.7.0', extensions: [] }]);
  t.deepEqual(cancel.result, [2, { amount: 100, asset_id: BTS }]);
  t.deepEqual([cancel.trx_in_block, cancel.op_in_trx, cancel.virtual_op, cancel.is_virtual], [2, 0, 0, true]);
  // The limit_order_cancel fee is 0 by default, so the whole deferred fee comes back.
  t.is(m.balance(ALICE, BTS), FUNDS);
  // An order must not expire before the head block: checked against the previous block's time.
  const head = parseFcTime(String(m.obj('2.1.0')!.time));
  t.throws(() => m.chain.block([sell(ALICE, 100, BTS, 10, GOLD, { expiration: fcTime(head - 1) })]), { message: /op\.expiration >= d\.head_block_time\(\)/ });
});

/** asset_create of a user-issued asset that charges market fees. */
function feeAsset(symbol: string, makerPercent: number, takerPercent?: number): OperationJson {
  const o = assetCreateOp(symbol, NATHAN);
  const common = o[1].common_options as Obj;
  common.flags = 1; // charge_market_fee
  common.issuer_permissions = 1;
  common.market_fee_percent = makerPercent;
  common.max_market_fee = 1_000;
  if (takerPercent !== undefined) common.extensions = { taker_fee_percent: takerPercent };
  return o;
}

test('market fees: the receiving asset takes its maker or taker percent of what an order receives, capped, into its accumulated fees', (t) => {
  const m = market(t);
  m.chain.block([feeAsset('MFEE', 100, 50)]);
  const MFEE = '1.3.2';
  m.chain.block([op.assetIssue(MFEE, ALICE, FUNDS)], [op.assetIssue(MFEE, BOB, FUNDS)]);
  // alice (maker) buys 200,000 MFEE with BTS; bob (taker) sells them.
  m.chain.block([sell(ALICE, 200_000, BTS, 200_000, MFEE)]);
  const b = m.chain.block([sell(BOB, 200_000, MFEE, 100_000, BTS)]);
  const fills = m.blockOps(b.blockNum).filter((o) => o.op[0] === 4);
  // The maker receives 200,000 MFEE: 1% is 2,000, capped at max_market_fee 1,000.
  t.deepEqual(fills[1]!.op[1].fee, { amount: 1_000, asset_id: MFEE });
  t.deepEqual(fills[0]!.op[1].fee, { amount: 0, asset_id: BTS }, 'the core asset charges nothing');
  t.is(m.balance(ALICE, MFEE), FUNDS + 200_000 - 1_000);
  t.is(m.obj('2.3.2')!.accumulated_fees, 1_000);
  // Now bob buys MFEE as the taker: 0.5% of 10,000 = 50.
  m.chain.block([sell(ALICE, 10_000, MFEE, 10_000, BTS)]);
  const c = m.chain.block([sell(BOB, 10_000, BTS, 10_000, MFEE)]);
  const taker = m.blockOps(c.blockNum).find((o) => o.op[0] === 4 && !o.op[1].is_maker)!;
  t.deepEqual(taker.op[1].fee, { amount: 50, asset_id: MFEE });
  t.is(m.obj('2.3.2')!.accumulated_fees, 1_050);
});

test('asset_create refuses market fee options Core refuses', (t) => {
  const m = market(t);
  t.throws(() => m.chain.block([feeAsset('BADF', 10_001)]), { message: /market_fee_percent <= GRAPHENE_100_PERCENT/ });
  t.throws(() => m.chain.block([feeAsset('BADT', 10, 10_001)]), { message: /taker_fee_percent <= GRAPHENE_100_PERCENT/ });
});

test('orders in one asset with itself, of zero amounts, or with the on_fill extension are refused', (t) => {
  const m = market(t);
  t.throws(() => m.chain.block([sell(ALICE, 10, BTS, 10, BTS)]), { message: /amount_to_sell\.asset_id != min_to_receive\.asset_id/ });
  t.throws(() => m.chain.block([sell(ALICE, 0, BTS, 10, GOLD)]), { message: /amount_to_sell\.amount > 0/ });
  t.throws(() => m.chain.block([sell(ALICE, 10, BTS, 0, GOLD)]), { message: /min_to_receive\.amount > 0/ });
  t.throws(() => m.chain.block([sell(ALICE, FUNDS + 1, BTS, 10, GOLD)]), { message: /insufficient balance/ });
  const withOnFill = sell(ALICE, 10, BTS, 10, GOLD);
  withOnFill[1].extensions = { on_fill: [[0, { fee_asset_id: BTS, spread_percent: 100, size_percent: 10000, expiration_seconds: 3600, repeat: false, extensions: [] }]] };
  t.throws(() => m.chain.block([withOnFill]), { message: /on_fill: take-profit orders .* are not supported on this chain/ });
});

test('the market history plugin: fills by market with falling sequence, one ticker, buckets of every tracked size', (t) => {
  const m = market(t);
  m.chain.block([sell(ALICE, 1_000, BTS, 10, GOLD)]);
  const first = m.chain.block([sell(BOB, 2, GOLD, 100, BTS)]);
  const second = m.chain.block([sell(BOB, 1, GOLD, 50, BTS)]);
  // Two fills per trade: sequences 0, -1 (first trade), -2, -3 (second).
  t.deepEqual(
    [0, 1, 2, 3].map((i) => m.obj(`5.0.${i}`)!.key),
    [0, -1, -2, -3].map((sequence) => ({ base: BTS, quote: GOLD, sequence })),
  );
  t.is(m.obj('5.0.0')!.time, first.timestamp);
  t.deepEqual(m.obj('5.3.0'), { id: '5.3.0', rolling_min_order_his_id: '5.0.0', skip_min_order_his_id: false });
  // Tickers follow makers: latest price and volume (base BTS, quote GOLD).
  t.deepEqual(m.obj('5.2.0'), { id: '5.2.0', base: BTS, quote: GOLD, last_day_base: 0, last_day_quote: 0, latest_base: 1_000, latest_quote: 10, base_volume: '300', quote_volume: '3' });
  // Buckets: one per tracked size, opened at the size's multiple at or before the first fill.
  const sizes = [15, 60, 300, 3600, 86400];
  const t0 = parseFcTime(first.timestamp);
  const t1 = parseFcTime(second.timestamp);
  const buckets = [...m.chain.store.buckets.getRange({ start: [0, 1, 0, 0], end: [0, 2] })].map(({ key }) => key);
  const expected = sizes.flatMap((s) => [...new Set([Math.floor(t0 / s) * s, Math.floor(t1 / s) * s])].map((open) => [0, 1, s, open]));
  t.deepEqual(buckets, expected);
  const day = m.obj(`5.1.${m.chain.store.buckets.get([0, 1, 86400, Math.floor(t0 / 86400) * 86400])}`)!;
  t.like(day, { key: { base: BTS, quote: GOLD, seconds: 86400, open: fcTime(Math.floor(t0 / 86400) * 86400) }, open_base: 1_000, close_base: 1_000, base_volume: 300, quote_volume: 3 });
});
