// How the market calls read the store (database_api.cpp's market functions, api_objects.cpp,
// util.cpp): limit orders through their indexes, the order book and tickers built from them, and
// the market_history plugin's objects. Shared by database_api, history_api, orders_api and
// get_full_accounts; see src/chain/store/store.ts for the keys.
import { RpcError, assertError } from '../../src/errors.js';
import {
  amountToString,
  marketPriceToString,
  priceDiffPercentString,
  priceFromJson,
  uint128AmountToString,
  invert,
  type Price,
} from '../../src/chain/protocol/price.js';
import type { WorkerContext } from '../context.js';
import { asObjectId } from '../../src/api/params.js';
import { asInt64 } from './database/arguments.js';
import { accountName, parseObject } from './database/store-reads.js';
import { idInstance } from '../../src/chain/fc/object-id.js';

export interface AssetInfo {
  readonly instance: number;
  readonly symbol: string;
  readonly precision: number;
}

export function assetInfo(ctx: WorkerContext, instance: number): AssetInfo {
  const a = parseObject<{ symbol: string; precision: number }>(ctx, [1, 3, instance]);
  if (!a) throw new RpcError(assertError('maybe_found != nullptr: Unable to find Object ${id}', { id: `1.3.${instance}` }));
  return { instance, symbol: a.symbol, precision: a.precision };
}

/**
 * `asset / asset` (asset.cpp operator/), which price::max and price::min go through: a market of
 * one asset with itself is refused where Core builds its bounds.
 */
export function checkMarket(a: number, b: number): void {
  if (a === b) throw new RpcError(assertError('base.asset_id != quote.asset_id: ', {}, { file: 'asset', method: 'operator /' }));
}

/**
 * A price argument as fc's from_variant reads it: a missing member keeps its default (an amount of 0
 * of asset 1.3.0), and asset ids must be asset ids.
 */
export function priceArgument(v: unknown): Price {
  const side = (a: unknown) => {
    const o = (typeof a === 'object' && a !== null ? a : {}) as { amount?: unknown; asset_id?: unknown };
    return { amount: o.amount === undefined ? 0n : asInt64(o.amount), asset: o.asset_id === undefined ? 0 : asObjectId(o.asset_id, { space: 1, type: 3 }).instance };
  };
  const p = v as { base?: unknown; quote?: unknown };
  return { base: side(p.base), quote: side(p.quote) };
}

/** The orders selling `sell` for `receive`, best price first, then oldest (by_price within the market). */
export function* ordersOfMarket(ctx: WorkerContext, sell: number, receive: number, limit: number): Generator<number> {
  if (limit <= 0) return;
  for (const k of ctx.store.orderPrices.getKeys({ start: [sell, receive], end: [sell, receive + 1], limit })) yield k[3];
}

/** database_api_impl::get_limit_orders(asset_id a, asset_id b, limit): a→b orders, then b→a, up to `limit` each. */
export function limitOrderInstances(ctx: WorkerContext, a: number, b: number, limit: number): number[] {
  checkMarket(a, b);
  return [...ordersOfMarket(ctx, a, b, limit), ...ordersOfMarket(ctx, b, a, limit)];
}

/** One limit_order_object as stored. */
export interface OrderJson {
  id: string;
  expiration: string;
  seller: string;
  for_sale: number | string;
  sell_price: unknown;
}

export const orderJson = (ctx: WorkerContext, instance: number): OrderJson => parseObject<OrderJson>(ctx, [1, 7, instance])!;

export interface BookEntry {
  price: string;
  quote: string;
  base: string;
  id: string;
  owner_id: string;
  owner_name: string;
  expiration: string;
}

export interface OrderBook {
  base: string;
  quote: string;
  bids: BookEntry[];
  asks: BookEntry[];
}

/**
 * The order book of `instances` (orders of the base/quote market, as limitOrderInstances gives
 * them): bids sell the base asset, asks the quote asset; each with its price in base per quote and
 * both sides' amounts, as database_api_impl::get_order_book writes them.
 */
