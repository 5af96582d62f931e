// The operations of market-issued assets (src/chain/evaluators/bitasset-ops.ts, and the market-issued
// branches of asset-ops.ts and asset_create) through the chain writer: the objects asset_create makes
// as Core reflects them, the feed producers, the median feed of one and of three producers (numbers
// worked out by hand from asset_object.cpp's update_median_feeds and refresh_cache), new bitasset
// options, and each operation refused with Core's assertion text (asset_evaluator.cpp,
// market_evaluator.cpp, protocol/asset_ops.cpp, protocol/asset.cpp). What needs the margin engine
// (borrowing, settling against debt, global settlement and revival) is tested with it.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';
import {
  assetCreateOp,
  assetGlobalSettleOp,
  assetPublishFeedOp,
  assetSettleOp,
  assetUpdateBitassetOp,
  assetUpdateFeedProducersOp,
  bidCollateralOp,
  bitassetOptions,
  type PriceTuple,
} from '../src/chain/protocol/operation-builders.js';
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
/** global_settle, disable_force_settle, witness_fed_asset, committee_fed_asset, disable_mcr_update */
const GLOBAL_SETTLE = 0x20;
const DISABLE_FORCE_SETTLE = 0x10;
const WITNESS_FED = 0x80;
const COMMITTEE_FED = 0x100;
const DISABLE_MCR_UPDATE = 0x800;
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

type Chain = ReturnType<typeof chainWithAccounts>;

/** asset_create of a market-issued asset by nathan, with global_settle permission unless told. */
const mia = (symbol: string, o: { precision?: number; permissions?: number; flags?: number; options?: Parameters<typeof bitassetOptions>[0]; predictionMarket?: boolean; issuer?: string } = {}): OperationJson =>
  assetCreateOp(symbol, o.issuer ?? NATHAN, { precision: o.precision ?? 4, issuerPermissions: o.permissions ?? GLOBAL_SETTLE, flags: o.flags ?? 0, bitassetOpts: bitassetOptions(o.options), isPredictionMarket: o.predictionMarket ?? false });

/** A feed of `usd` USD for `bts` BTS, and a core exchange rate of `usd` USD for `cer` BTS. */
const feed = (asset: string, usd: number, bts: number, cer: number, ratios: { mcr?: number; mssr?: number; icr?: number } = {}) => ({
  settlement: [usd, asset, bts, BTS] as PriceTuple,
  cer: [usd, asset, cer, BTS] as PriceTuple,
  ...ratios,
});

/** USD (1.3.1), a market-issued asset of nathan's backed by the core asset, with alice, bob and carol as feed producers. */
function withUsd(t: ExecutionContext, options: Parameters<typeof bitassetOptions>[0] = {}, permissions = GLOBAL_SETTLE): Chain {
  const c = chainWithAccounts(t);
  c.chain.block([mia('USD', { options, permissions })]);
  c.chain.block([assetUpdateFeedProducersOp(NATHAN, USD, [ALICE, BOB, CAROL])]);
  return c;
}

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
    // created at the epoch (asset_bitasset_data_object's default), which has expired by the block's
    // end: update_expired_feeds finds no feed and dates the (null) median at the block time
    current_feed_publication_time: b.timestamp,
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

