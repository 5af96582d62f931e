// A store made before the operation index (schema 1) is upgraded when the node opens it: the index
// is built from the stored operations, the schema marker moves on, and the history calls answer the
// same bytes as on a store written with the index. Read-only handles refuse an old store. A store made
// before account storage (schema 3) gains its empty index the same way. A store made before the
// account history pages (schema 4) gets its pages built, and answers the same bytes.
import test, { type ExecutionContext } from 'ava';
import { DEV_WIF, makeChain, op } from './helpers/chain.js';
import { applyBlock } from '../src/chain/node/block-applier.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { packStorageMap } from '../src/chain/plugins/account-storage.js';
import { httpPost } from './helpers/clients.js';
import { openChainStore, SCHEMA_VERSION } from '../src/chain/store/store.js';
import { PAGE_SIZE } from '../src/chain/plugins/history-pages.js';
import { writeAscendingPages } from './helpers/ascending-pages.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const BOB = '1.2.8';

/** History calls that read op type, trx_in_block and block_time through the index. */
const CALLS = [
  ['get_account_history_operations', [NATHAN, 0, '1.11.0', '1.11.0', 100]],
  ['get_account_history_operations', [NATHAN, 5, '1.11.0', '1.11.0', 100]],
  ['get_account_history_by_operations', [ALICE, [0, 14], 0, 100]],
  ['get_block_operation_history', [2, 1]],
  ['get_block_operation_history', [3]],
  ['get_account_history_by_time', [NATHAN, 100, '2026-01-01T00:00:07']],
  ['get_account_history_by_time', [BOB, 2, null]],
  ['get_block_operations_by_time', ['2026-01-01T00:00:06']],
  ['get_block_operations_by_time', [null]],
] as const;

async function replies(url: string): Promise<string[]> {
  const out: string[] = [];
  for (const [method, params] of CALLS) out.push((await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: ['history', method, params] }))).text);
  return out;
}

test('the node builds the operation index of a store made without it, and answers as before', async (t) => {
  const chain = makeChain(t);
  chain.block([op.transfer(NATHAN, '1.2.0', 1000)], [op.accountCreate('alice')], [op.accountCreate('bob')]);
  chain.block([op.transfer(NATHAN, ALICE, 5_000_000), op.transfer(NATHAN, BOB, 3_000_000)], [op.assetCreate('GOLD')]);
  chain.block([op.assetIssue('1.3.1', ALICE, 500)], [op.transfer(ALICE, BOB, 7), op.transfer(BOB, NATHAN, 1)]);
  const written = [...chain.store.operationIndex.getRange({})].map(({ key, value }) => [key, value]);
  t.is(written.length, 9);
  const first = await chain.serve();
  const expected = await replies(first.httpUrl);
  // Every call finds operations, so that the comparison below compares something.
  for (const [i, r] of expected.entries()) t.regex(r, /"id":"1\.11\.\d+"/, CALLS[i]![0]);
  await first.node.close();

  // What an older version left: no operation_index database at all, schema 1.
  const old = openChainStore(chain.dataDir);
  await old.operationIndex.drop();
  await old.meta.put('schema', '1');
  await old.close();
  t.throws(() => openChainStore(chain.dataDir, { readOnly: true }), { message: new RegExp(`has schema 1, and this version reads schema ${SCHEMA_VERSION}`) });

  const upgraded = await chain.serve();
  t.deepEqual(await replies(upgraded.httpUrl), expected);
  await upgraded.node.close();
  const store = openChainStore(chain.dataDir, { readOnly: true });
  t.teardown(() => store.close());
  t.is(store.meta.get('schema'), SCHEMA_VERSION);
  t.deepEqual([...store.operationIndex.getRange({})].map(({ key, value }) => [key, value]), written);
});

/** Every call that reads the account history pages. */
const PAGED = [
  ['get_account_history', [NATHAN, '1.11.0', 100, '1.11.0']],
  ['get_account_history', [ALICE, '1.11.2', 2, '1.11.8']],
  ['get_relative_account_history', [BOB, 0, 100, 0]],
  ['get_relative_account_history', [NATHAN, 2, 3, 4]],
  ['get_account_history_operations', [NATHAN, 0, '1.11.0', '1.11.0', 100]],
  ['get_account_history_by_operations', [ALICE, [0], 0, 100]],
  ['get_account_history_by_time', [NATHAN, 100, null]],
] as const;

type Chain = ReturnType<typeof makeChain>;
type PagedCall = readonly [string, readonly unknown[]];

