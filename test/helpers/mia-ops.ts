// Builders of the raw JSON of the operations on market-issued assets, in Core's reflection order
// (protocol/asset_ops.hpp, protocol/market.hpp; the packers are src/chain/protocol/pack/operations.ts),
// kept apart from src/ so the tests of the margin engine do not depend on the builders the engine
// brings. Fees start at zero: a chain built with helpers/chain.ts charges what an operation carries,
// and helpers/devnet-ops.ts fillFees sets it from the schedule for the wire.
import type { OperationJson } from '../../src/chain/protocol/types.js';

const CORE = '1.3.0';
const zero = () => ({ amount: 0, asset_id: CORE });

/** [amount, asset id] */
export type Amt = readonly [number | string, string];
const amount = ([value, asset]: Amt) => ({ amount: value, asset_id: asset });

/** The asset_options flag and permission bits (asset_ops.hpp asset_issuer_permission_flags). */
export const FLAG = {
  charge_market_fee: 0x01,
  white_list: 0x02,
  override_authority: 0x04,
  transfer_restricted: 0x08,
  disable_force_settle: 0x10,
  global_settle: 0x20,
  disable_confidential: 0x40,
  witness_fed_asset: 0x80,
  committee_fed_asset: 0x100,
  lock_max_supply: 0x200,
  disable_new_supply: 0x400,
  disable_mcr_update: 0x800,
  disable_icr_update: 0x1000,
  disable_mssr_update: 0x2000,
  disable_bsrm_update: 0x4000,
  disable_collateral_bidding: 0x8000,
} as const;

export interface BitassetOptions {
  /** seconds; GRAPHENE_DEFAULT_PRICE_FEED_LIFETIME, one day */
  feedLifetime?: number;
  minimumFeeds?: number;
  /** seconds; GRAPHENE_DEFAULT_FORCE_SETTLEMENT_DELAY, one day */
  settlementDelay?: number;
  /** in GRAPHENE_100_PERCENT (10000); default 0 */
  settlementOffset?: number;
  /** in GRAPHENE_100_PERCENT; default 2000 (20%) */
  maxSettlementVolume?: number;
  backing?: string;
  /** the extensions, in thousandths (GRAPHENE_COLLATERAL_RATIO_DENOM) where they are ratios */
  icr?: number;
  mcr?: number;
  mssr?: number;
  mcfr?: number;
  forceSettleFeePercent?: number;
  bsrm?: number;
}

/** bitasset_options with Core's defaults (asset_ops.hpp), the extensions set only where given. */
export function bitassetOptions(o: BitassetOptions = {}): Record<string, unknown> {
  const ext: Record<string, number> = {};
  if (o.icr !== undefined) ext.initial_collateral_ratio = o.icr;
  if (o.mcr !== undefined) ext.maintenance_collateral_ratio = o.mcr;
  if (o.mssr !== undefined) ext.maximum_short_squeeze_ratio = o.mssr;
  if (o.mcfr !== undefined) ext.margin_call_fee_ratio = o.mcfr;
  if (o.forceSettleFeePercent !== undefined) ext.force_settle_fee_percent = o.forceSettleFeePercent;
  if (o.bsrm !== undefined) ext.black_swan_response_method = o.bsrm;
  return {
    feed_lifetime_sec: o.feedLifetime ?? 86400,
    minimum_feeds: o.minimumFeeds ?? 1,
    force_settlement_delay_sec: o.settlementDelay ?? 86400,
    force_settlement_offset_percent: o.settlementOffset ?? 0,
    maximum_force_settlement_volume: o.maxSettlementVolume ?? 2000,
    short_backing_asset: o.backing ?? CORE,
    extensions: ext,
  };
}

export interface MiaCreate extends BitassetOptions {
  precision?: number;
  /** in GRAPHENE_100_PERCENT; Core's create_bitasset fixture uses 100 (1%) */
  marketFeePercent?: number;
  flags?: number;
  permissions?: number;
  maxSupply?: number | string;
  maxMarketFee?: number | string;
  isPredictionMarket?: boolean;
  description?: string;
}

/**
 * asset_create (10) with bitasset_opts. The defaults are those of Core's database_fixture::make_bitasset
 * (tests/common/database_fixture.cpp): a 1% market fee with charge_market_fee as flag and permission,
 * precision 5 (GRAPHENE_BLOCKCHAIN_PRECISION_DIGITS), the maximum supply, backed by the core asset, and a
 * core exchange rate of 1 new asset for 1 core. The issuer is never the witness account here, so no
 * witness_fed_asset flag: feeds come from the producers the issuer names.
 */
