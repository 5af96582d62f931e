// A trading bot's day over the wire, on a devnet node: two accounts trade GOLD against BTS through
// signed broadcasts, and every market call answers from the store in Core's shapes, number and time
// formats (database_api.cpp, api_objects.cpp, util.cpp, api.cpp's market history calls). The
// expected texts are worked out from Core's formatting: amounts keep every decimal of the asset's
// precision, prices and volumes drop trailing zeros.
import test, { type ExecutionContext } from 'ava';
import type { TestNode } from './helpers/node.js';
import { connectWs } from './helpers/clients.js';
import { DEV_WIF, makeChain, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { generateBlocks, startDevnet } from './helpers/devnet.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const BOB = '1.2.8';
const GOLD = '1.3.1';

async function call(url: string, set: string, method: string, params: unknown[]): Promise<any> {
  const reply = await rpc(url, set, method, params);
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/** Broadcasts one transaction, makes the block that holds it, and returns its operation results. */
async function submit(url: string, ops: OperationJson[]): Promise<unknown[]> {
  const trx = await signedTx(url, ops, [DEV_WIF]);
  const reply = await rpc(url, 'network_broadcast', 'broadcast_transaction', [trx]);
  if (reply.error) throw new Error(reply.error.message);
  await generateBlocks(url);
  const head = (await call(url, 'database', 'get_dynamic_global_properties', [])).head_block_number;
  return (await call(url, 'database', 'get_block', [head])).transactions[0].operation_results;
}

/** alice holds BTS, bob holds GOLD (precision 4); both are signed for by the development key. */
async function market(t: ExecutionContext): Promise<TestNode> {
  const node = await startDevnet(t, {}, { blocks: 1 });
  await submit(node.httpUrl, [op.accountCreate('alice'), op.accountCreate('bob'), op.assetCreate('GOLD')]);
  await submit(node.httpUrl, [op.transfer(NATHAN, ALICE, 100_000_000), op.transfer(NATHAN, BOB, 100_000_000), op.assetIssue(GOLD, BOB, 1_000_000)]);
  return node;
}

const placeAlice = () => op.limitOrderCreate(ALICE, [1_000_000, '1.3.0'], [5_000, GOLD]);
const placeBob = () => op.limitOrderCreate(BOB, [2_000, GOLD], [300_000, '1.3.0']);

test('place an order, see it in the book and the account, get it partly filled by another account, see the fill in history and market history, cancel the rest', async (t) => {
  const { httpUrl: url } = await market(t);

  // alice bids 10 BTS for 0.5 GOLD: 20 BTS a GOLD.
  t.deepEqual(await submit(url, [placeAlice()]), [[1, '1.7.0']]);
  const entry = { price: '20', quote: '0.5000', base: '10', id: '1.7.0', owner_id: ALICE, owner_name: 'alice', expiration: '2106-02-07T06:28:15' };
  t.deepEqual(await call(url, 'database', 'get_order_book', ['BTS', 'GOLD', 10]), { base: 'BTS', quote: 'GOLD', bids: [entry], asks: [] });
  // Seen from the other side of the market, the same order is an ask at 0.05 GOLD a BTS.
  t.deepEqual(await call(url, 'database', 'get_order_book', ['GOLD', 'BTS', 10]), { base: 'GOLD', quote: 'BTS', bids: [], asks: [{ ...entry, price: '0.05', quote: '10', base: '0.5000' }] });
  const [order] = await call(url, 'database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 10]);
  t.like(order, { id: '1.7.0', seller: ALICE, for_sale: 1_000_000, filled_amount: '0', deferred_fee: 500_000 });
  t.deepEqual(await call(url, 'database', 'get_account_limit_orders', ['alice', 'GOLD', 'BTS', 10]), [], 'the other direction is another market');
  t.deepEqual(await call(url, 'database', 'get_limit_orders_by_account', ['alice']), [order]);
  t.deepEqual(await call(url, 'database', 'get_limit_orders', ['GOLD', 'BTS', 10]), [order]);
  t.deepEqual(await call(url, 'database', 'get_objects', [['1.7.0']]), [order]);
  const [[, full]] = await call(url, 'database', 'get_full_accounts', [['alice'], false]);
  t.deepEqual(full.limit_orders, [order]);
  t.is(full.statistics.total_core_in_orders, 1_000_000);

  // bob sells 0.2 GOLD asking at least 3 BTS: he gets alice's 20 BTS a GOLD, 4 BTS.
  t.deepEqual(await submit(url, [placeBob()]), [[1, '1.7.1']]);
  t.deepEqual(await call(url, 'database', 'get_order_book', ['BTS', 'GOLD', 10]), { base: 'BTS', quote: 'GOLD', bids: [{ ...entry, quote: '0.3000', base: '6' }], asks: [] });
  t.deepEqual(await call(url, 'database', 'get_named_account_balances', ['bob', ['1.3.0', GOLD]]), [
    { amount: 100_000_000 + 400_000 - 500_000, asset_id: '1.3.0' },
    { amount: 1_000_000 - 2_000, asset_id: GOLD },
  ]);
  t.deepEqual(await call(url, 'database', 'get_limit_orders_by_account', ['bob']), [], "bob's order was filled whole");

  // Both fills are in their accounts' history, newest first.
  const [aliceFill] = await call(url, 'history', 'get_account_history', ['alice', '1.11.0', 1, '1.11.0']);
  t.deepEqual(aliceFill.op, [4, { fee: { amount: 0, asset_id: GOLD }, order_id: '1.7.0', account_id: ALICE, pays: { amount: 400_000, asset_id: '1.3.0' }, receives: { amount: 2_000, asset_id: GOLD }, fill_price: { base: { amount: 1_000_000, asset_id: '1.3.0' }, quote: { amount: 5_000, asset_id: GOLD } }, is_maker: true }]);
  t.like(aliceFill, { result: [0, {}], virtual_op: 2, is_virtual: true });
  const [bobFill] = await call(url, 'history', 'get_account_history', ['bob', '1.11.0', 1, '1.11.0']);
  t.like(bobFill.op[1], { order_id: '1.7.1', account_id: BOB, is_maker: false, receives: { amount: 400_000, asset_id: '1.3.0' } });

  // The market history plugin: both sides of the fill, newest first, and one bucket per size.
  const fills = await call(url, 'history', 'get_fill_order_history', ['GOLD', 'BTS', 10]);
  t.deepEqual(
    fills.map((f: any) => [f.id, f.key, f.op.order_id]),
    [
      ['5.0.1', { base: '1.3.0', quote: GOLD, sequence: -1 }, '1.7.0'],
      ['5.0.0', { base: '1.3.0', quote: GOLD, sequence: 0 }, '1.7.1'],
    ],
  );
  const date = fills[0].time;
  const day = `${date.slice(0, 10)}T00:00:00`;
  const buckets = await call(url, 'history', 'get_market_history', ['BTS', 'GOLD', 86400, '2026-01-01T00:00:00', '2106-01-01T00:00:00']);
  t.deepEqual(buckets, [
    {
      id: buckets[0].id,
      key: { base: '1.3.0', quote: GOLD, seconds: 86400, open: day },
      high_base: 1_000_000,
      high_quote: 5_000,
      low_base: 1_000_000,
      low_quote: 5_000,
      open_base: 1_000_000,
      open_quote: 5_000,
      close_base: 1_000_000,
      close_quote: 5_000,
      base_volume: 400_000,
      quote_volume: 2_000,
    },
  ]);
  t.deepEqual(await call(url, 'history', 'get_market_history', ['BTS', 'GOLD', 61, '2026-01-01T00:00:00', '2106-01-01T00:00:00']), [], 'an untracked bucket size');

  // The trade, as get_trade_history pairs the two fills: maker alice bought GOLD.
  const trade = { sequence: 1, date, price: '20', amount: '0.2000', value: '4', type: 'buy', side1_account_id: ALICE, side2_account_id: BOB };
  t.deepEqual(await call(url, 'database', 'get_trade_history', ['BTS', 'GOLD', '2106-01-01T00:00:00', '2026-01-01T00:00:00', 10]), [trade]);
  t.deepEqual(await call(url, 'database', 'get_trade_history', ['GOLD', 'BTS', '2106-01-01T00:00:00', '2026-01-01T00:00:00', 10]), [{ ...trade, price: '0.05', amount: '4', value: '0.2000', type: 'sell' }]);
  const after = fcTime(parseFcTime(date) + 1);
  t.deepEqual(await call(url, 'database', 'get_trade_history', ['BTS', 'GOLD', '2106-01-01T00:00:00', after, 10]), [], 'a stop after the trade');
  t.deepEqual(await call(url, 'database', 'get_trade_history', ['BTS', 'GOLD', date, date, 10]), [trade], 'start and stop at the trade');
  t.deepEqual(await call(url, 'database', 'get_trade_history_by_sequence', ['BTS', 'GOLD', 5, '2026-01-01T00:00:00', 10]), [trade]);
  t.deepEqual(await call(url, 'database', 'get_trade_history_by_sequence', ['BTS', 'GOLD', 1, '2026-01-01T00:00:00', 10]), [], 'the start itself is the previous page');

  const head = (await call(url, 'database', 'get_dynamic_global_properties', [])).time;
  const ticker = {
    time: head,
    base: 'BTS',
    quote: 'GOLD',
    latest: '20',
    lowest_ask: '0',
    lowest_ask_base_size: '0',
    lowest_ask_quote_size: '0',
    highest_bid: '20',
    highest_bid_base_size: '6',
    highest_bid_quote_size: '0.3000',
    percent_change: '0',
    base_volume: '4',
    quote_volume: '0.2',
    mto_id: '5.2.0',
  };
  t.deepEqual(await call(url, 'database', 'get_ticker', ['BTS', 'GOLD']), ticker);
  t.deepEqual(await call(url, 'database', 'get_24_volume', ['BTS', 'GOLD']), { time: head, base: 'BTS', quote: 'GOLD', base_volume: '4', quote_volume: '0.2' });
  t.deepEqual(await call(url, 'database', 'get_top_markets', [10]), [ticker]);

  // alice cancels the rest: 6 BTS back.
  t.deepEqual(await submit(url, [op.limitOrderCancel(ALICE, '1.7.0')]), [[2, { amount: 600_000, asset_id: '1.3.0' }]]);
  t.deepEqual(await call(url, 'database', 'get_order_book', ['BTS', 'GOLD', 10]), { base: 'BTS', quote: 'GOLD', bids: [], asks: [] });
  t.deepEqual(await call(url, 'database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 10]), []);
  t.deepEqual(await call(url, 'database', 'get_objects', [['1.7.0']]), [null]);
  t.deepEqual(await call(url, 'database', 'get_account_balances', ['alice', ['1.3.0']]), [{ amount: 100_000_000 - 1_000_000 - 500_000 + 600_000, asset_id: '1.3.0' }]);
});

test('get_ticker of a market that has not traded is the empty ticker, orders on its book or not, as Core 7.0 answers it', async (t) => {
  const { httpUrl: url } = await market(t);
  // alice bids and bob asks far apart: two orders on the book, no trade, so no market_ticker_object.
  await submit(url, [placeAlice()]);
  await submit(url, [op.limitOrderCreate(BOB, [2_000, GOLD], [600_000, '1.3.0'])]);
  const book = await call(url, 'database', 'get_order_book', ['BTS', 'GOLD', 10]);
  t.deepEqual([book.bids.map((o: { price: string }) => o.price), book.asks.map((o: { price: string }) => o.price)], [['20'], ['30']]);
  // database_api.cpp get_ticker: without a ticker object (the market_history plugin makes one at the
  // first fill) it returns market_ticker(now, base, quote), all "0", and never reads the book.
  const head = (await call(url, 'database', 'get_dynamic_global_properties', [])).time;
  const zero = { latest: '0', lowest_ask: '0', lowest_ask_base_size: '0', lowest_ask_quote_size: '0', highest_bid: '0', highest_bid_base_size: '0', highest_bid_quote_size: '0', percent_change: '0', base_volume: '0', quote_volume: '0' };
  t.deepEqual(await call(url, 'database', 'get_ticker', ['BTS', 'GOLD']), { time: head, base: 'BTS', quote: 'GOLD', ...zero });
  t.deepEqual(await call(url, 'database', 'get_ticker', ['GOLD', 'BTS']), { time: head, base: 'GOLD', quote: 'BTS', ...zero });
  t.deepEqual(await call(url, 'database', 'get_top_markets', [10]), []);

  // After the first fill the ticker object exists, and the best bid and ask come from the book.
  await submit(url, [op.limitOrderCreate(BOB, [1_000, GOLD], [10_000, '1.3.0'])]);
  const ticker = await call(url, 'database', 'get_ticker', ['BTS', 'GOLD']);
  t.like(ticker, { latest: '20', highest_bid: '20', lowest_ask: '30', lowest_ask_quote_size: '0.2000', lowest_ask_base_size: '6', mto_id: '5.2.0' });
});

test('market reads keep Core order of checks, limits and refusals', async (t) => {
  const { httpUrl: url } = await market(t);
  const error = async (set: string, method: string, params: unknown[]) => (await rpc(url, set, method, params)).error?.message as string;
  t.regex(await error('database', 'get_order_book', ['BTS', 'GOLD', 51]), /limit <= configured_limit: limit can not be greater than 50/);
  t.regex(await error('database', 'get_order_book', ['BTS', 'NOPE', 10]), /Invalid quote asset symbol: NOPE/);
  t.regex(await error('database', 'get_limit_orders', ['BTS', 'BTS', 10]), /base\.asset_id != quote\.asset_id/);
  t.regex(await error('database', 'get_limit_orders', ['BTS', 'GOLD', 301]), /limit can not be greater than 300/);
  t.regex(await error('database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 102]), /limit can not be greater than 101/);
  t.regex(await error('database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 10, '1.7.5']), /Order id invalid \(maybe just been canceled\?\), and start price not provided/);
  t.regex(await error('database', 'get_limit_orders_by_account', ['alice', 102]), /limit can not be greater than 101/);
  t.regex(await error('database', 'get_top_markets', [101]), /limit can not be greater than 100/);
  t.regex(await error('database', 'get_trade_history', ['BTS', 'GOLD', '2106-01-01T00:00:00', '2026-01-01T00:00:00', 101]), /limit can not be greater than 100/);
  t.regex(await error('database', 'get_trade_history_by_sequence', ['BTS', 'GOLD', -1, '2026-01-01T00:00:00', 10]), /start >= 0/);
  t.regex(await error('history', 'get_fill_order_history', ['BTS', 'NOPE', 10]), /no such asset/);

  // Pages: three orders of alice at three prices, read two at a time from a start order or price.
  await submit(url, [1, 2, 3].map((k) => op.limitOrderCreate(ALICE, [1_000 * k, '1.3.0'], [10, GOLD])));
  const ids = (orders: { id: string }[]) => orders.map((o) => o.id);
  // Best (highest) price first: 3,000 BTS for 10 GOLD is 1.7.2.
  t.deepEqual(ids(await call(url, 'database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 2])), ['1.7.2', '1.7.1']);
  t.deepEqual(ids(await call(url, 'database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 2, '1.7.1'])), ['1.7.1', '1.7.0']);
  const startPrice = { base: { amount: 1_500, asset_id: '1.3.0' }, quote: { amount: 10, asset_id: GOLD } };
  t.deepEqual(ids(await call(url, 'database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 5, null, startPrice])), ['1.7.0']);
  // A start order that is gone is found again by its price.
  t.deepEqual(ids(await call(url, 'database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 5, '1.7.9', startPrice])), ['1.7.0']);
  t.regex(await error('database', 'get_account_limit_orders', ['bob', 'BTS', 'GOLD', 5, '1.7.1']), /Order not owned by specified account/);
  t.regex(await error('database', 'get_account_limit_orders', ['alice', 'GOLD', 'BTS', 5, '1.7.1']), /Order base asset inconsistent/);
  t.regex(await error('database', 'get_account_limit_orders', ['alice', 'BTS', 'GOLD', 5, null, { ...startPrice, base: { amount: 1, asset_id: GOLD } }]), /Base asset inconsistent with start price/);
  t.deepEqual(ids(await call(url, 'database', 'get_limit_orders_by_account', ['alice', 2, '1.7.1'])), ['1.7.1', '1.7.2']);
  t.deepEqual((await call(url, 'database', 'get_order_book', ['BTS', 'GOLD', 2])).bids.map((b: { id: string }) => b.id), ['1.7.2', '1.7.1']);
});

test('subscribe_to_market: new, changed and removed orders of the market, and its fills before them', async (t) => {
  const node = await market(t);
  const url = node.httpUrl;
  const ws = await connectWs(t, node.wsUrl);
  t.deepEqual(await ws.call({ id: 1, method: 'call', params: [0, 'subscribe_to_market', [7, 'GOLD', 'BTS']] }), { id: 1, result: null });

  await submit(url, [placeAlice()]);
  const created = JSON.parse(await ws.next());
  t.is(created.method, 'notice');
  t.is(created.params[0], 7);
  t.deepEqual(
    created.params[1][0].map((o: { id: string }) => o.id),
    ['1.7.0'],
  );

  await submit(url, [placeBob()]);
  const filled = JSON.parse(await ws.next());
  t.deepEqual(
    filled.params[1][0].map(([o, r]: [[number, { order_id: string }], unknown]) => [o[0], o[1].order_id, r]),
    [
      [4, '1.7.1', [0, {}]],
      [4, '1.7.0', [0, {}]],
    ],
  );
  const changed = JSON.parse(await ws.next());
  t.deepEqual(
    changed.params[1][0].map((o: { id: string; for_sale: number }) => [o.id, o.for_sale]),
    [['1.7.0', 600_000]],
  );

  await submit(url, [op.limitOrderCancel(ALICE, '1.7.0')]);
  t.deepEqual(JSON.parse(await ws.next()), { method: 'notice', params: [7, [['1.7.0']]] });

  // Unsubscribed, a market is silent; a transfer never spoke to it.
  t.deepEqual(await ws.call({ id: 2, method: 'call', params: [0, 'unsubscribe_from_market', ['BTS', 'GOLD']] }), { id: 2, result: null });
  await submit(url, [placeAlice()]);
  t.true(await ws.drained());
});

test('orders pending together: the dry run matches them as the block will, and an unfillable fill_or_kill is refused at broadcast', async (t) => {
  const { httpUrl: url } = await market(t);
  const broadcast = async (ops: OperationJson[]) => rpc(url, 'network_broadcast', 'broadcast_transaction', [await signedTx(url, ops, [DEV_WIF])]);
  t.deepEqual((await broadcast([placeAlice()])).result, null);
  // bob's order can only fill against alice's, which is pending, not in a block yet.
  const kill = op.limitOrderCreate(BOB, [2_000, GOLD], [300_000, '1.3.0'], { fillOrKill: true });
  t.deepEqual((await broadcast([kill])).result, null);
  // 10,000 GOLD against the 3,000 left on the book: 7,000 would remain, able to receive 70,000 BTS at
  // its own price, so it is not filled. (Asking 1 BTS for all, the remainder would receive nothing
  // and be culled, which Core counts as filled.)
  const tooMuch = op.limitOrderCreate(BOB, [10_000, GOLD], [100_000, '1.3.0'], { fillOrKill: true });
  t.regex((await broadcast([tooMuch])).error.message, /Killing limit order .* due to unable to fill/);
  await generateBlocks(url);
  const head = (await call(url, 'database', 'get_dynamic_global_properties', [])).head_block_number;
  const block = await call(url, 'database', 'get_block', [head]);
  t.deepEqual(
    block.transactions.map((trx: { operation_results: unknown[] }) => trx.operation_results),
    [[[1, '1.7.0']], [[1, '1.7.1']]],
  );
  t.is((await call(url, 'database', 'get_objects', [['1.7.0']]))[0].for_sale, 600_000);
  // The virtual operations of the block are in its operation history, after the order that caused them.
  const ops = await call(url, 'history', 'get_block_operation_history', [head, 1]);
  t.deepEqual(
    ops.map((o: { op: [number, unknown]; virtual_op: number }) => [o.op[0], o.virtual_op]),
    [
      [1, 0],
      [4, 1],
      [4, 2],
    ],
  );
});

test('orders_api groups a market as the grouped_orders plugin does, with its default groups of 0.1% and 1%', async (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')], [op.assetCreate('GOLD')], [op.assetCreate('SILVER')]);
  chain.block([op.transfer(NATHAN, ALICE, 100_000_000)]);
  // alice bids at 100, 100.05, 101 and 102 BTS a GOLD, in that order (ids 1.7.0 to 1.7.3).
  chain.block([op.limitOrderCreate(ALICE, [1_000, '1.3.0'], [10, GOLD])], [op.limitOrderCreate(ALICE, [10_005, '1.3.0'], [100, GOLD])], [op.limitOrderCreate(ALICE, [1_010, '1.3.0'], [10, GOLD])], [op.limitOrderCreate(ALICE, [1_020, '1.3.0'], [10, GOLD])]);
  // Then, in another market, 101 and then 100.95 (1.7.4, 1.7.5): the second joins the first's 0.1% group from below.
  chain.block([op.limitOrderCreate(ALICE, [1_010, '1.3.0'], [10, '1.3.2'])], [op.limitOrderCreate(ALICE, [100_950, '1.3.0'], [1_000, '1.3.2'])]);
  const { httpUrl: url } = await chain.serve();
  const p = (base: number, quote: number, quoteAsset = GOLD) => ({ base: { amount: base, asset_id: '1.3.0' }, quote: { amount: quote, asset_id: quoteAsset } });
  const group = (min: object, max: object, total: number) => ({ min_price: min, max_price: max, total_for_sale: total });
  t.deepEqual(await call(url, 'orders', 'get_tracked_groups', []), [10, 100]);
  // 0.1%: 100.05 is within 0.1% above 100; 101 and 102 are not, and each starts a group.
  t.deepEqual(await call(url, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 10, null, 10]), [
    group(p(1_020, 10), p(1_020, 10), 1_020),
    group(p(1_010, 10), p(1_010, 10), 1_010),
    group(p(1_000, 10), p(10_005, 100), 11_005),
  ]);
  // 1%: 100.05 and 101 are within 1% above 100.
  t.deepEqual(await call(url, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 100, null, 10]), [group(p(1_020, 10), p(1_020, 10), 1_020), group(p(1_000, 10), p(1_010, 10), 12_015)]);
  // From a start price down, and a limit.
  t.deepEqual(await call(url, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 10, p(1_015, 10), 1]), [group(p(1_010, 10), p(1_010, 10), 1_010)]);
  t.deepEqual(await call(url, 'orders', 'get_grouped_limit_orders', ['BTS', 'GOLD', 5, null, 10]), [], 'an untracked group');
  t.deepEqual(await call(url, 'orders', 'get_grouped_limit_orders', ['GOLD', 'BTS', 10, null, 10]), [], 'nobody sells GOLD');
  // 100.95 is within 0.1% below 101 (101 / 1.001 = 100.899…): the group now starts at 100.95.
  t.deepEqual(await call(url, 'orders', 'get_grouped_limit_orders', ['BTS', '1.3.2', 10, null, 10]), [group(p(100_950, 1_000, '1.3.2'), p(1_010, 10, '1.3.2'), 101_960)]);
  const error = async (params: unknown[]) => (await rpc(url, 'orders', 'get_grouped_limit_orders', params)).error.message as string;
  t.regex(await error(['BTS', 'GOLD', 10, null, 102]), /limit can not be greater than 101/);
  t.regex(await error(['BTS', 'NOPE', 10, null, 10]), /no such asset/);
  t.regex(await error(['BTS', 'BTS', 10, null, 10]), /base\.asset_id != quote\.asset_id/);
});

test('a session subscribed to an account hears of its orders: created and changed as objects, removed as ids', async (t) => {
  const node = await market(t);
  const url = node.httpUrl;
  const ws = await connectWs(t, node.wsUrl);
  t.deepEqual(await ws.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [9, false]] }), { id: 1, result: null });
  t.is((await ws.call({ id: 2, method: 'call', params: [0, 'get_full_accounts', [['alice'], true]] })).result[0][0], 'alice');
  await submit(url, [placeAlice()]);
  // The block's notices for alice: the new order among the created objects, her balance among the changed.
  const notices: string[][] = [];
  for (let i = 0; i < 2; i++) notices.push((JSON.parse(await ws.next()).params[1][0] as (string | { id: string })[]).map((o) => (typeof o === 'string' ? o : o.id)));
  t.true(notices[0]!.includes('1.7.0'), JSON.stringify(notices));
  await submit(url, [op.limitOrderCancel(ALICE, '1.7.0')]);
  // The cancel's block: its history object (created), alice's balance and statistics (changed), and
  // the order, removed: Core sends removals to the accounts they concern too (is_impacted_account).
  const ids = async () => (JSON.parse(await ws.next()).params[1][0] as (string | { id: string })[]).map((o) => (typeof o === 'string' ? `removed ${o}` : o.id));
  t.regex((await ids()).join(), /^1\.11\.\d+$/);
  t.true((await ids()).some((id) => id.startsWith('2.6.')));
  t.deepEqual(await ids(), ['removed 1.7.0']);
  t.true(await ws.drained());
});
