// A genesis in BitShares Core's form, on a chain whose key prefix is TEST (--address-prefix), as a
// Core testnet build has it: accounts with keys and lifetime membership, witnesses from 1.6.1 and
// committee members, genesis balance objects (1.15.x) claimed with balance_claim. Against real
// nodes over the wire. Every node of this file uses the prefix TEST: the prefix is one per process.
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, startTestNode, type TestNode } from './helpers/node.js';
import { rpc, signedTx } from './helpers/tx.js';
import { tempDir } from './helpers/temp.js';
import { DEV_WIF, DEV_PUB } from './helpers/chain.js';
import { privateKeyFromWif, publicKeyOf } from '../src/chain/crypto/keys.js';
import { keyAddresses } from '../src/chain/protocol/authority.js';
import { setAddressPrefix } from '../src/chain/crypto/public-key.js';
import type { OperationJson } from '../src/chain/protocol/types.js';
import { DEBUG_USER, startDevnet } from './helpers/devnet.js';

// Keys and addresses of this file are written with TEST (the nodes set it too, when they start).
setAddressPrefix('TEST');
const DEV_TEST = publicKeyOf(privateKeyFromWif(DEV_WIF));
/** The development key's five addresses: PTS (uncompressed, compressed) × (version 56, 0), then Graphene's. */
const DEV_ADDRESSES = keyAddresses(DEV_TEST);
/** A second key, for a balance its owner claims and the development key cannot. */
const OTHER_WIF = '5HpHagT65TZzG1PH3CSu63k8DbpvD8s5ip4nEB3kEsreAnchuDf';
const OTHER_PUB = publicKeyOf(privateKeyFromWif(OTHER_WIF));
const OTHER_ADDRESS = keyAddresses(OTHER_PUB)[4]!;

const WITNESSES = ['init0', 'init1', 'init2'];
const COMMITTEE = ['init0', 'init1', 'init2'];

/** A genesis file in Core's form, written out as Core's testnet genesis is: indented, by hand. */
function coreGenesis(dir: string, o: { activeWitnesses?: number; ownerKey?: string; assets?: unknown[] } = {}): string {
  const parameters = JSON.parse(readFileSync(fixture('../../config/genesis.json'), 'utf8')).initial_parameters;
  const account = (name: string, lifetime: boolean) => ({ name, owner_key: o.ownerKey ?? DEV_TEST, active_key: o.ownerKey ?? DEV_TEST, is_lifetime_member: lifetime });
  const genesis = {
    initial_timestamp: '2016-01-18T09:18:25',
    max_core_supply: '1000000000000000',
    initial_parameters: parameters,
    initial_accounts: [...['init0', 'init1', 'init2'].map((n) => account(n, true)), account('faucet', false)],
    initial_assets: o.assets ?? [],
    initial_balances: [
      // owned by the development key's compressed PTS address (version 56), as in Core's testnet genesis
      { owner: DEV_ADDRESSES[1], asset_symbol: 'TEST', amount: '600000000000000' },
      { owner: OTHER_ADDRESS, asset_symbol: 'TEST', amount: 12345 },
    ],
    initial_vesting_balances: [],
    initial_active_witnesses: o.activeWitnesses ?? 3,
    initial_witness_candidates: WITNESSES.map((owner_name) => ({ owner_name, block_signing_key: DEV_TEST })),
    initial_committee_candidates: COMMITTEE.map((owner_name) => ({ owner_name })),
    initial_worker_candidates: [],
    initial_chain_id: 'aa34045518f1469a28fa4578240d5f039afa9959c0b95ce3b39674efa691fb21',
    immutable_parameters: { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 },
  };
  const file = path.join(dir, 'genesis.json');
  writeFileSync(file, `${JSON.stringify(genesis, null, 2)}\n`);
  return file;
}

