// The deposit feed (deposits_api, README "Deposit feed"): get_transfers pages in chain order from a
// cursor, merged across accounts; subscribe_transfers' backlog then live notices; exactly once across
// pages, reconnects, restarts and the backlog → live switch; irreversible_only; its limits; the
// access file; and a store made before the feed (schema 7) gets it built.
import test, { type ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_PUB, DEV_WIF, makeChain, op, type TestChain } from './helpers/chain.js';
import { basic, callText, connectWs, httpPost, rpc, type WsClient } from './helpers/clients.js';
import { tempDir } from './helpers/temp.js';
import { startTestNode } from './helpers/node.js';
import { signedTx } from './helpers/tx.js';
import { CHAIN_START } from '../src/chain/plugins/transfer-index.js';
import { openChainStore, SCHEMA_VERSION } from '../src/chain/store/store.js';
import { writeAscendingPages } from './helpers/ascending-pages.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { transactionId } from '../src/chain/protocol/serializer.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const BOB = '1.2.8';
const CAROL = '1.2.9';
const MEMO = { from: DEV_PUB, to: DEV_PUB, nonce: '42', message: '00aabbcc' };

/**
 * An access file: `*` may use the feed, `nofeed` (any password) may not, `debug` (any password) may
 * use the feed and make blocks.
 */
function accessFile(t: ExecutionContext): string {
  const file = path.join(tempDir(t), 'api-access.json');
  const any = { password_hash_b64: '*', password_salt_b64: '*' };
  writeFileSync(
    file,
    JSON.stringify({
      permission_map: [
        ['nofeed', { ...any, allowed_apis: ['database_api', 'history_api'] }],
        ['debug', { ...any, allowed_apis: ['database_api', 'network_broadcast_api', 'debug_api', 'deposits_api'] }],
        ['*', { ...any, allowed_apis: ['database_api', 'network_broadcast_api', 'history_api', 'deposits_api'] }],
      ],
    }),
  );
  return file;
}

interface Transfer {
  cursor: string;
  block_num: number;
  block_time: string;
  trx_in_block: number;
  op_in_trx: number;
  virtual_op: number;
  trx_id: string;
  op_type: number;
  from: string;
  to: string;
  amount: { amount: number | string; asset_id: string };
  memo: unknown;
  irreversible: boolean;
}

interface Page {
  transfers: Transfer[];
  next_cursor: string;
  head_block_num: number;
  last_irreversible_block_num: number;
}

/** What the test wrote: every transfer by position, with its accounts and amount, in chain order. */
interface Written {
  block: number;
  trx: number;
  op: number;
  from: string;
  to: string;
  amount: number;
}

/**
 * A chain of accounts and transfers, written through the chain writer: blocks with several
 * transactions of several transfers each, a transfer between two accounts a reader lists together,
 * and other operations between them. Returns what was written, in chain order.
 */
function depositChain(t: ExecutionContext): { chain: TestChain; written: Written[] } {
  const chain = makeChain(t);
  const written: Written[] = [];
  const block = (...trxs: OperationJson[][]) => {
    const applied = chain.block(...trxs);
    trxs.forEach((ops, trx) =>
      ops.forEach((o, opi) => {
        if (o[0] !== 0) return;
        const b = o[1] as { from: string; to: string; amount: { amount: number } };
        written.push({ block: applied.blockNum, trx, op: opi, from: b.from, to: b.to, amount: Number(b.amount.amount) });
      }),
    );
  };
  block([op.accountCreate('alice')], [op.accountCreate('bob')], [op.accountCreate('carol')]);
  block([op.transfer(NATHAN, ALICE, 1000), op.transfer(NATHAN, BOB, 2000)], [op.transfer(NATHAN, CAROL, 500)]);
  block([op.transfer(ALICE, BOB, 7, '1.3.0', MEMO), op.assetCreate('GOLD'), op.transfer(BOB, ALICE, 3)], [op.transfer(CAROL, NATHAN, 1)], [op.transfer(NATHAN, ALICE, 11), op.transfer(ALICE, CAROL, 1)]);
  block([op.transfer(BOB, CAROL, 2)]);
  block([op.accountCreate('dave')]);
  block([op.transfer(NATHAN, BOB, 5), op.transfer(NATHAN, ALICE, 6), op.transfer(NATHAN, CAROL, 8)]);
  return { chain, written };
}

