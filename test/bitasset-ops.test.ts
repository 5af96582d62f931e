// Market-issued assets (src/chain/evaluators/bitasset-ops.ts, and the market-issued branches of
// asset-ops.ts and asset_create) through the chain writer: the objects asset_create makes as Core
// reflects them, and each operation refused with Core's assertion text (asset_evaluator.cpp,
// protocol/asset_ops.cpp). What needs the margin engine (borrowing, settling against debt, global
// settlement and revival) is tested with it.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { parseFcTime } from '../src/chain/fc/fc-json.js';
import { assetCreateOp, bitassetOptions } from '../src/chain/protocol/operation-builders.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { idInstance, objectIdParts } from '../src/chain/fc/object-id.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const BOB = '1.2.8';
const CAROL = '1.2.9';
const BTS = '1.3.0';
/** the first asset the tests create */
const USD = '1.3.1';
const FUNDS = 1_000_000_000;
/** global_settle, disable_force_settle, witness_fed_asset */
const GLOBAL_SETTLE = 0x20;
const DISABLE_FORCE_SETTLE = 0x10;
const WITNESS_FED = 0x80;
const NULL_PRICE = { base: { amount: 0, asset_id: BTS }, quote: { amount: 0, asset_id: BTS } };
const NULL_FEED = { settlement_price: NULL_PRICE, maintenance_collateral_ratio: 1750, maximum_short_squeeze_ratio: 1500, core_exchange_rate: NULL_PRICE, initial_collateral_ratio: 1750 };

type Obj = Record<string, any>;

/** A chain with alice, bob and carol funded, and nothing else. */
function chainWithAccounts(t: ExecutionContext) {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')], [op.accountCreate('bob')], [op.accountCreate('carol')]);
  chain.block([op.transfer(NATHAN, ALICE, FUNDS)], [op.transfer(NATHAN, BOB, FUNDS)], [op.transfer(NATHAN, CAROL, FUNDS)]);
  const obj = (id: string): Obj | undefined => {
    const { space, type, instance } = objectIdParts(id)!;
    const raw = chain.store.objects.get([space, type, instance]);
    return raw ? JSON.parse(raw.toString('utf8')) : undefined;
  };
  const balance = (account: string, asset: string): number => {
    const b = chain.store.balances.get([idInstance(account), idInstance(asset)]);
    return b === undefined ? 0 : Number(obj(`2.5.${b}`)!.balance);
  };
  /** The time of the head block, seconds. */
  const headTime = (): number => parseFcTime(obj('2.1.0')!.time);
  /** The refusal of a block with these operations in one transaction. */
  const refused = (...ops: OperationJson[]): string => {
    const e = t.throws(() => chain.block(ops));
    return e?.message ?? '';
  };
  return { chain, obj, balance, headTime, refused };
}

/** asset_create of a market-issued asset by nathan, with global_settle permission unless told. */
const mia = (symbol: string, o: { precision?: number; permissions?: number; flags?: number; options?: Parameters<typeof bitassetOptions>[0]; predictionMarket?: boolean; issuer?: string } = {}): OperationJson =>
  assetCreateOp(symbol, o.issuer ?? NATHAN, { precision: o.precision ?? 4, issuerPermissions: o.permissions ?? GLOBAL_SETTLE, flags: o.flags ?? 0, bitassetOpts: bitassetOptions(o.options), isPredictionMarket: o.predictionMarket ?? false });

