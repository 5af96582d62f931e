// orders_api handlers: the grouped_orders plugin's answers (api.cpp orders_api;
// libraries/plugins/grouped_orders/grouped_orders_plugin.cpp), with its default tracked groups.
//
// Core's plugin keeps the groups in memory, built when the node starts by inserting every limit
// order in id order, then changed as orders come, change and go. This node builds a market's groups
// for each call the same way from the orders the store holds now: the answer of a Core node started
// on this chain state. (A Core node running for a while can group the same orders differently,
// since its groups remember the order in which orders arrived and left.)
import { ordersApi } from '../../src/api/sets/orders.js';
import { ASSERT, FC, RpcError, assertError, fcError } from '../../src/errors.js';
import { asString, asUint32, asUint64 } from '../../src/api/params.js';
import { comparePrice, divideByRatio, multiplyByRatio, priceFromJson, priceJson, priceMax, priceMin, PERCENT_100, type Price } from '../../src/chain/protocol/price.js';
import { i64 } from '../../src/chain/fc/fc-json.js';
import { resolveAsset, type WorkerContext } from '../context.js';
import { checkMarket, orderJson, ordersOfMarket, priceArgument } from './market-reads.js';
import type { HandlersFor } from './types.js';

const FILE = 'orders_api';

/** The plugin's `tracked-groups` default: 0.1% and 1%. */
export const TRACKED_GROUPS: readonly number[] = [10, 100];

/** fc's variant type names, as `variant::get_object()` reports a wrong one. */
const variantType = (v: unknown): string =>
  Array.isArray(v) ? 'array_type' : typeof v === 'string' ? 'string_type' : typeof v === 'boolean' ? 'bool_type' : typeof v === 'number' && !Number.isInteger(v) ? 'double_type' : typeof v === 'number' && v < 0 ? 'int64_type' : 'uint64_type';

/** One limit_order_group: the group key's min_price and its data. */
interface Group {
  min: Price;
  max: Price;
  total: bigint;
}

/**
 * limit_order_group_index::object_inserted for one group, over the groups of the order's market
 * (kept in the key order of the plugin's map: min_price descending). Groups of other markets and
 * groups never meet one another there, so the market's groups alone give the same result.
 */
function insertOrder(groups: Group[], group: number, sellPrice: Price, forSale: bigint): void {
  const create = (): void => {
    const at = lowerBound(groups, sellPrice);
    groups.splice(at, 0, { min: sellPrice, max: sellPrice, total: forSale });
  };
  if (groups.length === 0) {
    create();
    return;
  }
  const max = priceMax(sellPrice.base.asset, sellPrice.quote.asset);
  const min = priceMin(sellPrice.base.asset, sellPrice.quote.asset);
  let capped = sellPrice;
  let cappedMax = false;
  let cappedMin = false;
  if (comparePrice(sellPrice, max) > 0) {
    capped = max;
    cappedMax = true;
  } else if (comparePrice(sellPrice, min) < 0) {
    capped = min;
    cappedMin = true;
  }
  const ratio = [Number(PERCENT_100) + group, Number(PERCENT_100)] as const;
  const at = lowerBound(groups, capped);
  let checkPrevious = false;
  if (at === groups.length) checkPrevious = true;
  else {
    const g = groups[at]!;
    let updateMax = false;
    if (comparePrice(capped, g.max) > 0) {
      updateMax = true;
      if (comparePrice(capped, multiplyByRatio(g.min, ratio[0], ratio[1])) > 0) checkPrevious = true;
    }
    if (!checkPrevious) {
      if (cappedMin && comparePrice(sellPrice, g.min) < 0) {
        groups.splice(at, 1);
        groups.splice(lowerBound(groups, sellPrice), 0, { min: sellPrice, max: g.max, total: forSale + g.total });
      } else {
        if (updateMax || (cappedMax && comparePrice(sellPrice, g.max) > 0)) g.max = sellPrice;
        g.total += forSale;
      }
    }
  }
  if (!checkPrevious) return;
  if (at === 0) {
    create();
    return;
  }
  const prev = groups[at - 1]!;
  if (comparePrice(capped, divideByRatio(prev.max, ratio[0], ratio[1])) < 0) create();
  else if (cappedMax && comparePrice(sellPrice, prev.min) >= 0) {
    if (comparePrice(sellPrice, prev.max) > 0) prev.max = sellPrice;
    prev.total += forSale;
  } else {
    groups.splice(at - 1, 1);
    groups.splice(lowerBound(groups, sellPrice), 0, { min: sellPrice, max: prev.max, total: forSale + prev.total });
  }
}

/** The first group whose min_price is at or below `p` (the map's lower_bound). */
function lowerBound(groups: readonly Group[], p: Price): number {
  let lo = 0;
  let hi = groups.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePrice(groups[mid]!.min, p) > 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The groups of the orders selling `base` for `quote`, built as the plugin builds them at start. */
function marketGroups(ctx: WorkerContext, base: number, quote: number, group: number): Group[] {
  const groups: Group[] = [];
  if (!TRACKED_GROUPS.includes(group)) return groups;
  const instances = [...ordersOfMarket(ctx, base, quote, Number.MAX_SAFE_INTEGER)].sort((a, b) => a - b);
  for (const i of instances) {
    const o = orderJson(ctx, i);
    insertOrder(groups, group, priceFromJson(o.sell_price), BigInt(String(o.for_sale)));
  }
  return groups;
}

export const ordersHandlers = {
  get_tracked_groups(_ctx, _params, out) {
    out.json(TRACKED_GROUPS);
  },

  get_grouped_limit_orders(ctx, [baseArg, quoteArg, groupArg, startArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    // static_cast<uint16_t>(as_uint64()), truncated as fc does
    const group = Number(BigInt.asUintN(16, asUint64(groupArg)));
    // optional<price>: null is "not set"; anything else must be an object (a price's fields default).
    if (startArg !== null && startArg !== undefined && (typeof startArg !== 'object' || Array.isArray(startArg))) {
      throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to Object', { type: variantType(startArg) }, { file: FILE, method: 'get_grouped_limit_orders' }));
    }
    const start = startArg === null || startArg === undefined ? undefined : priceArgument(startArg);
    const limit = asUint32(limitArg);
    const configured = ctx.config.apiLimits.api_limit_get_grouped_limit_orders;
    if (limit > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, { file: FILE, method: 'get_grouped_limit_orders' }));
    const b = resolveAsset(ctx, base, true)!;
    const q = resolveAsset(ctx, quote, true)!;
    checkMarket(b, q);
    let maxPrice = priceMax(b, q);
    const minPrice = priceMin(b, q);
    // std::max( std::min( max_price, *start ), min_price ), unless start is the null price (1.3.0 on both sides)
    if (start && !(start.base.asset === 0 && start.quote.asset === 0)) {
      const lower = comparePrice(start, maxPrice) < 0 ? start : maxPrice;
      maxPrice = comparePrice(lower, minPrice) < 0 ? minPrice : lower;
    }
    const result: unknown[] = [];
    for (const g of marketGroups(ctx, b, q, group)) {
      if (result.length >= limit) break;
      if (comparePrice(g.min, maxPrice) > 0 || comparePrice(g.min, minPrice) < 0) continue;
      result.push({ min_price: priceJson(g.min), max_price: priceJson(g.max), total_for_sale: i64(g.total) });
    }
    out.json(result);
  },
} satisfies HandlersFor<typeof ordersApi>;
