// python-bitshares' test_dex.py and test_bitshares.py flow against a real devnet node, over a real
// WebSocket client, with transactions signed as a wallet signs them (fees from get_required_fees):
// nathan creates a smartcoin backed by the core asset with the suite's options (base_bitasset:
// settlement delay one day, offset 1%, volume 0.5% a maintenance interval), makes himself its feed
// producer, publishes a feed of 10 SMART a TEST (publish_price_feed's MCR 2.0 and MSSR 1.1), borrows
// 1000 at a collateral ratio of 2.1 (Dex.borrow); a feed drop to 8 margin-calls the position against
// alice's order; nathan raises the ratio to 2.5 (Dex.adjust_collateral_ratio); alice force-settles,
// and a day later the settlement fills within the volume limit at the feed price less 1%.
// Every figure is derived from Core's code (db_market.cpp check_call_orders, match, db_update.cpp
// clear_expired_force_settlements), as the suite itself checks none; fees are the devnet schedule's.
import test from 'ava';
import { WsClient } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { signedTx } from './helpers/tx.js';
import { startDevnet } from './helpers/devnet.js';
import { borrow, callOrderUpdate, miaCreate, publishFeed, settle, updateFeedProducers, price } from './helpers/mia-ops.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';

const NATHAN = '1.2.6';
const TEST = '1.3.0';
type Obj = Record<string, any>;

