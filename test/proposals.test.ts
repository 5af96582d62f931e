// Proposals (proposal_create 22, proposal_update 23, proposal_delete 24) over the wire, against a
// real node producing blocks on demand, checked against BitShares Core's proposal_evaluator.cpp,
// proposal_object.cpp and db_block.cpp's push_proposal: the 1.10.x object as Core serves it, the
// approvals, execution once approved (before the next block, in history as virtual operations),
// a failing execution kept with its fail_reason, review periods, expiry at the block's end,
// get_proposed_transactions, and Core's refusals. The first test is an exchange's 2-of-2 multisig
// withdrawal, end to end.
import test, { type ExecutionContext } from 'ava';
import { DEV_WIF } from './helpers/chain.js';
import { accountCreate, auth, devnet, newKey } from './helpers/devnet-ops.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';
import { transferOp } from '../src/chain/protocol/operation-builders.js';
import type { OperationJson } from '../src/chain/protocol/types.js';

const NATHAN = '1.2.6';
const ZERO = { amount: 0, asset_id: '1.3.0' };
const DEV_KEY = privateKeyFromWif(DEV_WIF);

type Obj = Record<string, any>;

const proposalCreate = (payer: string, expiration: number, ops: OperationJson[], review?: number): OperationJson => {
  const f: Obj = { fee: ZERO, fee_paying_account: payer, expiration_time: fcTime(expiration), proposed_ops: ops.map((op) => ({ op })) };
  if (review !== undefined) f.review_period_seconds = review;
  f.extensions = [];
  return [22, f];
};

const proposalUpdate = (payer: string, proposal: string, o: { activeAdd?: string[]; activeRemove?: string[]; ownerAdd?: string[]; keyAdd?: string[] }): OperationJson => [
  23,
  {
    fee: ZERO,
    fee_paying_account: payer,
    proposal,
    active_approvals_to_add: o.activeAdd ?? [],
    active_approvals_to_remove: o.activeRemove ?? [],
    owner_approvals_to_add: o.ownerAdd ?? [],
    owner_approvals_to_remove: [],
    key_approvals_to_add: o.keyAdd ?? [],
    key_approvals_to_remove: [],
    extensions: [],
  },
];

const proposalDelete = (payer: string, proposal: string, usingOwner = false): OperationJson => [24, { fee: ZERO, fee_paying_account: payer, using_owner_authority: usingOwner, proposal, extensions: [] }];

/** The exchange's set-up: two signers with their own keys, a hot wallet both must approve (2 of 2), funded, and a customer. */
async function exchange(t: ExecutionContext) {
  const d = await devnet(t);
  await d.generate(1);
  const a = newKey();
  const b = newKey();
  const c = newKey();
  await d.broadcast([accountCreate('signer-a', auth(1, [[a.pub, 1]]), auth(1, [[a.pub, 1]]), a.pub), accountCreate('signer-b', auth(1, [[b.pub, 1]]), auth(1, [[b.pub, 1]]), b.pub), accountCreate('customer', auth(1, [[c.pub, 1]]), auth(1, [[c.pub, 1]]), c.pub)], [DEV_KEY]);
  const [signerA, signerB, customer] = (await d.call('database', 'lookup_account_names', [['signer-a', 'signer-b', 'customer']])).map((x: Obj) => x.id as string);
  const byId = (a: [string, number], b: [string, number]) => Number(a[0].split('.')[2]) - Number(b[0].split('.')[2]);
  const multisig = auth(2, [], ([[signerA!, 1], [signerB!, 1]] as [string, number][]).sort(byId));
  await d.broadcast([accountCreate('exchange-hot', multisig, multisig, a.pub)], [DEV_KEY]);
  const hot = (await d.call('database', 'lookup_account_names', [['exchange-hot']]))[0].id as string;
  await d.broadcast([transferOp(NATHAN, hot, 10_000_000), transferOp(NATHAN, signerA!, 100_000_000), transferOp(NATHAN, signerB!, 100_000_000)], [DEV_KEY]);
  await d.generate(1);
  return { ...d, a, b, signerA: signerA!, signerB: signerB!, customer: customer!, hot };
}

