// Writes the two genesis files run.sh starts its nodes on (BitShares Core's genesis form):
//   mainnet.json  prefix BTS: stands in for the BitShares main net the suites connect to. It holds what
//                 the suites read from main-net ids that any chain can have (README.md beside this file):
//                 user-issued assets 1.3.1 … 1.3.125, 27 witnesses (vote ids 1:0 … 1:26) and 56
//                 committee members (0:27 … 0:82), and balances of the assets whose markets the
//                 suites read (setup-chain.mjs trades them).
//   testnet.json  prefix TEST: stands in for the public testnet of the connection tests.
// The fee schedule and chain parameters are the bundled genesis' (config/genesis.json), with blocks
// every second.
//   node genesis.mjs OUT_DIR [--bare]
// --bare: the main-net stand-in without those main-net ids (nathan alone, one witness, no committee,
// no assets), to count what the suites need of them (README.md, "Results").
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundled = JSON.parse(readFileSync(join(repo, 'config/genesis.json'), 'utf8'));
const DEV_PUB = '6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV';
const out = process.argv[2];
const bare = process.argv[3] === '--bare';
if (!out) throw new Error('usage: node genesis.mjs OUT_DIR');

export const WITNESSES = 27; // vote ids 1:0 … 1:26 (ChainStore's "Objects by vote id" reads 1:26)
export const COMMITTEE = 56; // vote ids 0:27 … 0:82 (… and 0:82)
export const ASSETS = 125; // 1.3.1 … 1.3.125 (the suites name 1.3.111, 1.3.113, 1.3.121, 1.3.125)

function genesis(prefix, { witnesses, committee, assets }) {
  const key = prefix + DEV_PUB;
  const names = ['nathan', ...Array.from({ length: witnesses + committee - 1 }, (_, i) => `init${i + 1}`)];
  const accounts = names.map((name) => ({ name, owner_key: key, active_key: key, is_lifetime_member: true }));
  const uias = Array.from({ length: assets }, (_, i) => ({
    symbol: `UIA${String(i + 1).padStart(3, '0')}X`,
    issuer_name: 'nathan',
    description: '',
    precision: 5,
    max_supply: '1000000000000000',
    accumulated_fees: 0,
    is_bitasset: false,
    collateral_records: [],
  }));
  const balances = [{ owner: 'nathan', asset_symbol: prefix, amount: '100000000000000' }];
  // nathan holds the assets whose markets setup-chain.mjs fills (1.3.121) and leaves orders in (1.3.113).
  for (const n of [113, 121]) if (n <= assets) balances.push({ owner: 'nathan', asset_symbol: uias[n - 1].symbol, amount: '100000000000' });
  return {
    initial_timestamp: bundled.initial_timestamp,
    max_core_supply: bundled.max_core_supply,
    initial_parameters: { ...bundled.initial_parameters, block_interval: 1 },
    initial_accounts: accounts,
    initial_assets: uias,
    initial_balances: balances,
    initial_vesting_balances: [],
    initial_active_witnesses: 1,
    initial_witness_candidates: names.slice(0, witnesses).map((owner_name) => ({ owner_name, block_signing_key: key })),
    initial_committee_candidates: names.slice(witnesses, witnesses + committee).map((owner_name) => ({ owner_name })),
    initial_worker_candidates: [],
    immutable_parameters: { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 },
  };
}

writeFileSync(join(out, 'mainnet.json'), JSON.stringify(genesis('BTS', bare ? { witnesses: 1, committee: 0, assets: 0 } : { witnesses: WITNESSES, committee: COMMITTEE, assets: ASSETS }), null, 1));
writeFileSync(join(out, 'testnet.json'), JSON.stringify(genesis('TEST', { witnesses: 1, committee: 0, assets: 0 }), null, 1));
