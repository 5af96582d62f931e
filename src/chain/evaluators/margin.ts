// The margin engine of market-issued assets, as BitShares Core 7.0 runs it with every hardfork passed
// and the global-settlement response to a black swan (the only one this chain runs):
//
//  - call_order_update (op 3): market_evaluator.cpp;
//  - margin calls against the order book (check_call_orders, match of a limit order with a call
//    order), force settlements matched with margin calls (apply_force_settlement,
//    match_force_settlements, match_impl), fills of debt positions and settlements (fill_call_order,
//    fill_settle_order), black swans and global settlement (check_for_blackswan,
//    globally_settle_asset), collateral bids and revival (cancel_bid, execute_bid, revive_bitasset):
//    db_market.cpp;
//  - at the end of every block: clear_expired_force_settlements, update_expired_feeds,
//    update_core_exchange_rates (db_update.cpp); and what Core does for these assets at its
//    maintenance interval (the force-settled volume reset, the expired feeds of witness- and
//    committee-fed assets erased, process_bids: db_maint.cpp), which this
//    chain, running no maintenance interval, does on the same schedule (see `bitassetMaintenance`);
//  - get_max_debt_to_cover (market_object.cpp), the debt a position with a target collateral ratio
//    sells in a margin call.
//
// Prices follow Core's conventions: a feed's settlement price is debt / collateral (base: the
// market-issued asset); a position's collateralization is collateral / debt.

import { i64, parseFcTime } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { accountInstance, addToStatistics, adjustBalance, amountOf, countFee, feeOf, isAuthorizedAsset, priced, type EvalContext, type Evaluated } from './ledger.js';
import {
  allBitassets,
  bidsOf,
  callOf,
  callPrice,
  collateralization,
  createCall,
  isGloballySettled,
  isNullPrice,
  leastCollateralized,
  loadBid,
  loadBitasset,
  loadCall,
  loadSettlement,
  marginCallOrderPrice,
  marginCallPaysRatio,
  maxForceSettlementVolume,
  maxShortSqueezePrice,
  NULL_PRICE,
  priceEquals,
  priceIn,
  reloadBitasset,
  removeBid,
  removeCall,
  removeSettlement,
  createBid,
  settlementsOf,
  updateBitassetCurrentFeed,
  updateCall,
  updateSettlementBalance,
  RATIO_DENOM,
  type Bid,
  type Bitasset,
  type CallOrder,
  type Feed,
  type Settlement,
} from './bitasset-data.js';
import { bestOrder, BOTH_FILLED, fillLimitOrder, loadOrder, matchResult, ONLY_MAKER_FILLED, ONLY_TAKER_FILLED, payMarketFees, type Order } from './limit-orders.js';
import { amountJson, calculatePercent, comparePrice, divideByRatio, invert, multiply, multiplyByRatio, multiplyRoundUp, priceJson, type Amount, type Price } from '../protocol/price.js';

type Obj = Record<string, unknown>;

const times = (a: Amount, p: Price): Amount => priced(() => multiply(a, p));
const timesUp = (a: Amount, p: Price): Amount => priced(() => multiplyRoundUp(a, p));
const amount = (value: bigint, asset: number): Amount => ({ amount: value, asset });
const emit = (ctx: EvalContext, op: [number, Obj], impacted: readonly number[]): void => {
  ctx.virtualOps?.push({ op, result: [0, {}], impacted });
};
/** price a < price b, for two prices of one market */
const less = (a: Price, b: Price): boolean => comparePrice(a, b) < 0;
const ZERO_FEE = { amount: 0, asset_id: '1.3.0' };
/** asset_issuer_permission_flags witness_fed_asset and committee_fed_asset */
const WITNESS_FED_ASSET = 0x80;
const COMMITTEE_FED_ASSET = 0x100;

/** The fields of the feed a margin call reads. */
const callParams = (b: Bitasset): { callMatchPrice: Price; callPaysPrice: Price } => ({
  // MCOP: where margin calls sit on the book; MSSP: what they give up for it (the difference is the
  // margin call fee). Both debt / collateral.
  callMatchPrice: marginCallOrderPrice(b.currentFeed, b.mcfr),
  callPaysPrice: maxShortSqueezePrice(b.currentFeed),
});

// ---- get_max_debt_to_cover (market_object.cpp) ----

/**
 * call_order_object::get_max_debt_to_cover after hardfork core-1270: the debt the position sells at
 * `matchPrice` to get back to its target collateral ratio (all of it without one), 0 when the feed
 * protects it.
 */
