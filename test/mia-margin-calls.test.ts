// Margin calls (db_market.cpp check_call_orders, apply_order, match) through the chain writer, with
// the figures of BitShares Core's own tests, on a chain where every hardfork has passed: a feed drop
// that calls debt positions against the limit orders on the book (the call the taker, paying the
// maker's price plus the margin call fee), a new limit order that takes a better limit order first
// and then the margin calls at the margin call order price, a force settlement matched at once with a
// margin call (hardfork core-2481), and the black swan that follows a feed drop past the swan price.
//
// Core's fixture runs with every fee zero, and so do these blocks: Core's balances hold unchanged.
// Figures marked "derived" are not checked by Core's test and were worked out from Core's code
// (fill_order virtual operations: db_market.cpp fill_limit_order, fill_call_order, fill_settle_order).
import test from 'ava';
import { miaChain, CORE, FIRST_ASSET, type MiaChain } from './helpers/mia-chain.js';
import { borrow, miaCreate, publishFeed, settle, updateFeedProducers, price } from './helpers/mia-ops.js';
import { op } from './helpers/chain.js';

type Obj = Record<string, any>;

const fill = (orderId: string, account: string, pays: [number, string], receives: [number, string], fee: [number, string], fillPrice: Obj, isMaker: boolean): Obj => ({
  fee: { amount: fee[0], asset_id: fee[1] },
  order_id: orderId,
  account_id: account,
  pays: { amount: pays[0], asset_id: pays[1] },
  receives: { amount: receives[0], asset_id: receives[1] },
  fill_price: fillPrice,
  is_maker: isMaker,
});

