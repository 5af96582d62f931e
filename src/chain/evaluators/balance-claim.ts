// Genesis balance objects (1.15.x) and balance_claim (op 37), as BitShares Core has them:
// balance_object (chain/balance_object.hpp), database::init_genesis (db_genesis.cpp) and
// balance_claim_evaluator (balance_evaluator.cpp).
//
// A genesis file's initial balances are handed to addresses, not accounts: each becomes a balance
// object owned by the address, and whoever holds a key of that address claims the whole of it into
// an account with balance_claim, signed by that key and by the account. Only the genesis creates
// balance objects. Vesting genesis balances (linear_vesting_policy) are refused by the genesis
// reader, so every balance object here is claimed whole, as Core claims a non-vesting one.

import { i64, TIME_EPOCH } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { keyAddresses } from '../protocol/authority.js';
import type { ChainState } from '../store/state.js';
import { accountInstance, adjustBalance, amountOf, instanceOf, type EvalContext, type Evaluated } from './ledger.js';
import { nullPublicKey } from '../crypto/public-key.js';

/** A balance object as Core serves it: (owner)(balance)(vesting_policy)(last_claim_date); an empty optional is left out. */
export function createBalanceObject(state: ChainState, owner: string, amount: bigint, asset: number): number {
  const { instance } = state.create(1, 15, (id) => ({ id, owner, balance: { amount: i64(amount), asset_id: `1.3.${asset}` }, last_claim_date: TIME_EPOCH }));
  state.store.balanceOwners.putSync([owner, asset, instance], 1);
  return instance;
}

/** balance_claim_operation: (fee)(deposit_to_account)(balance_to_claim)(balance_owner_key)(total_claimed). */
export function balanceClaim(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  // balance_claim_operation::validate (balance.cpp)
  const fee = op.fee as { amount?: unknown; asset_id?: unknown } | undefined;
  if (amountOf(fee?.amount ?? 0) !== 0n || (fee?.asset_id ?? '1.3.0') !== '1.3.0') throw new ChainError('fee == asset(): the fee of balance_claim is 0');
  const key = String(op.balance_owner_key ?? '');
  if (key === nullPublicKey()) throw new ChainError('balance_owner_key != public_key_type(): ');

  const account = accountInstance(ctx, op.deposit_to_account, 'deposit_to_account');
  const instance = instanceOf(op.balance_to_claim, 1, 15, 'balance_to_claim');
  const balance = ctx.state.find([1, 15, instance]);
  if (!balance) throw new ChainError(`balance_to_claim ${String(op.balance_to_claim)} does not exist`);
  const owner = String(balance.owner);
  // The key's address, or one of its four PTS addresses (compressed or not, version 56 or 0).
  if (!keyAddresses(key).includes(owner)) throw new ChainError(`Balance owner key was specified as '${key}' but balance's actual owner is '${owner}'`);
  const held = balance.balance as { amount: unknown; asset_id: string };
  const claimed = op.total_claimed as { amount?: unknown; asset_id?: unknown } | undefined;
  if (claimed?.asset_id !== held.asset_id) throw new ChainError('op.total_claimed.asset_id == balance->asset_type(): ');
  if (amountOf(claimed.amount) !== amountOf(held.amount)) throw new ChainError('op.total_claimed == balance->balance: a balance without vesting is claimed whole');

  const asset = instanceOf(held.asset_id, 1, 3, 'balance asset');
  ctx.state.remove([1, 15, instance]);
  ctx.state.store.balanceOwners.removeSync([owner, asset, instance]);
  adjustBalance(ctx, account, asset, amountOf(held.amount));
  return { result: [0, {}], impacted: [account] };
}
