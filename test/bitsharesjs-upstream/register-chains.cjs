// Loaded by mocha (--require, after @babel/register) before the suites: registers the two devnet
// chains with bitsharesjs-ws's ChainConfig, as any client of a chain that is not BitShares' main net or
// public testnet must (README, "Registering this chain with a client"). The entries name the networks
// the suites expect to reach: core asset BTS for the main-net stand-in, TEST for the testnet stand-in.
// bitsharesjs-ws' own suite loads the library twice (test/Connection.js from src/, the others from
// lib/), bitsharesjs' from node_modules: every copy present in the working directory is registered.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const networks = {
  GrapheneRpcDevnetMain: { core_asset: 'BTS', address_prefix: 'BTS', chain_id: process.env.DEVNET_MAIN_CHAIN_ID },
  GrapheneRpcDevnetTest: { core_asset: 'TEST', address_prefix: 'TEST', chain_id: process.env.DEVNET_TEST_CHAIN_ID },
};
if (!networks.GrapheneRpcDevnetMain.chain_id || !networks.GrapheneRpcDevnetTest.chain_id) {
  throw new Error('register-chains: DEVNET_MAIN_CHAIN_ID and DEVNET_TEST_CHAIN_ID must be set');
}
const copies = [join(process.cwd(), 'src/ChainConfig.js'), join(process.cwd(), 'lib/ChainConfig.js'), 'bitsharesjs-ws'];
for (const copy of copies) {
  if (copy !== 'bitsharesjs-ws' && !existsSync(copy)) continue;
  let config;
  try {
    // Resolved from the suite's directory, not this file's: the copy the suite itself loads.
    const mod = require(require.resolve(copy, { paths: [process.cwd()] }));
    config = mod.ChainConfig ?? mod.default ?? mod;
  } catch (err) {
    if (copy === 'bitsharesjs-ws' && err.code === 'MODULE_NOT_FOUND') continue;
    throw err;
  }
  Object.assign(config.networks, networks);
}