test('asset_update_feed_producers: the issuer names them, each gets an empty feed, feeds of those dropped go, and the median is refreshed at the head block time', (t) => {
  const c = chainWithAccounts(t);
  c.chain.block([mia('USD')], [op.assetCreate('GOLD')], [mia('WIT', { flags: WITNESS_FED })]);
  const producers = (asset: string, list: string[], issuer = NATHAN) => assetUpdateFeedProducersOp(issuer, asset, list);
  t.is(c.refused(producers('1.3.2', [ALICE])), 'a.is_market_issued(): Cannot update feed producers on a non-BitAsset.');
  t.is(c.refused(producers('1.3.3', [ALICE])), '0 == (a.options.flags & witness_fed_asset): Cannot set feed producers on a witness-fed asset.');
  t.is(c.refused(producers(USD, [ALICE], BOB)), 'a.issuer == o.issuer: Only asset issuer can update feed producers of an asset');
  t.is(c.refused(producers(USD, [ALICE, '1.2.99'])), 'maybe_found != nullptr: Unable to find Object 1.2.99');
  const eleven = Array.from({ length: 11 }, (_, i) => `1.2.${100 + i}`);
  t.is(c.refused(producers(USD, eleven)), 'o.new_feed_producers.size() <= d.get_global_properties().parameters.maximum_asset_feed_publishers: Cannot specify more feed producers than maximum allowed');

  // unsorted and repeated in the operation, a sorted set in the object
  const op13 = producers(USD, [BOB, ALICE]);
  op13[1].new_feed_producers = [BOB, ALICE, BOB];
  const head = c.headTime();
  const b = c.chain.block([op13]);
  t.deepEqual(b.transactions[0]!.operation_results, [[0, {}]]);
  const data = c.obj('2.4.0')!;
  t.deepEqual(data.feeds, [
    [ALICE, ['1970-01-01T00:00:00', NULL_FEED]],
    [BOB, ['1970-01-01T00:00:00', NULL_FEED]],
  ]);
  t.deepEqual(data.median_feed, NULL_FEED);
  t.is(data.current_feed_publication_time, fcTime(head), 'fewer feeds than the minimum: the publication time is now');

  // A published feed stays while its producer does, and goes with it.
  c.chain.block([assetPublishFeedOp(ALICE, USD, feed(USD, 10, 20, 25))]);
  c.chain.block([producers(USD, [ALICE, CAROL])]);
  t.deepEqual(c.obj('2.4.0')!.feeds.map(([account, [, f]]: [string, [string, Obj]]) => [account, f.settlement_price.quote.amount]), [
    [ALICE, 20],
    [CAROL, 0],
  ]);
  c.chain.block([producers(USD, [CAROL])]);
  t.deepEqual(c.obj('2.4.0')!.median_feed, NULL_FEED, 'without alice\'s feed the median is null again');
});

test('asset_publish_feed with one producer: the feed is the median and the current feed, the collateralizations derive from it, and the new core exchange rate is marked', (t) => {
  const c = withUsd(t);
  const head = c.headTime();
  c.chain.block([assetPublishFeedOp(ALICE, USD, feed(USD, 10, 20, 25))]);
  const data = c.obj('2.4.0')!;
  const published = {
    settlement_price: { base: { amount: 10, asset_id: USD }, quote: { amount: 20, asset_id: BTS } },
    maintenance_collateral_ratio: 1750,
    maximum_short_squeeze_ratio: 1500,
    core_exchange_rate: { base: { amount: 10, asset_id: USD }, quote: { amount: 25, asset_id: BTS } },
    initial_collateral_ratio: 1750,
  };
  t.deepEqual(data.feeds[0], [ALICE, [fcTime(head), published]], 'stamped with the head block time');
  t.deepEqual(data.median_feed, published);
  t.deepEqual(data.current_feed, published);
  t.is(data.current_feed_publication_time, fcTime(head));
  // ~settlement_price * MCR: 20/10 * 1.75 = 7/2 BTS a USD; the ICR (the MCR here) is not above it
  t.deepEqual(data.current_maintenance_collateralization, { base: { amount: 7, asset_id: BTS }, quote: { amount: 2, asset_id: USD } });
  t.deepEqual(data.current_initial_collateralization, data.current_maintenance_collateralization);
  // The new rate was marked (feed_cer_updated), and at the block's end update_core_exchange_rates gave
  // it to the asset and cleared the mark.
  t.is(data.feed_cer_updated, false);
  t.deepEqual(c.obj(USD)!.options.core_exchange_rate, published.core_exchange_rate);

  // An ICR above the MCR gives the initial collateralization: 20/10 * 2 = 4 BTS a USD.
  c.chain.block([assetPublishFeedOp(ALICE, USD, feed(USD, 10, 20, 25, { icr: 2000 }))]);
  t.is(c.obj('2.4.0')!.median_feed.initial_collateral_ratio, 2000);
  t.deepEqual(c.obj('2.4.0')!.current_initial_collateralization, { base: { amount: 4, asset_id: BTS }, quote: { amount: 1, asset_id: USD } });
  t.is(c.obj('2.4.0')!.feeds.length, 3, 'each producer keeps one feed, its newest');

  // Force-settling nothing with a feed creates no settlement: an empty extendable result.
  const none = c.chain.block([assetSettleOp(ALICE, 0, USD)]);
  t.deepEqual(none.transactions[0]!.operation_results, [[5, {}]]);
});

