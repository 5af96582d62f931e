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
// The order primitives (objects, indexes, fills, market fees, cancellation) are in limit-orders.ts;
// margin calls, which a new order selling a market-issued asset for its backing asset meets on the
// book, are the margin engine's (margin.ts). Settled-debt orders (individual settlement) do not arise
// on this chain, which runs only the global-settlement response to a black swan; take-profit orders
// (`on_fill`) and market fees that pay into vesting balances (the network's share and the registrar
// rewards of fee sharing) need objects this chain does not keep, and are refused.

import { fcTime, i64, parseFcTime } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { accountInstance, addToStatistics, adjustBalance, assetInstance, balanceOf, countFee, feeOf, instanceOf, isAuthorizedAsset, type EvalContext, type Evaluated } from './ledger.js';
import { amountFromJson, amountJson, comparePrice, invert, priceJson, type Amount, type Price } from '../protocol/price.js';
import { bestOrder, cancelLimitOrder, indexOrder, loadOrder, match, ONLY_MAKER_FILLED, orderId, maybeCullSmallOrder } from './limit-orders.js';
import { matchNewOrderWithCalls } from './margin.js';

type Obj = Record<string, unknown>;

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
  // An order buying a market-issued asset's collateral meets the margin calls too (margin.ts).
  let finished = matchNewOrderWithCalls(ctx, instance, (maker) => match(ctx, loadOrder(ctx, instance)!, maker, maker.price)) ?? false;
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
