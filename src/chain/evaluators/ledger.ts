// What every evaluator reads and changes besides its own objects: the evaluation context, account
// and asset lookups by id, balances (Core's adjust_balance, db_balance.cpp) and fee accounting.
// Evaluators and the matching engine (market.ts) share it; it imports only the state below it.

import { i64 } from '../fc/fc-json.js';
import type { ChainState } from '../store/state.js';
import type { OperationResult, VirtualOperation } from '../protocol/types.js';
import { objectIdParts } from '../fc/object-id.js';
import { ChainError } from './chain-error.js';
import { PriceError } from '../protocol/price.js';

export interface EvalContext {
  readonly state: ChainState;
  readonly blockNum: number;
  /** the time of the block being made, seconds */
  readonly blockTime: number;
  /**
   * head_block_time() while the block's transactions apply: the previous block's time, which Core
   * checks order expirations against (blockTime when not given)
   */
  readonly headTime?: number;
  /**
   * The virtual operations the evaluation causes, in order (Core's push_applied_operation): the
   * writer records them after the operation that caused them. Not kept when absent (a dry run).
   */
  readonly virtualOps?: VirtualOperation[];
}

export interface Evaluated {
  readonly result: OperationResult;
  readonly impacted: readonly number[];
}

export const amountOf = (v: unknown): bigint => BigInt(typeof v === 'number' ? Math.trunc(v) : String(v ?? 0));

export function instanceOf(id: unknown, space: number, type: number, what: string): number {
  const p = objectIdParts(id);
  if (!p || p.space !== space || p.type !== type) throw new ChainError(`${what} is not a ${space}.${type}.x id: ${String(id)}`);
  return p.instance;
}

export const accountInstance = (ctx: EvalContext, id: unknown, what: string): number => {
  const i = instanceOf(id, 1, 2, what);
  if (!ctx.state.exists([1, 2, i])) throw new ChainError(`${what} ${String(id)} does not exist`);
  return i;
};

export const assetInstance = (ctx: EvalContext, id: unknown, what: string): number => {
  const i = instanceOf(id, 1, 3, what);
  if (!ctx.state.exists([1, 3, i])) throw new ChainError(`${what} ${String(id)} does not exist`);
  return i;
};

/** The balance object of (account, asset), created at zero when missing. */
function balanceObject(ctx: EvalContext, account: number, asset: number): { key: [number, number, number]; obj: Record<string, unknown> } {
  const { state } = ctx;
  const instance = state.store.balances.get([account, asset]);
  if (instance !== undefined) return { key: [2, 5, instance], obj: state.get([2, 5, instance]) };
  const created = state.create(2, 5, (id) => ({ id, owner: `1.2.${account}`, asset_type: `1.3.${asset}`, balance: 0, maintenance_flag: false }));
  state.store.balances.putSync([account, asset], created.instance);
  state.store.assetHolders.putSync([asset, account], created.instance);
  return { key: [2, 5, created.instance], obj: created.obj };
}

export function balanceOf(ctx: EvalContext, account: number, asset: number): bigint {
  const instance = ctx.state.store.balances.get([account, asset]);
  return instance === undefined ? 0n : amountOf(ctx.state.get([2, 5, instance]).balance);
}

/** Adds `delta` to a balance; refuses to go below zero and ignores zero, as Core's adjust_balance does. */
export function adjustBalance(ctx: EvalContext, account: number, asset: number, delta: bigint): void {
  if (delta === 0n) return;
  const { key, obj } = balanceObject(ctx, account, asset);
  const next = amountOf(obj.balance) + delta;
  if (next < 0n) {
    const name = String(ctx.state.get([1, 2, account]).name);
    throw new ChainError(`Insufficient Balance: ${name}'s balance of ${amountOf(obj.balance)} of asset 1.3.${asset} is less than required ${-delta}`);
  }
  obj.balance = i64(next);
  ctx.state.touch(key);
  if (asset === 0) addToStatistics(ctx, account, 'core_in_balance', delta);
}

/** Adds to a share_type field of an account's statistics (2.6.x). */
export function addToStatistics(ctx: EvalContext, account: number, field: 'core_in_balance' | 'total_core_in_orders' | 'pending_fees' | 'lifetime_fees_paid', delta: bigint): void {
  const stats = ctx.state.get([2, 6, account]);
  stats[field] = i64(amountOf(stats[field]) + delta);
  ctx.state.touch([2, 6, account]);
}

/**
 * Counts a core fee the account has paid in its statistics (Core's account_statistics_object::pay_fee
 * when the fee is charged, and the maintenance interval's tally into lifetime_fees_paid, which this
 * chain, never running one, does at once).
 */
export function countFee(ctx: EvalContext, account: number, amount: bigint): void {
  if (amount === 0n) return;
  addToStatistics(ctx, account, 'pending_fees', amount);
  addToStatistics(ctx, account, 'lifetime_fees_paid', amount);
}

/** The fee of an operation, checked as its validate() does: `{amount, asset instance}`. */
export function feeOf(ctx: EvalContext, fee: unknown): { amount: bigint; asset: number } {
  const f = fee as { amount?: unknown; asset_id?: unknown } | undefined;
  const amount = amountOf(f?.amount ?? 0);
  if (amount < 0n) throw new ChainError('fee.amount >= 0: fee must not be negative');
  return { amount, asset: amount === 0n ? 0 : assetInstance(ctx, f?.asset_id, 'fee asset') };
}

/** Charges the fee to the payer: taken from its balance, counted in its statistics. */
export function payFee(ctx: EvalContext, payer: number, fee: unknown): void {
  const { amount, asset } = feeOf(ctx, fee);
  if (amount === 0n) return;
  adjustBalance(ctx, payer, asset, -amount);
  countFee(ctx, payer, amount);
}

/** asset_issuer_permission_flags::white_list (protocol/types.hpp) */
const WHITE_LIST = 0x02;
/** GRAPHENE_COMMITTEE_ACCOUNT */
const COMMITTEE_ACCOUNT = 0;

/**
 * is_authorized_asset (is_authorized_asset.hpp/.cpp): whether the account may hold and transact the
 * asset. Only an asset with the white_list flag restricts anyone: an account blacklisted by one of
 * its blacklist authorities may not; when it has whitelist authorities, only an account one of them
 * whitelists may. Who lists whom is each account's whitelisting_accounts / blacklisting_accounts
 * (account_whitelist keeps them). The committee account always may (BSIP 86). Accounts have no
 * allowed_assets on this chain (account_update's extension is not evaluated).
 */
export function isAuthorizedAsset(ctx: EvalContext, account: number, asset: Record<string, unknown>): boolean {
  const options = asset.options as Record<string, unknown>;
  if ((Number(options.flags ?? 0) & WHITE_LIST) === 0) return true;
  if (account === COMMITTEE_ACCOUNT) return true;
  const acct = ctx.state.get([1, 2, account]);
  const blacklist = new Set((options.blacklist_authorities as string[] | undefined) ?? []);
  for (const id of (acct.blacklisting_accounts as string[] | undefined) ?? []) if (blacklist.has(id)) return false;
  const whitelist = new Set((options.whitelist_authorities as string[] | undefined) ?? []);
  if (whitelist.size === 0) return true;
  for (const id of (acct.whitelisting_accounts as string[] | undefined) ?? []) if (whitelist.has(id)) return true;
  return false;
}

/** Price arithmetic failures (protocol/price.ts) are chain errors of the operation that caused them. */
export function priced<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof PriceError) throw new ChainError(err.message);
    throw err;
  }
}
