// The operations of market-issued assets (smartcoins and prediction markets), as BitShares Core 7.0
// evaluates them today, every hardfork of the rules below having passed:
//
//  - asset_create (10) with bitasset_opts: what asset_create_operation::validate and
//    asset_create_evaluator check of them, and the bitasset data (2.4.x) do_apply creates;
//  - asset_update_bitasset (12), asset_update_feed_producers (13), asset_settle (17),
//    asset_global_settle (18), asset_publish_feed (19): asset_evaluator.cpp;
//  - bid_collateral (45): market_evaluator.cpp;
//  - their validate() and bitasset_options::validate / price_feed::validate: protocol/asset_ops.cpp,
//    protocol/asset.cpp, protocol/market.cpp.
//
// Each runs Core's steps in Core's order, as asset-ops.ts does: validate(), do_evaluate, the fee
// counted as paid, do_apply, and last the fee taken from the payer's balance, with the assertion
// texts fc prints. What the operations set in motion (margin calls, force settlements against debt
// positions, global settlement and revival) is the margin engine's (margin.ts), called where Core
// calls the database functions it follows.
//
// One response to a black swan is run here: global settlement (black_swan_response_method 0, the
// default). The other three (no_settlement, individual_settlement_to_fund and _to_order) are refused
// by name wherever an operation would set one.

import { fcTime, i64, TIME_EPOCH } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { accountInstance, adjustBalance, amountOf, balanceOf, countFee, instanceOf, isAuthorizedAsset, priced, type EvalContext, type Evaluated } from './ledger.js';
import { amountJson, comparePrice, multiply, multiplyRoundUp, PriceError, priceJson, type Amount, type Price } from '../protocol/price.js';
import { ASSET_FLAGS, amountIn, isMarketIssued, loadAsset, takeFee, validatePrice, validFee } from './asset-ops.js';
import {
  bidOf,
  bitassetDataObject,
  bitassetsBackedBy,
  BSRM,
  createBid,
  createSettlement,
  feedIn,
  feedJson,
  indexBitasset,
  isGloballySettled,
  isNullPrice,
  leastCollateralized,
  loadBitasset,
  marginCallOrderPrice,
  MAX_COLLATERAL_RATIO,
  MIN_COLLATERAL_RATIO,
  NULL_FEED,
  NULL_PRICE,
  parseBitasset,
  priceIn,
  updateBitassetCurrentFeed,
  type Bitasset,
  type Feed,
} from './bitasset-data.js';
import { applyForceSettlement, cancelBid, checkCallOrders, globallySettleAsset, reviveBitasset } from './margin.js';
import { payMarketFees } from './limit-orders.js';

type Obj = Record<string, unknown>;

const F = ASSET_FLAGS;
/** GRAPHENE_100_PERCENT */
const PERCENT_100 = 10000;
/** GRAPHENE_COMMITTEE_ACCOUNT and GRAPHENE_WITNESS_ACCOUNT */
const COMMITTEE_ACCOUNT = 0;
const WITNESS_ACCOUNT = 1;
/** bitasset_options::black_swan_response_type::BSRM_TYPE_COUNT */
const BSRM_TYPE_COUNT = 4;
const BSRM_NAMES = Object.fromEntries(Object.entries(BSRM).map(([name, value]) => [value, name])) as Record<number, string>;

const fail = (text: string): never => {
  throw new ChainError(text);
};

const optional = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

const parameters = (ctx: EvalContext): Obj => ctx.state.get([2, 0, 0]).parameters as Obj;

/** object_database::get of an asset or account the operation names: refused as Core refuses a missing object. */
function mustExist(ctx: EvalContext, space: number, type: number, instance: number): Obj {
  const obj = ctx.state.find([space, type, instance]);
  if (!obj) fail(`maybe_found != nullptr: Unable to find Object ${space}.${type}.${instance}`);
  return obj!;
}

/**
 * database::check_call_orders( asset, true, false ), where Core calls it after a feed or an option
 * changes. For an asset without debt positions it has nothing to do (check_for_blackswan finds no
 * least collateralized position, and the margin call loop no call order), so it is called only for
 * an asset that has one.
 */
function checkMarginCalls(ctx: EvalContext, asset: number): void {
  if (leastCollateralized(ctx, asset) === undefined) return;
  checkCallOrders(ctx, asset, true, false);
}

/** price_feed::margin_call_params_equal: the same settlement price (as a ratio), MCR and MSSR. */
const marginCallParamsEqual = (a: Feed, b: Feed): boolean => comparePrice(a.settlement, b.settlement) === 0 && a.mcr === b.mcr && a.mssr === b.mssr;

// ---- bitasset_options ----

const EXTENSION_NAMES = ['initial_collateral_ratio', 'maintenance_collateral_ratio', 'maximum_short_squeeze_ratio', 'margin_call_fee_ratio', 'force_settle_fee_percent', 'black_swan_response_method'] as const;

/** bitasset_options as Core reflects it: its members in order, the extensions' set members in theirs. */
export function bitassetOptionsJson(o: Obj): Obj {
  const ext = (o.extensions ?? {}) as Obj;
  const extensions: Obj = {};
  for (const name of EXTENSION_NAMES) if (optional(ext[name]) !== undefined) extensions[name] = Number(ext[name]);
  return {
    feed_lifetime_sec: Number(o.feed_lifetime_sec ?? 86400),
    minimum_feeds: Number(o.minimum_feeds ?? 1),
    force_settlement_delay_sec: Number(o.force_settlement_delay_sec ?? 86400),
    force_settlement_offset_percent: Number(o.force_settlement_offset_percent ?? 0),
    maximum_force_settlement_volume: Number(o.maximum_force_settlement_volume ?? 2000),
    short_backing_asset: `1.3.${instanceOf(o.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset')}`,
    extensions,
  };
}

