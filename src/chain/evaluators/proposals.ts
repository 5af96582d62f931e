// Proposals (1.10.x): proposal_create (22), proposal_update (23) and proposal_delete (24), as
// BitShares Core has them, every hardfork of their rules having passed:
//
//  - the evaluators: proposal_evaluator.cpp (proposal_operation_hardfork_visitor's nested
//    proposal_update rule, hardfork_visitor_1479's "future id" rule);
//  - validate(): protocol/proposal.cpp;
//  - the object, is_authorized_to_execute and required_approval_index: proposal_object.cpp/.hpp;
//  - execution: database::push_proposal (db_block.cpp): the proposed operations are applied in a
//    nested undo session, each recorded in history as a virtual operation with its own result, and
//    the proposal removed; if one fails, nothing of them is kept and the error is the proposal's
//    fail_reason;
//  - expiry: database::clear_expired_proposals (db_update.cpp), at the end of each block, which first
//    executes a proposal whose approvals suffice.
//
// As in Core, a proposal with a review period is never executed by proposal_update: only when it
// expires, if its approvals then suffice.
//
// Indexes (store.ts, proposalIndex): [0, expiration, instance] is Core's by_expiration; [1, account,
// instance] is required_approval_index, which get_proposed_transactions reads. Core's index keeps an
// account while it is in any of the required or available sets, except that removing an available
// approval drops the account even if its approval is also required (insert_or_remove_delta removes it
// outright); this index does the same, so get_proposed_transactions answers as Core does.
//
// This chain evaluates only some operations: a proposal of one it does not evaluate is refused at
// creation, with the same error a transaction carrying it gets, rather than accepted and bound to
// fail when executed.

import { fcTime, parseFcTime } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import { RpcError } from '../../errors.js';
import type { ObjectKey } from '../store/store.js';
import type { OperationJson, OperationResult, VirtualOperation } from '../protocol/types.js';
import { operationRequiredAuthorities, sortKeys, verifyAuthority, type AuthorityJson } from '../protocol/authority.js';
import { requiredFee, type FeeScheduleJson } from '../protocol/fees.js';
import { OPERATION_NAMES } from '../protocol/fee-parameters.js';
import { accountInstance, amountOf, feeOf, instanceOf, payFee, type EvalContext, type Evaluated } from './ledger.js';

type Obj = Record<string, unknown>;

/** How proposals apply the operations they hold: the chain's evaluators (evaluators.ts passes them in). */
export interface OperationApplier {
  evaluate(ctx: EvalContext, op: OperationJson): Evaluated;
  /** whether the chain evaluates operations of this code */
  evaluates(code: number): boolean;
}

/** GRAPHENE_COMMITTEE_ACCOUNT */
const COMMITTEE_ACCOUNT = 0;
const INDEX_EXPIRATION = 0;
const INDEX_APPROVAL = 1;

const proposalKey = (instance: number): ObjectKey => [1, 10, instance];
const accountIds = (v: unknown): number[] => ((v as unknown[] | undefined) ?? []).map((a) => instanceOf(a, 1, 2, 'account'));
const sortedIds = (s: Iterable<number>): string[] => [...new Set(s)].sort((a, b) => a - b).map((a) => `1.2.${a}`);
const parameters = (ctx: EvalContext): Obj => ctx.state.get([2, 0, 0]).parameters as Obj;
/** head_block_time(): while a block's transactions apply, the previous block's time. */
const headTime = (ctx: EvalContext): number => ctx.headTime ?? ctx.blockTime;

/** An fc error thrown while reading authorities (a malformed id) is the operation's failure. */
function asChainError<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof RpcError) throw new ChainError(err.message);
    throw err;
  }
}

/** `FC_ASSERT( fee.amount >= 0 )` */
function feeNotNegative(op: Obj, text = ''): void {
  if (amountOf((op.fee as Obj | undefined)?.amount ?? 0) < 0n) throw new ChainError(`fee.amount >= 0: ${text}`);
}

/**
 * operation_validate for an operation a proposal holds: the checks of its validate() that need no
 * state, for the operations this module and htlc.ts define and the simple ones (the others are
 * checked by their evaluator, which starts with its validate() checks, when the proposal executes).
 */
