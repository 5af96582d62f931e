// database_api against a real node on a chain built through the chain writer (reference §4.1, §4.11,
// §5, §6): result shapes and values, argument rules, name-or-id resolution, limits and their
// messages, number formats, and what the calls about absent subsystems answer.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op, DEV_PUB, DEV_WIF } from './helpers/chain.js';
import { httpPost, WsClient, expectingReplies } from './helpers/clients.js';
import { secp256k1 } from '@noble/curves/secp256k1';
import { privateKeyFromWif, publicKeyOf, signCompact } from '../src/chain/crypto/keys.js';
import { packSignedTransaction, packTransaction, signingDigest, transactionId } from '../src/chain/protocol/serializer.js';
import { formatAddress, parsePublicKey, publicKeyAddress } from '../src/chain/crypto/public-key.js';

const OTHER_PUB = publicKeyOf(secp256k1.utils.randomPrivateKey());
/** A valid key nobody uses. */
const UNUSED_PUB = publicKeyOf(secp256k1.utils.randomPrivateKey());
const memo = { from: DEV_PUB, to: DEV_PUB, nonce: '18446744073709551615', message: 'abcd' };

interface Fixture {
  url: string;
  chainId: string;
  transferTxid: string;
  call(method: string, params?: unknown[]): Promise<any>;
  result(method: string, params?: unknown[]): Promise<any>;
  error(method: string, params?: unknown[]): Promise<{ code: number; message: string }>;
}

/**
 * nathan (1.2.6) registers alice (1.2.7, key OTHER_PUB) and bob1 (1.2.8, dev key, authority
 * delegated to alice), issues TEST (1.3.1) with 50000.0000 TEST (beyond 2^31-1 units) to alice,
 * then sends alice 1 BTS with a memo.
 */
async function chainNode(t: ExecutionContext, options: Record<string, string> = {}): Promise<Fixture> {
  const chain = makeChain(t);
  const alice = op.accountCreate('alice', OTHER_PUB);
  const bob = op.accountCreate('bob1');
  bob[1].active = { weight_threshold: 1, account_auths: [['1.2.7', 1]], key_auths: [], address_auths: [] };
  chain.block([alice, bob]);
  chain.block([op.assetCreate('TEST')], [op.assetIssue('1.3.1', '1.2.7', '500000000')]);
  const applied = chain.block([op.transfer('1.2.6', '1.2.7', 100000, '1.3.0', memo)]);
  const { httpUrl } = await chain.serve(options);
  const call = async (method: string, params: unknown[] = []) => JSON.parse((await httpPost(httpUrl, JSON.stringify({ id: 1, method, params }))).text);
  return {
    url: httpUrl,
    chainId: chain.chainId,
    transferTxid: applied.transactionIds[0]!,
    call,
    ...expectingReplies(call),
  };
}

const limitMessage = (n: number) => `Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than ${n}`;

test('globals: chain properties, global properties, config, chain id, dynamic properties', async (t) => {
  const f = await chainNode(t);
  t.deepEqual(await f.result('get_chain_properties'), {
    id: '2.11.0',
    chain_id: f.chainId,
    immutable_parameters: { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 },
  });
  const gp = await f.result('get_global_properties');
  t.is(gp.id, '2.0.0');
  t.is(gp.parameters.max_authority_depth, 2);
  t.deepEqual(gp.active_witnesses, ['1.6.0']);
  const config = await f.result('get_config');
  t.is(config.GRAPHENE_SYMBOL, 'BTS');
  t.is(config.GRAPHENE_MAX_SHARE_SUPPLY, '1000000000000000');
  t.is(config.GRAPHENE_DEFAULT_WORKER_BUDGET_PER_DAY, '50000000000');
  t.is(config.GRAPHENE_MAX_SIG_CHECK_DEPTH, 2);
  t.is(config.GRAPHENE_TEMP_ACCOUNT, '1.2.4');
  t.is(Object.keys(config)[0], 'GRAPHENE_SYMBOL');
  t.is(Object.keys(config).length, 62);
  t.is(await f.result('get_chain_id'), f.chainId);
  const dgp = await f.result('get_dynamic_global_properties');
  t.is(dgp.head_block_number, 3);
});

