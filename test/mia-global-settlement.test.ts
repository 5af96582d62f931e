// Black swan and global settlement (db_market.cpp check_for_blackswan, globally_settle_asset), the
// settlement from the fund after it (asset_settle on a settled asset), collateral bids (bid_collateral,
// 45) and the revival of the asset (revive_bitasset, process_bids: execute_bid, 46, virtual), and
// asset_global_settle (18) by the issuer, through the chain writer with the figures of BitShares
// Core's own tests (tests/tests/swan_tests.cpp, settle_tests.cpp), on a chain where every hardfork
// has passed.
//
// Core's swan tests trigger the black swan before hardfork core-2481 and then advance past it; here
// it happens after, where the positions are closed at the least collateralized one's ratio and those
// in margin call territory pay the squeeze premium as margin call fee: the fund is 1868 core for 1400
// USD where Core's is 2800, and figures that follow from the fund are derived (marked so). The devnet
// processes collateral bids every maintenance_interval of its genesis (one hour) where Core does at
// its maintenance interval. Every fee is zero, as in Core's fixture.
import test from 'ava';
import { miaChain, CORE, FIRST_ASSET, type MiaChain } from './helpers/mia-chain.js';
import { bidCollateral, borrow, FLAG, globalSettle, miaCreate, publishFeed, settle, updateFeedProducers, price } from './helpers/mia-ops.js';
import { op } from './helpers/chain.js';

const HOUR = 3600;
const INIT = 1_000_000;
const USD = FIRST_ASSET;
const NULL_PRICE = price(0, CORE, 0, CORE);

/**
 * Core's swan_fixture (swan_tests.cpp): borrower, borrower2 and feedproducer, USDBIT of feedproducer,
 * and init_standard_swan(amount): a feed of 1:1, borrower borrows `amount` at 2x and borrower2 at 4x,
 * the feed goes to 1:2 and borrower2 offers 1 USD for 3 core.
 */
function standardSwan(m: MiaChain, amount: number) {
  const { borrower, borrower2, feedproducer } = m.actors('borrower', 'borrower2', 'feedproducer');
  m.fund(INIT, borrower, borrower2);
  m.push(miaCreate('USDBIT', feedproducer));
  m.push(updateFeedProducers(feedproducer, USD, [feedproducer]));
  const setFeed = (usd: number, core: number, mcr = 1750, icr?: number) => m.push(publishFeed(feedproducer, USD, { debt: usd, collateral: core, mcr, icr }));
  setFeed(1, 1);
  m.push(borrow(borrower, [amount, USD], [2 * amount, CORE]));
  m.push(borrow(borrower2, [amount, USD], [4 * amount, CORE]));
  const swan = setFeed(1, 2);
  m.push(op.limitOrderCreate(borrower2, [1, USD], [3, CORE]));
  return { borrower, borrower2, feedproducer, setFeed, swan, order: '1.7.0' };
}

const isSettled = (m: MiaChain): boolean => m.obj('2.4.0')!.settlement_price.base.amount !== 0;

