// Borrowing market-issued assets (call_order_update, 3) through the chain writer, with the figures of
// BitShares Core's own tests (tests/tests/operation_tests.cpp), on a chain where every hardfork has
// passed: a debt position (1.8.x) created, added to, repaid and closed; Core's refusals with its
// messages (market_evaluator.cpp call_order_update_evaluator); the initial collateral ratio (BSIP77);
// a new or updated position matched at once against the order book; target_collateral_ratio kept on
// the position.
//
// Core's fixture (tests/common/database_fixture.cpp) runs with every fee zero, and so do these blocks
// (helpers/chain.ts charges the fee an operation carries, here none): Core's balances hold unchanged.
// Figures marked "derived" are not checked by Core's test and were worked out from Core's code.
import test from 'ava';
import { miaChain, NATHAN, CORE, FIRST_ASSET, type MiaChain } from './helpers/mia-chain.js';
import { borrow, cover, miaCreate, publishFeed, updateBitasset, updateFeedProducers, callOrderUpdate } from './helpers/mia-ops.js';
import { op } from './helpers/chain.js';

const USD = FIRST_ASSET;

const callPrice1to1 = { base: { amount: 1, asset_id: CORE }, quote: { amount: 1, asset_id: USD } };

/** The messages of call_order_update_evaluator::do_evaluate / do_apply (market_evaluator.cpp), as regular expressions. */
const MSG = {
  closeWithAll: /Should claim all collateral when closing debt position/,
  bothPositive: /Both collateral and debt should be positive after updated a debt position if not to close it/,
  blackswan: /Could not create a debt position which would trigger a blackswan event instantly/,
  onlyIncrease: /Can only increase collateral ratio without increasing debt when the debt position's collateral ratio is lower than or equal to required initial collateral ratio \(ICR\)/,
  marginCallInstantly: /Could not create a debt position which would trigger a margin call instantly/,
  nothing: /delta_collateral\.amount != 0 \|\| delta_debt\.amount != 0/,
  noFeed: /Cannot borrow asset with no price feed/,
  notCollateralized: /Unable to cover .* as it is not a collateralized asset/,
  wrongCollateral: /Collateral asset type should be same as backing asset of debt asset/,
  newPositive: /Delta (collateral|debt) amount of new debt position should be positive/,
};

