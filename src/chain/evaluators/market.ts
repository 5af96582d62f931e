// Limit orders on assets without collateral (the core asset and user-issued assets), as BitShares
// Core evaluates and matches them today, every hardfork of the rules below having passed:
//
//  - limit_order_create (op 1) and limit_order_cancel (op 2): market_evaluator.cpp;
//  - apply_order, match (match_limit_normal_limit), fill_limit_order, maybe_cull_small_order,
//    cancel_limit_order, pay_market_fees: db_market.cpp;
//  - clear_expired_orders: db_update.cpp, at the end of every block;
//  - the amounts and prices: price.ts (protocol/asset.cpp).
//
// Orders are 1.7.x objects (market_object.hpp, limit_order_object, in its reflection order) with
// the indexes of store.ts. The order creation fee is deferred into the order as Core defers it
// (HARDFORK_445): charged to the seller's balance at once, counted as paid at the first fill, and
// given back, less the cancellation fee, when the order is cancelled or expires.
//
// What needs collateral is not here, and refuses honestly rather than pretending: this chain has no
// market-issued assets, so margin calls, settlements and settled-debt orders cannot arise; take-profit
// orders (`on_fill`) and market fees that pay into vesting balances (the network's share and the
// registrar rewards of fee sharing) need objects this chain does not keep, and are refused.

import { fcTime, i64, parseFcTime } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import type { ObjectKey } from '../store/store.js';
import type { OperationJson } from '../protocol/types.js';
import { calculateCoreFee, type FeeScheduleJson } from '../protocol/fees.js';
import {
  accountInstance,
  addToStatistics,
  adjustBalance,
  amountOf,
  assetInstance,
  balanceOf,
  countFee,
  feeOf,
  instanceOf,
  isAuthorizedAsset,
  type EvalContext,
  type Evaluated,
} from './ledger.js';
import {
  amountFromJson,
  amountJson,
  calculatePercent,
  comparePrice,
  invert,
  multiply,
  multiplyRoundUp,
  PriceError,
  priceJson,
  priceKey,
  type Amount,
  type Price,
} from '../protocol/price.js';

/** asset_issuer_permission_flags (protocol/types.hpp) */
const CHARGE_MARKET_FEE = 0x01;

/** Core's match_result_type */
const ONLY_TAKER_FILLED = 1;
const ONLY_MAKER_FILLED = 2;

type Obj = Record<string, unknown>;

interface Order {
  readonly instance: number;
  readonly key: ObjectKey;
  readonly obj: Obj;
  readonly seller: number;
  readonly forSale: bigint;
  readonly price: Price;
  readonly expiration: number;
  readonly deferredFee: bigint;
}

const orderId = (instance: number): string => `1.7.${instance}`;

/** Price arithmetic failures are chain errors of the operation that caused them. */
function priced<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof PriceError) throw new ChainError(err.message);
    throw err;
  }
}

