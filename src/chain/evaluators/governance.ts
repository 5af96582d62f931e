// Witnesses (1.6.x), committee members (1.5.x) and workers (1.14.x), and the votes for them, as
// BitShares Core has them: witness_evaluator.cpp, committee_member_evaluator.cpp,
// worker_evaluator.cpp, the protocol's validate() of each operation, and verify_account_votes
// (account_evaluator.cpp) for account_create's and account_update's votes.
//
// Vote ids come from 2.0.0's next_available_vote_id, one per witness or committee member and two
// per worker (for and against), as Core's evaluators take them. Core's indexes of these objects
// (by account, by vote id) are the `governance` sub-database: `['a', type, account, instance]`
// and `['v', vote type, vote instance] → instance`.
//
// What Core does with votes happens at the maintenance interval (db_maint.cpp: vote tallies into
// total_votes, the active witnesses and committee, worker pay). The devnet never runs one, so votes
// are kept on the account as given and checked as Core checks them, and total_votes, the active
// sets and worker balances stay as they were created: what a Core chain shows between two
// maintenance intervals.

import { fcTime, parseFcTime } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import type { ChainState } from '../store/state.js';
import { accountInstance, amountOf, instanceOf, payFee, type EvalContext, type Evaluated } from './ledger.js';
import { MAX_SHARE_SUPPLY } from './objects.js';
import { createVestingBalance } from './vesting.js';
import { chainParameter, headTime, indexByAccount, instancesByAccount, isLifetimeMember } from './governance-index.js';

/** vote_id_type::vote_type (protocol/vote.hpp) */
export const VOTE_COMMITTEE = 0;
export const VOTE_WITNESS = 1;
export const VOTE_WORKER = 2;

/** GRAPHENE_MAX_URL_LENGTH and GRAPHENE_MAX_WORKER_NAME_LENGTH (protocol/config.hpp) */
const MAX_URL_LENGTH = 127;
const MAX_WORKER_NAME_LENGTH = 63;

/** The byte length of a string as fc's std::string holds it (UTF-8). */
const byteLength = (s: unknown): number => Buffer.byteLength(String(s ?? ''), 'utf8');

const checkFee = (op: Record<string, unknown>): void => {
  if (amountOf((op.fee as { amount?: unknown } | undefined)?.amount) < 0n) throw new ChainError('fee.amount >= 0: ');
};

/** Takes the next vote id of a type from 2.0.0, as Core's evaluators do (next_available_vote_id++). */
function nextVoteId(state: ChainState, type: number): string {
  const gp = state.get([2, 0, 0]);
  const n = Number(gp.next_available_vote_id);
  gp.next_available_vote_id = n + 1;
  state.touch([2, 0, 0]);
  return `${type}:${n}`;
}

const voteParts = (id: string): [number, number] => {
  const [t, i] = id.split(':');
  return [Number(t), Number(i)];
};

export function indexVoteId(state: ChainState, voteId: string, instance: number): void {
  const [t, i] = voteParts(voteId);
  state.store.governance.putSync(['v', t, i], instance);
}

/** The instance of the object that holds a vote id, or undefined. */
export function objectOfVote(state: ChainState, voteId: string): number | undefined {
  const [t, i] = voteParts(voteId);
  return state.store.governance.get(['v', t, i]);
}

interface AccountOptions {
  voting_account?: unknown;
  num_witness?: unknown;
  num_committee?: unknown;
  votes?: unknown;
}

/** account_options::validate (protocol/account.cpp): no fewer witnesses or committee members than voted for. */
export function validateAccountOptions(options: AccountOptions): void {
  let neededWitnesses = Number(options.num_witness ?? 0);
  let neededCommittee = Number(options.num_committee ?? 0);
  for (const v of (options.votes as string[] | undefined) ?? []) {
    const [type] = voteParts(v);
    if (type === VOTE_WITNESS && neededWitnesses > 0) --neededWitnesses;
    else if (type === VOTE_COMMITTEE && neededCommittee > 0) --neededCommittee;
  }
  if (!(neededWitnesses === 0 && neededCommittee === 0)) throw new ChainError('needed_witnesses == 0 && needed_committee == 0: May not specify fewer witnesses or committee members than the number voted for.');
}