const concerns = (w: Written, accounts: readonly string[]) => accounts.includes(w.from) || accounts.includes(w.to);
const keyOf = (x: { block_num: number; trx_in_block: number; op_in_trx: number } | Written) =>
  'block' in x ? `${x.block}/${x.trx}/${x.op}` : `${x.block_num}/${x.trx_in_block}/${x.op_in_trx}`;

async function page(url: string, accounts: unknown[], cursor: unknown, limit: unknown, irreversibleOnly?: boolean): Promise<Page> {
  const reply = await rpc(url, 'deposits', 'get_transfers', irreversibleOnly === undefined ? [accounts, cursor, limit] : [accounts, cursor, limit, irreversibleOnly]);
  if (reply.error) throw new Error(`get_transfers: ${reply.error.message}`);
  return reply.result as Page;
}

/** Every transfer after `cursor`, read in pages of `limit`; checks that each page's next cursor moves on. */
async function readAll(url: string, accounts: unknown[], cursor: string, limit: number, irreversibleOnly?: boolean): Promise<{ transfers: Transfer[]; next: string }> {
  const out: Transfer[] = [];
  for (;;) {
    const p = await page(url, accounts, cursor, limit, irreversibleOnly);
    out.push(...p.transfers);
    if (p.transfers.length > 0) {
      if (p.transfers.length === limit) {
        if (p.next_cursor !== p.transfers.at(-1)!.cursor) throw new Error('a full page ends at its last transfer');
      }
    }
    if (p.transfers.length < limit) return { transfers: out, next: p.next_cursor };
    cursor = p.next_cursor;
  }
}

test('get_transfers gives the listed accounts\' transfers in chain order, each once, by names or ids, with their fields', async (t) => {
  const { chain, written } = depositChain(t);
  const { httpUrl } = await chain.serve({ 'api-access': accessFile(t) });
  const all = await page(httpUrl, ['alice', BOB], CHAIN_START, 100);
  const expected = written.filter((w) => concerns(w, [ALICE, BOB]));
  t.deepEqual(all.transfers.map(keyOf), expected.map(keyOf), 'chain order; the transfer from alice to bob once');
  t.deepEqual(
    all.transfers.map((x) => [x.from, x.to, Number(x.amount.amount)]),
    expected.map((w) => [w.from, w.to, w.amount]),
  );
  t.is(all.head_block_num, 6);
  t.is(all.last_irreversible_block_num, 5);
  t.is(all.next_cursor, (await page(httpUrl, [ALICE], null, 0)).next_cursor, 'a short page ends after the head block, where null starts');
  const withMemo = all.transfers.find((x) => x.from === ALICE && x.to === BOB)!;
  t.deepEqual(withMemo.memo, MEMO, 'the memo as on the chain');
  t.deepEqual(Object.keys(withMemo), ['cursor', 'block_num', 'block_time', 'trx_in_block', 'op_in_trx', 'virtual_op', 'trx_id', 'op_type', 'from', 'to', 'amount', 'memo', 'irreversible']);
  t.is(all.transfers[0]!.memo, null, 'no memo: null');
  // The transaction id and time are the block's.
  const block = (await rpc(httpUrl, 'database', 'get_block', [withMemo.block_num])).result;
  t.is(withMemo.block_time, block.timestamp);
  t.is(withMemo.trx_id, transactionId(block.transactions[withMemo.trx_in_block]));
  t.deepEqual(
    all.transfers.map((x) => x.irreversible),
    all.transfers.map((x) => x.block_num <= 5),
  );
  // Ids and names are the same accounts; a repeated account counts once.
  t.deepEqual((await page(httpUrl, [ALICE, 'bob', 'alice'], CHAIN_START, 100)).transfers, all.transfers);
});

