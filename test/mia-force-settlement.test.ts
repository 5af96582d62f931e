// Force settlement (asset_settle, 17) through the chain writer, with the figures of BitShares Core's
// own tests (tests/tests/settle_tests.cpp), on a chain where every hardfork has passed: a settlement
// (1.4.x) waits force_settlement_delay_sec and is then filled against the least collateralized
// position at the feed price less the offset, within the volume limit; one too small to receive
// anything is cancelled (asset_settle_cancel, 42, virtual); one is cancelled when the feed has
// expired or the offset is 100% (db_update.cpp clear_expired_force_settlements).
//
// Core's fixture runs with every fee zero, and so do these blocks. The devnet runs Core's
// maintenance-interval steps (the force-settled volume reset) every maintenance_interval of its
// genesis (one hour) instead of Core's test chain's day: every wait below crosses one, as each of
// Core's crosses a day, so Core's volumes hold. Figures marked "derived" are not checked by Core's
// test and were worked out from Core's code (db_market.cpp match, fill_settle_order, cancel_settle_order).
import test from 'ava';
import { miaChain, CORE, FIRST_ASSET, type MiaChain } from './helpers/mia-chain.js';
import { borrow, FLAG, miaCreate, publishFeed, settle, updateFeedProducers, price } from './helpers/mia-ops.js';
import { op } from './helpers/chain.js';

type Obj = Record<string, any>;
const HOUR = 3600;

const cancelOp = (settlement: string, account: string, amount: number, asset: string) => [42, { fee: { amount: 0, asset_id: CORE }, settlement, account, amount: { amount, asset_id: asset } }];

/** The block's operations, fills and cancels in full, the others by their code. */
const shape = (m: MiaChain, blockNum: number): unknown[] => m.blockOps(blockNum).map((o) => (o.op[0] === 4 || o.op[0] === 42 ? o.op : o.op[0]));

const fillOp = (orderId: string, account: string, pays: [number, string], receives: [number, string], fillPrice: Obj, isMaker: boolean) => [
  4,
  { fee: { amount: 0, asset_id: CORE }, order_id: orderId, account_id: account, pays: { amount: pays[0], asset_id: pays[1] }, receives: { amount: receives[0], asset_id: receives[1] }, fill_price: fillPrice, is_maker: isMaker },
];

