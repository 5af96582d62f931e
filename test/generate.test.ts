// graphene-rpc generate: a deterministic chain written through the chain writer, served by a node.
import test, { type ExecutionContext } from 'ava';
import { runGenerate } from '../src/generate/command.js';
import { openChainStore } from '../src/chain/store/store.js';
import { startTestNode } from './helpers/node.js';
import { rpc } from './helpers/clients.js';
import { tempDir } from './helpers/temp.js';
import { blockId, transactionMerkleRoot, signingDigest } from '../src/chain/protocol/serializer.js';
import { recoverPublicKey } from '../src/chain/crypto/keys.js';
import { decryptMemo } from '../src/chain/crypto/memo.js';
import { generatedKey } from '../src/generate/generate.js';
import { idInstance } from '../src/chain/fc/object-id.js';
import { applyBlock, initChain } from '../src/chain/node/block-applier.js';
import { BUNDLED_GENESIS, loadGenesis } from '../src/chain/node/genesis.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from '../src/chain/crypto/dev-key.js';
import { parseFcTime } from '../src/chain/fc/fc-json.js';
import { requiredFee, type FeeSchedule } from '../src/chain/protocol/fees.js';
import type { OperationJson, SignedTransactionJson } from '../src/chain/protocol/types.js';

const tmp = (t: ExecutionContext) => tempDir(t, 'graphene-rpc-gen-');

/** `set.method`, as the README writes calls. */
const call = (url: string, setMethod: string, params: unknown[]) => {
  const [set, method] = setMethod.split('.');
  return rpc(url, set!, method!, params);
};

test('generate writes the requested accounts and transfers, skewed towards exchange-1, and prints a summary', async (t) => {
  const dataDir = tmp(t);
  const summary = await runGenerate({ dataDir, accounts: 60, operations: 3000, seed: 7, progress: false });
  t.regex(summary, /accounts: +60 \(busiest: exchange-1 with \d+ operations\)/);
  t.regex(summary, /operations: +\d+ \(3000 transfers\)/);
  t.regex(summary, /blocks: +\d+/);
  t.regex(summary, /store size: +[\d.]+ MiB/);
  t.regex(summary, /operations\/s/);
  const node = await startTestNode(t, { 'data-dir': dataDir });
  const stats = (await call(node.httpUrl, 'database.get_full_accounts', [['exchange-1'], false])).result[0][1].statistics;
  // exchange-1 receives about 40% of the transfers after funding.
  t.true(Number(stats.total_ops) > 0.25 * 3000, `exchange-1 has ${stats.total_ops} operations`);
  t.is((await call(node.httpUrl, 'database.get_account_count', [])).result, 60 + 7);
  const history = (await call(node.httpUrl, 'history.get_account_history', ['exchange-1', '1.11.0', 100, '1.11.0'])).result;
  t.is(history.length, 100);
  t.is(history[0].op[0], 0);
});

test('generate is deterministic for a seed, and differs between seeds', async (t) => {
  const [a, b, c] = [tmp(t), tmp(t), tmp(t)];
  await runGenerate({ dataDir: a, accounts: 20, operations: 400, seed: 3, progress: false });
  await runGenerate({ dataDir: b, accounts: 20, operations: 400, seed: 3, progress: false });
  await runGenerate({ dataDir: c, accounts: 20, operations: 400, seed: 4, progress: false });
  const head = async (dir: string) => {
    const s = openChainStore(dir, { readOnly: true });
    const id = JSON.parse(s.objects.get([2, 1, 0])!.toString()).head_block_id as string;
    await s.close();
    return id;
  };
  // Signatures are deterministic (RFC 6979 nonces), so whole blocks, and so block ids, repeat.
  t.is(await head(a), await head(b));
  t.not(await head(a), await head(c));
});