interface CoreNode extends TestNode {
  readonly genesisFile: string;
  call(set: string, method: string, params: unknown[]): Promise<any>;
  /** the error of a call that must fail */
  refused(set: string, method: string, params: unknown[]): Promise<{ code: number; message: string }>;
  generate(n: number): Promise<unknown>;
  broadcast(ops: OperationJson[], wifs: string[]): Promise<unknown>;
}

async function coreNode(t: ExecutionContext, options: Record<string, string> = {}, genesis: { activeWitnesses?: number; assets?: unknown[] } = {}): Promise<CoreNode> {
  const dir = tempDir(t);
  const genesisFile = coreGenesis(dir, genesis);
  const node = await startDevnet(t, {
    'genesis-json': genesisFile,
    'address-prefix': 'TEST',
    'private-key': JSON.stringify([DEV_TEST, DEV_WIF]),
    ...options,
  });
  const raw = (set: string, method: string, params: unknown[]) => rpc(node.httpUrl, set, method, params, set === 'debug' ? DEBUG_USER : undefined);
  const call = async (set: string, method: string, params: unknown[]) => {
    const r = await raw(set, method, params);
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    return r.result;
  };
  const refused = async (set: string, method: string, params: unknown[]) => {
    const r = await raw(set, method, params);
    if (!r.error) throw new Error(`${method} answered ${JSON.stringify(r.result)}, expected an error`);
    return r.error;
  };
  return {
    ...node,
    genesisFile,
    call,
    refused,
    generate: (n) => call('debug', 'debug_generate_blocks', [DEV_WIF, n]),
    broadcast: async (ops, wifs) => call('network_broadcast', 'broadcast_transaction', [await signedTx(node.httpUrl, ops, wifs)]),
  };
}

const claimOp = (balance: string, key: string, amount: number | string, o: { to?: string; asset?: string } = {}): OperationJson => [
  37,
  {
    fee: { amount: 0, asset_id: '1.3.0' },
    deposit_to_account: o.to ?? '1.2.6',
    balance_to_claim: balance,
    balance_owner_key: key,
    total_claimed: { amount, asset_id: o.asset ?? '1.3.0' },
  },
];

test.serial('the chain id is sha256 of the genesis file as written, as witness_node computes it; keys, the core asset and get_config carry the prefix TEST', async (t) => {
  const n = await coreNode(t);
  t.is(await n.call('database', 'get_chain_id', []), createHash('sha256').update(readFileSync(n.genesisFile)).digest('hex'));
  const config = await n.call('database', 'get_config', []);
  t.is(config.GRAPHENE_SYMBOL, 'TEST');
  t.is(config.GRAPHENE_ADDRESS_PREFIX, 'TEST');
  t.is(config.GRAPHENE_MAX_SHARE_SUPPLY, '1000000000000000', 'the constants after them are unchanged');
  const [core] = await n.call('database', 'get_assets', [['1.3.0']]);
  t.like(core, { symbol: 'TEST', precision: 5, issuer: '1.2.3' });
  const [supply] = await n.call('database', 'get_objects', [['2.3.0']]);
  t.is(supply.current_supply, '600000000012345', 'the balance objects are the core supply');

  const [init0, faucet] = await n.call('database', 'lookup_account_names', [['init0', 'faucet']]);
  t.is(init0.id, '1.2.6', 'num_special_accounts 0: the genesis accounts follow the six special ones');
  t.deepEqual(init0.owner.key_auths, [[DEV_TEST, 1]]);
  t.is(init0.options.memo_key, DEV_TEST, "Core makes the active key the memo key");
  t.like(init0, { registrar: '1.2.6', referrer: '1.2.6', lifetime_referrer: '1.2.6', membership_expiration_date: '2106-02-07T06:28:15' });
  t.like(faucet, { id: '1.2.9', registrar: '1.2.4', referrer: '1.2.0', membership_expiration_date: '1970-01-01T00:00:00' });
  t.deepEqual(await n.call('database', 'get_key_references', [[DEV_TEST]]), [['1.2.6', '1.2.7', '1.2.8', '1.2.9']]);
  t.is(await n.call('database', 'is_public_key_registered', [DEV_TEST]), true);
  t.deepEqual((await n.call('database', 'get_chain_properties', [])).immutable_parameters, { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 });

  // A key with the main chain's prefix is not a key of this chain (types.cpp: the prefix is checked first).
  const e = await n.refused('database', 'get_key_references', [[DEV_PUB]]);
  t.regex(e.message, /base58str\.substr\( 0, prefix_len \) == prefix/);
});