test('get_transfers read in pages of every size gives the same transfers, resuming in the middle of a block from each transfer\'s cursor', async (t) => {
  const { chain, written } = depositChain(t);
  const { httpUrl } = await chain.serve({ 'api-access': accessFile(t) });
  const accounts = [ALICE, BOB, CAROL];
  const whole = (await page(httpUrl, accounts, CHAIN_START, 1000)).transfers;
  t.is(whole.length, written.filter((w) => concerns(w, accounts)).length);
  for (const limit of [1, 2, 3, 5]) {
    const { transfers, next } = await readAll(httpUrl, accounts, CHAIN_START, limit);
    t.deepEqual(transfers, whole, `pages of ${limit}`);
    t.deepEqual((await page(httpUrl, accounts, next, 10)).transfers, [], 'nothing after the last next_cursor');
  }
  // From each transfer's cursor, exactly the transfers after it (block 3 holds six, in three transactions).
  for (const [i, x] of whole.entries()) t.deepEqual((await page(httpUrl, accounts, x.cursor, 1000)).transfers, whole.slice(i + 1), `after ${keyOf(x)}`);
});

test('get_transfers takes another list of accounts at each call: the same cursor gives the new list\'s transfers after it', async (t) => {
  const { chain, written } = depositChain(t);
  const { httpUrl } = await chain.serve({ 'api-access': accessFile(t) });
  const first = await page(httpUrl, [CAROL], CHAIN_START, 2);
  t.deepEqual(first.transfers.map(keyOf), written.filter((w) => concerns(w, [CAROL])).slice(0, 2).map(keyOf));
  // A reader that adds accounts later: no replay, no restart; the new ones are read from the cursor on.
  const later = await page(httpUrl, [CAROL, 'alice', NATHAN], first.next_cursor, 100);
  const cut = keyOf(first.transfers.at(-1)!);
  const after = written.filter((w) => concerns(w, [CAROL, ALICE, NATHAN]));
  t.deepEqual(later.transfers.map(keyOf), after.slice(after.findIndex((w) => keyOf(w) === cut) + 1).map(keyOf));
  const dave = await page(httpUrl, ['dave'], CHAIN_START, 100);
  t.deepEqual(dave.transfers, [], 'an account without transfers');
});

test('get_transfers with irreversible_only reads up to the last irreversible block, and its next cursor waits there', async (t) => {
  const { chain } = depositChain(t);
  const { httpUrl } = await chain.serve({ 'api-access': accessFile(t) });
  const all = await page(httpUrl, [ALICE], CHAIN_START, 100);
  const settled = await page(httpUrl, [ALICE], CHAIN_START, 100, true);
  t.true(all.transfers.some((x) => x.block_num === 6), 'the head block has one of alice\'s transfers');
  t.deepEqual(settled.transfers, all.transfers.filter((x) => x.block_num <= 5));
  t.true(settled.transfers.every((x) => x.irreversible));
  // Resuming from the irreversible page's cursor, the head block's transfer is still to come.
  t.deepEqual((await page(httpUrl, [ALICE], settled.next_cursor, 100)).transfers, all.transfers.filter((x) => x.block_num === 6));
});