test('asset_publish_feed with three producers: the median of each field, ratios the options fix replacing the feeds\' ones, and nothing until the minimum number of feeds', (t) => {
  const c = withUsd(t, { minimumFeeds: 3 });
  const first = c.headTime();
  c.chain.block([assetPublishFeedOp(ALICE, USD, feed(USD, 10, 20, 25, { mcr: 1600, mssr: 1100, icr: 1700 }))]);
  c.chain.block([assetPublishFeedOp(BOB, USD, feed(USD, 10, 30, 35, { mcr: 1800, mssr: 1200, icr: 1900 }))]);
  t.deepEqual(c.obj('2.4.0')!.median_feed, NULL_FEED, 'two feeds of the three wanted: no median');
  c.chain.block([assetPublishFeedOp(CAROL, USD, feed(USD, 10, 15, 30, { mcr: 1700, mssr: 1050, icr: 2000 }))]);
  const data = c.obj('2.4.0')!;
  // settlement prices 1/3, 1/2, 2/3 USD a BTS: alice's; core exchange rates 2/7, 1/3, 2/5: carol's;
  // MCR 1600/1700/1800, MSSR 1050/1100/1200, ICR 1700/1900/2000: the middle ones
  t.deepEqual(data.median_feed, {
    settlement_price: { base: { amount: 10, asset_id: USD }, quote: { amount: 20, asset_id: BTS } },
    maintenance_collateral_ratio: 1700,
    maximum_short_squeeze_ratio: 1100,
    core_exchange_rate: { base: { amount: 10, asset_id: USD }, quote: { amount: 30, asset_id: BTS } },
    initial_collateral_ratio: 1900,
  });
  t.deepEqual(data.current_feed, data.median_feed);
  t.is(data.current_feed_publication_time, fcTime(first), 'the oldest feed counted');
  // 20/10 * 1.7 = 17/5, and the ICR above it: 20/10 * 1.9 = 19/5
  t.deepEqual(data.current_maintenance_collateralization, { base: { amount: 17, asset_id: BTS }, quote: { amount: 5, asset_id: USD } });
  t.deepEqual(data.current_initial_collateralization, { base: { amount: 19, asset_id: BTS }, quote: { amount: 5, asset_id: USD } });

  // An MCR in the options replaces the feeds' median MCR at once (asset_update_bitasset recomputes).
  c.chain.block([assetUpdateBitassetOp(NATHAN, USD, bitassetOptions({ minimumFeeds: 3, extensions: { maintenance_collateral_ratio: 2000 } }))]);
  const fixed = c.obj('2.4.0')!;
  t.is(fixed.median_feed.maintenance_collateral_ratio, 2000);
  t.is(fixed.current_feed.maintenance_collateral_ratio, 2000);
  t.deepEqual(fixed.current_maintenance_collateralization, { base: { amount: 4, asset_id: BTS }, quote: { amount: 1, asset_id: USD } });
  // the ICR (1900) is no longer above the MCR: the initial collateralization is the maintenance one
  t.deepEqual(fixed.current_initial_collateralization, fixed.current_maintenance_collateralization);
});

// Core: asset_object.cpp, asset_bitasset_data_object::update_median_feeds runs std::nth_element on
// one vector of the live feeds, first by settlement_price, then by core_exchange_rate (and the
// ratios). With alice's and bob's feeds (in that order, flat_map by account), the first call sorts
// the two by settlement price (libstdc++ sorts two elements by insertion): [bob 1/20, alice 1/10],
// and alice's is the median. The second call keeps [bob 2/40, alice 1/20], equal rates, in that
// order, so alice's core exchange rate, 1/20, is the median as written, not bob's 2/40.
test('asset_publish_feed: of two equal core exchange rates written differently, the median is the one std::nth_element leaves in the middle after it ordered the feeds by settlement price', (t) => {
  const c = withUsd(t);
  c.chain.block([assetPublishFeedOp(BOB, USD, { settlement: [1, USD, 20, BTS], cer: [2, USD, 40, BTS] })]);
  c.chain.block([assetPublishFeedOp(ALICE, USD, { settlement: [1, USD, 10, BTS], cer: [1, USD, 20, BTS] })]);
  const data = c.obj('2.4.0')!;
  t.deepEqual(data.median_feed.settlement_price, { base: { amount: 1, asset_id: USD }, quote: { amount: 10, asset_id: BTS } });
  t.deepEqual(data.median_feed.core_exchange_rate, { base: { amount: 1, asset_id: USD }, quote: { amount: 20, asset_id: BTS } });
  t.deepEqual(data.current_feed, data.median_feed);
});