test('the python-bitshares DEX flow: borrow, a feed drop that margin-calls against an order, a force settlement that waits and then fills within the volume limit, as the reads and histories show it', async (t) => {
  const node = await startDevnet(t);
  const producer = node.node.producer!;
  const ws = await WsClient.connect(node.wsUrl);
  ws.ws.on('error', () => {});
  t.teardown(() => ws.ws.close());
  let id = 0;
  const call = async (set: string, method: string, params: unknown[]): Promise<any> => {
    const r = await ws.call({ id: ++id, method: 'call', params: [set, method, params] });
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result;
  };
  /**
   * A read of the market-issued asset API (get_call_orders, get_settle_orders, get_full_accounts...):
   * its error answered as a value, so that one read the node lacks fails its own assertion and the
   * flow goes on to check the rest (the chain's objects are checked through get_objects beside it).
   */
  const read = async (method: string, params: unknown[]): Promise<any> => {
    const r = await ws.call({ id: ++id, method: 'call', params: ['database', method, params] });
    return r.error ? { error: String(r.error.message) } : r.result;
  };
  const object = async (objectId: string): Promise<Obj | null> => (await call('database', 'get_objects', [[objectId]]))[0];
  /** Broadcasts one transaction over the WebSocket; its fees, as the node priced them. */
  const broadcast = async (...ops: OperationJson[]): Promise<number[]> => {
    const trx = await signedTx(node.httpUrl, ops, [DEV_WIF]);
    await call('network_broadcast', 'broadcast_transaction', [trx]);
    return (trx.operations as OperationJson[]).map((o) => Number((o[1].fee as Obj).amount));
  };
  const block = (time?: number) => producer.produce(time);
  const balance = async (account: string, asset: string): Promise<number> => Number((await call('database', 'get_account_balances', [account, [asset]]))[0].amount);
  const history = async (account: string, limit = 10): Promise<Obj[]> => call('history', 'get_account_history', [account, '1.11.0', limit, '1.11.0']);

  block();
  // alice has nathan's key, as the suite's accounts have the genesis key
  await broadcast(op.accountCreate('alice'));
  block();
  const alice = (await call('database', 'lookup_account_names', [['alice']]))[0].id as string;
  let aliceTest = 100_000_000;
  await broadcast(op.transfer(NATHAN, alice, aliceTest));

  // base_bitasset: 5 decimals, 10000000000 SMART at most, python-bitshares' permissions (all nine), no flags
  await broadcast(
    miaCreate('SMARTCN', NATHAN, {
      precision: 5,
      marketFeePercent: 0,
      flags: 0,
      permissions: 0x1ff,
      maxSupply: '1000000000000000',
      feedLifetime: 86400,
      minimumFeeds: 1,
      settlementDelay: 86400,
      settlementOffset: 100,
      maxSettlementVolume: 50,
    }),
  );
  block();
  const smart = (await call('database', 'lookup_asset_symbols', [['SMARTCN']]))[0];
  const SMART = smart.id as string;
  t.is(smart.bitasset_data_id, '2.4.0');
  await broadcast(updateFeedProducers(NATHAN, SMART, [NATHAN]));
  block();
  // Price(10.0, base=SMART, quote=TEST), MSSR 110%, MCR 200%
  await broadcast(publishFeed(NATHAN, SMART, { debt: 1_000_000, collateral: 100_000, mcr: 2000, mssr: 1100, cer: { base: 1_000_000, quote: 95_000 } }));
  block();
  const bd = (await call('database', 'get_objects', [['2.4.0']]))[0];
  t.deepEqual(bd.current_feed.settlement_price, price(1_000_000, SMART, 100_000, TEST));

  // Dex.borrow(Amount(1000, SMART), collateral_ratio=2.1): 1000 * 2.1 / 10 TEST
  await broadcast(borrow(NATHAN, [100_000_000, SMART], [21_000_000, TEST]));
  block();
  const callOrder = { id: '1.8.0', borrower: NATHAN, collateral: 21_000_000, debt: 100_000_000, call_price: price(1, TEST, 1, SMART) };
  t.deepEqual(await object('1.8.0'), callOrder);
  t.deepEqual(await read('get_call_orders', ['SMARTCN', 10]), [callOrder]);
  t.deepEqual(await read('get_call_orders_by_account', ['nathan', SMART, 10]), [callOrder]);
  t.is(Number((await call('database', 'get_objects', [['2.3.1']]))[0].current_supply), 100_000_000);

  // alice gets 200 SMART and offers 100 for 12 TEST (0.12 TEST a SMART: above the feed's call price)
  await broadcast(op.transfer(NATHAN, alice, 20_000_000, SMART));
  const [orderFee] = await broadcast(op.limitOrderCreate(alice, [10_000_000, SMART], [1_200_000, TEST]));
  aliceTest -= orderFee!;
  block();
  t.is((await call('database', 'get_objects', [['1.7.0']]))[0].for_sale, 10_000_000);

  // the feed drops to 8 SMART a TEST: nathan's 0.21 TEST a SMART is under the MCR's 0.25, and alice's
  // price is within the margin call order price (0.1375): the call buys her 100 SMART at her price
  await broadcast(publishFeed(NATHAN, SMART, { debt: 800_000, collateral: 100_000, mcr: 2000, mssr: 1100, cer: { base: 800_000, quote: 95_000 } }));
  block();
  aliceTest += 1_200_000;
  const called = { ...callOrder, collateral: 21_000_000 - 1_200_000, debt: 90_000_000 };
  t.deepEqual(await object('1.8.0'), called);
  t.deepEqual(await read('get_call_orders', ['SMARTCN', 10]), [called]);
  t.deepEqual(await call('database', 'get_objects', [['1.7.0']]), [null], "alice's order is filled");
  t.is(await balance(alice, TEST), aliceTest);
  const alicePrice = price(10_000_000, SMART, 1_200_000, TEST);
  const [aliceFill] = await history(alice, 1);
  t.deepEqual(aliceFill!.op, [4, { fee: { amount: 0, asset_id: TEST }, order_id: '1.7.0', account_id: alice, pays: { amount: 10_000_000, asset_id: SMART }, receives: { amount: 1_200_000, asset_id: TEST }, fill_price: alicePrice, is_maker: true }]);
  const [nathanFill] = await history('nathan', 1);
  t.deepEqual(nathanFill!.op, [4, { fee: { amount: 0, asset_id: TEST }, order_id: '1.8.0', account_id: NATHAN, pays: { amount: 1_200_000, asset_id: TEST }, receives: { amount: 10_000_000, asset_id: SMART }, fill_price: alicePrice, is_maker: false }]);

  // Dex.adjust_collateral_ratio(SMART, 2.5): 900 * 2.5 / 8 TEST in all
  await broadcast(callOrderUpdate(NATHAN, [28_125_000 - 19_800_000, TEST], [0, SMART]));
  block();
  const adjusted = { ...callOrder, collateral: 28_125_000, debt: 90_000_000 };
  t.deepEqual(await object('1.8.0'), adjusted);
  t.deepEqual(await read('get_call_orders', ['SMARTCN', 10]), [adjusted]);

  // alice force-settles 50 SMART: no position is in margin call territory now, so the settlement waits a day
  const [settleFee] = await broadcast(settle(alice, [5_000_000, SMART]));
  aliceTest -= settleFee!;
  const settledIn = block();
  const headWhenApplied = parseFcTime((await call('database', 'get_block_header', [settledIn.blockNum - 1])).timestamp);
  const due = headWhenApplied + 86400; // the head block time when applied, plus the delay
  const settlement = { id: '1.4.0', owner: alice, balance: { amount: 5_000_000, asset_id: SMART }, settlement_date: fcTime(due) };
  t.deepEqual(await object('1.4.0'), settlement);
  t.deepEqual(await read('get_settle_orders', ['SMARTCN', 10]), [settlement]);
  t.deepEqual(await read('get_settle_orders_by_account', ['alice', '1.4.0', 10]), [settlement]);
  const full = new Map<string, Obj>(await call('database', 'get_full_accounts', [['alice', 'nathan'], false]));
  t.deepEqual(full.get('alice')!.settle_orders, [settlement], "get_full_accounts: alice's settle_orders");
  t.deepEqual(full.get('alice')!.call_orders, []);
  t.deepEqual(full.get('nathan')!.call_orders, [adjusted], "get_full_accounts: nathan's call_orders");
  t.deepEqual(full.get('nathan')!.settle_orders, []);
  const [settleOp] = await history(alice, 1);
  t.is(settleOp!.op[0], 17);
  t.deepEqual(settleOp!.result, [5, { new_objects: ['1.4.0'] }]);
  t.is(await balance(alice, SMART), 20_000_000 - 10_000_000 - 5_000_000);

  // a day on: the feed is published again just before the settlement is due, then it fills
  block(due - 100);
  await broadcast(publishFeed(NATHAN, SMART, { debt: 800_000, collateral: 100_000, mcr: 2000, mssr: 1100, cer: { base: 800_000, quote: 95_000 } }));
  block(due - 97);
  const filled = block(due);
  // At most 0.5% of the supply, 450000: at the feed less 1% (800/99 SMART a TEST) that is 55687 TEST
  // (rounded down, for the position), for which the settlement pays 449996 SMART (rounded up); the 4
  // left of the volume buy nothing, and the rest waits.
  const fillPrice = price(800, SMART, 99, TEST);
  aliceTest += 55_687;
  t.is(await balance(alice, TEST), aliceTest);
  const left = { ...settlement, balance: { amount: 5_000_000 - 449_996, asset_id: SMART } };
  t.deepEqual(await object('1.4.0'), left);
  t.deepEqual(await read('get_settle_orders', ['SMARTCN', 10]), [left]);
  const paid = { ...adjusted, collateral: 28_125_000 - 55_687, debt: 90_000_000 - 449_996 };
  t.deepEqual(await object('1.8.0'), paid);
  t.deepEqual(await read('get_call_orders', ['SMARTCN', 10]), [paid]);
  const after = (await call('database', 'get_objects', [['2.4.0', '2.3.1']])) as Obj[];
  t.is(Number(after[0]!.force_settled_volume), 449_996);
  t.is(Number(after[1]!.current_supply), 90_000_000 - 449_996);
  const [settleFill] = await history(alice, 1);
  t.deepEqual(settleFill!.op, [4, { fee: { amount: 0, asset_id: TEST }, order_id: '1.4.0', account_id: alice, pays: { amount: 449_996, asset_id: SMART }, receives: { amount: 55_687, asset_id: TEST }, fill_price: fillPrice, is_maker: false }]);
  t.is(settleFill!.block_num, filled.blockNum);
  const [callFill] = await history('nathan', 1);
  t.deepEqual(callFill!.op, [4, { fee: { amount: 0, asset_id: TEST }, order_id: '1.8.0', account_id: NATHAN, pays: { amount: 55_687, asset_id: TEST }, receives: { amount: 449_996, asset_id: SMART }, fill_price: fillPrice, is_maker: true }]);
});
