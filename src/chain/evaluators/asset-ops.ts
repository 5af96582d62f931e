// The operations an asset's issuer (and anyone, for the fee pool and reserving) performs on an asset
// after creating it, as BitShares Core evaluates them today, every hardfork of the rules below having
// passed:
//
//  - asset_update (11), asset_update_issuer (48), asset_reserve (15), asset_fund_fee_pool (16),
//    asset_claim_fees (43), asset_claim_pool (47): asset_evaluator.cpp, with their validate() and
//    asset_options::validate / validate_flags from protocol/asset_ops.cpp;
//  - override_transfer (38): transfer_evaluator.cpp and protocol/transfer.cpp.
//
// Each runs Core's steps in Core's order: validate(), do_evaluate, the fee counted as paid
// (generic_evaluator::pay_fee), do_apply, and last the fee taken from the payer's balance, with the
// assertion texts fc prints. Each takes the branches Core takes for a market-issued asset too (its
// bitasset data, bitasset-data.ts): asset_update's permission and flag rules for them and its
// cancelling of force settlements and collateral bids that a new flag forbids, asset_update_issuer's
// rule for committee-issued ones, asset_reserve's refusal, and asset_claim_fees' collateral fees.
// The operations only market-issued assets have are in bitasset-ops.ts.
//
// What the flags these operations set mean to other operations is enforced where Core enforces it:
// white_list by is_authorized_asset (ledger.ts) in transfers, issues, orders and reserves;
// transfer_restricted in transfer; charge_market_fee by the matching engine's market fees (market.ts),
// which accumulate into the asset's accumulated_fees that asset_claim_fees takes out.

import { i64 } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { MAX_SHARE_SUPPLY } from './objects.js';
import { amountJson, comparePrice, multiply, PriceError, type Amount, type Price } from '../protocol/price.js';
import { accountInstance, adjustBalance, amountOf, assetInstance, balanceOf, countFee, feeOf, instanceOf, isAuthorizedAsset, type EvalContext, type Evaluated } from './ledger.js';
import { objectIdParts } from '../fc/object-id.js';
import { bidsOf, bitassetsBackedBy, loadBid, loadBitasset, loadSettlement, removeSettlement, settlementsOf, type Bitasset, type Settlement } from './bitasset-data.js';
import { cancelBid } from './margin.js';

type Obj = Record<string, unknown>;

