// Vesting balances (1.13.x) as BitShares Core has them: vesting_balance_object and its three
// policies (vesting_balance_object.cpp), vesting_balance_create and vesting_balance_withdraw
// (vesting_balance_evaluator.cpp), and the cashback a lifetime member's referral fees pay into
// (database::deposit_cashback and deposit_lazy_vesting, db_balance.cpp; account_statistics_object::
// process_fees, account_object.cpp).
//
// Cashback on a chain without maintenance: Core pays an account's pending fees out to its
// registrar, referrer and lifetime referrer (and the network's share into the core asset's
// accumulated_fees) in process_fees, which runs at every maintenance interval and when the account
// upgrades to lifetime membership. The devnet never runs a maintenance interval (ledger.ts), so the
// upgrade is the one place a cashback vesting balance appears, exactly where a Core chain shows one
// between two maintenance intervals; fees paid by accounts that never upgrade stay pending.

import { fcTime, i64, parseFcTime, TIME_EPOCH } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { accountInstance, adjustBalance, amountOf, assetInstance, instanceOf, isAuthorizedAsset, payFee, type EvalContext, type Evaluated } from './ledger.js';
import { PERCENT_100 } from './objects.js';
import { chainParameter, headTime, indexByAccount } from './governance-index.js';

type Policy = [number, Record<string, unknown>];

/** vesting_balance_type (vesting_balance_object.hpp) as fc writes the enum */
export type VestingBalanceType = 'unspecified' | 'cashback' | 'worker' | 'witness' | 'market_fee_sharing';

/** Creates a vesting balance object: (owner)(balance)(policy)(balance_type), indexed by owner. */
export function createVestingBalance(ctx: EvalContext, owner: number, amount: bigint, asset: number, policy: Policy, type: VestingBalanceType): number {
  const { instance } = ctx.state.create(1, 13, (id) => ({ id, owner: `1.2.${owner}`, balance: { amount: i64(amount), asset_id: `1.3.${asset}` }, policy, balance_type: type }));
  indexByAccount(ctx.state, 13, owner, instance);
  return instance;
}

const seconds = (t: unknown): number => parseFcTime(String(t));
const u128 = (v: unknown): bigint => BigInt(String(v ?? 0));
const max1 = (n: number): bigint => BigInt(Math.max(n, 1));

/** cdd_vesting_policy::compute_coin_seconds_earned */
function coinSecondsEarned(p: Record<string, unknown>, balance: bigint, now: number): bigint {
  const delta = BigInt(Math.max(0, now - seconds(p.coin_seconds_earned_last_update)));
  const cap = balance * max1(Number(p.vesting_seconds));
  const earned = u128(p.coin_seconds_earned) + balance * delta;
  return earned < cap ? earned : cap;
}

/** vesting_balance_object::get_allowed_withdraw for each policy (linear, cdd, instant). */
export function allowedWithdraw(vbo: Record<string, unknown>, now: number): bigint {
  const balance = amountOf((vbo.balance as { amount: unknown }).amount);
  const [which, p] = vbo.policy as Policy;
  if (which === 0) {
    const begin = seconds(p.begin_timestamp);
    if (!(now > begin)) return 0n;
    const elapsed = now - begin;
    if (elapsed < Number(p.vesting_cliff_seconds)) return 0n;
    const beginBalance = amountOf(p.begin_balance);
    const duration = Number(p.vesting_duration_seconds);
    const totalVested = elapsed < duration ? (beginBalance * BigInt(elapsed)) / BigInt(duration) : beginBalance;
    return totalVested - (beginBalance - balance);
  }
  if (which === 1) {
    if (now <= seconds(p.start_claim)) return 0n;
    return coinSecondsEarned(p, balance, now) / max1(Number(p.vesting_seconds));
  }
  return balance;
}

/** cdd_vesting_policy::update_coin_seconds_earned (on_deposit, and the first half of on_withdraw) */
function updateCoinSeconds(p: Record<string, unknown>, balance: bigint, now: number): void {
  p.coin_seconds_earned = coinSecondsEarned(p, balance, now).toString();
  p.coin_seconds_earned_last_update = fcTime(now);
}

/** vesting_balance_object::deposit (vested: deposit_vested), for a cdd balance; the caller marks it changed. */
function deposit(vbo: Record<string, unknown>, now: number, amount: bigint, vested: boolean): void {
  const bal = vbo.balance as { amount: unknown };
  const balance = amountOf(bal.amount);
  const [which, p] = vbo.policy as Policy;
  if (which === 1) {
    updateCoinSeconds(p, balance, now);
    if (vested) p.coin_seconds_earned = (u128(p.coin_seconds_earned) + amount * max1(Number(p.vesting_seconds))).toString();
  }
  bal.amount = i64(balance + amount);
}

/** The three accounts Core's deposit_cashback sends to the reserve instead (plus null and temp). */
const RESERVED = new Set([0, 1, 2, 3, 4]);

/**
 * database::deposit_cashback: into the account's cashback vesting balance (cdd over
 * cashback_vesting_period_seconds), created on first use; the chain's own accounts get none, their
 * share leaves the supply.
 */