// Core: market_tests.cpp, BOOST_AUTO_TEST_CASE(hardfork_core_338_test) as run by
// hardfork_core_338_test_after_hf2481 (hf2481 = true). Core's balances and positions; the fill_order
// operations, the limit orders' ids and everything after the last feed are derived.
test('a new limit order fills a better-priced limit order first, then margin calls least collateralized first at the margin call order price; a force settlement fills a margin call at once; a feed past the swan price settles globally', (t) => {
  const m = miaChain(t);
  const { buyer, seller, borrower, borrower2, borrower3, feedproducer } = m.actors('buyer', 'seller', 'borrower', 'borrower2', 'borrower3', 'feedproducer');
  const USD = FIRST_ASSET;
  m.push(miaCreate('USDBIT', feedproducer));
  const init = 1_000_000;
  m.fund(init, buyer, borrower, borrower2, borrower3);
  m.push(updateFeedProducers(feedproducer, USD, [feedproducer]));
  const feed = (debt: number, collateral: number) => publishFeed(feedproducer, USD, { debt, collateral, mcr: 1750, mssr: 1100 });
  m.push(feed(1, 5));
  // 300%, 310% and 320% collateral
  m.push(borrow(borrower, [1000, USD], [15000, CORE]));
  m.push(borrow(borrower2, [1000, USD], [15500, CORE]));
  m.push(borrow(borrower3, [1000, USD], [16000, CORE]));
  const [call, call2, call3] = ['1.8.0', '1.8.1', '1.8.2'];
  m.block([op.transfer(borrower, seller, 1000, USD)], [op.transfer(borrower2, seller, 1000, USD)], [op.transfer(borrower3, seller, 1000, USD)]);
  t.like(m.obj(call), { debt: 1000, collateral: 15000 });
  t.like(m.obj(call2), { debt: 1000, collateral: 15500 });
  t.like(m.obj(call3), { debt: 1000, collateral: 16000 });
  t.is(m.balance(seller, USD), 3000);
  t.is(m.balance(seller, CORE), 0);

  // settlement price 1/10, MSSP 1/11: all three positions are in margin call territory, with nothing to fill them
  m.push(feed(1, 10));
  t.like(m.obj(call), { debt: 1000, collateral: 15000 });

  // a sell order above the MSSP is not matched with a call
  m.push(op.limitOrderCreate(seller, [7, USD], [78, CORE]));
  t.truthy(m.obj('1.7.0'));
  t.is(m.balance(seller, USD), 2993);
  t.is(m.balance(seller, CORE), 0);

  m.push(op.limitOrderCreate(buyer, [90, CORE], [10, USD])); // too low to match a sell order
  m.push(op.limitOrderCreate(buyer, [110, CORE], [10, USD])); // at the MSSP: margin calls come first
  m.push(op.limitOrderCreate(buyer, [111, CORE], [10, USD])); // above the MSSP: filled before margin calls
  const [buyLow, buyMed, buyHigh] = ['1.7.1', '1.7.2', '1.7.3'];
  t.is(m.balance(buyer, USD), 0);
  t.is(m.balance(buyer, CORE), init - 90 - 110 - 111);

  // an order slightly below the call price is matched (#606): with buy_high at its price first (#625),
  // then with the least collateralized call at the MSSP, 1/11 = 690/7590 (#338)
  const first = m.push(op.limitOrderCreate(seller, [700, USD], [5900, CORE]));
  t.is(m.obj('1.7.4'), undefined, 'filled whole');
  t.is(m.obj(buyHigh), undefined);
  t.is(m.obj(buyMed)!.for_sale, 110);
  t.is(m.obj(buyLow)!.for_sale, 90);
  t.is(m.balance(buyer, USD), 10);
  t.is(m.balance(buyer, CORE), init - 90 - 110 - 111);
  t.is(m.balance(seller, USD), 2293);
  t.is(m.balance(seller, CORE), 7701);
  t.like(m.obj(call), { debt: 310, collateral: 7410 });
  t.like(m.obj(call2), { debt: 1000, collateral: 15500 });
  t.like(m.obj(call3), { debt: 1000, collateral: 16000 });
  // Derived: the new order is the taker in both matches; the call (a maker) fills at the margin call
  // order price ~(1/10 / 1.1) = 11 CORE for 1 USD; the buyer's 1% market fee on 10 USD rounds to 0.
  const buyHighPrice = price(111, CORE, 10, USD);
  const mcop = price(11, CORE, 1, USD);
  t.deepEqual(
    m.blockOps(first.blockNum).map((o) => o.op[0] === 4 ? o.op[1] : o.op[0]),
    [
      1,
      fill('1.7.4', seller, [10, USD], [111, CORE], [0, CORE], buyHighPrice, false),
      fill(buyHigh, buyer, [111, CORE], [10, USD], [0, USD], buyHighPrice, true),
      fill('1.7.4', seller, [690, USD], [7590, CORE], [0, CORE], mcop, false),
      fill(call, borrower, [7590, CORE], [690, USD], [0, CORE], mcop, true),
    ],
  );

  // this would have matched call before #343; now the least collateralized is call2: 700/7700
  m.push(op.limitOrderCreate(seller, [700, USD], [6000, CORE]));
  t.is(m.obj(buyMed)!.for_sale, 110);
  t.is(m.obj(buyLow)!.for_sale, 90);
  t.is(m.balance(seller, USD), 1593);
  t.is(m.balance(seller, CORE), 15401);
  t.like(m.obj(call), { debt: 310, collateral: 7410 });
  t.like(m.obj(call2), { debt: 300, collateral: 7800 });
  t.like(m.obj(call3), { debt: 1000, collateral: 16000 });

  // a force settlement is matched at once with the least collateralized margin call (call3) at the MSSP 1/11
  const settled = m.push(settle(seller, [10, USD]));
  t.is(m.balance(seller, USD), 1583);
  t.is(m.balance(seller, CORE), 15511); // 15401 + 10 * 11
  t.like(m.obj(call), { debt: 310, collateral: 7410 });
  t.like(m.obj(call2), { debt: 300, collateral: 7800 });
  t.like(m.obj(call3), { debt: 990, collateral: 15890 });
  // Derived: the settlement (1.4.0) is filled whole and never stays; its id is the operation's result;
  // the call is the maker (match(settle, call): fill_call_order first), both at the MCOP 1 USD for 11 CORE.
  t.deepEqual(settled.transactions[0]!.operation_results, [[5, { new_objects: ['1.4.0'] }]]);
  t.is(m.obj('1.4.0'), undefined);
  t.is(Number(m.obj('2.4.0')!.force_settled_volume), 0, 'a settlement matched with a margin call does not count against the volume limit');
  const mcopUsd = price(1, USD, 11, CORE);
  t.deepEqual(
    m.blockOps(settled.blockNum).map((o) => (o.op[0] === 4 ? o.op[1] : o.op[0])),
    [17, fill(call3, borrower3, [110, CORE], [10, USD], [0, CORE], mcopUsd, true), fill('1.4.0', seller, [10, USD], [110, CORE], [0, CORE], mcopUsd, false)],
  );
  t.is(Number(m.obj('2.3.1')!.current_supply), 3000 - 690 - 700 - 10);

  // Core waits 24 hours here (the feed expires) and publishes again; after hardfork core-2481 nothing
  // happens in between, so the new feed comes at once. Settlement price 1/16, MSSP 10/176: call3
  // (15890/990 = 16.05) is under the swan price.
  const swan = m.push(feed(1, 16));
  const bd = m.obj('2.4.0')!;
  t.not(bd.settlement_price.base.amount, 0, 'globally settled (#649)');
  t.is(m.obj(call), undefined);
  t.is(m.obj(call2), undefined);
  t.is(m.obj(call3), undefined);

  // Derived from check_call_orders and globally_settle_asset_impl: seller's first order (7 USD for 78
  // CORE) is now within the margin call order price, so call3 is first called against it; then with no
  // order left the least collateralized position (15812/983) is under the MSSP, and every position is
  // closed at 983/15812, those at or under the MCR paying MSSR 1.1 more, the premium going to the
  // issuer as margin call fee: call3 pays 15812 (14375 to the fund), call 4987 (4534), call2 4826 (4387).
  const fundPrice = price(10813, USD, 158120, CORE); // 983/15812 * 1.1, reduced
  t.deepEqual(
    m.blockOps(swan.blockNum).map((o) => (o.op[0] === 4 ? o.op[1] : o.op[0])),
    [
      19,
      fill(call3, borrower3, [78, CORE], [7, USD], [0, CORE], price(7, USD, 78, CORE), false),
      fill('1.7.0', seller, [7, USD], [78, CORE], [0, CORE], price(7, USD, 78, CORE), true),
      fill(call3, borrower3, [15812, CORE], [983, USD], [1437, CORE], fundPrice, true),
      fill(call, borrower, [4987, CORE], [310, USD], [453, CORE], fundPrice, true),
      fill(call2, borrower2, [4826, CORE], [300, USD], [439, CORE], fundPrice, true),
    ],
  );
  t.deepEqual(bd.settlement_price, price(1593, USD, 23296, CORE));
  t.is(Number(bd.settlement_fund), 14375 + 4534 + 4387);
  t.deepEqual(bd.current_feed, bd.median_feed);
  t.is(Number(m.obj('2.3.1')!.current_supply), 1593, 'global settlement leaves the supply');
  t.is(Number(m.obj('2.3.1')!.accumulated_collateral_fees), 1437 + 453 + 439);
  t.is(m.balance(seller, CORE), 15511 + 78);
  t.is(m.balance(borrower, CORE), init - 15000 + 7410 - 4987);
  t.is(m.balance(borrower2, CORE), init - 15500 + 7800 - 4826);
  t.is(m.balance(borrower3, CORE), init - 16000);
  for (const b of ['2.6.9', '2.6.10', '2.6.11']) t.is(m.obj(b)!.total_core_in_orders, 0, `${b}: no collateral left in orders`);
  // The buy orders on the other side stay.
  t.is(m.obj(buyMed)!.for_sale, 110);
  t.is(m.obj(buyLow)!.for_sale, 90);
});

