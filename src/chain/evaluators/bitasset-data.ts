// What market-issued assets keep, and the prices derived from their feeds: the objects (the asset's
// bitasset data 2.4.x, debt positions 1.8.x, force settlements 1.4.x, collateral bids 2.17.x) in
// Core's reflection order, their indexes in the store (`bitassetIndex`), and the feed arithmetic of
// protocol/asset.cpp (price_feed) and chain/asset_object.cpp (update_median_feeds, refresh_cache).
//
// The evaluators of the operations on these assets (bitasset-ops.ts) and the margin engine
// (margin.ts) share it; it imports only the ledger and the price arithmetic below it.
//
// The bitasset index is one sub-database of keys, each led by the number of the index it belongs to:
//   [0, debt asset, collateralization key, call]  Core's call_order_index by_collateral: the least
//                                                 collateralized position first, then the oldest
//   [1, borrower, debt asset, call]               by_account (one position per account and asset)
//   [2, asset, settlement date, settlement]       force_settlement_index by_expiration
//   [3, owner, settlement]                        force_settlement_index by_account
//   [4, debt asset, bid price key, bid]           collateral_bid_index by_price (the most collateral
//                                                 for the debt first)
//   [5, debt asset, bidder, bid]                  collateral_bid_index by_account
//   [6, asset]                                    every market-issued asset
//   [7, backing asset, asset]                     asset_bitasset_data_index by_short_backing_asset

import { fcTime, i64, parseFcTime } from '../fc/fc-json.js';
import { amountOf, instanceOf, priced, type EvalContext } from './ledger.js';
import { nthElement } from './nth-element.js';
import { amountFromJson, amountJson, comparePrice, divideByRatio, invert, multiplyByRatio, priceJson, priceKey, priceKeyAscending, type Amount, type Price } from '../protocol/price.js';

type Obj = Record<string, unknown>;

/** GRAPHENE_COLLATERAL_RATIO_DENOM, GRAPHENE_MIN_ / MAX_COLLATERAL_RATIO (config.hpp) */
export const RATIO_DENOM = 1000;
export const MIN_COLLATERAL_RATIO = 1001;
export const MAX_COLLATERAL_RATIO = 32000;
/** GRAPHENE_DEFAULT_MAINTENANCE_COLLATERAL_RATIO and GRAPHENE_DEFAULT_MAX_SHORT_SQUEEZE_RATIO */
export const DEFAULT_MCR = 1750;
export const DEFAULT_MSSR = 1500;

/** bitasset_options::black_swan_response_type */
export const BSRM = { global_settlement: 0, no_settlement: 1, individual_settlement_to_fund: 2, individual_settlement_to_order: 3 } as const;


// ---- prices ----

/** price() */
export const NULL_PRICE: Price = { base: { amount: 0n, asset: 0 }, quote: { amount: 0n, asset: 0 } };

/** price::is_null */
export const isNullPrice = (p: Price): boolean => p.base.asset === 0 && p.quote.asset === 0;

/** price operator==: the same two assets at the same ratio. */
export const priceEquals = (a: Price, b: Price): boolean => a.base.asset === b.base.asset && a.quote.asset === b.quote.asset && comparePrice(a, b) === 0;

export const priceIn = (v: unknown): Price => {
  const p = v as { base?: unknown; quote?: unknown } | undefined;
  return { base: amountFromJson(p?.base), quote: amountFromJson(p?.quote) };
};

/**
 * price::call_price (asset.cpp): collateral / (debt * ratio), shrunk until both sides fit. Core works
 * in boost::rational<uint128_t>, which keeps every value in lowest terms: the product, and each halved
 * pair again, so a common factor a halving makes is taken out before the next one (and may end it).
 */
export function callPrice(debt: Amount, collateral: Amount, collateralRatio: number): Price {
  let [n, d] = lowestTerms(debt.amount * BigInt(collateralRatio), collateral.amount * BigInt(RATIO_DENOM));
  const MAX = 1_000_000_000_000_000n;
  while (n > MAX || d > MAX) [n, d] = lowestTerms((n >> 1n) + 1n, (d >> 1n) + 1n);
  return { base: { amount: d, asset: collateral.asset }, quote: { amount: n, asset: debt.asset } };
}