// Core: swan_tests.cpp, BOOST_AUTO_TEST_CASE( black_swan ) as run by black_swan_after_hf2481, and
// trigger_swan's checks. Core's balances; the settlement price, fund, fee and the fills are derived.
test('a feed under the swan price settles the asset globally: every position closed, the fund and price set; holders then settle from the fund at once, with or without a feed; no one borrows', (t) => {
  const m = miaChain(t);
  const s = standardSwan(m, 1000);
  t.is(m.balance(s.borrower, USD), 1000);
  t.is(m.balance(s.borrower2, USD), 999);
  t.is(m.balance(s.borrower, CORE), INIT - 2000);
  // (2 * amount2 * denom + mssr - 1) / mssr: borrower2 (4x, above the MCR) pays the fund's price
  t.is(m.balance(s.borrower2, CORE), INIT - Math.floor((2 * 1000 * 1000 + 1500 - 1) / 1500));
  t.true(isSettled(m));
  t.truthy(m.obj(s.order), 'the order is placed on the settled asset');

  // Derived (after core-2481 the feed itself triggers it: the least collateralized position, 2000/1000,
  // is under the MSSP of 3 core a USD): positions closed at 1000/2000, the margin call (borrower) paying
  // 1.5x to the fund and the premium to the issuer; borrower2 paying the fund price 3/4.
  const bd = m.obj('2.4.0')!;
  t.deepEqual(bd.settlement_price, price(2000, USD, 2668, CORE));
  t.is(Number(bd.settlement_fund), 2668);
  t.is(Number(m.obj('2.3.1')!.accumulated_collateral_fees), 666);
  t.is(m.obj('1.8.0'), undefined);
  t.is(m.obj('1.8.1'), undefined);
  const fundPrice = price(3, USD, 4, CORE);
  t.deepEqual(
    m.blockOps(s.swan.blockNum).map((o) => (o.op[0] === 4 ? [o.op[1].order_id, o.op[1].pays.amount, o.op[1].receives.amount, o.op[1].fee.amount, o.op[1].fill_price, o.op[1].is_maker] : o.op[0])),
    [19, ['1.8.0', 2000, 1000, 666, fundPrice, true], ['1.8.1', 1334, 1000, 0, fundPrice, true]],
  );

  // settle 100 from the fund at once: 100 * 2668/2000 = 133 core, for ceil(133 * 2000/2668) = 100 USD
  const first = m.push(settle(s.borrower, [100, USD]));
  t.deepEqual(first.transactions[0]!.operation_results, [[5, { paid: [{ amount: 100, asset_id: USD }], received: [{ amount: 133, asset_id: CORE }], fees: [{ amount: 0, asset_id: CORE }] }]]);
  t.is(m.balance(s.borrower, USD), 900);
  t.is(m.balance(s.borrower, CORE), INIT - 2000 + 133);
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 2668 - 133);
  t.is(Number(m.obj('2.3.1')!.current_supply), 1900);
  t.is(m.obj('1.4.0'), undefined, 'no settlement waits');

  // the feed expires; settling from the fund needs none
  m.elapse(86400);
  m.block();
  t.deepEqual(m.obj('2.4.0')!.current_feed.settlement_price, NULL_PRICE);
  m.push(settle(s.borrower, [100, USD]));
  t.is(m.balance(s.borrower, CORE), INIT - 2000 + 133 + 133);
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 2668 - 266);
  t.deepEqual(m.obj('2.4.0')!.settlement_price, price(2000, USD, 2668, CORE), 'the settlement price stays');

  // a new feed does not revive it (the fund covers 2402/1800 core a USD, under 1.5 * 1.75)
  s.setFeed(100, 150);
  t.true(isSettled(m));
  // Verify that we cannot borrow after black swan
  t.throws(() => m.push(borrow(s.borrower, [1000, USD], [2000, CORE])), { message: /Cannot update debt position when the asset has been globally settled/ });
});