export function maxDebtToCover(c: CallOrder, matchPriceIn: Price, feedPriceIn: Price, mcr: number, maintenance: Price): bigint {
  const col = c.collateralAsset;
  let feedPrice = feedPriceIn.base.asset === col ? feedPriceIn : invert(feedPriceIn);
  let matchPrice = matchPriceIn.base.asset === col ? matchPriceIn : invert(matchPriceIn);
  const coll = collateralization(c);
  if (comparePrice(coll, maintenance) > 0) return 0n;
  if (c.tcr === undefined) return c.debt;
  const tcr = BigInt(Math.max(c.tcr, mcr));
  const targetCollateralization = priced(() => multiplyByRatio(feedPrice, Number(tcr), RATIO_DENOM));
  const mpDebt = matchPrice.quote.amount;
  const mpColl = matchPrice.base.amount;
  const fpDebt = feedPrice.quote.amount;
  const fpColl = feedPrice.base.amount;
  const D = BigInt(RATIO_DENOM);
  let numerator = fpColl * mpDebt * c.debt * tcr - fpDebt * mpDebt * c.collateral * D;
  if (numerator < 0n) return 0n;
  const denominator = fpColl * mpDebt * tcr - fpDebt * mpColl * D;
  if (denominator <= 0n) return c.debt;
  let toCoverBig = numerator / denominator;
  if (toCoverBig >= c.debt) return c.debt;
  let toPay = times(amount(toCoverBig, c.debtAsset), matchPrice);
  let toCover = times(toPay, matchPrice);
  toPay = timesUp(toCover, matchPrice);
  if (toCover.amount >= c.debt || toPay.amount >= c.collateral) return c.debt;
  const resultIsGood = (): boolean => comparePrice({ base: amount(c.collateral - toPay.amount, col), quote: amount(c.debt - toCover.amount, c.debtAsset) }, targetCollateralization) > 0;
  if (resultIsGood()) return toCover.amount;

  numerator += fpColl * mpDebt * tcr;
  toCoverBig = numerator / denominator + 1n;
  if (toCoverBig >= c.debt) toCoverBig = c.debt;
  const maxToPay = toCoverBig === c.debt ? amount(c.collateral, col) : timesUp(amount(toCoverBig, c.debtAsset), matchPrice);
  let maxPay = maxToPay.amount > c.collateral ? c.collateral : maxToPay.amount;
  let maxCover = maxPay === c.collateral ? c.debt : times(amount(maxPay, col), matchPrice).amount;
  if (maxCover >= c.debt) {
    maxPay = c.collateral;
    maxCover = c.debt;
  }
  if (maxPay <= toPay.amount || maxCover <= toCover.amount) return c.debt;
  let minPay = toPay.amount;
  let minCover = toCover.amount;
  let maxIsOk = false;
  let pay = toPay.amount;
  let cover = toCover.amount;
  const setResult = (p: bigint, cv: bigint): void => {
    pay = p;
    cover = cv;
    toPay = amount(p, col);
    toCover = amount(cv, c.debtAsset);
  };
  for (;;) {
    if (matchPrice.base.amount < matchPrice.quote.amount) {
      pay = (minPay + maxPay + 1n) / 2n;
      if (pay === maxPay) cover = maxCover;
      else {
        cover = times(amount(pay, col), matchPrice).amount;
        if (cover >= maxCover) {
          pay = maxPay;
          cover = maxCover;
        } else {
          pay = timesUp(amount(cover, c.debtAsset), matchPrice).amount;
          if (!(pay < maxPay)) throw new ChainError('to_pay.amount < max_to_pay.amount: ');
        }
      }
    } else {
      cover = (minCover + maxCover) / 2n;
      if (cover === maxCover) pay = maxPay;
      else {
        pay = timesUp(amount(cover, c.debtAsset), matchPrice).amount;
        if (pay >= maxPay) {
          pay = maxPay;
          cover = maxCover;
        } else {
          cover = times(amount(pay, col), matchPrice).amount;
          if (cover >= maxCover) {
            pay = maxPay;
            cover = maxCover;
          }
        }
      }
    }
    if (pay <= minPay || cover <= minCover || pay > maxPay || cover > maxCover) {
      pay = maxPay;
      cover = maxCover;
    }
    setResult(pay, cover);
    if (pay === maxPay && (maxIsOk || pay === c.collateral)) return cover;
    if (!(pay < c.collateral && cover < c.debt)) throw new ChainError('to_pay.amount < collateral && to_cover.amount < debt: ');
    if (resultIsGood()) {
      if (pay === maxPay) return cover;
      maxPay = pay;
      maxCover = cover;
      maxIsOk = true;
    } else {
      if (pay === maxPay) break;
      minPay = pay;
      minCover = cover;
    }
  }
  // search forward: 1, 1, 2, 3, 5, 8, …
  for (let d1 = 0n, d2 = 1n, d3 = 1n; ; d1 = d2, d2 = d3, d3 = d1 + d2) {
    if (matchPrice.base.amount > matchPrice.quote.amount) {
      pay += d2;
      if (pay >= c.collateral) return c.debt;
      cover = times(amount(pay, col), matchPrice).amount;
      if (cover >= c.debt) return c.debt;
      pay = timesUp(amount(cover, c.debtAsset), matchPrice).amount;
      if (pay >= c.collateral) return c.debt;
    } else {
      cover += d2;
      if (cover >= c.debt) return c.debt;
      pay = timesUp(amount(cover, c.debtAsset), matchPrice).amount;
      if (pay >= c.collateral) return c.debt;
      cover = times(amount(pay, col), matchPrice).amount;
      if (cover >= c.debt) return c.debt;
    }
    if (!(pay < c.collateral && cover < c.debt)) throw new ChainError('to_pay.amount < collateral && to_cover.amount < debt: ');
    setResult(pay, cover);
    if (resultIsGood()) return cover;
  }
}

// ---- fills ----

/** asset_object::accumulate_fee: a fee in the asset itself, or (a market-issued asset) in its backing asset. */
function accumulateFee(ctx: EvalContext, asset: number, fee: Amount): void {
  if (fee.amount === 0n) return;
  const dyn = ctx.state.get([2, 3, asset]);
  const field = fee.asset === asset ? 'accumulated_fees' : 'accumulated_collateral_fees';
  dyn[field] = i64(amountOf(dyn[field]) + fee.amount);
  ctx.state.touch([2, 3, asset]);
}

function changeSupply(ctx: EvalContext, asset: number, delta: bigint): void {
  const dyn = ctx.state.get([2, 3, asset]);
  dyn.current_supply = i64(amountOf(dyn.current_supply) + delta);
  ctx.state.touch([2, 3, asset]);
}

/** database::fill_call_order; true when the position is closed (its whole debt paid). */
function fillCallOrder(ctx: EvalContext, c: CallOrder, pays: Amount, receives: Amount, fillPrice: Price, isMaker: boolean, marginCallFee: Amount, reduceCurrentSupply = true): boolean {
  if (c.debtAsset !== receives.asset) throw new ChainError('order.debt_type() == receives.asset_id: ');
  if (c.collateralAsset !== pays.asset) throw new ChainError('order.collateral_type() == pays.asset_id: ');
  if (!(c.collateral >= pays.amount)) throw new ChainError('order.collateral >= pays.amount: ');
  const debt = c.debt - receives.amount;
  let collateral = c.collateral - pays.amount;
  let freed: bigint | undefined;
  if (debt === 0n) {
    freed = collateral;
    collateral = 0n;
  }
  if (reduceCurrentSupply) changeSupply(ctx, receives.asset, -receives.amount);
  if (freed !== undefined) adjustBalance(ctx, c.borrower, c.collateralAsset, freed);
  if (pays.asset === 0) addToStatistics(ctx, c.borrower, 'total_core_in_orders', -(pays.amount + (freed ?? 0n)));
  accumulateFee(ctx, receives.asset, marginCallFee);
  emit(
    ctx,
    [4, { fee: amountJson(marginCallFee), order_id: `1.8.${c.instance}`, account_id: `1.2.${c.borrower}`, pays: amountJson(pays), receives: amountJson(receives), fill_price: priceJson(fillPrice), is_maker: isMaker }],
    [c.borrower],
  );
  if (freed !== undefined) {
    // The object is written with its final debt and collateral before it goes (its last notice).
    c.obj.debt = 0;
    c.obj.collateral = 0;
    ctx.state.touch(c.key);
    removeCall(ctx, c);
    return true;
  }
  updateCall(ctx, c, collateral, debt);
  return false;
}

/** database::pay_force_settle_fees (BSIP87): the settled asset's share of the collateral a settlement receives. */
function payForceSettleFees(ctx: EvalContext, b: Bitasset, collateral: Amount): Amount {
  const pct = b.options.ext.force_settle_fee_percent;
  if (pct === undefined || pct === null || Number(pct) === 0) return amount(0n, collateral.asset);
  const fee = amount(calculatePercent(collateral.amount, Number(pct)), collateral.asset);
  if (fee.amount > 0n) accumulateFee(ctx, b.asset, fee);
  return fee;
}

