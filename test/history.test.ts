// get_account_history windowing against a real store: BitShares Core's own cases
// (tests/tests/history_api_tests.cpp, get_account_history_additional; reference §4.11).
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChainStore } from '../src/chain/store/store.js';
import { BUNDLED_GENESIS, loadGenesis } from '../src/chain/node/genesis.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { initChain, applyBlock, type SignedTransactionJson } from '../src/chain/node/block-applier.js';
import { parseFcTime } from '../src/chain/fc/fc-json.js';
import { startTestNode } from './helpers/node.js';
import { httpPost } from './helpers/clients.js';
import { DEV_WIF } from './helpers/chain.js';

const transfer = (from: number, to: number, n: number): SignedTransactionJson => ({
  ref_block_num: 0,
  ref_block_prefix: 0,
  expiration: '2026-01-01T00:01:00',
  operations: [[0, { fee: { amount: 0, asset_id: '1.3.0' }, from: `1.2.${from}`, to: `1.2.${to}`, amount: { amount: 1000 - n, asset_id: '1.3.0' }, extensions: [] }]],
  extensions: [],
  signatures: [],
});

// Operations 1.11.0 … 1.11.5, all in block 1 through the chain writer: account A = nathan (1.2.6)
// is in {0, 1, 3, 5}; committee-account (1.2.0) in {0, 2, 4, 5}.
async function nodeWithHistory(t: any) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-history-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = openChainStore(dataDir);
  const { genesis, chainId } = loadGenesis(BUNDLED_GENESIS);
  initChain(store, genesis, chainId);
  applyBlock(
    store,
    { timestamp: parseFcTime('2026-01-01T00:00:03'), transactions: [transfer(6, 0, 0), transfer(6, 1, 1), transfer(0, 1, 2), transfer(6, 2, 3), transfer(1, 0, 4), transfer(0, 6, 5)] },
    privateKeyFromWif(DEV_WIF),
  );
  await store.close();
  return startTestNode(t, { 'data-dir': dataDir });
}

async function history(url: string, account: string, stop: number, limit: number, start: number): Promise<string[]> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'call', params: ['history', 'get_account_history', [account, `1.11.${stop}`, limit, `1.11.${start}`]] });
  const reply = JSON.parse((await httpPost(url, body)).text);
  return reply.result.map((o: { id: string }) => o.id);
}

test('get_account_history returns the account operations in (stop, start], newest first, as Core does', async (t) => {
  const { httpUrl } = await nodeWithHistory(t);
  const ids = (...n: number[]) => n.map((i) => `1.11.${i}`);
  t.deepEqual(await history(httpUrl, 'nathan', 0, 4, 4), ids(3, 1, 0));
  t.deepEqual(await history(httpUrl, 'nathan', 1, 5, 9), ids(5, 3));
  t.deepEqual(await history(httpUrl, 'nathan', 1, 5, 1), ids());
  t.deepEqual(await history(httpUrl, 'nathan', 0, 4, 0), ids(5, 3, 1, 0));
});

test('get_account_history pages with the limit and resolves ids as well as names', async (t) => {
  const { httpUrl } = await nodeWithHistory(t);
  const ids = (...n: number[]) => n.map((i) => `1.11.${i}`);
  t.deepEqual(await history(httpUrl, '1.2.6', 0, 2, 0), ids(5, 3));
  t.deepEqual(await history(httpUrl, '1.2.6', 0, 2, 2), ids(1, 0));
  t.deepEqual(await history(httpUrl, 'committee-account', 0, 100, 0), ids(5, 4, 2, 0));
  t.deepEqual(await history(httpUrl, 'no-such-account', 0, 100, 0), ids());
});

test('history objects are served in the reference shape and statistics count the operations', async (t) => {
  const { httpUrl } = await nodeWithHistory(t);
  const body = JSON.stringify({ id: 1, method: 'call', params: ['history', 'get_account_history', ['nathan', '1.11.4', 1, '1.11.0']] });
  t.is(
    (await httpPost(httpUrl, body)).text,
    '{"id":1,"result":[{"id":"1.11.5","op":[0,{"fee":{"amount":0,"asset_id":"1.3.0"},"from":"1.2.0","to":"1.2.6","amount":{"amount":995,"asset_id":"1.3.0"},"extensions":[]}],"result":[0,{}],"block_num":1,"trx_in_block":5,"op_in_trx":0,"virtual_op":0,"is_virtual":false,"block_time":"2026-01-01T00:00:03"}]}',
  );
  const stats = JSON.parse((await httpPost(httpUrl, JSON.stringify({ id: 2, method: 'get_objects', params: [['2.6.6']] }))).text).result[0];
  t.is(stats.total_ops, 4);
});
