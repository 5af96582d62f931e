// The feeds of market-issued assets as the margin engine keeps them between operations
// (src/chain/evaluators/margin.ts): what Core's maintenance interval does to them
// (db_maint.cpp process_bitassets), which this chain does at each multiple of its genesis
// maintenance_interval (one hour).
import test from 'ava';
import { miaChain, NATHAN, CORE } from './helpers/mia-chain.js';
import { borrow, FLAG, miaCreate, publishFeed, updateFeedProducers } from './helpers/mia-ops.js';

const HOUR = 3600;

// Core: db_maint.cpp, database::process_bitassets: after hardfork core-518, at each maintenance
// interval, a witness- or committee-fed asset's feeds published before head time - feed_lifetime_sec
// are erased ("clear expired feeds if smartcoin"); other assets keep theirs. The current feed is not
// touched there (it is update_expired_feeds that nulls it, at the block's end, for both).
test('at the maintenance interval the expired feeds of a witness-fed asset are erased, and those of an asset fed by its producers are kept', (t) => {
  const m = miaChain(t);
  const WIT = '1.3.1';
  const PROD = '1.3.2';
  // nathan holds the devnet's one witness
  m.push(miaCreate('WITUSD', NATHAN, { flags: FLAG.charge_market_fee | FLAG.witness_fed_asset, feedLifetime: 600 }));
  m.push(miaCreate('PRODUSD', NATHAN, { feedLifetime: 600 }));
  m.push(updateFeedProducers(NATHAN, PROD, [NATHAN]));
  m.push(publishFeed(NATHAN, WIT, { debt: 1, collateral: 10 }), publishFeed(NATHAN, PROD, { debt: 1, collateral: 10 }));
  t.is(m.obj('2.4.0')!.feeds.length, 1);
  t.is(m.obj('2.4.1')!.feeds.length, 1);
  const published = m.obj('2.4.1')!.feeds[0];

  // two hours on: the feeds are past their 10 minutes, and a maintenance interval has come
  m.elapse(2 * HOUR);
  m.block();
  t.deepEqual(m.obj('2.4.0')!.feeds, []);
  t.deepEqual(m.obj('2.4.1')!.feeds, [published]);
  t.is(m.obj('2.4.0')!.current_feed.settlement_price.base.asset_id, CORE, 'no live feed: the current feed is null');
});

// Core: db_update.cpp, database::update_expired_feeds walks the bitassets whose feed has expired in
// the order of asset_bitasset_data_index by_feed_expiration (asset_object.hpp): feed expiration
// time, then asset id, each one's margin calls (here a black swan) done before the next one's. Two
// assets whose feeds expire in one block are processed the one expiring first first, whatever their
// ids, and the block's operations follow that order.
test('feeds that expire in one block are processed in the order they expire, and the margin calls they set off follow it', (t) => {
  const m = miaChain(t);
  const { feeder1: p1, feeder2: p2, alice, bob } = m.actors('feeder1', 'feeder2', 'alice', 'bob');
  const A = '1.3.1';
  const B = '1.3.2';
  m.push(miaCreate('AAA', NATHAN, { feedLifetime: 600 }));
  m.push(miaCreate('BBB', NATHAN, { feedLifetime: 600 }));
  m.push(updateFeedProducers(NATHAN, A, [p1, p2]), updateFeedProducers(NATHAN, B, [p1, p2]));
  m.fund(1_000_000, alice, bob);
  // p1's feeds, 1 for 5 core, B's three seconds before A's: B's feed expires first
  m.push(publishFeed(p1, B, { debt: 1, collateral: 5 }));
  m.push(publishFeed(p1, A, { debt: 1, collateral: 5 }));
  m.push(borrow(alice, [1000, A], [15000, CORE]), borrow(bob, [1000, B], [15000, CORE]));
  // p2's feeds, 1 for 20 core: the median of two is the higher price, p1's
  m.push(publishFeed(p2, A, { debt: 1, collateral: 20 }), publishFeed(p2, B, { debt: 1, collateral: 20 }));
  t.like(m.obj('1.8.0'), { debt: 1000, collateral: 15000 });
  t.like(m.obj('1.8.1'), { debt: 1000, collateral: 15000 });

  // A feed is stored at the head block time, the time of the block before its own. p1's are 600 s
  // old or more in this block (B's at 603, A's at 600), p2's 597: 1 for 20 remains, and 15 core a
  // USD is a black swan
  m.elapse(594);
  const expired = m.block();
  t.is(m.obj('1.8.0'), undefined);
  t.is(m.obj('1.8.1'), undefined);
  t.deepEqual(
    m.blockOps(expired.blockNum).map((o) => [o.op[0], o.op[1].order_id]),
    [
      [4, '1.8.1'],
      [4, '1.8.0'],
    ],
    "B's position first: its feed expired first",
  );
});