/** database::fill_settle_order; true when the settlement is used up. */
function fillSettleOrder(ctx: EvalContext, s: Settlement, b: Bitasset, pays: Amount, receives: Amount, fillPrice: Price, isMaker: boolean, payForceSettleFee: boolean): boolean {
  const marketFees = payMarketFees(ctx, s.owner, receives, isMaker);
  const settleFees = payForceSettleFee ? payForceSettleFees(ctx, b, amount(receives.amount - marketFees.amount, receives.asset)) : amount(0n, receives.asset);
  const fees = amount(marketFees.amount + settleFees.amount, receives.asset);
  const filled = !(pays.amount < s.balance.amount);
  if (!filled) updateSettlementBalance(ctx, s, s.balance.amount - pays.amount);
  adjustBalance(ctx, s.owner, receives.asset, receives.amount - fees.amount);
  emit(
    ctx,
    [4, { fee: amountJson(fees), order_id: `1.4.${s.instance}`, account_id: `1.2.${s.owner}`, pays: amountJson(pays), receives: amountJson(receives), fill_price: priceJson(fillPrice), is_maker: isMaker }],
    [s.owner],
  );
  if (filled) removeSettlement(ctx, s);
  return filled;
}

/** database::cancel_settle_order: the balance goes back, with an asset_settle_cancel in the owner's history. */
export function cancelSettleOrder(ctx: EvalContext, s: Settlement): void {
  adjustBalance(ctx, s.owner, s.balance.asset, s.balance.amount);
  emit(ctx, [42, { fee: ZERO_FEE, settlement: `1.4.${s.instance}`, account: `1.2.${s.owner}`, amount: amountJson(s.balance) }], [s.owner]);
  removeSettlement(ctx, s);
}

// ---- a limit order against a margin call (apply_order's side) ----

/** database::match( limit_order, call_order ): the new limit order (taker) buys the position's collateral. */
export function matchLimitCall(ctx: EvalContext, bid: Order, call: CallOrder, matchPrice: Price, b: Bitasset, callPaysPrice: Price): number {
  const usdForSale = amount(bid.forSale, bid.price.base.asset);
  const usdToBuy = amount(maxDebtToCover(call, callPaysPrice, b.medianFeed.settlement, b.currentFeed.mcr, b.maintenanceCollateralization), call.debtAsset);
  let callPays: Amount;
  let callReceives: Amount;
  let orderReceives: Amount;
  let cullTaker = false;
  if (usdToBuy.amount > usdForSale.amount) {
    orderReceives = times(usdForSale, matchPrice);
    if (orderReceives.amount === 0n) return ONLY_TAKER_FILLED;
    callReceives = timesUp(orderReceives, matchPrice);
    callPays = times(callReceives, callPaysPrice);
    cullTaker = true;
  } else {
    callReceives = usdToBuy;
    orderReceives = timesUp(usdToBuy, matchPrice);
    callPays = timesUp(usdToBuy, callPaysPrice);
  }
  const orderPays = callReceives;
  if (!(callPays.amount >= orderReceives.amount)) throw new ChainError('call_pays >= order_receives: ');
  const fee = amount(callPays.amount - orderReceives.amount, callPays.asset);
  const takerFilled = fillLimitOrder(ctx, bid, orderPays, orderReceives, cullTaker, matchPrice, false);
  const makerFilled = fillCallOrder(ctx, call, callPays, callReceives, matchPrice, true, fee);
  return matchResult(takerFilled, makerFilled);
}

/**
 * The part of database::apply_order for a new order that sells a market-issued asset for its backing
 * asset: what is on the book at a better price than the margin calls first, then the margin calls,
 * least collateralized first, while their collateral ratio is at or below the maintenance ratio.
 * Returns whether the new order is gone, or undefined when margin calls do not apply to it (the
 * caller then matches the book as for any order).
 */
export function matchNewOrderWithCalls(ctx: EvalContext, instance: number, matchLimit: (maker: Order) => number): boolean | undefined {
  const order = loadOrder(ctx, instance)!;
  const sell = order.price.base.asset;
  const receive = order.price.quote.asset;
  const b = loadBitasset(ctx, sell);
  if (!b || b.options.backing !== receive || b.isPredictionMarket || isGloballySettled(b) || isNullPrice(b.currentFeed.settlement)) return undefined;
  const callMatchPrice = invert(marginCallOrderPrice(b.currentFeed, b.mcfr));
  const callPaysPrice = invert(maxShortSqueezePrice(b.currentFeed));
  if (comparePrice(invert(order.price), callMatchPrice) > 0) return undefined;
  let finished = false;
  // limit orders at a better price than the margin calls
  while (!finished) {
    const makerInstance = bestOrder(ctx, receive, sell);
    if (makerInstance === undefined) break;
    const maker = loadOrder(ctx, makerInstance)!;
    if (!(comparePrice(maker.price, callMatchPrice) > 0)) break;
    finished = matchLimit(maker) !== ONLY_MAKER_FILLED;
  }
  while (!finished) {
    const call = leastCollateralized(ctx, sell);
    if (!call || comparePrice(collateralization(call), b.maintenanceCollateralization) > 0) break;
    const result = matchLimitCall(ctx, loadOrder(ctx, instance)!, call, callMatchPrice, b, callPaysPrice);
    if (result === ONLY_TAKER_FILLED || result === BOTH_FILLED) finished = true;
  }
  return finished;
}

// ---- black swans and global settlement ----

/** database::check_for_blackswan; true when the asset is (now) globally settled. */
function checkForBlackswan(ctx: EvalContext, b: Bitasset, enableBlackSwan: boolean): boolean {
  if (isGloballySettled(b)) return true;
  if (isNullPrice(b.currentFeed.settlement)) return false;
  const debt = b.asset;
  // with force settlements waiting, margin calls are matched with them first (hardfork core-2481)
  if (settlementsOf(ctx, debt).length > 0) return false;
  const call = leastCollateralized(ctx, debt);
  if (!call) return false;
  let highest = maxShortSqueezePrice(b.currentFeed);
  const limitInstance = bestOrder(ctx, debt, b.options.backing);
  if (limitInstance !== undefined) {
    const [num, den] = marginCallPaysRatio(b.currentFeed, b.mcfr);
    const callPaysPrice = priced(() => multiplyByRatio(loadOrder(ctx, limitInstance)!.price, num, den));
    if (comparePrice(callPaysPrice, highest) > 0) highest = callPaysPrice;
  }
  const least = collateralization(call);
  if (!(comparePrice(invert(least), highest) > 0)) return false;
  if (!enableBlackSwan) throw new ChainError('enable_black_swan: Black swan was detected during a margin update which is not allowed to trigger a blackswan');
  globallySettleAsset(ctx, debt, invert(least), true);
  return true;
}

