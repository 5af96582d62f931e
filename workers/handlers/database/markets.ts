// database_api: Markets and feeds, as Core answers them with the market_history plugin
// (database_api.cpp, api_objects.cpp, util.cpp), from the limit orders and the plugin's objects in
// the store (workers/handlers/market-reads.ts), and the debt positions, force settlements and
// collateral bids of market-issued assets from the bitasset index (store-reads.ts). Each call keeps
// Core's argument conversions, lookups and limit checks in Core's order.

import { asString, asTime, asUint32 } from '../../../src/api/params.js';
import { FC, RpcError, fcError } from '../../../src/errors.js';
import { parseFcTime } from '../../../src/chain/fc/fc-json.js';
import { marketPriceToString, priceFromJson, priceKey, amountFromJson, amountToString, type Price } from '../../../src/chain/protocol/price.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import type { ReplyWriter } from '../../reply-writer.js';
import {
  accountMarketOrders,
  assetInfo,
  checkMarket,
  limitOrderInstances,
  marketTicker,
  orderBook,
  priceArgument,
  tickerOf,
  tickersByVolume,
  type AssetInfo,
  type OrderBook,
} from '../market-reads.js';
import { asInt64, optTyped, optU32 } from './arguments.js';
import { FILE, byAccountStartLimit, captureAndRethrow, checkLimit, fail, pageLimit } from './checks.js';
import {
  bidsByPrice,
  bitassetDataOf,
  callsByBorrower,
  callsByCollateral,
  headTime,
  isMarketIssued,
  mustParse,
  parseObject,
  settlementsByExpiration,
  settlementsByOwner,
  writeInstances,
  type AssetObject,
} from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';
import { idInstance } from '../../../src/chain/fc/object-id.js';
import { BOOK_CACHE_ENTRIES } from '../../../src/tuning.js';

/** lookup_asset_symbols({base, quote}) plus the "Invalid … asset symbol" asserts of the market calls. */
function marketAssets(ctx: WorkerContext, method: string, base: string, quote: string): [AssetInfo, AssetInfo] {
  const b = resolveAsset(ctx, base, false);
  const q = resolveAsset(ctx, quote, false);
  if (b === undefined) fail(method, 'assets[0]: Invalid base asset symbol: ${s}', { s: base });
  if (q === undefined) fail(method, 'assets[1]: Invalid quote asset symbol: ${s}', { s: quote });
  return [assetInfo(ctx, b!), assetInfo(ctx, q!)];
}

interface CachedBook {
  readonly book: OrderBook;
  /** the book as get_order_book writes it, made at its first get_order_book */
  json?: Uint8Array;
}

/** The books of one store's one snapshot (a process may read several stores: tests, tools). */
const books: { store: unknown; snapshot: number; byKey: Map<string, CachedBook> } = { store: undefined, snapshot: -1, byKey: new Map() };

/**
 * database_api_impl::get_order_book, which the ticker calls use too: its checks and lookups each time,
 * in Core's order, and the book itself from this snapshot's cache when it was built before (callers
 * must not change it). Without a snapshot (tools that read a store directly), built each time.
 */
function getOrderBook(ctx: WorkerContext, base: string, quote: string, limit: number): CachedBook {
  checkLimit('get_order_book', limit, ctx.config.apiLimits.api_limit_get_order_book);
  const [b, q] = marketAssets(ctx, 'get_order_book', base, quote);
  // The helper get_limit_orders(asset_id, asset_id, limit) checks its own limit.
  checkLimit('get_limit_orders', limit, ctx.config.apiLimits.api_limit_get_limit_orders);
  const build = (): CachedBook => ({ book: orderBook(ctx, base, quote, b, q, limitOrderInstances(ctx, b.instance, q.instance, limit)) });
  if (ctx.snapshot === undefined) return build();
  if (books.store !== ctx.store || books.snapshot !== ctx.snapshot) {
    books.store = ctx.store;
    books.snapshot = ctx.snapshot;
    books.byKey.clear();
  }
  // The base and quote as given: the book echoes them.
  const key = `${limit} ${base} ${quote}`;
  let cached = books.byKey.get(key);
  if (!cached) {
    cached = build();
    // Full: start afresh rather than keep track of which book is oldest.
    if (books.byKey.size >= BOOK_CACHE_ENTRIES) books.byKey.clear();
    books.byKey.set(key, cached);
  }
  return cached;
}

const writeOrders = (ctx: WorkerContext, out: ReplyWriter, instances: Iterable<number>): void => writeInstances(ctx, out, [1, 7], instances);

