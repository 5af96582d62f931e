// The pieces of chain state that governance.ts (witnesses, committee, workers, votes), vesting.ts
// and membership.ts share: head_block_time, chain parameters, lifetime membership, and the
// by-account part of the `governance` index (store.ts).

import { TIME_MAX } from '../fc/fc-json.js';
import type { ChainState } from '../store/state.js';
import type { EvalContext } from './ledger.js';

/** time_point_sec::maximum(), a lifetime member's membership_expiration_date */
export const LIFETIME = TIME_MAX;

/** head_block_time(): what Core's evaluators compare dates with. */
export const headTime = (ctx: EvalContext): number => ctx.headTime ?? ctx.blockTime;

export const isLifetimeMember = (account: Record<string, unknown>): boolean => account.membership_expiration_date === LIFETIME;

/** Indexes an object of an account (by_account of witnesses, committee members, workers, vesting balances). */
export function indexByAccount(state: ChainState, type: number, account: number, instance: number): void {
  state.store.governance.putSync(['a', type, account, instance], 1);
}

/** The instances of an account's objects of one type, in id order. */
export function instancesByAccount(state: ChainState, type: number, account: number): number[] {
  const out: number[] = [];
  for (const k of state.store.governance.getKeys({ start: ['a', type, account], end: ['a', type, account + 1] })) out.push(k[3] as number);
  return out;
}

/** A chain parameter of 2.0.0, or Core's default when the genesis left it out. */
function parameter(state: ChainState, name: string, fallback: number | boolean): number | boolean {
  const p = state.get([2, 0, 0]).parameters as Record<string, unknown>;
  const v = p?.[name];
  return v === undefined ? fallback : typeof fallback === 'boolean' ? Boolean(v) : Number(v);
}

export const chainParameter = (state: ChainState, name: string, fallback: number): number => parameter(state, name, fallback) as number;
export const chainFlag = (state: ChainState, name: string, fallback: boolean): boolean => parameter(state, name, fallback) as boolean;