/**
 * database::globally_settle_asset: every position closed at `settlementPrice` (debt / collateral),
 * margin calls paying the squeeze premium to the asset's issuer; what they pay goes into the
 * settlement fund, and the asset settles against the fund from now on.
 */
export function globallySettleAsset(ctx: EvalContext, asset: number, settlementPrice: Price, checkMarginCalls: boolean): void {
  const b = loadBitasset(ctx, asset)!;
  if (isGloballySettled(b)) throw new ChainError('!bitasset.is_globally_settled(): black swan already occurred, it should not happen again');
  const backing = b.options.backing;
  let gathered = 0n;
  const originalSupply = amountOf(ctx.state.get([2, 3, asset]).current_supply);
  let callPaysPrice = settlementPrice;
  let fundReceivesPrice = settlementPrice;
  let isMarginCall = false;
  const calls = [...ctx.state.store.bitassetIndex.getKeys({ start: [0, asset], end: [0, asset + 1] })].map((k) => k[3] as number);
  if (checkMarginCalls) {
    fundReceivesPrice = priced(() => multiplyByRatio(settlementPrice, b.currentFeed.mssr, RATIO_DENOM));
    const first = calls[0] === undefined ? undefined : loadCall(ctx, calls[0]);
    if (first && !(comparePrice(collateralization(first), b.maintenanceCollateralization) > 0)) isMarginCall = true;
  }
  for (const instance of calls) {
    const call = loadCall(ctx, instance)!;
    if (isMarginCall && comparePrice(collateralization(call), b.maintenanceCollateralization) > 0) {
      isMarginCall = false;
      callPaysPrice = fundReceivesPrice;
    }
    const debt = amount(call.debt, asset);
    let pays = timesUp(debt, callPaysPrice);
    if (pays.amount > call.collateral) pays = amount(call.collateral, backing);
    let fee = amount(0n, backing);
    if (isMarginCall) {
      let fundReceives = timesUp(debt, fundReceivesPrice);
      if (fundReceives.amount > pays.amount) fundReceives = pays;
      fee = amount(pays.amount - fundReceives.amount, backing);
      gathered += fundReceives.amount;
    } else gathered += pays.amount;
    if (!fillCallOrder(ctx, call, pays, debt, fundReceivesPrice, true, fee, false)) throw new ChainError(`Internal error: unable to close margin call 1.8.${instance}`);
  }
  const obj = ctx.state.get(b.key);
  const ext = (obj.options as Obj).extensions as Obj | undefined;
  if (ext) delete ext.black_swan_response_method;
  obj.current_feed = structuredClone(obj.median_feed);
  obj.individual_settlement_debt = 0;
  obj.individual_settlement_fund = 0;
  obj.settlement_price = priceJson({ base: amount(originalSupply, asset), quote: amount(gathered, backing) });
  obj.settlement_fund = i64(gathered);
  ctx.state.touch(b.key);
}

// ---- collateral bids and revival ----

/** database::cancel_bid: the collateral goes back; with a virtual bid_collateral of no debt when asked. */
export function cancelBid(ctx: EvalContext, bid: Bid, createVirtualOp: boolean): void {
  const collateral = bid.invSwanPrice.base;
  adjustBalance(ctx, bid.bidder, collateral.asset, collateral.amount);
  if (createVirtualOp) {
    emit(ctx, [45, { fee: ZERO_FEE, bidder: `1.2.${bid.bidder}`, additional_collateral: amountJson(collateral), debt_covered: amountJson(amount(0n, bid.invSwanPrice.quote.asset)), extensions: [] }], [bid.bidder]);
  }
  removeBid(ctx, bid);
}

/** database::execute_bid: the bid becomes a debt position of `debtCovered` with its collateral and a share of the fund. */
function executeBid(ctx: EvalContext, bid: Bid, debtCovered: bigint, collateralFromFund: bigint): void {
  const collateralAsset = bid.invSwanPrice.base.asset;
  const debtAsset = bid.invSwanPrice.quote.asset;
  const call = createCall(ctx, bid.bidder, amount(bid.invSwanPrice.base.amount + collateralFromFund, collateralAsset), amount(debtCovered, debtAsset), undefined);
  if (collateralAsset === 0) addToStatistics(ctx, bid.bidder, 'total_core_in_orders', call.collateral);
  emit(ctx, [46, { fee: ZERO_FEE, bidder: `1.2.${bid.bidder}`, debt: amountJson(amount(debtCovered, debtAsset)), collateral: amountJson(amount(call.collateral, collateralAsset)) }], [bid.bidder]);
  removeBid(ctx, bid);
}

/** database::_cancel_bids_and_revive_mpa */
function cancelBidsAndRevive(ctx: EvalContext, b: Bitasset): void {
  for (const instance of bidsOf(ctx, b.asset)) cancelBid(ctx, loadBid(ctx, instance)!, true);
  const obj = ctx.state.get(b.key);
  obj.settlement_price = priceJson(NULL_PRICE);
  obj.settlement_fund = 0;
  ctx.state.touch(b.key);
}

/** database::revive_bitasset: the whole supply becomes one position of the issuer, backed by the whole fund. */
export function reviveBitasset(ctx: EvalContext, b: Bitasset): void {
  const supply = amountOf(ctx.state.get([2, 3, b.asset]).current_supply);
  if (supply > 0n) {
    const issuer = accountInstance(ctx, ctx.state.get([1, 3, b.asset]).issuer, 'issuer');
    const pseudo = createBid(ctx, issuer, { base: amount(0n, b.options.backing), quote: amount(supply, b.asset) });
    executeBid(ctx, pseudo, supply, b.settlementFund);
  } else if (b.settlementFund !== 0n) throw new ChainError('bad.settlement_fund == 0: ');
  cancelBidsAndRevive(ctx, reloadBitasset(ctx, b));
}

/**
 * database::process_bids: when the best bids together take the whole supply at a collateral ratio
 * above the initial collateral ratio at the current feed, each becomes a debt position with its
 * share of the settlement fund, the other bids are cancelled, and the asset is revived.
 */