/** The history pages' records, as hex. */
const pageRecords = (store: ReturnType<typeof openChainStore>) => [...store.accountPages.getRange({})].map(({ key, value }) => [key, Buffer.from(value).toString('hex')]);

/**
 * The history calls answered on `chain`; then `makeOld` turns its store into an older schema's; then
 * the node that upgrades it must answer the same bytes, and leave the same records as the writer made.
 * Returns the records, for checks of their own.
 */
async function upgradesToSamePages(t: ExecutionContext, chain: Chain, calls: readonly PagedCall[], makeOld: (store: ReturnType<typeof openChainStore>, pages: unknown[]) => Promise<void>) {
  const call = async (url: string) => {
    const out: string[] = [];
    for (const [method, params] of calls) out.push((await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: ['history', method, params] }))).text);
    return out;
  };
  const first = await chain.serve();
  const expected = await call(first.httpUrl);
  for (const [i, r] of expected.entries()) t.regex(r, /"id":"1\.11\.\d+"/, calls[i]![0]);
  await first.node.close();

  const old = openChainStore(chain.dataDir);
  const pages = pageRecords(old);
  await makeOld(old, pages);
  await old.close();

  const upgraded = await chain.serve();
  t.deepEqual(await call(upgraded.httpUrl), expected);
  await upgraded.node.close();
  const store = openChainStore(chain.dataDir, { readOnly: true });
  t.teardown(() => store.close());
  t.is(store.meta.get('schema'), SCHEMA_VERSION);
  t.deepEqual(pageRecords(store), pages, 'the same records as the writer made');
  return pages;
}

test('the node builds the history pages of a store made without them, and answers the same bytes', async (t) => {
  const chain = makeChain(t);
  chain.block([op.transfer(NATHAN, '1.2.0', 1000)], [op.accountCreate('alice')], [op.accountCreate('bob')]);
  chain.block([op.transfer(NATHAN, ALICE, 5_000_000), op.transfer(NATHAN, BOB, 3_000_000)], [op.assetCreate('GOLD')]);
  chain.block([op.assetIssue('1.3.1', ALICE, 500)], [op.transfer(ALICE, BOB, 7), op.transfer(BOB, NATHAN, 1)]);
  const pages = await upgradesToSamePages(t, chain, PAGED, async (old) => {
    await old.accountPages.drop();
    await old.meta.put('schema', '4');
  });
  t.true(pages.length >= 3);
});

test('a store made before account storage (schema 3) opens, and custom operations store into it from then on', async (t) => {
  const chain = makeChain(t);
  chain.block([op.transfer(NATHAN, '1.2.0', 1000)]);
  // What the version before left: no account_storage database, schema 3.
  await chain.store.accountStorage.drop();
  await chain.store.meta.put('schema', '3');
  const node = await chain.serve();
  const storage = async (): Promise<unknown> => JSON.parse((await httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['custom_operations', 'get_storage_info', []] }))).text).result;
  t.deepEqual(await storage(), []);
  await node.node.close();
  const store = openChainStore(chain.dataDir);
  t.is(store.meta.get('schema'), SCHEMA_VERSION);
  const data = Buffer.from(packStorageMap({ remove: false, catalog: 'c', keyValues: [['k', '1']] })).toString('hex');
  const custom = op.custom(NATHAN, data);
  custom[1].fee = { amount: 200_000, asset_id: '1.3.0' };
  const time = parseFcTime('2026-01-01T01:00:00');
  applyBlock(store, { timestamp: time, transactions: [{ ref_block_num: 0, ref_block_prefix: 0, expiration: fcTime(time + 60), operations: [custom], extensions: [], signatures: [] }] }, privateKeyFromWif(DEV_WIF));
  await store.close();
  const again = await chain.serve();
  const reply = JSON.parse((await httpPost(again.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['custom_operations', 'get_storage_info', []] }))).text);
  t.deepEqual(reply.result, [{ id: '7.0.0', account: NATHAN, catalog: 'c', key: 'k', value: 1 }]);
});