test('asset_publish_feed is refused as Core refuses it: a feed in other assets or ratios out of range, a publisher not named, a witness-fed asset fed by others than the active witnesses', (t) => {
  const c = withUsd(t);
  c.chain.block([op.assetCreate('GOLD')], [mia('WIT', { flags: WITNESS_FED })], [mia('COM', { flags: COMMITTEE_FED })]);
  const publish = (publisher: string, asset: string, f: ReturnType<typeof feed>, icr?: number) => assetPublishFeedOp(publisher, asset, icr === undefined ? f : { ...f, icr });
  t.is(c.refused(publish(ALICE, USD, feed(USD, 0, 20, 25))), 'base.amount.value > 0: Base amount should be positive');
  t.is(c.refused(publish(ALICE, USD, feed(USD, 10, 20, 25, { mcr: 1000 }))), 'maintenance_collateral_ratio >= GRAPHENE_MIN_COLLATERAL_RATIO: ');
  t.is(c.refused(publish(ALICE, USD, feed(USD, 10, 20, 25, { mssr: 32001 }))), 'maximum_short_squeeze_ratio <= GRAPHENE_MAX_COLLATERAL_RATIO: ');
  t.is(c.refused(publish(ALICE, USD, feed(USD, 10, 20, 25), 1000)), '*extensions.value.initial_collateral_ratio >= GRAPHENE_MIN_COLLATERAL_RATIO: ');
  t.is(c.refused(publish(ALICE, '1.3.2', feed(USD, 10, 20, 25))), 'feed.is_for( asset_id ): ');
  const crossed = assetPublishFeedOp(ALICE, USD, { settlement: [10, USD, 20, BTS], cer: [10, '1.3.2', 25, BTS] });
  t.is(c.refused(crossed), 'feed.settlement_price.base.asset_id == feed.core_exchange_rate.base.asset_id: ');
  t.is(c.refused(publish(ALICE, '1.3.2', feed('1.3.2', 10, 20, 25))), 'base.is_market_issued(): Can only publish price feeds for market-issued assets');
  t.is(c.refused(assetPublishFeedOp(ALICE, USD, { settlement: [10, USD, 20, '1.3.2'], cer: [10, USD, 25, BTS] })), 'o.feed.settlement_price.quote.asset_id == bitasset.options.short_backing_asset: Quote asset type in settlement price should be same as backing asset of this asset');
  t.is(c.refused(assetPublishFeedOp(ALICE, USD, { settlement: [10, USD, 20, BTS], cer: [10, USD, 25, '1.3.2'] })), 'o.feed.core_exchange_rate.quote.asset_id == asset_id_type(): Quote asset in core exchange rate should be CORE asset');
  t.is(c.refused(publish(NATHAN, USD, feed(USD, 10, 20, 25))), 'bitasset.feeds.count(o.publisher) > 0: The account is not in the set of allowed price feed producers of this asset');
  // nathan owns the devnet's one witness
  t.is(c.refused(publish(ALICE, '1.3.3', feed('1.3.3', 10, 20, 25))), 'd.get(GRAPHENE_WITNESS_ACCOUNT).active.account_auths.count(o.publisher) > 0: Only active witnesses are allowed to publish price feeds for this asset');
  c.chain.block([publish(NATHAN, '1.3.3', feed('1.3.3', 10, 20, 25))]);
  t.is(c.obj('2.4.1')!.feeds[0][0], NATHAN);
  t.is(c.refused(publish(NATHAN, '1.3.4', feed('1.3.4', 10, 20, 25))), 'd.get(GRAPHENE_COMMITTEE_ACCOUNT).active.account_auths.count(o.publisher) > 0: Only active committee members are allowed to publish price feeds for this asset');
});