test('get_transfers refuses a limit over api-limit-get-transfers, too many accounts, unknown accounts and bad cursors, each with its reason', async (t) => {
  const { chain } = depositChain(t);
  const { httpUrl } = await chain.serve({ 'api-access': accessFile(t), 'api-limit-get-transfers': '5', 'max-transfer-accounts': '2' });
  const error = async (params: unknown[]) => {
    const reply = await rpc(httpUrl, 'deposits', 'get_transfers', params);
    if (!reply.error) throw new Error(`expected an error for ${JSON.stringify(params)}`);
    return reply.error.message as string;
  };
  t.is(await error([[ALICE], null, 6]), 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 5');
  t.is((await page(httpUrl, [ALICE], CHAIN_START, 5)).transfers.length, 5, 'the limit itself is taken');
  t.is(
    await error([[ALICE, BOB, CAROL], null, 1]),
    'Execution error: Assert Exception: accounts.size() <= max_transfer_accounts: Number of accounts in one call or subscription can not be greater than 2 (--max-transfer-accounts)',
  );
  t.is(await error([['nobody'], null, 1]), 'Execution error: Assert Exception: account_ptr: no such account: nobody');
  t.regex(await error([['1.2.999'], null, 1]), /no such account: 1\.2\.999$/);
  const good = (await page(httpUrl, [ALICE], CHAIN_START, 1)).next_cursor;
  for (const bad of ['', 'x', `1${'A'.repeat(28)}`, `1${'a'.repeat(28)}`.slice(0, 28), `${good}0`, good.slice(1), `2${good.slice(1)}`, `${good.slice(0, -1)}g`, 17, {}, [good], true]) {
    t.regex(await error([[ALICE], bad, 1]), /^Execution error: Assert Exception: is_valid_cursor\(cursor\): Invalid cursor .*: give null \(from the head block on\) or a cursor or next_cursor this API returned$/, JSON.stringify(bad));
  }
  // A cursor beyond this node's head (from a replica that is ahead) is taken, and kept.
  const ahead = `1${(1000).toString(16).padStart(8, '0')}${'0'.repeat(20)}`;
  const p = await page(httpUrl, [ALICE], ahead, 5);
  t.deepEqual(p.transfers, []);
  t.is(p.next_cursor, ahead, 'a cursor further on than the head is not moved back');
});

test('the feed is deposits_api: a user whose access entry has it reaches it by getter and by name; one without is refused', async (t) => {
  const { chain } = depositChain(t);
  const { httpUrl, wsUrl } = await chain.serve({ 'api-access': accessFile(t) });
  const ws = await connectWs(t, wsUrl);
  t.is((await ws.call({ id: 1, method: 'call', params: [1, 'login', ['', '']] })).result, true);
  const id = (await ws.call({ id: 2, method: 'call', params: [1, 'deposits', []] })).result;
  t.is(typeof id, 'number');
  t.is((await ws.call({ id: 3, method: 'call', params: [id, 'get_transfers', [[ALICE], CHAIN_START, 1]] })).result.transfers.length, 1);
  t.deepEqual((await ws.call({ id: 4, method: 'call', params: [1, 'get_available_api_sets', []] })).result, ['database_api', 'deposits_api', 'history_api', 'network_broadcast_api']);

  const denied = await rpc(httpUrl, 'deposits', 'get_transfers', [[ALICE], CHAIN_START, 1], { authorization: basic('nofeed', 'x') });
  t.is(denied.error?.message, 'Execution error: Assert Exception: is_allowed: Access denied');
  const ws2 = await connectWs(t, wsUrl, { authorization: basic('nofeed', 'x') });
  t.is((await ws2.call({ id: 1, method: 'call', params: [1, 'deposits', []] })).error?.message, 'Execution error: Assert Exception: is_allowed: Access denied');
});

test('a store made before the feed (schema 7) gets its transfers indexed from its history, with the same pages', async (t) => {
  const { chain } = depositChain(t);
  const accounts = [ALICE, BOB, CAROL, NATHAN];
  const first = await chain.serve({ 'api-access': accessFile(t) });
  const before = await page(first.httpUrl, accounts, CHAIN_START, 1000);
  t.true(before.transfers.length > 10);
  await first.node.close();
  // What the version before left: no transfer feed, history pages oldest first, schema 7.
  const old = openChainStore(chain.dataDir);
  await writeAscendingPages(old);
  await old.transferFeed.drop();
  await old.meta.put('schema', '7');
  await old.close();
  const upgraded = await startTestNode(t, { 'data-dir': chain.dataDir, 'api-access': accessFile(t) });
  t.deepEqual(await page(upgraded.httpUrl, accounts, CHAIN_START, 1000), before);
  await upgraded.node.close();
  const store = openChainStore(chain.dataDir, { readOnly: true });
  t.teardown(() => store.close());
  t.is(store.meta.get('schema'), SCHEMA_VERSION);
});

test('cursors stay valid across a restart of the node', async (t) => {
  const { chain } = depositChain(t);
  const access = accessFile(t);
  const first = await chain.serve({ 'api-access': access });
  const head = await page(first.httpUrl, [ALICE, BOB], CHAIN_START, 3);
  const rest = await page(first.httpUrl, [ALICE, BOB], head.next_cursor, 1000);
  await first.node.close();
  const again = await startTestNode(t, { 'data-dir': chain.dataDir, 'api-access': access });
  t.deepEqual(await page(again.httpUrl, [ALICE, BOB], head.next_cursor, 1000), rest);
});

// ---- live: a devnet whose blocks the test makes (debug_generate_blocks), with transfers broadcast to it ----

const DEBUG = { authorization: basic('debug', 'x') };

async function devnet(t: ExecutionContext, options: Record<string, string> = {}) {
  const node = await startTestNode(t, { 'api-access': accessFile(t), ...options });
  const blocks = async (n = 1) => {
    const r = await rpc(node.httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, n], DEBUG);
    if (r.error) throw new Error(r.error.message);
  };
  await blocks(1);
  /** Broadcasts (into the pending state) one transaction of transfers from nathan. */
  const send = async (...to: [string, number][]) => {
    const r = await rpc(node.httpUrl, 'network_broadcast', 'broadcast_transaction', [await signedTx(node.httpUrl, to.map(([who, amount]) => op.transfer(NATHAN, who, amount)), [DEV_WIF])]);
    if (r.error) throw new Error(r.error.message);
  };
  return { ...node, blocks, send };
}