test('get_next_object_id gives the next instance of a type, and Core’s errors for unknown indexes', async (t) => {
  const f = await chainNode(t);
  t.is(await f.result('get_next_object_id', [1, 2, false]), '1.2.9');
  t.is(await f.result('get_next_object_id', ['1', '3', true]), '1.3.2');
  t.is(await f.result('get_next_object_id', [1, 7, true]), '1.7.0');
  t.is(await f.result('get_next_object_id', [2, 5, null]), '2.5.3');
  t.regex((await f.error('get_next_object_id', [3, 0, true])).message, /Database index 3\.0 does not exist, index size is 3/);
  t.regex((await f.error('get_next_object_id', [1, 23, true])).message, /Database index 1\.23 does not exist, space size is 23/);
  t.regex((await f.error('get_next_object_id', [1, 9, true])).message, /Database index 1\.9 has not been initialized/);
  t.regex((await f.error('get_next_object_id', [1, 2])).message, /too few arguments/);
});

test('blocks: headers with and without signature, batches, whole blocks, absent blocks', async (t) => {
  const f = await chainNode(t);
  const block = await f.result('get_block', [3]);
  t.deepEqual(Object.keys(block), ['previous', 'timestamp', 'witness', 'transaction_merkle_root', 'extensions', 'witness_signature', 'transactions']);
  const header = await f.result('get_block_header', [3]);
  t.deepEqual(header, { previous: block.previous, timestamp: block.timestamp, witness: '1.6.0', transaction_merkle_root: block.transaction_merkle_root, extensions: [] });
  t.deepEqual(await f.result('get_block_header', [3, true]), { ...header, witness_signature: block.witness_signature });
  t.deepEqual(await f.result('get_block_header', ['3', null]), header);
  t.is(await f.result('get_block_header', [99]), null);
  t.is(await f.result('get_block', [0]), null);
  const batch = await f.result('get_block_header_batch', [[3, 99, 1, 3]]);
  t.deepEqual(
    batch.map((p: [number, unknown]) => p[0]),
    [1, 3, 99],
  );
  t.is(batch[2][1], null);
  t.deepEqual(batch[1][1], header);
  t.truthy((await f.result('get_block_header_batch', [[1], true]))[0][1].witness_signature);
});

test('transactions: by position, recent by id, and Core’s bare asserts', async (t) => {
  const f = await chainNode(t);
  const trx = await f.result('get_transaction', [3, 0]);
  t.deepEqual(trx.operation_results, [[0, {}]]);
  t.is(trx.operations[0][1].memo.nonce, '18446744073709551615');
  t.is(transactionId(trx), f.transferTxid);
  t.is((await f.error('get_transaction', [99, 0])).message, 'Execution error: Assert Exception: opt_block: ');
  t.is((await f.error('get_transaction', [3, 1])).message, 'Execution error: Assert Exception: opt_block->transactions.size() > trx_num: ');
  const recent = await f.result('get_recent_transaction_by_id', [f.transferTxid]);
  const { operation_results: _r, ...signed } = trx;
  t.deepEqual(recent, signed);
  t.is(await f.result('get_recent_transaction_by_id', ['00'.repeat(20)]), null);
  t.is(await f.result('get_recent_transaction_by_id', ['not-a-txid']), null);
});

test('keys: references, registration and the key limit', async (t) => {
  const f = await chainNode(t, { 'api-limit-get-key-references': '2' });
  t.deepEqual(await f.result('get_key_references', [[DEV_PUB, OTHER_PUB]]), [['1.2.6', '1.2.8'], ['1.2.7']]);
  t.deepEqual(await f.result('get_key_references', [[UNUSED_PUB]]), [[]]);
  const e = await f.error('get_key_references', [[DEV_PUB, DEV_PUB, DEV_PUB]]);
  t.is(e.message, 'Execution error: Assert Exception: keys.size() <= configured_limit: Number of querying keys can not be greater than 2');
  t.is((await f.error('get_key_references', [['XYZ6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV']])).code, 10);
  t.is(await f.result('is_public_key_registered', [DEV_PUB]), true);
  t.is(await f.result('is_public_key_registered', [UNUSED_PUB]), false);
  t.is(await f.result('is_public_key_registered', ['garbage']), false);
  t.is(await f.result('is_public_key_registered', ['']), false);
});