export function operationValidate(op: OperationJson): void {
  const [code, f] = op;
  const amount = (v: unknown): bigint => amountOf((v as Obj | undefined)?.amount ?? 0);
  switch (code) {
    case 0: // transfer
      feeNotNegative(f);
      if (f.from === f.to) throw new ChainError('from != to: ');
      if (!(amount(f.amount) > 0n)) throw new ChainError('amount.amount > 0: ');
      return;
    case 1: // limit_order_create
      if ((f.amount_to_sell as Obj | undefined)?.asset_id === (f.min_to_receive as Obj | undefined)?.asset_id) throw new ChainError('amount_to_sell.asset_id != min_to_receive.asset_id: ');
      feeNotNegative(f);
      if (!(amount(f.amount_to_sell) > 0n)) throw new ChainError('amount_to_sell.amount > 0: ');
      if (!(amount(f.min_to_receive) > 0n)) throw new ChainError('min_to_receive.amount > 0: ');
      return;
    case 22:
      proposalCreateValidate(f);
      return;
    case 23:
      proposalUpdateValidate(f);
      return;
    case 35: // custom
      if (!(amount(f.fee) > 0n)) throw new ChainError('fee.amount > 0: ');
      return;
    case 49: // htlc_create
      feeNotNegative(f, 'Fee amount should not be negative');
      if (!(amount(f.amount) > 0n)) throw new ChainError('amount.amount > 0: HTLC amount should be greater than zero');
      return;
    case 50: // htlc_redeem, htlc_extend
    case 52:
      feeNotNegative(f, 'Fee amount should not be negative');
      return;
    default:
      feeNotNegative(f);
  }
}

/** proposal_create_operation::validate */
function proposalCreateValidate(op: Obj): void {
  const proposed = (op.proposed_ops as { op: OperationJson }[] | undefined) ?? [];
  if (proposed.length === 0) throw new ChainError('!proposed_ops.empty(): ');
  for (const p of proposed) operationValidate(p.op);
}

/** proposal_update_operation::validate */
function proposalUpdateValidate(op: Obj): void {
  feeNotNegative(op);
  const list = (name: string): string[] => ((op[name] as unknown[] | undefined) ?? []).map(String);
  const [activeAdd, activeRemove, ownerAdd, ownerRemove, keyAdd, keyRemove] = [
    'active_approvals_to_add',
    'active_approvals_to_remove',
    'owner_approvals_to_add',
    'owner_approvals_to_remove',
    'key_approvals_to_add',
    'key_approvals_to_remove',
  ].map(list) as [string[], string[], string[], string[], string[], string[]];
  if ([activeAdd, activeRemove, ownerAdd, ownerRemove, keyAdd, keyRemove].every((l) => l.length === 0)) {
    throw new ChainError(
      '!(active_approvals_to_add.empty() && active_approvals_to_remove.empty() && owner_approvals_to_add.empty() && owner_approvals_to_remove.empty() && key_approvals_to_add.empty() && key_approvals_to_remove.empty()): ',
    );
  }
  const disjoint = (add: string[], remove: string[], name: string): void => {
    for (const a of add) if (remove.includes(a)) throw new ChainError(`${name}.find(a) == ${name}.end(): Cannot add and remove approval at the same time.`);
  };
  disjoint(activeAdd, activeRemove, 'active_approvals_to_remove');
  disjoint(ownerAdd, ownerRemove, 'owner_approvals_to_remove');
  disjoint(keyAdd, keyRemove, 'key_approvals_to_remove');
}

/** The proposal object, or Core's error for a missing one (`o.proposal(d)`). */
function loadProposal(ctx: EvalContext, id: unknown): { instance: number; obj: Obj } {
  const instance = instanceOf(id, 1, 10, 'proposal');
  const obj = ctx.state.find(proposalKey(instance));
  if (!obj) throw new ChainError(`maybe_found != nullptr: Unable to find Object 1.10.${instance}`);
  return { instance, obj };
}

/** The accounts of required_approval_index for a proposal: every required and available approval. */
function approvalAccounts(p: Obj): Set<number> {
  return new Set(['required_active_approvals', 'required_owner_approvals', 'available_active_approvals', 'available_owner_approvals'].flatMap((f) => accountIds(p[f])));
}

/** Removes a proposal with its index entries (Core's remove, and the secondary index's object_removed). */
function removeProposal(ctx: EvalContext, instance: number, p: Obj): void {
  const { store } = ctx.state;
  store.proposalIndex.removeSync([INDEX_EXPIRATION, parseFcTime(String(p.expiration_time)), instance]);
  for (const a of approvalAccounts(p)) store.proposalIndex.removeSync([INDEX_APPROVAL, a, instance]);
  ctx.state.remove(proposalKey(instance));
}