// Core: operation_tests.cpp, BOOST_AUTO_TEST_CASE( call_order_update_test ). All figures are Core's.
test('a debt position is created, topped up, repaid and closed, and every update Core refuses is refused with its message', (t) => {
  const m = miaChain(t);
  const { dan, sam } = m.actors('dan', 'sam');
  m.push(miaCreate('USDBIT', sam));
  m.fund(10_000_000, dan, sam);
  m.push(updateFeedProducers(sam, USD, [sam]));
  // No feed yet: Core's insufficient_feeds.
  t.throws(() => m.push(borrow(dan, [5000, USD], [10000, CORE])), { message: MSG.noFeed });
  m.push(publishFeed(sam, USD, { debt: 100, collateral: 100, mcr: 1750 }));
  t.deepEqual(m.obj('2.4.0')!.current_feed.settlement_price, { base: { amount: 100, asset_id: USD }, quote: { amount: 100, asset_id: CORE } });

  const created = m.push(borrow(dan, [5000, USD], [10000, CORE]));
  t.deepEqual(created.transactions[0]!.operation_results, [[1, '1.8.0']], 'the result is the position');
  t.is(m.balance(dan, USD), 5000);
  t.is(m.balance(dan, CORE), 10_000_000 - 10000);
  // call_order_object in its reflection order; after hardfork core-1270 the call price is 1/1.
  t.deepEqual(m.obj('1.8.0'), { id: '1.8.0', borrower: dan, collateral: 10000, debt: 5000, call_price: callPrice1to1 });
  t.is(m.obj('2.6.7')!.total_core_in_orders, 10000, 'core collateral counts as core in orders');
  t.is(Number(m.obj('2.3.1')!.current_supply), 5000);

  // covering 2500 usd and freeing 5000 core
  m.push(cover(dan, [2500, USD], [5000, CORE]));
  t.is(m.balance(dan, USD), 2500);
  t.is(m.balance(dan, CORE), 10_000_000 - 10000 + 5000);

  // covering the full amount without claiming the collateral fails
  t.throws(() => m.push(cover(dan, [2500, USD], [0, CORE])), { message: MSG.closeWithAll });

  const closed = m.push(cover(dan, [2500, USD], [5000, CORE]));
  t.deepEqual(closed.transactions[0]!.operation_results, [[1, '1.8.0']]);
  t.is(m.obj('1.8.0'), undefined, 'a closed position is removed');
  t.true(closed.changes.removed.includes('1.8.0'));
  t.is(m.balance(dan, USD), 0);
  t.is(m.balance(dan, CORE), 10_000_000);
  t.is(m.obj('2.6.7')!.total_core_in_orders, 0);
  t.is(Number(m.obj('2.3.1')!.current_supply), 0);

  m.push(borrow(dan, [5000, USD], [10000, CORE]));
  t.is(m.balance(dan, USD), 5000);
  t.is(m.balance(dan, CORE), 10_000_000 - 10000);
  t.like(m.obj('1.8.1'), { borrower: dan, collateral: 10000, debt: 5000 });

  // just increasing collateral
  m.push(borrow(dan, [0, USD], [10000, CORE]));
  t.is(m.balance(dan, USD), 5000);
  t.is(m.balance(dan, CORE), 10_000_000 - 20000);

  // just decreasing debt
  m.push(cover(dan, [1000, USD], [0, CORE]));
  t.is(m.balance(dan, USD), 4000);
  t.is(m.balance(dan, CORE), 10_000_000 - 20000);

  // increasing debt without increasing collateral
  m.push(borrow(dan, [1000, USD], [0, CORE]));
  t.is(m.balance(dan, USD), 5000);
  t.is(m.balance(dan, CORE), 10_000_000 - 20000);
  t.like(m.obj('1.8.1'), { collateral: 20000, debt: 5000 });

  // increasing debt a lot without increasing collateral fails due to black swan (after hardfork core-2481
  // the position may not be at or below the maximum short squeeze price: 20000/85000 < 1.5)
  t.throws(() => m.push(borrow(dan, [80000, USD], [0, CORE])), { message: MSG.blackswan });
  // claiming most of the collateral without paying off debt, fails due to black swan
  t.throws(() => m.push(cover(dan, [0, USD], [20000 - 1, CORE])), { message: MSG.blackswan });
  // claiming all collateral without paying off debt
  t.throws(() => m.push(cover(dan, [0, USD], [20000, CORE])), { message: MSG.bothPositive });

  m.push(borrow(sam, [1000, USD], [10000, CORE]));
  m.push(op.transfer(sam, dan, 1000, USD));

  // claiming more collateral than available
  for (const coll of [20001, 20100, 30000]) t.throws(() => m.push(cover(dan, [4000, USD], [coll, CORE])), { message: MSG.bothPositive });
  for (const coll of [20001, 20100, 30000]) t.throws(() => m.push(cover(dan, [5000, USD], [coll, CORE])), { message: MSG.closeWithAll });
  // paying more debt than required
  for (const coll of [15000, 20000]) t.throws(() => m.push(cover(dan, [6000, USD], [coll, CORE])), { message: MSG.bothPositive });
  // paying more debt than required, and claiming more collateral than available
  for (const coll of [20001, 40000]) t.throws(() => m.push(cover(dan, [6000, USD], [coll, CORE])), { message: MSG.bothPositive });

  // reducing collateral without paying off any debt
  m.push(cover(dan, [0, USD], [1000, CORE]));
  t.like(m.obj('1.8.1'), { collateral: 19000, debt: 5000 });

  // an update that changes nothing is refused by call_order_update_operation::validate
  t.throws(() => m.push(cover(dan, [0, USD], [0, CORE])), { message: MSG.nothing });
});