test('a pending transfer is not in the feed; once its block is applied it is', async (t) => {
  const net = await devnet(t);
  const now = (await page(net.httpUrl, ['nathan'], null, 10)).next_cursor;
  await net.send(['1.2.0', 77]);
  // In the pending state: the balance moved, the feed has nothing.
  t.deepEqual((await page(net.httpUrl, ['nathan'], now, 10)).transfers, []);
  await net.blocks(1);
  const after = await page(net.httpUrl, ['nathan'], now, 10);
  t.deepEqual(after.transfers.map((x) => [x.to, Number(x.amount.amount), x.irreversible]), [['1.2.0', 77, false]]);
});

/** The reply to a call on a connection that also receives notices (skipped here; noticesOf sees them). */
async function replyTo(ws: WsClient, request: { id: number; method: string; params: unknown[] }): Promise<any> {
  ws.send(JSON.stringify(request));
  for (;;) {
    const m = JSON.parse(await ws.next());
    if (m.id === request.id) return m;
  }
}

/** The transfers of a connection's notices for `callback`, as they come. */
function noticesOf(ws: WsClient, callback: number): { transfers: Transfer[]; notices: number; until(n: number, ms?: number): Promise<Transfer[]> } {
  const out = { transfers: [] as Transfer[], notices: 0, until: async (_n: number, _ms?: number): Promise<Transfer[]> => [] };
  const waiters: (() => void)[] = [];
  ws.ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { method?: string; params?: [number, [Transfer[]]] };
    if (m.method !== 'notice' || m.params![0] !== callback) return;
    out.notices++;
    out.transfers.push(...m.params![1][0]);
    for (const w of waiters.splice(0)) w();
  });
  out.until = async (n, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (out.transfers.length < n) {
      if (Date.now() > deadline) throw new Error(`${out.transfers.length} of ${n} transfers within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return out.transfers;
  };
  return out;
}

test('subscribe_transfers sends the backlog in pages, then live transfers, each once and in order, with blocks made while the backlog is read', async (t) => {
  const net = await devnet(t, { 'api-limit-get-transfers': '3' });
  // A backlog: 12 transfers in 4 blocks.
  for (let b = 0; b < 4; b++) {
    await net.send(['1.2.0', 1 + b * 3], ['1.2.1', 2 + b * 3]);
    await net.send(['1.2.0', 3 + b * 3]);
    await net.blocks(1);
  }
  const ws = await connectWs(t, net.wsUrl);
  const seen = noticesOf(ws, 9);
  t.is((await ws.call({ id: 1, method: 'call', params: ['deposits', 'subscribe_transfers', [9, ['nathan'], CHAIN_START]] })).result, null);
  // More blocks while the backlog is being read, and after.
  for (let b = 4; b < 8; b++) {
    await net.send(['1.2.0', 1 + b * 3], ['1.2.1', 2 + b * 3]);
    await net.send(['1.2.0', 3 + b * 3]);
    await net.blocks(1);
  }
  const got = await seen.until(24);
  t.deepEqual(
    got.map((x) => Number(x.amount.amount)),
    Array.from({ length: 24 }, (_, i) => i + 1),
    'every transfer once, in chain order',
  );
  // The same transfers get_transfers reads (whose irreversible flags are of now).
  const strip = (x: Transfer) => ({ ...x, irreversible: undefined });
  t.deepEqual(got.map(strip), (await readAll(net.httpUrl, ['nathan'], CHAIN_START, 3)).transfers.map(strip));
  t.true(seen.notices >= 8, 'pages of at most api-limit-get-transfers');
  // Nothing more than was sent: one more transfer comes alone.
  await net.send(['1.2.0', 25]);
  await net.blocks(1);
  t.deepEqual((await seen.until(25)).slice(24).map((x) => Number(x.amount.amount)), [25]);
  const metrics = await (await fetch(`http://127.0.0.1:${net.port}/metrics`)).text();
  t.regex(metrics, /graphene_rpc_transfer_feed_transfers_total 25/);
  t.regex(metrics, /graphene_rpc_transfer_feed_subscriptions 1/);
});

test('a watcher that reconnects with the cursor of the last transfer it took gets every later one once, also from the middle of a block', async (t) => {
  const net = await devnet(t, { 'api-limit-get-transfers': '2' });
  // One block of five transfers (two transactions), then another of three.
  await net.send(['1.2.0', 1], ['1.2.1', 2], ['1.2.0', 3]);
  await net.send(['1.2.1', 4], ['1.2.0', 5]);
  await net.blocks(1);
  await net.send(['1.2.0', 6], ['1.2.1', 7], ['1.2.0', 8]);
  await net.blocks(1);
  const taken: Transfer[] = [];
  let cursor = CHAIN_START;
  // Each connection takes three transfers and closes: cursors in the middle of blocks and of transactions.
  for (let round = 0; taken.length < 8; round++) {
    const ws = await connectWs(t, net.wsUrl);
    const seen = noticesOf(ws, 1);
    t.is((await ws.call({ id: 1, method: 'call', params: ['deposits', 'subscribe_transfers', [1, ['nathan'], cursor]] })).result, null);
    const want = Math.min(8, taken.length + 3) - taken.length;
    const got = (await seen.until(want)).slice(0, want);
    await ws.close();
    taken.push(...got);
    cursor = got.at(-1)!.cursor;
  }
  t.deepEqual(
    taken.map((x) => Number(x.amount.amount)),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  // And live after a reconnect: the next block's transfers, none of the earlier ones.
  const ws = await connectWs(t, net.wsUrl);
  const seen = noticesOf(ws, 2);
  await ws.call({ id: 1, method: 'call', params: ['deposits', 'subscribe_transfers', [2, ['nathan'], cursor]] });
  await net.send(['1.2.0', 9]);
  await net.blocks(1);
  t.deepEqual((await seen.until(1)).map((x) => Number(x.amount.amount)), [9]);
});

test('subscribe_transfers with irreversible_only sends a transfer once its block is irreversible', async (t) => {
  const net = await devnet(t);
  const ws = await connectWs(t, net.wsUrl);
  const seen = noticesOf(ws, 5);
  t.is((await ws.call({ id: 1, method: 'call', params: ['deposits', 'subscribe_transfers', [5, ['1.2.0'], null, true]] })).result, null);
  await net.send(['1.2.0', 31]);
  await net.blocks(1);
  const block = (await rpc(net.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number as number;
  // The next block makes it irreversible (one producer: the last irreversible block is the one before the head).
  await net.blocks(1);
  const [x] = await seen.until(1);
  t.is(x!.block_num, block);
  t.true(x!.irreversible);
  t.is(Number(x!.amount.amount), 31);
});

test('subscriptions are capped: accounts per subscription, subscriptions per connection (a callback held is replaced), WebSocket only', async (t) => {
  const net = await devnet(t, { 'max-transfer-subscriptions-per-connection': '2', 'max-transfer-accounts': '2' });
  const ws = await connectWs(t, net.wsUrl);
  const sub = (id: number, cb: number, accounts: unknown[]) => ws.call({ id, method: 'call', params: ['deposits', 'subscribe_transfers', [cb, accounts, null]] });
  t.regex((await sub(1, 1, ['nathan', '1.2.0', '1.2.1'])).error.message, /Number of accounts in one call or subscription can not be greater than 2 \(--max-transfer-accounts\)$/);
  t.is((await sub(2, 1, ['nathan'])).result, null);
  t.is((await sub(3, 2, ['1.2.0'])).result, null);
  t.is(
    (await sub(4, 3, ['1.2.1'])).error.message,
    'Execution error: Assert Exception: subscriptions.size() < max_transfer_subscriptions_per_connection: Number of transfer subscriptions of one connection can not be greater than 2 (--max-transfer-subscriptions-per-connection)',
  );
  // The same callback again replaces its subscription.
  t.is((await sub(5, 2, ['1.2.1'])).result, null);
  t.is((await ws.call({ id: 6, method: 'call', params: ['deposits', 'unsubscribe_transfers', [1]] })).result, null);
  t.is((await sub(7, 3, ['1.2.1'])).result, null, 'an ended subscription frees its place');
  t.regex((await sub(8, 3, ['nathan', 'nobody'])).error.message, /no such account: nobody$/, 'checked before the callback held is replaced');
  // The replaced subscription (callback 2 on 1.2.0) hears nothing of 1.2.0; callback 3 hears 1.2.1.
  const two = noticesOf(ws, 2);
  const three = noticesOf(ws, 3);
  await net.send(['1.2.0', 1], ['1.2.1', 2]);
  await net.blocks(1);
  t.deepEqual((await three.until(1)).map((x) => x.to), ['1.2.1']);
  t.deepEqual((await two.until(1)).map((x) => x.to), ['1.2.1']);
  t.is((await replyTo(ws, { id: 9, method: 'call', params: ['deposits', 'unsubscribe_transfers', []] })).result, null);
  const http = JSON.parse((await httpPost(net.httpUrl, callText(1, 'call', ['deposits', 'subscribe_transfers', [1, ['nathan'], null]]))).text);
  t.regex(http.error.message, /subscribe_transfers needs a WebSocket connection/);
});

test('a subscriber that does not read its backlog holds the node to about a page: its reads wait until it reads, then it gets every transfer once', async (t) => {
  const { captureLogs } = await import('./helpers/logs.js');
  // A backlog of about 22 MB: 5,000 transfers with 2 KB memos, far more than a socket's kernel buffers.
  const chain = makeChain(t);
  const memo = { ...MEMO, message: 'ab'.repeat(2000) };
  const blocks = 50;
  const perBlock = 100;
  for (let b = 0; b < blocks; b++) chain.block(Array.from({ length: perBlock }, (_, i) => op.transfer(NATHAN, '1.2.0', b * perBlock + i + 1, '1.3.0', memo)));
  const logs = captureLogs();
  await chain.store.close();
  const node = await startTestNode(t, { 'data-dir': chain.dataDir, 'api-access': accessFile(t), 'api-limit-get-transfers': String(perBlock), 'max-unread-bytes-per-connection': String(64 * 1024) }, logs.log);
  const WebSocket = (await import('ws')).default;
  const ws = new WebSocket(node.wsUrl);
  ws.on('error', () => undefined);
  t.teardown(() => ws.terminate());
  await new Promise((r) => ws.once('open', r));
  const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  const amounts: number[] = [];
  let done: () => void;
  const all = new Promise<void>((r) => (done = r));
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { method?: string; params?: [number, [Transfer[]]] };
    if (m.method !== 'notice') return;
    for (const x of m.params![1][0]) amounts.push(Number(x.amount.amount));
    if (amounts.length >= blocks * perBlock) done();
  });
  socket.pause();
  ws.send(callText(1, 'call', ['deposits', 'subscribe_transfers', [1, ['nathan'], CHAIN_START]]));
  await logs.once('client does not read its replies; its calls wait', 60_000);
  const { parsePromText, valueOf } = await import('../bench/prom-text.js');
  const pages = async () => valueOf(parsePromText(await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text()), 'graphene_rpc_transfer_feed_pages_total', { kind: 'backlog' }) ?? 0;
  const read = await pages();
  t.log(`backlog pages read while the client did not read: ${read} of ${blocks}; held ${node.node.bufferedBytes()} bytes`);
  t.true(read < blocks, 'the backlog is not read ahead of the client');
  const held = node.node.bufferedBytes();
  t.true(held < 4 * 1024 * 1024, `the node holds ${held} bytes for it, not its backlog of 22 MB`);
  socket.resume();
  await all;
  t.deepEqual(amounts, Array.from({ length: blocks * perBlock }, (_, i) => i + 1), 'every transfer once, in order');
});

test('an override_transfer (38) is in the feed, told apart by op_type; other operations that move funds are not', async (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')], [op.accountCreate('bob')]);
  // An asset whose issuer (nathan) may take it back: override_authority in its permissions and flags.
  const gold = op.assetCreate('GOLD');
  const options = (gold[1] as { common_options: { issuer_permissions: number; flags: number } }).common_options;
  options.issuer_permissions = 0x04;
  options.flags = 0x04;
  chain.block([gold]);
  chain.block([op.assetIssue('1.3.1', ALICE, 500)], [op.transfer(ALICE, BOB, 20, '1.3.1')]);
  const override: OperationJson = [38, { fee: { amount: 0, asset_id: '1.3.0' }, issuer: NATHAN, from: ALICE, to: BOB, amount: { amount: 100, asset_id: '1.3.1' }, extensions: [] }];
  chain.block([override]);
  const { httpUrl } = await chain.serve({ 'api-access': accessFile(t) });
  const { transfers } = await page(httpUrl, ['alice'], CHAIN_START, 100);
  t.deepEqual(
    transfers.map((x) => [x.op_type, x.from, x.to, x.amount]),
    [
      [0, ALICE, BOB, { amount: 20, asset_id: '1.3.1' }],
      [38, ALICE, BOB, { amount: 100, asset_id: '1.3.1' }],
    ],
    'the issue to alice (asset_issue) is not a transfer',
  );
});