export function depositCashback(ctx: EvalContext, account: number, amount: bigint, requireVesting: boolean): void {
  if (amount === 0n) return;
  if (RESERVED.has(account)) {
    const dyn = ctx.state.get([2, 3, 0]);
    dyn.current_supply = i64(amountOf(dyn.current_supply) - amount);
    ctx.state.touch([2, 3, 0]);
    return;
  }
  const now = headTime(ctx);
  const period = chainParameter(ctx.state, 'cashback_vesting_period_seconds', 31536000);
  const acct = ctx.state.get([1, 2, account]);
  if (typeof acct.cashback_vb === 'string') {
    const key: [number, number, number] = [1, 13, instanceOf(acct.cashback_vb, 1, 13, 'cashback_vb')];
    const vbo = ctx.state.find(key);
    const [which, p] = (vbo?.policy ?? [-1, {}]) as Policy;
    if (vbo && vbo.owner === `1.2.${account}` && which === 1 && Number(p.vesting_seconds) === period) {
      deposit(vbo, now, amount, !requireVesting);
      ctx.state.touch(key);
      return;
    }
  }
  const policy: Policy = [1, { vesting_seconds: period, start_claim: TIME_EPOCH, coin_seconds_earned: requireVesting ? '0' : (amount * BigInt(period)).toString(), coin_seconds_earned_last_update: fcTime(now) }];
  const vb = createVestingBalance(ctx, account, amount, 0, policy, 'cashback');
  setCashbackVb(ctx, account, `1.13.${vb}`);
  const stats = ctx.state.get([2, 6, account]);
  stats.has_cashback_vb = true;
  ctx.state.touch([2, 6, account]);
}

/** Sets account_object::cashback_vb, an optional that fc writes after blacklisted_accounts once set. */
function setCashbackVb(ctx: EvalContext, account: number, id: string): void {
  const a = ctx.state.get([1, 2, account]);
  if ('cashback_vb' in a) {
    a.cashback_vb = id;
  } else {
    const entries = Object.entries(a);
    for (const k of Object.keys(a)) delete a[k];
    for (const [k, v] of entries) {
      a[k] = v;
      if (k === 'blacklisted_accounts') a.cashback_vb = id;
    }
  }
  ctx.state.touch([1, 2, account]);
}

/** cut_fee (db_balance.cpp's helper in account_object.cpp): a share of a fee, rounded down. */
const cutFee = (a: bigint, p: number): bigint => (a === 0n || p === 0 ? 0n : p === PERCENT_100 ? a : (a * BigInt(p)) / BigInt(PERCENT_100));

/**
 * account_statistics_object::process_fees: the account's pending fees paid out to the network and
 * its referrers. lifetime_fees_paid is not raised here: this chain counts a fee there when it is
 * paid (ledger.ts countFee), which Core does here.
 *
 * This chain keeps every fee in pending_fees (countFee), where Core keeps fees at or below
 * cashback_vesting_threshold in pending_vested_fees; the two differ only for such small fees, which
 * Core pays out as already vested cashback.
 */
export function processFees(ctx: EvalContext, account: number): void {
  const stats = ctx.state.get([2, 6, account]);
  const pending = amountOf(stats.pending_fees);
  const pendingVested = amountOf(stats.pending_vested_fees);
  if (!(pending > 0n || pendingVested > 0n)) return;
  const now = headTime(ctx);
  const payOut = (total: bigint, requireVesting: boolean): void => {
    const a = ctx.state.get([1, 2, account]);
    // A referrer no longer a member: the lifetime referrer takes its place.
    const referrer = ctx.state.get([1, 2, instanceOf(a.referrer, 1, 2, 'referrer')]);
    if (now > parseFcTime(String(referrer.membership_expiration_date))) {
      a.referrer = a.lifetime_referrer;
      ctx.state.touch([1, 2, account]);
    }
    const network = cutFee(total, Number(a.network_fee_percentage));
    const lifetime = cutFee(total, Number(a.lifetime_referrer_fee_percentage));
    const referral = total - network - lifetime;
    const dyn = ctx.state.get([2, 3, 0]);
    dyn.accumulated_fees = i64(amountOf(dyn.accumulated_fees) + network);
    ctx.state.touch([2, 3, 0]);
    const referrerCut = cutFee(referral, Number(a.referrer_rewards_percentage));
    const registrarCut = referral - referrerCut;
    const [lifetimeReferrer, referrerNow, registrar] = [a.lifetime_referrer, a.referrer, a.registrar].map((id) => instanceOf(id, 1, 2, 'referrer'));
    depositCashback(ctx, lifetimeReferrer!, lifetime, requireVesting);
    depositCashback(ctx, referrerNow!, referrerCut, requireVesting);
    depositCashback(ctx, registrar!, registrarCut, requireVesting);
  };
  payOut(pending, true);
  payOut(pendingVested, false);
  const s = ctx.state.get([2, 6, account]);
  s.pending_fees = 0;
  s.pending_vested_fees = 0;
  ctx.state.touch([2, 6, account]);
}