/** asset_issuer_permission_flags (protocol/types.hpp) */
export const ASSET_FLAGS = {
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
const F = ASSET_FLAGS;
/** ASSET_ISSUER_PERMISSION_MASK: every bit above */
const ASSET_ISSUER_PERMISSION_MASK = 0xffff;
/** ASSET_ISSUER_PERMISSION_ENABLE_BITS_MASK and _DISABLE_BITS_MASK */
const ENABLE_BITS_MASK = 0x01ff;
const DISABLE_BITS_MASK = 0xfe00;
/** UIA_ASSET_ISSUER_PERMISSION_MASK, which is also UIA_VALID_FLAGS_MASK */
const UIA_ASSET_ISSUER_PERMISSION_MASK = F.charge_market_fee | F.white_list | F.override_authority | F.transfer_restricted | F.disable_confidential | F.lock_max_supply | F.disable_new_supply;
const NON_UIA_ONLY_ISSUER_PERMISSION_MASK = ASSET_ISSUER_PERMISSION_MASK ^ UIA_ASSET_ISSUER_PERMISSION_MASK;
/** PERMISSION_ONLY_MASK, and VALID_FLAGS_MASK: the flags a market-issued asset may have */
const PERMISSION_ONLY_MASK = F.global_settle | F.disable_mcr_update | F.disable_icr_update | F.disable_mssr_update | F.disable_bsrm_update;
const VALID_FLAGS_MASK = ASSET_ISSUER_PERMISSION_MASK & ~PERMISSION_ONLY_MASK;
const PERCENT_100 = 10000;
/** GRAPHENE_COMMITTEE_ACCOUNT */
const COMMITTEE_ACCOUNT = 0;

const fail = (text: string): never => {
  throw new ChainError(text);
};

const flagsOf = (asset: Obj): number => Number((asset.options as Obj).flags ?? 0);

/** asset_object::is_market_issued: the asset has bitasset data. */
export const isMarketIssued = (asset: Obj): boolean => asset.bitasset_data_id !== undefined && asset.bitasset_data_id !== null;

/** asset_options::get_enabled_issuer_permissions_mask */
const enabledPermissions = (permissions: number): number => (permissions & ENABLE_BITS_MASK) | (~permissions & DISABLE_BITS_MASK);

/** fc's format of a variant in an assertion's message: an object or array as JSON, anything else as its text. */
const variantText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/** The fee, checked as every operation's validate() checks it. */
export function validFee(ctx: EvalContext, fee: unknown): { amount: bigint; asset: number } {
  const amount = amountOf((fee as { amount?: unknown } | undefined)?.amount);
  if (!(amount >= 0n)) fail('fee.amount >= 0: ');
  return feeOf(ctx, fee);
}

export function amountIn(v: unknown, what: string): Amount {
  const a = v as { amount?: unknown; asset_id?: unknown } | undefined;
  return { amount: amountOf(a?.amount), asset: instanceOf(a?.asset_id, 1, 3, what) };
}

/** price::validate() */
export function validatePrice(p: { base: Amount; quote: Amount }): void {
  if (!(p.base.amount > 0n)) fail('base.amount.value > 0: Base amount should be positive');
  if (!(p.quote.amount > 0n)) fail('quote.amount.value > 0: Quote amount should be positive');
  if (p.base.asset === p.quote.asset) fail('base.asset_id != quote.asset_id: Base asset ID and quote asset ID should be different');
}

function priceIn(v: unknown): Price {
  const p = v as { base?: unknown; quote?: unknown } | undefined;
  return { base: amountIn(p?.base, 'core_exchange_rate.base.asset_id'), quote: amountIn(p?.quote, 'core_exchange_rate.quote.asset_id') };
}

/** asset_options::validate (protocol/asset_ops.cpp) */
export function validateAssetOptions(options: Obj): void {
  const maxSupply = amountOf(options.max_supply);
  if (!(maxSupply > 0n)) fail('max_supply > 0: ');
  if (!(maxSupply <= MAX_SHARE_SUPPLY)) fail('max_supply <= GRAPHENE_MAX_SHARE_SUPPLY: ');
  if (!(Number(options.market_fee_percent ?? 0) <= PERCENT_100)) fail('market_fee_percent <= GRAPHENE_100_PERCENT: ');
  const ext = (options.extensions ?? {}) as Obj;
  if (ext.taker_fee_percent !== undefined && !(Number(ext.taker_fee_percent) <= PERCENT_100)) fail('*extensions.value.taker_fee_percent <= GRAPHENE_100_PERCENT: ');
  const maxFee = amountOf(options.max_market_fee);
  if (!(maxFee >= 0n && maxFee <= MAX_SHARE_SUPPLY)) fail('max_market_fee >= 0 && max_market_fee <= GRAPHENE_MAX_SHARE_SUPPLY: ');
  const permissions = Number(options.issuer_permissions ?? 0);
  const flags = Number(options.flags ?? 0);
  if ((permissions & ~ASSET_ISSUER_PERMISSION_MASK) !== 0) fail('0 == (issuer_permissions & (uint16_t)(~ASSET_ISSUER_PERMISSION_MASK)): ');
  if ((flags & F.global_settle) !== 0) fail('0 == (flags & global_settle): Can not set global_settle flag, it is for issuer permission only');
  const fed = F.witness_fed_asset | F.committee_fed_asset;
  if ((flags & fed) === fed) fail('(flags & (witness_fed_asset | committee_fed_asset)) != (witness_fed_asset | committee_fed_asset): ');
  const cer = priceIn(options.core_exchange_rate);
  validatePrice(cer);
  if (!(cer.base.asset === 0 || cer.quote.asset === 0)) fail('core_exchange_rate.base.asset_id.instance.value == 0 || core_exchange_rate.quote.asset_id.instance.value == 0: ');
  const list = (name: string): string[] => (options[name] as string[] | undefined) ?? [];
  if ((list('whitelist_authorities').length > 0 || list('blacklist_authorities').length > 0) && (flags & F.white_list) === 0) fail('0 != (flags & white_list): ');
  const white = new Set(list('whitelist_markets'));
  const black = new Set(list('blacklist_markets'));
  for (const m of white) if (black.has(m)) fail('blacklist_markets.find(item) == blacklist_markets.end(): ');
  for (const m of black) if (white.has(m)) fail('whitelist_markets.find(item) == whitelist_markets.end(): ');
  if (ext.reward_percent !== undefined && !(Number(ext.reward_percent) <= PERCENT_100)) fail('*extensions.value.reward_percent <= GRAPHENE_100_PERCENT: ');
}

/** asset_options::validate_flags (after hardfork core-2281): a market-issued asset may have the flags only bitassets have. */
export function validateFlags(options: Obj, isMarketIssued: boolean): void {
  const flags = Number(options.flags ?? 0);
  if ((flags & ~ASSET_ISSUER_PERMISSION_MASK) !== 0) fail('0 == (flags & (uint16_t)(~ASSET_ISSUER_PERMISSION_MASK)): Can not set an unknown bit in flags');
  for (const name of ['disable_mcr_update', 'disable_icr_update', 'disable_mssr_update', 'disable_bsrm_update'] as const) {
    if ((flags & F[name]) !== 0) fail(`0 == (flags & ${name}): Can not set ${name} flag, it is for issuer permission only`);
  }
  if (!isMarketIssued && (flags & ~UIA_ASSET_ISSUER_PERMISSION_MASK) !== 0) fail('0 == (flags & (uint16_t)(~UIA_ASSET_ISSUER_PERMISSION_MASK)): Can not set a flag for bitassets only to UIA');
}

/**
 * The checks asset_create and asset_update make of the white- and blacklist authorities: no more than
 * the chain parameter allows, and each an object that exists (object_database::get).
 */
export function checkAuthorityLists(ctx: EvalContext, options: Obj, prefix: string): void {
  const max = Number((ctx.state.get([2, 0, 0]).parameters as Obj).maximum_asset_whitelist_authorities ?? 10);
  for (const name of ['whitelist_authorities', 'blacklist_authorities']) {
    const ids = (options[name] as string[] | undefined) ?? [];
    if (!(ids.length <= max)) fail(`${prefix}.${name}.size() <= chain_parameters.maximum_asset_whitelist_authorities: `);
    for (const id of ids) {
      const p = objectIdParts(id);
      if (!p || !ctx.state.exists([p.space, p.type, p.instance])) fail(`maybe_found != nullptr: Unable to find Object ${String(id)}`);
    }
  }
}

/**
 * What asset_create_operation::validate checks of a new asset's options, in its order: asset_options::validate,
 * no permission bit of market-issued assets without bitasset_opts, then `bitassetChecks` (the prediction
 * market rules and bitasset_options::validate, bitasset-ops.ts), and a core exchange rate under which
 * one core unit is worth some of the asset to be created, named by the placeholder id 1.3.1. Returns
 * do_apply's replacement of that placeholder by the new asset's id (the side that is not the core
 * asset names the new asset).
 */
export function validateNewAssetOptions(options: Obj, hasBitassetOpts: boolean, bitassetChecks: () => void): (assetId: string) => Obj {
  validateAssetOptions(options);
  const permissions = Number(options.issuer_permissions ?? 0);
  if (!hasBitassetOpts && (permissions & NON_UIA_ONLY_ISSUER_PERMISSION_MASK & ~(F.witness_fed_asset | F.committee_fed_asset)) !== 0) fail('bitasset_opts.valid(): ');
  bitassetChecks();
  const cer = options.core_exchange_rate as { base: Obj; quote: Obj };
  const dummy = times({ amount: 1n, asset: 0 }, priceIn(cer));
  if (dummy.asset !== 1) fail('dummy.asset_id == asset_id_type(1): ');
  const baseIsCore = instanceOf(cer.base.asset_id, 1, 3, 'core_exchange_rate.base.asset_id') === 0;
  return (assetId) => (baseIsCore ? { base: cer.base, quote: { ...cer.quote, asset_id: assetId } } : { base: { ...cer.base, asset_id: assetId }, quote: cer.quote });
}

/** asset * price (protocol/asset.cpp), an arithmetic failure being the operation's error. */
function times(a: Amount, p: Price): Amount {
  try {
    return multiply(a, p);
  } catch (err) {
    if (err instanceof PriceError) throw new ChainError(err.message);
    throw err;
  }
}

/** Loads the asset named by `id`; the id of a missing one is refused as Core's lookup refuses it. */
export function loadAsset(ctx: EvalContext, id: unknown, what: string): { instance: number; asset: Obj } {
  const instance = assetInstance(ctx, id, what);
  return { instance, asset: ctx.state.get([1, 3, instance]) };
}

const incorrectIssuer = (opIssuer: number, asset: Obj): string => `o.issuer == a.issuer: Incorrect issuer for asset! (1.2.${opIssuer} != ${String(asset.issuer)})`;

/** The end of every evaluator: the fee leaves the payer's balance after do_apply, as generic_evaluator takes it. */
export const takeFee = (ctx: EvalContext, payer: number, fee: { amount: bigint; asset: number }): void => adjustBalance(ctx, payer, fee.asset, -fee.amount);

// ---- asset_update (11) ----

/** asset_update_evaluator: new options for an asset, within what its issuer permissions allow. */
export function assetUpdate(ctx: EvalContext, op: Obj): Evaluated {
  // asset_update_operation::validate
  const fee = validFee(ctx, op.fee);
  const issuer = instanceOf(op.issuer, 1, 2, 'issuer');
  const hasNewIssuer = op.new_issuer !== undefined && op.new_issuer !== null;
  if (hasNewIssuer && instanceOf(op.new_issuer, 1, 2, 'new_issuer') === issuer) fail('issuer != *new_issuer: ');
  const options = op.new_options as Obj;
  validateAssetOptions(options);
  const target = instanceOf(op.asset_to_update, 1, 3, 'asset_to_update');
  const dummy = times({ amount: 1n, asset: target }, priceIn(options.core_exchange_rate));
  if (dummy.asset !== 0) fail('dummy.asset_id == asset_id_type(): ');
  const ext = (op.extensions ?? {}) as Obj;
  const newPrecision = ext.new_precision === undefined || ext.new_precision === null ? undefined : Number(ext.new_precision);
  if (newPrecision !== undefined && !(newPrecision <= 12)) fail('*extensions.value.new_precision <= 12: ');
  const skipCer = ext.skip_core_exchange_rate !== undefined && ext.skip_core_exchange_rate !== null;
  if (skipCer && ext.skip_core_exchange_rate !== true) fail('*extensions.value.skip_core_exchange_rate == true: If skip_core_exchange_rate is specified, it can only be true');

  // do_evaluate
  const payer = accountInstance(ctx, op.issuer, 'issuer');
  const { instance, asset } = loadAsset(ctx, op.asset_to_update, 'asset_to_update');
  const old = asset.options as Obj;
  const newFlags = Number(options.flags ?? 0);
  const newPermissions = Number(options.issuer_permissions ?? 0);
  const bitasset = loadBitasset(ctx, instance);
  // asset_object::validate of the asset with its new options: a user-issued asset may not settle
  if (!bitasset) {
    if (!((newFlags & F.disable_force_settle) === 0 && (newFlags & F.global_settle) === 0)) fail('0 == (options.flags & disable_force_settle) && 0 == (options.flags & global_settle): ');
    if (!((newPermissions & F.disable_force_settle) === 0 && (newPermissions & F.global_settle) === 0)) fail('0 == (options.issuer_permissions & disable_force_settle) && 0 == (options.issuer_permissions & global_settle): ');
  }
  if (hasNewIssuer) fail('now < HARDFORK_CORE_199_TIME: Since Hardfork #199, updating issuer requires the use of asset_update_issuer_operation.');
  const isPredictionMarket = bitasset?.isPredictionMarket === true;
  if (!bitasset) {
    if ((newPermissions & NON_UIA_ONLY_ISSUER_PERMISSION_MASK) !== 0) fail('0 == ( o.new_options.issuer_permissions & NON_UIA_ONLY_ISSUER_PERMISSION_MASK ): Unable to set non-UIA issuer permission bits on UIA');
  } else if (isPredictionMarket && (newPermissions & F.disable_bsrm_update) !== 0) {
    fail('0 == ( o.new_options.issuer_permissions & disable_bsrm_update ): Unable to set disable_bsrm_update issuer permission bit on PM');
  }
  let enabled = enabledPermissions(Number(old.issuer_permissions ?? 0));
  if (isPredictionMarket) {
    // a prediction market whose global_settle permission was unset gets it back
    if ((newPermissions & F.global_settle) === 0) fail('a_copy.can_global_settle(): The global_settle permission should be enabled for prediction markets');
    enabled |= F.global_settle;
  }
  const dyn = ctx.state.get([2, 3, instance]);
  const supply = amountOf(dyn.current_supply);
  if (supply !== 0n) {
    // new issuer permissions must be a subset of the old ones (for a user-issued asset the non-UIA
    // bits aside, for a prediction market disable_bsrm_update aside)
    const reinstated = enabledPermissions(newPermissions) & ~enabled;
    if (!bitasset) {
      if ((reinstated & UIA_ASSET_ISSUER_PERMISSION_MASK) !== 0) {
        fail(
          '0 == ( ( o.new_options.get_enabled_issuer_permissions_mask() & (uint16_t)(~enabled_issuer_permissions_mask) ) & UIA_ASSET_ISSUER_PERMISSION_MASK ): Cannot reinstate previously revoked issuer permissions on a UIA if current supply is non-zero, unless to unset non-UIA issuer permission bits.',
        );
      }
    } else if (isPredictionMarket) {
      if ((reinstated & ~F.disable_bsrm_update & 0xffff) !== 0) {
        fail(
          '0 == ( ( o.new_options.get_enabled_issuer_permissions_mask() & (uint16_t)(~enabled_issuer_permissions_mask) ) & (uint16_t)(~disable_bsrm_update) ): Cannot reinstate previously revoked issuer permissions on a PM if current supply is non-zero, unless to unset the disable_bsrm_update issuer permission bit.',
        );
      }
    } else if ((reinstated & 0xffff) !== 0) {
      fail('0 == ( o.new_options.get_enabled_issuer_permissions_mask() & (uint16_t)(~enabled_issuer_permissions_mask) ): Cannot reinstate previously revoked issuer permissions on an asset if current supply is non-zero.');
    }
    if (newPrecision !== undefined) fail('!o.extensions.value.new_precision.valid(): Cannot update precision if current supply is non-zero');
    if (!(supply <= amountOf(options.max_supply))) fail('dyn_data.current_supply <= o.new_options.max_supply: Max supply should not be smaller than current supply');
  }
  validateFlags(options, bitasset !== undefined);
  // a changed flag must be one the issuer (still) has the permission to change
  const checkBits = bitasset ? VALID_FLAGS_MASK : UIA_ASSET_ISSUER_PERMISSION_MASK;
  if (((newFlags ^ Number(old.flags ?? 0)) & checkBits & ~enabled) !== 0) {
    fail('0 == ( (o.new_options.flags ^ a.options.flags) & check_bits & (uint16_t)(~enabled_issuer_permissions_mask) ): Flag change is forbidden by issuer permissions');
  }
  if (asset.issuer !== `1.2.${issuer}`) fail(incorrectIssuer(issuer, asset));
  const canUpdateMaxSupply = (Number(old.flags ?? 0) & F.lock_max_supply) === 0;
  if (!(canUpdateMaxSupply || amountOf(old.max_supply) === amountOf(options.max_supply))) fail('a.can_update_max_supply() || a.options.max_supply == o.new_options.max_supply: Can not update max supply');
  if (newPrecision !== undefined) {
    if (newPrecision === Number(asset.precision)) fail('*o.extensions.value.new_precision != a.precision: Specified a new precision but it does not change');
    if (isPredictionMarket) fail('!bitasset_data->is_prediction_market: Can not update precision of a prediction market');
    // no asset may be backed by it (asset_bitasset_data_index by_short_backing_asset)
    const backed = bitassetsBackedBy(ctx, instance)[0];
    if (backed !== undefined) fail(`!backing_another_asset: Asset 1.3.${backed} is backed by this asset, can not update precision`);
  }
  checkAuthorityLists(ctx, options, 'o.new_options');

  countFee(ctx, payer, fee.amount);
  // do_apply
  const oldFlags = Number(old.flags ?? 0);
  // Disabling force settlements cancels the open ones, the earliest first.
  if ((newFlags & F.disable_force_settle) !== 0 && (oldFlags & F.disable_force_settle) === 0) {
    for (const s of settlementsOf(ctx, instance)) cancelSettleOrder(ctx, loadSettlement(ctx, s)!);
  }
  // Disabling collateral bidding cancels the open bids, the best first.
  if ((newFlags & F.disable_collateral_bidding) !== 0 && (oldFlags & F.disable_collateral_bidding) === 0) {
    for (const b of bidsOf(ctx, instance)) cancelBid(ctx, loadBid(ctx, b)!, true);
  }
  // A market-issued asset's new core exchange rate is marked in its bitasset data (the block's end
  // then keeps it or puts the feed's back: database::update_core_exchange_rates).
  if (!skipCer && bitasset && comparePrice(priceIn(old.core_exchange_rate), priceIn(options.core_exchange_rate)) !== 0) markAssetCerUpdated(ctx, bitasset);
  if (newPrecision !== undefined) asset.precision = newPrecision;
  const cer = old.core_exchange_rate;
  asset.options = skipCer ? { ...options, core_exchange_rate: cer } : options;
  ctx.state.touch([1, 3, instance]);
  takeFee(ctx, payer, fee);
  // db_notify.cpp: the issuer (and a new issuer, which validate() refuses after hardfork 199)
  return { result: [0, {}], impacted: [payer] };
}

function markAssetCerUpdated(ctx: EvalContext, bitasset: Bitasset): void {
  if (bitasset.obj.asset_cer_updated === true) return;
  bitasset.obj.asset_cer_updated = true;
  ctx.state.touch(bitasset.key);
}

/**
 * database::cancel_settle_order: the settlement's balance goes back to its owner, and an
 * asset_settle_cancel (42) enters the owner's history.
 */
export function cancelSettleOrder(ctx: EvalContext, s: Settlement): void {
  adjustBalance(ctx, s.owner, s.balance.asset, s.balance.amount);
  ctx.virtualOps?.push({
    op: [42, { fee: { amount: 0, asset_id: '1.3.0' }, settlement: `1.4.${s.instance}`, account: `1.2.${s.owner}`, amount: amountJson(s.balance) }],
    result: [0, {}],
    impacted: [s.owner],
  });
  removeSettlement(ctx, s);
}

// ---- asset_update_issuer (48) ----

/**
 * validate_new_issuer: the new issuer exists, and the committee may only be handed a market-issued
 * asset backed by the core asset (directly, or through the market-issued asset that backs it).
 */
function validateNewIssuer(ctx: EvalContext, asset: number, newIssuer: number): void {
  if (!ctx.state.exists([1, 2, newIssuer])) fail('d.find(new_issuer): New issuer account does not exist');
  const bitasset = loadBitasset(ctx, asset);
  if (!bitasset || newIssuer !== COMMITTEE_ACCOUNT) return;
  const backing = loadBitasset(ctx, bitasset.options.backing);
  if (backing) {
    if (backing.options.backing !== 0) fail('backing_backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
  } else if (bitasset.options.backing !== 0) {
    fail('backing.get_id() == asset_id_type(): May not create a blockchain-controlled market asset which is not backed by CORE.');
  }
}

/** asset_update_issuer_evaluator: the issuer hands the asset to another account (signed with its owner authority). */
export function assetUpdateIssuer(ctx: EvalContext, op: Obj): Evaluated {
  const fee = validFee(ctx, op.fee);
  const issuer = instanceOf(op.issuer, 1, 2, 'issuer');
  const newIssuer = instanceOf(op.new_issuer, 1, 2, 'new_issuer');
  if (issuer === newIssuer) fail('issuer != new_issuer: ');

  const payer = accountInstance(ctx, op.issuer, 'issuer');
  const { instance, asset } = loadAsset(ctx, op.asset_to_update, 'asset_to_update');
  validateNewIssuer(ctx, instance, newIssuer);
  if (asset.issuer !== `1.2.${issuer}`) fail(incorrectIssuer(issuer, asset));

  countFee(ctx, payer, fee.amount);
  asset.issuer = `1.2.${newIssuer}`;
  ctx.state.touch([1, 3, instance]);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer, newIssuer] };
}