function loadOrder(ctx: EvalContext, instance: number): Order | undefined {
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
function indexOrder(ctx: EvalContext, o: Order, present: boolean): void {
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
function removeOrder(ctx: EvalContext, o: Order): void {
  indexOrder(ctx, o, false);
  ctx.state.remove(o.key);
}

/** The first order of the market selling `sell` for `receive` in by_price order: its best price, then the oldest. */
function bestOrder(ctx: EvalContext, sell: number, receive: number): number | undefined {
  for (const k of ctx.state.store.orderPrices.getKeys({ start: [sell, receive], end: [sell, receive + 1], limit: 1 })) return k[3];
  return undefined;
}

const emit = (ctx: EvalContext, op: OperationJson, result: [number, unknown], impacted: readonly number[]): void => {
  ctx.virtualOps?.push({ op, result, impacted });
};

const parameters = (ctx: EvalContext): Obj => ctx.state.get([2, 0, 0]).parameters as Obj;

/** chain_parameters extensions: get_maker_fee_discount_percent(), get_market_fee_network_percent(). */
function parameterExtension(ctx: EvalContext, name: 'maker_fee_discount_percent' | 'market_fee_network_percent'): number {
  const ext = parameters(ctx).extensions as Obj | undefined;
  return Number(ext?.[name] ?? 0);
}

/** database::calculate_market_fee */
function calculateMarketFee(asset: Obj, amount: Amount, isMaker: boolean): bigint {
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
function cancelLimitOrder(ctx: EvalContext, o: Order, createVirtualOp: boolean): void {
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
function maybeCullSmallOrder(ctx: EvalContext, o: Order): boolean {
  const toReceive = priced(() => multiply({ amount: o.forSale, asset: o.price.base.asset }, o.price));
  if (toReceive.amount !== 0n) return false;
  cancelLimitOrder(ctx, o, true);
  return true;
}

/** database::fill_limit_order; true when the order is gone (filled, or culled as too small). */
function fillLimitOrder(ctx: EvalContext, o: Order, pays: Amount, receives: Amount, cullIfSmall: boolean, fillPrice: Price, isMaker: boolean): boolean {
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
function match(ctx: EvalContext, taker: Order, maker: Order, matchPrice: Price): number {
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
  const result = (makerFilled ? ONLY_MAKER_FILLED : 0) + (takerFilled ? ONLY_TAKER_FILLED : 0);
  if (result === 0) throw new ChainError('result != match_result_type::none_filled: ');
  return result;
}

/**
 * database::apply_order: a new order at the front of its side of the book is matched against the
 * other side, best price first, while that price is at least as good as it asks. True when the new
 * order is gone (filled, or culled as too small to receive anything).
 */
function applyOrder(ctx: EvalContext, instance: number): boolean {
  const order = loadOrder(ctx, instance)!;
  const sell = order.price.base.asset;
  const receive = order.price.quote.asset;
  if (bestOrder(ctx, sell, receive) !== instance) return false;
  const maxPrice = invert(order.price);
  let finished = false;
  while (!finished) {
    const makerInstance = bestOrder(ctx, receive, sell);
    if (makerInstance === undefined) break;
    const maker = loadOrder(ctx, makerInstance)!;
    if (comparePrice(maker.price, maxPrice) < 0) break;
    finished = match(ctx, loadOrder(ctx, instance)!, maker, maker.price) !== ONLY_MAKER_FILLED;
  }
  const left = loadOrder(ctx, instance);
  return left === undefined ? true : maybeCullSmallOrder(ctx, left);
}

// ---- evaluators ----

/** limit_order_create_evaluator: do_evaluate, then do_apply, then the fee taken from the balance. */
export function limitOrderCreate(ctx: EvalContext, op: Obj): Evaluated {
  // limit_order_create_operation::validate
  const sellAmount = amountFromJson(op.amount_to_sell);
  const receiveAmount = amountFromJson(op.min_to_receive);
  const fee = feeOf(ctx, op.fee);
  // The validator admits core fees only; a deferred fee in another asset would need its fee pool.
  if (fee.asset !== 0) throw new ChainError('fee.asset_id == asset_id_type(): fees are paid in the core asset on this chain');
  if (sellAmount.asset === receiveAmount.asset) throw new ChainError('amount_to_sell.asset_id != min_to_receive.asset_id: ');
  if (!(sellAmount.amount > 0n)) throw new ChainError('amount_to_sell.amount > 0: ');
  if (!(receiveAmount.amount > 0n)) throw new ChainError('min_to_receive.amount > 0: ');
  const onFill = (op.extensions as Obj | undefined)?.on_fill;
  if (onFill !== undefined && onFill !== null) throw new ChainError('on_fill: take-profit orders (the on_fill extension) are not supported on this chain');

  // do_evaluate
  const seller = accountInstance(ctx, op.seller, 'seller');
  const expiration = parseFcTime(String(op.expiration));
  const head = ctx.headTime ?? ctx.blockTime;
  if (!(expiration >= head)) throw new ChainError(`op.expiration >= d.head_block_time(): the order expires at ${String(op.expiration)}, before the head block time ${fcTime(head)}`);
  const sell = assetInstance(ctx, (op.amount_to_sell as Obj | undefined)?.asset_id, 'amount_to_sell.asset_id');
  const receive = assetInstance(ctx, (op.min_to_receive as Obj | undefined)?.asset_id, 'min_to_receive.asset_id');
  const sellAsset = ctx.state.get([1, 3, sell]);
  const receiveAsset = ctx.state.get([1, 3, receive]);
  const sellOptions = sellAsset.options as Obj;
  const whitelist = (sellOptions.whitelist_markets as string[] | undefined) ?? [];
  if (whitelist.length > 0 && !whitelist.includes(`1.3.${receive}`)) throw new ChainError('_sell_asset->options.whitelist_markets.find(_receive_asset->get_id()) != end: This market has not been whitelisted by the selling asset');
  const blacklist = (sellOptions.blacklist_markets as string[] | undefined) ?? [];
  if (blacklist.includes(`1.3.${receive}`)) throw new ChainError('_sell_asset->options.blacklist_markets.find(_receive_asset->get_id()) == end: This market has been blacklisted by the selling asset');
  if (!isAuthorizedAsset(ctx, seller, sellAsset)) throw new ChainError('is_authorized_asset( d, *_seller, *_sell_asset ): The account is not allowed to transact the selling asset');
  if (!isAuthorizedAsset(ctx, seller, receiveAsset)) throw new ChainError('is_authorized_asset( d, *_seller, *_receive_asset ): The account is not allowed to transact the receiving asset');
  const balance = balanceOf(ctx, seller, sell);
  if (balance < sellAmount.amount) {
    const name = String(ctx.state.get([1, 2, seller]).name);
    throw new ChainError(`d.get_balance( *_seller, *_sell_asset ) >= op.amount_to_sell: insufficient balance: ${name}'s balance of ${balance} of asset 1.3.${sell} is less than the ${sellAmount.amount} to sell`);
  }

  // do_apply (the fee is deferred into the order: pay_fee after HARDFORK_445)
  if (sell === 0) addToStatistics(ctx, seller, 'total_core_in_orders', sellAmount.amount);
  adjustBalance(ctx, seller, sell, -sellAmount.amount);
  const sellPrice: Price = { base: sellAmount, quote: receiveAmount };
  const { instance } = ctx.state.create(1, 7, (id) => ({
    id,
    expiration: fcTime(expiration),
    seller: `1.2.${seller}`,
    for_sale: i64(sellAmount.amount),
    sell_price: priceJson(sellPrice),
    filled_amount: '0',
    deferred_fee: i64(fee.amount),
    deferred_paid_fee: { amount: 0, asset_id: '1.3.0' },
    is_settled_debt: false,
    on_fill: [],
  }));
  indexOrder(ctx, loadOrder(ctx, instance)!, true);
  const filled = applyOrder(ctx, instance);
  if (op.fill_or_kill === true && !filled) throw new ChainError(`!op.fill_or_kill || filled: Killing limit order ${JSON.stringify(op)} due to unable to fill`);
  // generic_evaluator: the fee leaves the balance after do_apply
  adjustBalance(ctx, seller, fee.asset, -fee.amount);
  return { result: [1, orderId(instance)], impacted: [seller] };
}

/** limit_order_cancel_evaluator: the order's owner takes back what it has not sold, and its deferred fee. */
export function limitOrderCancel(ctx: EvalContext, op: Obj): Evaluated {
  const fee = feeOf(ctx, op.fee);
  const payer = accountInstance(ctx, op.fee_paying_account, 'fee_paying_account');
  const orderInstance = instanceOf(op.order, 1, 7, 'order');
  const order = loadOrder(ctx, orderInstance);
  if (!order) throw new ChainError(`_order != nullptr: Limit order ${orderId(orderInstance)} does not exist`);
  if (order.seller !== payer) throw new ChainError(`_order->seller == o.fee_paying_account: Limit order ${orderId(orderInstance)} is owned by someone else`);
  countFee(ctx, payer, fee.amount);
  const refunded: Amount = { amount: order.forSale, asset: order.price.base.asset };
  cancelLimitOrder(ctx, order, false);
  adjustBalance(ctx, payer, fee.asset, -fee.amount);
  return { result: [2, amountJson(refunded)], impacted: [payer] };
}

/**
 * database::clear_expired_orders, at the end of a block: every order whose expiration is at or
 * before the block time is cancelled, oldest expiration first, with a virtual limit_order_cancel.
 */
export function clearExpiredOrders(ctx: EvalContext): void {
  const expired: number[] = [];
  for (const [, instance] of ctx.state.store.orderExpirations.getKeys({ start: [0], end: [ctx.blockTime + 1] })) expired.push(instance);
  for (const instance of expired) {
    const order = loadOrder(ctx, instance);
    if (order) cancelLimitOrder(ctx, order, true);
  }
}
