// custom_operation and the custom_operations plugin over the wire, against a real devnet node:
// signed custom operations broadcast, produced into blocks, charged and recorded, their
// account_storage_map payloads stored and read back with custom_operations_api.get_storage_info
// (Core's own plugin test, custom_operations_account_storage_map_test, replayed call for call), and
// the node with the plugin turned off.
import test, { type ExecutionContext } from 'ava';
import { startTestNode, type TestNode } from './helpers/node.js';
import { connectWs, httpPost } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { DEBUG_USER, generateBlocks, startDevnet } from './helpers/devnet.js';
import { captureLogs } from './helpers/logs.js';
import { packStorageMap } from '../src/chain/plugins/account-storage.js';
import { packOperation, packSignedTransaction } from '../src/chain/protocol/serializer.js';
import { normaliseOperation } from '../src/chain/protocol/fees.js';
import { privateKeyFromWif, publicKeyOf } from '../src/chain/crypto/keys.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import type { Logger } from '../src/log.js';

// DEBUG_USER may use database_api, debug_api and custom_operations_api (the fixture); `*` may broadcast and read history.

const ALICE_WIF = '5JWcdkhL3w4RkVPcZMdJsjos22yB5cSkPExerktvKnRNZR5gx1S';
const ALICE_KEY = publicKeyOf(privateKeyFromWif(ALICE_WIF));
const NATHAN = '1.2.6';
const ALICE = '1.2.7';

const data = (catalog: string, keyValues: [string, string | null][], remove = false): string => Buffer.from(packStorageMap({ remove, catalog, keyValues })).toString('hex');
const json = (v: unknown): string => JSON.stringify(v);

interface Devnet {
  readonly node: TestNode;
  readonly url: string;
  /** Signs, broadcasts and produces a block; the broadcast's reply (an error reply is returned, no block made). */
  push(ops: OperationJson[], wifs?: string[], o?: { fee?: number }): Promise<{ result?: unknown; error?: { message: string }; trx: Record<string, unknown> }>;
  storage(...params: unknown[]): Promise<{ result?: Record<string, unknown>[]; error?: { message: string } }>;
  balance(account: string): Promise<number>;
}

async function devnet(t: ExecutionContext, options: Record<string, string> = {}, log?: Logger): Promise<Devnet> {
  const node = await startDevnet(t, options, { log, blocks: 1 });
  const url = node.httpUrl;
  const d: Devnet = {
    node,
    url,
    async push(ops, wifs = [DEV_WIF], o = {}) {
      const trx = await signedTx(url, ops, wifs, o);
      const reply = await rpc(url, 'network_broadcast', 'broadcast_transaction', [trx]);
      if (!reply.error) await generateBlocks(url);
      return { ...reply, trx };
    },
    storage: (...params) => rpc(url, 'custom_operations', 'get_storage_info', params, DEBUG_USER),
    async balance(account) {
      return Number((await rpc(url, 'database', 'get_account_balances', [account, ['1.3.0']])).result[0].amount);
    },
  };
  // alice, with a key of her own, and money for fees
  t.is((await d.push([op.accountCreate('alice', ALICE_KEY)])).error, undefined);
  t.is((await d.push([op.transfer(NATHAN, ALICE, 100_000_000)])).error, undefined);
  return d;
}

test('a custom_operation with an account_storage_map is charged its fee, kept in history and block, and its storage read back', async (t) => {
  const d = await devnet(t);
  const ops = [op.custom(NATHAN, data('settings', [['language', '"en"'], ['image_url', '"http://some.image.url/img.jpg"']]))];
  const fee = (await rpc(d.url, 'database', 'get_required_fees', [ops, '1.3.0'])).result[0];
  // custom.hpp's default fee (the genesis schedule has none for 35): 1 BTS, plus 10 per KiB of the operation
  t.deepEqual(fee, { amount: 100_000 + Math.floor(((packOperation(normaliseOperation(ops[0])).length - 1) * 10) / 1024), asset_id: '1.3.0' });
  const before = await d.balance(NATHAN);
  const pushed = await d.push(ops);
  t.is(pushed.result, null);
  t.is(await d.balance(NATHAN), before - fee.amount);

  const stored = [
    { id: '7.0.0', account: NATHAN, catalog: 'settings', key: 'image_url', value: 'http://some.image.url/img.jpg' },
    { id: '7.0.1', account: NATHAN, catalog: 'settings', key: 'language', value: 'en' },
  ];
  t.deepEqual((await d.storage('nathan', 'settings')).result, stored);
  t.deepEqual((await rpc(d.url, 'database', 'get_objects', [['7.0.1', '7.0.0', '7.0.2']], DEBUG_USER)).result, [stored[1], stored[0], null]);

  const history = (await rpc(d.url, 'history', 'get_account_history', ['nathan', '1.11.0', 1, '1.11.0'])).result;
  t.is(history[0].op[0], 35);
  t.deepEqual(history[0].op[1], pushed.trx.operations && (pushed.trx.operations as OperationJson[])[0]![1]);
  t.deepEqual(history[0].result, [0, {}]);
  const head = (await rpc(d.url, 'database', 'get_dynamic_global_properties', [])).result.head_block_number;
  const block = (await rpc(d.url, 'database', 'get_block', [head])).result;
  t.deepEqual(block.transactions[0].operation_results, [[0, {}]]);
  t.deepEqual(block.transactions[0].signatures, pushed.trx.signatures);
  t.is((await rpc(d.url, 'database', 'get_transaction_hex', [pushed.trx])).result, Buffer.from(packSignedTransaction(pushed.trx)).toString('hex'));
});