test('generated blocks and transactions are what real ones are: linked, signed, with valid merkle roots and readable memos', async (t) => {
  const dataDir = tmp(t);
  await runGenerate({ dataDir, accounts: 30, operations: 2500, seed: 9, progress: false });
  const store = openChainStore(dataDir, { readOnly: true });
  t.teardown(() => store.close());
  const chainId = store.meta.get('chain_id')!;
  const head = JSON.parse(store.objects.get([2, 1, 0])!.toString()).head_block_number as number;
  let previous = '0'.repeat(40);
  let memos = 0;
  for (let n = 1; n <= head; n++) {
    const block = JSON.parse(store.blocks.get(n)!.toString());
    t.is(block.previous, previous);
    t.is(block.transaction_merkle_root, transactionMerkleRoot(block.transactions));
    previous = blockId(block, n);
    t.is(store.blockIds.get(n), previous);
    for (const trx of block.transactions) {
      const signer = recoverPublicKey(signingDigest(chainId, trx), trx.signatures[0]);
      const payer = trx.operations[0][1].from ?? trx.operations[0][1].registrar ?? trx.operations[0][1].issuer;
      const account = JSON.parse(store.objects.get([1, 2, idInstance(payer)])!.toString());
      t.is(signer, account.active.key_auths[0][0]);
      for (const [code, o] of trx.operations) {
        if (code === 0 && o.memo) {
          const to = JSON.parse(store.objects.get([1, 2, idInstance(o.to)])!.toString());
          t.regex(decryptMemo(generatedKey(9, to.name), o.memo), /^deposit \d+$/);
          memos++;
        }
      }
    }
  }
  t.true(memos > 0, 'some transfers carry a memo');
});

test('generate refuses a data directory that already holds a chain', async (t) => {
  const dataDir = tmp(t);
  await runGenerate({ dataDir, accounts: 10, operations: 20, seed: 1, progress: false });
  await t.throwsAsync(() => runGenerate({ dataDir, accounts: 10, operations: 20, seed: 1, progress: false }), { message: /already holds a chain/ });
});

test('generate funds every sender enough, however many transfers each account has to send', async (t) => {
  const dataDir = tmp(t);
  // 3 users send 3000 transfers: about a thousand each, in core and user assets.
  await t.notThrowsAsync(() => runGenerate({ dataDir, accounts: 8, operations: 3000, seed: 5, progress: false }));
});

test('generate --orders: users trade the user assets and the smartcoins against the core asset, and about half the orders fill; some debt positions are margin-called', async (t) => {
  const dataDir = tmp(t);
  const summary = await runGenerate({ dataDir, accounts: 20, operations: 200, seed: 3, orders: 300, progress: false });
  const [, trades] = /orders: +300 \((\d+) trades\)/.exec(summary) ?? [];
  t.truthy(trades, summary);
  t.true(Number(trades) > 30, `${trades} trades`);
  const node = await startTestNode(t, { 'data-dir': dataDir });
  const top = (await call(node.httpUrl, 'database.get_top_markets', [10])).result as { base: string; quote: string; base_volume: string }[];
  t.deepEqual(top.map((m) => m.base).sort(), ['BTS', 'BTS', 'BTS', 'BTS', 'BTS']);
  t.deepEqual(top.map((m) => m.quote).sort(), ['SCNY', 'SUSD', 'XBTC', 'XEUR', 'XUSD']);
  // The smartcoins: debt positions, least collateralized first, and margin calls in the borrowers' history.
  const calls = (await call(node.httpUrl, 'database.get_call_orders', ['SUSD', 100])).result as { borrower: string; collateral: number; debt: number }[];
  t.true(calls.length > 0);
  const ratios = calls.map((c) => Number(c.collateral) / Number(c.debt));
  t.deepEqual([...ratios].sort((x, y) => x - y), ratios);
  const fills = (await call(node.httpUrl, 'history.get_fill_order_history', ['BTS', 'SUSD', 100])).result as { op: { order_id: string } }[];
  t.true(fills.some((f) => f.op.order_id.startsWith('1.8.')), 'a margin call filled');
  const book = (await call(node.httpUrl, 'database.get_order_book', ['BTS', 'XUSD', 50])).result as { bids: unknown[]; asks: unknown[] };
  t.true(book.bids.length > 0 && book.asks.length > 0);
  // The book does not cross: every order that could fill did.
  const bid = Number((book.bids[0] as { price: string }).price);
  const ask = Number((book.asks[0] as { price: string }).price);
  t.true(bid < ask, `highest bid ${bid} below lowest ask ${ask}`);
  t.true(((await call(node.httpUrl, 'history.get_fill_order_history', ['BTS', 'XUSD', 10])).result as unknown[]).length > 0);
});

