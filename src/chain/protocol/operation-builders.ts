// Builders of operations in Core's JSON form (fields in reflection order), for the code that writes
// transactions itself: `generate`, the benchmark and tests. Fees start at zero; fees.ts fills them.
import type { OperationJson } from './types.js';

const ZERO = { amount: 0, asset_id: '1.3.0' };
const authority = (key: string) => ({ weight_threshold: 1, account_auths: [], key_auths: [[key, 1]], address_auths: [] });

/** account_create (5) of an account whose owner, active and memo key is `key`. */
export function accountCreateOp(name: string, key: string, registrar: string, referrer = registrar): OperationJson {
  return [
    5,
    {
      fee: { ...ZERO },
      registrar,
      referrer,
      referrer_percent: 0,
      name,
      owner: authority(key),
      active: authority(key),
      options: { memo_key: key, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] },
      extensions: {},
    },
  ];
}

/** What a price is made of in the builders: [base amount, base asset id, quote amount, quote asset id]. */
export type PriceTuple = [number | string, string, number | string, string];

const priceOf = ([b, bid, q, qid]: PriceTuple) => ({ base: { amount: b, asset_id: bid }, quote: { amount: q, asset_id: qid } });

/**
 * bitasset_options (asset_ops.hpp) with Core's defaults (a day's feed lifetime and settlement delay,
 * one feed, no offset, 20% a maintenance interval), backed by the core asset unless told.
 */
export function bitassetOptions(o: { feedLifetimeSec?: number; minimumFeeds?: number; settlementDelaySec?: number; settlementOffsetPercent?: number; maxSettlementVolume?: number; backing?: string; extensions?: Record<string, unknown> } = {}): Record<string, unknown> {
  return {
    feed_lifetime_sec: o.feedLifetimeSec ?? 86400,
    minimum_feeds: o.minimumFeeds ?? 1,
    force_settlement_delay_sec: o.settlementDelaySec ?? 86400,
    force_settlement_offset_percent: o.settlementOffsetPercent ?? 0,
    maximum_force_settlement_volume: o.maxSettlementVolume ?? 2000,
    short_backing_asset: o.backing ?? '1.3.0',
    extensions: o.extensions ?? {},
  };
}

/**
 * asset_create (10): a user-issued asset with no fees, permissions or flags, or with `bitassetOpts` a
 * market-issued one (a prediction market with `isPredictionMarket`).
 */