/** asset_flags (protocol/types.hpp) */
const TRANSFER_RESTRICTED = 0x08;

/** vesting_balance_create_operation: (fee)(creator)(owner)(amount)(policy) */
export function vestingBalanceCreate(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  // validate()
  if (amountOf((op.fee as { amount?: unknown } | undefined)?.amount) < 0n) throw new ChainError('fee.amount >= 0: ');
  const amount = op.amount as { amount?: unknown; asset_id?: unknown } | undefined;
  const value = amountOf(amount?.amount);
  if (!(value > 0n)) throw new ChainError('amount.amount > 0: ');
  // do_evaluate
  const creator = accountInstance(ctx, op.creator, 'creator');
  const owner = accountInstance(ctx, op.owner, 'owner');
  const asset = assetInstance(ctx, amount?.asset_id, 'amount.asset_id');
  const assetObj = ctx.state.get([1, 3, asset]);
  if ((Number((assetObj.options as { flags?: unknown }).flags ?? 0) & TRANSFER_RESTRICTED) !== 0) throw new ChainError('!asset_obj.is_transfer_restricted(): Asset has transfer_restricted flag enabled');
  if (!isAuthorizedAsset(ctx, creator, assetObj)) throw new ChainError('is_authorized_asset( d, creator_account, asset_obj ): The creator account is not allowed to transact the asset');
  if (!isAuthorizedAsset(ctx, owner, assetObj)) throw new ChainError('is_authorized_asset( d, owner_account, asset_obj ): The owner account is not allowed to transact the asset');
  const [which, init] = (op.policy as Policy | undefined) ?? [-1, {}];
  payFee(ctx, creator, op.fee);
  // do_apply
  const now = headTime(ctx);
  adjustBalance(ctx, creator, asset, -value);
  let policy: Policy;
  if (which === 0) {
    policy = [0, { begin_timestamp: fcTime(seconds(init.begin_timestamp)), vesting_cliff_seconds: Number(init.vesting_cliff_seconds ?? 0), vesting_duration_seconds: Number(init.vesting_duration_seconds ?? 0), begin_balance: i64(value) }];
  } else if (which === 1) {
    policy = [1, { vesting_seconds: Number(init.vesting_seconds ?? 0), start_claim: fcTime(seconds(init.start_claim)), coin_seconds_earned: '0', coin_seconds_earned_last_update: fcTime(now) }];
  } else if (which === 2) {
    policy = [2, {}];
  } else {
    throw new ChainError(`policy: unknown vesting policy initializer ${String(which)}`);
  }
  const instance = createVestingBalance(ctx, owner, value, asset, policy, 'unspecified');
  // db_notify.cpp: the creator (fee payer) and the owner
  return { result: [1, `1.13.${instance}`], impacted: [creator, owner] };
}

/** vesting_balance_withdraw_operation: (fee)(vesting_balance)(owner)(amount) */
export function vestingBalanceWithdraw(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  // validate()
  if (amountOf((op.fee as { amount?: unknown } | undefined)?.amount) < 0n) throw new ChainError('fee.amount >= 0: ');
  const amount = op.amount as { amount?: unknown; asset_id?: unknown } | undefined;
  const value = amountOf(amount?.amount);
  if (!(value > 0n)) throw new ChainError('amount.amount > 0: ');
  if (op.owner === '1.2.4') throw new ChainError('owner != GRAPHENE_TEMP_ACCOUNT: ');
  // The fee payer (the owner) is looked up first (prepare_fee), then do_evaluate's balance.
  const owner = accountInstance(ctx, op.owner, 'owner');
  const now = headTime(ctx);
  const instance = instanceOf(op.vesting_balance, 1, 13, 'vesting_balance');
  const key: [number, number, number] = [1, 13, instance];
  const vbo = ctx.state.find(key);
  if (!vbo) throw new ChainError(`Unable to find Object ${String(op.vesting_balance)}`);
  if (vbo.owner !== `1.2.${owner}`) throw new ChainError('op.owner == vbo.owner: ');
  const bal = vbo.balance as { amount: unknown; asset_id: string };
  // Each policy's is_withdraw_allowed: the same asset (asset's operator<= asserts it for cdd), at most what has vested
  if (amount?.asset_id !== bal.asset_id || !(value <= allowedWithdraw(vbo, now))) throw new ChainError('vbo.is_withdraw_allowed( now, op.amount ): ');
  payFee(ctx, owner, op.fee);
  // do_apply: vesting_balance_object::withdraw (cdd: coin seconds spent), then the owner's balance
  const [which, p] = vbo.policy as Policy;
  const balance = amountOf(bal.amount);
  if (which === 1) {
    updateCoinSeconds(p, balance, now);
    p.coin_seconds_earned = (u128(p.coin_seconds_earned) - value * max1(Number(p.vesting_seconds))).toString();
  }
  bal.amount = i64(balance - value);
  ctx.state.touch(key);
  adjustBalance(ctx, owner, instanceOf(bal.asset_id, 1, 3, 'asset'), value);
  return { result: [0, {}], impacted: [owner] };
}