test('asset_update_bitasset: new options in place, feeds reset when the backing asset changes, and Core\'s refusals', (t) => {
  const c = withUsd(t, {}, GLOBAL_SETTLE | DISABLE_MCR_UPDATE);
  c.chain.block([op.assetCreate('GOLD')], [mia('PRED', { precision: 5, predictionMarket: true })]);
  const gold = '1.3.2';
  const update = (asset: string, o: Parameters<typeof bitassetOptions>[0], issuer = NATHAN) => assetUpdateBitassetOp(issuer, asset, bitassetOptions(o));
  t.is(c.refused(update(gold, {})), 'asset_obj.is_market_issued(): Cannot update BitAsset-specific settings on a non-BitAsset.');
  t.is(c.refused(update(USD, {}, ALICE)), 'op.issuer == asset_obj.issuer: Only asset issuer can update bitasset_data of the asset.');
  t.is(c.refused(update(USD, { minimumFeeds: 0 })), 'minimum_feeds > 0: ');
  t.is(c.refused(update(USD, { extensions: { maintenance_collateral_ratio: 2000 } })), '!mcr_changed: No permission to update MCR');
  t.is(c.refused(update(USD, { extensions: { black_swan_response_method: 3 } })), 'black_swan_response_method: individual_settlement_to_order (3) is not supported on this chain; only global_settlement (0) is');
  t.is(c.refused(update('1.3.3', { extensions: { black_swan_response_method: 0 } })), '!op.new_options.extensions.value.black_swan_response_method.valid(): Can not set black_swan_response_method for Prediction Markets');
  t.is(c.refused(update(USD, { backing: USD })), 'op.new_options.short_backing_asset != asset_obj.get_id(): Cannot update an asset to be backed by itself.');
  t.is(c.refused(update('1.3.3', { backing: gold })), 'asset_obj.precision == new_backing_asset.precision: The precision of the asset and backing asset must be equal.');
  t.is(c.refused(update(USD, { feedLifetimeSec: 3 })), 'op.new_options.feed_lifetime_sec > chain_parameters.block_interval: Feed lifetime must exceed block interval.');
  t.is(c.refused(update(USD, { settlementDelaySec: 2 })), 'op.new_options.force_settlement_delay_sec > chain_parameters.block_interval: Force settlement delay must exceed block interval.');

  c.chain.block([assetPublishFeedOp(ALICE, USD, feed(USD, 10, 20, 25))]);
  t.not(c.obj('2.4.0')!.median_feed.settlement_price.base.amount, 0);
  // Backed by GOLD now (no supply yet): the producers' feeds keep their place with null settlement
  // prices (and their times and core exchange rates), so the median's settlement price is null until
  // they publish in GOLD.
  const b = c.chain.block([update(USD, { backing: gold, settlementDelaySec: 600 })]);
  t.deepEqual(b.transactions[0]!.operation_results, [[0, {}]]);
  const data = c.obj('2.4.0')!;
  t.is(data.options.short_backing_asset, gold);
  t.is(data.options.force_settlement_delay_sec, 600);
  t.deepEqual(data.feeds.map(([account, [, f]]: [string, [string, Obj]]) => [account, f.settlement_price]), [
    [ALICE, NULL_PRICE],
    [BOB, NULL_PRICE],
    [CAROL, NULL_PRICE],
  ]);
  t.deepEqual(data.median_feed, { ...NULL_FEED, core_exchange_rate: { base: { amount: 10, asset_id: USD }, quote: { amount: 25, asset_id: BTS } } });
  t.deepEqual(data.current_maintenance_collateralization, NULL_PRICE);
  t.deepEqual([...c.chain.store.bitassetIndex.getKeys({ start: [7], end: [8] })], [[7, 0, 3], [7, 2, 1]], 'listed under its new backing asset');
  c.chain.block([assetPublishFeedOp(BOB, USD, { settlement: [1, USD, 3, gold], cer: [1, USD, 5, BTS] })]);
  t.deepEqual(c.obj('2.4.0')!.median_feed.settlement_price, { base: { amount: 1, asset_id: USD }, quote: { amount: 3, asset_id: gold } });
});

