// Operation evaluators: how each supported operation changes chain state, after BitShares Core's
// evaluators (libraries/chain/*_evaluator.cpp), reduced to what this chain has. Each returns the
// operation result (static_variant) and the accounts the operation concerns, as Core's
// operation_get_impacted_accounts lists them for the history plugin.
//
// Validation that needs signatures, fees and TaPoS belongs to the transaction validator; evaluators
// check only what state decides (balances, names, symbols) and throw ChainError otherwise.

import { fcTime, i64 } from '../fc/fc-json.js';
import { accountObject, accountStatisticsObject, assetDynamicDataObject, assetObject, LIFETIME_REFERRER_PERCENT_OF_FEE, type Authority } from './objects.js';
import type { ChainState } from '../store/state.js';
import type { OperationJson } from '../protocol/types.js';
import { ChainError } from './chain-error.js';
import { accountInstance, adjustBalance, amountOf, assetInstance, countFee, feeOf, instanceOf, isAuthorizedAsset, payFee, type EvalContext, type Evaluated } from './ledger.js';
import { limitOrderCancel, limitOrderCreate } from './market.js';
import { callOrderUpdate } from './margin.js';
import { balanceClaim } from './balance-claim.js';
import { ASSET_FLAGS, assetClaimFees, assetClaimPool, assetFundFeePool, assetReserve, assetUpdate, assetUpdateIssuer, checkAuthorityLists, isMarketIssued, overrideTransfer, validateFlags, validateNewAssetOptions } from './asset-ops.js';
import { assetGlobalSettle, assetPublishFeed, assetSettle, assetUpdateBitasset, assetUpdateFeedProducers, bidCollateral, createBitassetData, evaluateNewBitasset, validateNewBitasset } from './bitasset-ops.js';
import { proposalCreate, proposalDelete, proposalUpdate, type OperationApplier } from './proposals.js';
import { htlcCreate, htlcExtend, htlcRedeem } from './htlc.js';
import { committeeMemberCreate, committeeMemberUpdate, isVoting, numCommitteeVoted, validateAccountOptions, verifyAccountVotes, witnessCreate, witnessUpdate, workerCreate } from './governance.js';
import { accountUpgrade, accountWhitelist } from './membership.js';
import { vestingBalanceCreate, vestingBalanceWithdraw } from './vesting.js';
import { OPERATION_NAMES } from '../protocol/fee-parameters.js';

export { ChainError } from './chain-error.js';
export { adjustBalance, balanceOf, type EvalContext, type Evaluated } from './ledger.js';
export type { OperationJson, OperationResult } from '../protocol/types.js';

const authorityAccounts = (a: Authority | undefined): number[] =>
  (a?.account_auths ?? []).map(([id]) => instanceOf(id, 1, 2, 'authority account'));

/**
 * Keeps the key and account reference indexes of one account in step with its authorities and memo
 * key (Core's account_member_index: owner and active key_auths, the memo key, and account_auths).
 */
export function indexAccountReferences(state: ChainState, account: number, before: Record<string, unknown> | undefined, after: Record<string, unknown>): void {
  const keysOf = (a: Record<string, unknown> | undefined): Set<string> => {
    const out = new Set<string>();
    if (!a) return out;
    for (const auth of [a.owner, a.active] as (Authority | undefined)[]) for (const [k] of auth?.key_auths ?? []) out.add(k);
    const memo = (a.options as { memo_key?: string } | undefined)?.memo_key;
    if (memo) out.add(memo);
    return out;
  };
  const accountsOf = (a: Record<string, unknown> | undefined): Set<number> =>
    new Set(a ? [...authorityAccounts(a.owner as Authority), ...authorityAccounts(a.active as Authority)] : []);
  const [k0, k1] = [keysOf(before), keysOf(after)];
  for (const k of k0) if (!k1.has(k)) state.store.keyReferences.removeSync([k, account]);
  for (const k of k1) if (!k0.has(k)) state.store.keyReferences.putSync([k, account], 1);
  const [a0, a1] = [accountsOf(before), accountsOf(after)];
  for (const a of a0) if (!a1.has(a)) state.store.accountReferences.removeSync([a, account]);
  for (const a of a1) if (!a0.has(a)) state.store.accountReferences.putSync([a, account], 1);
}

const ACCOUNT_NAME = /^[a-z][a-z0-9-]{1,62}[a-z0-9]$/;
const SYMBOL = /^[A-Z][A-Z0-9.]{1,14}[A-Z]$/;

type Evaluator = (ctx: EvalContext, op: Record<string, unknown>) => Evaluated;