export function assetCreateOp(
  symbol: string,
  issuer: string,
  o: { precision?: number; maxSupply?: string | number; description?: string; issuerPermissions?: number; flags?: number; bitassetOpts?: Record<string, unknown>; isPredictionMarket?: boolean } = {},
): OperationJson {
  return [
    10,
    {
      fee: { ...ZERO },
      issuer,
      symbol,
      precision: o.precision ?? 4,
      common_options: {
        max_supply: o.maxSupply ?? '1000000000000000',
        market_fee_percent: 0,
        max_market_fee: '1000000000000000',
        issuer_permissions: o.issuerPermissions ?? 0,
        flags: o.flags ?? 0,
        core_exchange_rate: { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.1' } },
        whitelist_authorities: [],
        blacklist_authorities: [],
        whitelist_markets: [],
        blacklist_markets: [],
        description: o.description ?? '',
        extensions: [],
      },
      ...(o.bitassetOpts ? { bitasset_opts: o.bitassetOpts } : {}),
      is_prediction_market: o.isPredictionMarket ?? false,
      extensions: [],
    },
  ];
}

/** asset_update_bitasset (12): the market-issued asset's new bitasset_options. */
export function assetUpdateBitassetOp(issuer: string, asset: string, newOptions: Record<string, unknown>): OperationJson {
  return [12, { fee: { ...ZERO }, issuer, asset_to_update: asset, new_options: newOptions, extensions: [] }];
}

/** asset_update_feed_producers (13): the accounts that may publish feeds for the asset (a set: sorted here). */
export function assetUpdateFeedProducersOp(issuer: string, asset: string, producers: string[]): OperationJson {
  const sorted = [...new Set(producers)].sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
  return [13, { fee: { ...ZERO }, issuer, asset_to_update: asset, new_feed_producers: sorted, extensions: [] }];
}

/**
 * asset_publish_feed (19): a settlement price (asset / backing asset) and core exchange rate (asset /
 * core), with Core's default ratios (MCR 175%, MSSR 150%) unless told, and an ICR if given.
 */
export function assetPublishFeedOp(publisher: string, asset: string, feed: { settlement: PriceTuple; cer: PriceTuple; mcr?: number; mssr?: number; icr?: number }): OperationJson {
  return [
    19,
    {
      fee: { ...ZERO },
      publisher,
      asset_id: asset,
      feed: {
        settlement_price: priceOf(feed.settlement),
        maintenance_collateral_ratio: feed.mcr ?? 1750,
        maximum_short_squeeze_ratio: feed.mssr ?? 1500,
        core_exchange_rate: priceOf(feed.cer),
      },
      extensions: feed.icr === undefined ? {} : { initial_collateral_ratio: feed.icr },
    },
  ];
}

/** asset_settle (17): force-settle `amount` of a market-issued asset. */
export function assetSettleOp(account: string, amount: number | string, asset: string): OperationJson {
  return [17, { fee: { ...ZERO }, account, amount: { amount, asset_id: asset }, extensions: [] }];
}

/**
 * call_order_update (3) of `account`: a positive debt delta borrows and a positive collateral delta
 * locks collateral; negative ones repay and free it. `tcr` is the target collateral ratio (‰).
 */
export function callOrderUpdateOp(account: string, deltaCollateral: [number | string, string], deltaDebt: [number | string, string], tcr?: number): OperationJson {
  return [
    3,
    {
      fee: { ...ZERO },
      funding_account: account,
      delta_collateral: { amount: deltaCollateral[0], asset_id: deltaCollateral[1] },
      delta_debt: { amount: deltaDebt[0], asset_id: deltaDebt[1] },
      extensions: tcr === undefined ? {} : { target_collateral_ratio: tcr },
    },
  ];
}

/** asset_global_settle (18) of `asset` by its issuer at `settlePrice` (asset / backing asset). */
export function assetGlobalSettleOp(issuer: string, asset: string, settlePrice: PriceTuple): OperationJson {
  return [18, { fee: { ...ZERO }, issuer, asset_to_settle: asset, settle_price: priceOf(settlePrice), extensions: [] }];
}

/** bid_collateral (45): `collateral` [amount, asset id] of the backing asset for `debt` [amount, asset id] of a settled asset; a zero debt cancels the bid. */
export function bidCollateralOp(bidder: string, collateral: [number | string, string], debt: [number | string, string]): OperationJson {
  return [45, { fee: { ...ZERO }, bidder, additional_collateral: { amount: collateral[0], asset_id: collateral[1] }, debt_covered: { amount: debt[0], asset_id: debt[1] }, extensions: [] }];
}

/** transfer (0), with an optional memo. */
export function transferOp(from: string, to: string, amount: number | string, assetId = '1.3.0', memo?: Record<string, unknown>): OperationJson {
  return [0, { fee: { ...ZERO }, from, to, amount: { amount, asset_id: assetId }, ...(memo ? { memo } : {}), extensions: [] }];
}

/** asset_issue (14). */
export function assetIssueOp(issuer: string, assetId: string, to: string, amount: number | string): OperationJson {
  return [14, { fee: { ...ZERO }, issuer, asset_to_issue: { amount, asset_id: assetId }, issue_to_account: to, extensions: [] }];
}

/** limit_order_create (1): sell `amountToSell` of `sellAsset` for at least `minToReceive` of `receiveAsset`. */
export function limitOrderCreateOp(
  seller: string,
  amountToSell: number | string,
  sellAsset: string,
  minToReceive: number | string,
  receiveAsset: string,
  o: { expiration?: string; fillOrKill?: boolean } = {},
): OperationJson {
  return [
    1,
    {
      fee: { ...ZERO },
      seller,
      amount_to_sell: { amount: amountToSell, asset_id: sellAsset },
      min_to_receive: { amount: minToReceive, asset_id: receiveAsset },
      // time_point_sec::maximum(), Core's default: an order that never expires
      expiration: o.expiration ?? '2106-02-07T06:28:15',
      fill_or_kill: o.fillOrKill ?? false,
      extensions: {},
    },
  ];
}

/** limit_order_cancel (2) of `order`, by its seller. */
export function limitOrderCancelOp(seller: string, order: string): OperationJson {
  return [2, { fee: { ...ZERO }, fee_paying_account: seller, order, extensions: [] }];
}

/** custom (35): `data` as hex, e.g. a custom_operations plugin payload (account-storage.ts packStorageMap). */
export function customOp(payer: string, data: string, o: { requiredAuths?: string[]; id?: number } = {}): OperationJson {
  return [35, { fee: { ...ZERO }, payer, required_auths: o.requiredAuths ?? [], id: o.id ?? 0, data }];
}