test('accounts: id from string, references, lookups, count', async (t) => {
  const f = await chainNode(t);
  t.is(await f.result('get_account_id_from_string', ['alice']), '1.2.7');
  t.is(await f.result('get_account_id_from_string', ['1.2.7']), '1.2.7');
  t.is((await f.error('get_account_id_from_string', ['nobody'])).message, 'Execution error: Assert Exception: account_ptr: no such account');
  t.is((await f.error('get_account_id_from_string', [''])).message, 'Execution error: Assert Exception: no such account');
  t.is((await f.error('get_account_id_from_string', ['1.3.0'])).code, 10);
  t.deepEqual(await f.result('get_account_references', ['alice']), ['1.2.8']);
  t.deepEqual(await f.result('get_account_references', ['1.2.6']), []);
  const named = await f.result('lookup_account_names', [['alice', 'nobody', '1.2.8']]);
  t.deepEqual(
    named.map((a: { name: string } | null) => a?.name ?? null),
    ['alice', null, 'bob1'],
  );
  t.deepEqual(await f.result('lookup_accounts', ['b', 3]), [
    ['bob1', '1.2.8'],
    ['committee-account', '1.2.0'],
    ['nathan', '1.2.6'],
  ]);
  t.deepEqual(await f.result('lookup_accounts', ['', 0]), []);
  t.deepEqual(await f.result('lookup_accounts', ['nathan', '1', null]), [['nathan', '1.2.6']]);
  t.is((await f.error('lookup_accounts', ['a', 1001])).message, limitMessage(1000));
  t.is(await f.result('get_account_count'), 9);
  t.deepEqual(await f.result('get_top_voters', [10]), []);
  t.is((await f.error('get_top_voters', [201])).message, limitMessage(200));
});

test('get_full_accounts: the full_account shape, map order, skipped unknowns and the limits', async (t) => {
  const f = await chainNode(t, { 'api-limit-get-full-accounts': '3', 'api-limit-get-full-accounts-lists': '1' });
  const result = await f.result('get_full_accounts', [['nathan', '1.2.7', 'nobody'], false]);
  t.deepEqual(
    result.map((p: [string, unknown]) => p[0]),
    ['1.2.7', 'nathan'],
  );
  const [, nathan] = result[1];
  t.deepEqual(Object.keys(nathan), [
    'account',
    'statistics',
    'registrar_name',
    'referrer_name',
    'lifetime_referrer_name',
    'votes',
    'balances',
    'vesting_balances',
    'limit_orders',
    'call_orders',
    'settle_orders',
    'proposals',
    'assets',
    'withdraws_from',
    'withdraws_to',
    'htlcs_from',
    'htlcs_to',
    'more_data_available',
  ]);
  t.is(nathan.account.name, 'nathan');
  t.is(nathan.statistics.id, '2.6.6');
  t.is(nathan.registrar_name, 'nathan'); // a genesis lifetime member is its own registrar (account_upgrade_evaluator)
  t.deepEqual(nathan.assets, ['1.3.1']);
  t.is(nathan.balances.length, 1);
  t.is(nathan.balances[0].asset_type, '1.3.0');
  t.deepEqual(nathan.more_data_available, {
    balances: false,
    vesting_balances: false,
    limit_orders: false,
    call_orders: false,
    settle_orders: false,
    proposals: false,
    assets: false,
    withdraws_from: false,
    withdraws_to: false,
    htlcs_from: false,
    htlcs_to: false,
  });
  // alice holds BTS and TEST: the list cap of 1 cuts the balances and says so.
  const [, alice] = result[0];
  t.is(alice.registrar_name, 'nathan');
  t.is(alice.balances.length, 1);
  t.true(alice.more_data_available.balances);
  const e = await f.error('get_full_accounts', [['a', 'b', 'c', 'd']]);
  t.is(e.message, 'Execution error: Assert Exception: names_or_ids.size() <= configured_limit: Number of querying accounts can not be greater than 3');
  t.deepEqual(await f.result('get_full_accounts', [[]]), []);
});