// Core: swan_tests.cpp, BOOST_AUTO_TEST_CASE( revive_recovered_with_bids ) as run by
// revive_recovered_with_bids_hf2481. Core revives between feeds of 700:800 and 701:800, where its fund
// of 2800 for 1400 covers the supply at the MCR; with the fund of 1868 (derived) that boundary is
// between 1311:1000 and 1312:1000 (derived). The rest is Core's, the operations derived.
test('a feed under which the fund covers the supply above the MCR revives the asset: the issuer takes the supply and the fund as a position (execute_bid), and the waiting bids are cancelled and refunded', (t) => {
  const m = miaChain(t);
  const s = standardSwan(m, 700);
  t.deepEqual(m.obj('2.4.0')!.settlement_price, price(1400, USD, 1868, CORE));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 1868);

  // price not good enough for recovery
  s.setFeed(1311, 1000);
  t.true(isSettled(m));

  m.push(bidCollateral(s.borrower, [10510, CORE], [700, USD]));
  m.push(bidCollateral(s.borrower2, [21000, CORE], [1399, USD]));
  t.true(isSettled(m));
  t.deepEqual(m.obj('2.17.0'), { id: '2.17.0', bidder: s.borrower, inv_swan_price: price(10510, CORE, 700, USD) });
  t.deepEqual(m.obj('2.17.1'), { id: '2.17.1', bidder: s.borrower2, inv_swan_price: price(21000, CORE, 1399, USD) });
  t.is(m.balance(s.borrower, CORE), INIT - 1400 - 10510, 'a bid takes its collateral');
  t.is(m.balance(s.borrower2, CORE), INIT - 934 - 21000);

  // revive after price recovers
  const revived = s.setFeed(1312, 1000);
  t.false(isSettled(m));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 0);
  t.is(m.obj('2.17.0'), undefined);
  t.is(m.obj('2.17.1'), undefined);
  t.deepEqual(m.obj('1.8.2'), { id: '1.8.2', borrower: s.feedproducer, collateral: 1868, debt: 1400, call_price: price(1, CORE, 1, USD) }, "the issuer's position: the supply and the fund");
  t.is(m.balance(s.borrower, CORE), INIT - 1400);
  t.is(m.balance(s.borrower2, CORE), INIT - 934);
  t.is(Number(m.obj('2.3.1')!.current_supply), 1400);
  t.is(m.obj(`2.6.${s.feedproducer.split('.')[2]}`)!.total_core_in_orders, 1868);
  t.deepEqual(
    m.blockOps(revived.blockNum).map((o) => (o.op[0] === 19 ? 19 : o.op)),
    [
      19,
      [46, { fee: { amount: 0, asset_id: CORE }, bidder: s.feedproducer, debt: { amount: 1400, asset_id: USD }, collateral: { amount: 1868, asset_id: CORE } }],
      // the bids, the most collateral for the debt first, cancelled with a virtual bid of nothing
      [45, { fee: { amount: 0, asset_id: CORE }, bidder: s.borrower, additional_collateral: { amount: 10510, asset_id: CORE }, debt_covered: { amount: 0, asset_id: USD }, extensions: [] }],
      [45, { fee: { amount: 0, asset_id: CORE }, bidder: s.borrower2, additional_collateral: { amount: 21000, asset_id: CORE }, debt_covered: { amount: 0, asset_id: USD }, extensions: [] }],
    ],
  );
  // The asset trades again: a new position can be opened.
  m.push(borrow(s.borrower, [100, USD], [1000, CORE]));
  t.like(m.obj('1.8.3'), { borrower: s.borrower, debt: 100, collateral: 1000 });
});