// Derived from call_order_update_evaluator::do_evaluate's first checks (market_evaluator.cpp); Core's
// call_order_update_test checks only that they throw.
test('a debt can only be taken in a market-issued asset, against its backing asset, and a new position must bring both', (t) => {
  const m = miaChain(t);
  const { dan, sam } = m.actors('dan', 'sam');
  m.push(miaCreate('USDBIT', sam));
  m.push(op.assetCreate('UIA', NATHAN));
  const UIA = '1.3.2';
  m.fund(10_000_000, dan);
  m.push(updateFeedProducers(sam, USD, [sam]));
  m.push(publishFeed(sam, USD, { debt: 100, collateral: 100 }));
  t.throws(() => m.push(borrow(dan, [100, UIA], [1000, CORE])), { message: MSG.notCollateralized });
  // object_database::get of a missing debt asset: FC_ASSERT( maybe_found != nullptr, "Unable to find Object ${id}" )
  t.throws(() => m.push(borrow(dan, [100, '1.3.99'], [1000, CORE])), { message: 'maybe_found != nullptr: Unable to find Object 1.3.99' });
  t.throws(() => m.push(borrow(dan, [100, USD], [1000, UIA])), { message: MSG.wrongCollateral });
  t.throws(() => m.push(borrow(dan, [100, USD], [0, CORE])), { message: MSG.newPositive });
  t.throws(() => m.push(borrow(dan, [0, USD], [1000, CORE])), { message: MSG.newPositive });
  t.throws(() => m.push(callOrderUpdate(dan, [1000, CORE], [100, CORE])), { message: /delta_collateral\.asset_id != delta_debt\.asset_id/ });
  t.throws(() => m.push(borrow(dan, [100, USD], [20_000_000, CORE])), { message: /[Ii]nsufficient [Bb]alance/ });
  t.is(m.obj('1.8.0'), undefined);
});

/** Core's set_icr_for_asset: the asset's options with another ICR (asset_update_bitasset, by the issuer). */
const setIcr = (m: MiaChain, issuer: string, icr: number) => m.push(updateBitasset(issuer, USD, { icr }));