test("a 2-of-2 multisig account's withdrawal by proposal: proposed and approved by one signer, executed when the second approves, seen before the block, in history after it", async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const expiration = head + 3600;
  const withdrawal = transferOp(x.hot, x.customer, 2_500_000);
  // The hot wallet cannot send alone: one signer's signature does not satisfy it.
  t.regex((await x.tryBroadcast([transferOp(x.hot, x.customer, 1)], [x.a.priv]))!, /Missing Active Authority/);

  // Signer A proposes the withdrawal and approves it in the same transaction.
  const nextProposal = await x.call('database', 'get_next_object_id', [1, 10, true]);
  const create = proposalCreate(x.signerA, expiration, [withdrawal]);
  await x.broadcast([create, proposalUpdate(x.signerA, nextProposal, { activeAdd: [x.signerA] })], [x.a.priv]);

  // Before the block: the proposal as Core serves it, found by every account it waits on.
  const p = await x.object(nextProposal);
  t.deepEqual(Object.keys(p!), ['id', 'expiration_time', 'proposed_transaction', 'required_active_approvals', 'available_active_approvals', 'required_owner_approvals', 'available_owner_approvals', 'available_key_approvals', 'proposer', 'fail_reason']);
  t.deepEqual(p, {
    id: nextProposal,
    expiration_time: fcTime(expiration),
    proposed_transaction: { ref_block_num: 0, ref_block_prefix: 0, expiration: fcTime(expiration), operations: [withdrawal], extensions: [] },
    required_active_approvals: [x.hot],
    available_active_approvals: [x.signerA],
    required_owner_approvals: [],
    available_owner_approvals: [],
    available_key_approvals: [],
    proposer: x.signerA,
    fail_reason: '',
  });
  t.deepEqual((await x.call('database', 'get_proposed_transactions', ['exchange-hot'])).map((o: Obj) => o.id), [nextProposal]);
  t.deepEqual((await x.call('database', 'get_proposed_transactions', [x.signerA])).map((o: Obj) => o.id), [nextProposal], 'the approving account finds it too');
  t.deepEqual(await x.call('database', 'get_proposed_transactions', [x.signerB]), [], 'signer B has not approved yet');
  const full = await x.call('database', 'get_full_accounts', [['exchange-hot'], false]);
  t.deepEqual(full[0][1].proposals.map((o: Obj) => o.id), [nextProposal]);
  t.is(await x.balance(x.customer), 0, 'nothing moved yet');

  await x.generate(1);
  t.is((await x.object(nextProposal))!.fail_reason, '', 'kept by the block, unexecuted');

  // Signer B approves: the withdrawal executes at once, before the next block.
  const hotBefore = await x.balance(x.hot);
  await x.broadcast([proposalUpdate(x.signerB, nextProposal, { activeAdd: [x.signerB] })], [x.b.priv]);
  t.is(await x.balance(x.customer), 2_500_000, 'the customer is paid before the block');
  t.true((await x.balance(x.hot)) < hotBefore - 2_500_000, 'the hot wallet paid the amount and the transfer fee');
  t.is(await x.object(nextProposal), null, 'the executed proposal is removed');
  t.deepEqual(await x.call('database', 'get_proposed_transactions', ['exchange-hot']), []);

  await x.generate(1);
  // History: proposal_update, then the withdrawal as a virtual operation with its own result.
  const [latest] = await x.history(x.customer);
  t.deepEqual(latest!.op, [0, { ...withdrawal[1] }]);
  t.is(latest!.is_virtual, true);
  t.is(latest!.virtual_op, 1);
  t.deepEqual(latest!.result, [0, {}]);
  const signerB = await x.history(x.signerB);
  t.is(signerB[0]!.op[0], 23);
  t.is(signerB[0]!.block_num, latest!.block_num);
  t.is(signerB[0]!.trx_in_block, latest!.trx_in_block);
  t.is(signerB[0]!.op_in_trx, latest!.op_in_trx);
  const hotOps = (await x.history(x.hot)).map((o) => o.op[0]);
  t.deepEqual(hotOps.slice(0, 2), [0, 22], 'the hot wallet sees the withdrawal and the proposal that named it');
});

test('an approved proposal whose execution fails stays, with fail_reason; it is removed when it expires', async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const next = await x.call('database', 'get_next_object_id', [1, 10, true]);
  const tooMuch = transferOp(x.hot, x.customer, 50_000_000);
  await x.broadcast([proposalCreate(x.signerA, head + 6, [tooMuch]), proposalUpdate(x.signerA, next, { activeAdd: [x.signerA] })], [x.a.priv]);
  const feesBefore = Number((await x.object(`2.6.${x.signerB.split('.')[2]}`))!.lifetime_fees_paid);
  await x.broadcast([proposalUpdate(x.signerB, next, { activeAdd: [x.signerB] })], [x.b.priv]);
  const p = await x.object(next);
  t.regex(p!.fail_reason, /Insufficient Balance/);
  t.deepEqual(p!.available_active_approvals, [x.signerA, x.signerB].sort());
  t.true(Number((await x.object(`2.6.${x.signerB.split('.')[2]}`))!.lifetime_fees_paid) > feesBefore, 'the approval itself stands, fee paid');
  t.is(await x.balance(x.customer), 0);
  // Expiry: clear_expired_proposals tries it once more, fails, and removes it.
  while (parseFcTime((await x.head()).time) < head + 6) await x.generate(1);
  t.is(await x.object(next), null);
  t.deepEqual(await x.call('database', 'get_proposed_transactions', ['exchange-hot']), []);
  t.is(await x.balance(x.customer), 0);
});