/**
 * Core's margin_call_fee_tests.cpp setup of complete_fill_of_call_order_as_taker and
 * target_cr_partial_fill_of_call_order_as_taker (steps 1 to 4): SMARTBIT (precision 4, 2% market
 * fee, MCFR 5%), a feed of 1 satoshi SMARTBIT for 20 satoshi CORE with MCR 1.75 and MSSR 1.5; alice
 * borrows 500 SMARTBIT at 4x and offers them all at the 1.1 x (17/400) price; bob borrows 200 at 2x
 * (with `tcr` if given) and gives them to charlie.
 */
function smartbitBook(m: MiaChain, tcr?: number) {
  const { alice, bob, charlie, smartissuer, feedproducer } = m.actors('alice', 'bob', 'charlie', 'smartissuer', 'feedproducer');
  const SMART = FIRST_ASSET;
  m.push(miaCreate('SMARTBIT', smartissuer, { marketFeePercent: 200, precision: 4, mcfr: 50 }));
  m.push(updateFeedProducers(smartissuer, SMART, [feedproducer]));
  m.fund(400_000_000, alice);
  m.fund(80_000_000, bob);
  const feed = (debt: number, collateral: number) => publishFeed(feedproducer, SMART, { debt, collateral, mcr: 1750, mssr: 1500 });
  m.push(feed(1, 20));
  m.push(borrow(alice, [5_000_000, SMART], [400_000_000, CORE]));
  // 5,000,000 SMARTBIT for 5,000,000 * 4000 / 187 rounded up: the price 187/4000 implied
  m.push(op.limitOrderCreate(alice, [5_000_000, SMART], [106_951_872, CORE]));
  m.push(borrow(bob, [2_000_000, SMART], [80_000_000, CORE], tcr));
  m.push(op.transfer(bob, charlie, 2_000_000, SMART));
  return { alice, bob, charlie, SMART, feed, aliceCall: '1.8.0', bobCall: '1.8.1', aliceOrder: '1.7.0', aliceOrderPrice: price(5_000_000, SMART, 106_951_872, CORE) };
}