// Core: operation_tests.cpp, BOOST_AUTO_TEST_CASE( more_call_order_update_test_after_hardfork_bsip77_when_icr_is_set ).
// Core's figures, plus the limit order's remainder after the two margin calls (derived).
test('the initial collateral ratio from the options: a position is created or its collateral freed only above max(ICR, MCR), and one at or below MCR is margin called at once against the book', (t) => {
  const m = miaChain(t);
  const { dan, sam, alice, bob } = m.actors('dan', 'sam', 'alice', 'bob');
  // create_bitasset( "USDBIT", sam, 100, charge_market_fee, 2, {}, GRAPHENE_MAX_SHARE_SUPPLY, 1050 ): ICR 1.05
  m.push(miaCreate('USDBIT', sam, { precision: 2, icr: 1050 }));
  m.fund(10_000_000, dan, sam, alice, bob);
  m.push(updateFeedProducers(sam, USD, [sam]));
  m.push(publishFeed(sam, USD, { debt: 100, collateral: 100, mcr: 1750, mssr: 1100 }));
  const bd = m.obj('2.4.0')!;
  t.is(bd.current_feed.initial_collateral_ratio, 1050, "the options' ICR replaces the feed's");
  // ICR 1.05 < MCR 1.75: the initial collateralization is the maintenance one, 1.75 core a USD.
  t.deepEqual(bd.current_initial_collateralization, bd.current_maintenance_collateralization);

  // ICR 1.05, MCR 1.75: borrowing with <= 1.75x collateral at 1:1 is not allowed
  t.throws(() => m.push(borrow(bob, [10000, USD], [17499, CORE])), { message: MSG.onlyIncrease });
  t.throws(() => m.push(borrow(bob, [10000, USD], [17500, CORE])), { message: MSG.onlyIncrease });

  // alice borrows with 1.7501x collateral
  m.push(borrow(alice, [10000, USD], [17501, CORE]));
  t.is(m.balance(alice, USD), 10000);
  t.is(m.balance(alice, CORE), 10_000_000 - 17501);

  setIcr(m, sam, 1850);
  t.is(m.obj('2.4.0')!.current_feed.initial_collateral_ratio, 1850);
  // alice adding more collateral is allowed
  m.push(borrow(alice, [0, USD], [18000 - 17501, CORE]));
  t.is(m.balance(alice, CORE), 10_000_000 - 18000);
  // alice reducing collateral is not allowed if CR <= 1.85 and not margin called
  t.throws(() => m.push(cover(alice, [0, USD], [1, CORE])), { message: MSG.onlyIncrease });
  m.push(borrow(alice, [0, USD], [18502 - 18000, CORE]));
  t.is(m.balance(alice, CORE), 10_000_000 - 18502);
  // alice reducing collateral to > 1.85x is allowed
  m.push(cover(alice, [0, USD], [1, CORE]));
  t.is(m.balance(alice, CORE), 10_000_000 - 18501);
  // ... and to <= 1.85x is not
  t.throws(() => m.push(cover(alice, [0, USD], [1, CORE])), { message: MSG.onlyIncrease });

  // alice borrows up to 4x collateral
  m.push(borrow(alice, [100000 - 10000, USD], [400000 - 18501, CORE]));
  t.is(m.balance(alice, USD), 100000);
  t.is(m.balance(alice, CORE), 10_000_000 - 400000);

  // alice places an order to sell usd at 1.05
  m.push(op.limitOrderCreate(alice, [1000, USD], [1050, CORE]));
  const aliceSell = '1.7.0';
  t.is(m.balance(alice, USD), 100000 - 1000);

  // bob borrowing too much with 1.75x: margin called against alice's order for 1000 USD, his position
  // would be left at 16450/9000 < 1.85
  t.throws(() => m.push(borrow(bob, [10000, USD], [17500, CORE])), { message: MSG.marginCallInstantly });

  // bob borrowing less with 1.75x is allowed and margin called: the whole position is filled by alice's order
  const called = m.push(borrow(bob, [100, USD], [175, CORE]));
  t.deepEqual(called.transactions[0]!.operation_results, [[1, '1.8.1']]);
  t.is(m.obj('1.8.1'), undefined, "bob's position was closed by the margin call");
  t.is(m.balance(bob, USD), 100);
  t.is(m.balance(bob, CORE), 10_000_000 - 105);
  t.is(m.balance(alice, USD), 100000 - 1000);
  t.is(m.balance(alice, CORE), 10_000_000 - 400000 + 105);
  // Derived: the call is the taker (check_call_orders, not for a new limit order), filled at alice's price.
  const aliceOrderPrice = { base: { amount: 1000, asset_id: USD }, quote: { amount: 1050, asset_id: CORE } };
  const ops = m.blockOps(called.blockNum);
  t.deepEqual(
    ops.map((o) => [o.op[0], o.virtual_op]),
    [
      [3, 0],
      [4, 1],
      [4, 2],
    ],
  );
  t.deepEqual(ops[1]!.op[1], { fee: { amount: 0, asset_id: CORE }, order_id: '1.8.1', account_id: bob, pays: { amount: 105, asset_id: CORE }, receives: { amount: 100, asset_id: USD }, fill_price: aliceOrderPrice, is_maker: false });
  t.deepEqual(ops[2]!.op[1], { fee: { amount: 0, asset_id: CORE }, order_id: aliceSell, account_id: alice, pays: { amount: 100, asset_id: USD }, receives: { amount: 105, asset_id: CORE }, fill_price: aliceOrderPrice, is_maker: true });
  t.is(m.obj(aliceSell)!.for_sale, 900);

  // bob borrows with 2x now that there is a valid order
  m.push(borrow(bob, [100, USD], [200, CORE]));
  const bobCall = '1.8.2';
  t.is(m.balance(bob, USD), 200);
  t.is(m.balance(bob, CORE), 10_000_000 - 105 - 200);
  // bob borrowing too much more with 1.75x
  t.throws(() => m.push(borrow(bob, [10000 - 100, USD], [17500 - 200, CORE])), { message: MSG.marginCallInstantly });
  // bob reducing collateral to 1.75x is allowed and margin called
  m.push(borrow(bob, [0, USD], [175 - 200, CORE]));
  t.is(m.balance(bob, USD), 200);
  t.is(m.balance(bob, CORE), 10_000_000 - 105 - 105);
  t.is(m.balance(alice, USD), 100000 - 1000);
  t.is(m.balance(alice, CORE), 10_000_000 - 400000 + 105 + 105);
  t.is(m.obj(bobCall), undefined);

  // alice cancels her order (derived: 800 USD come back)
  m.push(op.limitOrderCancel(alice, aliceSell));
  t.is(m.balance(alice, USD), 100000 - 200);

  // dan borrows with 2x
  m.push(borrow(dan, [5000, USD], [10000, CORE]));
  const danCall = '1.8.3';
  t.is(m.balance(dan, USD), 5000);
  t.is(m.balance(dan, CORE), 10_000_000 - 10000);

  // sam's new feed puts dan's position into margin call territory (2.0 < 1.8 * 1.75), with nothing on
  // the book to call it against, and not below the black swan price (1.8 * 1.1)
  m.push(publishFeed(sam, USD, { debt: 100, collateral: 180, mcr: 1750, mssr: 1100 }));
  t.is(m.obj('2.4.0')!.settlement_price.base.amount, 0, 'not globally settled');
  t.like(m.obj(danCall), { collateral: 10000, debt: 5000 });

  t.throws(() => m.push(cover(dan, [2500, USD], [5000, CORE])), { message: MSG.onlyIncrease }, 'covering 2500 usd and freeing 5000 core');
  t.throws(() => m.push(cover(dan, [2500, USD], [5001, CORE])), { message: MSG.onlyIncrease }, 'covering 2500 usd and freeing 5001 core');
  t.throws(() => m.push(borrow(dan, [2500, USD], [5000, CORE])), { message: MSG.onlyIncrease }, 'borrowing 2500 more usd with 5000 more core');
  t.throws(() => m.push(borrow(dan, [2500, USD], [4999, CORE])), { message: MSG.onlyIncrease }, 'borrowing 2500 more usd with 4999 more core');
  // covering 2500 usd and freeing 4999 core raises the ratio without raising the debt
  m.push(cover(dan, [2500, USD], [4999, CORE]));
  t.is(m.balance(dan, USD), 2500);
  t.is(m.balance(dan, CORE), 10_000_000 - 10000 + 4999);
  t.throws(() => m.push(cover(dan, [0, USD], [1, CORE])), { message: MSG.onlyIncrease }, 'covering 0 usd and freeing 1 core');
  m.push(borrow(dan, [0, USD], [1, CORE]));
  t.is(m.balance(dan, CORE), 10_000_000 - 10000 + 4999 - 1);
  t.throws(() => m.push(borrow(dan, [2500, USD], [5002, CORE])), { message: MSG.onlyIncrease });
  t.throws(() => m.push(borrow(dan, [2500, USD], [5003, CORE])), { message: MSG.onlyIncrease });

  // alice's CR is now 4.0 / 1.8 ~= 2.2222; adding collateral is allowed
  m.push(borrow(alice, [0, USD], [1, CORE]));
  t.like(m.obj('1.8.0'), { collateral: 400000 + 1, debt: 100000 });
  // reducing collateral to > 1.85x (at 1.8) is allowed
  m.push(cover(alice, [0, USD], [67000, CORE]));
  t.like(m.obj('1.8.0'), { collateral: 333001, debt: 100000 });
  t.throws(() => m.push(cover(alice, [0, USD], [1, CORE])), { message: MSG.onlyIncrease });

  setIcr(m, sam, 1840);
  m.push(cover(alice, [0, USD], [1, CORE]));
  t.like(m.obj('1.8.0'), { collateral: 333000, debt: 100000 });
});