/** An optional<price> argument: null or absent is "not set"; a price's missing members keep their defaults. */
const optPrice = (v: unknown): Price | undefined => (v === null || v === undefined ? undefined : priceArgument(v));

/** The trades of a market, each fill pair once, as get_trade_history and get_trade_history_by_sequence build them. */
interface Fill {
  n: number;
  time: number;
  obj: { key: { sequence: number }; time: string; op: { account_id: string; pays: unknown; receives: unknown; fill_price: unknown; is_maker: boolean } };
}

function readFill(ctx: WorkerContext, n: number, instance: number): Fill {
  const obj = parseObject<Fill['obj']>(ctx, [5, 0, instance])!;
  return { n, time: 0, obj };
}

/** market_trade of one fill, with the other side's fill when it follows (same time, the other role). */
function marketTrade(fill: Fill, other: Fill | undefined, base: AssetInfo, quote: AssetInfo): Record<string, unknown> {
  const trade = { sequence: 0 as number | string, date: fill.obj.time, price: '', amount: '', value: '', type: '', side1_account_id: '1.2.3', side2_account_id: '1.2.3' };
  const pays = amountFromJson(fill.obj.op.pays);
  const receives = amountFromJson(fill.obj.op.receives);
  if (receives.asset === base.instance) {
    trade.amount = amountToString(pays.amount, quote.precision);
    trade.value = amountToString(receives.amount, base.precision);
  } else {
    trade.amount = amountToString(receives.amount, quote.precision);
    trade.value = amountToString(pays.amount, base.precision);
  }
  trade.price = marketPriceToString(priceFromJson(fill.obj.op.fill_price), base, quote);
  const side = (f: Fill): void => {
    if (f.obj.op.is_maker) {
      trade.sequence = -f.obj.key.sequence;
      trade.side1_account_id = f.obj.op.account_id;
      trade.type = amountFromJson(f.obj.op.receives).asset === base.instance ? 'sell' : 'buy';
    } else trade.side2_account_id = f.obj.op.account_id;
  };
  side(fill);
  if (other) side(other);
  return trade;
}

/**
 * Walks a market's fills newest first from `entries` (n descending, which is Core's by_market_time
 * and by_key order within a market), pairing each fill with the next when that is the same trade's
 * other side, until `limit` trades or a fill older than `stop`.
 */
function collectTrades(entries: Iterator<Fill>, stop: number, limit: number, base: AssetInfo, quote: AssetInfo, skipSequence?: number): Record<string, unknown>[] {
  const trades: Record<string, unknown>[] = [];
  let current = entries.next();
  while (!current.done && trades.length < limit) {
    const fill = current.value;
    if (fill.time < stop) break;
    let next = entries.next();
    const pairs = !next.done && next.value.time === fill.time && next.value.obj.op.is_maker !== fill.obj.op.is_maker;
    if (fill.obj.key.sequence !== skipSequence) trades.push(marketTrade(fill, pairs ? next.value : undefined, base, quote));
    if (pairs) next = entries.next();
    current = next;
  }
  return trades;
}