function processBids(ctx: EvalContext, b: Bitasset): void {
  if (b.isPredictionMarket || isNullPrice(b.currentFeed.settlement)) return;
  const supply = amountOf(ctx.state.get([2, 3, b.asset]).current_supply);
  if (supply === 0n) {
    cancelBidsAndRevive(ctx, b);
    return;
  }
  const bids = bidsOf(ctx, b.asset).map((i) => loadBid(ctx, i)!);
  let covered = 0n;
  let end = 0;
  while (covered < supply && end < bids.length) {
    const bid = bids[end]!;
    const debtInBid = amount(bid.invSwanPrice.quote.amount > supply ? supply : bid.invSwanPrice.quote.amount, b.asset);
    const totalCollateral = times(debtInBid, b.settlementPrice).amount + bid.invSwanPrice.base.amount;
    const cp = callPrice(debtInBid, amount(totalCollateral, b.options.backing), b.currentFeed.icr);
    if (!less(invert(cp), b.currentFeed.settlement)) break;
    covered += debtInBid.amount;
    end++;
  }
  if (covered < supply) return;
  let toCover = supply;
  let remainingFund = b.settlementFund;
  for (const bid of bids.slice(0, end)) {
    let debt = bid.invSwanPrice.quote.amount > supply ? supply : bid.invSwanPrice.quote.amount;
    let collateral = times(amount(debt, b.asset), b.settlementPrice).amount;
    if (debt >= toCover) {
      debt = toCover;
      collateral = remainingFund;
    }
    toCover -= debt;
    remainingFund -= collateral;
    executeBid(ctx, bid, debt, collateral);
  }
  if (remainingFund !== 0n) throw new ChainError('remaining_fund == 0: ');
  if (toCover !== 0n) throw new ChainError('to_cover == 0: ');
  cancelBidsAndRevive(ctx, reloadBitasset(ctx, b));
}

// ---- force settlements against margin calls ----

/**
 * database::match_impl: a settlement and a position, the position paying `matchPriceIn` (debt /
 * collateral) and the settlement receiving at `fillPriceIn`. Returns the debt the position took back.
 */
function matchSettleCall(ctx: EvalContext, settle: Settlement, call: CallOrder, b: Bitasset, matchPriceIn: Price, maxSettlement: bigint, fillPriceIn: Price, isMarginCall: boolean, settleIsTaker: boolean): bigint {
  if (!(call.debt > 0n && call.collateral > 0n && settle.balance.amount > 0n)) throw new ChainError('call.debt > 0 && call.collateral > 0 && settle.balance.amount > 0: ');
  const debtAsset = call.debtAsset;
  const settleForSale = settle.balance.amount < maxSettlement ? settle.balance.amount : maxSettlement;
  const callDebt = amount(call.debt, debtAsset);
  const callCollateral = amount(call.collateral, call.collateralAsset);
  let matchPrice = matchPriceIn;
  let fillPrice = fillPriceIn;
  let callReceives = amount(settleForSale < call.debt ? settleForSale : call.debt, debtAsset);
  let callPays = times(callReceives, matchPrice);
  let settleReceives = callPays;
  let settlePays = callReceives;
  let cullSettleOrder = false;
  if (callPays.amount === 0n) {
    if (callReceives.amount === call.debt) {
      callPays = amount(1n, callPays.asset);
      settleReceives = amount(1n, callPays.asset);
    } else if (callReceives.amount === settle.balance.amount) {
      cancelSettleOrder(ctx, settle);
      return 0n;
    } else if (!isMarginCall) {
      return 0n;
    } else {
      callPays = amount(1n, callPays.asset);
      settleReceives = amount(1n, callPays.asset);
    }
  } else {
    const [num, den] = marginCallPaysRatio(b.currentFeed, b.mcfr);
    if (callReceives.amount === call.debt) {
      callPays = timesUp(callReceives, matchPrice);
      if (isMarginCall) {
        if (callPays.amount > call.collateral) {
          callPays = callCollateral;
          matchPrice = { base: callDebt, quote: callCollateral };
          fillPrice = priced(() => divideByRatio(matchPrice, num, den));
        }
        settleReceives = timesUp(callReceives, fillPrice);
      } else settleReceives = callPays;
    } else {
      if (!isMarginCall) {
        callReceives = timesUp(callPays, matchPrice);
      } else if (settlePays.amount === maxSettlement) {
        callPays = timesUp(callReceives, matchPrice);
        settleReceives = timesUp(callReceives, fillPrice);
      } else {
        const calculate = (): void => {
          settleReceives = times(settlePays, fillPrice);
          if (settleReceives.amount !== 0n) {
            callReceives = timesUp(settleReceives, fillPrice);
            callPays = times(callReceives, matchPrice);
          }
        };
        calculate();
        if (settleReceives.amount === 0n) {
          cancelSettleOrder(ctx, settle);
          return 0n;
        }
        let capPrice = false;
        if (callPays.amount >= call.collateral) capPrice = true;
        else {
          const newCollateral = call.collateral - callPays.amount;
          const newDebt = call.debt - callReceives.amount;
          if (comparePrice({ base: amount(newCollateral, call.collateralAsset), quote: amount(newDebt, debtAsset) }, collateralization(call)) < 0) capPrice = true;
        }
        if (capPrice) {
          matchPrice = { base: callDebt, quote: callCollateral };
          fillPrice = priced(() => divideByRatio(matchPrice, num, den));
          calculate();
          if (settleReceives.amount === 0n) {
            cancelSettleOrder(ctx, settle);
            return 0n;
          }
        }
      }
      if (settlePays.amount === settle.balance.amount && callReceives.amount !== settle.balance.amount) cullSettleOrder = true;
      settlePays = callReceives;
    }
  }
  const marginCallFee = amount(callPays.amount - settleReceives.amount, callPays.asset);
  fillCallOrder(ctx, call, callPays, callReceives, fillPrice, settleIsTaker, marginCallFee);
  fillSettleOrder(ctx, settle, b, settlePays, settleReceives, fillPrice, !settleIsTaker, !isMarginCall);
  if (cullSettleOrder) {
    const left = loadSettlement(ctx, settle.instance);
    if (left) cancelSettleOrder(ctx, left);
  }
  return callReceives.amount;
}

/** database::apply_force_settlement: a new settlement taken at once by positions in margin call territory. */
export function applyForceSettlement(ctx: EvalContext, settlement: Settlement, bitasset: Bitasset): void {
  const b = bitasset;
  const { callMatchPrice, callPaysPrice } = callParams(b);
  for (;;) {
    const settle = loadSettlement(ctx, settlement.instance);
    if (!settle) return;
    const call = leastCollateralized(ctx, b.asset);
    if (!call || comparePrice(collateralization(call), b.maintenanceCollateralization) > 0) return;
    const maxDebt = maxDebtToCover(call, callPaysPrice, b.medianFeed.settlement, b.currentFeed.mcr, b.maintenanceCollateralization);
    matchSettleCall(ctx, settle, call, b, callPaysPrice, maxDebt, callMatchPrice, true, true);
  }
}