// Core: margin_call_fee_tests.cpp, BOOST_AUTO_TEST_CASE(complete_fill_of_call_order_as_taker). Core's figures;
// the call's pays amount (the limit order's receipt plus the fee) and the fill operations' order are derived.
test('a feed drop margin-calls a position against a limit order on the book: the call is the taker, filled whole at the maker price, and pays the margin call fee to the asset', (t) => {
  const m = miaChain(t);
  const s = smartbitBook(m);
  t.is(m.balance(s.alice, CORE), 0);
  t.is(m.balance(s.alice, s.SMART), 0);
  t.is(m.balance(s.charlie, s.SMART), 2_000_000);
  t.like(m.obj(s.bobCall), { collateral: 80_000_000, debt: 2_000_000 });

  // 17 satoshi SMARTBIT for 400 satoshi CORE puts bob's CR at 1.7, under the MCR
  const dropped = m.push(s.feed(17, 400));
  t.deepEqual(m.obj('2.4.0')!.current_feed.settlement_price, price(17, s.SMART, 400, CORE));
  t.is(m.obj('2.4.0')!.settlement_price.base.amount, 0, 'no global settlement');

  const toAlice = 42_780_749; // 2,000,000 * 106,951,872 / 5,000,000 rounded up
  const fee = 1_475_199; // 2,000,000 * (50 / 1450) / (187/4000), rounded up
  t.is(m.obj(s.bobCall), undefined, "bob's position is closed");
  t.is(m.balance(s.bob, s.SMART), 0);
  t.is(m.balance(s.bob, CORE), 80_000_000 - toAlice - fee);
  t.is(m.balance(s.charlie, s.SMART), 2_000_000);
  t.is(m.balance(s.charlie, CORE), 0);
  t.is(m.balance(s.alice, s.SMART), 0);
  t.is(m.balance(s.alice, CORE), toAlice);
  t.like(m.obj(s.aliceCall), { collateral: 400_000_000, debt: 5_000_000 }, "alice's CR is above the MCR: not called");
  const order = m.obj(s.aliceOrder)!;
  t.is(order.for_sale, 5_000_000 - 2_000_000);
  t.deepEqual(order.sell_price, s.aliceOrderPrice);
  t.is(Number(m.obj('2.3.1')!.accumulated_fees), 0);
  t.is(Number(m.obj('2.3.1')!.accumulated_collateral_fees), fee);

  // The fills, in the block's history and in each account's: alice's fee is zero, bob's is the margin
  // call fee, both at alice's price; the call is the taker.
  const ops = m.blockOps(dropped.blockNum);
  t.deepEqual(
    ops.map((o) => (o.op[0] === 4 ? o.op[1] : o.op[0])),
    [19, fill(s.bobCall, s.bob, [toAlice + fee, CORE], [2_000_000, s.SMART], [fee, CORE], s.aliceOrderPrice, false), fill(s.aliceOrder, s.alice, [2_000_000, s.SMART], [toAlice, CORE], [0, CORE], s.aliceOrderPrice, true)],
  );
  const latest = (account: string): number => {
    const stats = m.obj(`2.6.${account.split('.')[2]}`)!;
    return m.chain.store.accountSequence.get([Number(account.split('.')[2]), Number(stats.total_ops)])!;
  };
  t.is(`1.11.${latest(s.bob)}`, ops[1]!.id);
  t.is(`1.11.${latest(s.alice)}`, ops[2]!.id);
});

// Core: margin_call_fee_tests.cpp, BOOST_AUTO_TEST_CASE(target_cr_partial_fill_of_call_order_as_taker). Core's figures.
test('with a target collateral ratio the margin call covers only enough debt to reach it, and the position stays open', (t) => {
  const m = miaChain(t);
  const s = smartbitBook(m, 2200);
  const dropped = m.push(s.feed(17, 400));

  const debtCovered = 793_928; // BSIP38's max debt to cover
  const toAlice = 16_982_418;
  const fromBob = 17_568_018;
  const fee = fromBob - toAlice;
  t.is(m.balance(s.alice, s.SMART), 0);
  t.is(m.balance(s.alice, CORE), toAlice);
  const order = m.obj(s.aliceOrder)!;
  t.is(order.for_sale, 5_000_000 - debtCovered);
  t.deepEqual(order.sell_price, s.aliceOrderPrice);
  t.like(m.obj(s.bobCall), { debt: 2_000_000 - debtCovered, collateral: 80_000_000 - fromBob, target_collateral_ratio: 2200 });
  t.is(m.balance(s.bob, s.SMART), 0);
  t.is(m.balance(s.bob, CORE), 0);
  t.is(m.balance(s.charlie, s.SMART), 2_000_000);
  t.is(Number(m.obj('2.3.1')!.accumulated_fees), 0);
  t.is(Number(m.obj('2.3.1')!.accumulated_collateral_fees), fee);
  t.deepEqual(m.fills(dropped.blockNum), [
    [s.bobCall, s.bob, fromBob, debtCovered, fee, false],
    [s.aliceOrder, s.alice, debtCovered, toAlice, 0, true],
  ]);
});