// ---- asset_reserve (15) ----

/**
 * asset_reserve_evaluator: the payer destroys some of its balance, and the asset's supply shrinks by
 * it. Not for a market-issued asset, whose supply is its debt (asset_reserve_invalid_on_mia).
 */
export function assetReserve(ctx: EvalContext, op: Obj): Evaluated {
  const fee = validFee(ctx, op.fee);
  const reserve = amountIn(op.amount_to_reserve, 'amount_to_reserve.asset_id');
  if (!(reserve.amount <= MAX_SHARE_SUPPLY)) fail('amount_to_reserve.amount.value <= GRAPHENE_MAX_SHARE_SUPPLY: ');
  if (!(reserve.amount > 0n)) fail('amount_to_reserve.amount.value > 0: ');

  const payer = accountInstance(ctx, op.payer, 'payer');
  const { instance, asset } = loadAsset(ctx, (op.amount_to_reserve as Obj).asset_id, 'amount_to_reserve.asset_id');
  if (isMarketIssued(asset)) fail(`Cannot reserve ${String(asset.symbol)} because it is a market-issued asset`);
  // Not a liquidity pool's share asset: this chain has none.
  if (!isAuthorizedAsset(ctx, payer, asset)) fail('is_authorized_asset( d, *from_account, a ): ');
  const dyn = ctx.state.get([2, 3, instance]);
  const supply = amountOf(dyn.current_supply);
  if (!(supply >= reserve.amount)) fail('asset_dyn_data->current_supply >= o.amount_to_reserve.amount: Can not reserve an amount that is more than the current supply');

  countFee(ctx, payer, fee.amount);
  adjustBalance(ctx, payer, instance, -reserve.amount);
  dyn.current_supply = i64(supply - reserve.amount);
  ctx.state.touch([2, 3, instance]);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer] };
}