/** database::match_force_settlements: waiting settlements take positions in margin call territory. */
function matchForceSettlements(ctx: EvalContext, b: Bitasset): boolean {
  const { callMatchPrice, callPaysPrice } = callParams(b);
  for (;;) {
    const settleInstance = settlementsOf(ctx, b.asset)[0];
    const call = leastCollateralized(ctx, b.asset);
    if (settleInstance === undefined || !call) return false;
    if (comparePrice(b.maintenanceCollateralization, collateralization(call)) < 0) return false;
    const maxDebt = maxDebtToCover(call, callPaysPrice, b.medianFeed.settlement, b.currentFeed.mcr, b.maintenanceCollateralization);
    const result = matchSettleCall(ctx, loadSettlement(ctx, settleInstance)!, call, b, callPaysPrice, maxDebt, callMatchPrice, true, false);
    if (result > 0n) return true;
  }
}

// ---- check_call_orders ----

/**
 * database::check_call_orders: the positions at or below the maintenance collateral ratio, least
 * collateralized first, filled against the best limit orders that buy their collateral at or above
 * the margin call order price, then against waiting force settlements; a position that cannot pay
 * is a black swan. True when any margin call was executed.
 */
export function checkCallOrders(ctx: EvalContext, asset: number, enableBlackSwan: boolean, _forNewLimitOrder = false, skipMatchingSettleOrders = false): boolean {
  const first = loadBitasset(ctx, asset);
  if (!first || first.isPredictionMarket) return false;
  if (checkForBlackswan(ctx, first, enableBlackSwan)) return false;
  if (isNullPrice(first.currentFeed.settlement)) return false;
  const backing = first.options.backing;
  let marginCalled = false;
  for (;;) {
    const b = reloadBitasset(ctx, first);
    if (!leastCollateralized(ctx, asset)) return marginCalled;
    checkForBlackswan(ctx, b, enableBlackSwan);
    if (isGloballySettled(reloadBitasset(ctx, b))) return marginCalled;
    const call = leastCollateralized(ctx, asset)!;
    if (less(b.maintenanceCollateralization, collateralization(call))) return marginCalled;
    const mcop = marginCallOrderPrice(b.currentFeed, b.mcfr);
    const limitInstance = bestOrder(ctx, asset, backing);
    const limit = limitInstance === undefined ? undefined : loadOrder(ctx, limitInstance)!;
    if (limit && !less(limit.price, mcop)) {
      const matchPrice = limit.price;
      marginCalled = true;
      const [num, den] = marginCallPaysRatio(b.currentFeed, b.mcfr);
      const callPaysPrice = priced(() => multiplyByRatio(matchPrice, num, den));
      const usdToBuy = amount(maxDebtToCover(call, callPaysPrice, b.medianFeed.settlement, b.currentFeed.mcr, b.maintenanceCollateralization), asset);
      const usdForSale = amount(limit.forSale, asset);
      let callPays: Amount;
      let callReceives: Amount;
      let limitReceives: Amount;
      let undercollateralized = false;
      if (usdToBuy.amount > usdForSale.amount) {
        limitReceives = times(usdForSale, matchPrice);
        callReceives = timesUp(limitReceives, matchPrice);
        callPays = times(callReceives, callPaysPrice);
        if (callPays.amount >= call.collateral) undercollateralized = true;
        else {
          const newColl = amount(call.collateral - callPays.amount, backing);
          const newDebt = amount(call.debt - callReceives.amount, asset);
          if (less({ base: newColl, quote: newDebt }, collateralization(call))) undercollateralized = true;
        }
      } else {
        callReceives = usdToBuy;
        callPays = timesUp(usdToBuy, callPaysPrice);
        if (callPays.amount > call.collateral) undercollateralized = true;
        limitReceives = timesUp(usdToBuy, matchPrice);
      }
      if (!undercollateralized) {
        const limitPays = callReceives;
        if (!(callPays.amount >= limitReceives.amount)) throw new ChainError('call_pays >= limit_receives: ');
        const fee = amount(callPays.amount - limitReceives.amount, backing);
        fillCallOrder(ctx, call, callPays, callReceives, matchPrice, false, fee);
        fillLimitOrder(ctx, limit, limitPays, limitReceives, true, matchPrice, true);
        continue;
      }
    }
    if (skipMatchingSettleOrders) return marginCalled;
    if (settlementsOf(ctx, asset).length === 0) return marginCalled;
    // No more settlements, or the feed protects the next position: the next round returns.
    if (matchForceSettlements(ctx, b)) marginCalled = true;
  }
}

// ---- call_order_update (op 3) ----