// Core: swan_tests.cpp, BOOST_AUTO_TEST_CASE( recollateralize ) as run by recollateralize_hf2481: the
// refusals and the balances of bidding are Core's; the bids that revive the asset at the maintenance
// step are derived from process_bids (db_maint.cpp) for the fund of 1868: a bid is good when the
// debt's share of the fund plus the bid exceeds 3.5 core a USD (feed 1:2 times ICR = MCR 1.75).
test('collateral bids: replaced and cancelled by their bidder, refused as Core refuses them, and at the maintenance step executed as debt positions once good bids cover the whole supply', (t) => {
  const m = miaChain(t);
  const s = standardSwan(m, 700);
  const { borrower, borrower2 } = s;
  const b2 = m.balance(borrower2, CORE);
  m.push(bidCollateral(borrower2, [1000, CORE], [100, USD]));
  t.is(m.balance(borrower2, CORE), b2 - 1000);
  m.push(bidCollateral(borrower2, [2000, CORE], [200, USD]));
  t.is(m.balance(borrower2, CORE), b2 - 2000, 'a new bid replaces the old one');
  const cancelled = m.push(bidCollateral(borrower2, [1000, CORE], [0, USD]));
  t.is(m.balance(borrower2, CORE), b2, 'a bid of no debt cancels');
  t.deepEqual(m.blockOps(cancelled.blockNum).map((o) => o.op[0]), [45], 'a cancel by the bidder has no virtual operation');

  // can't bid for non-bitassets
  t.throws(() => m.push(bidCollateral(borrower2, [100, USD], [100, CORE])), { message: /Unable to cover .* as it is not a collateralized asset/ });
  // can't cancel a non-existent bid
  t.throws(() => m.push(bidCollateral(borrower2, [0, CORE], [0, USD])), { message: /Can't find bid to cancel\?!/ });
  // can't bid zero collateral
  t.throws(() => m.push(bidCollateral(borrower2, [0, CORE], [100, USD])), { message: /debt_covered\.amount == 0 \|\| \(debt_covered\.amount > 0 && additional_collateral\.amount > 0\)/ });
  // can't bid more than we have
  t.throws(() => m.push(bidCollateral(borrower2, [b2 + 100, CORE], [100, USD])), { message: new RegExp(`Cannot bid ${b2 + 100} collateral when payer only has ${b2}`) });

  // can't bid on a live bitasset
  m.push(miaCreate('CNYBIT', s.feedproducer));
  const CNY = '1.3.2';
  t.throws(() => m.push(bidCollateral(borrower2, [100, CORE], [100, CNY])), { message: /Cannot bid since the asset is not globally settled/ });
  m.push(updateFeedProducers(s.feedproducer, CNY, [s.feedproducer]));
  m.push(publishFeed(s.feedproducer, CNY, { debt: 1, collateral: 1 }));
  m.push(borrow(borrower2, [100, CNY], [1000, CORE]));
  // can't bid wrong collateral type
  t.throws(() => m.push(bidCollateral(borrower2, [100, CNY], [100, USD])), { message: /additional_collateral\.asset_id == .*short_backing_asset/ });

  t.is(Number(m.obj('2.3.1')!.current_supply), 1400);
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 1868);
  t.true(isSettled(m));

  // doesn't happen without a price feed (Core's has expired while it waited for the hardforks)
  m.elapse(86400);
  m.block();
  t.deepEqual(m.obj('2.4.0')!.current_feed.settlement_price, NULL_PRICE);
  m.push(bidCollateral(borrower, [1517, CORE], [700, USD]));
  m.push(bidCollateral(borrower2, [1517, CORE], [700, USD]));
  m.elapse(HOUR);
  m.block();
  t.true(isSettled(m));

  s.setFeed(1, 2);
  // doesn't happen if the cover is insufficient: 700 + 600 < 1400
  m.push(bidCollateral(borrower2, [1517, CORE], [600, USD]));
  m.elapse(HOUR);
  m.block();
  t.true(isSettled(m));

  s.setFeed(1, 2);
  // doesn't happen if some bids have a bad swan price: 934 + 1516 = 3.5 x 700, not above
  m.push(bidCollateral(borrower2, [1516, CORE], [700, USD]));
  m.elapse(HOUR);
  m.block();
  t.true(isSettled(m));

  s.setFeed(1, 2);
  // works: borrower's 2451 for 700 and borrower2's 1866 + 3031 for 1399 are both above 3.5
  m.push(bidCollateral(borrower, [1517, CORE], [700, USD]));
  m.push(bidCollateral(borrower2, [3031, CORE], [1399, USD]));
  const [bid1, bid2] = ['2.17.6', '2.17.7'];
  t.like(m.obj(bid1), { bidder: borrower });
  t.like(m.obj(bid2), { bidder: borrower2 });
  const before = { b: m.balance(borrower, CORE), b2: m.balance(borrower2, CORE) };
  t.true(isSettled(m));

  // revive at the maintenance step: the best bid first takes its debt and its share of the fund, the
  // next the rest of the supply and the rest of the fund
  m.elapse(HOUR);
  const revived = m.block();
  t.false(isSettled(m));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 0);
  t.is(m.obj(bid1), undefined);
  t.is(m.obj(bid2), undefined);
  t.is(Number(m.obj('2.3.1')!.current_supply), 1400);
  t.like(m.obj('1.8.3'), { borrower, collateral: 1517 + 934, debt: 700 });
  t.like(m.obj('1.8.4'), { borrower: borrower2, collateral: 3031 + 934, debt: 700 });
  t.is(m.balance(borrower, CORE), before.b, 'the bid becomes the collateral');
  t.is(m.balance(borrower2, CORE), before.b2);
  t.deepEqual(
    m.blockOps(revived.blockNum).map((o) => o.op),
    [
      [46, { fee: { amount: 0, asset_id: CORE }, bidder: borrower, debt: { amount: 700, asset_id: USD }, collateral: { amount: 2451, asset_id: CORE } }],
      [46, { fee: { amount: 0, asset_id: CORE }, bidder: borrower2, debt: { amount: 700, asset_id: USD }, collateral: { amount: 3965, asset_id: CORE } }],
    ],
  );
});