// ---- asset_fund_fee_pool (16) ----

/**
 * asset_fund_fee_pool_evaluator: core from the account's balance into the asset's fee pool. The pool
 * pays the core fee of operations whose fee is paid in the asset; this chain takes fees in the core
 * asset only (validate.ts), so the pool only grows with this and shrinks with asset_claim_pool.
 */
export function assetFundFeePool(ctx: EvalContext, op: Obj): Evaluated {
  const fee = validFee(ctx, op.fee);
  if (fee.asset !== 0) fail('fee.asset_id == asset_id_type(): ');
  const amount = amountOf(op.amount);
  if (!(amount > 0n)) fail('amount > 0: ');

  const payer = accountInstance(ctx, op.from_account, 'from_account');
  const { instance } = loadAsset(ctx, op.asset_id, 'asset_id');
  const dyn = ctx.state.get([2, 3, instance]);

  countFee(ctx, payer, fee.amount);
  adjustBalance(ctx, payer, 0, -amount);
  dyn.fee_pool = i64(amountOf(dyn.fee_pool) + amount);
  ctx.state.touch([2, 3, instance]);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer] };
}

// ---- asset_claim_fees (43) ----

/**
 * asset_claim_fees_evaluator: the issuer takes fees the asset has accumulated into its balance: market
 * fees in the asset itself (market.ts adds them at each fill of an asset with charge_market_fee), or,
 * with claim_from_asset_id naming a market-issued asset, the collateral fees it holds in its backing
 * asset (accumulated_collateral_fees: what force settlements and margin calls leave it).
 */