export function orderBook(ctx: WorkerContext, baseText: string, quoteText: string, base: AssetInfo, quote: AssetInfo, instances: readonly number[]): OrderBook {
  const book: OrderBook = { base: baseText, quote: quoteText, bids: [], asks: [] };
  for (const i of instances) {
    const o = orderJson(ctx, i);
    const p = priceFromJson(o.sell_price);
    const forSale = BigInt(String(o.for_sale));
    const other = (forSale * p.quote.amount) / p.base.amount;
    const entry = (quoteAmount: string, baseAmount: string): BookEntry => ({
      price: marketPriceToString(p, base, quote),
      quote: quoteAmount,
      base: baseAmount,
      id: o.id,
      owner_id: o.seller,
      // Kept per read snapshot: a bot polling a book asks for the same sellers until the next block.
      owner_name: accountName(ctx, o.seller),
      expiration: o.expiration,
    });
    if (p.base.asset === base.instance) book.bids.push(entry(amountToString(other, quote.precision), amountToString(forSale, base.precision)));
    else book.asks.push(entry(amountToString(forSale, quote.precision), amountToString(other, base.precision)));
  }
  return book;
}

/** market_ticker_object 5.2.x */
export interface TickerObject {
  id: string;
  base: string;
  quote: string;
  last_day_base: number | string;
  last_day_quote: number | string;
  latest_base: number | string;
  latest_quote: number | string;
  base_volume: string;
  quote_volume: string;
}

export function tickerOf(ctx: WorkerContext, a: number, b: number): TickerObject | undefined {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const t = ctx.store.tickers.get([lo, hi]);
  return t === undefined ? undefined : parseObject<TickerObject>(ctx, [5, 2, t]);
}

/** The tickers by base volume, highest first (by_volume, read from its end). */
export function* tickersByVolume(ctx: WorkerContext): Generator<TickerObject> {
  for (const [, t] of ctx.store.tickerVolumes.getKeys({ reverse: true })) yield parseObject<TickerObject>(ctx, [5, 2, t])!;
}

const big = (v: unknown): bigint => BigInt(String(v));

/** market_ticker(mto, now, base, quote, orders) (api_objects.cpp), or the empty ticker without an object. */
export function marketTicker(now: string, base: AssetInfo, quote: AssetInfo, mto: TickerObject | undefined, book: OrderBook | undefined): Record<string, unknown> {
  const ticker: Record<string, unknown> = {
    time: now,
    base: base.symbol,
    quote: quote.symbol,
    latest: '0',
    lowest_ask: '0',
    lowest_ask_base_size: '0',
    lowest_ask_quote_size: '0',
    highest_bid: '0',
    highest_bid_base_size: '0',
    highest_bid_quote_size: '0',
    percent_change: '0',
    base_volume: '0',
    quote_volume: '0',
  };
  if (!mto) return ticker;
  const mb = idInstance(mto.base);
  const mq = idInstance(mto.quote);
  const asPrice = (b: unknown, q: unknown): Price => {
    const p: Price = { base: { amount: big(b), asset: mb }, quote: { amount: big(q), asset: mq } };
    return mb !== base.instance ? invert(p) : p;
  };
  const latest = asPrice(mto.latest_base, mto.latest_quote);
  ticker.latest = marketPriceToString(latest, base, quote);
  const ldb = big(mto.last_day_base);
  const ldq = big(mto.last_day_quote);
  if (ldb !== 0n && ldq !== 0n && (ldb !== big(mto.latest_base) || ldq !== big(mto.latest_quote))) {
    ticker.percent_change = priceDiffPercentString(asPrice(ldb, ldq), latest);
  }
  const [bv, qv] = base.instance === mb ? [big(mto.base_volume), big(mto.quote_volume)] : [big(mto.quote_volume), big(mto.base_volume)];
  ticker.base_volume = uint128AmountToString(bv, base.precision);
  ticker.quote_volume = uint128AmountToString(qv, quote.precision);
  const ask = book?.asks[0];
  if (ask) {
    ticker.lowest_ask = ask.price;
    ticker.lowest_ask_base_size = ask.base;
    ticker.lowest_ask_quote_size = ask.quote;
  }
  const bid = book?.bids[0];
  if (bid) {
    ticker.highest_bid = bid.price;
    ticker.highest_bid_base_size = bid.base;
    ticker.highest_bid_quote_size = bid.quote;
  }
  ticker.mto_id = mto.id;
  return ticker;
}

/** The account's orders in one market from a by_account_price position, in that index's order. */
export function* accountMarketOrders(ctx: WorkerContext, account: number, base: number, quote: number, from: (number | string)[]): Generator<number> {
  for (const k of ctx.store.accountOrderPrices.getKeys({ start: [account, base, quote, ...from], end: [account, base, quote + 1] })) yield k[4];
}
