// Limit orders and what fills them, shared by the matching engine (market.ts) and the margin engine
// (margin.ts): an order's objects and indexes, market fees, fills, cancellation and culling, and the
// match of two limit orders, as db_market.cpp does them (see market.ts for the rules followed).

import { i64, parseFcTime } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import type { ObjectKey } from '../store/store.js';
import type { OperationJson } from '../protocol/types.js';
import { calculateCoreFee, type FeeScheduleJson } from '../protocol/fees.js';
import {
  addToStatistics,
  adjustBalance,
  amountOf,
  countFee,
  instanceOf,
  isAuthorizedAsset,
  priced,
  type EvalContext,
} from './ledger.js';
import {
  amountFromJson,
  amountJson,
  calculatePercent,
  multiply,
  multiplyRoundUp,
  priceJson,
  priceKey,
  type Amount,
  type Price,
} from '../protocol/price.js';

/** asset_issuer_permission_flags (protocol/types.hpp) */
const CHARGE_MARKET_FEE = 0x01;

/** Core's match_result_type */
export const ONLY_TAKER_FILLED = 1;
export const ONLY_MAKER_FILLED = 2;
export const BOTH_FILLED = 3;
/** database::get_match_result */
export const matchResult = (takerFilled: boolean, makerFilled: boolean): number => (takerFilled ? ONLY_TAKER_FILLED : 0) + (makerFilled ? ONLY_MAKER_FILLED : 0);

type Obj = Record<string, unknown>;

export interface Order {
  readonly instance: number;
  readonly key: ObjectKey;
  readonly obj: Obj;
  readonly seller: number;
  readonly forSale: bigint;
  readonly price: Price;
  readonly expiration: number;
  readonly deferredFee: bigint;
}

export const orderId = (instance: number): string => `1.7.${instance}`;


export function loadOrder(ctx: EvalContext, instance: number): Order | undefined {
  const key: ObjectKey = [1, 7, instance];
  const obj = ctx.state.find(key);
  if (!obj) return undefined;
  const deferred = obj.deferred_fee;
  return {
    instance,
    key,
    obj,
    seller: instanceOf(obj.seller, 1, 2, 'seller'),
    forSale: amountOf(obj.for_sale),
    price: { base: amountFromJson((obj.sell_price as Obj).base), quote: amountFromJson((obj.sell_price as Obj).quote) },
    expiration: parseFcTime(String(obj.expiration)),
    deferredFee: amountOf(deferred),
  };
}

/** The index entries of an order (store.ts), put or taken away. */
export function indexOrder(ctx: EvalContext, o: Order, present: boolean): void {
  const { store } = ctx.state;
  const sell = o.price.base.asset;
  const receive = o.price.quote.asset;
  const pk = priceKey(o.price);
  if (present) {
    store.orderPrices.putSync([sell, receive, pk, o.instance], 1);
    store.accountOrders.putSync([o.seller, o.instance], 1);
    store.accountOrderPrices.putSync([o.seller, sell, receive, pk, o.instance], 1);
    store.orderExpirations.putSync([o.expiration, o.instance], 1);
  } else {
    store.orderPrices.removeSync([sell, receive, pk, o.instance]);
    store.accountOrders.removeSync([o.seller, o.instance]);
    store.accountOrderPrices.removeSync([o.seller, sell, receive, pk, o.instance]);
    store.orderExpirations.removeSync([o.expiration, o.instance]);
  }
}

/** cleanup_and_remove_limit_order */
export function removeOrder(ctx: EvalContext, o: Order): void {
  indexOrder(ctx, o, false);
  ctx.state.remove(o.key);
}

/** The first order of the market selling `sell` for `receive` in by_price order: its best price, then the oldest. */
export function bestOrder(ctx: EvalContext, sell: number, receive: number): number | undefined {
  for (const k of ctx.state.store.orderPrices.getKeys({ start: [sell, receive], end: [sell, receive + 1], limit: 1 })) return k[3];
  return undefined;
}

export const emit = (ctx: EvalContext, op: OperationJson, result: [number, unknown], impacted: readonly number[]): void => {
  ctx.virtualOps?.push({ op, result, impacted });
};

export const parameters = (ctx: EvalContext): Obj => ctx.state.get([2, 0, 0]).parameters as Obj;

/** chain_parameters extensions: get_maker_fee_discount_percent(), get_market_fee_network_percent(). */
function parameterExtension(ctx: EvalContext, name: 'maker_fee_discount_percent' | 'market_fee_network_percent'): number {
  const ext = parameters(ctx).extensions as Obj | undefined;
  return Number(ext?.[name] ?? 0);
}