test('balances: all of an account, chosen assets in id order with zeros, large amounts as strings', async (t) => {
  const f = await chainNode(t);
  t.deepEqual(await f.result('get_account_balances', ['alice', []]), [
    { amount: 100000, asset_id: '1.3.0' },
    { amount: 500000000, asset_id: '1.3.1' },
  ]);
  t.deepEqual(await f.result('get_account_balances', ['1.2.7', ['1.3.5', '1.3.1', '1.3.1']]), [
    { amount: 500000000, asset_id: '1.3.1' },
    { amount: 0, asset_id: '1.3.5' },
  ]);
  const nathan = await f.result('get_named_account_balances', ['nathan', ['1.3.0']]);
  t.deepEqual(nathan, [{ amount: '99999999900000', asset_id: '1.3.0' }]);
  t.is((await f.error('get_account_balances', ['nobody', []])).message, 'Execution error: Assert Exception: account_ptr: no such account');
  t.is((await f.error('get_account_balances', ['alice', ['1.2.0']])).code, 10);
  t.regex((await f.error('get_account_balances', ['alice'])).message, /too few arguments/);
  t.deepEqual(await f.result('get_balance_objects', [[formatAddress(publicKeyAddress(parsePublicKey(DEV_PUB)))]]), []);
  t.regex((await f.error('get_balance_objects', [['BTSnope']])).message, /invalid address BTSnope/);
  t.deepEqual(await f.result('get_vested_balances', [[]]), []);
  t.regex((await f.error('get_vested_balances', [['1.15.0']])).message, /Unable to find Object 1\.15\.0/);
  t.deepEqual(await f.result('get_vesting_balances', ['alice']), []);
});

