// The operations of market-issued assets (smartcoins and prediction markets), as BitShares Core 7.0
// evaluates them today, every hardfork of the rules below having passed:
//
//  - asset_create (10) with bitasset_opts: what asset_create_operation::validate and
//    asset_create_evaluator check of them, and the bitasset data (2.4.x) do_apply creates;
//  - their validate() and bitasset_options::validate: protocol/asset_ops.cpp.
//
// One response to a black swan is run here: global settlement (black_swan_response_method 0, the
// default). The other three (no_settlement, individual_settlement_to_fund and _to_order) are refused
// by name wherever an operation would set one.

import { ChainError } from './chain-error.js';
import { instanceOf, type EvalContext } from './ledger.js';
import { ASSET_FLAGS, isMarketIssued } from './asset-ops.js';
import { bitassetDataObject, BSRM, indexBitasset, loadBitasset, MAX_COLLATERAL_RATIO, MIN_COLLATERAL_RATIO } from './bitasset-data.js';

type Obj = Record<string, unknown>;

const F = ASSET_FLAGS;
/** GRAPHENE_100_PERCENT */
const PERCENT_100 = 10000;
/** GRAPHENE_COMMITTEE_ACCOUNT */
const COMMITTEE_ACCOUNT = 0;
/** bitasset_options::black_swan_response_type::BSRM_TYPE_COUNT */
const BSRM_TYPE_COUNT = 4;
const BSRM_NAMES = Object.fromEntries(Object.entries(BSRM).map(([name, value]) => [value, name])) as Record<number, string>;

const fail = (text: string): never => {
  throw new ChainError(text);
};

const optional = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

const parameters = (ctx: EvalContext): Obj => ctx.state.get([2, 0, 0]).parameters as Obj;

/** object_database::get of an asset or account the operation names: refused as Core refuses a missing object. */
function mustExist(ctx: EvalContext, space: number, type: number, instance: number): Obj {
  const obj = ctx.state.find([space, type, instance]);
  if (!obj) fail(`maybe_found != nullptr: Unable to find Object ${space}.${type}.${instance}`);
  return obj!;
}

// ---- bitasset_options ----

const EXTENSION_NAMES = ['initial_collateral_ratio', 'maintenance_collateral_ratio', 'maximum_short_squeeze_ratio', 'margin_call_fee_ratio', 'force_settle_fee_percent', 'black_swan_response_method'] as const;

/** bitasset_options as Core reflects it: its members in order, the extensions' set members in theirs. */
export function bitassetOptionsJson(o: Obj): Obj {
  const ext = (o.extensions ?? {}) as Obj;
  const extensions: Obj = {};
  for (const name of EXTENSION_NAMES) if (optional(ext[name]) !== undefined) extensions[name] = Number(ext[name]);
  return {
    feed_lifetime_sec: Number(o.feed_lifetime_sec ?? 86400),
    minimum_feeds: Number(o.minimum_feeds ?? 1),
    force_settlement_delay_sec: Number(o.force_settlement_delay_sec ?? 86400),
    force_settlement_offset_percent: Number(o.force_settlement_offset_percent ?? 0),
    maximum_force_settlement_volume: Number(o.maximum_force_settlement_volume ?? 2000),
    short_backing_asset: `1.3.${instanceOf(o.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset')}`,
    extensions,
  };
}

/** bitasset_options::validate (protocol/asset_ops.cpp) */
export function validateBitassetOptions(o: Obj): void {
  if (!(Number(o.minimum_feeds ?? 1) > 0)) fail('minimum_feeds > 0: ');
  if (!(Number(o.force_settlement_offset_percent ?? 0) <= PERCENT_100)) fail('force_settlement_offset_percent <= GRAPHENE_100_PERCENT: ');
  if (!(Number(o.maximum_force_settlement_volume ?? 2000) <= PERCENT_100)) fail('maximum_force_settlement_volume <= GRAPHENE_100_PERCENT: ');
  const ext = (o.extensions ?? {}) as Obj;
  const mcfr = optional(ext.margin_call_fee_ratio);
  if (mcfr !== undefined && !(mcfr <= MAX_COLLATERAL_RATIO)) fail('*extensions.value.margin_call_fee_ratio <= GRAPHENE_MAX_COLLATERAL_RATIO: ');
  for (const name of ['initial_collateral_ratio', 'maintenance_collateral_ratio', 'maximum_short_squeeze_ratio'] as const) {
    const ratio = optional(ext[name]);
    if (ratio === undefined) continue;
    if (!(ratio >= MIN_COLLATERAL_RATIO)) fail(`*extensions.value.${name} >= GRAPHENE_MIN_COLLATERAL_RATIO: `);
    if (!(ratio <= MAX_COLLATERAL_RATIO)) fail(`*extensions.value.${name} <= GRAPHENE_MAX_COLLATERAL_RATIO: `);
  }
  const fsfp = optional(ext.force_settle_fee_percent);
  if (fsfp !== undefined && !(fsfp <= PERCENT_100)) fail('*extensions.value.force_settle_fee_percent <= GRAPHENE_100_PERCENT: ');
  const bsrm = optional(ext.black_swan_response_method);
  if (bsrm !== undefined && !(bsrm < BSRM_TYPE_COUNT)) fail(`*extensions.value.black_swan_response_method < bsrm_count: black_swan_response_method should be less than ${BSRM_TYPE_COUNT}`);
}