/** database::calculate_market_fee */
export function calculateMarketFee(asset: Obj, amount: Amount, isMaker: boolean): bigint {
  const options = asset.options as Obj;
  if ((Number(options.flags ?? 0) & CHARGE_MARKET_FEE) === 0) return 0n;
  const makerPercent = Number(options.market_fee_percent ?? 0);
  if (isMaker && makerPercent === 0) return 0n;
  const takerValue = (options.extensions as Obj | undefined)?.taker_fee_percent;
  const takerPercent = takerValue === undefined || takerValue === null ? undefined : Number(takerValue);
  if (!isMaker && takerPercent === 0) return 0n;
  const percent = isMaker ? makerPercent : (takerPercent ?? makerPercent);
  const fee = calculatePercent(amount.amount, percent);
  const max = amountOf(options.max_market_fee);
  return fee > max ? max : fee;
}

/**
 * database::pay_market_fees: the fee the receiving asset charges on what an order receives, kept as
 * the asset's accumulated fees. The two shares Core pays into vesting balances are refused.
 */
export function payMarketFees(ctx: EvalContext, seller: number, receives: Amount, isMaker: boolean): Amount {
  const asset = ctx.state.get([1, 3, receives.asset]);
  const fee = priced(() => calculateMarketFee(asset, receives, isMaker));
  if (fee > receives.amount) throw new ChainError("issuer_fees <= receives: Market fee shouldn't be greater than receives");
  if (fee > 0n) {
    const networkPercent = parameterExtension(ctx, 'market_fee_network_percent');
    if (networkPercent > 0 && calculatePercent(fee, networkPercent) > 0n) {
      throw new ChainError('market_fee_network_percent: the network share of market fees is paid into a vesting balance of committee-account, and this chain has no vesting balances');
    }
    const options = asset.options as Obj;
    const extensions = (options.extensions as Obj | undefined) ?? {};
    const rewardPercent = Number(extensions.reward_percent ?? 0);
    const sharingList = (extensions.whitelist_market_fee_sharing as string[] | undefined) ?? [];
    const registrar = String(ctx.state.get([1, 2, seller]).registrar);
    const rewardsAllowed = sharingList.length === 0 || sharingList.includes(registrar);
    if (rewardsAllowed && rewardPercent > 0 && calculatePercent(fee, rewardPercent) > 0n && isAuthorizedAsset(ctx, instanceOf(registrar, 1, 2, 'registrar'), asset)) {
      throw new ChainError(`reward_percent: asset 1.3.${receives.asset} shares its market fees with registrars, which are paid into vesting balances, and this chain has no vesting balances`);
    }
    const dyn = ctx.state.get([2, 3, receives.asset]);
    dyn.accumulated_fees = i64(amountOf(dyn.accumulated_fees) + fee);
    ctx.state.touch([2, 3, receives.asset]);
  }
  return { amount: fee, asset: receives.asset };
}

/**
 * database::cancel_limit_order: the unsold amount and the deferred fee go back to the seller. With a
 * virtual operation (expiry, and culling small orders) the cancellation fee is first taken from the
 * deferred fee, and a limit_order_cancel enters the seller's history with the refund as its result.
 */
export function cancelLimitOrder(ctx: EvalContext, o: Order, createVirtualOp: boolean): void {
  let deferredFee = o.deferredFee;
  const vop = { fee: { amount: 0 as number | string, asset_id: '1.3.0' }, fee_paying_account: `1.2.${o.seller}`, order: orderId(o.instance), extensions: [] as unknown[] };
  if (createVirtualOp && deferredFee > 0n) {
    const schedule = parameters(ctx).current_fees as FeeScheduleJson;
    let cancelFee = calculateCoreFee([2, vop], schedule);
    if (cancelFee > deferredFee) cancelFee = deferredFee;
    if (cancelFee > 0n) {
      countFee(ctx, o.seller, cancelFee);
      deferredFee -= cancelFee;
      vop.fee = { amount: i64(cancelFee), asset_id: '1.3.0' };
    }
  }
  const refunded: Amount = { amount: o.forSale, asset: o.price.base.asset };
  if (refunded.asset === 0) addToStatistics(ctx, o.seller, 'total_core_in_orders', -refunded.amount);
  adjustBalance(ctx, o.seller, refunded.asset, refunded.amount);
  // Fees are paid in the core asset on this chain, so deferred_paid_fee is always zero: the deferred
  // fee goes back to the seller, not to a fee pool.
  adjustBalance(ctx, o.seller, 0, deferredFee);
  if (createVirtualOp) emit(ctx, [2, vop], [2, amountJson(refunded)], [o.seller]);
  removeOrder(ctx, o);
}