test('a proposal with a review period is not executed by its approvals, only at its expiration, in the block that expires it', async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const next = await x.call('database', 'get_next_object_id', [1, 10, true]);
  const expiration = head + 8;
  await x.broadcast([proposalCreate(x.signerA, expiration, [transferOp(x.hot, x.customer, 1_000)], 2)], [x.a.priv]);
  t.is((await x.object(next))!.review_period_time, fcTime(expiration - 2));
  t.deepEqual(Object.keys((await x.object(next))!).slice(0, 4), ['id', 'expiration_time', 'review_period_time', 'proposed_transaction']);
  await x.broadcast([proposalUpdate(x.signerA, next, { activeAdd: [x.signerA] })], [x.a.priv]);
  await x.broadcast([proposalUpdate(x.signerB, next, { activeAdd: [x.signerB] })], [x.b.priv]);
  t.truthy(await x.object(next), 'approved, but waiting for its review period and expiration');
  t.is(await x.balance(x.customer), 0);
  // In the review period, no approval may be added.
  while (parseFcTime((await x.head()).time) < expiration - 2) await x.generate(1);
  t.is(await x.tryBroadcast([proposalUpdate(x.signerA, next, { activeRemove: [x.signerA] })], [x.a.priv]), undefined, 'removing an approval is allowed in the review period');
  t.regex((await x.tryBroadcast([proposalUpdate(x.signerA, next, { activeAdd: [x.signerA] })], [x.a.priv]))!, /This proposal is in its review period\. No new approvals may be added\./);
  await x.generate(1);
  // Signer A withdrew: B's approval alone does not suffice.
  t.deepEqual((await x.object(next))!.available_active_approvals, [x.signerB]);
  while (parseFcTime((await x.head()).time) < expiration) await x.generate(1);
  t.is(await x.object(next), null, 'expired without enough approvals: removed');
  t.is(await x.balance(x.customer), 0);
});

test('an approved proposal with a review period executes at its expiration, its operations recorded after the block\'s transactions', async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const next = await x.call('database', 'get_next_object_id', [1, 10, true]);
  const expiration = head + 6;
  await x.broadcast([proposalCreate(x.signerA, expiration, [transferOp(x.hot, x.customer, 1_000)], 1), proposalUpdate(x.signerA, next, { activeAdd: [x.signerA] })], [x.a.priv]);
  await x.broadcast([proposalUpdate(x.signerB, next, { activeAdd: [x.signerB] })], [x.b.priv]);
  t.is(await x.balance(x.customer), 0);
  while (parseFcTime((await x.head()).time) < expiration) await x.generate(1);
  t.is(await x.object(next), null);
  t.is(await x.balance(x.customer), 1_000);
  const [executed] = await x.history(x.customer);
  t.is(executed!.op[0], 0);
  t.true(executed!.is_virtual);
  t.is(executed!.op_in_trx, 0);
  t.is(executed!.virtual_op, 0, 'the block end counts its virtual operations from 0');
  const block = await x.call('database', 'get_block', [executed!.block_num]);
  t.is(executed!.trx_in_block, block.transactions.length, 'after the block\'s transactions');
});

test('proposal_delete: an account whose approval is required removes the proposal; another is refused with Core\'s error', async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const next = await x.call('database', 'get_next_object_id', [1, 10, true]);
  await x.broadcast([proposalCreate(x.signerA, head + 3600, [transferOp(x.hot, x.customer, 1_000), transferOp(x.signerB, x.customer, 5)])], [x.a.priv]);
  t.deepEqual((await x.object(next))!.required_active_approvals, [x.signerB, x.hot].sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2])));
  t.regex((await x.tryBroadcast([proposalDelete(x.signerA, next)], [x.a.priv]))!, /required_approvals->find\(o\.fee_paying_account\) != required_approvals->end\(\): Provided authority is not authoritative for this proposal\./);
  t.regex((await x.tryBroadcast([proposalDelete(x.signerB, next, true)], [x.b.priv]))!, /Provided authority is not authoritative/, 'signer B\'s owner approval is not required');
  await x.broadcast([proposalDelete(x.signerB, next)], [x.b.priv]);
  t.is(await x.object(next), null, 'removed before the block');
  t.deepEqual(await x.call('database', 'get_proposed_transactions', [x.signerB]), []);
  await x.generate(1);
  t.is(await x.object(next), null);
  t.is((await x.history(x.signerB))[0]!.op[0], 24);
  t.regex((await x.tryBroadcast([proposalDelete(x.signerB, next)], [x.b.priv]))!, /Unable to find Object 1\.10\.\d+/);
});