/** bitasset_options::validate (protocol/asset_ops.cpp) */
export function validateBitassetOptions(o: Obj): void {
  if (!(Number(o.minimum_feeds ?? 1) > 0)) fail('minimum_feeds > 0: ');
  if (!(Number(o.force_settlement_offset_percent ?? 0) <= PERCENT_100)) fail('force_settlement_offset_percent <= GRAPHENE_100_PERCENT: ');
  if (!(Number(o.maximum_force_settlement_volume ?? 2000) <= PERCENT_100)) fail('maximum_force_settlement_volume <= GRAPHENE_100_PERCENT: ');
  const ext = (o.extensions ?? {}) as Obj;
  const mcfr = optional(ext.margin_call_fee_ratio);
  if (mcfr !== undefined && !(mcfr <= MAX_COLLATERAL_RATIO)) fail('*extensions.value.margin_call_fee_ratio <= GRAPHENE_MAX_COLLATERAL_RATIO: ');
  for (const name of ['initial_collateral_ratio', 'maintenance_collateral_ratio', 'maximum_short_squeeze_ratio'] as const) {
    const ratio = optional(ext[name]);
    if (ratio === undefined) continue;
    if (!(ratio >= MIN_COLLATERAL_RATIO)) fail(`*extensions.value.${name} >= GRAPHENE_MIN_COLLATERAL_RATIO: `);
    if (!(ratio <= MAX_COLLATERAL_RATIO)) fail(`*extensions.value.${name} <= GRAPHENE_MAX_COLLATERAL_RATIO: `);
  }
  const fsfp = optional(ext.force_settle_fee_percent);
  if (fsfp !== undefined && !(fsfp <= PERCENT_100)) fail('*extensions.value.force_settle_fee_percent <= GRAPHENE_100_PERCENT: ');
  const bsrm = optional(ext.black_swan_response_method);
  if (bsrm !== undefined && !(bsrm < BSRM_TYPE_COUNT)) fail(`*extensions.value.black_swan_response_method < bsrm_count: black_swan_response_method should be less than ${BSRM_TYPE_COUNT}`);
}

/** This chain runs global settlement only: any other black swan response is refused by name. */
function refuseOtherBsrm(bsrm: number): void {
  if (bsrm !== BSRM.global_settlement) {
    fail(`black_swan_response_method: ${BSRM_NAMES[bsrm] ?? bsrm} (${bsrm}) is not supported on this chain; only global_settlement (0) is`);
  }
}

const bsrmOf = (o: Obj): number => optional(((o.extensions ?? {}) as Obj).black_swan_response_method) ?? BSRM.global_settlement;

// ---- asset_create (10) of a market-issued asset ----

/**
 * What asset_create_operation::validate checks between the options' permissions and the core exchange
 * rate: the prediction market rules, and bitasset_options::validate. Refuses is_prediction_market
 * without bitasset_opts too (a user-issued asset cannot be one).
 */
export function validateNewBitasset(op: Obj): void {
  const bitassetOpts = op.bitasset_opts as Obj | undefined | null;
  const permissions = Number(((op.common_options ?? {}) as Obj).issuer_permissions ?? 0);
  if (op.is_prediction_market === true) {
    if (!bitassetOpts) fail('bitasset_opts.valid(): Cannot have a User-Issued Asset implement a prediction market.');
    if ((permissions & F.global_settle) === 0) fail('0 != (common_options.issuer_permissions & global_settle): ');
    if ((permissions & F.disable_bsrm_update) !== 0) fail('0 == (common_options.issuer_permissions & disable_bsrm_update): ');
    if (optional(((bitassetOpts!.extensions ?? {}) as Obj).black_swan_response_method) !== undefined) {
      fail('!bitasset_opts->extensions.value.black_swan_response_method.valid(): Can not set black_swan_response_method for Prediction Markets');
    }
  }
  if (bitassetOpts) {
    validateBitassetOptions(bitassetOpts);
    refuseOtherBsrm(bsrmOf(bitassetOpts));
  }
}

/**
 * asset_create_evaluator::do_evaluate's rules for a market-issued asset: a backing asset that exists
 * and is not itself backed by a market-issued asset that is; the committee's assets backed by the core
 * asset, at most through one market-issued asset; a feed lifetime and settlement delay longer than a
 * block; and a prediction market as precise as its backing asset.
 */