// Core: settle_tests.cpp, BOOST_AUTO_TEST_CASE( settle_rounding_test_after_hf_184 ) as run by
// settle_rounding_test_after_hf_2481, up to the third settlement round (Core goes on with more).
// Core's figures; the settlement and cancel operations are derived. Core's second asset CNYBIT only
// gets a feed here and is left out.
test('a force settlement waits its delay, then fills against the least collateralized position at the feed price, rounded for the position; one too small is cancelled; each round stops at the volume limit', (t) => {
  const m = miaChain(t);
  const { paul, michael, rachel, alice, bob, jim } = m.actors('paul', 'michael', 'rachel', 'alice', 'bob', 'ted', 'joe', 'jim');
  const USD = FIRST_ASSET;
  m.push(miaCreate('USDBIT', paul));
  m.fund(100_000_000, michael);
  m.fund(10_000_000, paul, alice, bob, jim);
  m.push(updateFeedProducers(paul, USD, [paul]));
  const feed = (producer: string) => publishFeed(producer, USD, { debt: producer === paul ? 100 : 101, collateral: 5, mcr: 1750, mssr: 1100 });
  m.push(feed(paul));

  m.push(borrow(paul, [1000, USD], [100, CORE]));
  const callPaul = '1.8.0';
  t.is(m.balance(paul, USD), 1000);
  m.push(op.transfer(paul, rachel, 200, USD));
  t.is(m.balance(rachel, CORE), 0);
  t.is(m.balance(rachel, USD), 200);
  t.is(m.balance(michael, USD), 0);
  t.is(m.balance(michael, CORE), 100_000_000);
  m.push(borrow(michael, [6, USD], [8, CORE]));
  const callMichael = '1.8.1';

  // add a settle order and check the rounding issue
  const placed = m.push(settle(rachel, [4, USD]));
  t.deepEqual(placed.transactions[0]!.operation_results, [[5, { new_objects: ['1.4.0'] }]]);
  // Derived: force_settlement_object in its reflection order, due a delay after the head block time.
  t.deepEqual(m.obj('1.4.0'), { id: '1.4.0', owner: rachel, balance: { amount: 4, asset_id: USD }, settlement_date: new Date((m.now() - 3 + 86400) * 1000).toISOString().slice(0, 19) });
  t.is(m.balance(rachel, CORE), 0);
  t.is(m.balance(rachel, USD), 196);
  t.is(m.balance(michael, USD), 6);
  t.is(m.balance(michael, CORE), 99_999_992);
  t.is(m.balance(paul, CORE), 9_999_900);
  t.is(m.balance(paul, USD), 800);
  t.like(m.obj(callPaul), { debt: 1000, collateral: 100 });
  t.like(m.obj(callMichael), { debt: 6, collateral: 8 });

  // 20 hours on, alice's feed replaces paul's (the feed and the settlement would expire together)
  m.elapse(20 * HOUR);
  m.push(updateFeedProducers(paul, USD, [alice]));
  m.push(feed(alice));
  // 6 hours on the settlement is due; at 101 USD for 5 CORE, 4 USD buy nothing: cancelled, refunded
  m.elapse(6 * HOUR);
  const first = m.block();
  t.is(m.obj('1.4.0'), undefined);
  t.is(m.balance(rachel, CORE), 0);
  t.is(m.balance(rachel, USD), 200);
  t.is(m.balance(michael, USD), 6);
  t.is(m.balance(michael, CORE), 99_999_992);
  t.is(m.balance(paul, CORE), 9_999_900);
  t.is(m.balance(paul, USD), 800);
  t.like(m.obj(callPaul), { debt: 1000, collateral: 100 });
  t.like(m.obj(callMichael), { debt: 6, collateral: 8 });
  t.is(Number(m.obj('2.3.1')!.current_supply), 1006);
  // Derived: the cancel comes after the block's transactions (none here), with its refund.
  const cancel = m.blockOps(first.blockNum).at(-1)!;
  t.deepEqual(cancel.op, cancelOp('1.4.0', rachel, 4, USD));
  t.deepEqual([cancel.trx_in_block, cancel.is_virtual], [0, true]);

  // settle more: less than the 20% of the supply a maintenance interval allows
  m.push(settle(rachel, [34, USD]));
  const settle2 = '1.4.1';
  t.is(m.obj(settle2)!.balance.amount, 34);
  t.is(m.balance(rachel, USD), 166);
  m.elapse(10 * HOUR);
  m.push(updateFeedProducers(paul, USD, [alice]));
  m.push(feed(alice));
  m.elapse(16 * HOUR);
  const second = m.block();
  t.is(m.obj(settle2), undefined);
  t.is(m.balance(rachel, CORE), 1); // rachel got 1 core
  t.is(m.balance(rachel, USD), 179); // and paid 21 usd, as 1 core is worth a little more than 20 usd
  t.is(m.balance(michael, USD), 6);
  t.is(m.balance(michael, CORE), 99_999_992);
  t.is(m.balance(paul, CORE), 9_999_900);
  t.is(m.balance(paul, USD), 800);
  t.like(m.obj(callPaul), { debt: 979, collateral: 99 });
  t.like(m.obj(callMichael), { debt: 6, collateral: 8 });
  t.is(Number(m.obj('2.3.1')!.current_supply), 985);
  // Derived: the position is the maker, at the feed price (offset 0); the 13 USD left would buy
  // nothing and are given back (the settlement is culled).
  const feedPrice = price(101, USD, 5, CORE);
  t.deepEqual(shape(m, second.blockNum), [fillOp(callPaul, paul, [1, CORE], [21, USD], feedPrice, true), fillOp(settle2, rachel, [21, USD], [1, CORE], feedPrice, false), cancelOp(settle2, rachel, 13, USD)]);

  // prepare for more tests
  m.push(op.transfer(paul, rachel, 300, USD));
  m.push(borrow(michael, [2, USD], [3, CORE]));
  // settle even more: more than 20% of the supply, in three settlements of one block
  m.block([settle(rachel, [3, USD])], [settle(rachel, [434, USD])], [settle(rachel, [5, USD])]);
  const [settle3, settle4, settle5] = ['1.4.2', '1.4.3', '1.4.4'];
  t.is(m.obj(settle3)!.balance.amount, 3);
  t.is(m.obj(settle4)!.balance.amount, 434);
  t.is(m.obj(settle5)!.balance.amount, 5);
  t.is(m.balance(rachel, CORE), 1);
  t.is(m.balance(rachel, USD), 37); // 179 + 300 - 3 - 434 - 5
  t.is(m.balance(michael, USD), 8);
  t.is(m.balance(michael, CORE), 99_999_989);
  t.is(m.balance(paul, CORE), 9_999_900);
  t.is(m.balance(paul, USD), 500);
  t.like(m.obj(callPaul), { debt: 979, collateral: 99 });
  t.like(m.obj(callMichael), { debt: 8, collateral: 11 });
  t.is(Number(m.obj('2.3.1')!.current_supply), 987);

  m.elapse(4 * HOUR);
  m.push(updateFeedProducers(paul, USD, [alice]));
  m.push(feed(alice));
  m.elapse(22 * HOUR);
  const third = m.block();
  // settle3 is cancelled as too small. At most round_down(987 * 20%) = 197 can be settled now: at
  // 101/5 that is worth more than 9 core and less than 10, so 9 core, worth 181.5 usd: rachel pays 182.
  t.is(m.obj(settle3), undefined);
  t.is(m.obj(settle4)!.balance.amount, 252); // 434 - 182
  t.is(m.obj(settle5)!.balance.amount, 5, 'no change: it comes after settle4');
  t.is(m.balance(rachel, CORE), 10);
  t.is(m.balance(rachel, USD), 40); // 37 + 3
  t.is(m.balance(michael, USD), 8);
  t.is(m.balance(michael, CORE), 99_999_989);
  t.is(m.balance(paul, CORE), 9_999_900);
  t.is(m.balance(paul, USD), 500);
  t.like(m.obj(callPaul), { debt: 797, collateral: 90 });
  t.like(m.obj(callMichael), { debt: 8, collateral: 11 });
  t.is(Number(m.obj('2.3.1')!.current_supply), 805);
  t.is(Number(m.obj('2.4.0')!.force_settled_volume), 182);
  t.deepEqual(shape(m, third.blockNum), [cancelOp(settle3, rachel, 3, USD), fillOp(callPaul, paul, [9, CORE], [182, USD], feedPrice, true), fillOp(settle4, rachel, [182, USD], [9, CORE], feedPrice, false)]);
});