test('asset_create with bitasset_opts makes the asset, its dynamic data and its bitasset data as Core reflects them, half the fee in the fee pool', (t) => {
  const c = chainWithAccounts(t);
  const create = mia('USD', { options: { feedLifetimeSec: 3600, minimumFeeds: 1, settlementDelaySec: 600, settlementOffsetPercent: 100, maxSettlementVolume: 500, extensions: { maintenance_collateral_ratio: 1600, margin_call_fee_ratio: 50 } } });
  create[1].fee = { amount: 5_000_001, asset_id: BTS };
  const before = c.balance(NATHAN, BTS);
  const paidBefore = Number(c.obj('2.6.6')!.lifetime_fees_paid);
  const b = c.chain.block([create]);
  t.deepEqual(b.transactions[0]!.operation_results, [[1, USD]]);
  const asset = c.obj(USD)!;
  t.deepEqual(Object.keys(asset), ['id', 'symbol', 'precision', 'issuer', 'options', 'dynamic_asset_data_id', 'bitasset_data_id', 'creation_block_num', 'creation_time']);
  t.is(asset.bitasset_data_id, '2.4.0');
  t.is(asset.dynamic_asset_data_id, '2.3.1');
  t.deepEqual(asset.options.core_exchange_rate, { base: { amount: 1, asset_id: BTS }, quote: { amount: 1, asset_id: USD } });
  t.deepEqual(c.obj('2.4.0'), {
    id: '2.4.0',
    asset_id: USD,
    feeds: [],
    median_feed: NULL_FEED,
    current_feed: NULL_FEED,
    // asset_bitasset_data_object's default: the epoch (the block's end refreshes expired feeds)
    current_feed_publication_time: '1970-01-01T00:00:00',
    current_maintenance_collateralization: NULL_PRICE,
    current_initial_collateralization: NULL_PRICE,
    options: {
      feed_lifetime_sec: 3600,
      minimum_feeds: 1,
      force_settlement_delay_sec: 600,
      force_settlement_offset_percent: 100,
      maximum_force_settlement_volume: 500,
      short_backing_asset: BTS,
      extensions: { maintenance_collateral_ratio: 1600, margin_call_fee_ratio: 50 },
    },
    force_settled_volume: 0,
    is_prediction_market: false,
    settlement_price: NULL_PRICE,
    settlement_fund: 0,
    individual_settlement_debt: 0,
    individual_settlement_fund: 0,
    asset_cer_updated: false,
    feed_cer_updated: false,
  });
  // pay_fee: half the fee (rounded down) into the pool, the rest (rounded up) counted as paid
  t.like(c.obj('2.3.1'), { current_supply: 0, fee_pool: 2_500_000 });
  t.is(c.balance(NATHAN, BTS), before - 5_000_001);
  t.is(Number(c.obj('2.6.6')!.lifetime_fees_paid) - paidBefore, 2_500_001);
  // listed among the market-issued assets, and among those backed by the core asset
  t.deepEqual([...c.chain.store.bitassetIndex.getKeys({ start: [6], end: [8] })], [[6, 1], [7, 0, 1]]);

  // a prediction market: global_settle permission, as precise as its backing asset
  c.chain.block([mia('PRED', { precision: 5, predictionMarket: true })]);
  t.like(c.obj('2.4.1'), { asset_id: '1.3.2', is_prediction_market: true });
  // a user-issued asset is made as before: no bitasset data, nothing in its pool
  c.chain.block([op.assetCreate('GOLD')]);
  t.false('bitasset_data_id' in c.obj('1.3.3')!);
  t.is(c.obj('2.3.3')!.fee_pool, 0);
});