// Core: market_tests.cpp, BOOST_AUTO_TEST_CASE(target_cr_test_limit_call) keeps the TCR on the position;
// the shape (an optional field after call_price, absent when unset) is call_order_object's reflection.
test('target_collateral_ratio is kept on the position, replaced by each update, and removed by an update without one', (t) => {
  const m = miaChain(t);
  const { dan, sam } = m.actors('dan', 'sam');
  m.push(miaCreate('USDBIT', sam));
  m.fund(10_000_000, dan);
  m.push(updateFeedProducers(sam, USD, [sam]));
  m.push(publishFeed(sam, USD, { debt: 100, collateral: 100 }));
  m.push(borrow(dan, [5000, USD], [10000, CORE], 1700));
  t.deepEqual(m.obj('1.8.0'), { id: '1.8.0', borrower: dan, collateral: 10000, debt: 5000, call_price: callPrice1to1, target_collateral_ratio: 1700 });
  m.push(borrow(dan, [0, USD], [100, CORE], 2000));
  t.is(m.obj('1.8.0')!.target_collateral_ratio, 2000);
  m.push(borrow(dan, [0, USD], [100, CORE]));
  t.false('target_collateral_ratio' in m.obj('1.8.0')!, 'call.target_collateral_ratio = o.extensions.value.target_collateral_ratio, unset');
});