export function evaluateNewBitasset(ctx: EvalContext, op: Obj, issuer: number): void {
  const bitassetOpts = op.bitasset_opts as Obj | undefined | null;
  if (bitassetOpts) {
    const backingId = instanceOf(bitassetOpts.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset');
    mustExist(ctx, 1, 3, backingId);
    const backing = loadBitasset(ctx, backingId);
    if (backing) {
      const backingBacking = backing.options.backing;
      if (isMarketIssued(mustExist(ctx, 1, 3, backingBacking))) fail('!backing_backing.is_market_issued(): May not create a bitasset backed by a bitasset backed by a bitasset.');
      if (!(issuer !== COMMITTEE_ACCOUNT || backingBacking === 0)) {
        fail("op.issuer != GRAPHENE_COMMITTEE_ACCOUNT || backing_backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.");
      }
    } else if (!(issuer !== COMMITTEE_ACCOUNT || backingId === 0)) {
      fail('op.issuer != GRAPHENE_COMMITTEE_ACCOUNT || backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
    }
    const interval = Number(parameters(ctx).block_interval ?? 5);
    if (!(Number(bitassetOpts.feed_lifetime_sec ?? 86400) > interval && Number(bitassetOpts.force_settlement_delay_sec ?? 86400) > interval)) {
      fail('op.bitasset_opts->feed_lifetime_sec > chain_parameters.block_interval && op.bitasset_opts->force_settlement_delay_sec > chain_parameters.block_interval: ');
    }
  }
  if (op.is_prediction_market === true) {
    if (!bitassetOpts) fail('op.bitasset_opts: ');
    const backing = mustExist(ctx, 1, 3, instanceOf(bitassetOpts!.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset'));
    if (Number(op.precision ?? 0) !== Number(backing.precision)) fail('op.precision == op.bitasset_opts->short_backing_asset(d).precision: ');
  }
}

/**
 * asset_create_evaluator::do_apply's bitasset data for the asset about to be `asset`: its options, no
 * feeds, null median and current feeds, and a publication time left at its default (the epoch), as
 * asset_bitasset_data_object's constructor leaves it. Returns its 2.4.x instance.
 */
export function createBitassetData(ctx: EvalContext, op: Obj, asset: number): number {
  const options = bitassetOptionsJson(op.bitasset_opts as Obj);
  const { instance } = ctx.state.create(2, 4, (id) => bitassetDataObject(id, asset, options, op.is_prediction_market === true, 0));
  indexBitasset(ctx, asset, instanceOf(options.short_backing_asset, 1, 3, 'short_backing_asset'), true);
  return instance;
}

// ---- asset_update_bitasset (12) ----

const changed = (a: unknown, b: unknown): boolean => optional(a) !== optional(b);

/**
 * check_children_of_bitasset: an asset whose backing asset changes to another than the core asset may
 * not be the backing asset of one that would then back it, of a committee-issued one, or, when the new
 * backing asset is market-issued, of any.
 */
function checkChildrenOfBitasset(ctx: EvalContext, asset: number, newBacking: number): void {
  if (newBacking === 0) return;
  const newBackingIsMarketIssued = loadBitasset(ctx, newBacking) !== undefined;
  for (const child of bitassetsBackedBy(ctx, asset)) {
    if (child === newBacking) fail("child.get_id() != op.new_options.short_backing_asset: A BitAsset would be invalidated by changing this backing asset ('A' backed by 'B' backed by 'A').");
    if (ctx.state.get([1, 3, child]).issuer === `1.2.${COMMITTEE_ACCOUNT}`) fail('child.issuer != GRAPHENE_COMMITTEE_ACCOUNT: A blockchain-controlled market asset would be invalidated by changing this backing asset.');
    if (newBackingIsMarketIssued) fail('!new_backing_asset.is_market_issued(): A non-blockchain controlled BitAsset would be invalidated by changing this backing asset.');
  }
}

/** asset_update_bitasset_evaluator: new bitasset options from the issuer, within its permissions. */
export function assetUpdateBitasset(ctx: EvalContext, op: Obj): Evaluated {
  // asset_update_bitasset_operation::validate
  const fee = validFee(ctx, op.fee);
  const newOptions = op.new_options as Obj;
  validateBitassetOptions(newOptions);

  // do_evaluate
  const payer = accountInstance(ctx, op.issuer, 'issuer');
  const { instance, asset } = loadAsset(ctx, op.asset_to_update, 'asset_to_update');
  const b = loadBitasset(ctx, instance);
  if (!b) return fail('asset_obj.is_market_issued(): Cannot update BitAsset-specific settings on a non-BitAsset.');
  if (asset.issuer !== `1.2.${payer}`) fail('op.issuer == asset_obj.issuer: Only asset issuer can update bitasset_data of the asset.');
  const newExt = (newOptions.extensions ?? {}) as Obj;
  if (b.isPredictionMarket && optional(newExt.black_swan_response_method) !== undefined) {
    fail('!op.new_options.extensions.value.black_swan_response_method.valid(): Can not set black_swan_response_method for Prediction Markets');
  }
  const permissions = Number((asset.options as Obj).issuer_permissions ?? 0);
  for (const [name, flag, short] of [
    ['maintenance_collateral_ratio', F.disable_mcr_update, 'MCR'],
    ['initial_collateral_ratio', F.disable_icr_update, 'ICR'],
    ['maximum_short_squeeze_ratio', F.disable_mssr_update, 'MSSR'],
  ] as const) {
    if ((permissions & flag) !== 0 && changed(b.options.ext[name], newExt[name])) fail(`!${short.toLowerCase()}_changed: No permission to update ${short}`);
  }
  const newBsrm = bsrmOf(newOptions);
  if (b.bsrm !== newBsrm) {
    if ((permissions & F.disable_bsrm_update) !== 0) fail('asset_obj.can_owner_update_bsrm(): No permission to update BSRM');
    if (isGloballySettled(b)) fail('!current_bitasset_data.is_globally_settled(): Unable to update BSRM when the asset has been globally settled');
    // Core's checks of a change away from an individual settlement, and the feed update a change to or
    // from no_settlement makes, concern responses this chain never has.
    refuseOtherBsrm(newBsrm);
  }
  const newBacking = instanceOf(newOptions.short_backing_asset ?? '1.3.0', 1, 3, 'new_options.short_backing_asset');
  if (newBacking !== b.options.backing) {
    if (isGloballySettled(b)) fail('!current_bitasset_data.is_globally_settled(): Cannot change backing asset after a global settlement has executed');
    const dyn = ctx.state.get([2, 3, instance]);
    if (amountOf(dyn.current_supply) !== 0n) fail('dyn.current_supply == 0: Cannot change backing asset if there is already a current supply.');
    if (amountOf(dyn.accumulated_collateral_fees) !== 0n) fail('dyn.accumulated_collateral_fees == 0: Must claim collateral-denominated fees before changing backing asset.');
    const newBackingAsset = mustExist(ctx, 1, 3, newBacking);
    if (newBacking === instance) fail('op.new_options.short_backing_asset != asset_obj.get_id(): Cannot update an asset to be backed by itself.');
    if (b.isPredictionMarket && Number(asset.precision) !== Number(newBackingAsset.precision)) fail('asset_obj.precision == new_backing_asset.precision: The precision of the asset and backing asset must be equal.');
    const newBackingData = loadBitasset(ctx, newBacking);
    if (asset.issuer === `1.2.${COMMITTEE_ACCOUNT}`) {
      if (newBackingData) {
        if (newBackingData.options.backing !== 0) {
          fail('new_backing_asset.bitasset_data(d).options.short_backing_asset == asset_id_type(): May not modify a blockchain-controlled market asset to be backed by an asset which is not backed by CORE.');
        }
        checkChildrenOfBitasset(ctx, instance, newBacking);
      } else if (newBacking !== 0) {
        fail('new_backing_asset.get_id() == asset_id_type(): May not modify a blockchain-controlled market asset to be backed by an asset which is not market issued asset nor CORE.');
      }
    } else if (newBacking !== 0) {
      checkChildrenOfBitasset(ctx, instance, newBacking);
    }
    if (newBackingData) {
      const backingBacking = newBackingData.options.backing;
      if (!(backingBacking === 0 || !isMarketIssued(mustExist(ctx, 1, 3, backingBacking)))) {
        fail('(backing_backing_asset_id == asset_id_type() || !backing_backing_asset_id(d).is_market_issued()): A BitAsset cannot be backed by a BitAsset that itself is backed by a BitAsset.');
      }
    }
  }
  const interval = Number(parameters(ctx).block_interval ?? 5);
  if (!(Number(newOptions.feed_lifetime_sec ?? 86400) > interval)) fail('op.new_options.feed_lifetime_sec > chain_parameters.block_interval: Feed lifetime must exceed block interval.');
  if (!(Number(newOptions.force_settlement_delay_sec ?? 86400) > interval)) fail('op.new_options.force_settlement_delay_sec > chain_parameters.block_interval: Force settlement delay must exceed block interval.');

  countFee(ctx, payer, fee.amount);
  if (updateBitassetObjectOptions(ctx, b, asset, bitassetOptionsJson(newOptions))) checkMarginCalls(ctx, instance);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer] };
}

/**
 * update_bitasset_object_options (asset_evaluator.cpp): the new options in place, the feeds reset when
 * the backing asset changes (dropped for a witness- or committee-fed asset, their settlement prices
 * nulled for the others), and the median and current feed recomputed when an option they depend on
 * changed. True when margin calls are to be checked: the feed's margin call parameters changed, or
 * the margin call fee ratio did.
 */
function updateBitassetObjectOptions(ctx: EvalContext, b: Bitasset, asset: Obj, options: Obj): boolean {
  const next = parseBitasset(b.instance, { ...b.obj, options });
  const backingChanged = next.options.backing !== b.options.backing;
  const ratioChanged = (name: string): boolean => changed(b.options.ext[name], next.options.ext[name]);
  const shouldUpdateFeeds =
    next.options.minimumFeeds !== b.options.minimumFeeds ||
    next.options.feedLifetime !== b.options.feedLifetime ||
    backingChanged ||
    ratioChanged('initial_collateral_ratio') ||
    ratioChanged('maintenance_collateral_ratio') ||
    ratioChanged('maximum_short_squeeze_ratio');
  const mcfrChanged = ratioChanged('margin_call_fee_ratio');

  b.obj.options = options;
  if (backingChanged) {
    if ((Number((asset.options as Obj).flags ?? 0) & (F.witness_fed_asset | F.committee_fed_asset)) !== 0) b.obj.feeds = [];
    else for (const [, [, feed]] of b.obj.feeds as [string, [string, Obj]][]) feed.settlement_price = priceJson(NULL_PRICE);
    indexBitasset(ctx, b.asset, b.options.backing, false);
    indexBitasset(ctx, b.asset, next.options.backing, true);
  }
  ctx.state.touch(b.key);

  let feedChanged = false;
  if (shouldUpdateFeeds) {
    const updated = updateBitassetCurrentFeed(ctx, parseBitasset(b.instance, b.obj), false);
    feedChanged = !marginCallParamsEqual(b.currentFeed, updated.currentFeed) || !marginCallParamsEqual(b.medianFeed, updated.medianFeed);
  }
  return feedChanged || mcfrChanged;
}

// ---- asset_update_feed_producers (13) ----

const accountOrder = (a: [string, unknown], b: [string, unknown]): number => instanceOf(a[0], 1, 2, 'feed publisher') - instanceOf(b[0], 1, 2, 'feed publisher');

/** asset_update_feed_producers_evaluator: the issuer names who publishes the asset's feeds. */
export function assetUpdateFeedProducers(ctx: EvalContext, op: Obj): Evaluated {
  // asset_update_feed_producers_operation::validate
  const fee = validFee(ctx, op.fee);

  // do_evaluate
  const payer = accountInstance(ctx, op.issuer, 'issuer');
  // a flat_set: sorted, each account once
  const producers = [...new Set(((op.new_feed_producers as unknown[] | undefined) ?? []).map((p) => instanceOf(p, 1, 2, 'new_feed_producers')))].sort((x, y) => x - y);
  const max = Number(parameters(ctx).maximum_asset_feed_publishers ?? 10);
  if (!(producers.length <= max)) fail('o.new_feed_producers.size() <= d.get_global_properties().parameters.maximum_asset_feed_publishers: Cannot specify more feed producers than maximum allowed');
  const { instance, asset } = loadAsset(ctx, op.asset_to_update, 'asset_to_update');
  const b = loadBitasset(ctx, instance);
  if (!b) return fail('a.is_market_issued(): Cannot update feed producers on a non-BitAsset.');
  const flags = Number((asset.options as Obj).flags ?? 0);
  if ((flags & F.committee_fed_asset) !== 0) fail('0 == (a.options.flags & committee_fed_asset): Cannot set feed producers on a committee-fed asset.');
  if ((flags & F.witness_fed_asset) !== 0) fail('0 == (a.options.flags & witness_fed_asset): Cannot set feed producers on a witness-fed asset.');
  if (asset.issuer !== `1.2.${payer}`) fail('a.issuer == o.issuer: Only asset issuer can update feed producers of an asset');
  for (const p of producers) mustExist(ctx, 1, 2, p);

  countFee(ctx, payer, fee.amount);
  // do_apply: the feeds of producers no longer named go; a new producer gets an empty feed (a
  // default pair: the epoch and a null feed) until it publishes one.
  const wanted = new Set(producers.map((p) => `1.2.${p}`));
  const feeds = (b.obj.feeds as [string, [string, Obj]][]).filter(([account]) => wanted.has(account));
  const present = new Set(feeds.map(([account]) => account));
  for (const account of wanted) if (!present.has(account)) feeds.push([account, [TIME_EPOCH, feedJson(NULL_FEED)]]);
  b.obj.feeds = feeds.sort(accountOrder);
  ctx.state.touch(b.key);
  updateBitassetCurrentFeed(ctx, parseBitasset(b.instance, b.obj), false);
  checkMarginCalls(ctx, instance);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer] };
}