/**
 * verify_account_votes (account_evaluator.cpp): the part of the vote checks that needs chain state,
 * in Core's order. Every hardfork it names (607, CORE_143) is long past.
 */
export function verifyAccountVotes(state: ChainState, options: AccountOptions): void {
  const maxWitnesses = chainParameter(state, 'maximum_witness_count', 1001);
  const maxCommittee = chainParameter(state, 'maximum_committee_count', 1001);
  if (!(Number(options.num_witness ?? 0) <= maxWitnesses)) throw new ChainError(`options.num_witness <= chain_params.maximum_witness_count: Voted for more witnesses than currently allowed (${maxWitnesses})`);
  if (!(Number(options.num_committee ?? 0) <= maxCommittee)) throw new ChainError(`options.num_committee <= chain_params.maximum_committee_count: Voted for more committee members than currently allowed (${maxCommittee})`);
  const proxy = instanceOf(options.voting_account ?? '1.2.5', 1, 2, 'voting_account');
  if (!state.exists([1, 2, proxy])) throw new ChainError('db.find(options.voting_account): Invalid proxy account specified.');
  const votes = (options.votes as string[] | undefined) ?? [];
  const maxVoteId = Number(state.get([2, 0, 0]).next_available_vote_id);
  let hasWorkerVotes = false;
  for (const v of votes) {
    const [type, instance] = voteParts(v);
    if (!(instance < maxVoteId)) throw new ChainError(`id < max_vote_id: Can not vote for ${v} which does not exist.`);
    if (type === VOTE_WORKER) hasWorkerVotes = true;
  }
  if (hasWorkerVotes) {
    for (const v of votes) {
      if (voteParts(v)[0] !== VOTE_WORKER) continue;
      const worker = objectOfVote(state, v);
      if (worker !== undefined && state.get([1, 14, worker]).vote_against === v) throw new ChainError('against_worker_idx.find( id ) == against_worker_idx.end(): Can no longer vote against a worker.');
    }
  }
  for (const v of votes) {
    const [type] = voteParts(v);
    const holder = objectOfVote(state, v);
    if (type === VOTE_COMMITTEE) {
      if (holder === undefined) throw new ChainError(`committee_idx.find(id) != committee_idx.end(): Can not vote for ${v} which does not exist.`);
    } else if (type === VOTE_WITNESS) {
      if (holder === undefined) throw new ChainError(`witness_idx.find(id) != witness_idx.end(): Can not vote for ${v} which does not exist.`);
    } else if (type === VOTE_WORKER) {
      if (holder === undefined || state.get([1, 14, holder]).vote_for !== v) throw new ChainError(`approve_worker_idx.find( id ) != approve_worker_idx.end(): Can not vote for ${v} which does not exist.`);
    } else {
      throw new ChainError(`Invalid Vote Type: ${v}`);
    }
  }
}

/** account_options::is_voting: a proxy other than proxy-to-self, or any vote. */
export const isVoting = (options: AccountOptions): boolean => options.voting_account !== '1.2.5' || ((options.votes as unknown[] | undefined) ?? []).length > 0;

/** account_options::num_committee_voted: the committee votes made, when voting for itself; else 0. */
export function numCommitteeVoted(options: AccountOptions): number {
  if (options.voting_account !== '1.2.5') return 0;
  return ((options.votes as string[] | undefined) ?? []).filter((v) => voteParts(v)[0] === VOTE_COMMITTEE).length;
}

/** The one object of a type an account may have (witness, committee member: Core's ordered_unique by_account). */
function uniqueByAccount(state: ChainState, type: number, account: number): void {
  if (instancesByAccount(state, type, account).length > 0) throw new ChainError('insert_result.second: Could not create object! Most likely a uniqueness constraint is violated.');
}

