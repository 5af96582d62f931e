// The market_history plugin (libraries/plugins/market_history/market_history_plugin.cpp,
// update_market_histories), run by the chain writer once per block after everything else, as Core
// runs it on the applied_block signal: every fill_order of the block becomes an order history object
// (5.0.x); a maker's fill also moves its market's ticker (5.2.x) and its buckets (5.1.x); then the
// tickers lose what is older than a day (the meta object 5.3.0 remembers how far they have).
//
// The options are Core's defaults for the plugin as this node reports them
// (history_api.get_market_history_buckets): buckets of 15, 60, 300, 3600 and 86400 seconds, 1000 of
// each size kept per market, and fills kept per market while among its last 1000 or younger than
// three days. (Core 7.0 changed the defaults of `bucket-size` and `history-per-size`; this node keeps
// the ones it has always reported.)

import { fcTime, i64, parseFcTime } from '../fc/fc-json.js';
import type { ChainStore } from '../store/store.js';
import type { ChainState } from '../store/state.js';
import { amountFromJson, comparePrice, invert, priceFromJson, priceOf, type Price } from '../protocol/price.js';
import { idInstance } from '../fc/object-id.js';

/** `bucket-size` */
export const TRACKED_BUCKETS: readonly number[] = [15, 60, 300, 3600, 86400];
/** `history-per-size`: buckets kept per market and size */
export const MAX_HISTORY_PER_BUCKET_SIZE = 1000;
/** `max-order-his-records-per-market` */
export const MAX_ORDER_HIS_RECORDS_PER_MARKET = 1000;
/** `max-order-his-seconds-per-market` */
export const MAX_ORDER_HIS_SECONDS_PER_MARKET = 259200;

const DAY = 86400;
const INT64_MAX = (1n << 63n) - 1n;
const U128 = (v: bigint): bigint => BigInt.asUintN(128, v);
/** Ticker volumes (fc::uint128_t) as by_volume keys: fixed-width hex sorts as the number does. */
export const volumeKey = (v: bigint): string => v.toString(16).padStart(32, '0');

type Obj = Record<string, unknown>;

const amountOf = (v: unknown): bigint => BigInt(typeof v === 'number' ? Math.trunc(v) : String(v ?? 0));

/** fill_order_operation's fields, as the writer recorded them. */
export interface FillOrder {
  readonly order_id: string;
  readonly account_id: string;
  readonly pays: { amount: number | string; asset_id: string };
  readonly receives: { amount: number | string; asset_id: string };
  readonly fill_price: unknown;
  readonly is_maker: boolean;
}

/** trade_price = pays / receives and fill_price, both put with the market's lower asset as base. */
function tradeAndFill(o: FillOrder, base: number): { trade: Price; fill: Price } {
  let trade = priceOf(amountFromJson(o.pays), amountFromJson(o.receives));
  if (trade.base.asset !== base) trade = invert(trade);
  let fill = priceFromJson(o.fill_price);
  if (fill.base.asset > fill.quote.asset) fill = invert(fill);
  return { trade, fill };
}

/** Removes the market's order history objects with n <= `upTo` (n = -sequence). */
function removeFillsUpTo(store: ChainStore, state: ChainState, base: number, quote: number, upTo: number): void {
  const doomed: [number, number][] = [];
  for (const { key, value } of store.fillHistory.getRange({ start: [base, quote, upTo], end: [base, quote], reverse: true })) doomed.push([key[2], value]);
  for (const [n, instance] of doomed) {
    const obj = state.get([5, 0, instance]);
    store.fillHistory.removeSync([base, quote, n]);
    store.fillTimes.removeSync([base, quote, parseFcTime(String(obj.time)), n]);
    state.remove([5, 0, instance]);
  }
}