/** maybe_cull_small_order: an order that would receive nothing for what it sells is cancelled. */
export function maybeCullSmallOrder(ctx: EvalContext, o: Order): boolean {
  const toReceive = priced(() => multiply({ amount: o.forSale, asset: o.price.base.asset }, o.price));
  if (toReceive.amount !== 0n) return false;
  cancelLimitOrder(ctx, o, true);
  return true;
}

/** database::fill_limit_order; true when the order is gone (filled, or culled as too small). */
export function fillLimitOrder(ctx: EvalContext, o: Order, pays: Amount, receives: Amount, cullIfSmall: boolean, fillPrice: Price, isMaker: boolean): boolean {
  if (pays.asset !== o.price.base.asset || pays.asset === receives.asset) throw new ChainError('order.amount_for_sale().asset_id == pays.asset_id: ');
  const issuerFees = payMarketFees(ctx, o.seller, receives, isMaker);
  // pay_order
  if (pays.asset === 0) addToStatistics(ctx, o.seller, 'total_core_in_orders', -pays.amount);
  adjustBalance(ctx, o.seller, receives.asset, receives.amount - issuerFees.amount);
  emit(
    ctx,
    [4, { fee: amountJson(issuerFees), order_id: orderId(o.instance), account_id: `1.2.${o.seller}`, pays: amountJson(pays), receives: amountJson(receives), fill_price: priceJson(fillPrice), is_maker: isMaker }],
    [0, {}],
    [o.seller],
  );
  // BSIP85: a maker gets back a share of its (core) creation fee; the rest counts as paid.
  let deferredFee = o.deferredFee;
  if (deferredFee > 0n) {
    const discount = parameterExtension(ctx, 'maker_fee_discount_percent');
    if (isMaker && discount > 0) {
      const refund = calculatePercent(deferredFee, discount);
      if (refund > 0n) {
        adjustBalance(ctx, o.seller, 0, refund);
        deferredFee -= refund;
      }
    }
    countFee(ctx, o.seller, deferredFee);
  }
  if (pays.amount === o.forSale) {
    removeOrder(ctx, o);
    return true;
  }
  o.obj.for_sale = i64(o.forSale - pays.amount);
  o.obj.filled_amount = (BigInt(String(o.obj.filled_amount ?? 0)) + pays.amount).toString();
  o.obj.deferred_fee = 0;
  (o.obj.deferred_paid_fee as Obj).amount = 0;
  ctx.state.touch(o.key);
  return cullIfSmall ? maybeCullSmallOrder(ctx, loadOrder(ctx, o.instance)!) : false;
}

/**
 * database::match_limit_normal_limit, the taker first: at the maker's price, the smaller side is
 * filled completely and the other side receives what that pays, rounded in favour of the bigger
 * order; the side left with too little to receive anything is culled.
 */
export function match(ctx: EvalContext, taker: Order, maker: Order, matchPrice: Price): number {
  const takerForSale: Amount = { amount: taker.forSale, asset: taker.price.base.asset };
  const makerForSale: Amount = { amount: maker.forSale, asset: maker.price.base.asset };
  let takerReceives: Amount;
  let makerReceives: Amount;
  let cullTaker = false;
  if (takerForSale.amount <= priced(() => multiply(makerForSale, matchPrice)).amount) {
    takerReceives = priced(() => multiply(takerForSale, matchPrice));
    // The taker, partly filled already, would pay something for nothing: it counts as filled and
    // is culled by apply_order (HARDFORK_CORE_184).
    if (takerReceives.amount === 0n) return ONLY_TAKER_FILLED;
    makerReceives = priced(() => multiplyRoundUp(takerReceives, matchPrice));
    cullTaker = true;
  } else {
    makerReceives = priced(() => multiply(makerForSale, matchPrice));
    takerReceives = priced(() => multiplyRoundUp(makerReceives, matchPrice));
  }
  const takerFilled = fillLimitOrder(ctx, taker, makerReceives, takerReceives, cullTaker, matchPrice, false);
  const makerFilled = fillLimitOrder(ctx, maker, takerReceives, makerReceives, true, matchPrice, true);
  const result = matchResult(takerFilled, makerFilled);
  if (result === 0) throw new ChainError('result != match_result_type::none_filled: ');
  return result;
}