export function assetClaimFees(ctx: EvalContext, op: Obj): Evaluated {
  const fee = validFee(ctx, op.fee);
  const claim = amountIn(op.amount_to_claim, 'amount_to_claim.asset_id');
  if (!(claim.amount > 0n)) fail('amount_to_claim.amount > 0: ');
  const claimFrom = ((op.extensions ?? {}) as Obj).claim_from_asset_id;
  const hasClaimFrom = claimFrom !== undefined && claimFrom !== null;
  if (hasClaimFrom && instanceOf(claimFrom, 1, 3, 'claim_from_asset_id') === claim.asset) fail('*extensions.value.claim_from_asset_id != amount_to_claim.asset_id: ');

  // prepare_fee: the fee payer, before do_evaluate
  const payer = accountInstance(ctx, op.issuer, 'issuer');
  const { instance: container, asset } = loadAsset(ctx, hasClaimFrom ? claimFrom : (op.amount_to_claim as Obj).asset_id, hasClaimFrom ? 'claim_from_asset_id' : 'amount_to_claim.asset_id');
  if (asset.issuer !== `1.2.${payer}`) fail('container_asset->issuer == o.issuer: Asset fees may only be claimed by the issuer');
  // can_accumulate_fee: the asset's own fees, or a market-issued asset's fees in its backing asset
  const collateral = claim.asset !== container;
  if (collateral && loadBitasset(ctx, container)?.options.backing !== claim.asset) {
    fail(`container_asset->can_accumulate_fee(d,o.amount_to_claim): Asset ${String(asset.symbol)} (1.3.${container}) is not backed by asset (1.3.${claim.asset}) and does not hold it as fees.`);
  }
  const dyn = ctx.state.get([2, 3, container]);
  const field = collateral ? 'accumulated_collateral_fees' : 'accumulated_fees';
  const accumulated = amountOf(dyn[field]);
  if (!(claim.amount <= accumulated)) {
    fail(
      collateral
        ? `o.amount_to_claim.amount <= container_ddo->accumulated_collateral_fees: Attempt to claim more backing-asset fees than have accumulated within asset ${String(asset.symbol)} (1.3.${container}) backed by (1.3.${claim.asset}). Asset DDO: ${variantText(dyn)}. Fee claim: ${variantText(op.amount_to_claim)}.`
        : `o.amount_to_claim.amount <= container_ddo->accumulated_fees: Attempt to claim more fees than have accumulated within asset ${String(asset.symbol)} (1.3.${container}). Asset DDO: ${variantText(dyn)}. Fee claim: ${variantText(op.amount_to_claim)}.`,
    );
  }

  countFee(ctx, payer, fee.amount);
  dyn[field] = i64(accumulated - claim.amount);
  ctx.state.touch([2, 3, container]);
  // (no authorization check of the issuer for the collateral asset: Core lets the funds move)
  adjustBalance(ctx, payer, claim.asset, claim.amount);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer] };
}

