#!/usr/bin/env node
// A transfer on the devnet, watched over WebSocket, with the clients exchanges already run.
//
//   node examples/devnet-transfer.mjs [ws://127.0.0.1:8090]
//
// 1. connects bitsharesjs-ws and registers this chain's id with bitsharesjs (it is not BitShares' own);
// 2. registers the account "alice" (paid and signed by nathan, the development account) if needed;
// 3. opens a second WebSocket that subscribes to alice (set_subscribe_callback + get_full_accounts);
// 4. sends alice 1 BTS with an encrypted memo, built and signed by bitsharesjs's TransactionBuilder;
// 5. prints the broadcast's confirmation, the notice the watcher receives, and alice's history.
//
// The keys are development keys that everyone knows: never use them on a chain of value.
import { createRequire } from 'node:module';
import WebSocket from 'ws';

const require = createRequire(import.meta.url);
const { Apis, ChainConfig } = require('bitsharesjs-ws');
const { TransactionBuilder, PrivateKey, Aes, TransactionHelper } = require('bitsharesjs');

const url = process.argv[2] ?? 'ws://127.0.0.1:8090';
const NATHAN = PrivateKey.fromWif('5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3');
const ALICE = PrivateKey.fromWif('5JWcdkhL3w4RkVPcZMdJsjos22yB5cSkPExerktvKnRNZR5gx1S');
const pub = (k) => k.toPublicKey().toString('BTS');

async function broadcast(ops) {
  const tr = new TransactionBuilder();
  for (const [name, op] of ops) tr.add_type_operation(name, op);
  await tr.set_required_fees();
  tr.add_signer(NATHAN, pub(NATHAN));
  // Resolves with the payload of the broadcast_transaction_with_callback notice: [confirmation].
  return tr.broadcast();
}

function watch(account) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('error', reject);
    ws.on('open', () => {
      ws.send(JSON.stringify({ id: 1, method: 'call', params: [0, 'set_subscribe_callback', [1, false]] }));
      ws.send(JSON.stringify({ id: 2, method: 'call', params: [0, 'get_full_accounts', [[account], true]] }));
    });
    const notices = [];
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.id === 2) resolve({ ws, notices });
      if (m.method === 'notice') notices.push(m);
    });
  });
}

const api = Apis.instance(url, true);
const [chainId] = await Promise.all([api.init_promise.then(() => api.chain_id)]);
ChainConfig.networks.GrapheneRpcDevnet = { core_asset: 'BTS', address_prefix: 'BTS', chain_id: chainId };
ChainConfig.setChainId(chainId);
console.log(`connected to ${url}, chain ${chainId}`);

let [alice] = await api.db_api().exec('get_accounts', [['alice']]);
if (!alice) {
  const auth = { weight_threshold: 1, account_auths: [], key_auths: [[pub(ALICE), 1]], address_auths: [] };
  await broadcast([
    ['account_create', {
      fee: { amount: 0, asset_id: '1.3.0' }, registrar: '1.2.6', referrer: '1.2.6', referrer_percent: 0, name: 'alice',
      owner: auth, active: auth,
      options: { memo_key: pub(ALICE), voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [] },
    }],
  ]);
  [alice] = await api.db_api().exec('get_accounts', [['alice']]);
  console.log(`registered alice as ${alice.id}`);
}

const watcher = await watch('alice');
const nonce = TransactionHelper.unique_nonce_uint64();
const confirmation = await broadcast([
  ['transfer', {
    fee: { amount: 0, asset_id: '1.3.0' }, from: '1.2.6', to: alice.id, amount: { amount: 100000, asset_id: '1.3.0' },
    memo: { from: pub(NATHAN), to: pub(ALICE), nonce, message: Aes.encrypt_with_checksum(NATHAN, pub(ALICE), nonce, 'hello alice') },
  }],
]);
console.log(`confirmed: transaction ${confirmation[0].id} in block ${confirmation[0].block_num}`);

// The watcher's notice arrives with the block; give it a moment.
for (let i = 0; i < 50 && watcher.notices.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
for (const n of watcher.notices) console.log(`notice for callback ${n.params[0]}: ${n.params[1][0].map((o) => o.id ?? o).join(', ')}`);

const [latest] = await api.history_api().exec('get_account_history', ['alice', '1.11.0', 1, '1.11.0']);
const memo = Aes.decrypt_with_checksum(ALICE, latest.op[1].memo.from, latest.op[1].memo.nonce, latest.op[1].memo.message).toString('utf8');
console.log(`alice's newest operation: ${latest.id}, ${latest.op[1].amount.amount} of ${latest.op[1].amount.asset_id}, memo "${memo}"`);

watcher.ws.close();
await Apis.close();
process.exit(watcher.notices.length > 0 ? 0 : 1);
