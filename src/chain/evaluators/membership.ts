// account_whitelist (op 7) and account_upgrade (op 8), as BitShares Core evaluates them
// (account_evaluator.cpp; validate() in protocol/account.hpp and account.cpp).

import { ChainError } from './chain-error.js';
import { accountInstance, amountOf, payFee, type EvalContext, type Evaluated } from './ledger.js';
import { PERCENT_100 } from './objects.js';
import { chainFlag, isLifetimeMember, LIFETIME } from './governance-index.js';
import { processFees } from './vesting.js';

/** account_whitelist_operation::account_listing */
const WHITE_LISTED = 0x1;
const BLACK_LISTED = 0x2;

/** A flat_set<account_id_type> (ordered by instance) with `id` put in or taken out. */
function setMember(list: unknown, id: string, member: boolean): string[] {
  const ids = new Set((list as string[] | undefined) ?? []);
  if (member) ids.add(id);
  else ids.delete(id);
  return [...ids].sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
}

/** account_whitelist_operation: (fee)(authorizing_account)(account_to_list)(new_listing)(extensions) */
export function accountWhitelist(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  // validate()
  if (amountOf((op.fee as { amount?: unknown } | undefined)?.amount) < 0n) throw new ChainError('fee.amount >= 0: ');
  const listing = Number(op.new_listing ?? 0);
  if (!(listing < 0x4)) throw new ChainError('new_listing < 0x4: ');
  // The fee payer is looked up first (prepare_fee), then do_evaluate's listed account.
  const authorizing = accountInstance(ctx, op.authorizing_account, 'authorizing_account');
  const listed = accountInstance(ctx, op.account_to_list, 'account_to_list');
  if (!chainFlag(ctx.state, 'allow_non_member_whitelists', false) && !isLifetimeMember(ctx.state.get([1, 2, authorizing]))) {
    throw new ChainError('o.authorizing_account(d).is_lifetime_member(): The authorizing account must be a lifetime member.');
  }
  payFee(ctx, authorizing, op.fee);
  // The listed account records who lists it (whitelisting_accounts, blacklisting_accounts: what
  // transfers and is_authorized_asset read), the authorizing account whom it lists (for tracking).
  const l = ctx.state.get([1, 2, listed]);
  l.whitelisting_accounts = setMember(l.whitelisting_accounts, `1.2.${authorizing}`, (listing & WHITE_LISTED) !== 0);
  l.blacklisting_accounts = setMember(l.blacklisting_accounts, `1.2.${authorizing}`, (listing & BLACK_LISTED) !== 0);
  ctx.state.touch([1, 2, listed]);
  const a = ctx.state.get([1, 2, authorizing]);
  a.whitelisted_accounts = setMember(a.whitelisted_accounts, `1.2.${listed}`, (listing & WHITE_LISTED) !== 0);
  a.blacklisted_accounts = setMember(a.blacklisted_accounts, `1.2.${listed}`, (listing & BLACK_LISTED) !== 0);
  ctx.state.touch([1, 2, authorizing]);
  // db_notify.cpp: the authorizing account (fee payer) and the listed account
  return { result: [0, {}], impacted: [authorizing, listed] };
}

/**
 * account_upgrade_operation: (fee)(account_to_upgrade)(upgrade_to_lifetime_member)(extensions).
 * Annual membership ended with HARDFORK_613 (2017): only the upgrade to lifetime remains.
 */
export function accountUpgrade(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  // validate()
  if (amountOf((op.fee as { amount?: unknown } | undefined)?.amount) < 0n) throw new ChainError('fee.amount >= 0: ');
  // do_evaluate
  const account = accountInstance(ctx, op.account_to_upgrade, 'account_to_upgrade');
  const before = ctx.state.get([1, 2, account]);
  if (isLifetimeMember(before)) throw new ChainError(`!account->is_lifetime_member(): Unable to upgrade account '${String(before.name)}'`);
  // do_apply refuses an annual upgrade or renewal after HARDFORK_613_TIME, long past; it fails
  // there, after the fee, which makes no difference to a refused transaction.
  if (op.upgrade_to_lifetime_member !== true) throw new ChainError(`d.head_block_time() <= HARDFORK_613_TIME: Unable to upgrade account '${String(before.name)}'`);
  payFee(ctx, account, op.fee);
  // do_apply: the account's pending fees (the upgrade fee among them) are paid out to its
  // referrers as they stand before the upgrade (cashback vesting balances: vesting.ts)...
  processFees(ctx, account);
  // ...then it becomes its own registrar, referrer and lifetime referrer.
  const a = ctx.state.get([1, 2, account]);
  const self = `1.2.${account}`;
  a.membership_expiration_date = LIFETIME;
  a.referrer = self;
  a.registrar = self;
  a.lifetime_referrer = self;
  a.lifetime_referrer_fee_percentage = PERCENT_100 - Number(a.network_fee_percentage);
  ctx.state.touch([1, 2, account]);
  return { result: [0, {}], impacted: [account] };
}
