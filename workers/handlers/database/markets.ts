// database_api: Markets and feeds, as Core with the market_history plugin on a chain without limit
// orders, call orders, settlements, collateral bids or trades (src/api/unkept.ts lists these calls).
// Each keeps Core's argument conversions, lookups and limit checks in Core's order.

import { asString, asTime, asUint32 } from '../../../src/api/params.js';
import { FC, RpcError, fcError } from '../../../src/errors.js';
import type { PriceJson } from '../../../src/chain/fees.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import { answerNothing } from '../unkept-answers.js';
import { asInt64, optTyped, optU32, typed } from './arguments.js';
import { FILE, checkLimit, fail, pageLimit } from './checks.js';
import { assetSymbol, headTime } from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

/** lookup_asset_symbols({base, quote}) plus the "Invalid … asset symbol" asserts of the market calls. */
function marketAssets(ctx: WorkerContext, method: string, base: string, quote: string): [number, number] {
  const b = resolveAsset(ctx, base, false);
  const q = resolveAsset(ctx, quote, false);
  if (b === undefined) fail(method, 'assets[0]: Invalid base asset symbol: ${s}', { s: base });
  if (q === undefined) fail(method, 'assets[1]: Invalid quote asset symbol: ${s}', { s: quote });
  return [b!, q!];
}

export const marketHandlers = {
  get_order_book(ctx, [baseArg, quoteArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    checkLimit('get_order_book', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_order_book);
    marketAssets(ctx, 'get_order_book', base, quote);
    out.json({ base, quote, bids: [], asks: [] });
  },

  get_limit_orders(ctx, [a, b, limitArg], out) {
    const sa = asString(a);
    const sb = asString(b);
    checkLimit('get_limit_orders', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_limit_orders);
    resolveAsset(ctx, sa, true);
    resolveAsset(ctx, sb, true);
    answerNothing(out, 'database', 'get_limit_orders');
  },

  get_limit_orders_by_account(ctx, [nameOrId, limitArg, startArg], out) {
    const name = asString(nameOrId);
    const limit = optU32(limitArg);
    optTyped(1, 7)(startArg);
    pageLimit('get_limit_orders_by_account', limit, ctx.config.apiLimits.api_limit_get_limit_orders_by_account);
    resolveAccount(ctx, name, true);
    answerNothing(out, 'database', 'get_limit_orders_by_account');
  },

  get_account_limit_orders(ctx, [nameOrId, baseArg, quoteArg, limitArg, startIdArg, startPriceArg], out) {
    const name = asString(nameOrId);
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const limit = asUint32(limitArg);
    const startId = optTyped(1, 7)(startIdArg);
    const startPrice = startPriceArg === null || startPriceArg === undefined ? undefined : (startPriceArg as PriceJson);
    checkLimit('get_account_limit_orders', limit, ctx.config.apiLimits.api_limit_get_account_limit_orders);
    resolveAccount(ctx, name, true);
    const [b, q] = marketAssets(ctx, 'get_account_limit_orders', base, quote);
    if (startPrice) {
      if (String(startPrice.base?.asset_id) !== `1.3.${b}`) fail('get_account_limit_orders', 'ostart_price->base.asset_id == base_id: Base asset inconsistent with start price');
      if (String(startPrice.quote?.asset_id) !== `1.3.${q}`) fail('get_account_limit_orders', 'ostart_price->quote.asset_id == quote_id: Quote asset inconsistent with start price');
    }
    if (startId && !startPrice) {
      // The start order cannot exist (there are no orders), and no start price was given.
      throw new RpcError(fcError(FC.unspecified, 'Order id invalid (maybe just been canceled?), and start price not provided', {}, { file: FILE, method: 'get_account_limit_orders' }));
    }
    answerNothing(out, 'database', 'get_account_limit_orders');
  },

  get_call_orders(ctx, [a, limitArg], out) {
    const s = asString(a);
    checkLimit('get_call_orders', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_call_orders);
    resolveAsset(ctx, s, true);
    // Core reads the asset's bitasset data here; this chain has no market-issued assets.
    fail('get_call_orders', 'mia->is_market_issued(): Asset is not a MPA');
  },

  get_call_orders_by_account(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 3)(startArg);
    checkLimit('get_call_orders_by_account', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_call_orders);
    resolveAccount(ctx, name, true);
    answerNothing(out, 'database', 'get_call_orders_by_account');
  },

  get_settle_orders(ctx, [a, limitArg], out) {
    const s = asString(a);
    checkLimit('get_settle_orders', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_settle_orders);
    resolveAsset(ctx, s, true);
    answerNothing(out, 'database', 'get_settle_orders');
  },

  get_settle_orders_by_account(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 4)(startArg);
    checkLimit('get_settle_orders_by_account', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_settle_orders);
    resolveAccount(ctx, name, true);
    answerNothing(out, 'database', 'get_settle_orders_by_account');
  },

  get_margin_positions(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    answerNothing(out, 'database', 'get_margin_positions');
  },

  get_collateral_bids(ctx, [assetArg, limitArg, startArg], out) {
    const s = asString(assetArg);
    const limit = asUint32(limitArg);
    asUint32(startArg);
    checkLimit('get_collateral_bids', limit, ctx.config.apiLimits.api_limit_get_collateral_bids);
    resolveAsset(ctx, s, true);
    // Core refuses any asset that is not market-issued; this chain has none.
    fail('get_collateral_bids', 'swan.is_market_issued(): Asset is not a MPA');
  },

  get_ticker(ctx, [baseArg, quoteArg], out) {
    const [b, q] = marketAssets(ctx, 'get_ticker', asString(baseArg), asString(quoteArg));
    // market_ticker(now, base, quote): the empty ticker of a market without trades.
    out.json({
      time: headTime(ctx),
      base: assetSymbol(ctx, b),
      quote: assetSymbol(ctx, q),
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
    });
  },

  get_24_volume(ctx, [baseArg, quoteArg], out) {
    const [b, q] = marketAssets(ctx, 'get_24_volume', asString(baseArg), asString(quoteArg));
    out.json({ time: headTime(ctx), base: assetSymbol(ctx, b), quote: assetSymbol(ctx, q), base_volume: '0', quote_volume: '0' });
  },

  get_top_markets(ctx, [limitArg], out) {
    checkLimit('get_top_markets', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_top_markets);
    answerNothing(out, 'database', 'get_top_markets');
  },

  get_trade_history(ctx, [baseArg, quoteArg, startArg, stopArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    asTime(startArg);
    asTime(stopArg);
    checkLimit('get_trade_history', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_trade_history);
    marketAssets(ctx, 'get_trade_history', base, quote);
    answerNothing(out, 'database', 'get_trade_history');
  },

  get_trade_history_by_sequence(ctx, [baseArg, quoteArg, startArg, stopArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const start = asInt64(startArg);
    asTime(stopArg);
    checkLimit('get_trade_history_by_sequence', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_trade_history_by_sequence);
    if (start < 0n) fail('get_trade_history_by_sequence', 'start >= 0: ');
    marketAssets(ctx, 'get_trade_history_by_sequence', base, quote);
    answerNothing(out, 'database', 'get_trade_history_by_sequence');
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