// Core: settle_tests.cpp, BOOST_AUTO_TEST_CASE( global_settle_rounding_test_after_hf_184 ) as run by
// global_settle_rounding_test_after_hf_2481. Core's figures. Core gives the asset the global_settle
// permission with asset_update; here it is created with it.
test('asset_global_settle by the issuer closes every position at its price, rounded up for the fund; holders settle from the fund, an amount worth nothing refused', (t) => {
  const m = miaChain(t);
  const { paul, michael, rachel, alice } = m.actors('paul', 'michael', 'rachel', 'alice');
  m.push(miaCreate('USDBIT', paul, { flags: FLAG.charge_market_fee | FLAG.global_settle }));
  m.fund(100_000_000, michael);
  m.fund(10_000_000, paul, alice);
  m.push(updateFeedProducers(paul, USD, [paul]));
  m.push(publishFeed(paul, USD, { debt: 100, collateral: 5, mcr: 1750, mssr: 1100 }));
  t.is(m.balance(paul, USD), 0);
  t.is(m.balance(paul, CORE), 10_000_000);

  m.push(borrow(paul, [1001, USD], [101, CORE]));
  t.is(m.balance(paul, USD), 1001);
  t.is(m.balance(paul, CORE), 10_000_000 - 101);
  m.push(op.transfer(paul, rachel, 200, USD));
  t.is(m.balance(rachel, USD), 200);
  t.is(m.balance(paul, USD), 801);
  m.push(borrow(michael, [6, USD], [8, CORE]));
  t.is(m.balance(michael, USD), 6);
  t.is(m.balance(michael, CORE), 100_000_000 - 8);

  // Derived from asset_global_settle_evaluator::do_evaluate: its refusals
  t.throws(() => m.push(globalSettle(rachel, USD, 10, 1)), { message: /Only asset issuer can globally settle an asset/ });
  t.throws(() => m.push(globalSettle(paul, USD, 9, 1)), { message: /Cannot globally settle at supplied price: least collateralized short lacks sufficient collateral to settle/ });

  const gs = m.push(globalSettle(paul, USD, 10, 1));
  const bd = m.obj('2.4.0')!;
  t.deepEqual(bd.settlement_price, price(1007, USD, 102, CORE));
  t.is(Number(bd.settlement_fund), 102); // 101 from paul, and 1 from michael
  t.is(Number(m.obj('2.3.1')!.current_supply), 1007);
  t.is(m.balance(rachel, CORE), 0);
  t.is(m.balance(rachel, USD), 200);
  t.is(m.balance(michael, USD), 6);
  t.is(m.balance(michael, CORE), 99_999_999); // michael paid 1 core for 6 usd
  t.is(m.balance(paul, CORE), 9_999_899); // paul paid 101 core for 1001 usd
  t.is(m.balance(paul, USD), 801);
  t.is(m.obj('1.8.0'), undefined);
  t.is(m.obj('1.8.1'), undefined);
  // Derived: the issuer's price, no margin call fee, positions least collateralized first, as makers.
  t.deepEqual(
    m.blockOps(gs.blockNum).map((o) => (o.op[0] === 4 ? [o.op[1].order_id, o.op[1].pays.amount, o.op[1].receives.amount, o.op[1].fee.amount, o.op[1].fill_price, o.op[1].is_maker] : o.op[0])),
    [18, ['1.8.0', 101, 1001, 0, price(10, USD, 1, CORE), true], ['1.8.1', 1, 6, 0, price(10, USD, 1, CORE), true]],
  );
  t.deepEqual(gs.transactions[0]!.operation_results, [[0, {}]]);
  t.throws(() => m.push(globalSettle(paul, USD, 10, 1)), { message: /This asset has been globally settled, cannot globally settle again/ });

  // a settle order will not execute after the hardfork when too small
  t.throws(() => m.push(settle(rachel, [4, USD])), { message: /Settle amount is too small to receive anything due to rounding/ });
  t.deepEqual(m.obj('2.4.0')!.settlement_price, price(1007, USD, 102, CORE));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 102);

  // rachel settles more than 1 core's worth
  const settled = m.push(settle(rachel, [13, USD]));
  t.deepEqual(m.obj('2.4.0')!.settlement_price, price(1007, USD, 102, CORE));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 101); // paid 1 core
  t.is(Number(m.obj('2.3.1')!.current_supply), 997); // settled 10 usd
  t.is(m.balance(rachel, CORE), 1);
  t.is(m.balance(rachel, USD), 190); // rachel paid 10 usd and got 1 core, 3 usd returned
  t.is(m.balance(michael, USD), 6);
  t.is(m.balance(michael, CORE), 99_999_999);
  t.is(m.balance(paul, CORE), 9_999_899);
  t.is(m.balance(paul, USD), 801);
  t.deepEqual(settled.transactions[0]!.operation_results, [[5, { paid: [{ amount: 10, asset_id: USD }], received: [{ amount: 1, asset_id: CORE }], fees: [{ amount: 0, asset_id: CORE }] }]]);
});