// ---- asset_publish_feed (19) ----

/**
 * The accounts in the active authority of witness-account (1.2.1) or committee-account (1.2.0), which
 * Core sets to the active witnesses' or committee members' accounts at each maintenance interval. This
 * chain runs none, so the active witnesses and committee members of 2.0.0 are counted too.
 */
function activeFeeders(ctx: EvalContext, special: number): Set<string> {
  const out = new Set<string>();
  const active = ctx.state.get([1, 2, special]).active as { account_auths?: [string, number][] } | undefined;
  for (const [account] of active?.account_auths ?? []) out.add(account);
  const gp = ctx.state.get([2, 0, 0]);
  const [list, type, field] = special === WITNESS_ACCOUNT ? ['active_witnesses', 6, 'witness_account'] : ['active_committee_members', 5, 'committee_member_account'];
  for (const id of (gp[list] as string[] | undefined) ?? []) {
    const holder = ctx.state.find([1, type, instanceOf(id, 1, type, list)]);
    if (holder) out.add(String(holder[field]));
  }
  return out;
}

/** asset_publish_feed_evaluator: a producer's feed, and the median and current feed that follow. */
export function assetPublishFeed(ctx: EvalContext, op: Obj): Evaluated {
  // asset_publish_feed_operation::validate: price_feed::validate, then the feed's own rules
  const fee = validFee(ctx, op.fee);
  const assetId = instanceOf(op.asset_id, 1, 3, 'asset_id');
  const given = feedIn(op.feed);
  if (!isNullPrice(given.settlement)) validatePrice(given.settlement);
  if (!(given.mssr >= MIN_COLLATERAL_RATIO)) fail('maximum_short_squeeze_ratio >= GRAPHENE_MIN_COLLATERAL_RATIO: ');
  if (!(given.mssr <= MAX_COLLATERAL_RATIO)) fail('maximum_short_squeeze_ratio <= GRAPHENE_MAX_COLLATERAL_RATIO: ');
  if (!(given.mcr >= MIN_COLLATERAL_RATIO)) fail('maintenance_collateral_ratio >= GRAPHENE_MIN_COLLATERAL_RATIO: ');
  if (!(given.mcr <= MAX_COLLATERAL_RATIO)) fail('maintenance_collateral_ratio <= GRAPHENE_MAX_COLLATERAL_RATIO: ');
  if (!isNullPrice(given.cer)) validatePrice(given.cer);
  if (!isNullPrice(given.settlement) && !isNullPrice(given.cer) && given.settlement.base.asset !== given.cer.base.asset) fail('feed.settlement_price.base.asset_id == feed.core_exchange_rate.base.asset_id: ');
  if (isNullPrice(given.settlement)) fail('!feed.settlement_price.is_null(): ');
  if (isNullPrice(given.cer)) fail('!feed.core_exchange_rate.is_null(): ');
  if (given.settlement.base.asset !== assetId) fail('feed.is_for( asset_id ): ');
  const icr = optional(((op.extensions ?? {}) as Obj).initial_collateral_ratio);
  if (icr !== undefined) {
    if (!(icr >= MIN_COLLATERAL_RATIO)) fail('*extensions.value.initial_collateral_ratio >= GRAPHENE_MIN_COLLATERAL_RATIO: ');
    if (!(icr <= MAX_COLLATERAL_RATIO)) fail('*extensions.value.initial_collateral_ratio <= GRAPHENE_MAX_COLLATERAL_RATIO: ');
  }

  // do_evaluate
  const publisher = accountInstance(ctx, op.publisher, 'publisher');
  const { instance, asset } = loadAsset(ctx, op.asset_id, 'asset_id');
  const b = loadBitasset(ctx, instance);
  if (!b) return fail('base.is_market_issued(): Can only publish price feeds for market-issued assets');
  if (b.isPredictionMarket && isGloballySettled(b)) fail('!bitasset.is_globally_settled(): No further feeds may be published after a settlement event');
  if (given.settlement.quote.asset !== b.options.backing) fail('o.feed.settlement_price.quote.asset_id == bitasset.options.short_backing_asset: Quote asset type in settlement price should be same as backing asset of this asset');
  if (!isNullPrice(given.cer) && given.cer.quote.asset !== 0) fail('o.feed.core_exchange_rate.quote.asset_id == asset_id_type(): Quote asset in core exchange rate should be CORE asset');
  const flags = Number((asset.options as Obj).flags ?? 0);
  const publisherId = `1.2.${publisher}`;
  if ((flags & F.witness_fed_asset) !== 0) {
    if (!activeFeeders(ctx, WITNESS_ACCOUNT).has(publisherId)) fail('d.get(GRAPHENE_WITNESS_ACCOUNT).active.account_auths.count(o.publisher) > 0: Only active witnesses are allowed to publish price feeds for this asset');
  } else if ((flags & F.committee_fed_asset) !== 0) {
    if (!activeFeeders(ctx, COMMITTEE_ACCOUNT).has(publisherId)) fail('d.get(GRAPHENE_COMMITTEE_ACCOUNT).active.account_auths.count(o.publisher) > 0: Only active committee members are allowed to publish price feeds for this asset');
  } else if (!(b.obj.feeds as [string, unknown][]).some(([account]) => account === publisherId)) {
    fail('bitasset.feeds.count(o.publisher) > 0: The account is not in the set of allowed price feed producers of this asset');
  }

  countFee(ctx, publisher, fee.amount);
  // do_apply: the feed (with the ICR given, or the MCR as ICR) at the head block time
  const stored: [string, [string, Obj]] = [publisherId, [fcTime(ctx.headTime ?? ctx.blockTime), feedJson({ ...given, icr: icr ?? given.mcr })]];
  const feeds = (b.obj.feeds as [string, [string, Obj]][]).filter(([account]) => account !== publisherId);
  feeds.push(stored);
  b.obj.feeds = feeds.sort(accountOrder);
  ctx.state.touch(b.key);
  const updated = updateBitassetCurrentFeed(ctx, parseBitasset(b.instance, b.obj), false);
  // Nothing more unless the median's margin call parameters moved (hardfork core-2582).
  if (!marginCallParamsEqual(b.medianFeed, updated.medianFeed)) {
    // A globally settled asset with a feed again revives when nobody holds it, or when the settlement
    // fund covers the supply above the initial collateralization (hardfork core-2290).
    if (isGloballySettled(updated) && !isNullPrice(updated.currentFeed.settlement)) {
      const supply = amountOf(ctx.state.get([2, 3, instance]).current_supply);
      const fundCollateralization: Price = { base: { amount: updated.settlementFund, asset: updated.options.backing }, quote: { amount: supply, asset: instance } };
      if (supply === 0n || comparePrice(fundCollateralization, updated.initialCollateralization) > 0) reviveBitasset(ctx, updated);
    }
    checkMarginCalls(ctx, instance);
  }
  takeFee(ctx, publisher, fee);
  return { result: [0, {}], impacted: [publisher] };
}

