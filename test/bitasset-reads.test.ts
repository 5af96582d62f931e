// The reads of market-issued assets (workers/handlers/database/markets.ts, accounts.ts, assets.ts)
// against a real store: debt positions, force settlements and collateral bids are written straight
// into it, objects shaped as src/chain/evaluators/bitasset-data.ts builds them and index keys in the
// layout its header gives, and read back through the worker's own handlers and reply writer. Each
// answer is what BitShares Core 7.0's database_api.cpp gives for the same objects: its orderings
// (by_collateral, by_account, by_expiration, by_price), limits, start arguments and errors.
// Serial: the collateral sums are cached per snapshot in the module, as in the worker thread.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { buildConfig } from '../src/config.js';
import { handlerFor } from '../workers/handlers/index.js';
import { ReplyWriter } from '../workers/reply-writer.js';
import type { WorkerContext } from '../workers/context.js';
import type { ChainStore } from '../src/chain/store/store.js';
import { RpcError, type WireError } from '../src/errors.js';
import { bitassetDataObject } from '../src/chain/evaluators/bitasset-data.js';
import { priceKey, priceKeyAscending, type Price } from '../src/chain/protocol/price.js';
import { fcTime, i64 } from '../src/chain/fc/fc-json.js';

const NATHAN = 6;
const ALICE = 7;
const BOB = 8;
const USD = 1;
const EUR = 2;
const TEST = 3;
const T0 = 1_800_000_000;

type Obj = Record<string, unknown>;

function put(store: ChainStore, key: [number, number, number], obj: Obj): void {
  store.objects.putSync(key, Buffer.from(JSON.stringify(obj)));
}

const read = (store: ChainStore, key: [number, number, number]): Obj => JSON.parse(store.objects.get(key)!.toString('utf8')) as Obj;

const price = (base: bigint, baseAsset: number, quote: bigint, quoteAsset: number): Price => ({ base: { amount: base, asset: baseAsset }, quote: { amount: quote, asset: quoteAsset } });

/** A user-issued asset made market-issued, backed by BTS: `bitasset_data_id` where Core reflects it, its 2.4.x object and its index entries. */
function makeMarketIssued(store: ChainStore, asset: number, bitasset: number): void {
  const a = read(store, [1, 3, asset]);
  const withData: Obj = {};
  for (const [k, v] of Object.entries(a)) {
    withData[k] = v;
    if (k === 'dynamic_asset_data_id') withData.bitasset_data_id = `2.4.${bitasset}`;
  }
  put(store, [1, 3, asset], withData);
  const options = { feed_lifetime_sec: 86400, minimum_feeds: 1, force_settlement_delay_sec: 86400, force_settlement_offset_percent: 0, maximum_force_settlement_volume: 2000, short_backing_asset: '1.3.0', extensions: {} };
  put(store, [2, 4, bitasset], bitassetDataObject(`2.4.${bitasset}`, asset, options, false, T0));
  store.bitassetIndex.putSync([6, asset], 1);
  store.bitassetIndex.putSync([7, 0, asset], 1);
}

/** A debt position in `debtAsset` backed by BTS, as createCall writes it, with its by_collateral and by_account keys. */
function addCall(store: ChainStore, instance: number, borrower: number, collateral: bigint, debt: bigint, debtAsset: number): void {
  put(store, [1, 8, instance], {
    id: `1.8.${instance}`,
    borrower: `1.2.${borrower}`,
    collateral: i64(collateral),
    debt: i64(debt),
    call_price: { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: `1.3.${debtAsset}` } },
  });
  store.bitassetIndex.putSync([0, debtAsset, priceKeyAscending(price(collateral, 0, debt, debtAsset)), instance], 1);
  store.bitassetIndex.putSync([1, borrower, debtAsset, instance], 1);
}

/** A force settlement, as createSettlement writes it, with its by_expiration and by_account keys. */
function addSettlement(store: ChainStore, instance: number, owner: number, amount: number, asset: number, date: number): void {
  put(store, [1, 4, instance], { id: `1.4.${instance}`, owner: `1.2.${owner}`, balance: { amount, asset_id: `1.3.${asset}` }, settlement_date: fcTime(date) });
  store.bitassetIndex.putSync([2, asset, date, instance], 1);
  store.bitassetIndex.putSync([3, owner, instance], 1);
}