/** witness_create_operation: (fee)(witness_account)(url)(block_signing_key) */
export function witnessCreate(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  checkFee(op);
  if (!(byteLength(op.url) < MAX_URL_LENGTH)) throw new ChainError('url.size() < GRAPHENE_MAX_URL_LENGTH: ');
  const account = accountInstance(ctx, op.witness_account, 'witness_account');
  if (!isLifetimeMember(ctx.state.get([1, 2, account]))) throw new ChainError('db().get(op.witness_account).is_lifetime_member(): ');
  uniqueByAccount(ctx.state, 6, account);
  payFee(ctx, account, op.fee);
  const voteId = nextVoteId(ctx.state, VOTE_WITNESS);
  // witness_object: (witness_account)(last_aslot)(signing_key)(pay_vb)(vote_id)(total_votes)(url)(total_missed)(last_confirmed_block_num); pay_vb unset
  const { instance } = ctx.state.create(1, 6, (id) => ({
    id,
    witness_account: `1.2.${account}`,
    last_aslot: 0,
    signing_key: String(op.block_signing_key),
    vote_id: voteId,
    total_votes: 0,
    url: String(op.url ?? ''),
    total_missed: 0,
    last_confirmed_block_num: 0,
  }));
  indexByAccount(ctx.state, 6, account, instance);
  indexVoteId(ctx.state, voteId, instance);
  return { result: [1, `1.6.${instance}`], impacted: [account] };
}

/** witness_update_operation: (fee)(witness)(witness_account)(new_url)(new_signing_key) */
export function witnessUpdate(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  checkFee(op);
  if (op.new_url !== undefined && op.new_url !== null && !(byteLength(op.new_url) < MAX_URL_LENGTH)) throw new ChainError('new_url->size() < GRAPHENE_MAX_URL_LENGTH: ');
  const account = accountInstance(ctx, op.witness_account, 'witness_account');
  const instance = instanceOf(op.witness, 1, 6, 'witness');
  const w = ctx.state.find([1, 6, instance]);
  if (!w) throw new ChainError(`Unable to find Object ${String(op.witness)}`);
  if (w.witness_account !== `1.2.${account}`) throw new ChainError('db().get(op.witness).witness_account == op.witness_account: ');
  payFee(ctx, account, op.fee);
  if (op.new_url !== undefined && op.new_url !== null) w.url = String(op.new_url);
  if (op.new_signing_key !== undefined && op.new_signing_key !== null) w.signing_key = String(op.new_signing_key);
  ctx.state.touch([1, 6, instance]);
  return { result: [0, {}], impacted: [account] };
}

/** committee_member_create_operation: (fee)(committee_member_account)(url) */
export function committeeMemberCreate(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  checkFee(op);
  if (!(byteLength(op.url) < MAX_URL_LENGTH)) throw new ChainError('url.size() < GRAPHENE_MAX_URL_LENGTH: ');
  const account = accountInstance(ctx, op.committee_member_account, 'committee_member_account');
  if (!isLifetimeMember(ctx.state.get([1, 2, account]))) throw new ChainError('db().get(op.committee_member_account).is_lifetime_member(): ');
  uniqueByAccount(ctx.state, 5, account);
  payFee(ctx, account, op.fee);
  const voteId = nextVoteId(ctx.state, VOTE_COMMITTEE);
  // committee_member_object: (committee_member_account)(vote_id)(total_votes)(url)
  const { instance } = ctx.state.create(1, 5, (id) => ({ id, committee_member_account: `1.2.${account}`, vote_id: voteId, total_votes: 0, url: String(op.url ?? '') }));
  indexByAccount(ctx.state, 5, account, instance);
  indexVoteId(ctx.state, voteId, instance);
  return { result: [1, `1.5.${instance}`], impacted: [account] };
}

/** committee_member_update_operation: (fee)(committee_member)(committee_member_account)(new_url) */
export function committeeMemberUpdate(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  checkFee(op);
  if (op.new_url !== undefined && op.new_url !== null && !(byteLength(op.new_url) < MAX_URL_LENGTH)) throw new ChainError('new_url->size() < GRAPHENE_MAX_URL_LENGTH: ');
  const account = accountInstance(ctx, op.committee_member_account, 'committee_member_account');
  const instance = instanceOf(op.committee_member, 1, 5, 'committee_member');
  const c = ctx.state.find([1, 5, instance]);
  if (!c) throw new ChainError(`Unable to find Object ${String(op.committee_member)}`);
  if (c.committee_member_account !== `1.2.${account}`) throw new ChainError('db().get(op.committee_member).committee_member_account == op.committee_member_account: ');
  payFee(ctx, account, op.fee);
  if (op.new_url !== undefined && op.new_url !== null) {
    c.url = String(op.new_url);
    ctx.state.touch([1, 5, instance]);
  }
  return { result: [0, {}], impacted: [account] };
}