test('assets: extended objects by symbol or id, listing, count, by issuer, id from string', async (t) => {
  const f = await chainNode(t, { 'api-limit-get-assets': '5' });
  const [bts, testAsset, none] = await f.result('get_assets', [['BTS', '1.3.1', 'NOPE'], false]);
  t.is(bts.id, '1.3.0');
  t.is(bts.total_in_collateral, 0);
  t.is(testAsset.symbol, 'TEST');
  t.is(testAsset.issuer, '1.2.6');
  t.is(Object.keys(testAsset).at(-1), 'total_in_collateral');
  t.is(none, null);
  t.deepEqual(await f.result('lookup_asset_symbols', [['TEST', 'NOPE']]).then((r) => r.map((a: { id: string } | null) => a?.id ?? null)), ['1.3.1', null]);
  t.deepEqual(
    (await f.result('list_assets', ['', 5])).map((a: { symbol: string }) => a.symbol),
    ['BTS', 'TEST'],
  );
  t.deepEqual(
    (await f.result('list_assets', ['C', 5])).map((a: { symbol: string }) => a.symbol),
    ['TEST'],
  );
  t.is((await f.error('list_assets', ['', 6])).message, limitMessage(5));
  t.is(await f.result('get_asset_count'), 2);
  t.deepEqual(
    (await f.result('get_assets_by_issuer', ['nathan', '1.3.0', 5])).map((a: { id: string }) => a.id),
    ['1.3.1'],
  );
  t.deepEqual(await f.result('get_assets_by_issuer', ['nathan', '1.3.2', 5]), []);
  t.deepEqual(await f.result('get_assets_by_issuer', ['null-account', '1.3.0', 5]).then((r) => r.map((a: { id: string }) => a.id)), ['1.3.0']);
  t.is(await f.result('get_asset_id_from_string', ['TEST']), '1.3.1');
  t.is(await f.result('get_asset_id_from_string', ['1.3.0']), '1.3.0');
  t.is((await f.error('get_asset_id_from_string', ['NOPE'])).message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.is((await f.error('get_asset_id_from_string', [''])).message, 'Execution error: Assert Exception: no such asset');
  t.is((await f.error('get_asset_id_from_string', ['1.2.0'])).code, 10);
});

test('witnesses and committee members', async (t) => {
  const f = await chainNode(t);
  const [w, none] = await f.result('get_witnesses', [['1.6.0', '1.6.5']]);
  t.is(w.witness_account, '1.2.6');
  t.is(none, null);
  t.is((await f.result('get_witness_by_account', ['nathan'])).id, '1.6.0');
  t.is(await f.result('get_witness_by_account', ['alice']), null);
  t.deepEqual(await f.result('lookup_witness_accounts', ['', 10]), [['nathan', '1.6.0']]);
  t.deepEqual(await f.result('lookup_witness_accounts', ['nb', 10]), []);
  t.is((await f.error('lookup_witness_accounts', ['', 1001])).message, limitMessage(1000));
  t.is(await f.result('get_witness_count'), 1);
  t.deepEqual(await f.result('get_committee_members', [['1.5.0']]), [null]);
  t.is((await f.error('get_committee_members', [['1.6.0']])).code, 10);
  t.is(await f.result('get_committee_member_by_account', ['nathan']), null);
  t.deepEqual(await f.result('lookup_committee_member_accounts', ['', 10]), []);
  t.is((await f.error('lookup_committee_member_accounts', ['', 1001])).message, limitMessage(1000));
  t.is(await f.result('get_committee_count'), 0);
});

test('votes, workers, proposals, blinded balances', async (t) => {
  const f = await chainNode(t, { 'api-limit-lookup-vote-ids': '2' });
  const [w, c, k] = await f.result('lookup_vote_ids', [['1:0', '0:0']]).then((r) => [...r, undefined]);
  t.is(w.id, '1.6.0');
  t.is(c, null);
  t.is(k, undefined);
  t.is(
    (await f.error('lookup_vote_ids', [['1:0', '1:1', '1:2']])).message,
    'Execution error: Assert Exception: votes.size() <= configured_limit: Number of querying votes can not be greater than 2',
  );
  t.deepEqual(await f.result('get_all_workers'), []);
  t.deepEqual(await f.result('get_all_workers', [true]), []);
  t.deepEqual(await f.result('get_workers_by_account', ['nathan']), []);
  t.is(await f.result('get_worker_count'), 0);
  t.deepEqual(await f.result('get_proposed_transactions', ['nathan']), []);
  t.regex((await f.error('get_proposed_transactions', ['nobody'])).message, /no such account/);
  t.deepEqual(await f.result('get_blinded_balances', [['02'.repeat(33)]]), []);
});

test('markets: empty order books and tickers, argument checks and limits', async (t) => {
  const f = await chainNode(t);
  t.deepEqual(await f.result('get_order_book', ['BTS', 'TEST', 50]), { base: 'BTS', quote: 'TEST', bids: [], asks: [] });
  t.is((await f.error('get_order_book', ['BTS', 'TEST', 51])).message, limitMessage(50));
  t.is((await f.error('get_order_book', ['BTS', 'NOPE', 5])).message, 'Execution error: Assert Exception: assets[1]: Invalid quote asset symbol: NOPE');
  t.deepEqual(await f.result('get_limit_orders', ['BTS', '1.3.1', 300]), []);
  t.is((await f.error('get_limit_orders', ['BTS', 'NOPE', 3])).message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.deepEqual(await f.result('get_limit_orders_by_account', ['nathan']), []);
  t.is((await f.error('get_limit_orders_by_account', ['nathan', 102])).message, limitMessage(101));
  t.deepEqual(await f.result('get_account_limit_orders', ['nathan', 'BTS', 'TEST', 10]), []);
  t.regex((await f.error('get_account_limit_orders', ['nathan', 'BTS', 'TEST', 10, '1.7.0'])).message, /Order id invalid/);
  t.is((await f.error('get_call_orders', ['BTS', 10])).message, 'Execution error: Assert Exception: bitasset_data_id.valid(): Asset BTS (1.3.0) is not a market issued asset.');
  t.deepEqual(await f.result('get_call_orders_by_account', ['nathan', '1.3.0', 10]), []);
  t.deepEqual(await f.result('get_settle_orders', ['TEST', 10]), []);
  t.deepEqual(await f.result('get_settle_orders_by_account', ['nathan', '1.4.0', 10]), []);
  t.deepEqual(await f.result('get_margin_positions', ['nathan']), []);
  t.is((await f.error('get_collateral_bids', ['TEST', 10, 0])).message, 'Execution error: Assert Exception: swan.is_market_issued(): Asset is not a MPA');
  const ticker = await f.result('get_ticker', ['BTS', '1.3.1']);
  t.deepEqual(Object.keys(ticker), ['time', 'base', 'quote', 'latest', 'lowest_ask', 'lowest_ask_base_size', 'lowest_ask_quote_size', 'highest_bid', 'highest_bid_base_size', 'highest_bid_quote_size', 'percent_change', 'base_volume', 'quote_volume']);
  t.is(ticker.quote, 'TEST');
  t.is(ticker.latest, '0');
  t.deepEqual(Object.keys(await f.result('get_24_volume', ['BTS', 'TEST'])), ['time', 'base', 'quote', 'base_volume', 'quote_volume']);
  t.deepEqual(await f.result('get_top_markets', [10]), []);
  t.is((await f.error('get_top_markets', [101])).message, limitMessage(100));
  t.deepEqual(await f.result('get_trade_history', ['BTS', 'TEST', '2026-01-02T00:00:00', '2026-01-01T00:00:00', 10]), []);
  t.deepEqual(await f.result('get_trade_history_by_sequence', ['BTS', 'TEST', 0, '2026-01-01T00:00:00', 10]), []);
  t.is((await f.error('get_trade_history_by_sequence', ['BTS', 'TEST', -1, '2026-01-01T00:00:00', 10])).message, 'Execution error: Assert Exception: start >= 0: ');
  // One time conversion for every API set (src/api/params.ts asTime): fc's from_iso_string text.
  const badTime = await f.error('get_trade_history', ['BTS', 'TEST', 'yesterday', '2026-01-01T00:00:00', 10]);
  t.is(badTime.code, 4);
  t.regex(badTime.message, /not a time: 'yesterday': unable to convert ISO-formatted string to fc::time_point_sec/);
});

test('liquidity pools, SameT funds, credit offers, tickets, HTLCs, withdrawals: none, with Core’s checks', async (t) => {
  const f = await chainNode(t);
  for (const [method, params] of [
    ['list_liquidity_pools', []],
    ['list_liquidity_pools', [null, '1.19.0', true]],
    ['get_liquidity_pools_by_asset_a', ['BTS']],
    ['get_liquidity_pools_by_asset_b', ['TEST', 5]],
    ['get_liquidity_pools_by_one_asset', ['BTS']],
    ['get_liquidity_pools_by_both_assets', ['BTS', 'TEST']],
    ['get_liquidity_pools_by_owner', ['nathan']],
    ['list_samet_funds', []],
    ['get_samet_funds_by_owner', ['nathan']],
    ['get_samet_funds_by_asset', ['BTS', 1]],
    ['list_credit_offers', []],
    ['get_credit_offers_by_owner', ['nathan']],
    ['get_credit_offers_by_asset', ['BTS']],
    ['list_credit_deals', []],
    ['get_credit_deals_by_offer_id', ['1.21.0']],
    ['get_credit_deals_by_offer_owner', ['nathan']],
    ['get_credit_deals_by_borrower', ['nathan']],
    ['get_credit_deals_by_debt_asset', ['BTS']],
    ['get_credit_deals_by_collateral_asset', ['BTS']],
    ['list_tickets', []],
    ['get_tickets_by_account', ['nathan', 101, '1.18.0']],
    ['list_htlcs', ['1.16.0', 100]],
    ['get_htlc_by_from', ['nathan', '1.16.0', 100]],
    ['get_htlc_by_to', ['nathan', '1.16.0', 100]],
    ['get_withdraw_permissions_by_giver', ['nathan', '1.12.0', 101]],
    ['get_withdraw_permissions_by_recipient', ['nathan', '1.12.0', 101]],
  ] as const) {
    t.deepEqual(await f.result(method, [...params]), [], method);
  }
  t.deepEqual(await f.result('get_liquidity_pools', [['1.19.0', '1.19.1']]), [null, null]);
  t.deepEqual(await f.result('get_liquidity_pools_by_share_asset', [['TEST', 'NOPE']]), [null, null]);
  t.is(await f.result('get_htlc', ['1.16.0']), null);
  t.is((await f.error('list_liquidity_pools', [102])).message, limitMessage(101));
  t.is((await f.error('list_tickets', [102])).message, limitMessage(101));
  t.is((await f.error('list_htlcs', ['1.16.0', 101])).message, limitMessage(100));
  t.is((await f.error('get_credit_deals_by_offer_id', ['1.22.0'])).code, 10);
  // The asset or account is looked up before the limit is checked in these (database_api.cpp order)…
  t.regex((await f.error('get_liquidity_pools_by_asset_a', ['NOPE', 102])).message, /no such asset/);
  t.regex((await f.error('get_samet_funds_by_owner', ['nobody', 102])).message, /no such account/);
  // …and after it in these.
  t.is((await f.error('get_liquidity_pools_by_one_asset', ['NOPE', 102])).message, limitMessage(101));
  t.is((await f.error('get_withdraw_permissions_by_giver', ['nobody', '1.12.0', 102])).message, limitMessage(101));
  t.is(
    (await f.error('get_liquidity_pools', [Array.from({ length: 102 }, (_, i) => `1.19.${i}`)])).message,
    'Execution error: Assert Exception: ids.size() <= configured_limit: size of the querying list can not be greater than 101',
  );
});

test('transaction hex with and without signatures, as the serializer packs them', async (t) => {
  const f = await chainNode(t);
  const trx = await f.result('get_transaction', [3, 0]);
  t.is(await f.result('get_transaction_hex', [trx]), Buffer.from(packSignedTransaction(trx)).toString('hex'));
  t.is(await f.result('get_transaction_hex_without_sig', [trx]), Buffer.from(packTransaction(trx)).toString('hex'));
  // Missing fields keep their defaults, as fc's from_variant leaves them.
  const bare = { operations: [[0, { from: '1.2.6', to: '1.2.7', amount: { amount: 5, asset_id: '1.3.0' } }]] };
  t.regex(await f.result('get_transaction_hex_without_sig', [bare]), /^[0-9a-f]+$/);
  t.is((await f.error('get_transaction_hex', [{ operations: [[0, { from: 'x' }]] }])).code, 4);
});

test('authorities: required, potential signatures and verification, through stored accounts', async (t) => {
  const f = await chainNode(t);
  const head = await f.result('get_dynamic_global_properties');
  const trx = { ref_block_num: 3, ref_block_prefix: 0, expiration: head.time, operations: [op.transfer('1.2.6', '1.2.7', 1)], extensions: [], signatures: [] as string[] };
  t.deepEqual(await f.result('get_required_signatures', [trx, [OTHER_PUB, DEV_PUB]]), [DEV_PUB]);
  t.deepEqual(await f.result('get_required_signatures', [trx, [OTHER_PUB]]), []);
  t.deepEqual(await f.result('get_potential_signatures', [trx]), [DEV_PUB]);
  t.deepEqual(await f.result('get_potential_address_signatures', [trx]), []);
  const signed = { ...trx, signatures: [signCompact(signingDigest(f.chainId, trx), privateKeyFromWif(DEV_WIF))] };
  t.is(await f.result('verify_authority', [signed]), true);
  t.deepEqual(await f.result('get_required_signatures', [signed, [DEV_PUB]]), []);
  const unsigned = await f.error('verify_authority', [trx]);
  t.is(unsigned.code, 4010001);
  t.is(unsigned.message, 'Execution error: missing required active authority: Missing Active Authority 1.2.6');
  // bob1's active authority is alice's: alice's key signs for bob1.
  const fromBob = { ...trx, operations: [op.transfer('1.2.8', '1.2.7', 1)] };
  t.deepEqual(await f.result('get_required_signatures', [fromBob, [OTHER_PUB, DEV_PUB]]), [OTHER_PUB]);
  t.deepEqual(await f.result('get_potential_signatures', [fromBob]), [OTHER_PUB, DEV_PUB].sort((a, b) => Buffer.compare(publicKeyAddress(parsePublicKey(a)), publicKeyAddress(parsePublicKey(b)))));
  t.is(await f.result('verify_account_authority', ['nathan', [DEV_PUB]]), true);
  t.is(await f.result('verify_account_authority', ['bob1', [OTHER_PUB]]), true);
  t.is(await f.result('verify_account_authority', ['alice', [DEV_PUB]]), false);
  t.is(await f.result('verify_account_authority', ['nathan', [DEV_PUB, OTHER_PUB]]), false);
  t.regex((await f.error('verify_account_authority', ['nobody', [DEV_PUB]])).message, /no such account/);
  // validate_transaction checks all a broadcast checks: this one names no recent block (pending-state.test.ts has one that applies).
  const v = await f.error('validate_transaction', [signed]);
  t.regex(v.message, /TaPoS: ref_block_num \d+ with ref_block_prefix 0 does not name a recent block of this chain/);
});

test('get_required_fees: per operation, in the requested asset, with Core’s errors', async (t) => {
  const f = await chainNode(t);
  t.deepEqual(await f.result('get_required_fees', [[op.transfer('1.2.6', '1.2.7', 1), [14, {}]], 'BTS']), [
    { amount: 86869, asset_id: '1.3.0' },
    { amount: 57913 + Math.floor(47575 / 1024), asset_id: '1.3.0' },
  ]);
  // TEST's core_exchange_rate is 1 BTS unit : 1 TEST unit (helpers' assetCreate).
  t.deepEqual(await f.result('get_required_fees', [[[0, {}]], '1.3.1']), [{ amount: 86869, asset_id: '1.3.1' }]);
  const [create] = await f.result('get_required_fees', [[op.assetCreate('ABC')], '1.3.0']);
  t.is(typeof create.amount, 'string');
  t.true(BigInt(create.amount) > 2895660104n);
  t.is((await f.error('get_required_fees', [[[0, {}]], 'NOPE'])).message, 'Execution error: Assert Exception: asset_ptr: no such asset');
  t.regex((await f.error('get_required_fees', [[[78, {}]], 'BTS'])).message, /Unable to set tag '78' when the number of supported tags is 78/);
  // Operations the devnet does not evaluate are priced all the same; a proposal with its proposed operations' fees.
  t.deepEqual(await f.result('get_required_fees', [[[3, {}], [22, { proposed_ops: [{ op: [0, {}] }] }]], 'BTS']), [
    { amount: 2000000, asset_id: '1.3.0' },
    [{ amount: 2000000, asset_id: '1.3.0' }, [{ amount: 86869, asset_id: '1.3.0' }]],
  ]);
});

test('arguments: too few, null and numeric strings for numbers, WebSocket and call forms agree', async (t) => {
  const f = await chainNode(t);
  t.regex((await f.error('get_block')).message, /too few arguments passed to method/);
  t.is((await f.result('get_block', ['2'])).witness, '1.6.0');
  t.is(await f.result('get_block', [null]), null);
  t.is((await f.error('lookup_accounts', ['a', 'many'])).code, 4);
  const ws = await WsClient.connect(f.url.replace('http', 'ws').replace('/rpc', '/ws'));
  t.teardown(() => ws.close());
  const viaWs = await ws.call({ id: 7, method: 'call', params: ['database', 'get_account_count', []] });
  t.deepEqual(viaWs, { id: 7, result: 9 });
  const viaId = await ws.call({ id: 8, method: 'call', params: [0, 'get_asset_id_from_string', ['TEST']] });
  t.deepEqual(viaId, { id: 8, result: '1.3.1' });
});

test('over-long names, symbols and keys name nothing: answered as Core answers a name or key it does not have, never -32603, and at once', async (t) => {
  const f = await chainNode(t);
  for (const length of [600, 5000, 100_000]) {
    const name = 'a'.repeat(length);
    const symbol = 'A'.repeat(length);
    t.is(await f.result('get_account_by_name', [name]), null);
    t.deepEqual(await f.result('lookup_account_names', [[name, 'alice']]).then((r: any[]) => r.map((a) => a?.id ?? null)), [null, '1.2.7']);
    t.deepEqual(await f.result('get_accounts', [[name]]), [null]);
    t.deepEqual(await f.result('lookup_asset_symbols', [[symbol, 'TEST']]).then((r: any[]) => r.map((a) => a?.id ?? null)), [null, '1.3.1']);
    const refs = await f.error('get_account_references', [name]);
    t.not(refs.code, -32603);
    t.regex(refs.message, /account/);
    // A lower bound longer than any name orders the names as the whole bound does.
    t.deepEqual(await f.result('lookup_accounts', [name, 3]), await f.result('lookup_accounts', ['a'.repeat(70), 3]));
    t.deepEqual(await f.result('list_assets', [symbol, 2]), await f.result('list_assets', ['A'.repeat(20), 2]));
    const key = `BTS${'5'.repeat(length)}`;
    const started = performance.now();
    // Core decodes the base58 (37 bytes and more), reads the first 37 as key and checksum, and its
    // checksum assert fails; a character that is no base58 digit fails the decoding first.
    const keyError = await f.error('get_key_references', [[key]]);
    t.is(keyError.code, 10, 'the checksum assert');
    t.regex(keyError.message, /Assert Exception: fc::ripemd160::hash\( \(char\*\) key_data\.data\(\), key_data\.size\(\) \)\._hash\[0\]\.value\(\) == bin_key\.check/);
    const notBase58 = await f.error('get_key_references', [[`BTS${'0'.repeat(length)}`]]);
    t.is(notBase58.code, 4, 'parse_error_exception, as fc::from_base58 throws');
    t.regex(notBase58.message, /Unable to decode base58 string 0+…/);
    t.true(notBase58.message.length < 400, 'the error does not echo the whole argument');
    t.is(await f.result('is_public_key_registered', [key]), false);
    const address = await f.error('get_balance_objects', [[`BTS${'5'.repeat(length)}`]]);
    t.regex(address.message, /is_valid\( base58str \): invalid address BTS5+…/);
    t.true(address.message.length < 400);
    t.log(`${length}: key refused in ${Math.round(performance.now() - started)} ms`);
  }
  // Text short enough to decode (60 digits, 44 bytes) gets the same checksum assert.
  t.regex((await f.error('get_key_references', [[`BTS${'5'.repeat(60)}`]])).message, /== bin_key\.check/);
});
