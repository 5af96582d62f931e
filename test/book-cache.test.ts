// Order books a worker keeps for its read snapshot (workers/handlers/database/markets.ts): bots ask for
// the same books many times between two blocks, and a book is built once per snapshot. Run against a
// real store built through the chain writer, with the worker's own handlers and reply writer; the
// builds are counted at the store's order index, which every build reads and nothing else here does.
// Serial: the cache is the module's, as it is the worker thread's.
import test from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { buildConfig } from '../src/config.js';
import { handlerFor } from '../workers/handlers/index.js';
import { BOOK_CACHE_ENTRIES } from '../src/tuning.js';
import { ReplyWriter } from '../workers/reply-writer.js';
import type { WorkerContext } from '../workers/context.js';

const NATHAN = '1.2.6';
const GOLD = '1.3.1';

function bookChain(t: import('ava').ExecutionContext) {
  const chain = makeChain(t);
  chain.block([op.assetCreate('GOLD')]);
  chain.block([op.assetIssue(GOLD, NATHAN, 1_000_000)]);
  chain.block([op.limitOrderCreate(NATHAN, [1_000_000, '1.3.0'], [5_000, GOLD]), op.limitOrderCreate(NATHAN, [2_000, GOLD], [900_000, '1.3.0'])]);
  let builds = 0;
  const index = chain.store.orderPrices;
  const getKeys = index.getKeys.bind(index);
  index.getKeys = ((...args: Parameters<typeof getKeys>) => {
    builds++;
    return getKeys(...args);
  }) as typeof index.getKeys;
  const ctx: WorkerContext = { store: chain.store, config: buildConfig({}), snapshot: 1 };
  return { chain, ctx, builds: () => builds };
}

const call = async (ctx: WorkerContext, method: string, params: unknown[]): Promise<string> => {
  const out = new ReplyWriter();
  await handlerFor('database', method)!(ctx, params, out);
  return Buffer.from(out.finish()).toString();
};

test.serial('a book asked for again in the same snapshot is the same bytes, built once; a new snapshot builds it again with what changed', async (t) => {
  const { chain, ctx, builds } = bookChain(t);
  const first = await call(ctx, 'get_order_book', ['BTS', 'GOLD', 50]);
  const book = JSON.parse(first) as { base: string; bids: { id: string }[]; asks: { id: string }[] };
  t.deepEqual([book.base, book.bids.map((o) => o.id), book.asks.map((o) => o.id)], ['BTS', ['1.7.0'], ['1.7.1']]);
  const built = builds();
  t.true(built > 0);
  t.is(await call(ctx, 'get_order_book', ['BTS', 'GOLD', 50]), first);
  t.is(builds(), built, 'not built again');
  // The book echoes the names it was asked with: another spelling of the market is a book of its own.
  t.is((JSON.parse(await call(ctx, 'get_order_book', ['1.3.0', 'GOLD', 50])) as { base: string }).base, '1.3.0');
  t.true(builds() > built);
  // Limits and lookups are still checked on every call.
  await t.throwsAsync(call(ctx, 'get_order_book', ['BTS', 'GOLD', 51]), { message: /limit/i });
  await t.throwsAsync(call(ctx, 'get_order_book', ['BTS', 'NOPE', 50]), { message: /Invalid quote asset symbol/ });

  // A block adds an order: the store changed, and the worker moves to a new snapshot with it.
  chain.block([op.limitOrderCreate(NATHAN, [3_000_000, '1.3.0'], [10_000, GOLD])]);
  ctx.snapshot = 2;
  const after = JSON.parse(await call(ctx, 'get_order_book', ['BTS', 'GOLD', 50])) as { bids: { id: string }[] };
  t.deepEqual(after.bids.map((o) => o.id).sort(), ['1.7.0', '1.7.2']);
  // The ticker's best bid and ask come from the same book.
  const ticker = JSON.parse(await call(ctx, 'get_ticker', ['BTS', 'GOLD'])) as { highest_bid: string; lowest_ask: string };
  t.is(typeof ticker.highest_bid, 'string');
});

test.serial(`the book cache holds at most BOOK_CACHE_ENTRIES books (${BOOK_CACHE_ENTRIES}), and without a snapshot a book is built every time`, async (t) => {
  const { ctx, builds } = bookChain(t);
  // Distinct books: each depth up to the api limit, under each spelling of the market.
  const keys: [string, string, number][] = [];
  for (const [base, quote] of [['BTS', 'GOLD'], ['1.3.0', 'GOLD'], ['BTS', GOLD], ['1.3.0', GOLD]] as const) for (let depth = 1; depth <= 50; depth++) keys.push([base, quote, depth]);
  t.true(keys.length > BOOK_CACHE_ENTRIES);
  // The cache's worth of them, each built once, all still held.
  for (const k of keys.slice(0, BOOK_CACHE_ENTRIES)) await call(ctx, 'get_order_book', k);
  const full = builds();
  for (const k of keys.slice(0, BOOK_CACHE_ENTRIES)) await call(ctx, 'get_order_book', k);
  t.is(builds(), full, 'all held');
  // One more book: the full cache starts afresh with it, so the first is built again.
  await call(ctx, 'get_order_book', keys[BOOK_CACHE_ENTRIES]!);
  const more = builds();
  t.true(more > full);
  await call(ctx, 'get_order_book', keys[BOOK_CACHE_ENTRIES]!);
  t.is(builds(), more, 'the newest is held');
  await call(ctx, 'get_order_book', keys[0]!);
  t.true(builds() > more, 'the first was let go');

  const tool: WorkerContext = { ...ctx, snapshot: undefined };
  const before = builds();
  await call(tool, 'get_order_book', ['BTS', 'GOLD', 50]);
  const once = builds() - before;
  await call(tool, 'get_order_book', ['BTS', 'GOLD', 50]);
  t.is(builds() - before, 2 * once, 'built for each call');
});

test.serial('books of two stores at the same snapshot number are kept apart', async (t) => {
  const a = bookChain(t);
  const b = bookChain(t);
  // b's market has one more order.
  b.chain.block([op.limitOrderCreate(NATHAN, [3_000_000, '1.3.0'], [10_000, GOLD])]);
  const bidsOf = async (ctx: WorkerContext) => (JSON.parse(await call(ctx, 'get_order_book', ['BTS', 'GOLD', 50])) as { bids: unknown[] }).bids.length;
  t.is(await bidsOf(a.ctx), 1);
  t.is(await bidsOf(b.ctx), 2);
  t.is(await bidsOf(a.ctx), 1);
});