test("get_storage_info answers Core's own plugin test call for call: indexes by account, catalog and key, limit and start_id", async (t) => {
  // Core's test runs with api-limit-get-storage-info = 6 (database_fixture.cpp).
  const d = await devnet(t, { 'api-limit-get-storage-info': '6' });
  const write = async (payer: string, catalog: string, kv: [string, string | null][], remove = false) => {
    t.is((await d.push([op.custom(payer, data(catalog, kv, remove))], [payer === NATHAN ? DEV_WIF : ALICE_WIF])).error, undefined);
  };
  // A catalog or key longer than 200 bytes, and a value that is not JSON, store nothing.
  await write(NATHAN, 'a'.repeat(201), [['key', '"value"']]);
  t.deepEqual((await d.storage('nathan', 'a'.repeat(201))).result, []);
  await write(NATHAN, 'whatever', [['a'.repeat(201), '"value"']]);
  await write(NATHAN, 'whatever', [['key', 'value']]);
  t.deepEqual((await d.storage('nathan', 'whatever')).result, []);

  await write(NATHAN, 'settings', [['language', '"en"'], ['image_url', '"http://some.image.url/img.jpg"']]);
  await write(NATHAN, 'settings', [['image_url', '"http://new.image.url/newimg.jpg"'], ['theme', '"dark"']]);
  t.deepEqual(
    (await d.storage('nathan', 'settings')).result!.map((o) => [o.id, o.key, o.value]),
    [
      ['7.0.0', 'image_url', 'http://new.image.url/newimg.jpg'],
      ['7.0.1', 'language', 'en'],
      ['7.0.2', 'theme', 'dark'],
    ],
  );
  await write(NATHAN, 'settings', [['theme', '"dark"']], true);
  await write(NATHAN, 'settings', [['nothere', '"nothere"']], true);
  t.deepEqual((await d.storage('nathan', 'settings')).result!.map((o) => o.key), ['image_url', 'language']);

  await write(ALICE, 'random', [['key1', '"value2"']]);
  await write(ALICE, 'account_object', [['nathan', json({ id: NATHAN, name: 'nathan' })]]);
  await write(ALICE, 'account_object', [['robert', json({ name: 'robert' })], ['patty', json({ name: 'patty' })]]);
  await write(ALICE, 'settings', [['image_url', '"http://some.other.image.url/img.jpg"']]);
  const view = (r: { result?: Record<string, unknown>[] }) => r.result!.map((o) => `${o.id} ${o.account} ${o.catalog}/${o.key}`);

  // the limit: above the configured one refused, at it served
  t.regex((await d.storage('alice', 'account_object', null, 7)).error!.message, /limit <= configured_limit: limit can not be greater than 6/);
  t.deepEqual(view(await d.storage('alice', 'account_object', null, 6)), ['7.0.4 1.2.7 account_object/nathan', '7.0.5 1.2.7 account_object/patty', '7.0.6 1.2.7 account_object/robert']);
  t.deepEqual((await d.storage('alice', 'account_object', null, 6)).result![0]!.value, { id: NATHAN, name: 'nathan' });
  // a wrong account, and a key without a catalog
  t.regex((await d.storage('alice1', 'account_object')).error!.message, /no such account/);
  t.regex((await d.storage('alice', null, 'patty')).error!.message, /!key\.valid\(\): Can not specify key if catalog is not specified/);
  t.regex((await d.storage(null, null, 'patty')).error!.message, /Can not specify key if catalog is not specified/);
  // account, catalog and key
  t.deepEqual((await d.storage('alice', 'account_object', 'alice1')).result, []);
  t.deepEqual((await d.storage('alice', 'account_object1', 'patty')).result, []);
  t.deepEqual(view(await d.storage('alice', 'account_object', 'patty')), ['7.0.5 1.2.7 account_object/patty']);
  // account only, by id
  t.deepEqual(view(await d.storage('alice')), ['7.0.3 1.2.7 random/key1', '7.0.4 1.2.7 account_object/nathan', '7.0.5 1.2.7 account_object/patty', '7.0.6 1.2.7 account_object/robert', '7.0.7 1.2.7 settings/image_url']);
  // catalog only, and its pages
  t.deepEqual((await d.storage(null, 'settings1')).result, []);
  t.deepEqual(view(await d.storage(null, 'settings')), ['7.0.0 1.2.6 settings/image_url', '7.0.1 1.2.6 settings/language', '7.0.7 1.2.7 settings/image_url']);
  t.deepEqual(view(await d.storage(null, 'settings', null, 2)), ['7.0.0 1.2.6 settings/image_url', '7.0.1 1.2.6 settings/language']);
  t.deepEqual(view(await d.storage(null, 'settings', null, 2, '7.0.1')), ['7.0.1 1.2.6 settings/language', '7.0.7 1.2.7 settings/image_url']);
  // catalog and key
  t.deepEqual((await d.storage(null, 'settings', 'test')).result, []);
  t.deepEqual((await d.storage(null, 'settings1', 'image_url')).result, []);
  t.deepEqual(view(await d.storage(null, 'settings', 'image_url')), ['7.0.0 1.2.6 settings/image_url', '7.0.7 1.2.7 settings/image_url']);
  // everything: the configured limit is the first page, start_id the next
  const all = await d.storage();
  t.deepEqual(view(all), ['7.0.0 1.2.6 settings/image_url', '7.0.1 1.2.6 settings/language', '7.0.3 1.2.7 random/key1', '7.0.4 1.2.7 account_object/nathan', '7.0.5 1.2.7 account_object/patty', '7.0.6 1.2.7 account_object/robert']);
  t.deepEqual(view(await d.storage(null, null, null, null, all.result![5]!.id)), ['7.0.6 1.2.7 account_object/robert', '7.0.7 1.2.7 settings/image_url']);

  // Beyond Core's test: a limit of 0, a start_id of another type, start_id on the one-object index
  t.deepEqual((await d.storage(null, null, null, 0)).result, []);
  t.regex((await d.storage(null, null, null, null, '1.2.0')).error!.message, /doesn't match expected value 1\.2\.0/);
  t.deepEqual(view(await d.storage('alice', 'account_object', 'patty', 1, '7.0.9')), ['7.0.5 1.2.7 account_object/patty']);
  t.deepEqual(view(await d.storage('1.2.6', 'settings', null, null, '7.0.1')), ['7.0.1 1.2.6 settings/language']);
  // the set is the access file's custom_operations_api: `*` here does not have it
  t.regex((await rpc(d.url, 'custom_operations', 'get_storage_info', [])).error.message, /Access denied/);
});

test('payloads the plugin cannot use leave storage as it was, the operation still applies, and the node logs why', async (t) => {
  const logs = captureLogs('warn');
  const d = await devnet(t, {}, logs.log);
  const cases = [
    'ffff', // not a custom_plugin_operation
    data('', [['k', '1']]), // an empty catalog
    data('c', [['a', '1'], ['b', '"unterminated'], ['c', '3']]), // b ends early: c is not applied, a is
  ];
  for (const hex of cases) {
    const pushed = await d.push([op.custom(ALICE, hex)], [ALICE_WIF]);
    t.is(pushed.result, null);
  }
  t.deepEqual((await d.storage()).result, [{ id: '7.0.0', account: ALICE, catalog: 'c', key: 'a', value: 1 }]);
  const history = (await rpc(d.url, 'history', 'get_account_history', ['alice', '1.11.0', 3, '1.11.0'])).result;
  t.deepEqual(
    history.map((h: { op: OperationJson; result: unknown }) => [h.op[0], h.op[1].data, h.result]),
    [...cases].reverse().map((hex) => [35, hex, [0, {}]]),
  );
  await logs.once('custom_operations plugin: payload not applied');
  t.deepEqual(
    logs.lines.filter((l) => l.msg === 'custom_operations plugin: payload not applied').map((l) => l.reason),
    [
      'the data is not a custom_plugin_operation',
      'catalog.length() <= CUSTOM_OPERATIONS_MAX_KEY_SIZE && catalog.length() > 0',
      'a value ends early (eof_exception: unexpected end of file); the keys after it are not applied',
    ],
  );
});

test("required_auths must sign; the fee is checked; a transaction beyond maximum_transaction_size is refused; history reaches payer and required_auths", async (t) => {
  const d = await devnet(t);
  const withNathan = () => [op.custom(ALICE, data('shared', [['k', '"v"']]), { requiredAuths: [NATHAN] })];
  t.regex((await d.push(withNathan(), [ALICE_WIF])).error!.message, /Missing Active Authority 1\.2\.6/);
  t.regex((await d.push(withNathan(), [DEV_WIF])).error!.message, /Missing Active Authority 1\.2\.7/);
  const required = (await rpc(d.url, 'database', 'get_required_fees', [withNathan(), '1.3.0'])).result[0].amount;
  t.regex((await d.push(withNathan(), [ALICE_WIF, DEV_WIF], { fee: required - 1 })).error!.message, /Insufficient Fee Paid/);
  const signers = (await rpc(d.url, 'database', 'get_required_signatures', [{ ...(await signedTx(d.url, withNathan(), [])), signatures: [] }, [ALICE_KEY, 'BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV']], DEBUG_USER)).result;
  t.is(signers.length, 2);
  t.is((await d.push(withNathan(), [ALICE_WIF, DEV_WIF])).result, null);
  // the storage belongs to the payer; the operation is in both accounts' history
  t.deepEqual((await d.storage(null, 'shared')).result, [{ id: '7.0.0', account: ALICE, catalog: 'shared', key: 'k', value: 'v' }]);
  for (const who of ['alice', 'nathan']) {
    const [last] = (await rpc(d.url, 'history', 'get_account_history', [who, '1.11.0', 1, '1.11.0'])).result;
    t.deepEqual([last.op[0], last.op[1].required_auths], [35, [NATHAN]], who);
  }
  // 2048 bytes is the genesis maximum_transaction_size: data of 2000 bytes makes the transaction larger
  t.regex((await d.push([op.custom(ALICE, 'ab'.repeat(2000))], [ALICE_WIF])).error!.message, /Transaction exceeds maximum transaction size/);
  t.is((await d.push([op.custom(ALICE, 'ab'.repeat(1800))], [ALICE_WIF])).result, null);
});

test('with --custom-operations-plugin false the operation applies, its payload does not, and the API set says the plugin is not enabled', async (t) => {
  const d = await devnet(t, { 'custom-operations-plugin': 'false' });
  t.is((await d.push([op.custom(ALICE, data('c', [['k', '1']]))], [ALICE_WIF])).result, null);
  const [last] = (await rpc(d.url, 'history', 'get_account_history', ['alice', '1.11.0', 1, '1.11.0'])).result;
  t.is(last.op[0], 35);
  t.deepEqual((await rpc(d.url, 'database', 'get_objects', [['7.0.0']], DEBUG_USER)).result, [null]);
  t.regex((await d.storage()).error!.message, /plugin_enabled: The custom_operations plugin is not enabled/);
  const getter = JSON.parse((await httpPost(d.url, JSON.stringify({ id: 1, method: 'call', params: [1, 'custom_operations', []] }), DEBUG_USER)).text);
  t.regex(getter.error.message, /The custom_operations plugin is not enabled/);
});

test('the current login API hands out custom_operations when the plugin runs; the legacy one has no such getter', async (t) => {
  for (const [variant, plugin] of [['current', 'true'], ['current', 'false'], ['legacy', 'true']] as const) {
    const node = await startTestNode(t, { 'login-api-variant': variant, 'custom-operations-plugin': plugin });
    const ws = await connectWs(t, node.wsUrl);
    ws.ws.on('error', () => {});
    const reply = await ws.call({ id: 1, method: 'call', params: [1, 'custom_operations', []] });
    const what = `${variant}, plugin ${plugin}`;
    if (variant === 'legacy') t.regex(reply.error.message, /Method not found/, what);
    else if (plugin === 'false') t.regex(reply.error.message, /The custom_operations plugin is not enabled/, what);
    else {
      t.is(typeof reply.result, 'number', what);
      const stored = await ws.call({ id: 2, method: 'call', params: [reply.result, 'get_storage_info', ['nathan']] });
      t.deepEqual(stored.result, [], what);
    }
    await ws.close();
    await node.node.close();
  }
});