test('asset_settle, asset_global_settle and bid_collateral refuse what their state forbids before any debt exists', (t) => {
  const c = withUsd(t);
  c.chain.block([op.assetCreate('GOLD')], [mia('PRED', { precision: 5, predictionMarket: true })], [mia('NOFS', { flags: DISABLE_FORCE_SETTLE, permissions: DISABLE_FORCE_SETTLE })], [mia('NOGS', { permissions: 0 })]);
  const [gold, pred, nofs, nogs] = ['1.3.2', '1.3.3', '1.3.4', '1.3.5'];
  // asset_settle
  t.is(c.refused(assetSettleOp(ALICE, -1, USD)), 'amount.amount >= 0: ');
  t.is(c.refused(assetSettleOp(ALICE, 10, gold)), 'asset_to_settle->is_market_issued(): Can only force settle a predition market or a market issued asset');
  t.is(
    c.refused(assetSettleOp(ALICE, 10, nofs)),
    'asset_to_settle->can_force_settle() || bitasset.is_globally_settled() || bitasset.is_individually_settled_to_fund(): Either the asset need to have the force_settle flag enabled, or it need to be globally settled, or the individual settlement pool (for force-settlements) is not empty',
  );
  t.is(c.refused(assetSettleOp(ALICE, 10, pred)), 'bitasset.is_globally_settled(): Global settlement must occur before force settling a prediction market');
  t.is(c.refused(assetSettleOp(ALICE, 10, USD)), 'Cannot force settle with no price feed if the asset is not globally settled and the individual settlement pool (for force-settlements) is not empty');
  c.chain.block([assetPublishFeedOp(ALICE, USD, feed(USD, 10, 20, 25))]);
  t.is(c.refused(assetSettleOp(ALICE, 10, USD)), 'd.get_balance( op.account, op.amount.asset_id ) >= op.amount: Insufficient balance');

  // asset_global_settle
  const settle = (asset: string, price: PriceTuple, issuer = NATHAN) => assetGlobalSettleOp(issuer, asset, price);
  t.is(c.refused(settle(USD, [1, gold, 1, BTS])), 'asset_to_settle == settle_price.base.asset_id: ');
  t.is(c.refused(settle(gold, [1, gold, 1, BTS])), 'asset_to_settle->is_market_issued(): Can only globally settle market-issued assets');
  t.is(c.refused(settle(nogs, [1, nogs, 1, BTS])), 'asset_to_settle->can_global_settle(): The global_settle permission of this asset is disabled');
  t.is(c.refused(settle(USD, [1, USD, 1, BTS], ALICE)), 'asset_to_settle->issuer == op.issuer: Only asset issuer can globally settle an asset');
  t.is(c.refused(settle(USD, [1, USD, 1, BTS])), 'asset_to_settle->dynamic_data(d).current_supply > 0: Can not globally settle an asset with zero supply');

  // bid_collateral
  const bid = (collateral: [number, string], debt: [number, string]) => bidCollateralOp(ALICE, collateral, debt);
  t.is(c.refused(bid([0, BTS], [10, USD])), 'debt_covered.amount == 0 || (debt_covered.amount > 0 && additional_collateral.amount > 0): ');
  t.is(c.refused(bid([100, BTS], [10, gold])), '_debt_asset->is_market_issued(): Unable to cover GOLD as it is not a collateralized asset.');
  t.is(c.refused(bid([100, BTS], [10, USD])), '_bitasset_data->is_globally_settled(): Cannot bid since the asset is not globally settled');
});

test('asset_claim_fees from a market-issued asset claims its collateral fees in its backing asset, never more than it holds', (t) => {
  const c = withUsd(t);
  c.chain.block([op.assetCreate('GOLD')]);
  const claim = (amount: number, asset: string, from?: string): OperationJson => [43, { fee: { amount: 0, asset_id: BTS }, issuer: NATHAN, amount_to_claim: { amount, asset_id: asset }, extensions: from ? { claim_from_asset_id: from } : {} }];
  t.is(c.refused(claim(1, '1.3.2', USD)), `container_asset->can_accumulate_fee(d,o.amount_to_claim): Asset USD (${USD}) is not backed by asset (1.3.2) and does not hold it as fees.`);
  const dyn = c.obj('2.3.1')!;
  t.is(
    c.refused(claim(1, BTS, USD)),
    `o.amount_to_claim.amount <= container_ddo->accumulated_collateral_fees: Attempt to claim more backing-asset fees than have accumulated within asset USD (${USD}) backed by (${BTS}). Asset DDO: ${JSON.stringify(dyn)}. Fee claim: {"amount":1,"asset_id":"${BTS}"}.`,
  );
});