test("proposal_create and proposal_update are refused with Core's errors", async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const gp = (await x.call('database', 'get_global_properties', [])).parameters;
  const send = transferOp(x.hot, x.customer, 1);
  const refused = (ops: OperationJson[], keys = [x.a.priv]) => x.tryBroadcast(ops, keys);
  t.regex((await refused([proposalCreate(x.signerA, head, [send])]))!, /o\.expiration_time > block_time: Proposal has already expired on creation\./);
  t.regex((await refused([proposalCreate(x.signerA, head + gp.maximum_proposal_lifetime + 1, [send])]))!, /Proposal expiration time is too far in the future\./);
  t.regex((await refused([proposalCreate(x.signerA, head + 100, [send], 100)]))!, /Proposal review period must be less than its overall lifetime\./);
  t.regex((await refused([proposalCreate(x.signerA, head + 100, [])]))!, /!proposed_ops\.empty\(\)/);
  t.regex((await refused([proposalCreate(x.signerA, head + 100, [transferOp(x.hot, x.hot, 1)])]))!, /from != to/, "a proposed operation's validate() runs at creation");
  // The committee's authority needs a review period of at least committee_proposal_review_period.
  const committee = transferOp('1.2.0', x.customer, 1);
  t.regex((await refused([proposalCreate(x.signerA, head + 7200, [committee])]))!, new RegExp(`Review period not given, but at least ${gp.committee_proposal_review_period} required`));
  t.regex((await refused([proposalCreate(x.signerA, head + 7200, [committee], 10)]))!, new RegExp(`Review period of 10 specified, but at least ${gp.committee_proposal_review_period} required`));
  t.is(await refused([proposalCreate(x.signerA, head + 7200, [committee], gp.committee_proposal_review_period)]), undefined, 'with its review period the committee may be proposed to');
  // An operation this chain does not evaluate cannot be proposed.
  t.regex((await refused([proposalCreate(x.signerA, head + 100, [[9, { fee: ZERO, account_id: x.hot, new_owner: x.customer, extensions: [] }]])]))!, /is not supported on this chain/);

  const next = await x.call('database', 'get_next_object_id', [1, 10, true]);
  await x.broadcast([proposalCreate(x.signerA, head + 3600, [send])], [x.a.priv]);
  t.regex((await refused([proposalUpdate(x.signerA, next, {})]))!, /!\(active_approvals_to_add\.empty\(\) && active_approvals_to_remove\.empty\(\)/);
  t.regex((await refused([proposalUpdate(x.signerA, next, { activeAdd: [x.signerA], activeRemove: [x.signerA] })]))!, /Cannot add and remove approval at the same time\./);
  t.regex((await refused([proposalUpdate(x.signerA, next, { activeRemove: [x.signerA] })]))!, /_proposal->available_active_approvals\.find\(id\) != _proposal->available_active_approvals\.end\(\)/);
  t.regex((await refused([proposalUpdate(x.signerA, '1.10.99', { activeAdd: [x.signerA] })]))!, /Unable to find Object 1\.10\.99/);
  // Approving for an account needs that account's signature.
  t.regex((await refused([proposalUpdate(x.signerA, next, { activeAdd: [x.signerB] })]))!, /Missing Active Authority/);
});

test('key approvals: a proposal needing a key-controlled account executes when its key approves', async (t) => {
  const x = await exchange(t);
  const head = parseFcTime((await x.head()).time);
  const next = await x.call('database', 'get_next_object_id', [1, 10, true]);
  // nathan proposes a payment from signer-a; signer-a's key approves it directly.
  await x.broadcast([proposalCreate(NATHAN, head + 3600, [transferOp(x.signerA, x.customer, 777)])], [DEV_KEY]);
  await x.broadcast([proposalUpdate(NATHAN, next, { keyAdd: [x.a.pub] })], [DEV_KEY, x.a.priv]);
  t.is(await x.object(next), null);
  t.is(await x.balance(x.customer), 777);
});
