// The feeds of market-issued assets as the margin engine keeps them between operations
// (src/chain/evaluators/margin.ts): what Core's maintenance interval does to them
// (db_maint.cpp process_bitassets), which this chain does at each multiple of its genesis
// maintenance_interval (one hour).
import test from 'ava';
import { miaChain, NATHAN, CORE } from './helpers/mia-chain.js';
import { FLAG, miaCreate, publishFeed, updateFeedProducers } from './helpers/mia-ops.js';

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
  m.skip(2 * HOUR);
  m.block();
  t.deepEqual(m.obj('2.4.0')!.feeds, []);
  t.deepEqual(m.obj('2.4.1')!.feeds, [published]);
  t.is(m.obj('2.4.0')!.current_feed.settlement_price.base.asset_id, CORE, 'no live feed: the current feed is null');
});