test.serial('witnesses start at 1.6.1 (1.6.0 is reserved, as in Core), committee members at 1.5.0, vote ids in creation order; blocks are signed by the first active witness', async (t) => {
  const n = await coreNode(t, {}, { activeWitnesses: 2 });
  t.deepEqual(await n.call('database', 'get_objects', [['1.6.0']]), [null]);
  const w1 = await n.call('database', 'get_witness_by_account', ['init1']);
  t.like(w1, { id: '1.6.2', witness_account: '1.2.7', vote_id: '1:1', signing_key: DEV_TEST });
  t.is(await n.call('database', 'get_witness_count', []), 3);
  const c1 = await n.call('database', 'get_committee_member_by_account', ['init1']);
  t.like(c1, { id: '1.5.1', committee_member_account: '1.2.7', vote_id: '0:4', total_votes: 0, url: '' });
  t.is(await n.call('database', 'get_committee_member_by_account', ['faucet']), null);
  t.is(await n.call('database', 'get_committee_count', []), 3);
  t.deepEqual(await n.call('database', 'lookup_committee_member_accounts', ['init1', 10]), [
    ['init1', '1.5.1'],
    ['init2', '1.5.2'],
  ]);
  t.deepEqual(await n.call('database', 'lookup_witness_accounts', ['', 2]), [
    ['init0', '1.6.1'],
    ['init1', '1.6.2'],
  ]);
  const votes = await n.call('database', 'lookup_vote_ids', [['0:5', '1:0', '0:99']]);
  t.deepEqual(votes.map((v: { id?: string } | null) => v?.id ?? null), ['1.5.2', '1.6.1', null]);
  const gp = await n.call('database', 'get_global_properties', []);
  t.deepEqual(gp.active_witnesses, ['1.6.1', '1.6.2'], 'initial_active_witnesses of them are active');
  t.deepEqual(gp.active_committee_members, [], 'Core fills them at the first maintenance interval');
  t.is(gp.next_available_vote_id, 6);

  await n.generate(1);
  const block = await n.call('database', 'get_block', [1]);
  t.is(block.witness, '1.6.1');
});