export const EVALUATORS: Readonly<Record<number, Evaluator>> = {
  // limit_order_create_operation and limit_order_cancel_operation (market_evaluator.cpp, via market.ts)
  1: limitOrderCreate,
  2: limitOrderCancel,
  // call_order_update_operation (market_evaluator.cpp, via the margin engine margin.ts)
  3: callOrderUpdate,
  // balance_claim_operation (balance_evaluator.cpp, via balance-claim.ts)
  37: balanceClaim,
  // asset_update, asset_reserve, asset_fund_fee_pool, override_transfer, asset_claim_fees,
  // asset_claim_pool, asset_update_issuer (asset_evaluator.cpp, transfer_evaluator.cpp, via asset-ops.ts)
  11: assetUpdate,
  15: assetReserve,
  16: assetFundFeePool,
  38: overrideTransfer,
  43: assetClaimFees,
  47: assetClaimPool,
  48: assetUpdateIssuer,
  // asset_update_bitasset, asset_update_feed_producers, asset_settle, asset_global_settle,
  // asset_publish_feed (asset_evaluator.cpp) and bid_collateral (market_evaluator.cpp), via bitasset-ops.ts
  12: assetUpdateBitasset,
  13: assetUpdateFeedProducers,
  17: assetSettle,
  18: assetGlobalSettle,
  19: assetPublishFeed,
  45: bidCollateral,
  // proposal_create, proposal_update, proposal_delete (proposal_evaluator.cpp, via proposals.ts)
  22: (ctx, op) => proposalCreate(ctx, op, APPLIER),
  23: (ctx, op) => proposalUpdate(ctx, op, APPLIER),
  24: proposalDelete,
  // htlc_create, htlc_redeem, htlc_extend (htlc_evaluator.cpp, via htlc.ts)
  49: htlcCreate,
  50: htlcRedeem,
  52: htlcExtend,
  // account_whitelist_operation and account_upgrade_operation (account_evaluator.cpp, via membership.ts)
  7: accountWhitelist,
  8: accountUpgrade,
  // witness, committee member and worker operations (via governance.ts)
  20: witnessCreate,
  21: witnessUpdate,
  29: committeeMemberCreate,
  30: committeeMemberUpdate,
  34: workerCreate,
  // vesting_balance_create_operation and vesting_balance_withdraw_operation (via vesting.ts)
  32: vestingBalanceCreate,
  33: vestingBalanceWithdraw,

  // transfer_operation (transfer_evaluator.cpp)
  0(ctx, op) {
    const from = accountInstance(ctx, op.from, 'from');
    const to = accountInstance(ctx, op.to, 'to');
    const amount = op.amount as { amount: unknown; asset_id: unknown };
    const asset = assetInstance(ctx, amount?.asset_id, 'amount.asset_id');
    const value = amountOf(amount.amount);
    if (value <= 0n) throw new ChainError('amount.amount > 0: must transfer a nonzero amount');
    if (from === to) throw new ChainError('from != to: cannot transfer to yourself');
    // what the asset's white_list and transfer_restricted flags allow
    const a = ctx.state.get([1, 3, asset]);
    if (!isAuthorizedAsset(ctx, from, a)) throw new ChainError(`'from' account 1.2.${from} is not whitelisted for asset 1.3.${asset}`);
    if (!isAuthorizedAsset(ctx, to, a)) throw new ChainError(`'to' account 1.2.${to} is not whitelisted for asset 1.3.${asset}`);
    if ((Number((a.options as Record<string, unknown>).flags ?? 0) & ASSET_FLAGS.transfer_restricted) !== 0 && a.issuer !== `1.2.${from}` && a.issuer !== `1.2.${to}`) {
      throw new ChainError(`Asset 1.3.${asset} has transfer_restricted flag enabled`);
    }
    payFee(ctx, from, op.fee);
    adjustBalance(ctx, from, asset, -value);
    adjustBalance(ctx, to, asset, value);
    return { result: [0, {}], impacted: [from, to] };
  },

  // account_create_operation (account_evaluator.cpp)
  5(ctx, op) {
    const registrar = accountInstance(ctx, op.registrar, 'registrar');
    const referrer = accountInstance(ctx, op.referrer, 'referrer');
    const name = String(op.name ?? '');
    if (!ACCOUNT_NAME.test(name) || name.includes('--')) throw new ChainError(`is_valid_name( name ): invalid account name '${name}'`);
    if (ctx.state.store.accountNames.get(name) !== undefined) throw new ChainError(`Account '${name}' already exists.`);
    const reg = ctx.state.get([1, 2, registrar]);
    if (reg.membership_expiration_date !== '2106-02-07T06:28:15') throw new ChainError('registrar.is_lifetime_member(): Only Lifetime members may register an account.');
    payFee(ctx, registrar, op.fee);
    const options = op.options as Record<string, unknown>;
    const owner = op.owner as Authority;
    const active = op.active as Authority;
    const created = ctx.state.create(1, 2, (_id, instance) => {
      const a = accountObject({
        instance,
        name,
        registrar,
        referrer,
        lifetimeReferrer: instanceOf(ctx.state.get([1, 2, referrer]).lifetime_referrer, 1, 2, 'lifetime referrer'),
        lifetimeMember: false,
        lifetimeReferrerFeePercentage: LIFETIME_REFERRER_PERCENT_OF_FEE,
        referrerRewardsPercentage: Number(op.referrer_percent ?? 0),
        owner,
        active,
        memoKey: String(options?.memo_key ?? ''),
        votingAccount: instanceOf(options?.voting_account ?? '1.2.5', 1, 2, 'voting_account'),
        creationBlockNum: ctx.blockNum,
        creationTime: fcTime(ctx.blockTime),
      });
      a.options = options;
      return a;
    });
    ctx.state.create(2, 6, () => accountStatisticsObject({ instance: created.instance, name }));
    ctx.state.store.accountNames.putSync(name, created.instance);
    indexAccountReferences(ctx.state, created.instance, undefined, created.obj);
    const impacted = [registrar, referrer, created.instance, ...authorityAccounts(owner), ...authorityAccounts(active)];
    return { result: [1, `1.2.${created.instance}`], impacted };
  },

  // account_update_operation
  6(ctx, op) {
    const options = op.new_options as Record<string, unknown> | undefined;
    // validate(): new_options->validate()
    if (options) validateAccountOptions(options);
    const account = accountInstance(ctx, op.account, 'account');
    // do_evaluate: verify_account_votes
    if (options) verifyAccountVotes(ctx.state, options);
    payFee(ctx, account, op.fee);
    const a = ctx.state.get([1, 2, account]);
    const before = { owner: a.owner, active: a.active, options: a.options };
    if (options) {
      // A change of proxy or votes is recorded in the statistics (is_voting, last_vote_time).
      const old = a.options as Record<string, unknown>;
      if (options.voting_account !== old.voting_account || JSON.stringify(options.votes ?? []) !== JSON.stringify(old.votes ?? [])) {
        const stats = ctx.state.get([2, 6, account]);
        stats.is_voting = isVoting(options);
        stats.last_vote_time = fcTime(ctx.headTime ?? ctx.blockTime);
        ctx.state.touch([2, 6, account]);
      }
    }
    if (op.owner) a.owner = op.owner;
    if (op.active) a.active = op.active;
    if (options) {
      a.options = options;
      a.num_committee_voted = numCommitteeVoted(options);
    }
    ctx.state.touch([1, 2, account]);
    indexAccountReferences(ctx.state, account, before, a);
    return { result: [0, {}], impacted: [account, ...authorityAccounts(op.owner as Authority), ...authorityAccounts(op.active as Authority)] };
  },

  // asset_create_operation (asset_evaluator.cpp): a user-issued asset, or with bitasset_opts a
  // market-issued one (its rules and bitasset data in bitasset-ops.ts)
  10(ctx, op) {
    const issuer = accountInstance(ctx, op.issuer, 'issuer');
    const symbol = String(op.symbol ?? '');
    if (!SYMBOL.test(symbol)) throw new ChainError(`is_valid_symbol( symbol ): invalid asset symbol '${symbol}'`);
    if (ctx.state.store.assetSymbols.get(symbol) !== undefined) throw new ChainError(`Asset with symbol ${symbol} already exists.`);
    const precision = Number(op.precision ?? 0);
    if (!Number.isInteger(precision) || precision < 0 || precision > 12) throw new ChainError('precision <= 12: invalid precision');
    const common = op.common_options as Record<string, unknown>;
    const marketIssued = op.bitasset_opts !== undefined && op.bitasset_opts !== null;
    // asset_create_operation::validate's asset_options::validate, bitasset_options::validate and core
    // exchange rate, and do_evaluate's flags, authority lists and backing asset (asset-ops.ts, bitasset-ops.ts)
    const cer = validateNewAssetOptions(common, marketIssued, () => validateNewBitasset(op));
    validateFlags(common, marketIssued);
    checkAuthorityLists(ctx, common, 'op.common_options');
    evaluateNewBitasset(ctx, op, issuer);
    // Core's asset_create_evaluator::pay_fee puts half the fee (rounded down) into the new asset's fee
    // pool and counts the rest as paid. A market-issued asset's creation does so; for a user-issued
    // one the whole fee counts as paid and the pool starts empty (captured client flows, test/fixtures,
    // hold these numbers: changing them means capturing again).
    const fee = feeOf(ctx, op.fee);
    const pool = marketIssued ? fee.amount / 2n : 0n;
    if (marketIssued) countFee(ctx, issuer, fee.amount - pool);
    else payFee(ctx, issuer, op.fee);
    // A market-issued asset's bitasset data names the asset about to be created.
    const bitassetData = marketIssued ? createBitassetData(ctx, op, ctx.state.peekInstance(1, 3)) : undefined;
    const created = ctx.state.create(1, 3, (_id, instance) => {
      const a = assetObject({ instance, symbol, precision, issuer, maxSupply: amountOf(common?.max_supply ?? 0), bitassetDataId: bitassetData, creationBlockNum: ctx.blockNum, creationTime: fcTime(ctx.blockTime) });
      a.options = { ...common, core_exchange_rate: cer(`1.3.${instance}`) };
      return a;
    });
    const dyn = ctx.state.create(2, 3, () => ({ ...assetDynamicDataObject(created.instance, 0n), fee_pool: i64(pool) }));
    if (dyn.instance !== created.instance) throw new Error('asset and dynamic data instances diverged');
    if (bitassetData !== undefined && ctx.state.get([2, 4, bitassetData]).asset_id !== `1.3.${created.instance}`) throw new Error('asset and bitasset data diverged');
    ctx.state.store.assetSymbols.putSync(symbol, created.instance);
    if (marketIssued) adjustBalance(ctx, issuer, fee.asset, -fee.amount);
    return { result: [1, `1.3.${created.instance}`], impacted: [issuer] };
  },

  // asset_issue_operation
  14(ctx, op) {
    const issuer = accountInstance(ctx, op.issuer, 'issuer');
    const to = accountInstance(ctx, op.issue_to_account, 'issue_to_account');
    const what = op.asset_to_issue as { amount: unknown; asset_id: unknown };
    const asset = assetInstance(ctx, what?.asset_id, 'asset_to_issue.asset_id');
    const a = ctx.state.get([1, 3, asset]);
    if (a.issuer !== `1.2.${issuer}`) throw new ChainError('o.issuer == a.issuer: only the issuer may issue this asset');
    if (isMarketIssued(a)) throw new ChainError('!a.is_market_issued(): Cannot manually issue a market-issued asset.');
    if ((Number((a.options as Record<string, unknown>).flags ?? 0) & ASSET_FLAGS.disable_new_supply) !== 0) throw new ChainError('a.can_create_new_supply(): Can not create new supply');
    if (!isAuthorizedAsset(ctx, to, a)) throw new ChainError('is_authorized_asset( d, *to_account, a ): ');
    const value = amountOf(what.amount);
    if (value <= 0n) throw new ChainError('asset_to_issue.amount > 0: must issue a positive amount');
    const dyn = ctx.state.get([2, 3, asset]);
    const supply = amountOf(dyn.current_supply) + value;
    const max = amountOf((a.options as Record<string, unknown>).max_supply);
    if (supply > max) throw new ChainError(`(d.current_supply + o.asset_to_issue.amount) <= a.options.max_supply: Issuing this much would exceed the asset's max supply`);
    payFee(ctx, issuer, op.fee);
    dyn.current_supply = i64(supply);
    ctx.state.touch([2, 3, asset]);
    adjustBalance(ctx, to, asset, value);
    return { result: [0, {}], impacted: [issuer, to] };
  },

  // custom_operation (custom_evaluator.hpp evaluates nothing): validate()'s positive fee, and the fee.
  // Its data means something only to plugins; the custom_operations plugin reads it once the block
  // is applied (account-storage.ts), so whatever the data holds, the operation itself succeeds.
  35(ctx, op) {
    // validate() runs before the evaluator looks anything up
    if (!(amountOf((op.fee as { amount?: unknown } | undefined)?.amount) > 0n)) throw new ChainError('fee.amount > 0: ');
    const payer = accountInstance(ctx, op.payer, 'payer');
    const auths = ((op.required_auths as unknown[] | undefined) ?? []).map((a) => instanceOf(a, 1, 2, 'required_auths'));
    payFee(ctx, payer, op.fee);
    // db_notify.cpp: the payer, and required_auths (counted since HARDFORK_CORE_210, long past)
    return { result: [0, {}], impacted: [payer, ...auths] };
  },
};

/** The operations this chain evaluates, by code, with Core's names; the validator refuses the others by name. */
export const EVALUATED_OPERATIONS: ReadonlyMap<number, string> = new Map(
  Object.keys(EVALUATORS)
    .map(Number)
    .sort((a, b) => a - b)
    .map((code) => [code, OPERATION_NAMES[code] ?? String(code)]),
);

/** What proposals apply their operations with: these evaluators (proposals.ts cannot import them, they import it). */
export const APPLIER: OperationApplier = {
  evaluate: (ctx, op) => evaluate(ctx, op),
  evaluates: (code) => EVALUATORS[code] !== undefined,
};

export function evaluate(ctx: EvalContext, [code, op]: OperationJson): Evaluated {
  const ev = EVALUATORS[code];
  if (!ev) throw new ChainError(`operation ${code} is not supported on this chain`);
  return ev(ctx, op);
}