// Derived from asset_global_settle_evaluator::do_evaluate: an asset whose issuer has not the
// global_settle permission (Core's create_bitasset fixture gives only charge_market_fee) is refused.
test('asset_global_settle is refused without the global_settle permission', (t) => {
  const m = miaChain(t);
  const { paul } = m.actors('paul');
  m.fund(10_000_000, paul);
  m.push(miaCreate('USDBIT', paul));
  m.push(updateFeedProducers(paul, USD, [paul]));
  m.push(publishFeed(paul, USD, { debt: 100, collateral: 5 }));
  m.push(borrow(paul, [1001, USD], [101, CORE]));
  t.throws(() => m.push(globalSettle(paul, USD, 10, 1)), { message: /The global_settle permission of this asset is disabled/ });
});

// Core: db_maint.cpp, database::process_bids takes a bid while ~price::call_price( debt, the bid's
// collateral plus the debt's share of the fund, ICR ) < the feed; price::call_price (asset.cpp)
// halves collateral * 1000 and debt * ICR (+1 each) until both fit GRAPHENE_MAX_SHARE_SUPPLY, in
// boost::rational<uint128_t>, which puts each pair in lowest terms. Here (derived from that code):
// debt 100001, collateral 1000000 + 3000000000005 = 3000001000005, ICR 1751: 175101751 /
// 3000001000005000, halved to 87550876 / 1500000500002501 (gcd 7: 12507268 / 214285785714643,
// both fit, done), so ~call_price is 12507268 USD / 214285785714643 core. Halving without taking
// the 7 out gives 43775439 / 750000250001251 instead, a little more debt per collateral: with that
// as the feed, Core's call price is below it and the bid takes the whole supply.
test('collateral bids are weighed at the call price Core computes, in lowest terms at each halving: a bid whose ratio sits just inside the feed revives the asset', (t) => {
  const m = miaChain(t);
  const { borrower, bidder } = m.actors('borrower', 'bidder');
  const NATHAN = '1.2.6';
  m.push(miaCreate('USDBIT', NATHAN, { permissions: FLAG.charge_market_fee | FLAG.global_settle }));
  m.push(updateFeedProducers(NATHAN, USD, [NATHAN]));
  m.fund(INIT, borrower);
  m.fund(3_000_000_000_005, bidder);
  m.push(publishFeed(NATHAN, USD, { debt: 1, collateral: 1 }));
  m.push(borrow(borrower, [100001, USD], [1_000_000, CORE]));
  m.push(globalSettle(NATHAN, USD, 100001, 1_000_000));
  t.deepEqual(m.obj('2.4.0')!.settlement_price, price(100001, USD, 1_000_000, CORE));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 1_000_000);
  m.push(bidCollateral(bidder, [3_000_000_000_005, CORE], [100001, USD]));
  m.push(publishFeed(NATHAN, USD, { debt: 43775439, collateral: 750000250001251, icr: 1751 }));
  t.true(isSettled(m), 'the fund alone does not cover the supply');

  m.elapse(HOUR);
  const processed = m.block();
  t.false(isSettled(m));
  t.is(Number(m.obj('2.4.0')!.settlement_fund), 0);
  t.is(m.obj('2.17.0'), undefined);
  t.deepEqual(m.obj('1.8.1'), { id: '1.8.1', borrower: bidder, collateral: '3000001000005', debt: 100001, call_price: price(1, CORE, 1, USD) });
  t.deepEqual(
    m.blockOps(processed.blockNum).map((o) => o.op),
    [[46, { fee: { amount: 0, asset_id: CORE }, bidder, debt: { amount: 100001, asset_id: USD }, collateral: { amount: '3000001000005', asset_id: CORE } }]],
  );
});