test.serial('a genesis balance object is found by its owner address and claimed whole into an account with balance_claim, signed by the owner key', async (t) => {
  const n = await coreNode(t);
  await n.generate(1);
  // Its owner is the key's compressed PTS address; the key's other addresses own nothing.
  const found = await n.call('database', 'get_balance_objects', [DEV_ADDRESSES]);
  t.deepEqual(found, [{ id: '1.15.0', owner: DEV_ADDRESSES[1], balance: { amount: '600000000000000', asset_id: '1.3.0' }, last_claim_date: '1970-01-01T00:00:00' }]);
  t.deepEqual(await n.call('database', 'get_objects', [['1.15.1']]), [{ id: '1.15.1', owner: OTHER_ADDRESS, balance: { amount: 12345, asset_id: '1.3.0' }, last_claim_date: '1970-01-01T00:00:00' }]);
  t.deepEqual(await n.call('database', 'get_vested_balances', [['1.15.0', '1.15.1']]), [
    { amount: '600000000000000', asset_id: '1.3.0' },
    { amount: 12345, asset_id: '1.3.0' },
  ]);
  t.deepEqual(await n.call('database', 'get_required_fees', [[claimOp('1.15.0', DEV_TEST, 1)], '1.3.0']), [{ amount: 0, asset_id: '1.3.0' }]);
  t.deepEqual(await n.call('database', 'get_account_balances', ['init0', ['1.3.0']]), [{ amount: 0, asset_id: '1.3.0' }]);

  // Claimed by the deposit account (its active authority) and the owner key: here the same key.
  await n.broadcast([claimOp('1.15.0', DEV_TEST, '600000000000000')], [DEV_WIF]);
  // The pending state: read back before the next block.
  t.deepEqual(await n.call('database', 'get_account_balances', ['init0', ['1.3.0']]), [{ amount: '600000000000000', asset_id: '1.3.0' }]);
  t.deepEqual(await n.call('database', 'get_balance_objects', [DEV_ADDRESSES]), []);
  t.deepEqual(await n.call('database', 'get_objects', [['1.15.0']]), [null]);
  t.regex((await n.refused('database', 'get_vested_balances', [['1.15.0']])).message, /Unable to find Object 1\.15\.0/);

  // The other balance, by its own key, into another account: both must sign.
  await n.broadcast([claimOp('1.15.1', OTHER_PUB, 12345, { to: '1.2.9' })], [DEV_WIF, OTHER_WIF]);
  await n.generate(1);
  t.deepEqual(await n.call('database', 'get_account_balances', ['faucet', ['1.3.0']]), [{ amount: 12345, asset_id: '1.3.0' }]);
  const [history] = await n.call('history', 'get_account_history', ['faucet', '1.11.0', 1, '1.11.0']);
  t.is(history.op[0], 37);
  t.is(history.op[1].balance_to_claim, '1.15.1');
  const [supply] = await n.call('database', 'get_objects', [['2.3.0']]);
  t.is(supply.current_supply, '600000000012345', 'a claim moves the supply, it does not make any');
});

