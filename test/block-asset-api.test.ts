// block_api.get_blocks and asset_api against a real node (reference §4.5, §4.7; api.cpp). Both sets
// are restricted: the node runs with test/fixtures/api-access.json, whose user2 is granted them.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { basic, httpPost, WsClient, connectWs } from './helpers/clients.js';
import { fixture } from './helpers/node.js';

const NATHAN = '1.2.6';
const USER2 = { authorization: basic('user2', 'superpassword2') };

/**
 * Blocks 1–4. GOLD (1.3.1) ends with carol 5000000000, alice 1000, bob 1000 and dave 0 (he gave his
 * 500 away); SILVER (1.3.2) has no balance objects at all; BTS is held by nathan and alice.
 */
async function assetChain(t: ExecutionContext) {
  const chain = makeChain(t);
  chain.block([op.accountCreate('alice')], [op.accountCreate('bob')], [op.accountCreate('carol')], [op.accountCreate('dave')]);
  chain.block([op.assetCreate('GOLD')], [op.assetCreate('SILVER')], [op.transfer(NATHAN, '1.2.7', 100)]);
  chain.block([op.assetIssue('1.3.1', '1.2.7', 500), op.assetIssue('1.3.1', '1.2.8', 1000), op.assetIssue('1.3.1', '1.2.9', '5000000000'), op.assetIssue('1.3.1', '1.2.10', 500)]);
  chain.block([op.transfer('1.2.10', '1.2.7', 500, '1.3.1')]);
  const stored = (n: number) => chain.store.blocks.getBinaryFast(n)?.toString('utf8', 0, chain.store.blocks.getBinaryFast(n)!.length);
  const blocks = [1, 2, 3, 4].map(stored) as string[];
  const node = await chain.serve({ 'api-access': fixture('api-access.json') });
  return { node, blocks };
}

async function call(url: string, api: string, method: string, params: unknown[]): Promise<{ status: number; text: string; body: any }> {
  const reply = await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: [api, method, params] }), USER2);
  return { status: reply.status, text: reply.text, body: JSON.parse(reply.text) };
}

test('get_blocks returns the inclusive range as the stored signed blocks, null where there is no block', async (t) => {
  const { node, blocks } = await assetChain(t);
  const url = node.httpUrl;
  t.is((await call(url, 'block', 'get_blocks', [1, 3])).text, `{"id":1,"result":[${blocks[0]},${blocks[1]},${blocks[2]}]}`);
  t.is((await call(url, 'block', 'get_blocks', [3, 6])).text, `{"id":1,"result":[${blocks[2]},${blocks[3]},null,null]}`);
  t.is((await call(url, 'block', 'get_blocks', [2, 2])).text, `{"id":1,"result":[${blocks[1]}]}`);
  t.is((await call(url, 'block', 'get_blocks', [0, 0])).text, '{"id":1,"result":[null]}', 'there is no block 0');
  t.is((await call(url, 'block', 'get_blocks', ['4', '4'])).text, `{"id":1,"result":[${blocks[3]}]}`, 'numbers may come as strings');
  const first = (await call(url, 'block', 'get_blocks', [1, 1])).body.result[0];
  t.deepEqual(Object.keys(first), ['previous', 'timestamp', 'witness', 'transaction_merkle_root', 'extensions', 'witness_signature', 'transactions']);
  t.is(first.transactions.length, 4);
});

test('get_blocks asserts block_num_to >= block_num_from, and caps the range', async (t) => {
  const { node } = await assetChain(t);
  const url = node.httpUrl;
  const reversed = await call(url, 'block', 'get_blocks', [3, 2]);
  t.is(reversed.status, 200);
  t.is(reversed.body.error.code, 10);
  t.is(reversed.body.error.message, 'Execution error: Assert Exception: block_num_to >= block_num_from: ');
  t.is(reversed.body.error.data.stack[0].format, 'block_num_to >= block_num_from: ');
  t.is((await call(url, 'block', 'get_blocks', [0, 9999])).body.result.length, 10_000);
  const big = await call(url, 'block', 'get_blocks', [0, 10_000]);
  t.is(big.body.error.message, 'Execution error: Assert Exception: block_num_to - block_num_from < max_blocks: get_blocks returns at most 10000 blocks per call');
  t.regex((await call(url, 'block', 'get_blocks', [1])).body.error.message, /too few arguments passed to method/);
  // Without credentials the set is not granted by this access file.
  const anon = JSON.parse((await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: ['block', 'get_blocks', [1, 1]] }))).text);
  t.is(anon.error.message, 'Execution error: Assert Exception: is_allowed: Access denied');
});