/** This chain runs global settlement only: any other black swan response is refused by name. */
function refuseOtherBsrm(bsrm: number): void {
  if (bsrm !== BSRM.global_settlement) {
    fail(`black_swan_response_method: ${BSRM_NAMES[bsrm] ?? bsrm} (${bsrm}) is not supported on this chain; only global_settlement (0) is`);
  }
}

const bsrmOf = (o: Obj): number => optional(((o.extensions ?? {}) as Obj).black_swan_response_method) ?? BSRM.global_settlement;

// ---- asset_create (10) of a market-issued asset ----

/**
 * What asset_create_operation::validate checks between the options' permissions and the core exchange
 * rate: the prediction market rules, and bitasset_options::validate. Refuses is_prediction_market
 * without bitasset_opts too (a user-issued asset cannot be one).
 */
export function validateNewBitasset(op: Obj): void {
  const bitassetOpts = op.bitasset_opts as Obj | undefined | null;
  const permissions = Number(((op.common_options ?? {}) as Obj).issuer_permissions ?? 0);
  if (op.is_prediction_market === true) {
    if (!bitassetOpts) fail('bitasset_opts.valid(): Cannot have a User-Issued Asset implement a prediction market.');
    if ((permissions & F.global_settle) === 0) fail('0 != (common_options.issuer_permissions & global_settle): ');
    if ((permissions & F.disable_bsrm_update) !== 0) fail('0 == (common_options.issuer_permissions & disable_bsrm_update): ');
    if (optional(((bitassetOpts!.extensions ?? {}) as Obj).black_swan_response_method) !== undefined) {
      fail('!bitasset_opts->extensions.value.black_swan_response_method.valid(): Can not set black_swan_response_method for Prediction Markets');
    }
  }
  if (bitassetOpts) {
    validateBitassetOptions(bitassetOpts);
    refuseOtherBsrm(bsrmOf(bitassetOpts));
  }
}

/**
 * asset_create_evaluator::do_evaluate's rules for a market-issued asset: a backing asset that exists
 * and is not itself backed by a market-issued asset that is; the committee's assets backed by the core
 * asset, at most through one market-issued asset; a feed lifetime and settlement delay longer than a
 * block; and a prediction market as precise as its backing asset.
 */
export function evaluateNewBitasset(ctx: EvalContext, op: Obj, issuer: number): void {
  const bitassetOpts = op.bitasset_opts as Obj | undefined | null;
  if (bitassetOpts) {
    const backingId = instanceOf(bitassetOpts.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset');
    mustExist(ctx, 1, 3, backingId);
    const backing = loadBitasset(ctx, backingId);
    if (backing) {
      const backingBacking = backing.options.backing;
      if (isMarketIssued(mustExist(ctx, 1, 3, backingBacking))) fail('!backing_backing.is_market_issued(): May not create a bitasset backed by a bitasset backed by a bitasset.');
      if (!(issuer !== COMMITTEE_ACCOUNT || backingBacking === 0)) {
        fail("op.issuer != GRAPHENE_COMMITTEE_ACCOUNT || backing_backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.");
      }
    } else if (!(issuer !== COMMITTEE_ACCOUNT || backingId === 0)) {
      fail('op.issuer != GRAPHENE_COMMITTEE_ACCOUNT || backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
    }
    const interval = Number(parameters(ctx).block_interval ?? 5);
    if (!(Number(bitassetOpts.feed_lifetime_sec ?? 86400) > interval && Number(bitassetOpts.force_settlement_delay_sec ?? 86400) > interval)) {
      fail('op.bitasset_opts->feed_lifetime_sec > chain_parameters.block_interval && op.bitasset_opts->force_settlement_delay_sec > chain_parameters.block_interval: ');
    }
  }
  if (op.is_prediction_market === true) {
    if (!bitassetOpts) fail('op.bitasset_opts: ');
    const backing = mustExist(ctx, 1, 3, instanceOf(bitassetOpts!.short_backing_asset ?? '1.3.0', 1, 3, 'short_backing_asset'));
    if (Number(op.precision ?? 0) !== Number(backing.precision)) fail('op.precision == op.bitasset_opts->short_backing_asset(d).precision: ');
  }
}

/**
 * asset_create_evaluator::do_apply's bitasset data for the asset about to be `asset`: its options, no
 * feeds, null median and current feeds, and a publication time left at its default (the epoch), as
 * asset_bitasset_data_object's constructor leaves it. Returns its 2.4.x instance.
 */
export function createBitassetData(ctx: EvalContext, op: Obj, asset: number): number {
  const options = bitassetOptionsJson(op.bitasset_opts as Obj);
  const { instance } = ctx.state.create(2, 4, (id) => bitassetDataObject(id, asset, options, op.is_prediction_market === true, 0));
  indexBitasset(ctx, asset, instanceOf(options.short_backing_asset, 1, 3, 'short_backing_asset'), true);
  return instance;
}