/** call_order_update_evaluator: borrow, repay, add or take back collateral, or close a debt position. */
export function callOrderUpdate(ctx: EvalContext, op: Obj): Evaluated {
  // call_order_update_operation::validate
  const fee = feeOf(ctx, op.fee);
  const deltaCollateral = { amount: amountOf((op.delta_collateral as Obj | undefined)?.amount), asset: instanceOfAsset(op.delta_collateral) };
  const deltaDebt = { amount: amountOf((op.delta_debt as Obj | undefined)?.amount), asset: instanceOfAsset(op.delta_debt) };
  if (deltaCollateral.asset === deltaDebt.asset) throw new ChainError('delta_collateral.asset_id != delta_debt.asset_id: ');
  if (deltaCollateral.amount === 0n && deltaDebt.amount === 0n) throw new ChainError('delta_collateral.amount != 0 || delta_debt.amount != 0: ');
  const tcrValue = ((op.extensions ?? {}) as Obj).target_collateral_ratio;
  const tcr = tcrValue === undefined || tcrValue === null ? undefined : Number(tcrValue);

  // do_evaluate
  const payer = accountInstance(ctx, op.funding_account, 'funding_account');
  if (!ctx.state.exists([1, 3, deltaDebt.asset])) throw new ChainError(`maybe_found != nullptr: Unable to find Object 1.3.${deltaDebt.asset}`);
  const debtAsset = ctx.state.get([1, 3, deltaDebt.asset]);
  const b = loadBitasset(ctx, deltaDebt.asset);
  if (!b) throw new ChainError(`_debt_asset->is_market_issued(): Unable to cover ${String(debtAsset.symbol)} as it is not a collateralized asset.`);
  const flags = Number((debtAsset.options as Obj).flags ?? 0);
  if (deltaDebt.amount > 0n && (flags & 0x400) !== 0) throw new ChainError('o.delta_debt.amount <= 0 || _debt_asset->can_create_new_supply(): Can not create new supply');
  const supply = amountOf(ctx.state.get([2, 3, deltaDebt.asset]).current_supply);
  if (!(supply + deltaDebt.amount <= amountOf((debtAsset.options as Obj).max_supply))) throw new ChainError('_dynamic_data_obj->current_supply + o.delta_debt.amount <= _debt_asset->options.max_supply: Borrowing this quantity would exceed MAX_SUPPLY');
  if (!(supply + deltaDebt.amount >= 0n)) throw new ChainError('_dynamic_data_obj->current_supply + o.delta_debt.amount >= 0: This transaction would bring current supply below zero.');
  if (isGloballySettled(b)) throw new ChainError('!_bitasset_data->is_globally_settled(): Cannot update debt position when the asset has been globally settled');
  if (deltaCollateral.asset !== b.options.backing) throw new ChainError('o.delta_collateral.asset_id == _bitasset_data->options.short_backing_asset: Collateral asset type should be same as backing asset of debt asset');
  let call = callOf(ctx, payer, deltaDebt.asset);
  let newCollateral = 0n;
  let newDebt = 0n;
  let closing = false;
  if (call) {
    newCollateral = call.collateral + deltaCollateral.amount;
    newDebt = call.debt + deltaDebt.amount;
    if (newDebt === 0n) {
      if (newCollateral !== 0n) throw new ChainError('new_collateral == 0: Should claim all collateral when closing debt position');
      closing = true;
    } else if (!(newCollateral > 0n && newDebt > 0n)) {
      throw new ChainError('new_collateral > 0 && new_debt > 0: Both collateral and debt should be positive after updated a debt position if not to close it');
    }
  } else {
    if (!(deltaCollateral.amount > 0n)) throw new ChainError('o.delta_collateral.amount > 0: Delta collateral amount of new debt position should be positive');
    if (!(deltaDebt.amount > 0n)) throw new ChainError('o.delta_debt.amount > 0: Delta debt amount of new debt position should be positive');
  }
  if (b.isPredictionMarket) {
    if (deltaCollateral.amount !== deltaDebt.amount) throw new ChainError('o.delta_collateral.amount == o.delta_debt.amount: Debt amount and collateral amount should be same when updating debt position in a prediction market');
  } else if (isNullPrice(b.currentFeed.settlement) && !closing) throw new ChainError('Cannot borrow asset with no price feed.');
  if (!isAuthorizedAsset(ctx, payer, debtAsset)) throw new ChainError('is_authorized_asset( d, *fee_paying_account, *_debt_asset ): The account is not allowed to transact the debt asset');
  if (!isAuthorizedAsset(ctx, payer, ctx.state.get([1, 3, b.options.backing]))) throw new ChainError('is_authorized_asset( d, *fee_paying_account, _bitasset_data->options.short_backing_asset(d) ): The account is not allowed to transact the collateral asset');
  // generic_evaluator: the fee is counted as paid before do_apply
  countFee(ctx, payer, fee.amount);

  // do_apply
  if (deltaDebt.amount !== 0n) {
    adjustBalance(ctx, payer, deltaDebt.asset, deltaDebt.amount);
    changeSupply(ctx, deltaDebt.asset, deltaDebt.amount);
  }
  if (deltaCollateral.amount !== 0n) {
    adjustBalance(ctx, payer, deltaCollateral.asset, -deltaCollateral.amount);
    if (deltaCollateral.asset === 0) addToStatistics(ctx, payer, 'total_core_in_orders', deltaCollateral.amount);
  }
  const impacted = [payer];
  if (closing) {
    const id = `1.8.${call!.instance}`;
    removeCall(ctx, call!);
    adjustBalance(ctx, payer, fee.asset, -fee.amount);
    return { result: [1, id], impacted };
  }
  let oldCollateralization: Price | undefined;
  let oldDebt: bigint | undefined;
  if (!call) call = createCall(ctx, payer, deltaCollateral, deltaDebt, tcr);
  else {
    oldCollateralization = collateralization(call);
    oldDebt = call.debt;
    call = updateCall(ctx, call, newCollateral, newDebt, tcr ?? null);
  }
  const id = `1.8.${call.instance}`;
  if (!b.isPredictionMarket) {
    const callCollateralization = collateralization(call);
    const increasingCr = oldCollateralization !== undefined && call.debt <= oldDebt! && comparePrice(callCollateralization, oldCollateralization) > 0;
    if (!(increasingCr || comparePrice(callCollateralization, invert(maxShortSqueezePrice(b.medianFeed))) >= 0)) {
      throw new ChainError(
        'increasing_cr || call_collateralization >= ~( _bitasset_data->median_feed.max_short_squeeze_price() ): Could not create a debt position which would trigger a blackswan event instantly, unless it is to increase collateral ratio of an existing debt position and is not increasing its debt amount',
      );
    }
    const calledSome = checkCallOrders(ctx, deltaDebt.asset, false, false);
    const after = loadCall(ctx, call.instance);
    const bNow = loadBitasset(ctx, deltaDebt.asset)!;
    if (calledSome) {
      if (!(!after || increasingCr || comparePrice(collateralization(after), bNow.initialCollateralization) > 0)) {
        throw new ChainError(
          '!call_ptr || increasing_cr || call_ptr->collateralization() > _bitasset_data->current_initial_collateralization: Could not create a debt position which would trigger a margin call instantly, unless the debt position is fully filled, or it is to increase collateral ratio of an existing debt position and is not increasing its debt amount, or the remaining debt position\'s collateral ratio is above required initial collateral ratio (ICR)',
        );
      }
    } else {
      if (!after) throw new ChainError('call_ptr: no margin call was executed and yet the call object was deleted');
      if (!(increasingCr || comparePrice(callCollateralization, bNow.initialCollateralization) > 0)) {
        throw new ChainError(
          'ok: Can only increase collateral ratio without increasing debt when the debt position\'s collateral ratio is lower than or equal to required initial collateral ratio (ICR), if not to trigger a margin call immediately',
        );
      }
    }
  }
  // generic_evaluator: the fee leaves the balance after do_apply
  adjustBalance(ctx, payer, fee.asset, -fee.amount);
  return { result: [1, id], impacted };
}

function instanceOfAsset(v: unknown): number {
  const id = (v as Obj | undefined)?.asset_id;
  const m = /^1\.3\.(\d+)$/.exec(String(id));
  if (!m) throw new ChainError(`asset_id is not a 1.3.x id: ${String(id)}`);
  return Number(m[1]);
}

// ---- the end of a block ----