// ---- asset_global_settle (18) ----

/** asset_global_settle_evaluator: the issuer settles every debt position at its price. */
export function assetGlobalSettle(ctx: EvalContext, op: Obj): Evaluated {
  // asset_global_settle_operation::validate
  const fee = validFee(ctx, op.fee);
  const assetId = instanceOf(op.asset_to_settle, 1, 3, 'asset_to_settle');
  const settlePrice = priceIn(op.settle_price);
  if (settlePrice.base.asset !== assetId) fail('asset_to_settle == settle_price.base.asset_id: ');

  // do_evaluate
  const issuer = accountInstance(ctx, op.issuer, 'issuer');
  const { instance, asset } = loadAsset(ctx, op.asset_to_settle, 'asset_to_settle');
  const b = loadBitasset(ctx, instance);
  if (!b) return fail('asset_to_settle->is_market_issued(): Can only globally settle market-issued assets');
  if ((Number((asset.options as Obj).issuer_permissions ?? 0) & F.global_settle) === 0) fail('asset_to_settle->can_global_settle(): The global_settle permission of this asset is disabled');
  if (asset.issuer !== `1.2.${issuer}`) fail('asset_to_settle->issuer == op.issuer: Only asset issuer can globally settle an asset');
  if (!(amountOf(ctx.state.get([2, 3, instance]).current_supply) > 0n)) fail('asset_to_settle->dynamic_data(d).current_supply > 0: Can not globally settle an asset with zero supply');
  if (isGloballySettled(b)) fail('!_bitasset_data.is_globally_settled(): This asset has been globally settled, cannot globally settle again');
  const least = leastCollateralized(ctx, instance);
  if (least) {
    const owed = priced(() => multiply({ amount: least.debt, asset: least.debtAsset }, settlePrice));
    if (owed.asset !== least.collateralAsset) fail('a.asset_id == b.asset_id: ');
    if (!(owed.amount <= least.collateral)) {
      fail('( least_collateralized_short->get_debt() * op.settle_price ) <= least_collateralized_short->get_collateral(): Cannot globally settle at supplied price: least collateralized short lacks sufficient collateral to settle.');
    }
  }

  countFee(ctx, issuer, fee.amount);
  globallySettleAsset(ctx, instance, settlePrice, false);
  takeFee(ctx, issuer, fee);
  return { result: [0, {}], impacted: [issuer] };
}