/** boost::rational's normalization: numerator and denominator divided by their greatest common divisor. */
function lowestTerms(n: bigint, d: bigint): [bigint, bigint] {
  const g = gcd(n, d);
  return g > 1n ? [n / g, d / g] : [n, d];
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

// ---- feeds (price_feed, price_feed_with_icr) ----

export interface Feed {
  readonly settlement: Price;
  readonly mcr: number;
  readonly mssr: number;
  readonly cer: Price;
  readonly icr: number;
}

export const NULL_FEED: Feed = { settlement: NULL_PRICE, mcr: DEFAULT_MCR, mssr: DEFAULT_MSSR, cer: NULL_PRICE, icr: DEFAULT_MCR };

export function feedIn(v: unknown): Feed {
  const f = (v ?? {}) as Obj;
  const mcr = Number(f.maintenance_collateral_ratio ?? DEFAULT_MCR);
  return {
    settlement: priceIn(f.settlement_price),
    mcr,
    mssr: Number(f.maximum_short_squeeze_ratio ?? DEFAULT_MSSR),
    cer: priceIn(f.core_exchange_rate),
    icr: Number(f.initial_collateral_ratio ?? mcr),
  };
}

/** price_feed_with_icr in its reflection order */
export const feedJson = (f: Feed): Obj => ({
  settlement_price: priceJson(f.settlement),
  maintenance_collateral_ratio: f.mcr,
  maximum_short_squeeze_ratio: f.mssr,
  core_exchange_rate: priceJson(f.cer),
  initial_collateral_ratio: f.icr,
});

/** price_feed::max_short_squeeze_price: MSSP = settlement_price / MSSR (debt / collateral) */
export const maxShortSqueezePrice = (f: Feed): Price => priced(() => multiplyByRatio(f.settlement, RATIO_DENOM, f.mssr));

/** MCOR = MSSR - MCFR, floored at 1.00 (price_feed::get_margin_call_price_numerator) */
export function marginCallNumerator(f: Feed, mcfr: number | undefined): number {
  const m = mcfr ?? 0;
  let numerator = m < f.mssr ? f.mssr - m : RATIO_DENOM;
  if (numerator < RATIO_DENOM) numerator = RATIO_DENOM;
  return numerator;
}

/** price_feed::margin_call_order_price: MCOP = settlement_price / (MSSR - MCFR) */
export const marginCallOrderPrice = (f: Feed, mcfr: number | undefined): Price => priced(() => divideByRatio(f.settlement, marginCallNumerator(f, mcfr), RATIO_DENOM));

/** price_feed::margin_call_pays_ratio: (MSSR - MCFR) / MSSR, as [numerator, denominator] */
export const marginCallPaysRatio = (f: Feed, mcfr: number | undefined): [number, number] => [marginCallNumerator(f, mcfr), f.mssr];

/** price_feed::maintenance_collateralization: ~settlement_price * MCR (collateral / debt), null without a feed */
export const maintenanceCollateralization = (f: Feed): Price => (isNullPrice(f.settlement) ? NULL_PRICE : priced(() => multiplyByRatio(invert(f.settlement), f.mcr, RATIO_DENOM)));

/** price_feed_with_icr::get_initial_collateralization: ~settlement_price * ICR */
export const initialCollateralization = (f: Feed): Price => (isNullPrice(f.settlement) ? NULL_PRICE : priced(() => multiplyByRatio(invert(f.settlement), f.icr, RATIO_DENOM)));

// ---- the bitasset data object (2.4.x) ----

export interface BitassetOptions {
  readonly feedLifetime: number;
  readonly minimumFeeds: number;
  readonly settlementDelay: number;
  readonly settlementOffset: number;
  readonly maxSettlementVolume: number;
  readonly backing: number;
  readonly ext: Obj;
}

export const optionsIn = (v: unknown): BitassetOptions => {
  const o = (v ?? {}) as Obj;
  return {
    feedLifetime: Number(o.feed_lifetime_sec ?? 86400),
    minimumFeeds: Number(o.minimum_feeds ?? 1),
    settlementDelay: Number(o.force_settlement_delay_sec ?? 86400),
    settlementOffset: Number(o.force_settlement_offset_percent ?? 0),
    maxSettlementVolume: Number(o.maximum_force_settlement_volume ?? 2000),
    backing: instanceOf(o.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset'),
    ext: (o.extensions ?? {}) as Obj,
  };
};

const optionalNumber = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

/** The loaded bitasset data of one asset, with the fields the engine reads parsed. */
export interface Bitasset {
  readonly instance: number;
  readonly key: [number, number, number];
  readonly obj: Obj;
  readonly asset: number;
  readonly options: BitassetOptions;
  readonly medianFeed: Feed;
  readonly currentFeed: Feed;
  readonly isPredictionMarket: boolean;
  readonly settlementPrice: Price;
  readonly settlementFund: bigint;
  readonly forceSettledVolume: bigint;
  readonly maintenanceCollateralization: Price;
  readonly initialCollateralization: Price;
  /** margin_call_fee_ratio, when the options set one */
  readonly mcfr: number | undefined;
  readonly bsrm: number;
}

/** The 2.4.x instance of a market-issued asset, or undefined for any other asset. */
export function bitassetInstanceOf(ctx: EvalContext, asset: number): number | undefined {
  const a = ctx.state.get([1, 3, asset]);
  return a.bitasset_data_id === undefined || a.bitasset_data_id === null ? undefined : instanceOf(a.bitasset_data_id, 2, 4, 'bitasset_data_id');
}

export function loadBitasset(ctx: EvalContext, asset: number): Bitasset | undefined {
  const instance = bitassetInstanceOf(ctx, asset);
  if (instance === undefined) return undefined;
  return parseBitasset(instance, ctx.state.get([2, 4, instance]));
}

export function parseBitasset(instance: number, obj: Obj): Bitasset {
  const options = optionsIn(obj.options);
  return {
    instance,
    key: [2, 4, instance],
    obj,
    asset: instanceOf(obj.asset_id, 1, 3, 'asset_id'),
    options,
    medianFeed: feedIn(obj.median_feed),
    currentFeed: feedIn(obj.current_feed),
    isPredictionMarket: obj.is_prediction_market === true,
    settlementPrice: priceIn(obj.settlement_price),
    settlementFund: amountOf(obj.settlement_fund),
    forceSettledVolume: amountOf(obj.force_settled_volume),
    maintenanceCollateralization: priceIn(obj.current_maintenance_collateralization),
    initialCollateralization: priceIn(obj.current_initial_collateralization),
    mcfr: optionalNumber(options.ext.margin_call_fee_ratio),
    bsrm: Number(options.ext.black_swan_response_method ?? BSRM.global_settlement),
  };
}

/** asset_bitasset_data_object::is_globally_settled */
export const isGloballySettled = (b: Bitasset): boolean => !isNullPrice(b.settlementPrice);

/** A new asset's bitasset data, as asset_create_evaluator::do_apply makes it. */
export function bitassetDataObject(id: string, asset: number, options: Obj, isPredictionMarket: boolean, now: number): Obj {
  return {
    id,
    asset_id: `1.3.${asset}`,
    feeds: [],
    median_feed: feedJson(NULL_FEED),
    current_feed: feedJson(NULL_FEED),
    current_feed_publication_time: fcTime(now),
    current_maintenance_collateralization: priceJson(NULL_PRICE),
    current_initial_collateralization: priceJson(NULL_PRICE),
    options,
    force_settled_volume: 0,
    is_prediction_market: isPredictionMarket,
    settlement_price: priceJson(NULL_PRICE),
    settlement_fund: 0,
    individual_settlement_debt: 0,
    individual_settlement_fund: 0,
    asset_cer_updated: false,
    feed_cer_updated: false,
  };
}

/** asset_bitasset_data_object::max_force_settlement_volume */
export function maxForceSettlementVolume(b: Bitasset, currentSupply: bigint): bigint {
  const pct = b.options.maxSettlementVolume;
  if (pct === 0) return 0n;
  if (pct === 10000) return currentSupply + b.forceSettledVolume;
  return ((currentSupply + b.forceSettledVolume) * BigInt(pct)) / 10000n;
}

/** asset_bitasset_data_object::refresh_cache */
function refreshCache(obj: Obj, median: Feed): void {
  obj.current_maintenance_collateralization = priceJson(maintenanceCollateralization(median));
  obj.current_initial_collateralization = priceJson(median.icr > median.mcr ? initialCollateralization(median) : maintenanceCollateralization(median));
}

/**
 * asset_bitasset_data_object::update_median_feeds at `now`: the feeds younger than the feed lifetime,
 * their median of each field (the upper one of an even count, picked as Core's std::nth_element
 * picks it: nth-element.ts), the ratios the options fix replacing the feeds' ones, and the
 * collateralizations derived from it.
 */
export function updateMedianFeeds(obj: Obj, now: number): void {
  const options = optionsIn(obj.options);
  let publication = now;
  const effective: Feed[] = [];
  for (const [, [time, feed]] of (obj.feeds as [string, [string, unknown]][]) ?? []) {
    const t = parseFcTime(time);
    if (now - t < options.feedLifetime && t !== 0) {
      effective.push(feedIn(feed));
      publication = Math.min(publication, t);
    }
  }
  const old = feedIn(obj.median_feed);
  const fixed = (name: 'maintenance_collateral_ratio' | 'maximum_short_squeeze_ratio' | 'initial_collateral_ratio'): number | undefined => optionalNumber(options.ext[name]);
  let median: Feed;
  if (effective.length < options.minimumFeeds) {
    obj.feed_cer_updated = false;
    obj.current_feed_publication_time = fcTime(now);
    median = NULL_FEED;
    obj.median_feed = feedJson(median);
    refreshCache(obj, median);
    return;
  }
  if (effective.length === 1) {
    const f = effective[0]!;
    median = { ...f, mcr: fixed('maintenance_collateral_ratio') ?? f.mcr, mssr: fixed('maximum_short_squeeze_ratio') ?? f.mssr, icr: fixed('initial_collateral_ratio') ?? f.icr };
  } else {
    // Core runs std::nth_element on one vector field after field, in this order, skipping the ratios
    // the options fix: which of two equal prices (1/20, 2/40) ends in the middle depends on it.
    const mid = Math.floor(effective.length / 2);
    const medianOf = <V>(pick: (f: Feed) => V, less: (a: V, b: V) => boolean): V => {
      nthElement(effective, mid, (a, b) => less(pick(a), pick(b)));
      return pick(effective[mid]!);
    };
    const priceLess = (a: Price, b: Price): boolean => comparePrice(a, b) < 0;
    const numberLess = (a: number, b: number): boolean => a < b;
    const settlement = medianOf((f) => f.settlement, priceLess);
    const cer = medianOf((f) => f.cer, priceLess);
    const mcr = fixed('maintenance_collateral_ratio') ?? medianOf((f) => f.mcr, numberLess);
    const mssr = fixed('maximum_short_squeeze_ratio') ?? medianOf((f) => f.mssr, numberLess);
    const icr = fixed('initial_collateral_ratio') ?? medianOf((f) => f.icr, numberLess);
    median = { settlement, mcr, mssr, cer, icr };
  }
  if (!priceEquals(old.cer, median.cer)) obj.feed_cer_updated = true;
  obj.current_feed_publication_time = fcTime(publication);
  obj.median_feed = feedJson(median);
  refreshCache(obj, median);
}

// ---- debt positions (call_order_object 1.8.x) ----

export interface CallOrder {
  readonly instance: number;
  readonly key: [number, number, number];
  readonly obj: Obj;
  readonly borrower: number;
  readonly collateral: bigint;
  readonly debt: bigint;
  readonly collateralAsset: number;
  readonly debtAsset: number;
  readonly tcr: number | undefined;
}

export function loadCall(ctx: EvalContext, instance: number): CallOrder | undefined {
  const key: [number, number, number] = [1, 8, instance];
  const obj = ctx.state.find(key);
  if (!obj) return undefined;
  const cp = priceIn(obj.call_price);
  return {
    instance,
    key,
    obj,
    borrower: instanceOf(obj.borrower, 1, 2, 'borrower'),
    collateral: amountOf(obj.collateral),
    debt: amountOf(obj.debt),
    collateralAsset: cp.base.asset,
    debtAsset: cp.quote.asset,
    tcr: optionalNumber(obj.target_collateral_ratio),
  };
}

/** call_order_object::collateralization: collateral / debt */
export const collateralization = (c: { collateral: bigint; debt: bigint; collateralAsset: number; debtAsset: number }): Price => ({ base: { amount: c.collateral, asset: c.collateralAsset }, quote: { amount: c.debt, asset: c.debtAsset } });

function callIndexKeys(c: CallOrder): (number | string)[][] {
  return [
    [0, c.debtAsset, priceKeyAscending(collateralization(c)), c.instance],
    [1, c.borrower, c.debtAsset, c.instance],
  ];
}

/** Puts or takes away the index entries of a debt position. */
export function indexCall(ctx: EvalContext, c: CallOrder, present: boolean): void {
  for (const k of callIndexKeys(c)) {
    if (present) ctx.state.store.bitassetIndex.putSync(k, 1);
    else ctx.state.store.bitassetIndex.removeSync(k);
  }
}

/** Writes a debt position's new collateral and debt, keeping its index entries in step. */
export function updateCall(ctx: EvalContext, c: CallOrder, collateral: bigint, debt: bigint, tcr?: number | null): CallOrder {
  indexCall(ctx, c, false);
  c.obj.collateral = i64(collateral);
  c.obj.debt = i64(debt);
  if (tcr !== undefined) {
    if (tcr === null) delete c.obj.target_collateral_ratio;
    else c.obj.target_collateral_ratio = tcr;
  }
  ctx.state.touch(c.key);
  const next = loadCall(ctx, c.instance)!;
  indexCall(ctx, next, true);
  return next;
}

export function removeCall(ctx: EvalContext, c: CallOrder): void {
  indexCall(ctx, c, false);
  ctx.state.remove(c.key);
}

/** Creates a debt position (call_price is 1/1 of the two assets after hardfork core-1270). */
export function createCall(ctx: EvalContext, borrower: number, collateral: Amount, debt: Amount, tcr: number | undefined): CallOrder {
  const { instance } = ctx.state.create(1, 8, (id) => {
    const o: Obj = {
      id,
      borrower: `1.2.${borrower}`,
      collateral: i64(collateral.amount),
      debt: i64(debt.amount),
      call_price: priceJson({ base: { amount: 1n, asset: collateral.asset }, quote: { amount: 1n, asset: debt.asset } }),
    };
    if (tcr !== undefined) o.target_collateral_ratio = tcr;
    return o;
  });
  const c = loadCall(ctx, instance)!;
  indexCall(ctx, c, true);
  return c;
}

/** The position of `borrower` in `debtAsset`, if any (by_account). */
export function callOf(ctx: EvalContext, borrower: number, debtAsset: number): CallOrder | undefined {
  for (const k of ctx.state.store.bitassetIndex.getKeys({ start: [1, borrower, debtAsset], end: [1, borrower, debtAsset + 1], limit: 1 })) return loadCall(ctx, k[3] as number);
  return undefined;
}

/** The least collateralized position of an asset (by_collateral's first), if any. */
export function leastCollateralized(ctx: EvalContext, debtAsset: number): CallOrder | undefined {
  for (const k of ctx.state.store.bitassetIndex.getKeys({ start: [0, debtAsset], end: [0, debtAsset + 1], limit: 1 })) return loadCall(ctx, k[3] as number);
  return undefined;
}

/** Every position of an asset, least collateralized first. */
export function callsByCollateral(ctx: EvalContext, debtAsset: number): number[] {
  return [...ctx.state.store.bitassetIndex.getKeys({ start: [0, debtAsset], end: [0, debtAsset + 1] })].map((k) => k[3] as number);
}

// ---- force settlements (force_settlement_object 1.4.x) ----

export interface Settlement {
  readonly instance: number;
  readonly key: [number, number, number];
  readonly obj: Obj;
  readonly owner: number;
  readonly balance: Amount;
  readonly date: number;
}

export function loadSettlement(ctx: EvalContext, instance: number): Settlement | undefined {
  const key: [number, number, number] = [1, 4, instance];
  const obj = ctx.state.find(key);
  if (!obj) return undefined;
  return { instance, key, obj, owner: instanceOf(obj.owner, 1, 2, 'owner'), balance: amountFromJson(obj.balance), date: parseFcTime(String(obj.settlement_date)) };
}

function settlementKeys(s: Settlement): (number | string)[][] {
  return [
    [2, s.balance.asset, s.date, s.instance],
    [3, s.owner, s.instance],
  ];
}

export function createSettlement(ctx: EvalContext, owner: number, balance: Amount, date: number): Settlement {
  const { instance } = ctx.state.create(1, 4, (id) => ({ id, owner: `1.2.${owner}`, balance: amountJson(balance), settlement_date: fcTime(date) }));
  const s = loadSettlement(ctx, instance)!;
  for (const k of settlementKeys(s)) ctx.state.store.bitassetIndex.putSync(k, 1);
  return s;
}

export function updateSettlementBalance(ctx: EvalContext, s: Settlement, amount: bigint): Settlement {
  s.obj.balance = amountJson({ amount, asset: s.balance.asset });
  ctx.state.touch(s.key);
  return loadSettlement(ctx, s.instance)!;
}

export function removeSettlement(ctx: EvalContext, s: Settlement): void {
  for (const k of settlementKeys(s)) ctx.state.store.bitassetIndex.removeSync(k);
  ctx.state.remove(s.key);
}

/** The settlements of an asset, the earliest settlement date first (by_expiration). */
export function settlementsOf(ctx: EvalContext, asset: number): number[] {
  return [...ctx.state.store.bitassetIndex.getKeys({ start: [2, asset], end: [2, asset + 1] })].map((k) => k[3] as number);
}

// ---- collateral bids (collateral_bid_object 2.17.x) ----

export interface Bid {
  readonly instance: number;
  readonly key: [number, number, number];
  readonly obj: Obj;
  readonly bidder: number;
  /** collateral / debt */
  readonly invSwanPrice: Price;
}

export function loadBid(ctx: EvalContext, instance: number): Bid | undefined {
  const key: [number, number, number] = [2, 17, instance];
  const obj = ctx.state.find(key);
  if (!obj) return undefined;
  return { instance, key, obj, bidder: instanceOf(obj.bidder, 1, 2, 'bidder'), invSwanPrice: priceIn(obj.inv_swan_price) };
}

function bidKeys(b: Bid): (number | string)[][] {
  const debt = b.invSwanPrice.quote.asset;
  return [
    [4, debt, priceKey(b.invSwanPrice), b.instance],
    [5, debt, b.bidder, b.instance],
  ];
}

export function createBid(ctx: EvalContext, bidder: number, invSwanPrice: Price): Bid {
  const { instance } = ctx.state.create(2, 17, (id) => ({ id, bidder: `1.2.${bidder}`, inv_swan_price: priceJson(invSwanPrice) }));
  const b = loadBid(ctx, instance)!;
  for (const k of bidKeys(b)) ctx.state.store.bitassetIndex.putSync(k, 1);
  return b;
}

export function removeBid(ctx: EvalContext, b: Bid): void {
  for (const k of bidKeys(b)) ctx.state.store.bitassetIndex.removeSync(k);
  ctx.state.remove(b.key);
}

/** The bid of `bidder` on `debtAsset`, if any. */
export function bidOf(ctx: EvalContext, bidder: number, debtAsset: number): Bid | undefined {
  for (const k of ctx.state.store.bitassetIndex.getKeys({ start: [5, debtAsset, bidder], end: [5, debtAsset, bidder + 1], limit: 1 })) return loadBid(ctx, k[3] as number);
  return undefined;
}

/** The bids on an asset, the most collateral for the debt first. */
export function bidsOf(ctx: EvalContext, debtAsset: number): number[] {
  return [...ctx.state.store.bitassetIndex.getKeys({ start: [4, debtAsset], end: [4, debtAsset + 1] })].map((k) => k[3] as number);
}

// ---- the lists of market-issued assets ----

export function indexBitasset(ctx: EvalContext, asset: number, backing: number, present: boolean): void {
  for (const k of [
    [6, asset],
    [7, backing, asset],
  ]) {
    if (present) ctx.state.store.bitassetIndex.putSync(k, 1);
    else ctx.state.store.bitassetIndex.removeSync(k);
  }
}

/** Every market-issued asset, by id. */
export const allBitassets = (ctx: EvalContext): number[] => [...ctx.state.store.bitassetIndex.getKeys({ start: [6], end: [7] })].map((k) => k[1] as number);

/** The market-issued assets backed by `backing`. */
export const bitassetsBackedBy = (ctx: EvalContext, backing: number): number[] => [...ctx.state.store.bitassetIndex.getKeys({ start: [7, backing], end: [7, backing + 1] })].map((k) => k[2] as number);

/**
 * database::update_bitasset_current_feed for the global-settlement response (the only one this chain
 * runs): the median updated from the feeds at the head block time unless `skipMedianUpdate`, and the
 * current feed made the median.
 */
export function updateBitassetCurrentFeed(ctx: EvalContext, b: Bitasset, skipMedianUpdate: boolean): Bitasset {
  if (skipMedianUpdate && priceEquals(b.currentFeed.settlement, b.medianFeed.settlement)) return b;
  if (!skipMedianUpdate) updateMedianFeeds(b.obj, ctx.headTime ?? ctx.blockTime);
  b.obj.current_feed = structuredClone(b.obj.median_feed);
  ctx.state.touch(b.key);
  return parseBitasset(b.instance, b.obj);
}

/** Reloads a bitasset after a change. */
export const reloadBitasset = (ctx: EvalContext, b: Bitasset): Bitasset => parseBitasset(b.instance, ctx.state.get(b.key));