function recordFill(store: ChainStore, state: ChainState, o: FillOrder, now: number): void {
  let base = idInstance(o.pays.asset_id);
  let quote = idInstance(o.receives.asset_id);
  if (base > quote) [base, quote] = [quote, base];

  // The new fill's sequence is one below the market's newest (0 for the first): n = -sequence.
  let n = 0;
  for (const key of store.fillHistory.getKeys({ start: [base, quote, Number.MAX_SAFE_INTEGER], end: [base, quote], reverse: true, limit: 1 })) n = key[2] + 1;
  const { instance } = state.create(5, 0, (id) => ({ id, key: { base: `1.3.${base}`, quote: `1.3.${quote}`, sequence: -n }, time: fcTime(now), op: o }));
  store.fillHistory.putSync([base, quote, n], instance);
  store.fillTimes.putSync([base, quote, now, n], instance);
  if (!state.exists([5, 3, 0])) state.create(5, 3, (id) => ({ id, rolling_min_order_his_id: `5.0.${instance}`, skip_min_order_his_id: false }));

  // Old fills go once the market has more than the records kept and they are older than the seconds
  // kept: the plugin removes from whichever of the two bounds is older.
  let byCount: number | undefined;
  const keptFrom = n - MAX_ORDER_HIS_RECORDS_PER_MARKET;
  if (keptFrom >= 0) for (const key of store.fillHistory.getKeys({ start: [base, quote, keptFrom], end: [base, quote], reverse: true, limit: 1 })) byCount = key[2];
  if (byCount !== undefined) {
    const minTime = now > MAX_ORDER_HIS_SECONDS_PER_MARKET ? now - MAX_ORDER_HIS_SECONDS_PER_MARKET : 0;
    let byTime: number | undefined;
    for (const key of store.fillTimes.getKeys({ start: [base, quote, minTime, Number.MAX_SAFE_INTEGER], end: [base, quote], reverse: true, limit: 1 })) byTime = key[3];
    if (byTime !== undefined) removeFillsUpTo(store, state, base, quote, Math.min(byCount, byTime));
  }

  // Tickers and buckets follow makers' fills only.
  if (!o.is_maker) return;
  const { trade, fill } = tradeAndFill(o, base);

  const tickerInstance = store.tickers.get([base, quote]);
  if (tickerInstance === undefined) {
    const { instance: t } = state.create(5, 2, (id) => ({
      id,
      base: `1.3.${base}`,
      quote: `1.3.${quote}`,
      last_day_base: 0,
      last_day_quote: 0,
      latest_base: i64(fill.base.amount),
      latest_quote: i64(fill.quote.amount),
      base_volume: U128(trade.base.amount).toString(),
      quote_volume: U128(trade.quote.amount).toString(),
    }));
    store.tickers.putSync([base, quote], t);
    store.tickerVolumes.putSync([volumeKey(U128(trade.base.amount)), t], 1);
  } else {
    const ticker = state.get([5, 2, tickerInstance]);
    const before = BigInt(String(ticker.base_volume));
    ticker.latest_base = i64(fill.base.amount);
    ticker.latest_quote = i64(fill.quote.amount);
    ticker.base_volume = U128(before + trade.base.amount).toString();
    ticker.quote_volume = U128(BigInt(String(ticker.quote_volume)) + trade.quote.amount).toString();
    state.touch([5, 2, tickerInstance]);
    moveVolume(store, tickerInstance, before, BigInt(String(ticker.base_volume)));
  }

  for (const seconds of TRACKED_BUCKETS) {
    const bucketNum = Math.floor(now / seconds);
    const cutoff = bucketNum > MAX_HISTORY_PER_BUCKET_SIZE ? seconds * (bucketNum - MAX_HISTORY_PER_BUCKET_SIZE) : 0;
    const open = bucketNum * seconds;
    const existing = store.buckets.get([base, quote, seconds, open]);
    if (existing === undefined) {
      const { instance: b } = state.create(5, 1, (id) => ({
        id,
        key: { base: `1.3.${base}`, quote: `1.3.${quote}`, seconds, open: fcTime(open) },
        high_base: i64(fill.base.amount),
        high_quote: i64(fill.quote.amount),
        low_base: i64(fill.base.amount),
        low_quote: i64(fill.quote.amount),
        open_base: i64(fill.base.amount),
        open_quote: i64(fill.quote.amount),
        close_base: i64(fill.base.amount),
        close_quote: i64(fill.quote.amount),
        base_volume: i64(trade.base.amount),
        quote_volume: i64(trade.quote.amount),
      }));
      store.buckets.putSync([base, quote, seconds, open], b);
    } else {
      const bucket = state.get([5, 1, existing]);
      // share_type overflows are caught and the volume kept at its maximum
      const add = (v: unknown, d: bigint): number | string => {
        const sum = amountOf(v) + d;
        return i64(sum > INT64_MAX ? INT64_MAX : sum);
      };
      bucket.base_volume = add(bucket.base_volume, trade.base.amount);
      bucket.quote_volume = add(bucket.quote_volume, trade.quote.amount);
      bucket.close_base = i64(fill.base.amount);
      bucket.close_quote = i64(fill.quote.amount);
      const side = (b: unknown, q: unknown): Price => ({ base: { amount: amountOf(b), asset: base }, quote: { amount: amountOf(q), asset: quote } });
      if (comparePrice(side(bucket.high_base, bucket.high_quote), fill) < 0) {
        bucket.high_base = bucket.close_base;
        bucket.high_quote = bucket.close_quote;
      }
      if (comparePrice(side(bucket.low_base, bucket.low_quote), fill) > 0) {
        bucket.low_base = bucket.close_base;
        bucket.low_quote = bucket.close_quote;
      }
      state.touch([5, 1, existing]);
    }
    const old: [number, number][] = [];
    for (const { key, value } of store.buckets.getRange({ start: [base, quote, seconds, 0], end: [base, quote, seconds, cutoff] })) old.push([key[3], value]);
    for (const [openTime, b] of old) {
      store.buckets.removeSync([base, quote, seconds, openTime]);
      state.remove([5, 1, b]);
    }
  }
}

