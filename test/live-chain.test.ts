// A chain that moves: blocks on demand and on an interval, broadcasts of signed transactions, their
// refusals, and the confirmation callbacks — against a real node.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpPost, connectWs } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { headAtLeast, nextPending } from './helpers/blocks.js';
import { DEBUG_USER, generateBlocks, startDevnet } from './helpers/devnet.js';

const KEY2 = '5JWcdkhL3w4RkVPcZMdJsjos22yB5cSkPExerktvKnRNZR5gx1S';

test('debug_generate_blocks produces signed, linked blocks and advances the dynamic global properties', async (t) => {
  const { httpUrl } = await startDevnet(t);
  t.is((await generateBlocks(httpUrl, 3)).result, null);
  const dgp = (await rpc(httpUrl, 'database', 'get_dynamic_global_properties', [])).result;
  t.is(dgp.head_block_number, 3);
  t.is(dgp.head_block_id.slice(0, 8), '00000003');
  t.is(dgp.last_irreversible_block_num, 2);
  t.is(typeof dgp.recent_slots_filled, 'string');
  const b3 = (await rpc(httpUrl, 'database', 'get_block', [3])).result;
  const b2 = (await rpc(httpUrl, 'database', 'get_block_header', [2])).result;
  t.is(b3.witness, '1.6.0');
  t.regex(b3.witness_signature, /^[0-9a-f]{130}$/);
  t.is(b3.transaction_merkle_root, '0'.repeat(40));
  t.truthy(b2.previous);
  t.not(b3.previous, b2.previous);
});

test('the debug API is restricted: the default user may not get it, and a wrong key is refused', async (t) => {
  const { httpUrl } = await startDevnet(t);
  t.regex((await rpc(httpUrl, 'debug', 'debug_generate_blocks', [DEV_WIF, 1])).error.message, /Access denied/);
  t.regex((await rpc(httpUrl, 'debug', 'debug_generate_blocks', [KEY2, 1], DEBUG_USER)).error.message, /debug_key must be the block signing key/);
});

test('a signed transfer is accepted, lands in the next block, and shows in both accounts\' history', async (t) => {
  const { httpUrl } = await startDevnet(t);
  await generateBlocks(httpUrl, 1);
  const trx = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.0', 12345)], [DEV_WIF]);
  t.deepEqual(await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [trx]), { id: 1, result: null });
  await generateBlocks(httpUrl, 1);
  const history = (await rpc(httpUrl, 'history', 'get_account_history', ['committee-account', '1.11.0', 10, '1.11.0'])).result;
  t.is(history.length, 1);
  t.is(history[0].op[1].amount.amount, 12345);
  t.is(history[0].block_num, 2);
  const block = (await rpc(httpUrl, 'database', 'get_block', [2])).result;
  t.deepEqual(block.transactions[0].operation_results, [[0, {}]]);
  t.deepEqual(block.transactions[0].signatures, trx.signatures);
});

test('broadcast_transaction_synchronous replies with the confirmation once the block is produced', async (t) => {
  const node = await startDevnet(t, { 'block-interval': '1' });
  const { httpUrl } = node;
  // The genesis head is months old: sign once the producer has brought the head time to now.
  await headAtLeast(node, 1);
  const trx = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.1', 777)], [DEV_WIF]);
  const reply = await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction_synchronous', [trx]);
  t.regex(reply.result.id, /^[0-9a-f]{40}$/);
  t.true(reply.result.block_num >= 1);
  t.is(reply.result.trx_num, 0);
  t.deepEqual(reply.result.trx.operation_results, [[0, {}]]);
});

test('broadcast_transaction_with_callback replies null, then sends the confirmation notice after the block', async (t) => {
  const { wsUrl, httpUrl } = await startDevnet(t);
  await generateBlocks(httpUrl, 1);
  const ws = await connectWs(t, wsUrl);
  const netId = (await ws.call({ id: 1, method: 'call', params: [1, 'network_broadcast', []] })).result;
  const trx = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.2', 4242)], [DEV_WIF]);
  t.deepEqual(await ws.call({ id: 2, method: 'call', params: [netId, 'broadcast_transaction_with_callback', [2, trx]] }), { id: 2, result: null });
  t.true(await ws.drained(), 'no notice before the block');
  await generateBlocks(httpUrl, 1);
  const notice = JSON.parse(await ws.next());
  t.is(notice.method, 'notice');
  t.is(notice.params[0], 2);
  const [c] = notice.params[1];
  t.deepEqual(Object.keys(c), ['id', 'block_num', 'trx_num', 'trx']);
  t.is(c.block_num, 2);
  t.deepEqual(c.trx.operations, trx.operations);
  t.false('id' in notice);
});