/**
 * worker_create_operation: (fee)(owner)(work_begin_date)(work_end_date)(daily_pay)(name)(url)(initializer).
 * The worker's pay (worker_object::pay_worker) comes only at maintenance, which the devnet never
 * runs: a refund or burn worker's total_burned and a vesting worker's balance stay 0.
 */
export function workerCreate(ctx: EvalContext, op: Record<string, unknown>): Evaluated {
  // worker_create_operation::validate (protocol/worker.cpp)
  checkFee(op);
  const begin = parseFcTime(String(op.work_begin_date));
  const end = parseFcTime(String(op.work_end_date));
  if (!(end > begin)) throw new ChainError('work_end_date > work_begin_date: ');
  const dailyPay = amountOf(op.daily_pay);
  if (!(dailyPay > 0n)) throw new ChainError('daily_pay > 0: ');
  if (!(dailyPay < MAX_SHARE_SUPPLY)) throw new ChainError('daily_pay < GRAPHENE_MAX_SHARE_SUPPLY: ');
  if (!(byteLength(op.name) < MAX_WORKER_NAME_LENGTH)) throw new ChainError('name.size() < GRAPHENE_MAX_WORKER_NAME_LENGTH: ');
  if (!(byteLength(op.url) < MAX_URL_LENGTH)) throw new ChainError('url.size() < GRAPHENE_MAX_URL_LENGTH: ');
  const [which, init] = (op.initializer as [number, Record<string, unknown>] | undefined) ?? [0, {}];
  if (![0, 1, 2].includes(Number(which))) throw new ChainError(`initializer: unknown worker initializer ${String(which)}`);
  // do_evaluate
  const owner = accountInstance(ctx, op.owner, 'owner');
  if (!isLifetimeMember(ctx.state.get([1, 2, owner]))) throw new ChainError('d.get(o.owner).is_lifetime_member(): ');
  if (!(begin >= headTime(ctx))) throw new ChainError('o.work_begin_date >= d.head_block_time(): ');
  payFee(ctx, owner, op.fee);
  // do_apply
  const voteFor = nextVoteId(ctx.state, VOTE_WORKER);
  const voteAgainst = nextVoteId(ctx.state, VOTE_WORKER);
  let worker: [number, Record<string, unknown>];
  if (Number(which) === 1) {
    // vesting_balance_worker_initializer: a 1.13.x of the owner, cdd over pay_vesting_period_days, empty
    const balance = createVestingBalance(ctx, owner, 0n, 0, [1, { vesting_seconds: Number(init?.pay_vesting_period_days ?? 0) * 86400, start_claim: fcTime(0), coin_seconds_earned: '0', coin_seconds_earned_last_update: fcTime(headTime(ctx)) }], 'worker');
    worker = [1, { balance: `1.13.${balance}` }];
  } else {
    worker = [Number(which), { total_burned: 0 }];
  }
  // worker_object: (worker_account)(work_begin_date)(work_end_date)(daily_pay)(worker)(vote_for)(vote_against)(total_votes_for)(total_votes_against)(name)(url)
  const { instance } = ctx.state.create(1, 14, (id) => ({
    id,
    worker_account: `1.2.${owner}`,
    work_begin_date: fcTime(begin),
    work_end_date: fcTime(end),
    daily_pay: op.daily_pay,
    worker,
    vote_for: voteFor,
    vote_against: voteAgainst,
    total_votes_for: 0,
    total_votes_against: 0,
    name: String(op.name ?? ''),
    url: String(op.url ?? ''),
  }));
  indexByAccount(ctx.state, 14, owner, instance);
  indexVoteId(ctx.state, voteFor, instance);
  indexVoteId(ctx.state, voteAgainst, instance);
  return { result: [1, `1.14.${instance}`], impacted: [owner] };
}