test.serial("balance_claim is refused as Core refuses it: another key than the owner's, a part of the balance, another asset, a fee, no signature of the owner key", async (t) => {
  const n = await coreNode(t);
  await n.generate(1);
  const message = async (ops: OperationJson[], wifs: string[], fee?: number) => {
    const trx = await signedTx(n.httpUrl, ops, wifs, fee === undefined ? {} : { fee });
    return (await n.refused('network_broadcast', 'broadcast_transaction', [trx])).message;
  };
  t.regex(await message([claimOp('1.15.0', OTHER_PUB, '600000000000000')], [DEV_WIF, OTHER_WIF]), /Balance owner key was specified as 'TEST\w+' but balance's actual owner is 'TEST7Cwd\w+'/);
  t.regex(await message([claimOp('1.15.0', DEV_TEST, '1')], [DEV_WIF]), /op\.total_claimed == balance->balance/);
  t.regex(await message([claimOp('1.15.0', DEV_TEST, '600000000000000', { asset: '1.3.1' })], [DEV_WIF]), /1\.3\.1|asset_id/);
  t.regex(await message([claimOp('1.15.0', DEV_TEST, '600000000000000')], [DEV_WIF], 5), /fee == asset\(\)/);
  t.regex(await message([claimOp('1.15.9', DEV_TEST, '1')], [DEV_WIF]), /1\.15\.9/);
  // The deposit account's key alone does not satisfy the owner key's authority.
  t.regex(await message([claimOp('1.15.1', OTHER_PUB, 12345)], [DEV_WIF]), /Missing Authority/);
  t.deepEqual((await n.call('database', 'get_balance_objects', [[DEV_ADDRESSES[1]]])).map((b: { id: string }) => b.id), ['1.15.0'], 'nothing was claimed');
});

test.serial("a genesis asset has asset_options' default core_exchange_rate, as db_genesis.cpp leaves it: no fee is priced in it until its issuer sets a rate with asset_update", async (t) => {
  const gen = { symbol: 'GENUSD', issuer_name: 'init0', description: 'genesis', precision: 4, max_supply: '1000000000000', accumulated_fees: 0, is_bitasset: false, collateral_records: [] };
  const n = await coreNode(t, {}, { assets: [gen] });
  await n.generate(1);
  const [asset] = await n.call('database', 'get_assets', [['1.3.1']]);
  t.like(asset, { symbol: 'GENUSD', precision: 4, issuer: '1.2.6' });
  t.deepEqual(asset.options.core_exchange_rate, { base: { amount: 0, asset_id: '1.3.0' }, quote: { amount: 0, asset_id: '1.3.1' } });

  const transfer: OperationJson = [0, { fee: { amount: 0, asset_id: '1.3.0' }, from: '1.2.6', to: '1.2.7', amount: { amount: 1, asset_id: '1.3.0' } }];
  // fee_schedule::calculate_fee multiplies the core fee by the rate: asset::operator* asserts a positive base.
  const e = await n.refused('database', 'get_required_fees', [[transfer], '1.3.1']);
  t.regex(e.message, /b\.base\.amount\.value > 0/);

  // The issuer (init0, funded from the genesis balance) sets a rate; fees are then priced in the asset.
  await n.broadcast([claimOp('1.15.0', DEV_TEST, '600000000000000')], [DEV_WIF]);
  await n.generate(1);
  const rate = { base: { amount: 2, asset_id: '1.3.1' }, quote: { amount: 1, asset_id: '1.3.0' } };
  // Core's genesis also gives the asset witness_fed_asset, a flag for market-issued assets only, which
  // asset_update refuses to keep ("Can not set a flag for bitassets only to UIA"): the update clears it.
  const options = { ...asset.options, flags: 0, core_exchange_rate: rate };
  await n.broadcast([[11, { fee: { amount: 0, asset_id: '1.3.0' }, issuer: '1.2.6', asset_to_update: '1.3.1', new_options: options, extensions: {} }]], [DEV_WIF]);
  await n.generate(1);
  const [updated] = await n.call('database', 'get_assets', [['1.3.1']]);
  t.deepEqual(updated.options.core_exchange_rate, rate);
  const [core] = await n.call('database', 'get_required_fees', [[transfer], '1.3.0']);
  const [fee] = await n.call('database', 'get_required_fees', [[transfer], '1.3.1']);
  t.deepEqual(fee, { amount: core.amount * 2, asset_id: '1.3.1' });
});

test.serial('a data directory keeps its key prefix: started again with another --address-prefix it is refused, naming both', async (t) => {
  const dir = tempDir(t);
  const genesisFile = coreGenesis(dir);
  const dataDir = path.join(dir, 'data');
  const options = { 'genesis-json': genesisFile, 'private-key': JSON.stringify([DEV_TEST, DEV_WIF]), 'data-dir': dataDir };
  const first = await startTestNode(t, { ...options, 'address-prefix': 'TEST' });
  await first.node.close();
  const e = await t.throwsAsync(startTestNode(t, { ...options, 'address-prefix': 'GPH', 'private-key': '' }));
  t.regex(e!.message, /keys have the prefix TEST, but --address-prefix is GPH/);
  setAddressPrefix('TEST');
});

test.serial("a genesis whose keys have another prefix is refused, naming the field and the chain's prefix", async (t) => {
  // The bundled devnet genesis has BTS keys.
  const e = await t.throwsAsync(startTestNode(t, { 'address-prefix': 'TEST', 'private-key': JSON.stringify([DEV_TEST, DEV_WIF]) }));
  t.regex(e!.message, /initial_accounts\[0\]\.owner_key is not a public key with the chain's prefix TEST/);
});

test.serial('nodes in one process share the key prefix: a second node with another prefix is refused while the first runs', async (t) => {
  await coreNode(t);
  const e = await t.throwsAsync(startTestNode(t, { 'address-prefix': 'BTS' }));
  t.regex(e!.message, /a node with the key prefix TEST runs in this process/);
});