/** Core's setup of the settle_order_cancel_due_to_* tests: SAMMPA of sam, a feed of 100 for 1 core (MCR 1.85, MSSR 1.25), borrower's 100000 at 2000 core given to seller. */
function sammpa(m: MiaChain, o: { feedLifetime: number; settlementOffset?: number }) {
  const { sam, feeder, borrower, seller } = m.actors('sam', 'feeder', 'borrower', 'seller');
  const MPA = FIRST_ASSET;
  const init = 10_000_000 * 100_000; // 10000000 * GRAPHENE_BLOCKCHAIN_PRECISION
  m.fund(init, sam, feeder, borrower);
  // issuer_permissions = ASSET_ISSUER_PERMISSION_ENABLE_BITS_MASK (0x1ff), flags = charge_market_fee
  m.push(miaCreate('SAMMPA', sam, { precision: 2, permissions: 0x1ff, flags: FLAG.charge_market_fee, feedLifetime: o.feedLifetime, settlementDelay: 600, settlementOffset: o.settlementOffset ?? 0 }));
  m.push(updateFeedProducers(sam, MPA, [feeder]));
  m.push(publishFeed(feeder, MPA, { debt: 100, collateral: 1, cer: { base: 100, quote: 1 }, mcr: 1850, mssr: 1250 }));
  m.push(borrow(borrower, [100000, MPA], [2000, CORE]));
  m.push(op.transfer(borrower, seller, 100000, MPA));
  return { seller, MPA, call: '1.8.0' };
}