// ---- asset_claim_pool (47) ----

/** asset_claim_pool_evaluator: the issuer takes core out of the asset's fee pool. */
export function assetClaimPool(ctx: EvalContext, op: Obj): Evaluated {
  const fee = validFee(ctx, op.fee);
  const assetId = instanceOf(op.asset_id, 1, 3, 'asset_id');
  if (fee.asset === assetId) fail('fee.asset_id != asset_id: ');
  const claim = amountIn(op.amount_to_claim, 'amount_to_claim.asset_id');
  if (!(claim.amount > 0n)) fail('amount_to_claim.amount > 0: ');
  if (claim.asset !== 0) fail('amount_to_claim.asset_id == asset_id_type(): ');

  const payer = accountInstance(ctx, op.issuer, 'issuer');
  const { instance, asset } = loadAsset(ctx, op.asset_id, 'asset_id');
  if (asset.issuer !== `1.2.${payer}`) fail('o.asset_id(db()).issuer == o.issuer: Asset fee pool may only be claimed by the issuer');

  countFee(ctx, payer, fee.amount);
  // do_apply checks the pool
  const dyn = ctx.state.get([2, 3, instance]);
  const pool = amountOf(dyn.fee_pool);
  if (!(claim.amount <= pool)) fail('o.amount_to_claim.amount <= addo.fee_pool: Attempt to claim more fees than is available');
  dyn.fee_pool = i64(pool - claim.amount);
  ctx.state.touch([2, 3, instance]);
  adjustBalance(ctx, payer, 0, claim.amount);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [payer] };
}