/** database::clear_expired_force_settlements: settlements past their date, against the least collateralized positions. */
export function clearExpiredForceSettlements(ctx: EvalContext): void {
  const head = ctx.blockTime;
  for (const asset of allBitassets(ctx)) {
    let finished = false;
    let maxVolume: bigint | undefined;
    for (;;) {
      const instance = settlementsOf(ctx, asset)[0];
      if (instance === undefined) break;
      const settle = loadSettlement(ctx, instance)!;
      const b = loadBitasset(ctx, asset)!;
      if (isGloballySettled(b)) {
        cancelSettleOrder(ctx, settle);
        continue;
      }
      if (settle.date > head) break;
      if (isNullPrice(b.currentFeed.settlement)) {
        cancelSettleOrder(ctx, settle);
        continue;
      }
      if (b.options.settlementOffset === 10000) {
        cancelSettleOrder(ctx, settle);
        continue;
      }
      maxVolume ??= maxForceSettlementVolume(b, amountOf(ctx.state.get([2, 3, asset]).current_supply));
      if (b.forceSettledVolume >= maxVolume || finished) break;
      const fillPrice = priced(() => divideByRatio(b.currentFeed.settlement, 10000 - b.options.settlementOffset, 10000));
      let settled = b.forceSettledVolume;
      while (settled < maxVolume && loadSettlement(ctx, instance)) {
        const s = loadSettlement(ctx, instance)!;
        if (s.balance.amount === 0n) {
          cancelSettleOrder(ctx, s);
          break;
        }
        const call = leastCollateralized(ctx, asset);
        if (!call) {
          cancelSettleOrder(ctx, s);
          break;
        }
        const newSettled = matchSettleCall(ctx, s, call, reloadBitasset(ctx, b), fillPrice, maxVolume - settled, fillPrice, false, true);
        if (newSettled === 0n) {
          finished = loadSettlement(ctx, instance) !== undefined;
          break;
        }
        settled += newSettled;
      }
      const now = reloadBitasset(ctx, b);
      if (now.forceSettledVolume !== settled) {
        now.obj.force_settled_volume = i64(settled);
        ctx.state.touch(now.key);
      }
    }
  }
}

const marginParamsEqual = (a: Feed, b: Feed): boolean => priceEquals(a.settlement, b.settlement) && a.mcr === b.mcr && a.mssr === b.mssr;

/** database::update_expired_feeds and update_core_exchange_rates: feeds past their lifetime leave the median. */
export function updateExpiredFeeds(ctx: EvalContext): void {
  const head = ctx.blockTime;
  // by_feed_expiration (asset_object.hpp): the feed that expired first first, then by asset id; each
  // asset's margin calls are done before the next asset's feed is updated.
  const expiration = (b: Bitasset): number => parseFcTime(String(b.obj.current_feed_publication_time)) + b.options.feedLifetime;
  const expired = allBitassets(ctx)
    .map((asset) => loadBitasset(ctx, asset)!)
    .filter((b) => expiration(b) <= head)
    .sort((x, y) => expiration(x) - expiration(y) || x.asset - y.asset);
  for (const expiredBitasset of expired) {
    const asset = expiredBitasset.asset;
    let b = loadBitasset(ctx, asset)!;
    const oldCurrent = b.currentFeed;
    const oldMedian = b.medianFeed;
    b = updateBitassetCurrentFeed({ ...ctx, headTime: head }, b, false);
    if (!isNullPrice(b.currentFeed.settlement) && !marginParamsEqual(b.currentFeed, oldCurrent)) checkCallOrders(ctx, asset, true, false);
    else if (!isNullPrice(b.medianFeed.settlement) && !marginParamsEqual(b.medianFeed, oldMedian)) checkCallOrders(ctx, asset, true, false);
    updateCoreExchangeRate(ctx, reloadBitasset(ctx, b));
  }
  // update_core_exchange_rates: the other assets whose rate changed
  for (const asset of allBitassets(ctx)) updateCoreExchangeRate(ctx, loadBitasset(ctx, asset)!);
}

/** A bitasset whose CER changed (by a feed or by its issuer) gives its asset the current feed's CER. */
function updateCoreExchangeRate(ctx: EvalContext, b: Bitasset): void {
  const need = (b.obj.feed_cer_updated === true || b.obj.asset_cer_updated === true) && !isNullPrice(b.currentFeed.cer);
  if (!need) return;
  b.obj.asset_cer_updated = false;
  b.obj.feed_cer_updated = false;
  ctx.state.touch(b.key);
  const a = ctx.state.get([1, 3, b.asset]);
  const options = a.options as Obj;
  if (!priceEquals(priceIn(options.core_exchange_rate), b.currentFeed.cer)) {
    options.core_exchange_rate = priceJson(b.currentFeed.cer);
    ctx.state.touch([1, 3, b.asset]);
  }
}

/**
 * What Core does for market-issued assets at each maintenance interval (db_maint.cpp
 * process_bitassets): the volume force-settled since the last one is reset, the feeds of a witness-
 * or committee-fed asset older than its feed lifetime are erased (hardfork core-518), and the bids on
 * globally settled assets are processed. This chain runs no maintenance interval (its
 * next_maintenance_time stays at the genesis time, see docs/api/core-compatibility.md), so it does
 * these steps at the first block at or after each multiple of the chain's maintenance_interval since
 * that time.
 */
export function bitassetMaintenance(ctx: EvalContext): void {
  const dgp = ctx.state.get([2, 1, 0]);
  const anchor = parseFcTime(String(dgp.next_maintenance_time));
  const interval = Number((ctx.state.get([2, 0, 0]).parameters as Obj).maintenance_interval ?? 86400);
  const previous = ctx.headTime ?? ctx.blockTime;
  if (!(interval > 0) || Math.floor((ctx.blockTime - anchor) / interval) <= Math.floor((previous - anchor) / interval)) return;
  const head = ctx.blockTime;
  for (const asset of allBitassets(ctx)) {
    const b = loadBitasset(ctx, asset)!;
    if (b.forceSettledVolume !== 0n) {
      b.obj.force_settled_volume = 0;
      ctx.state.touch(b.key);
    }
    // Only the feeds go: the current feed is left as it is (update_expired_feeds sees to it).
    const flags = Number((ctx.state.get([1, 3, asset]).options as Obj).flags ?? 0);
    if (b.options.feedLifetime < head && (flags & (WITNESS_FED_ASSET | COMMITTEE_FED_ASSET)) !== 0) {
      const oldest = head - b.options.feedLifetime;
      const feeds = b.obj.feeds as [string, [string, unknown]][];
      const live = feeds.filter(([, [time]]) => !(parseFcTime(time) < oldest));
      if (live.length !== feeds.length) {
        b.obj.feeds = live;
        ctx.state.touch(b.key);
      }
    }
    if (isGloballySettled(b)) processBids(ctx, reloadBitasset(ctx, b));
  }
}
