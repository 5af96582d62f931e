// Vesting balances through the chain writer, against numbers worked out by hand from Core's
// vesting_balance_object.cpp: a cdd balance earns balance × seconds of coin seconds from its last
// update, capped at balance × vesting_seconds, and a withdrawal spends amount × vesting_seconds of
// them; a linear balance vests begin_balance × elapsed / duration after its cliff. Blocks here are
// 3 s apart, and evaluators see the previous block's time (head_block_time).
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { fcTime } from '../src/chain/fc/fc-json.js';
import type { OperationJson } from '../src/chain/protocol/types.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const FEE = { amount: 0, asset_id: '1.3.0' };

type Obj = Record<string, any>;

function chainWithAlice(t: ExecutionContext) {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')]);
  const obj = (id: string): Obj => {
    const [s, ty, i] = id.split('.').map(Number);
    return JSON.parse(chain.store.objects.get([s!, ty!, i!])!.toString('utf8'));
  };
  return { chain, obj };
}

const create = (policy: unknown, amount = 90_000): OperationJson => [32, { fee: FEE, creator: NATHAN, owner: ALICE, amount: { amount, asset_id: '1.3.0' }, policy }];
const withdraw = (vb: string, amount: number): OperationJson => [33, { fee: FEE, vesting_balance: vb, owner: ALICE, amount: { amount, asset_id: '1.3.0' } }];

test('a cdd balance earns coin seconds from its creation and a withdrawal spends them', (t) => {
  const { chain, obj } = chainWithAlice(t);
  const created = chain.block([create([1, { start_claim: '1970-01-01T00:00:00', vesting_seconds: 30 }])]);
  t.deepEqual(created.transactions[0]!.operation_results, [[1, '1.13.0']]);
  const start = obj('1.13.0').policy[1].coin_seconds_earned_last_update as string;
  // Two more blocks; then a block's operations see head time start + 9 s (the creation saw the
  // head before its own block). A refused block is not applied: the head stays.
  chain.block();
  chain.block();
  // 9 s of 90,000: 810,000 coin seconds, 27,000 withdrawable (÷ 30); one more is refused.
  t.throws(() => chain.block([withdraw('1.13.0', 27_001)]), { message: /vbo\.is_withdraw_allowed/ });
  chain.block([withdraw('1.13.0', 20_000)]);
  const vb = obj('1.13.0');
  t.deepEqual(vb.balance, { amount: 70_000, asset_id: '1.3.0' });
  // Brought up to the withdrawal's head time (810,000 earned), less 20,000 × 30.
  t.is(vb.policy[1].coin_seconds_earned, String(810_000 - 20_000 * 30));
  t.is(Date.parse(`${vb.policy[1].coin_seconds_earned_last_update}Z`) - Date.parse(`${start}Z`), 9_000);
});

test('a linear balance vests nothing before its cliff and begin_balance × elapsed / duration after it', (t) => {
  const { chain, obj } = chainWithAlice(t);
  const head = Date.parse(`${obj('2.1.0').time}Z`) / 1000;
  // Begins at the head time, cliff 6 s, over 30 s.
  chain.block([create([0, { begin_timestamp: fcTime(head), vesting_cliff_seconds: 6, vesting_duration_seconds: 30 }])]);
  t.deepEqual(obj('1.13.0').policy, [0, { begin_timestamp: fcTime(head), vesting_cliff_seconds: 6, vesting_duration_seconds: 30, begin_balance: 90_000 }]);
  // The next block sees head + 3 s: before the cliff.
  t.throws(() => chain.block([withdraw('1.13.0', 1)]), { message: /vbo\.is_withdraw_allowed/ });
  chain.block();
  // head + 9 s (the refused block was not applied): 90,000 × 9 / 30 = 27,000.
  t.throws(() => chain.block([withdraw('1.13.0', 27_001)]), { message: /vbo\.is_withdraw_allowed/ });
  chain.block([withdraw('1.13.0', 27_000)]);
  t.deepEqual(obj('1.13.0').balance, { amount: 63_000, asset_id: '1.3.0' });
});