// ---- override_transfer (38) ----

/** override_transfer_evaluator: the issuer of an asset with override_authority moves it out of any account. */
export function overrideTransfer(ctx: EvalContext, op: Obj): Evaluated {
  // override_transfer_operation::validate
  const fee = validFee(ctx, op.fee);
  const issuer = instanceOf(op.issuer, 1, 2, 'issuer');
  const from = instanceOf(op.from, 1, 2, 'from');
  const to = instanceOf(op.to, 1, 2, 'to');
  const amount = amountIn(op.amount, 'amount.asset_id');
  if (from === to) fail('from != to: ');
  if (!(amount.amount > 0n)) fail('amount.amount > 0: ');
  if (issuer === from) fail('issuer != from: ');

  const payer = accountInstance(ctx, op.issuer, 'issuer');
  // do_evaluate
  const { asset } = loadAsset(ctx, (op.amount as Obj).asset_id, 'amount.asset_id');
  if ((flagsOf(asset) & F.override_authority) === 0) fail(`override_transfer not permitted for asset 1.3.${amount.asset}`);
  if (asset.issuer !== `1.2.${issuer}`) fail('asset_type.issuer == op.issuer: ');
  accountInstance(ctx, op.from, 'from');
  accountInstance(ctx, op.to, 'to');
  if (!isAuthorizedAsset(ctx, to, asset)) fail('is_authorized_asset( d, to_account, asset_type ): The to_account is not allowed to transact the asset');
  // Since hardfork core-2295 the from account's authorization is not checked: the issuer may take
  // its asset back from an account it has since blacklisted.
  if (!(balanceOf(ctx, from, amount.asset) >= amount.amount)) fail('d.get_balance( from_account, asset_type ).amount >= op.amount.amount: ');

  countFee(ctx, payer, fee.amount);
  adjustBalance(ctx, from, amount.asset, -amount.amount);
  adjustBalance(ctx, to, amount.asset, amount.amount);
  takeFee(ctx, payer, fee);
  return { result: [0, {}], impacted: [to, from, payer] };
}