test('get_asset_holders: by amount descending then account id, zero balances skipped, start counts holders', async (t) => {
  const { node } = await assetChain(t);
  const url = node.httpUrl;
  const holders = async (...p: unknown[]) => (await call(url, 'asset', 'get_asset_holders', p)).body.result;
  const carol = { name: 'carol', account_id: '1.2.9', amount: '5000000000' };
  const alice = { name: 'alice', account_id: '1.2.7', amount: 1000 };
  const bob = { name: 'bob', account_id: '1.2.8', amount: 1000 };
  t.deepEqual(await holders('GOLD', 0, 100), [carol, alice, bob]);
  t.deepEqual(await holders('1.3.1', 0, 2), [carol, alice]);
  t.deepEqual(await holders('GOLD', 1, 100), [alice, bob]);
  t.deepEqual(await holders('GOLD', 2, 1), [bob]);
  t.deepEqual(await holders('GOLD', 3, 100), []);
  t.deepEqual(await holders('GOLD', 0, 0), []);
  t.deepEqual(await holders('SILVER', 0, 100), []);
  t.deepEqual(await holders('BTS', 0, 100), [
    { name: 'nathan', account_id: '1.2.6', amount: '99999999999900' },
    { name: 'alice', account_id: '1.2.7', amount: 100 },
  ]);
  // Field order and number formats exactly: share_type above 2^31-1 is a string.
  t.is((await call(url, 'asset', 'get_asset_holders', ['GOLD', 0, 1])).text, '{"id":1,"result":[{"name":"carol","account_id":"1.2.9","amount":"5000000000"}]}');
});

test('get_asset_holders errors: the limit first, then the asset lookup', async (t) => {
  const { node } = await assetChain(t);
  const url = node.httpUrl;
  const error = async (...p: unknown[]) => (await call(url, 'asset', 'get_asset_holders', p)).body.error;
  t.is((await error('NOPE', 0, 101)).message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');
  t.is((await error('NOPE', 0, 10)).message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.is((await error('1.3.99', 0, 10)).message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.is((await error('', 0, 10)).message, 'Execution error: Assert Exception: no such asset');
  t.regex((await error('1.2.0', 0, 10)).message, /doesn't match expected value 1\.2\.0/);
  t.regex((await error('GOLD', 0)).message, /too few arguments passed to method/);
});

test('get_asset_holders_count and get_all_asset_holders count balance objects minus one, as Core does', async (t) => {
  const { node } = await assetChain(t);
  const url = node.httpUrl;
  const count = async (a: string) => (await call(url, 'asset', 'get_asset_holders_count', [a])).body;
  // alice, bob, carol and dave (whose balance is now 0) have GOLD balance objects: 4 - 1.
  t.deepEqual(await count('GOLD'), { id: 1, result: 3 });
  t.deepEqual(await count('1.3.0'), { id: 1, result: 1 });
  t.deepEqual(await count('SILVER'), { id: 1, result: -1 });
  t.is((await count('NOPE')).error.message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.is((await call(url, 'asset', 'get_all_asset_holders', [])).text, '{"id":1,"result":[{"asset_id":"1.3.0","count":1},{"asset_id":"1.3.1","count":3},{"asset_id":"1.3.2","count":-1}]}');
});

test('asset and block calls over WebSocket after logging in as user2', async (t) => {
  const { node, blocks } = await assetChain(t);
  const client = await connectWs(t, node.wsUrl);
  t.deepEqual(await client.call({ id: 1, method: 'call', params: [1, 'login', ['user2', 'superpassword2']] }), { id: 1, result: true });
  const asset = (await client.call({ id: 2, method: 'call', params: [1, 'asset', []] })).result as number;
  const block = (await client.call({ id: 3, method: 'call', params: [1, 'block', []] })).result as number;
  t.deepEqual(await client.call({ id: 4, method: 'call', params: [asset, 'get_asset_holders_count', ['GOLD']] }), { id: 4, result: 3 });
  client.send(JSON.stringify({ id: 5, method: 'call', params: [block, 'get_blocks', [4, 5]] }));
  t.is(await client.next(), `{"id":5,"result":[${blocks[3]},null]}`);
});