// ---- asset_settle (17) ----

/** extendable_operation_result (5), its set members in reflection order. */
function extendableResult(r: { newObjects?: string[]; paid?: Amount[]; received?: Amount[]; fees?: Amount[] }): [number, Obj] {
  const out: Obj = {};
  if (r.newObjects) out.new_objects = r.newObjects;
  if (r.paid) out.paid = r.paid.map(amountJson);
  if (r.received) out.received = r.received.map(amountJson);
  if (r.fees) out.fees = r.fees.map(amountJson);
  return [5, out];
}

/**
 * asset_settle_evaluator: `amount` of a market-issued asset exchanged for its backing asset. Once the
 * asset is globally settled, at once from the settlement fund; otherwise as a force settlement
 * (1.4.x) that matches debt positions now (hardfork core-2481) or waits out the settlement delay.
 */
export function assetSettle(ctx: EvalContext, op: Obj): Evaluated {
  // asset_settle_operation::validate
  const fee = validFee(ctx, op.fee);
  const amount = amountIn(op.amount, 'amount.asset_id');
  if (!(amount.amount >= 0n)) fail('amount.amount >= 0: ');

  // do_evaluate
  const account = accountInstance(ctx, op.account, 'account');
  const { instance, asset } = loadAsset(ctx, (op.amount as Obj).asset_id, 'amount.asset_id');
  const b = loadBitasset(ctx, instance);
  if (!b) return fail('asset_to_settle->is_market_issued(): Can only force settle a predition market or a market issued asset');
  const canForceSettle = (Number((asset.options as Obj).flags ?? 0) & F.disable_force_settle) === 0;
  const settled = isGloballySettled(b);
  if (!(canForceSettle || settled)) {
    fail(
      'asset_to_settle->can_force_settle() || bitasset.is_globally_settled() || bitasset.is_individually_settled_to_fund(): Either the asset need to have the force_settle flag enabled, or it need to be globally settled, or the individual settlement pool (for force-settlements) is not empty',
    );
  }
  if (b.isPredictionMarket) {
    if (!settled) fail('bitasset.is_globally_settled(): Global settlement must occur before force settling a prediction market');
  } else if (isNullPrice(b.currentFeed.settlement) && !settled) {
    // insufficient_feeds, thrown without an assertion
    fail('Cannot force settle with no price feed if the asset is not globally settled and the individual settlement pool (for force-settlements) is not empty');
  }
  if (!(balanceOf(ctx, account, instance) >= amount.amount)) fail('d.get_balance( op.account, op.amount.asset_id ) >= op.amount: Insufficient balance');
  if (!isAuthorizedAsset(ctx, account, asset)) fail('is_authorized_asset( d, *fee_paying_account, *asset_to_settle ): The account is not allowed to settle the asset');
  if (!isAuthorizedAsset(ctx, account, ctx.state.get([1, 3, b.options.backing]))) {
    fail('is_authorized_asset( d, *fee_paying_account, bitasset.options.short_backing_asset(d) ): The account is not allowed to receive the backing asset');
  }

  countFee(ctx, account, fee.amount);
  let result: [number, Obj];
  if (settled) result = paySettleFromGsFund(ctx, account, amount, b);
  // Nothing to settle, or no feed to settle at (hardforks core-2582 and core-2587): an empty result.
  else if (amount.amount === 0n || isNullPrice(b.currentFeed.settlement)) result = extendableResult({});
  else {
    adjustBalance(ctx, account, instance, -amount.amount);
    const head = ctx.headTime ?? ctx.blockTime;
    const settlement = createSettlement(ctx, account, amount, head + b.options.settlementDelay);
    result = extendableResult({ newObjects: [`1.4.${settlement.instance}`] });
    applyForceSettlement(ctx, settlement, b);
  }
  takeFee(ctx, account, fee);
  return { result, impacted: [account] };
}