function moveVolume(store: ChainStore, ticker: number, before: bigint, after: bigint): void {
  if (before === after) return;
  store.tickerVolumes.removeSync([volumeKey(before), ticker]);
  store.tickerVolumes.putSync([volumeKey(after), ticker], 1);
}

/** The tickers lose the fills older than a day: their volume leaves, and their price becomes the day-old price. */
function rollOutTickers(store: ChainStore, state: ChainState, now: number): void {
  const meta = state.find([5, 3, 0]);
  if (!meta) return;
  const lastDay = now - DAY;
  const rollingMin = String(meta.rolling_min_order_his_id);
  let lastMin = rollingMin;
  let skip = meta.skip_min_order_his_id === true;
  let next: string | undefined;
  // By id from the first fill not yet rolled out (lower_bound by id: one removed since is passed
  // over), through this block's own, which the store does not hold until the block is written.
  const end = state.peekInstance(5, 0);
  for (let i = idInstance(rollingMin); i < end; i++) {
    const his = state.find([5, 0, i]);
    if (!his) continue;
    const id = `5.0.${i}`;
    if (parseFcTime(String(his.time)) >= lastDay) {
      next = id;
      break;
    }
    const o = his.op as FillOrder;
    if (skip && id === rollingMin) skip = false;
    else if (o.is_maker) {
      let base = idInstance(o.pays.asset_id);
      let quote = idInstance(o.receives.asset_id);
      if (base > quote) [base, quote] = [quote, base];
      const { trade, fill } = tradeAndFill(o, base);
      const t = store.tickers.get([base, quote]);
      if (t !== undefined) {
        const ticker = state.get([5, 2, t]);
        const before = BigInt(String(ticker.base_volume));
        ticker.last_day_base = i64(fill.base.amount);
        ticker.last_day_quote = i64(fill.quote.amount);
        ticker.base_volume = U128(before - trade.base.amount).toString();
        ticker.quote_volume = U128(BigInt(String(ticker.quote_volume)) - trade.quote.amount).toString();
        state.touch([5, 2, t]);
        moveVolume(store, t, before, BigInt(String(ticker.base_volume)));
      }
    }
    lastMin = id;
  }
  if (next !== undefined) {
    if (next !== rollingMin) {
      meta.rolling_min_order_his_id = next;
      meta.skip_min_order_his_id = false;
      state.touch([5, 3, 0]);
    }
  } else if (meta.skip_min_order_his_id !== true || lastMin !== rollingMin) {
    meta.rolling_min_order_his_id = lastMin;
    meta.skip_min_order_his_id = true;
    state.touch([5, 3, 0]);
  }
}

/** update_market_histories for one block: its fills in the order they happened, at the block's time. */
export function updateMarketHistories(store: ChainStore, state: ChainState, fills: readonly FillOrder[], blockTime: number): void {
  for (const o of fills) recordFill(store, state, o, blockTime);
  rollOutTickers(store, state, blockTime);
}