export const marketHandlers = {
  get_order_book(ctx, [baseArg, quoteArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const limit = asUint32(limitArg);
    const cached = getOrderBook(ctx, base, quote, limit);
    cached.json ??= Buffer.from(JSON.stringify(cached.book));
    out.raw(cached.json);
  },

  get_limit_orders(ctx, [a, b, limitArg], out) {
    const sa = asString(a);
    const sb = asString(b);
    const limit = asUint32(limitArg);
    checkLimit('get_limit_orders', limit, ctx.config.apiLimits.api_limit_get_limit_orders);
    const ia = resolveAsset(ctx, sa, true)!;
    const ib = resolveAsset(ctx, sb, true)!;
    writeOrders(ctx, out, limitOrderInstances(ctx, ia, ib, limit));
  },

  get_limit_orders_by_account(ctx, [nameOrId, limitArg, startArg], out) {
    const name = asString(nameOrId);
    const olimit = optU32(limitArg);
    const start = optTyped(1, 7)(startArg)?.instance ?? 0;
    const limit = olimit ?? ctx.config.apiLimits.api_limit_get_limit_orders_by_account;
    pageLimit('get_limit_orders_by_account', limit, ctx.config.apiLimits.api_limit_get_limit_orders_by_account);
    const account = resolveAccount(ctx, name, true)!;
    const found: number[] = [];
    if (limit > 0) for (const [, i] of ctx.store.accountOrders.getKeys({ start: [account, start], end: [account + 1], limit })) found.push(i);
    writeOrders(ctx, out, found);
  },

  get_account_limit_orders(ctx, [nameOrId, baseArg, quoteArg, limitArg, startIdArg, startPriceArg], out) {
    const name = asString(nameOrId);
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const limit = asUint32(limitArg);
    const startId = optTyped(1, 7)(startIdArg);
    const startPrice = optPrice(startPriceArg);
    checkLimit('get_account_limit_orders', limit, ctx.config.apiLimits.api_limit_get_account_limit_orders);
    const account = resolveAccount(ctx, name, true)!;
    const [b, q] = marketAssets(ctx, 'get_account_limit_orders', base, quote);
    if (startPrice) {
      if (startPrice.base.asset !== b.instance) fail('get_account_limit_orders', 'ostart_price->base.asset_id == base_id: Base asset inconsistent with start price');
      if (startPrice.quote.asset !== q.instance) fail('get_account_limit_orders', 'ostart_price->quote.asset_id == quote_id: Quote asset inconsistent with start price');
    }
    // Where the page starts in (account, price descending, id): the first page, an order (or where
    // it was, by its price), or a price.
    let from: (number | string)[];
    if (!startId && !startPrice) {
      checkMarket(b.instance, q.instance);
      from = [];
    } else if (startId) {
      const o = parseObject<{ seller: string; sell_price: unknown }>(ctx, [1, 7, startId.instance]);
      if (!o) {
        if (!startPrice) throw new RpcError(fcError(FC.unspecified, 'Order id invalid (maybe just been canceled?), and start price not provided', {}, { file: FILE, method: 'get_account_limit_orders' }));
        from = [priceKey(startPrice), startId.instance];
      } else {
        const p = priceFromJson(o.sell_price);
        if (p.base.asset !== b.instance) fail('get_account_limit_orders', 'loo.sell_price.base.asset_id == base_id: Order base asset inconsistent');
        if (p.quote.asset !== q.instance) fail('get_account_limit_orders', 'loo.sell_price.quote.asset_id == quote_id: Order quote asset inconsistent with order');
        if (o.seller !== `1.2.${account}`) fail('get_account_limit_orders', 'loo.seller == account->get_id(): Order not owned by specified account');
        from = [priceKey(p), startId.instance];
      }
    } else from = [priceKey(startPrice!)];
    checkMarket(b.instance, q.instance);
    const found: number[] = [];
    if (limit > 0) {
      for (const i of accountMarketOrders(ctx, account, b.instance, q.instance, from)) {
        found.push(i);
        if (found.length >= limit) break;
      }
    }
    writeOrders(ctx, out, found);
  },

  get_call_orders(ctx, [a, limitArg], out) {
    const s = asString(a);
    const limit = asUint32(limitArg);
    checkLimit('get_call_orders', limit, ctx.config.apiLimits.api_limit_get_call_orders);
    const mia = resolveAsset(ctx, s, true)!;
    bitassetDataOf(ctx, mia);
    // by_collateral from price::min(backing, asset) to price::max(backing, asset): the asset's debt
    // positions, whose collateral is always its backing asset (that may change only while nothing is owed).
    writeInstances(ctx, out, [1, 8], callsByCollateral(ctx, mia, limit));
  },

  get_call_orders_by_account(ctx, [nameOrId, startArg, limitArg], out) {
    const [account, start] = byAccountStartLimit(ctx, 'get_call_orders_by_account', [1, 3], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_call_orders);
    writeInstances(ctx, out, [1, 8], callsByBorrower(ctx, account, start, asUint32(limitArg)));
  },

  get_settle_orders(ctx, [a, limitArg], out) {
    const s = asString(a);
    const limit = asUint32(limitArg);
    checkLimit('get_settle_orders', limit, ctx.config.apiLimits.api_limit_get_settle_orders);
    // Any asset: one that is not market-issued has no settlements.
    writeInstances(ctx, out, [1, 4], settlementsByExpiration(ctx, resolveAsset(ctx, s, true)!, limit));
  },

  get_settle_orders_by_account(ctx, [nameOrId, startArg, limitArg], out) {
    const [account, start] = byAccountStartLimit(ctx, 'get_settle_orders_by_account', [1, 4], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_settle_orders);
    writeInstances(ctx, out, [1, 4], settlementsByOwner(ctx, account, start, asUint32(limitArg)));
  },

  get_margin_positions(ctx, [nameOrId], out) {
    // get_call_orders_by_account(account, 1.3.0, api_limit_get_call_orders)
    const account = resolveAccount(ctx, asString(nameOrId), true)!;
    writeInstances(ctx, out, [1, 8], callsByBorrower(ctx, account, 0, ctx.config.apiLimits.api_limit_get_call_orders));
  },

  get_collateral_bids(ctx, [assetArg, limitArg, startArg], out) {
    const s = asString(assetArg);
    const limit = asUint32(limitArg);
    const skip = asUint32(startArg);
    const bids = captureAndRethrow('get_collateral_bids', { asset_id_or_symbol: s, limit, skip }, () => {
      checkLimit('get_collateral_bids', limit, ctx.config.apiLimits.api_limit_get_collateral_bids);
      const swan = resolveAsset(ctx, s, true)!;
      if (!isMarketIssued(mustParse<AssetObject>(ctx, [1, 3, swan]))) fail('get_collateral_bids', 'swan.is_market_issued(): Asset is not a MPA');
      return bidsByPrice(ctx, swan, skip, limit);
    });
    writeInstances(ctx, out, [2, 17], bids);
  },

  get_ticker(ctx, [baseArg, quoteArg], out) {
    const [b, q] = marketAssets(ctx, 'get_ticker', asString(baseArg), asString(quoteArg));
    const mto = tickerOf(ctx, b.instance, q.instance);
    out.json(marketTicker(headTime(ctx), b, q, mto, mto && getOrderBook(ctx, b.symbol, q.symbol, 1).book));
  },

  get_24_volume(ctx, [baseArg, quoteArg], out) {
    const [b, q] = marketAssets(ctx, 'get_24_volume', asString(baseArg), asString(quoteArg));
    const t = marketTicker(headTime(ctx), b, q, tickerOf(ctx, b.instance, q.instance), undefined);
    out.json({ time: t.time, base: t.base, quote: t.quote, base_volume: t.base_volume, quote_volume: t.quote_volume });
  },

  get_top_markets(ctx, [limitArg], out) {
    const limit = asUint32(limitArg);
    checkLimit('get_top_markets', limit, ctx.config.apiLimits.api_limit_get_top_markets);
    const now = headTime(ctx);
    const tickers: Record<string, unknown>[] = [];
    for (const mto of tickersByVolume(ctx)) {
      if (tickers.length >= limit) break;
      const b = assetInfo(ctx, idInstance(mto.base));
      const q = assetInfo(ctx, idInstance(mto.quote));
      tickers.push(marketTicker(now, b, q, mto, getOrderBook(ctx, b.symbol, q.symbol, 1).book));
    }
    out.json(tickers);
  },

  get_trade_history(ctx, [baseArg, quoteArg, startArg, stopArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    let start = asTime(startArg);
    const stop = asTime(stopArg);
    const limit = asUint32(limitArg);
    checkLimit('get_trade_history', limit, ctx.config.apiLimits.api_limit_get_trade_history);
    const [b, q] = marketAssets(ctx, 'get_trade_history', base, quote);
    const [lo, hi] = b.instance < q.instance ? [b.instance, q.instance] : [q.instance, b.instance];
    // A start of 1970-01-01T00:00:00 means now, by the node's clock (fc::time_point::now()).
    if (start === 0) start = Math.floor(Date.now() / 1000);
    function* fills(): Generator<Fill> {
      for (const { key, value } of ctx.store.fillTimes.getRange({ start: [lo, hi, start, Number.MAX_SAFE_INTEGER], end: [lo, hi], reverse: true })) {
        const f = readFill(ctx, key[3], value);
        f.time = key[2];
        yield f;
      }
    }
    out.json(collectTrades(fills(), stop, limit, b, q));
  },

  get_trade_history_by_sequence(ctx, [baseArg, quoteArg, startArg, stopArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const start = asInt64(startArg);
    const stop = asTime(stopArg);
    const limit = asUint32(limitArg);
    checkLimit('get_trade_history_by_sequence', limit, ctx.config.apiLimits.api_limit_get_trade_history_by_sequence);
    if (start < 0n) fail('get_trade_history_by_sequence', 'start >= 0: ');
    const [b, q] = marketAssets(ctx, 'get_trade_history_by_sequence', base, quote);
    const [lo, hi] = b.instance < q.instance ? [b.instance, q.instance] : [q.instance, b.instance];
    // lower_bound(sequence = -start) in by_key: the fills with n <= start, newest first; the fill
    // at `start` itself (and its other side) is the previous page's last and is skipped.
    const from = start > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(start);
    function* fills(): Generator<Fill> {
      for (const { key, value } of ctx.store.fillHistory.getRange({ start: [lo, hi, from], end: [lo, hi], reverse: true })) {
        const f = readFill(ctx, key[2], value);
        f.time = parseFcTime(f.obj.time);
        yield f;
      }
    }
    out.json(collectTrades(fills(), stop, limit, b, q, -from));
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
