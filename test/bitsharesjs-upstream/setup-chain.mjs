// Gives the main-net stand-in what the suites read from main-net markets, with the repository's own
// bitsharesjs and bitsharesjs-ws (the versions under test, from its devDependencies), signed by nathan
// (the development key):
//   - a core exchange rate (1:1) for 1.3.111, 1.3.113, 1.3.121 and 1.3.125, which a genesis asset
//     lacks as in Core (asset_options' default rate prices no fee); the update also clears the
//     witness_fed_asset flag Core's genesis gives it, which asset_update does not let a UIA keep;
//   - fee pools for 1.3.111, 1.3.113 and 1.3.121, so that bitsharesjs pays fees in them, while
//     1.3.125's stays empty ("Defaults to CORE when fee pool is empty" needs one that cannot pay);
//   - a trade in the market 1.3.121 / 1.3.0 (get_fill_order_history of "Get market data");
//   - an open order in the market 1.3.113 / 1.3.0 (get_grouped_limit_orders of the orders API).
//   node setup-chain.mjs WS_URL
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const { Apis, ChainConfig } = require('bitsharesjs-ws');
const { TransactionBuilder, PrivateKey } = require('bitsharesjs');

const url = process.argv[2];
const DEV_WIF = '5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3';
const NATHAN = '1.2.6';
const fee = { amount: 0, asset_id: '1.3.0' };
const amount = (n, asset_id) => ({ amount: n, asset_id });
const expiration = () => new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 19);

async function send(operations) {
  const key = PrivateKey.fromWif(DEV_WIF);
  const tr = new TransactionBuilder();
  for (const [name, op] of operations) tr.add_type_operation(name, op);
  await tr.set_required_fees();
  tr.add_signer(key, key.toPublicKey().toString('BTS'));
  // Resolves when the block holding the transaction is applied.
  await tr.broadcast();
}

// The chain is registered before connecting (README, "Registering this chain with a client").
const chainId = (await (await fetch(url.replace(/^ws/, 'http'), { method: 'POST', body: JSON.stringify({ id: 1, method: 'call', params: [0, 'get_chain_id', []] }) })).json()).result;
ChainConfig.networks.GrapheneRpcDevnet = { core_asset: 'BTS', address_prefix: 'BTS', chain_id: chainId };
try {
  await Apis.instance(url, true).init_promise;
  const assets = await Apis.instance().db_api().exec('get_objects', [['1.3.111', '1.3.113', '1.3.121', '1.3.125']]);
  await send(assets.map((a) => ['asset_update', {
    fee, issuer: NATHAN, asset_to_update: a.id,
    new_options: { ...a.options, flags: 0, core_exchange_rate: { base: amount(100000, a.id), quote: amount(100000, '1.3.0') } },
    extensions: [],
  }]));
  await send(['1.3.111', '1.3.113', '1.3.121'].map((asset_id) => ['asset_fund_fee_pool', { fee, from_account: NATHAN, asset_id, amount: 100_000_000_000 }]));
  await send([
    ['limit_order_create', { fee, seller: NATHAN, amount_to_sell: amount(10_000_000, '1.3.121'), min_to_receive: amount(10_000_000, '1.3.0'), expiration: expiration(), fill_or_kill: false, extensions: [] }],
    ['limit_order_create', { fee, seller: NATHAN, amount_to_sell: amount(5_000_000, '1.3.0'), min_to_receive: amount(5_000_000, '1.3.121'), expiration: expiration(), fill_or_kill: false, extensions: [] }],
    ['limit_order_create', { fee, seller: NATHAN, amount_to_sell: amount(1_000_000, '1.3.113'), min_to_receive: amount(2_000_000, '1.3.0'), expiration: expiration(), fill_or_kill: false, extensions: [] }],
  ]);
  console.log('setup-chain: rates set, fee pools funded, 1.3.121/1.3.0 traded, an order open in 1.3.113/1.3.0');
} finally {
  await Apis.close();
}