/**
 * pay_settle_from_gs_fund: the holder of a globally settled asset gets the settlement fund's share at
 * the settlement price, rounded down (all of the fund for the whole supply), and pays the amount that
 * share is worth, rounded up; the asset keeps what the margin call order price leaves over as
 * collateral fees, and the backing asset's market fee is charged on the rest.
 */
function paySettleFromGsFund(ctx: EvalContext, account: number, amount: Amount, b: Bitasset): [number, Obj] {
  const dynKey: [number, number, number] = [2, 3, b.asset];
  const supply = amountOf(ctx.state.get(dynKey).current_supply);
  const whole = amount.amount === supply;
  let settledAmount: Amount = whole ? { amount: b.settlementFund, asset: b.options.backing } : priced(() => multiply(amount, b.settlementPrice));
  if (!whole && !(settledAmount.amount <= b.settlementFund)) fail('settled_amount.amount <= bitasset.settlement_fund: Internal error: amount in the global settlement fund is not sufficient to pay the settlement');
  if (settledAmount.amount === 0n && !b.isPredictionMarket) fail('Settle amount is too small to receive anything due to rounding');
  let pays = amount;
  if (!whole && settledAmount.amount !== 0n) pays = priced(() => multiplyRoundUp(settledAmount, b.settlementPrice));
  adjustBalance(ctx, account, b.asset, -pays.amount);

  let issuerFees: Amount = { amount: 0n, asset: b.options.backing };
  let collateralFees: Amount | undefined;
  if (settledAmount.amount > 0n) {
    b.obj.settlement_fund = i64(b.settlementFund - settledAmount.amount);
    ctx.state.touch(b.key);
    collateralFees = payCollateralFees(ctx, pays, settledAmount, b);
    if (collateralFees) settledAmount = { ...settledAmount, amount: settledAmount.amount - collateralFees.amount };
    issuerFees = payMarketFees(ctx, account, settledAmount, false);
    settledAmount = { ...settledAmount, amount: settledAmount.amount - issuerFees.amount };
    if (settledAmount.amount > 0n) adjustBalance(ctx, account, settledAmount.asset, settledAmount.amount);
  }
  const dyn = ctx.state.get(dynKey);
  dyn.current_supply = i64(amountOf(dyn.current_supply) - pays.amount);
  ctx.state.touch(dynKey);
  return extendableResult({ paid: [pays], received: [settledAmount], fees: collateralFees ? [collateralFees, issuerFees] : [issuerFees] });
}