/** The required authorities of the proposed operations, as proposal_create's do_evaluate gathers them. */
function requiredOf(ops: readonly OperationJson[]): { active: Set<number>; owner: Set<number>; other: AuthorityJson[] } {
  const active = new Set<number>();
  const owner = new Set<number>();
  const other: AuthorityJson[] = [];
  // MUST_IGNORE_CUSTOM_OP_REQD_AUTHS is false since HARDFORK_CORE_210, long before this chain.
  asChainError(() => {
    for (const op of ops) operationRequiredAuthorities(op, active, owner, other, false);
  });
  for (const a of owner) active.delete(a);
  return { active, owner, other };
}

/** The nested proposal_update/delete operations (hardfork_visitor_1479), through nested proposals. */
function nestedUpdates(ops: readonly OperationJson[], seen = { count: 0, max: 0 }): { count: number; max: number } {
  for (const [code, f] of ops) {
    if (code === 23 || code === 24) {
      const instance = instanceOf(f.proposal, 1, 10, 'proposal');
      if (seen.count === 0 || instance > seen.max) seen.max = instance;
      seen.count++;
    } else if (code === 22) nestedUpdates(((f.proposed_ops as { op: OperationJson }[] | undefined) ?? []).map((p) => p.op), seen);
  }
  return seen;
}

/** proposal_operation_hardfork_visitor on proposal_create: at most one proposal_update per proposal, at every depth. */
function checkNestedUpdates(ops: readonly OperationJson[]): void {
  let update = false;
  for (const [code, f] of ops) {
    if (code === 22) checkNestedUpdates(((f.proposed_ops as { op: OperationJson }[] | undefined) ?? []).map((p) => p.op));
    if (code === 23) {
      if (update) throw new ChainError('!already_contains_proposal_update: At most one proposal update can be nested in a proposal!');
      update = true;
    }
  }
}

/** This chain's refusal of an operation it does not evaluate, nested ones included. */
function checkSupported(ops: readonly OperationJson[], applier: OperationApplier): void {
  for (const [code, f] of ops) {
    if (!applier.evaluates(code)) throw new ChainError(`is_supported(op): operation ${code} (${OPERATION_NAMES[code] ?? '?'}) is not supported on this chain`);
    if (code === 22) checkSupported(((f.proposed_ops as { op: OperationJson }[] | undefined) ?? []).map((p) => p.op), applier);
  }
}

/** proposal_create_evaluator */
export function proposalCreate(ctx: EvalContext, op: Obj, applier: OperationApplier): Evaluated {
  proposalCreateValidate(op);
  const ops = ((op.proposed_ops as { op: OperationJson }[] | undefined) ?? []).map((p) => p.op);
  checkSupported(ops, applier);

  // do_evaluate
  const payer = accountInstance(ctx, op.fee_paying_account, 'fee_paying_account');
  const blockTime = headTime(ctx);
  checkNestedUpdates(ops);
  const updates = nestedUpdates(ops);
  const params = parameters(ctx);
  const expiration = parseFcTime(String(op.expiration_time));
  if (!(expiration > blockTime)) throw new ChainError('o.expiration_time > block_time: Proposal has already expired on creation.');
  if (!(expiration <= blockTime + Number(params.maximum_proposal_lifetime))) {
    throw new ChainError('o.expiration_time <= block_time + global_parameters.maximum_proposal_lifetime: Proposal expiration time is too far in the future.');
  }
  const review = op.review_period_seconds === undefined || op.review_period_seconds === null ? undefined : Number(op.review_period_seconds);
  if (review !== undefined && !(review < expiration - blockTime)) {
    throw new ChainError('!o.review_period_seconds || fc::seconds( *o.review_period_seconds ) < ( o.expiration_time - block_time ): Proposal review period must be less than its overall lifetime.');
  }
  const required = requiredOf(ops);
  if (required.other.length > 0) throw new ChainError('other.empty(): Proposals containing operations requiring non-account authorities are not yet implemented.');
  if (required.active.has(COMMITTEE_ACCOUNT) || required.owner.has(COMMITTEE_ACCOUNT)) {
    const min = Number(params.committee_proposal_review_period);
    // GRAPHENE_ASSERT: proposal_create_review_period_required / _insufficient, the message alone
    if (review === undefined) throw new ChainError(`Review period not given, but at least ${min} required`);
    if (!(review >= min)) throw new ChainError(`Review period of ${review} specified, but at least ${min} required`);
  }
  // _proposed_trx.validate(): its operations were validated above

  // do_apply
  const { instance, obj } = ctx.state.create(1, 10, (id) => {
    const p: Obj = { id, expiration_time: fcTime(expiration) };
    if (review !== undefined) p.review_period_time = fcTime(expiration - review);
    p.proposed_transaction = { ref_block_num: 0, ref_block_prefix: 0, expiration: fcTime(expiration), operations: ops, extensions: [] };
    p.required_active_approvals = sortedIds(required.active);
    p.available_active_approvals = [];
    p.required_owner_approvals = sortedIds(required.owner);
    p.available_owner_approvals = [];
    p.available_key_approvals = [];
    p.proposer = `1.2.${payer}`;
    p.fail_reason = '';
    return p;
  });
  if (!(updates.count === 0 || instance > updates.max)) throw new ChainError('vtor_1479.nested_update_count == 0 || proposal.id.instance() > vtor_1479.max_update_instance: Cannot update/delete a proposal with a future id!');
  ctx.state.store.proposalIndex.putSync([INDEX_EXPIRATION, expiration, instance], 1);
  for (const a of approvalAccounts(obj)) ctx.state.store.proposalIndex.putSync([INDEX_APPROVAL, a, instance], 1);
  payFee(ctx, payer, op.fee);
  // db_notify.cpp: the fee payer, and the accounts whose authorities the proposed operations need
  return { result: [1, `1.10.${instance}`], impacted: [payer, ...required.active, ...required.owner] };
}