export function miaCreate(symbol: string, issuer: string, o: MiaCreate = {}): OperationJson {
  const flags = o.flags ?? FLAG.charge_market_fee;
  return [
    10,
    {
      fee: zero(),
      issuer,
      symbol,
      precision: o.precision ?? 5,
      common_options: {
        max_supply: o.maxSupply ?? '1000000000000000',
        market_fee_percent: o.marketFeePercent ?? 100,
        max_market_fee: o.maxMarketFee ?? '1000000000000000',
        issuer_permissions: o.permissions ?? flags,
        flags: flags & ~FLAG.global_settle,
        core_exchange_rate: { base: { amount: 1, asset_id: '1.3.1' }, quote: { amount: 1, asset_id: CORE } },
        whitelist_authorities: [],
        blacklist_authorities: [],
        whitelist_markets: [],
        blacklist_markets: [],
        description: o.description ?? '',
        extensions: {},
      },
      bitasset_opts: bitassetOptions(o),
      is_prediction_market: o.isPredictionMarket ?? false,
      extensions: [],
    },
  ];
}

/** asset_update_bitasset (12): `options` replaces the asset's bitasset options whole, as Core's operation does. */
export const updateBitasset = (issuer: string, asset: string, options: BitassetOptions): OperationJson => [12, { fee: zero(), issuer, asset_to_update: asset, new_options: bitassetOptions(options), extensions: [] }];

/** asset_update_feed_producers (13) */
export const updateFeedProducers = (issuer: string, asset: string, producers: string[]): OperationJson => [13, { fee: zero(), issuer, asset_to_update: asset, new_feed_producers: [...producers].sort(byInstance), extensions: [] }];

const byInstance = (a: string, b: string): number => Number(a.split('.')[2]) - Number(b.split('.')[2]);

export interface Feed {
  /** settlement_price: `debt` of the asset for `collateral` of the backing asset */
  debt: number;
  collateral: number;
  backing?: string;
  mcr?: number;
  mssr?: number;
  /** the core exchange rate; Core's fixture (publish_feed) uses the settlement price with the core asset as quote */
  cer?: { base: number; quote: number };
  icr?: number;
}

/**
 * asset_publish_feed (19) as Core's database_fixture::publish_feed sends it: the feed's MCR and MSSR
 * default to Core's price_feed defaults (1750, 1500), and a missing core exchange rate is the
 * settlement price with the core asset as its quote.
 */
export function publishFeed(publisher: string, asset: string, f: Feed): OperationJson {
  const cer = f.cer ?? { base: f.debt, quote: f.collateral };
  const op: Record<string, unknown> = {
    fee: zero(),
    publisher,
    asset_id: asset,
    feed: {
      settlement_price: { base: { amount: f.debt, asset_id: asset }, quote: { amount: f.collateral, asset_id: f.backing ?? CORE } },
      maintenance_collateral_ratio: f.mcr ?? 1750,
      maximum_short_squeeze_ratio: f.mssr ?? 1500,
      core_exchange_rate: { base: { amount: cer.base, asset_id: asset }, quote: { amount: cer.quote, asset_id: CORE } },
    },
    extensions: f.icr === undefined ? {} : { initial_collateral_ratio: f.icr },
  };
  return [19, op];
}

/** call_order_update (3): the deltas as given (positive borrows and locks collateral, negative repays and frees it). */
export function callOrderUpdate(account: string, deltaCollateral: Amt, deltaDebt: Amt, tcr?: number): OperationJson {
  return [3, { fee: zero(), funding_account: account, delta_collateral: amount(deltaCollateral), delta_debt: amount(deltaDebt), extensions: tcr === undefined ? {} : { target_collateral_ratio: tcr } }];
}

/** Core's database_fixture::borrow: `debt` more of the asset for `collateral` more of the backing asset. */
export const borrow = (account: string, debt: Amt, collateral: Amt, tcr?: number): OperationJson => callOrderUpdate(account, collateral, debt, tcr);

/** Core's database_fixture::cover: `debt` repaid and `collateral` taken back (both given as positive amounts). */
export const cover = (account: string, debt: Amt, collateral: Amt, tcr?: number): OperationJson => callOrderUpdate(account, [neg(collateral[0]), collateral[1]], [neg(debt[0]), debt[1]], tcr);

const neg = (v: number | string): number | string => (typeof v === 'number' ? (v === 0 ? 0 : -v) : v.startsWith('-') ? v.slice(1) : v === '0' ? v : `-${v}`);

/** asset_settle (17) */
export const settle = (account: string, what: Amt): OperationJson => [17, { fee: zero(), account, amount: amount(what), extensions: [] }];

/** asset_global_settle (18): `settle_price` is `debt` of the asset for `collateral` of the backing asset. */
export const globalSettle = (issuer: string, asset: string, debt: number, collateral: number, backing = CORE): OperationJson => [
  18,
  { fee: zero(), issuer, asset_to_settle: asset, settle_price: { base: { amount: debt, asset_id: asset }, quote: { amount: collateral, asset_id: backing } }, extensions: [] },
];

/** bid_collateral (45): `collateral` more of the backing asset for taking `debt` of the asset. */
export const bidCollateral = (bidder: string, collateral: Amt, debt: Amt): OperationJson => [45, { fee: zero(), bidder, additional_collateral: amount(collateral), debt_covered: amount(debt), extensions: [] }];

/** A price object as Core's JSON has it: `base` of one asset for `quote` of another. */
export const price = (base: number, baseAsset: string, quote: number, quoteAsset: string) => ({ base: { amount: base, asset_id: baseAsset }, quote: { amount: quote, asset_id: quoteAsset } });