/**
 * pay_collateral_fees (hardfork core-2591): with a feed, what the settled amount exceeds the amount
 * paid at the margin call order price (rounded up) by stays with the asset as a collateral fee. Core
 * logs and skips an overflow of that product, and so does this.
 */
function payCollateralFees(ctx: EvalContext, pays: Amount, settledAmount: Amount, b: Bitasset): Amount | undefined {
  if (b.isPredictionMarket || isNullPrice(b.currentFeed.settlement)) return undefined;
  const fillPrice = marginCallOrderPrice(b.currentFeed, b.mcfr);
  let byMcop: Amount;
  try {
    byMcop = multiplyRoundUp(pays, fillPrice);
  } catch (err) {
    if (err instanceof PriceError) return undefined;
    throw err;
  }
  if (!(byMcop.amount < settledAmount.amount)) return undefined;
  const fees: Amount = { amount: settledAmount.amount - byMcop.amount, asset: settledAmount.asset };
  // asset_object::accumulate_fee in the backing asset
  const dynKey: [number, number, number] = [2, 3, b.asset];
  const dyn = ctx.state.get(dynKey);
  dyn.accumulated_collateral_fees = i64(amountOf(dyn.accumulated_collateral_fees) + fees.amount);
  ctx.state.touch(dynKey);
  return fees;
}

// ---- bid_collateral (45) ----

/**
 * bid_collateral_evaluator: an offer of collateral to take over debt of a globally settled asset, which
 * revives it when the bids cover the supply. A bid replaces the bidder's earlier one; a zero debt
 * cancels it.
 */
export function bidCollateral(ctx: EvalContext, op: Obj): Evaluated {
  // bid_collateral_operation::validate
  const fee = validFee(ctx, op.fee);
  const collateral = amountIn(op.additional_collateral, 'additional_collateral.asset_id');
  const debt = amountIn(op.debt_covered, 'debt_covered.asset_id');
  if (!(debt.amount === 0n || (debt.amount > 0n && collateral.amount > 0n))) fail('debt_covered.amount == 0 || (debt_covered.amount > 0 && additional_collateral.amount > 0): ');

  // do_evaluate
  const bidder = accountInstance(ctx, op.bidder, 'bidder');
  const { instance, asset } = loadAsset(ctx, (op.debt_covered as Obj).asset_id, 'debt_covered.asset_id');
  const b = loadBitasset(ctx, instance);
  if (!b) return fail(`_debt_asset->is_market_issued(): Unable to cover ${String(asset.symbol)} as it is not a collateralized asset.`);
  if ((Number((asset.options as Obj).flags ?? 0) & F.disable_collateral_bidding) !== 0) fail('_debt_asset->can_bid_collateral(): Collateral bidding is disabled for this asset');
  if (!isGloballySettled(b)) fail('_bitasset_data->is_globally_settled(): Cannot bid since the asset is not globally settled');
  if (collateral.asset !== b.options.backing) fail('o.additional_collateral.asset_id == _bitasset_data->options.short_backing_asset: ');
  if (b.isPredictionMarket) fail('!_bitasset_data->is_prediction_market: Cannot bid on a prediction market!');
  const existing = bidOf(ctx, bidder, instance);
  if (!existing && !(debt.amount > 0n)) fail("o.debt_covered.amount > 0: Can't find bid to cancel?!");
  if (collateral.amount > 0n) {
    const balance = balanceOf(ctx, bidder, b.options.backing);
    if (existing) {
      const before = existing.invSwanPrice.base.amount;
      if (!(balance >= collateral.amount - before)) fail(`collateral_balance >= delta: Cannot increase bid from ${before} to ${collateral.amount} collateral when payer only has ${balance}`);
    } else if (!(balance >= collateral.amount)) {
      fail(`collateral_balance >= o.additional_collateral: Cannot bid ${collateral.amount} collateral when payer only has ${balance}`);
    }
  }
  if (!isAuthorizedAsset(ctx, bidder, asset)) fail('is_authorized_asset( d, *fee_paying_account, *_debt_asset ): The account is not allowed to transact the debt asset');
  if (!isAuthorizedAsset(ctx, bidder, ctx.state.get([1, 3, b.options.backing]))) {
    fail('is_authorized_asset( d, *fee_paying_account, _bitasset_data->options.short_backing_asset(d) ): The account is not allowed to transact the collateral asset');
  }

  countFee(ctx, bidder, fee.amount);
  if (existing) cancelBid(ctx, existing, false);
  if (debt.amount !== 0n) {
    adjustBalance(ctx, bidder, collateral.asset, -collateral.amount);
    // collateral / debt (the core asset in a bid is not counted in total_core_in_orders)
    createBid(ctx, bidder, { base: collateral, quote: debt });
  }
  takeFee(ctx, bidder, fee);
  return { result: [0, {}], impacted: [bidder] };
}