/** A collateral bid (collateral / debt), as createBid writes it, with its by_price and by_account keys. */
function addBid(store: ChainStore, instance: number, bidder: number, collateral: bigint, debt: bigint, debtAsset: number): void {
  const p = price(collateral, 0, debt, debtAsset);
  put(store, [2, 17, instance], { id: `2.17.${instance}`, bidder: `1.2.${bidder}`, inv_swan_price: { base: { amount: Number(collateral), asset_id: '1.3.0' }, quote: { amount: Number(debt), asset_id: `1.3.${debtAsset}` } } });
  store.bitassetIndex.putSync([4, debtAsset, priceKey(p), instance], 1);
  store.bitassetIndex.putSync([5, debtAsset, bidder, instance], 1);
}

/**
 * alice 1.2.7, bob 1.2.8; USD 1.3.1 and EUR 1.3.2 market-issued, TEST 1.3.3 not.
 * Debt positions: 1.8.0 alice EUR 5000/1000; 1.8.1 alice USD 3000/1000; 1.8.2 bob USD 2000/1000;
 * 1.8.3 nathan USD 4e12/2e12 (as collateralized as bob's, and younger).
 * Settlements: 1.4.0 bob 100 USD at T0+200; 1.4.1 alice 50 USD at T0+100; 1.4.2 bob 70 USD at T0+100;
 * 1.4.3 alice 10 EUR at T0+50.
 * Bids on USD: 2.17.0 alice 1000/100; 2.17.1 bob 3000/100; 2.17.2 nathan 2000/200 (alice's price, younger).
 */
function mpaChain(t: ExecutionContext, options: Record<string, string> = {}) {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice'), op.accountCreate('bob')]);
  chain.block([op.assetCreate('USD')]);
  chain.block([op.assetCreate('EUR')]);
  chain.block([op.assetCreate('TEST')]);
  const { store } = chain;
  makeMarketIssued(store, USD, 0);
  makeMarketIssued(store, EUR, 1);
  addCall(store, 0, ALICE, 5000n, 1000n, EUR);
  addCall(store, 1, ALICE, 3000n, 1000n, USD);
  addCall(store, 2, BOB, 2000n, 1000n, USD);
  addCall(store, 3, NATHAN, 4_000_000_000_000n, 2_000_000_000_000n, USD);
  addSettlement(store, 0, BOB, 100, USD, T0 + 200);
  addSettlement(store, 1, ALICE, 50, USD, T0 + 100);
  addSettlement(store, 2, BOB, 70, USD, T0 + 100);
  addSettlement(store, 3, ALICE, 10, EUR, T0 + 50);
  addBid(store, 0, ALICE, 1000n, 100n, USD);
  addBid(store, 1, BOB, 3000n, 100n, USD);
  addBid(store, 2, NATHAN, 2000n, 200n, USD);
  const ctx: WorkerContext = { store, config: buildConfig(options), snapshot: 1 };
  return { store, ctx };
}

async function call(ctx: WorkerContext, method: string, params: unknown[]): Promise<any> {
  const out = new ReplyWriter();
  await handlerFor('database', method)!(ctx, params, out);
  return JSON.parse(Buffer.from(out.finish()).toString());
}

async function fails(t: ExecutionContext, ctx: WorkerContext, method: string, params: unknown[]): Promise<WireError> {
  const err = await t.throwsAsync(call(ctx, method, params));
  t.true(err instanceof RpcError, String(err));
  return (err as RpcError).wire;
}

const ids = (list: { id: string }[]): string[] => list.map((o) => o.id);
const limitText = (n: number): string => `Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than ${n}`;

test.serial('get_call_orders lists an asset\'s debt positions least collateralized first, the older first at one collateralization, up to the limit', async (t) => {
  const { ctx, store } = mpaChain(t);
  const all = await call(ctx, 'get_call_orders', ['USD', 10]);
  t.deepEqual(ids(all), ['1.8.2', '1.8.3', '1.8.1']);
  t.deepEqual(all[1], { id: '1.8.3', borrower: '1.2.6', collateral: '4000000000000', debt: '2000000000000', call_price: { base: { amount: 1, asset_id: '1.3.0' }, quote: { amount: 1, asset_id: '1.3.1' } } });
  t.deepEqual(all, [[1, 8, 2], [1, 8, 3], [1, 8, 1]].map((k) => read(store, k as [number, number, number])), 'the stored objects as they are');
  t.deepEqual(ids(await call(ctx, 'get_call_orders', ['1.3.1', 2])), ['1.8.2', '1.8.3'], 'by id too, and cut at the limit');
  t.deepEqual(await call(ctx, 'get_call_orders', ['USD', 0]), []);
  t.deepEqual(ids(await call(ctx, 'get_call_orders', ['EUR', 300])), ['1.8.0']);
  t.is((await fails(t, ctx, 'get_call_orders', ['USD', 301])).message, limitText(300));
  t.is((await fails(t, ctx, 'get_call_orders', ['NOPE', 10])).message, 'Execution error: Assert Exception: asset_ptr: no such asset');
});