/** proposal_object::is_authorized_to_execute: verify_authority with the proposal's approvals, committee allowed. */
function isAuthorizedToExecute(ctx: EvalContext, p: Obj): boolean {
  const account = (i: number): Obj | undefined => ctx.state.find([1, 2, i]);
  try {
    verifyAuthority((p.proposed_transaction as { operations: OperationJson[] }).operations, (p.available_key_approvals as string[]) ?? [], {
      getActive: (i) => account(i)?.active as AuthorityJson | undefined,
      getOwner: (i) => account(i)?.owner as AuthorityJson | undefined,
      allowNonImmediateOwner: true,
      maxRecursion: Number(parameters(ctx).max_authority_depth),
      allowCommittee: true,
      activeApprovals: accountIds(p.available_active_approvals),
      ownerApprovals: accountIds(p.available_owner_approvals),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * database::push_proposal: applies the proposed operations in a nested undo session; each enters
 * history as a virtual operation with its own result, before the virtual operations it causes.
 * Either all apply and the proposal is removed, or the error is thrown and nothing is kept.
 */
function pushProposal(ctx: EvalContext, instance: number, applier: OperationApplier): OperationResult[] {
  const vops = ctx.virtualOps;
  const before = vops?.length ?? 0;
  try {
    return ctx.state.attempt(() => {
      const p = ctx.state.get(proposalKey(instance));
      const schedule = parameters(ctx).current_fees as FeeScheduleJson;
      const results: OperationResult[] = [];
      for (const op of (p.proposed_transaction as { operations: OperationJson[] }).operations) {
        const entry: { op: OperationJson; result: OperationResult; impacted: readonly number[] } = { op, result: [0, {}], impacted: [] };
        vops?.push(entry as VirtualOperation);
        // generic_evaluator::prepare_fee and its fee check, which the proposal's execution does not skip
        const fee = (op[1].fee ?? {}) as Obj;
        if (fee.asset_id !== '1.3.0') throw new ChainError(`fee.asset_id == asset_id_type(): fees are paid in the core asset on this chain, got ${String(fee.asset_id)}`);
        const paid = amountOf(fee.amount);
        const needed = BigInt(requiredFee(op, schedule));
        if (paid < needed) throw new ChainError(`core_fee_paid >= required_fee: Insufficient Fee Paid: ${paid} paid, ${needed} required`);
        const { result, impacted } = applier.evaluate(ctx, op);
        entry.result = result;
        entry.impacted = impacted;
        results.push(result);
      }
      removeProposal(ctx, instance, p);
      return results;
    });
  } catch (err) {
    vops?.splice(before);
    throw err;
  }
}

/** The text Core keeps as fail_reason (e.to_string at log level all: the error with its context). */
const failReason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** proposal_update_evaluator */
export function proposalUpdate(ctx: EvalContext, op: Obj, applier: OperationApplier): Evaluated {
  proposalUpdateValidate(op);
  const payer = accountInstance(ctx, op.fee_paying_account, 'fee_paying_account');
  feeOf(ctx, op.fee);
  // do_evaluate
  const { instance, obj: p } = loadProposal(ctx, op.proposal);
  const activeAdd = accountIds(op.active_approvals_to_add);
  const activeRemove = accountIds(op.active_approvals_to_remove);
  const ownerAdd = accountIds(op.owner_approvals_to_add);
  const ownerRemove = accountIds(op.owner_approvals_to_remove);
  const reviewTime = p.review_period_time === undefined ? undefined : parseFcTime(String(p.review_period_time));
  if (reviewTime !== undefined && headTime(ctx) >= reviewTime && (activeAdd.length > 0 || ownerAdd.length > 0)) {
    throw new ChainError('o.active_approvals_to_add.empty() && o.owner_approvals_to_add.empty(): This proposal is in its review period. No new approvals may be added.');
  }
  const availableActive = new Set(accountIds(p.available_active_approvals));
  const availableOwner = new Set(accountIds(p.available_owner_approvals));
  for (const id of activeRemove) if (!availableActive.has(id)) throw new ChainError('_proposal->available_active_approvals.find(id) != _proposal->available_active_approvals.end(): ');
  for (const id of ownerRemove) if (!availableOwner.has(id)) throw new ChainError('_proposal->available_owner_approvals.find(id) != _proposal->available_owner_approvals.end(): ');
  for (const id of [...activeAdd, ...ownerAdd]) accountInstance(ctx, `1.2.${id}`, 'approval');

  // do_apply: the approvals, and required_approval_index's delta of the available sets
  const index = ctx.state.store.proposalIndex;
  const delta = (before: Set<number>, after: Set<number>): void => {
    for (const a of before) if (!after.has(a)) index.removeSync([INDEX_APPROVAL, a, instance]);
    for (const a of after) if (!before.has(a)) index.putSync([INDEX_APPROVAL, a, instance], 1);
  };
  const nextActive = new Set([...availableActive, ...activeAdd].filter((a) => !activeRemove.includes(a)));
  const nextOwner = new Set([...availableOwner, ...ownerAdd].filter((a) => !ownerRemove.includes(a)));
  const keys = new Set(((p.available_key_approvals as string[] | undefined) ?? []).map(String));
  for (const k of (op.key_approvals_to_add as string[] | undefined) ?? []) keys.add(String(k));
  for (const k of (op.key_approvals_to_remove as string[] | undefined) ?? []) keys.delete(String(k));
  p.available_active_approvals = sortedIds(nextActive);
  p.available_owner_approvals = sortedIds(nextOwner);
  p.available_key_approvals = sortKeys(keys);
  ctx.state.touch(proposalKey(instance));
  delta(availableActive, nextActive);
  delta(availableOwner, nextOwner);

  // A proposal with a review period executes only when it expires.
  if (reviewTime === undefined && isAuthorizedToExecute(ctx, p)) {
    try {
      pushProposal(ctx, instance, applier);
    } catch (err) {
      if (!(err instanceof ChainError || err instanceof RpcError)) throw err;
      // Kept, with the reason; tried again when it expires.
      p.fail_reason = failReason(err);
      ctx.state.touch(proposalKey(instance));
    }
  }
  payFee(ctx, payer, op.fee);
  return { result: [0, {}], impacted: [payer] };
}

/** proposal_delete_evaluator */
export function proposalDelete(ctx: EvalContext, op: Obj): Evaluated {
  feeNotNegative(op);
  const payer = accountInstance(ctx, op.fee_paying_account, 'fee_paying_account');
  feeOf(ctx, op.fee);
  const { instance, obj: p } = loadProposal(ctx, op.proposal);
  const required = accountIds(op.using_owner_authority === true ? p.required_owner_approvals : p.required_active_approvals);
  if (!required.includes(payer)) throw new ChainError('required_approvals->find(o.fee_paying_account) != required_approvals->end(): Provided authority is not authoritative for this proposal.');
  removeProposal(ctx, instance, p);
  payFee(ctx, payer, op.fee);
  return { result: [0, {}], impacted: [payer] };
}

/**
 * database::clear_expired_proposals, at the end of a block (the head block time is then the block's):
 * every proposal whose expiration is at or before it, oldest first, is executed if its approvals
 * suffice, and otherwise (or if executing it fails) removed.
 */
export function clearExpiredProposals(ctx: EvalContext, applier: OperationApplier): void {
  const expired: number[] = [];
  for (const [, , instance] of ctx.state.store.proposalIndex.getKeys({ start: [INDEX_EXPIRATION, 0], end: [INDEX_EXPIRATION, ctx.blockTime + 1] })) expired.push(instance!);
  for (const instance of expired) {
    const p = ctx.state.find(proposalKey(instance));
    if (!p) continue;
    if (isAuthorizedToExecute(ctx, p)) {
      try {
        pushProposal(ctx, instance, applier);
        continue;
      } catch (err) {
        if (!(err instanceof ChainError || err instanceof RpcError)) throw err;
        // Core logs it and deletes the proposal
      }
    }
    removeProposal(ctx, instance, p);
  }
}