// Core: settle_tests.cpp, BOOST_AUTO_TEST_CASE( settle_order_cancel_due_to_no_feed ) (after_hf_2467). Core's figures.
test('a force settlement due when the feed has expired is cancelled and refunded, and no new one is taken without a feed', (t) => {
  const m = miaChain(t);
  const s = sammpa(m, { feedLifetime: 400 });
  t.like(m.obj(s.call), { debt: 100000, collateral: 2000 });
  t.is(m.balance(s.seller, s.MPA), 100000);
  t.is(m.balance(s.seller, CORE), 0);

  m.push(settle(s.seller, [11100, s.MPA]));
  t.is(m.obj('1.4.0')!.balance.amount, 11100);
  t.is(m.balance(s.seller, s.MPA), 88900);

  // the feed expires
  m.elapse(400);
  m.block();
  t.deepEqual(m.obj('2.4.0')!.current_feed.settlement_price, price(0, CORE, 0, CORE), 'no feed: the null price');
  t.is(m.obj('1.4.0')!.balance.amount, 11100);
  t.is(m.balance(s.seller, s.MPA), 88900);

  // the settlement is due
  m.elapse(200);
  const due = m.block();
  t.is(m.obj('1.4.0'), undefined, 'cancelled');
  t.is(m.balance(s.seller, s.MPA), 100000);
  t.is(m.balance(s.seller, CORE), 0);
  t.deepEqual(shape(m, due.blockNum), [cancelOp('1.4.0', s.seller, 11100, s.MPA)]);
  t.like(m.obj(s.call), { debt: 100000, collateral: 2000 });

  // unable to settle when there is no feed
  t.throws(() => m.push(settle(s.seller, [11100, s.MPA])), { message: /Cannot force settle with no price feed if the asset is not globally settled/ });
});

// Core: settle_tests.cpp, BOOST_AUTO_TEST_CASE( settle_order_cancel_due_to_100_percent_offset ) (after_hf_2467). Core's figures.
test('a force settlement of an asset whose settlement offset is 100% is cancelled when due, with the feed still valid', (t) => {
  const m = miaChain(t);
  const s = sammpa(m, { feedLifetime: 800, settlementOffset: 10000 });
  m.push(settle(s.seller, [11100, s.MPA]));
  t.is(m.obj('1.4.0')!.balance.amount, 11100);
  t.is(m.balance(s.seller, s.MPA), 88900);
  m.block();
  t.is(m.obj('1.4.0')!.balance.amount, 11100);
  m.elapse(600);
  const due = m.block();
  t.deepEqual(m.obj('2.4.0')!.current_feed.settlement_price, price(100, s.MPA, 1, CORE));
  t.is(m.obj('1.4.0'), undefined);
  t.is(m.balance(s.seller, s.MPA), 100000);
  t.is(m.balance(s.seller, CORE), 0);
  t.deepEqual(shape(m, due.blockNum), [cancelOp('1.4.0', s.seller, 11100, s.MPA)]);
  // Derived: the cancel is in the owner's history, as its newest operation.
  const stats = m.obj(`2.6.${s.seller.split('.')[2]}`)!;
  t.is(m.chain.store.accountSequence.get([Number(s.seller.split('.')[2]), Number(stats.total_ops)]), Number(m.blockOps(due.blockNum)[0]!.id.split('.')[2]));
});

// Derived from asset_settle_evaluator::do_apply (asset_evaluator.cpp): after hardfork core-2582 a
// settlement of nothing returns before creating an object. Core's settle_order_cancel_due_to_zero_amount
// runs before that hardfork and sees a 1.4.x of 0 cancelled when due.
test('a force settlement of zero creates nothing after hardfork core-2582', (t) => {
  const m = miaChain(t);
  const s = sammpa(m, { feedLifetime: 800 });
  const b = m.push(settle(s.seller, [0, s.MPA]));
  t.deepEqual(b.transactions[0]!.operation_results, [[5, {}]]);
  t.is(m.obj('1.4.0'), undefined);
  t.is(m.balance(s.seller, s.MPA), 100000);
});

// Derived from asset_settle_evaluator::do_evaluate's messages (asset_evaluator.cpp).
test('force settlement is refused for an asset that is not market-issued, and for one whose force settling is disabled', (t) => {
  const m = miaChain(t);
  const { sam, seller } = m.actors('sam', 'seller');
  m.push(miaCreate('NOSETTLE', sam, { flags: FLAG.charge_market_fee | FLAG.disable_force_settle }));
  m.push(op.assetCreate('UIA', sam));
  m.fund(1_000_000, seller);
  m.push(updateFeedProducers(sam, FIRST_ASSET, [sam]));
  m.push(publishFeed(sam, FIRST_ASSET, { debt: 1, collateral: 1 }));
  m.push(op.assetIssue('1.3.2', seller, 100, sam));
  t.throws(() => m.push(settle(seller, [10, '1.3.2'])), { message: /Can only force settle a predition market or a market issued asset/ });
  t.throws(() => m.push(settle(seller, [10, FIRST_ASSET])), { message: /Either the asset need to have the force_settle flag enabled, or it need to be globally settled/ });
  t.throws(() => m.push(settle(seller, [10, CORE])), { message: /Can only force settle a predition market or a market issued asset/ });
});