test('callbacks are refused over HTTP with a clear error', async (t) => {
  const { httpUrl } = await startDevnet(t);
  const trx = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.2', 1)], [DEV_WIF]);
  t.regex((await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction_with_callback', [1, trx])).error.message, /needs a WebSocket connection/);
});

test('each refusal reason of a transaction says what is wrong', async (t) => {
  const { httpUrl } = await startDevnet(t);
  await generateBlocks(httpUrl, 2);
  const refuse = async (trx: unknown) => (await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [trx])).error?.message as string;
  const transfer = () => [op.transfer('1.2.6', '1.2.0', 100)];
  // Not signed at all.
  const unsigned = { ...(await signedTx(httpUrl, transfer(), [DEV_WIF])), signatures: [] };
  t.regex(await refuse(unsigned), /not signed/);
  // Signed by a key that is not nathan's.
  t.regex(await refuse(await signedTx(httpUrl, transfer(), [KEY2])), /Missing Active Authority 1\.2\.6/);
  // Signed twice by the same key.
  t.regex(await refuse(await signedTx(httpUrl, transfer(), [DEV_WIF, DEV_WIF])), /Duplicate Signature/);
  // More than the account has.
  t.regex(await refuse(await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.0', '900000000000000')], [DEV_WIF])), /Insufficient Balance/);
  // Unknown account.
  t.regex(await refuse(await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.999', 1)], [DEV_WIF])), /1\.2\.999 does not exist/);
  // Expired, and too far in the future.
  t.regex(await refuse(await signedTx(httpUrl, transfer(), [DEV_WIF], { expiresIn: -10 })), /expired/);
  t.regex(await refuse(await signedTx(httpUrl, transfer(), [DEV_WIF], { expiresIn: 90000 })), /more than 86400 s after the head block time/);
  // TaPoS naming no block of this chain.
  t.regex(await refuse(await signedTx(httpUrl, transfer(), [DEV_WIF], { refBlockPrefix: 12345 })), /TaPoS/);
  // Fee below the schedule.
  t.regex(await refuse(await signedTx(httpUrl, transfer(), [DEV_WIF], { fee: 1 })), /Insufficient Fee Paid/);
  // The same transaction twice.
  const once = await signedTx(httpUrl, transfer(), [DEV_WIF]);
  t.is((await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction', [once])).result, null);
  t.regex(await refuse(once), /already in the database/);
  // A signature that is valid but not canonical (s replaced by n - s flips its top bit).
  const good = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.0', 101)], [DEV_WIF]);
  const sig = Buffer.from((good.signatures as string[])[0]!, 'hex');
  const n = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
  const flipped = (n - BigInt('0x' + sig.subarray(33).toString('hex'))).toString(16).padStart(64, '0');
  const nonCanonical = Buffer.concat([Buffer.from([sig[0]! ^ 1]), sig.subarray(1, 33), Buffer.from(flipped, 'hex')]).toString('hex');
  t.regex(await refuse({ ...good, signatures: [nonCanonical] }), /is not canonical/);
  // An operation this chain does not have.
  t.regex(await refuse({ ...once, operations: [[9, {}]] }), /not supported on this chain/);
});

test('blocks are produced on the interval, also when empty', async (t) => {
  const node = await startDevnet(t, { 'block-interval': '1' });
  const { httpUrl } = node;
  const before = (await rpc(httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number;
  await headAtLeast(node, before + 1);
  const after = (await rpc(httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number;
  t.true(after >= before + 1, `head moved from ${before} to ${after}`);
  void httpPost;
});

test('a synchronous broadcast whose transaction expires while pending is answered with the reason', async (t) => {
  const node = await startDevnet(t);
  const { httpUrl } = node;
  // Signed at the genesis head, which is months old: valid now, expired by the next block's time.
  const trx = await signedTx(httpUrl, [op.transfer('1.2.6', '1.2.1', 5)], [DEV_WIF]);
  const queued = nextPending(node);
  const pending = rpc(httpUrl, 'network_broadcast', 'broadcast_transaction_synchronous', [trx]);
  await queued;
  await generateBlocks(httpUrl, 1);
  t.regex((await pending).error.message, /expired at .* before block time/);
});

test('get_global_properties reports the block interval the node produces at, also for a store made with another', async (t) => {
  const interval = async (url: string) => (await rpc(url, 'database', 'get_global_properties', [])).result.parameters.block_interval;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-interval-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startDevnet(t, { 'block-interval': '7', 'data-dir': dataDir });
  t.is(await interval(first.httpUrl), 7);
  await first.node.close();
  const second = await startDevnet(t, { 'block-interval': '1', 'data-dir': dataDir });
  t.is(await interval(second.httpUrl), 1, 'the stored 2.0.0 follows --block-interval at start-up');
  await second.node.close();
  // On demand, GRAPHENE_MIN_BLOCK_INTERVAL: Core refuses 0 and clients divide by it.
  const third = await startDevnet(t, { 'block-interval': '0', 'data-dir': dataDir });
  t.is(await interval(third.httpUrl), 1);
});