test('a store made before proposals and HTLCs (schema 5) opens with their empty indexes, keeps its history pages, and proposals index into them from then on', async (t) => {
  const chain = makeChain(t);
  chain.block([op.transfer(NATHAN, '1.2.0', 1000)]);
  const pages = [...chain.store.accountPages.getRange({})].length;
  // What the version before left: no proposal or HTLC index databases, pages oldest first, schema 5.
  await writeAscendingPages(chain.store);
  await chain.store.proposalIndex.drop();
  await chain.store.htlcIndex.drop();
  await chain.store.meta.put('schema', '5');
  const node = await chain.serve();
  const proposed = async (): Promise<unknown> => JSON.parse((await httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['database', 'get_proposed_transactions', ['nathan']] }))).text).result;
  t.deepEqual(await proposed(), []);
  await node.node.close();
  const store = openChainStore(chain.dataDir);
  t.is(store.meta.get('schema'), SCHEMA_VERSION);
  t.is([...store.accountPages.getRange({})].length, pages, 'the history pages are not built a second time');
  const time = parseFcTime('2026-01-01T01:00:00');
  const proposal: [number, Record<string, unknown>] = [22, { fee: { amount: 3_000_000, asset_id: '1.3.0' }, fee_paying_account: NATHAN, expiration_time: fcTime(time + 3600), proposed_ops: [{ op: [0, { fee: { amount: 100_000, asset_id: '1.3.0' }, from: NATHAN, to: '1.2.5', amount: { amount: 5, asset_id: '1.3.0' }, extensions: [] }] }], extensions: [] }];
  applyBlock(store, { timestamp: time, transactions: [{ ref_block_num: 0, ref_block_prefix: 0, expiration: fcTime(time + 60), operations: [proposal], extensions: [], signatures: [] }] }, privateKeyFromWif(DEV_WIF));
  await store.close();
  const again = await chain.serve();
  const reply = JSON.parse((await httpPost(again.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['database', 'get_proposed_transactions', ['nathan']] }))).text);
  t.deepEqual(reply.result.map((p: { id: string }) => p.id), ['1.10.0']);
});

test('a store made before the governance index (schema 6) opens with its genesis witness found by account and vote id', async (t) => {
  const chain = makeChain(t);
  chain.block([op.transfer(NATHAN, '1.2.0', 1000)]);
  const witness = JSON.parse(chain.store.objects.get([1, 6, 0])!.toString('utf8')) as { witness_account: string; vote_id: string };
  // What the version before left: no governance database, pages oldest first, schema 6.
  await writeAscendingPages(chain.store);
  await chain.store.governance.drop();
  await chain.store.meta.put('schema', '6');
  const node = await chain.serve();
  const call = async (method: string, params: unknown[]): Promise<unknown> => JSON.parse((await httpPost(node.httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['database', method, params] }))).text).result;
  t.is(((await call('get_witness_by_account', [witness.witness_account])) as { id: string }).id, '1.6.0');
  t.deepEqual(((await call('lookup_vote_ids', [[witness.vote_id]])) as { id: string }[]).map((w) => w.id), ['1.6.0']);
  t.deepEqual(await call('get_vesting_balances', [NATHAN]), []);
  await node.node.close();
  const store = openChainStore(chain.dataDir, { readOnly: true });
  t.teardown(() => store.close());
  t.is(store.meta.get('schema'), SCHEMA_VERSION);
});

test('a store whose history pages are oldest first (schema 8) has them rewritten newest first, and answers the same bytes', async (t) => {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')], [op.accountCreate('bob')]);
  // Enough of nathan's operations for three records, in blocks of different sizes, and some of alice's and bob's.
  for (const n of [1, 50, 100, 3, 130, 1]) {
    const ops = Array.from({ length: n }, (_, i) => op.transfer(NATHAN, i % 3 === 0 ? ALICE : BOB, 1000 + i));
    chain.block(...Array.from({ length: Math.ceil(n / 50) }, (_, k) => ops.slice(k * 50, k * 50 + 50)));
  }
  chain.block([op.transfer(ALICE, BOB, 7), op.transfer(BOB, NATHAN, 1)]);
  const calls: PagedCall[] = [
    ...PAGED,
    ['get_account_history', [NATHAN, '1.11.0', 100, '1.11.0']],
    ['get_relative_account_history', [NATHAN, 0, 100, 0]],
    ['get_relative_account_history', [NATHAN, 100, 100, 250]],
    ['get_relative_account_history', [NATHAN, 1, 100, PAGE_SIZE + 1]],
    ['get_account_history', [NATHAN, '1.11.150', 100, '1.11.200']],
    ['get_account_history_by_operations', [NATHAN, [], 120, 100]],
  ];
  const pages = await upgradesToSamePages(t, chain, calls, async (old, written) => {
    await writeAscendingPages(old);
    t.notDeepEqual(pageRecords(old), written, 'laid out as before');
    await old.meta.put('schema', '8');
  });
  t.true(pages.length >= 5, `${pages.length} records`);
});