test.serial('get_call_orders of an asset that is not market-issued fails with asset_object::bitasset_data\'s assertion, as Core 7.0 does', async (t) => {
  const { ctx } = mpaChain(t);
  const e = await fails(t, ctx, 'get_call_orders', ['TEST', 10]);
  t.is(e.message, 'Execution error: Assert Exception: bitasset_data_id.valid(): Asset TEST (1.3.3) is not a market issued asset.');
  t.like(e.data!.stack[0], { context: { file: 'asset_object', method: 'bitasset_data' }, format: 'bitasset_data_id.valid(): Asset ${a} (${id}) is not a market issued asset.', data: { a: 'TEST', id: '1.3.3' } });
  t.regex((await fails(t, ctx, 'get_call_orders', ['BTS', 10])).message, /Asset BTS \(1\.3\.0\) is not a market issued asset/);
});

test.serial('get_call_orders_by_account and get_margin_positions list a borrower\'s positions by debt asset, from the start asset', async (t) => {
  const { ctx } = mpaChain(t);
  t.deepEqual(ids(await call(ctx, 'get_call_orders_by_account', ['alice', '1.3.0', 10])), ['1.8.1', '1.8.0'], 'USD (1.3.1) before EUR (1.3.2), whatever their ids');
  t.deepEqual(ids(await call(ctx, 'get_call_orders_by_account', ['1.2.7', '1.3.2', 10])), ['1.8.0']);
  t.deepEqual(ids(await call(ctx, 'get_call_orders_by_account', ['alice', '1.3.0', 1])), ['1.8.1']);
  t.deepEqual(await call(ctx, 'get_call_orders_by_account', ['alice', '1.3.3', 10]), []);
  t.deepEqual(ids(await call(ctx, 'get_call_orders_by_account', ['bob', '1.3.0', 10])), ['1.8.2'], "no one else's");
  t.deepEqual(ids(await call(ctx, 'get_margin_positions', ['alice'])), ['1.8.1', '1.8.0']);
  t.deepEqual(await call(ctx, 'get_margin_positions', ['1.2.0']), []);
  t.is((await fails(t, ctx, 'get_call_orders_by_account', ['alice', '1.3.0', 301])).message, limitText(300));
  t.regex((await fails(t, ctx, 'get_call_orders_by_account', ['alice', '1.8.0', 10])).message, /doesn't match expected value/);
  t.regex((await fails(t, ctx, 'get_call_orders_by_account', ['nobody', '1.3.0', 10])).message, /no such account/);
  t.regex((await fails(t, ctx, 'get_margin_positions', ['nobody'])).message, /no such account/);
});

test.serial('get_settle_orders lists an asset\'s settlements earliest settlement date first, the older first at one date; get_settle_orders_by_account by id from the start id', async (t) => {
  const { ctx } = mpaChain(t);
  const usd = await call(ctx, 'get_settle_orders', ['USD', 10]);
  t.deepEqual(ids(usd), ['1.4.1', '1.4.2', '1.4.0']);
  t.deepEqual(usd[0], { id: '1.4.1', owner: '1.2.7', balance: { amount: 50, asset_id: '1.3.1' }, settlement_date: fcTime(T0 + 100) });
  t.deepEqual(ids(await call(ctx, 'get_settle_orders', ['USD', 2])), ['1.4.1', '1.4.2']);
  t.deepEqual(ids(await call(ctx, 'get_settle_orders', ['EUR', 10])), ['1.4.3']);
  t.deepEqual(await call(ctx, 'get_settle_orders', ['TEST', 10]), [], 'Core checks no market-issued asset here');
  t.is((await fails(t, ctx, 'get_settle_orders', ['USD', 301])).message, limitText(300));
  t.regex((await fails(t, ctx, 'get_settle_orders', ['NOPE', 10])).message, /no such asset/);

  t.deepEqual(ids(await call(ctx, 'get_settle_orders_by_account', ['bob', '1.4.0', 10])), ['1.4.0', '1.4.2']);
  t.deepEqual(ids(await call(ctx, 'get_settle_orders_by_account', ['bob', '1.4.1', 10])), ['1.4.2']);
  t.deepEqual(ids(await call(ctx, 'get_settle_orders_by_account', ['alice', '1.4.0', 10])), ['1.4.1', '1.4.3'], 'every asset');
  t.deepEqual(ids(await call(ctx, 'get_settle_orders_by_account', ['alice', '1.4.0', 1])), ['1.4.1']);
  t.is((await fails(t, ctx, 'get_settle_orders_by_account', ['bob', '1.4.0', 301])).message, limitText(300));
  t.regex((await fails(t, ctx, 'get_settle_orders_by_account', ['bob', '1.3.0', 10])).message, /doesn't match expected value/);
});

test.serial('get_collateral_bids lists the bids on an asset the most collateral for the debt first, the older first at one price, past `start` of them', async (t) => {
  const { ctx } = mpaChain(t);
  const bids = await call(ctx, 'get_collateral_bids', ['USD', 10, 0]);
  t.deepEqual(ids(bids), ['2.17.1', '2.17.0', '2.17.2']);
  t.deepEqual(bids[0], { id: '2.17.1', bidder: '1.2.8', inv_swan_price: { base: { amount: 3000, asset_id: '1.3.0' }, quote: { amount: 100, asset_id: '1.3.1' } } });
  t.deepEqual(ids(await call(ctx, 'get_collateral_bids', ['1.3.1', 10, 1])), ['2.17.0', '2.17.2']);
  t.deepEqual(ids(await call(ctx, 'get_collateral_bids', ['USD', 1, 1])), ['2.17.0']);
  t.deepEqual(await call(ctx, 'get_collateral_bids', ['USD', 10, 3]), []);
  t.deepEqual(await call(ctx, 'get_collateral_bids', ['USD', 0, 0]), []);
  t.deepEqual(await call(ctx, 'get_collateral_bids', ['EUR', 10, 0]), []);
});

test.serial('get_collateral_bids refuses an asset that is not market-issued, and its errors carry the arguments its FC_CAPTURE_AND_RETHROW adds', async (t) => {
  const { ctx } = mpaChain(t);
  const e = await fails(t, ctx, 'get_collateral_bids', ['TEST', 10, 2]);
  t.is(e.message, 'Execution error: Assert Exception: swan.is_market_issued(): Asset is not a MPA');
  t.is(e.data!.stack.length, 2);
  t.like(e.data!.stack[0], { context: { level: 'error', file: 'database_api', method: 'get_collateral_bids' }, format: 'swan.is_market_issued(): Asset is not a MPA' });
  t.like(e.data!.stack[1], { context: { level: 'warn', file: 'database_api', method: 'get_collateral_bids' }, format: '', data: { asset_id_or_symbol: 'TEST', limit: 10, skip: 2 } });
  const over = await fails(t, ctx, 'get_collateral_bids', ['USD', 101, 0]);
  t.is(over.message, limitText(100));
  t.deepEqual(over.data!.stack[1]!.data, { asset_id_or_symbol: 'USD', limit: 101, skip: 0 });
  t.deepEqual((await fails(t, ctx, 'get_collateral_bids', ['NOPE', 10, 0])).data!.stack.map((s) => s.format), ['asset_ptr: no such asset', '']);
  // Argument conversions come before the body, so they carry no captured values.
  t.is((await fails(t, ctx, 'get_collateral_bids', ['USD', 10, 'x'])).data!.stack.some((s) => s.context.method === 'get_collateral_bids'), false);
});

test.serial('get_full_accounts lists an account\'s debt positions by debt asset and its settlements by id, each at most the list limit, with more_data_available', async (t) => {
  const { ctx } = mpaChain(t);
  const [[, bob]] = await call(ctx, 'get_full_accounts', [['bob'], false]);
  t.deepEqual(ids(bob.call_orders), ['1.8.2']);
  t.deepEqual(ids(bob.settle_orders), ['1.4.0', '1.4.2']);
  t.like(bob.more_data_available, { call_orders: false, settle_orders: false });
  const keys = Object.keys(bob);
  t.deepEqual(keys.slice(keys.indexOf('limit_orders'), keys.indexOf('proposals') + 1), ['limit_orders', 'call_orders', 'settle_orders', 'proposals'], "full_account's reflection order");
  const [[, alice]] = await call(ctx, 'get_full_accounts', [['alice'], false]);
  t.deepEqual(ids(alice.call_orders), ['1.8.1', '1.8.0']);
  t.deepEqual(ids(alice.settle_orders), ['1.4.1', '1.4.3']);

  const { ctx: one } = mpaChain(t, { 'api-limit-get-full-accounts-lists': '1' });
  const [[, cut]] = await call(one, 'get_full_accounts', [['alice'], false]);
  t.deepEqual(ids(cut.call_orders), ['1.8.1']);
  t.deepEqual(ids(cut.settle_orders), ['1.4.1']);
  t.like(cut.more_data_available, { call_orders: true, settle_orders: true });
  const [[, nathan]] = await call(one, 'get_full_accounts', [['nathan'], false]);
  t.deepEqual(ids(nathan.call_orders), ['1.8.3']);
  t.like(nathan.more_data_available, { call_orders: false, settle_orders: false }, 'exactly the limit is not more');
});

test.serial('extended_asset_object: total_in_collateral for every asset, total_backing_collateral for a market-issued one, from the debt positions', async (t) => {
  const { ctx } = mpaChain(t);
  const [bts, usd, eur, test, nope] = (await call(ctx, 'get_assets', [['BTS', 'USD', 'EUR', 'TEST', 'NOPE']])) as (Obj | null)[];
  t.is(nope, null);
  t.is(bts!.total_in_collateral, '4000000010000', 'every position of USD and EUR is backed by BTS');
  t.false('total_backing_collateral' in bts!);
  t.is(usd!.total_in_collateral, 0);
  t.is(usd!.total_backing_collateral, '4000000005000');
  t.is(eur!.total_backing_collateral, 5000);
  t.is(test!.total_in_collateral, 0);
  t.false('total_backing_collateral' in test!);
  const keys = Object.keys(usd!);
  t.deepEqual(keys.slice(keys.indexOf('dynamic_asset_data_id')), ['dynamic_asset_data_id', 'bitasset_data_id', 'creation_block_num', 'creation_time', 'total_in_collateral', 'total_backing_collateral']);
  // The other calls that answer extended_asset_object.
  t.deepEqual(await call(ctx, 'lookup_asset_symbols', [['USD']]), [usd]);
  t.deepEqual((await call(ctx, 'list_assets', ['EUR', 1]))[0], eur);
  t.deepEqual((await call(ctx, 'get_assets_by_issuer', ['nathan', '1.3.1', 2])).map((a: Obj) => a.total_backing_collateral), ['4000000005000', 5000]);
});

test.serial('the collateral sums are read once per snapshot; a new snapshot reads them again, and a context without snapshots every time', async (t) => {
  const { ctx, store } = mpaChain(t);
  const backing = async (c: WorkerContext) => ((await call(c, 'get_assets', [['USD']])) as Obj[])[0]!.total_backing_collateral;
  t.is(await backing(ctx), '4000000005000');
  addCall(store, 4, BOB, 1000n, 100n, USD);
  t.is(await backing(ctx), '4000000005000', 'the same snapshot');
  t.is(await backing({ store, config: ctx.config }), '4000000006000');
  ctx.snapshot = 2;
  t.is(await backing(ctx), '4000000006000');
  t.deepEqual(ids(await call(ctx, 'get_call_orders', ['USD', 10])), ['1.8.2', '1.8.3', '1.8.1', '1.8.4']);
});

test.serial('get_objects answers the objects of market-issued assets as stored', async (t) => {
  const { ctx, store } = mpaChain(t);
  const got = await call(ctx, 'get_objects', [['2.4.0', '1.8.1', '1.4.2', '2.17.1', '1.8.99']]);
  t.deepEqual(got, [read(store, [2, 4, 0]), read(store, [1, 8, 1]), read(store, [1, 4, 2]), read(store, [2, 17, 1]), null]);
  t.is((got[0] as Obj).asset_id, '1.3.1');
});