test('a generated chain is exactly the chain that applying its blocks one by one through applyBlock makes', async (t) => {
  // generate applies blocks in batches, straight into one write transaction, with keys and signatures
  // from the signer thread; here every block it wrote is applied again, each in its own transaction
  // as a node applies blocks, to a store made from the same genesis, and the two stores must hold
  // the same keys and bytes in every table: objects, history, indexes, blocks and their ids.
  const generated = tmp(t);
  await runGenerate({ dataDir: generated, accounts: 40, operations: 3000, seed: 11, orders: 300, progress: false });
  const replayed = tmp(t);
  const a = openChainStore(generated);
  t.teardown(() => a.close());
  const b = openChainStore(replayed);
  t.teardown(() => b.close());
  const { genesis, chainId } = loadGenesis(BUNDLED_GENESIS);
  initChain(b, genesis, chainId);
  const head = JSON.parse(a.objects.get([2, 1, 0])!.toString()).head_block_number as number;
  t.true(head > 5);
  const key = privateKeyFromWif(DEV_BLOCK_SIGNING_WIF);
  for (let n = 1; n <= head; n++) {
    const block = JSON.parse(a.blocks.get(n)!.toString()) as { timestamp: string; transactions: (SignedTransactionJson & { operation_results?: unknown })[] };
    const transactions = block.transactions.map(({ operation_results: _results, ...trx }) => trx);
    applyBlock(b, { timestamp: parseFcTime(block.timestamp), transactions }, key);
  }
  let compared = 0;
  for (const [name, table] of Object.entries(a)) {
    if (name === 'root' || typeof table !== 'object' || !('getRange' in table)) continue;
    const other = (b as unknown as Record<string, typeof table>)[name]!;
    const entries = (db: typeof table) =>
      [...db.getRange({})]
        // generate's summary, which the command writes after the chain
        .filter(({ key }) => !(name === 'meta' && key === 'generated'))
        .map(({ key, value }) => ({ key: JSON.stringify(key), value: Buffer.isBuffer(value) ? value.toString('base64') : JSON.stringify(value) }));
    const [x, y] = [entries(table), entries(other)];
    t.is(x.length, y.length, `table ${name}: as many entries`);
    const firstDifference = x.findIndex((e, i) => e.key !== y[i]?.key || e.value !== y[i]?.value);
    t.is(firstDifference, -1, `table ${name}: first difference at ${JSON.stringify(x[firstDifference])} / ${JSON.stringify(y[firstDifference])}`);
    compared += x.length;
  }
  // Every table that holds anything was compared: objects, history, pages, orders, market history, the feed.
  t.true(compared > 20_000, `${compared} entries compared`);
});

test('generate charges every operation the fee the fee schedule requires', async (t) => {
  const dataDir = tmp(t);
  await runGenerate({ dataDir, accounts: 30, operations: 1000, seed: 2, orders: 100, progress: false });
  const store = openChainStore(dataDir, { readOnly: true });
  t.teardown(() => store.close());
  const schedule = (JSON.parse(store.objects.get([2, 0, 0])!.toString()) as { parameters: { current_fees: FeeSchedule } }).parameters.current_fees;
  const head = JSON.parse(store.objects.get([2, 1, 0])!.toString()).head_block_number as number;
  const types = new Set<number>();
  for (let n = 1; n <= head; n++) {
    for (const trx of (JSON.parse(store.blocks.get(n)!.toString()) as { transactions: SignedTransactionJson[] }).transactions) {
      for (const op of trx.operations) {
        const charged = (op[1].fee as { amount: number | string }).amount;
        const copy = JSON.parse(JSON.stringify(op)) as OperationJson;
        t.is(String(charged), String(requiredFee(copy, schedule)), `${JSON.stringify(op)}`);
        types.add(op[0]);
      }
    }
  }
  // accounts, assets, issues, transfers (with and without memos) and orders
  // transfers, orders, accounts, borrowing (3), assets, feed producers (13), issues, feeds (19)
  t.deepEqual([...types].sort((x, y) => x - y), [0, 1, 3, 5, 10, 13, 14, 19]);
});