test('asset_create refuses what Core refuses of market-issued assets and prediction markets, and the black swan responses this chain does not run', (t) => {
  const c = chainWithAccounts(t);
  const uiaPm = op.assetCreate('PMX');
  uiaPm[1].is_prediction_market = true;
  t.is(c.refused(uiaPm), 'bitasset_opts.valid(): Cannot have a User-Issued Asset implement a prediction market.');
  const uiaSettle: [number, Obj] = op.assetCreate('UIA');
  uiaSettle[1].common_options.issuer_permissions = GLOBAL_SETTLE;
  t.is(c.refused(uiaSettle), 'bitasset_opts.valid(): ');
  t.is(c.refused(mia('PMX', { predictionMarket: true, permissions: 0 })), '0 != (common_options.issuer_permissions & global_settle): ');
  t.is(c.refused(mia('PMX', { predictionMarket: true, precision: 4 })), 'op.precision == op.bitasset_opts->short_backing_asset(d).precision: ');
  t.is(c.refused(mia('PMX', { predictionMarket: true, precision: 5, options: { extensions: { black_swan_response_method: 0 } } })), '!bitasset_opts->extensions.value.black_swan_response_method.valid(): Can not set black_swan_response_method for Prediction Markets');
  t.is(c.refused(mia('USD', { options: { minimumFeeds: 0 } })), 'minimum_feeds > 0: ');
  t.is(c.refused(mia('USD', { options: { settlementOffsetPercent: 10_001 } })), 'force_settlement_offset_percent <= GRAPHENE_100_PERCENT: ');
  t.is(c.refused(mia('USD', { options: { extensions: { maximum_short_squeeze_ratio: 1000 } } })), '*extensions.value.maximum_short_squeeze_ratio >= GRAPHENE_MIN_COLLATERAL_RATIO: ');
  t.is(c.refused(mia('USD', { options: { extensions: { black_swan_response_method: 4 } } })), '*extensions.value.black_swan_response_method < bsrm_count: black_swan_response_method should be less than 4');
  t.is(c.refused(mia('USD', { options: { extensions: { black_swan_response_method: 2 } } })), 'black_swan_response_method: individual_settlement_to_fund (2) is not supported on this chain; only global_settlement (0) is');
  t.is(c.refused(mia('USD', { options: { extensions: { black_swan_response_method: 1 } } })), 'black_swan_response_method: no_settlement (1) is not supported on this chain; only global_settlement (0) is');
  t.is(c.refused(mia('USD', { flags: 0x800 })), '0 == (flags & disable_mcr_update): Can not set disable_mcr_update flag, it is for issuer permission only');
  t.is(c.refused(mia('USD', { options: { backing: '1.3.99' } })), 'maybe_found != nullptr: Unable to find Object 1.3.99');
  // the genesis block interval is 3 seconds
  t.is(c.refused(mia('USD', { options: { feedLifetimeSec: 3 } })), 'op.bitasset_opts->feed_lifetime_sec > chain_parameters.block_interval && op.bitasset_opts->force_settlement_delay_sec > chain_parameters.block_interval: ');

  // Flags only market-issued assets have are theirs: disable_force_settle is one.
  c.chain.block([mia('USD', { flags: DISABLE_FORCE_SETTLE })]);
  c.chain.block([mia('EUR', { options: { backing: USD } })]);
  t.is(c.refused(mia('GBP', { options: { backing: '1.3.2' } })), '!backing_backing.is_market_issued(): May not create a bitasset backed by a bitasset backed by a bitasset.');
  // The committee's market-issued assets are backed by the core asset, or by one that is.
  c.chain.block([mia('CUSD', { issuer: '1.2.0', options: { backing: USD } })]);
  c.chain.block([op.assetCreate('GOLD')], [mia('GUSD', { options: { backing: '1.3.4' } })]);
  t.is(c.refused(mia('CGLD', { issuer: '1.2.0', options: { backing: '1.3.4' } })), 'op.issuer != GRAPHENE_COMMITTEE_ACCOUNT || backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
  t.is(c.refused(mia('CGUSD', { issuer: '1.2.0', options: { backing: '1.3.5' } })), 'op.issuer != GRAPHENE_COMMITTEE_ACCOUNT || backing_backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
});

test('a market-issued asset is neither issued nor reserved by hand, and goes to the committee only when backed by the core asset', (t) => {
  const c = chainWithAccounts(t);
  c.chain.block([op.assetCreate('GOLD')], [mia('USD')]);
  const usd = '1.3.2';
  t.is(c.refused(op.assetIssue(usd, ALICE, 100)), '!a.is_market_issued(): Cannot manually issue a market-issued asset.');
  t.is(c.refused([15, { fee: { amount: 0, asset_id: BTS }, payer: NATHAN, amount_to_reserve: { amount: 1, asset_id: usd }, extensions: [] }]), 'Cannot reserve USD because it is a market-issued asset');
  c.chain.block([mia('GLD', { options: { backing: '1.3.1' } })]);
  const handOver = (asset: string): OperationJson => [48, { fee: { amount: 0, asset_id: BTS }, issuer: NATHAN, asset_to_update: asset, new_issuer: '1.2.0', extensions: [] }];
  t.is(c.refused(handOver('1.3.3')), 'backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
  c.chain.block([handOver(usd)]);
  t.is(c.obj(usd)!.issuer, '1.2.0');
  // The fee pool of a market-issued asset is funded as any other's.
  c.chain.block([[16, { fee: { amount: 0, asset_id: BTS }, from_account: ALICE, asset_id: usd, amount: 1000, extensions: [] }]]);
  t.is(c.obj('2.3.2')!.fee_pool, 1000);
});

test('asset_update of a market-issued asset: its own flags and permissions, a new core exchange rate marked for the block\'s end, its precision kept while an asset is backed by it', (t) => {
  const c = chainWithAccounts(t);
  c.chain.block([mia('USD', { permissions: GLOBAL_SETTLE | DISABLE_FORCE_SETTLE })], [mia('PRED', { precision: 5, predictionMarket: true })]);
  const update = (asset: string, change: (o: Obj) => void, extensions: Obj = {}): OperationJson => {
    const options = structuredClone(c.obj(asset)!.options);
    change(options);
    return [11, { fee: { amount: 0, asset_id: BTS }, issuer: NATHAN, asset_to_update: asset, new_options: options, extensions }];
  };
  // disable_force_settle is a flag of market-issued assets, set while the permission is held
  c.chain.block([update(USD, (o) => (o.flags = DISABLE_FORCE_SETTLE))]);
  t.is(c.obj(USD)!.options.flags, DISABLE_FORCE_SETTLE);
  t.is(c.refused(update(USD, (o) => (o.flags = DISABLE_FORCE_SETTLE | WITNESS_FED))), '0 == ( (o.new_options.flags ^ a.options.flags) & check_bits & (uint16_t)(~enabled_issuer_permissions_mask) ): Flag change is forbidden by issuer permissions');
  t.is(c.refused(update('1.3.2', (o) => (o.issuer_permissions = 0))), 'a_copy.can_global_settle(): The global_settle permission should be enabled for prediction markets');
  t.is(c.refused(update('1.3.2', (o) => (o.issuer_permissions = GLOBAL_SETTLE | 0x4000))), '0 == ( o.new_options.issuer_permissions & disable_bsrm_update ): Unable to set disable_bsrm_update issuer permission bit on PM');
  t.is(c.refused(update('1.3.2', () => {}, { new_precision: 4 })), '!bitasset_data->is_prediction_market: Can not update precision of a prediction market');

  // A new core exchange rate: asset_cer_updated until the block's end takes the feed's (when it has one).
  c.chain.block([update(USD, (o) => (o.core_exchange_rate = { base: { amount: 2, asset_id: BTS }, quote: { amount: 1, asset_id: USD } }))]);
  t.is(c.obj('2.4.0')!.asset_cer_updated, true);
  t.deepEqual(c.obj(USD)!.options.core_exchange_rate, { base: { amount: 2, asset_id: BTS }, quote: { amount: 1, asset_id: USD } });
  // The same rate in other terms is no change (Core compares prices as ratios).
  c.chain.block([update('1.3.2', (o) => (o.core_exchange_rate = { base: { amount: 2, asset_id: BTS }, quote: { amount: 2, asset_id: '1.3.2' } }))]);
  t.is(c.obj('2.4.1')!.asset_cer_updated, false);

  c.chain.block([mia('EUR', { options: { backing: USD } })]);
  t.is(c.refused(update(USD, () => {}, { new_precision: 2 })), '!backing_another_asset: Asset 1.3.3 is backed by this asset, can not update precision');
});
