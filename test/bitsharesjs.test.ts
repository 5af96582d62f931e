// The clients exchanges run, unchanged, against a real node: bitsharesjs-ws connects, bitsharesjs's
// TransactionBuilder signs and broadcasts a transfer with a memo, the confirmation arrives, the
// receiver's history shows it, and a second connection subscribed to the receiver gets the notice.
import test from 'ava';
import { createRequire } from 'node:module';
import { startTestNode } from './helpers/node.js';
import { WsClient, connectWs } from './helpers/clients.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { headAtLeast } from './helpers/blocks.js';

const require = createRequire(import.meta.url);
// CommonJS, untyped: bitsharesjs uses bitsharesjs-ws's Apis singleton, so both come from one cache.
const ws = require('bitsharesjs-ws') as { Apis: any; ChainConfig: any };
const bjs = require('bitsharesjs') as { TransactionBuilder: any; PrivateKey: any; Aes: any; TransactionHelper: any };

const ALICE_WIF = '5JWcdkhL3w4RkVPcZMdJsjos22yB5cSkPExerktvKnRNZR5gx1S';

test.serial('a bitsharesjs transfer with a memo reaches the receiver\'s history and a subscriber\'s notice', async (t) => {
  // Blocks every second, so that the head time is fresh, as bitsharesjs's ChainStore requires.
  const testNode = await startTestNode(t, { 'block-interval': '1', workers: '2' });
  const { wsUrl, httpUrl, node } = testNode;
  // How a client registers this chain: its chain id is not BitShares' main one (README "Registering this chain with a client").
  ws.ChainConfig.networks.GrapheneRpcDevnet = { core_asset: 'BTS', address_prefix: 'BTS', chain_id: node.chainId };
  await headAtLeast(testNode, 1);

  // The receiver, registered by nathan.
  const alicePub = bjs.PrivateKey.fromWif(ALICE_WIF).toPublicKey().toString('BTS');
  const created = await rpc(httpUrl, 'network_broadcast', 'broadcast_transaction_synchronous', [await signedTx(httpUrl, [op.accountCreate('alice', alicePub)], [DEV_WIF])]);
  t.deepEqual(created.result.trx.operation_results, [[1, '1.2.7']]);

  // A second connection watches alice.
  const watcher = await connectWs(t, wsUrl);
  await watcher.call({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] });
  const full = await watcher.call({ id: 2, method: 'call', params: [0, 'get_full_accounts', [['alice'], true]] });
  t.is(full.result[0][1].account.name, 'alice');

  // bitsharesjs: connect, build, sign, broadcast.
  const api = ws.Apis.instance(wsUrl, true);
  t.teardown(() => ws.Apis.close());
  await api.init_promise;
  t.is(api.chain_id, node.chainId);
  const nathanKey = bjs.PrivateKey.fromWif(DEV_WIF);
  const nonce = bjs.TransactionHelper.unique_nonce_uint64();
  const memo = {
    from: nathanKey.toPublicKey().toString('BTS'),
    to: alicePub,
    nonce,
    message: bjs.Aes.encrypt_with_checksum(nathanKey, alicePub, nonce, 'deposit 42'),
  };
  const tr = new bjs.TransactionBuilder();
  tr.add_type_operation('transfer', {
    fee: { amount: 0, asset_id: '1.3.0' },
    from: '1.2.6',
    to: '1.2.7',
    amount: { amount: 250000, asset_id: '1.3.0' },
    memo,
  });
  await tr.set_required_fees();
  tr.add_signer(nathanKey, nathanKey.toPublicKey().toString('BTS'));
  // broadcast() calls its argument when the node accepts the transaction, and resolves with the
  // confirmation notice's payload once the block holding it is applied.
  let accepted = false;
  const [confirmation] = await tr.broadcast(() => (accepted = true));
  t.true(accepted, 'the node accepted the broadcast');
  t.regex(confirmation.id, /^[0-9a-f]{40}$/);
  t.true(confirmation.block_num >= 2);
  t.deepEqual(confirmation.trx.operation_results, [[0, {}]]);

  // The receiver's history shows the transfer, memo included.
  const history = (await rpc(httpUrl, 'history', 'get_account_history', ['alice', '1.11.0', 10, '1.11.0'])).result;
  const deposit = history.find((h: any) => h.op[0] === 0);
  t.truthy(deposit, 'the transfer is in alice\'s history');
  t.is(deposit.op[1].amount.amount, 250000);
  t.is(bjs.Aes.decrypt_with_checksum(bjs.PrivateKey.fromWif(ALICE_WIF), deposit.op[1].memo.from, deposit.op[1].memo.nonce, deposit.op[1].memo.message).toString('utf8'), 'deposit 42');

  // The watcher got notices about alice's objects.
  let sawBalance = false;
  const deadline = Date.now() + 10_000;
  while (!sawBalance && Date.now() < deadline) {
    const m = JSON.parse(await watcher.next(10_000));
    if (m.method !== 'notice') continue;
    t.is(m.params[0], 1);
    sawBalance = (m.params[1][0] as { id: string; owner?: string }[]).some((o) => o.id.startsWith('2.5.') && o.owner === '1.2.7');
  }
  t.true(sawBalance, 'a notice carried alice\'s new balance');
});
