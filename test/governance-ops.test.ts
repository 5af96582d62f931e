// Membership, witnesses, committee members, workers, votes and vesting balances over the wire:
// account_upgrade (8), account_whitelist (7), witness_create/update (20/21),
// committee_member_create/update (29/30), worker_create (34), vesting_balance_create/withdraw
// (32/33) and account_update's vote checks, broadcast to a real node, each read back before the
// next block and after it, with Core's objects, balances, history and refusals (account_evaluator.cpp,
// witness_evaluator.cpp, committee_member_evaluator.cpp, worker_evaluator.cpp,
// vesting_balance_evaluator.cpp, db_balance.cpp's deposit_cashback).
import test, { type ExecutionContext } from 'ava';
import { fixture, startTestNode } from './helpers/node.js';
import { basic } from './helpers/clients.js';
import { DEV_PUB, DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';

const ANY = { authorization: basic('anypass', 'x') };
const NATHAN = '1.2.6';
const FEE = { amount: 0, asset_id: '1.3.0' };
const LIFETIME = '2106-02-07T06:28:15';

type Obj = Record<string, any>;

async function devnet(t: ExecutionContext) {
  const node = await startTestNode(t, { 'block-interval': '0', 'api-access': fixture('api-access.json') });
  const call = async (set: string, method: string, params: unknown[]): Promise<any> => {
    const r = await rpc(node.httpUrl, set, method, params, set === 'debug' ? ANY : undefined);
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result;
  };
  const generate = (n = 1) => call('debug', 'debug_generate_blocks', [DEV_WIF, n]);
  /**
   * Broadcasts the operations signed with the development key: null when accepted, else the error
   * message. Each transaction expires a second later than the one before, so that the same
   * operations sent again are another transaction.
   */
  let sent = 0;
  const broadcast = async (...ops: OperationJson[]): Promise<string | null> => {
    const trx = await signedTx(node.httpUrl, ops, [DEV_WIF], { expiresIn: 60 + sent++ });
    const r = await rpc(node.httpUrl, 'network_broadcast', 'broadcast_transaction', [trx]);
    return r.error ? String(r.error.message) : null;
  };
  const accepted = async (t2: ExecutionContext, ...ops: OperationJson[]) => t2.is(await broadcast(...ops), null);
  const obj = async (id: string): Promise<Obj> => (await call('database', 'get_objects', [[id]]))[0];
  const account = async (name: string): Promise<Obj> => (await call('database', 'lookup_account_names', [[name]]))[0];
  const headTime = async (): Promise<number> => parseFcTime((await call('database', 'get_dynamic_global_properties', [])).time);
  const fee = async (o: OperationJson): Promise<number> => Number((await call('database', 'get_required_fees', [[o], '1.3.0']))[0].amount);
  const coreBalance = async (id: string): Promise<number> => Number((await call('database', 'get_account_balances', [id, ['1.3.0']]))[0].amount);
  await generate(1);
  return { ...node, call, generate, broadcast, accepted, obj, account, headTime, fee, coreBalance };
}

const upgradeOp = (account: string): OperationJson => [8, { fee: FEE, account_to_upgrade: account, upgrade_to_lifetime_member: true, extensions: [] }];
const whitelistOp = (by: string, listed: string, listing: number): OperationJson => [7, { fee: FEE, authorizing_account: by, account_to_list: listed, new_listing: listing, extensions: [] }];
const witnessCreateOp = (account: string, url = 'https://w.example'): OperationJson => [20, { fee: FEE, witness_account: account, url, block_signing_key: DEV_PUB }];
const committeeCreateOp = (account: string, url = 'https://c.example'): OperationJson => [29, { fee: FEE, committee_member_account: account, url }];
const optionsWith = (votes: string[], o: { numWitness?: number; numCommittee?: number; proxy?: string } = {}) => ({
  memo_key: DEV_PUB,
  voting_account: o.proxy ?? '1.2.5',
  num_witness: o.numWitness ?? 0,
  num_committee: o.numCommittee ?? 0,
  votes,
  extensions: [],
});
const voteOp = (account: string, options: Obj): OperationJson => [6, { fee: FEE, account, new_options: options, extensions: {} }];

/** A funded account registered and referred by nathan, with the development key. */
async function fundedAccount(n: Awaited<ReturnType<typeof devnet>>, t: ExecutionContext, name: string, amount = 20_000_000_000): Promise<string> {
  await n.accepted(t, op.accountCreate(name));
  const id = (await n.account(name)).id as string;
  await n.accepted(t, op.transfer(NATHAN, id, amount));
  return id;
}

test('account_upgrade makes a lifetime member before the next block, pays its pending fees out as Core does (cashback vesting to nathan), and is refused twice', async (t) => {
  const n = await devnet(t);
  const alice = await fundedAccount(n, t, 'gov-alice');
  const upgradeFee = await n.fee(upgradeOp(alice));
  t.true(upgradeFee > 0);
  const supplyBefore = Number((await n.obj('2.3.0')).current_supply);
  const accumulatedBefore = Number((await n.obj('2.3.0')).accumulated_fees);
  const balanceBefore = await n.coreBalance(alice);
  t.deepEqual(await n.call('database', 'get_vesting_balances', ['nathan']), []);

  await n.accepted(t, upgradeOp(alice));
  // Read before the block.
  const a = await n.account('gov-alice');
  t.is(a.membership_expiration_date, LIFETIME);
  t.is(a.registrar, alice);
  t.is(a.referrer, alice);
  t.is(a.lifetime_referrer, alice);
  t.is(a.lifetime_referrer_fee_percentage, 10000 - a.network_fee_percentage);
  t.is(await n.coreBalance(alice), balanceBefore - upgradeFee);
  const stats = await n.obj(a.statistics);
  t.is(Number(stats.pending_fees), 0, 'process_fees paid the pending fees out');
  t.is(Number(stats.lifetime_fees_paid), upgradeFee);

  // alice was registered and referred by nathan with 0% referrer rewards: 20% to the network
  // (accumulated_fees), 30% as lifetime referrer and 50% as registrar to nathan's cashback balance.
  const network = Math.floor((upgradeFee * 2000) / 10000);
  const lifetime = Math.floor((upgradeFee * 3000) / 10000);
  const vbs = await n.call('database', 'get_vesting_balances', ['nathan']);
  t.is(vbs.length, 1);
  const vb = vbs[0];
  t.deepEqual(Object.keys(vb), ['id', 'owner', 'balance', 'policy', 'balance_type']);
  t.is(vb.owner, NATHAN);
  t.is(vb.balance_type, 'cashback');
  t.deepEqual(vb.balance, { amount: upgradeFee - network, asset_id: '1.3.0' });
  t.deepEqual(Object.keys(vb.policy[1]), ['vesting_seconds', 'start_claim', 'coin_seconds_earned', 'coin_seconds_earned_last_update']);
  t.is(vb.policy[0], 1);
  t.is(vb.policy[1].vesting_seconds, 31536000);
  t.true(upgradeFee - network - lifetime > 0);
  const nathan = await n.obj(NATHAN);
  t.is(nathan.cashback_vb, vb.id);
  const keys = Object.keys(nathan);
  t.is(keys.indexOf('cashback_vb'), keys.indexOf('blacklisted_accounts') + 1, 'cashback_vb where fc writes the optional');
  t.true((await n.obj('2.6.6')).has_cashback_vb);
  const dyn = await n.obj('2.3.0');
  t.is(Number(dyn.accumulated_fees), accumulatedBefore + network);
  t.is(Number(dyn.current_supply), supplyBefore);
  const full = await n.call('database', 'get_full_accounts', [['nathan'], false]);
  t.deepEqual(full[0][1].cashback_balance, vb);
  t.deepEqual(full[0][1].vesting_balances, [vb]);

  t.regex((await n.broadcast(upgradeOp(alice))) ?? '', /!account->is_lifetime_member\(\): Unable to upgrade account 'gov-alice'/);
  const annual: OperationJson = [8, { fee: FEE, account_to_upgrade: NATHAN, upgrade_to_lifetime_member: false, extensions: [] }];
  t.regex((await n.broadcast(annual)) ?? '', /is_lifetime_member/, 'nathan is already a lifetime member');

  await n.generate(1);
  t.is((await n.account('gov-alice')).lifetime_referrer, alice, 'the block keeps it');
  const history = await n.call('history', 'get_account_history', [alice, '1.11.0', 1, '1.11.0']);
  t.is(history[0].op[0], 8);
  t.deepEqual(history[0].result, [0, {}]);
});

test('account_whitelist lists both ways as Core keeps them, needs a lifetime member, and reaches both accounts\' history', async (t) => {
  const n = await devnet(t);
  const bob = await fundedAccount(n, t, 'gov-bob');
  const carol = await fundedAccount(n, t, 'gov-carol');
  await n.accepted(t, whitelistOp(NATHAN, carol, 1));
  await n.accepted(t, whitelistOp(NATHAN, bob, 3));
  let c = await n.obj(carol);
  let nathan = await n.obj(NATHAN);
  t.deepEqual(c.whitelisting_accounts, [NATHAN]);
  t.deepEqual(c.blacklisting_accounts, []);
  t.deepEqual(nathan.whitelisted_accounts, [bob, carol].sort((x, y) => Number(x.split('.')[2]) - Number(y.split('.')[2])));
  t.deepEqual(nathan.blacklisted_accounts, [bob]);
  t.deepEqual((await n.obj(bob)).blacklisting_accounts, [NATHAN]);
  // Black only: out of the white lists.
  await n.accepted(t, whitelistOp(NATHAN, carol, 2));
  c = await n.obj(carol);
  nathan = await n.obj(NATHAN);
  t.deepEqual(c.whitelisting_accounts, []);
  t.deepEqual(c.blacklisting_accounts, [NATHAN]);
  t.deepEqual(nathan.whitelisted_accounts, [bob]);

  t.regex((await n.broadcast(whitelistOp(bob, carol, 1))) ?? '', /The authorizing account must be a lifetime member\./);
  t.regex((await n.broadcast(whitelistOp(NATHAN, carol, 4))) ?? '', /new_listing < 0x4/);

  await n.generate(1);
  const carolHistory = await n.call('history', 'get_account_history', [carol, '1.11.0', 10, '1.11.0']);
  t.deepEqual(carolHistory.filter((h: Obj) => h.op[0] === 7).map((h: Obj) => h.op[1].new_listing), [2, 1]);
});

test('witness_create and committee_member_create take vote ids from next_available_vote_id; reads find them by account and vote id before the block; updates and refusals as Core', async (t) => {
  const n = await devnet(t);
  const alice = await fundedAccount(n, t, 'gov-wit');
  const bob = await fundedAccount(n, t, 'gov-notltm');
  t.regex((await n.broadcast(witnessCreateOp(bob))) ?? '', /db\(\)\.get\(op\.witness_account\)\.is_lifetime_member\(\)/);
  t.regex((await n.broadcast(committeeCreateOp(bob))) ?? '', /db\(\)\.get\(op\.committee_member_account\)\.is_lifetime_member\(\)/);
  t.regex((await n.broadcast(witnessCreateOp(alice, 'x'.repeat(127)))) ?? '', /url\.size\(\) < GRAPHENE_MAX_URL_LENGTH/);
  await n.accepted(t, upgradeOp(alice));

  const witnessCount = await n.call('database', 'get_witness_count', []);
  const firstVote = (await n.obj('2.0.0')).next_available_vote_id;
  await n.accepted(t, witnessCreateOp(alice));
  await n.accepted(t, committeeCreateOp(alice));
  t.is((await n.obj('2.0.0')).next_available_vote_id, firstVote + 2);
  const w = await n.call('database', 'get_witness_by_account', ['gov-wit']);
  t.deepEqual(w, {
    id: w.id,
    witness_account: alice,
    last_aslot: 0,
    signing_key: DEV_PUB,
    vote_id: `1:${firstVote}`,
    total_votes: 0,
    url: 'https://w.example',
    total_missed: 0,
    last_confirmed_block_num: 0,
  });
  t.is(await n.call('database', 'get_witness_count', []), witnessCount + 1);
  const c = await n.call('database', 'get_committee_member_by_account', [alice]);
  t.deepEqual(c, { id: c.id, committee_member_account: alice, vote_id: `0:${firstVote + 1}`, total_votes: 0, url: 'https://c.example' });
  t.deepEqual(await n.call('database', 'lookup_vote_ids', [[`1:${firstVote}`, `0:${firstVote + 1}`]]), [w, c]);
  t.deepEqual(await n.call('database', 'lookup_witness_accounts', ['gov-wit', 1]), [['gov-wit', w.id]]);
  t.deepEqual(await n.call('database', 'lookup_committee_member_accounts', ['gov-wit', 1]), [['gov-wit', c.id]]);
  t.regex((await n.broadcast(witnessCreateOp(alice))) ?? '', /uniqueness constraint/, 'one witness per account (by_account is unique)');

  await n.accepted(t, [21, { fee: FEE, witness: w.id, witness_account: alice, new_url: 'https://new.example' }]);
  t.is((await n.obj(w.id)).url, 'https://new.example');
  t.is((await n.obj(w.id)).signing_key, DEV_PUB, 'an absent new_signing_key leaves the key');
  t.regex((await n.broadcast([21, { fee: FEE, witness: w.id, witness_account: bob, new_url: 'x' }])) ?? '', /db\(\)\.get\(op\.witness\)\.witness_account == op\.witness_account/);
  await n.accepted(t, [30, { fee: FEE, committee_member: c.id, committee_member_account: alice, new_url: 'https://c2.example' }]);
  t.is((await n.obj(c.id)).url, 'https://c2.example');
  t.regex((await n.broadcast([30, { fee: FEE, committee_member: c.id, committee_member_account: NATHAN, new_url: 'x' }])) ?? '', /committee_member_account == op\.committee_member_account/);

  await n.generate(1);
  t.is((await n.call('database', 'get_witness_by_account', [alice])).url, 'https://new.example');
  const history = await n.call('history', 'get_account_history', [alice, '1.11.0', 10, '1.11.0']);
  t.deepEqual(history.map((h: Obj) => h.op[0]).filter((x: number) => [20, 21, 29, 30].includes(x)), [30, 21, 29, 20]);
  t.deepEqual(history.find((h: Obj) => h.op[0] === 20).result, [1, w.id]);
});

test('worker_create: the worker, its two vote ids and a vesting worker\'s balance; worker reads; account_update votes checked as Core checks them', async (t) => {
  const n = await devnet(t);
  const alice = await fundedAccount(n, t, 'gov-worker');
  await n.accepted(t, upgradeOp(alice));
  const now = await n.headTime();
  const begin = fcTime(now + 86400);
  const end = fcTime(now + 10 * 86400);
  const workerOp = (initializer: unknown, b = begin): OperationJson => [34, { fee: FEE, owner: alice, work_begin_date: b, work_end_date: end, daily_pay: 1000, name: 'gov worker', url: 'https://wk.example', initializer }];
  t.regex((await n.broadcast(workerOp([0, {}], fcTime(now - 86400)))) ?? '', /o\.work_begin_date >= d\.head_block_time\(\)/);
  t.regex((await n.broadcast(workerOp([0, {}], end))) ?? '', /work_end_date > work_begin_date/);
  const firstVote = (await n.obj('2.0.0')).next_available_vote_id;
  const vestingCount = (await n.call('database', 'get_vesting_balances', [alice])).length;
  await n.accepted(t, workerOp([1, { pay_vesting_period_days: 7 }]));
  const workers = await n.call('database', 'get_workers_by_account', ['gov-worker']);
  t.is(workers.length, 1);
  const w = workers[0];
  t.deepEqual(Object.keys(w), ['id', 'worker_account', 'work_begin_date', 'work_end_date', 'daily_pay', 'worker', 'vote_for', 'vote_against', 'total_votes_for', 'total_votes_against', 'name', 'url']);
  t.is(w.vote_for, `2:${firstVote}`);
  t.is(w.vote_against, `2:${firstVote + 1}`);
  t.is(w.worker[0], 1);
  const vbs = await n.call('database', 'get_vesting_balances', [alice]);
  t.is(vbs.length, vestingCount + 1);
  const vb = vbs.find((v: Obj) => v.id === w.worker[1].balance);
  t.is(vb.balance_type, 'worker');
  t.deepEqual(vb.balance, { amount: 0, asset_id: '1.3.0' });
  t.is(vb.policy[1].vesting_seconds, 7 * 86400);
  t.is(await n.call('database', 'get_worker_count', []), 1);
  t.deepEqual(await n.call('database', 'get_all_workers', []), [w]);
  t.deepEqual(await n.call('database', 'get_all_workers', [false]), [w]);
  t.deepEqual(await n.call('database', 'get_all_workers', [true]), []);
  t.deepEqual(await n.call('database', 'lookup_vote_ids', [[w.vote_for, w.vote_against, '2:99999']]), [w, w, null]);

  // Votes: for the worker, the genesis witness and alice herself.
  const genesisWitness = (await n.obj('1.6.0'))?.vote_id ?? (await n.obj('1.6.1')).vote_id;
  await n.accepted(t, voteOp(alice, optionsWith([genesisWitness, w.vote_for], { numWitness: 1 })));
  const a = await n.obj(alice);
  t.deepEqual(a.options.votes, [genesisWitness, w.vote_for]);
  const stats = await n.obj(a.statistics);
  t.true(stats.is_voting);
  t.is(parseFcTime(stats.last_vote_time) >= now, true);
  t.deepEqual((await n.call('database', 'get_full_accounts', [[alice], false]))[0][1].votes.map((v: Obj) => v.id), [(await n.call('database', 'lookup_vote_ids', [[genesisWitness]]))[0].id, w.id]);

  const refused = async (options: Obj) => (await n.broadcast(voteOp(alice, options))) ?? '';
  t.regex(await refused(optionsWith([w.vote_against])), /Can no longer vote against a worker\./);
  t.regex(await refused(optionsWith(['1:99999'])), /id < max_vote_id: Can not vote for 1:99999 which does not exist\./);
  t.regex(await refused(optionsWith([genesisWitness], { numWitness: 2 })), /May not specify fewer witnesses or committee members than the number voted for\./);
  t.regex(await refused(optionsWith([], { proxy: '1.2.99999' })), /Invalid proxy account specified\./);
  t.regex(await refused(optionsWith([`0:${firstVote}`])), /committee_idx\.find\(id\) != committee_idx\.end\(\): Can not vote for 0:/, 'a worker\'s vote id taken as a committee vote');
  // A proxy: votes left to nathan.
  await n.accepted(t, voteOp(alice, optionsWith([], { proxy: NATHAN })));
  t.is((await n.obj(alice)).options.voting_account, NATHAN);
  t.true((await n.obj(a.statistics)).is_voting);
  await n.accepted(t, voteOp(alice, optionsWith([])));
  t.false((await n.obj(a.statistics)).is_voting);

  await n.generate(1);
  t.deepEqual(await n.call('database', 'get_workers_by_account', [alice]), [w]);
  const history = await n.call('history', 'get_account_history', [alice, '1.11.0', 10, '1.11.0']);
  t.deepEqual(history.find((h: Obj) => h.op[0] === 34).result, [1, w.id]);
});

test('vesting_balance_create and vesting_balance_withdraw: linear, cdd and instant policies as Core keeps them; withdrawals within what has vested', async (t) => {
  const n = await devnet(t);
  const alice = await fundedAccount(n, t, 'gov-vest');
  const now = await n.headTime();
  const createOp = (policy: unknown, amount = 100_000, owner = alice): OperationJson => [32, { fee: FEE, creator: NATHAN, owner, amount: { amount, asset_id: '1.3.0' }, policy }];
  const withdrawOp = (vb: string, amount: number, owner = alice): OperationJson => [33, { fee: FEE, vesting_balance: vb, owner, amount: { amount, asset_id: '1.3.0' } }];
  const nathanBefore = await n.coreBalance(NATHAN);
  const createFee = await n.fee(createOp([2, {}]));

  await n.accepted(t, createOp([0, { begin_timestamp: fcTime(now + 3600), vesting_cliff_seconds: 0, vesting_duration_seconds: 7200 }]));
  await n.accepted(t, createOp([1, { start_claim: fcTime(now + 3600), vesting_seconds: 600 }]));
  await n.accepted(t, createOp([2, {}]));
  t.is(await n.coreBalance(NATHAN), nathanBefore - 3 * (100_000 + createFee), 'the creator pays amount and fee');
  const vbs = await n.call('database', 'get_vesting_balances', ['gov-vest']);
  t.is(vbs.length, 3);
  const [linear, cdd, instant] = vbs;
  t.deepEqual(linear.policy, [0, { begin_timestamp: fcTime(now + 3600), vesting_cliff_seconds: 0, vesting_duration_seconds: 7200, begin_balance: 100_000 }]);
  t.is(cdd.policy[0], 1);
  t.deepEqual(cdd.policy[1].start_claim, fcTime(now + 3600));
  t.is(cdd.policy[1].coin_seconds_earned, '0');
  t.deepEqual(instant.policy, [2, {}]);
  for (const v of vbs) {
    t.is(v.owner, alice);
    t.is(v.balance_type, 'unspecified');
    t.deepEqual(v.balance, { amount: 100_000, asset_id: '1.3.0' });
  }
  t.deepEqual((await n.call('database', 'get_full_accounts', [['gov-vest'], false]))[0][1].vesting_balances, vbs);

  t.regex((await n.broadcast(withdrawOp(linear.id, 1))) ?? '', /vbo\.is_withdraw_allowed\( now, op\.amount \)/, 'nothing has vested before begin_timestamp');
  t.regex((await n.broadcast(withdrawOp(cdd.id, 1))) ?? '', /vbo\.is_withdraw_allowed\( now, op\.amount \)/, 'nothing before start_claim');
  t.regex((await n.broadcast(withdrawOp(instant.id, 100_001))) ?? '', /vbo\.is_withdraw_allowed/);
  t.regex((await n.broadcast(withdrawOp(instant.id, 10, NATHAN))) ?? '', /op\.owner == vbo\.owner/);
  t.regex((await n.broadcast(createOp([2, {}], 0))) ?? '', /amount\.amount > 0/);

  const aliceBefore = await n.coreBalance(alice);
  const withdrawFee = await n.fee(withdrawOp(instant.id, 40_000));
  await n.accepted(t, withdrawOp(instant.id, 40_000));
  t.deepEqual((await n.obj(instant.id)).balance, { amount: 60_000, asset_id: '1.3.0' });
  t.is(await n.coreBalance(alice), aliceBefore + 40_000 - withdrawFee);
  await n.accepted(t, withdrawOp(instant.id, 60_000));
  t.deepEqual((await n.obj(instant.id)).balance, { amount: 0, asset_id: '1.3.0' }, 'an emptied balance object stays');

  await n.generate(1);
  const history = await n.call('history', 'get_account_history', [alice, '1.11.0', 20, '1.11.0']);
  t.deepEqual(history.filter((h: Obj) => h.op[0] === 32).map((h: Obj) => h.result), [[1, instant.id], [1, cdd.id], [1, linear.id]], 'the owner sees the creations');
  t.is(history.filter((h: Obj) => h.op[0] === 33).length, 2);
  const nathanHistory = await n.call('history', 'get_account_history', [NATHAN, '1.11.0', 20, '1.11.0']);
  t.is(nathanHistory.filter((h: Obj) => h.op[0] === 32).length, 3, 'and so does the creator');
});
