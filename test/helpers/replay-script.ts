// The requests of the replay transcript (test/fixtures/replay/transcript.txt): a few hundred mixed
// calls over both transports, both login API variants and an access file. The recorder sends them
// to a build and writes the replies beside them; the test reads only the transcript file.
//
// Left out on purpose: calls whose reply follows the wall clock (network_node.add_node stores the
// time it was called; get_block_operations_by_time and get_account_history_by_time without a start
// default to now), and anything that would change the chain (the nodes produce no blocks and every
// broadcast here is refused).

export const CHAIN = { accounts: 12, operations: 300, seed: 5 };

export interface Connection {
  transport: 'ws' | 'http';
  /** user:password sent as Basic credentials with the upgrade request or with every POST */
  auth?: string;
  requests: string[];
}

export interface NodeScript {
  name: string;
  /** serve options; fixture files are named relative to test/fixtures */
  options: Record<string, string>;
  connections: Connection[];
}

const DEV_PUB = 'BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV';
const LOGIN_GETTERS = ['database', 'network_broadcast', 'history', 'block', 'asset', 'crypto', 'orders', 'network_node', 'debug'];

type Read = [set: string, method: string, params: unknown[]];

/** Reads of the generated chain, with argument variants, limit errors and argument errors. */
const READS: Read[] = [
  ['database', 'get_chain_id', []],
  ['database', 'get_chain_properties', []],
  ['database', 'get_global_properties', []],
  ['database', 'get_config', []],
  ['database', 'get_dynamic_global_properties', []],
  ['database', 'get_objects', [['1.2.0']]],
  ['database', 'get_objects', [['1.2.6', '1.2.7', '1.2.12', '1.3.0']]],
  ['database', 'get_objects', [['2.0.0', '2.1.0', '2.3.0']]],
  ['database', 'get_objects', [['1.3.1', '1.3.2', '1.3.3', '2.3.1']]],
  ['database', 'get_objects', [['1.5.0', '1.6.0', '1.6.1', '1.11.0', '1.11.5']]],
  ['database', 'get_objects', [['2.6.7', '2.5.0', '2.5.1']]],
  ['database', 'get_objects', [['1.2.999999', '9.9.9']]],
  ['database', 'get_objects', [['bad']]],
  ['database', 'get_objects', [[]]],
  ['database', 'get_objects', [['1.2.7'], false]],
  ['database', 'get_objects', ['1.2.7']],
  ['database', 'get_block_header', [1]],
  ['database', 'get_block_header', [2]],
  ['database', 'get_block_header', [0]],
  ['database', 'get_block_header', [99999]],
  ['database', 'get_block_header', [1, true]],
  ['database', 'get_block_header_batch', [[1, 2, 3]]],
  ['database', 'get_block_header_batch', [[0, 99]]],
  ['database', 'get_block', [1]],
  ['database', 'get_block', [2]],
  ['database', 'get_block', ['3']],
  ['database', 'get_block', [0]],
  ['database', 'get_block', [10000]],
  ['database', 'get_block', ['abc']],
  ['database', 'get_block', [-1]],
  ['database', 'get_block', []],
  ['database', 'get_transaction', [1, 0]],
  ['database', 'get_transaction', [2, 1]],
  ['database', 'get_transaction', [1, 99]],
  ['database', 'get_recent_transaction_by_id', ['0000000000000000000000000000000000000000']],
  ['database', 'get_next_object_id', [1, 2, false]],
  ['database', 'get_next_object_id', [1, 3, true]],
  ['database', 'get_key_references', [[DEV_PUB]]],
  ['database', 'get_key_references', [['BTSbad']]],
  ['database', 'is_public_key_registered', [DEV_PUB]],
  ['database', 'is_public_key_registered', ['nonsense']],
  ['database', 'get_account_id_from_string', ['exchange-1']],
  ['database', 'get_account_id_from_string', ['1.2.7']],
  ['database', 'get_account_id_from_string', ['nobody']],
  ['database', 'get_accounts', [['exchange-1', 'user-1', '1.2.0', '1.2.7']]],
  ['database', 'get_accounts', [['nathan']]],
  ['database', 'get_accounts', [['nobody', '1.2.99999']]],
  ['database', 'get_accounts', [[]]],
  ['database', 'get_accounts', [['exchange-1'], false]],
  ['database', 'get_accounts', []],
  ['database', 'get_accounts', ['exchange-1']],
  ['database', 'get_full_accounts', [['exchange-1'], false]],
  ['database', 'get_full_accounts', [['user-1', 'user-2', '1.2.0'], false]],
  ['database', 'get_full_accounts', [['nobody'], false]],
  ['database', 'get_top_voters', [10]],
  ['database', 'get_account_by_name', ['exchange-2']],
  ['database', 'get_account_by_name', ['nathan']],
  ['database', 'get_account_by_name', ['none']],
  ['database', 'get_account_references', ['1.2.7']],
  ['database', 'lookup_account_names', [['exchange-1', 'nobody', 'user-3']]],
  ['database', 'lookup_accounts', ['', 10]],
  ['database', 'lookup_accounts', ['exchange-', 5]],
  ['database', 'lookup_accounts', ['u', 0]],
  ['database', 'lookup_accounts', ['a', 1001]],
  ['database', 'lookup_accounts', ['a', '7']],
  ['database', 'get_account_count', []],
  ['database', 'get_account_balances', ['exchange-1', []]],
  ['database', 'get_account_balances', ['user-1', ['1.3.0']]],
  ['database', 'get_account_balances', ['user-2', ['1.3.0', '1.3.1', 'XUSD']]],
  ['database', 'get_account_balances', ['nobody', []]],
  ['database', 'get_named_account_balances', ['exchange-1', []]],
  ['database', 'get_balance_objects', [[]]],
  ['database', 'get_vested_balances', [[]]],
  ['database', 'get_vesting_balances', ['exchange-1']],
  ['database', 'get_assets', [['1.3.0', 'XUSD', '1.3.2']]],
  ['database', 'get_assets', [['NOPE']]],
  ['database', 'list_assets', ['', 10]],
  ['database', 'list_assets', ['X', 2]],
  ['database', 'list_assets', ['', 102]],
  ['database', 'lookup_asset_symbols', [['BTS', 'XEUR', '1.3.3', 'NOPE']]],
  ['database', 'get_asset_count', []],
  ['database', 'get_assets_by_issuer', ['exchange-1', '1.3.0', 10]],
  ['database', 'get_asset_id_from_string', ['XBTC']],
  ['database', 'get_asset_id_from_string', ['NOPE']],
  ['database', 'get_order_book', ['BTS', 'XUSD', 10]],
  ['database', 'get_order_book', ['BTS', 'XUSD', 51]],
  ['database', 'get_limit_orders', ['1.3.0', '1.3.1', 10]],
  ['database', 'get_limit_orders_by_account', ['exchange-1']],
  ['database', 'get_call_orders', ['1.3.1', 10]],
  ['database', 'get_settle_orders', ['1.3.1', 10]],
  ['database', 'get_margin_positions', ['exchange-1']],
  ['database', 'get_collateral_bids', ['XUSD', 10, 0]],
  ['database', 'get_trade_history', ['BTS', 'XUSD', '2026-01-02T00:00:00', '2026-01-01T00:00:00', 10]],
  ['database', 'list_liquidity_pools', []],
  ['database', 'list_liquidity_pools', [10, '1.19.0']],
  ['database', 'get_liquidity_pools_by_asset_a', ['XUSD']],
  ['database', 'list_samet_funds', []],
  ['database', 'list_credit_offers', []],
  ['database', 'get_credit_deals_by_borrower', ['user-1']],
  ['database', 'get_witnesses', [['1.6.0', '1.6.1', '1.6.99']]],
  ['database', 'get_witness_by_account', ['init0']],
  ['database', 'lookup_witness_accounts', ['', 10]],
  ['database', 'get_witness_count', []],
  ['database', 'get_committee_members', [['1.5.0', '1.5.1']]],
  ['database', 'get_committee_member_by_account', ['init0']],
  ['database', 'lookup_committee_member_accounts', ['', 10]],
  ['database', 'get_committee_count', []],
  ['database', 'get_all_workers', []],
  ['database', 'get_worker_count', []],
  ['database', 'lookup_vote_ids', [['1:0', '0:11']]],
  [
    'database',
    'get_required_fees',
    [[[0, { fee: { amount: 0, asset_id: '1.3.0' }, from: '1.2.17', to: '1.2.7', amount: { amount: 1000, asset_id: '1.3.0' }, extensions: [] }]], '1.3.0'],
  ],
  ['database', 'get_required_fees', [[], '1.3.0']],
  ['database', 'get_required_fees', [[[99, {}]], '1.3.0']],
  ['database', 'verify_account_authority', ['nathan', [DEV_PUB]]],
  ['database', 'get_proposed_transactions', ['exchange-1']],
  ['database', 'list_htlcs', ['1.16.0', 10]],
  ['database', 'get_tickets_by_account', ['user-1']],
  ['history', 'get_account_history', ['exchange-1', '1.11.0', 10, '1.11.0']],
  ['history', 'get_account_history', ['exchange-1', '1.11.0', 100, '1.11.0']],
  ['history', 'get_account_history', ['exchange-1', '1.11.0', 101, '1.11.0']],
  ['history', 'get_account_history', ['user-1', '1.11.0', 5, '1.11.200']],
  ['history', 'get_account_history', ['user-3', '1.11.50', 20, '1.11.0']],
  ['history', 'get_account_history', ['exchange-2', '1.11.0', 3]],
  ['history', 'get_account_history_operations', ['exchange-1', 0, '1.11.0', '1.11.0', 10]],
  ['history', 'get_account_history_operations', ['user-2', 5, '1.11.0', '1.11.0', 10]],
  ['history', 'get_relative_account_history', ['exchange-1', 0, 10, 0]],
  ['history', 'get_relative_account_history', ['user-1', 1, 5, 10]],
  ['history', 'get_relative_account_history', ['user-1', 0, 101, 0]],
  ['history', 'get_account_history_by_operations', ['exchange-1', [0], 0, 10]],
  ['history', 'get_account_history_by_operations', ['user-2', [0, 5], 0, 101]],
  ['history', 'get_account_history_by_time', ['exchange-1', 5, '2026-01-01T00:01:00']],
  ['history', 'get_block_operation_history', [1]],
  ['history', 'get_block_operation_history', [2, 0]],
  ['history', 'get_block_operation_history', [99999]],
  ['history', 'get_block_operations_by_time', ['2026-01-01T00:00:06']],
  ['history', 'get_fill_order_history', ['BTS', 'XUSD', 10]],
  ['history', 'get_market_history_buckets', []],
  ['history', 'get_market_history', ['BTS', 'XUSD', 60, '2026-01-01T00:00:00', '2026-01-02T00:00:00']],
  ['history', 'get_liquidity_pool_history', ['1.19.0']],
  ['asset', 'get_asset_holders', ['XUSD', 0, 10]],
  ['asset', 'get_asset_holders', ['BTS', 2, 5]],
  ['asset', 'get_asset_holders', ['XUSD', 0, 101]],
  ['asset', 'get_asset_holders_count', ['XEUR']],
  ['asset', 'get_all_asset_holders', []],
  ['block', 'get_blocks', [1, 3]],
  ['block', 'get_blocks', [0, 0]],
  ['block', 'get_blocks', [1, 10001]],
  ['block', 'get_blocks', [3, 1]],
  ['crypto', 'blind', ['0000000000000000000000000000000000000000000000000000000000000001', 5]],
  ['crypto', 'range_get_info', ['00']],
  ['orders', 'get_grouped_limit_orders', ['BTS', 'XUSD', 10, null, 10]],
  ['network_node', 'get_info', []],
  ['network_node', 'get_connected_peers', []],
  ['network_node', 'get_advanced_node_parameters', []],
  ['debug', 'debug_stream_json_objects_flush', []],
  ['custom_operations', 'get_storage_info', []],
  ['custom_operations', 'get_storage_info', ['nathan', 'settings']],
  ['custom_operations', 'get_storage_info', ['nobody']],
  ['custom_operations', 'get_storage_info', [null, null, 'key']],
  ['custom_operations', 'get_storage_info', [null, null, null, 102]],
  ['custom_operations', 'get_storage_info', [null, null, null, null, '1.2.0']],
];

/** An unsigned, long-expired transaction: every broadcast of it is refused. */
const STALE_TRX = {
  ref_block_num: 0,
  ref_block_prefix: 0,
  expiration: '2026-01-01T00:00:10',
  operations: [[0, { fee: { amount: 100, asset_id: '1.3.0' }, from: '1.2.17', to: '1.2.7', amount: { amount: 1, asset_id: '1.3.0' }, extensions: [] }]],
  extensions: [],
  signatures: [],
};

const BROADCASTS: Read[] = [
  ['network_broadcast', 'broadcast_transaction', [STALE_TRX]],
  ['network_broadcast', 'broadcast_transaction', [{ ...STALE_TRX, expiration: '2030-01-01T00:00:00' }]],
  ['network_broadcast', 'broadcast_transaction', [{ ...STALE_TRX, operations: [] }]],
  ['network_broadcast', 'broadcast_transaction', [{ ...STALE_TRX, signatures: [`1f${'00'.repeat(64)}`] }]],
  ['network_broadcast', 'broadcast_transaction', [{ ...STALE_TRX, expiration: '2030-01-01T00:00:00', signatures: [`20${'11'.repeat(64)}`] }]],
  ['network_broadcast', 'broadcast_transaction', [{ ...STALE_TRX, signatures: ['zz'] }]],
  ['network_broadcast', 'broadcast_transaction', [{ ...STALE_TRX, ref_block_num: 65535, signatures: [`1f${'00'.repeat(64)}`] }]],
  ['network_broadcast', 'broadcast_transaction', [{}]],
  ['network_broadcast', 'broadcast_transaction', []],
  ['network_broadcast', 'broadcast_transaction_synchronous', [STALE_TRX]],
  ['network_broadcast', 'broadcast_block', [{}]],
  ['database', 'get_transaction_hex', [STALE_TRX]],
  ['database', 'get_transaction_hex_without_sig', [STALE_TRX]],
  ['database', 'get_potential_signatures', [STALE_TRX]],
  ['database', 'get_required_signatures', [STALE_TRX, [DEV_PUB]]],
  ['database', 'verify_authority', [STALE_TRX]],
  ['database', 'validate_transaction', [STALE_TRX]],
];

const ENVELOPES = [
  'nonsense',
  '',
  '{',
  '[]',
  '[{"jsonrpc":"2.0","id":1,"method":"get_chain_id","params":[]}]',
  '42',
  '"get_chain_id"',
  'null',
  '{}',
  '{"jsonrpc":"2.0","id":[1],"method":"get_chain_id","params":[]}',
  '{"jsonrpc":"2.0","id":{"n":1},"method":"get_chain_id","params":[]}',
  '{"jsonrpc":"2.0","id":true,"method":"get_chain_id","params":[]}',
  '{"jsonrpc":"2.0","id":1,"method":5,"params":[]}',
  '{"jsonrpc":"2.0","id":1,"method":"","params":[]}',
  '{"jsonrpc":"1.0","id":1,"method":"get_chain_id","params":[]}',
  '{"jsonrpc":2.0,"id":1,"method":"get_chain_id","params":[]}',
  '{"jsonrpc":null,"id":1,"method":"get_chain_id","params":[]}',
  '{"jsonrpc":"2.0","id":1,"method":"get_accounts","params":{"account_names_or_ids":["nathan"]}}',
  '{"jsonrpc":"2.0","id":1,"method":"get_chain_id","params":5}',
  '{"jsonrpc":"2.0","id":1,"method":"get_chain_id","params":null}',
  '{"jsonrpc":"2.0","id":1}',
  '{"id":7,"result":true}',
  '{"jsonrpc":"2.0","method":"get_chain_id","params":[]}',
  '{"method":"get_chain_id","params":[]}',
  '{"id":null,"method":"get_chain_id","params":[]}',
  '{"id":null,"jsonrpc":"2.0","method":"get_chain_id","params":[]}',
  '{"method":"no_such_method","params":[]}',
  '{"id":"abc","method":"get_chain_id"}',
  '{"id":"","jsonrpc":"2.0","method":"get_chain_id","params":[]}',
  '{"id":0,"method":"get_chain_id","params":[]}',
  '{"id":-0,"method":"get_chain_id","params":[]}',
  '{"id":1.5,"method":"get_chain_id","params":[]}',
  '{"id":1e3,"method":"get_chain_id","params":[]}',
  '{"id":2147483647,"method":"get_chain_id","params":[]}',
  '{"id":2147483648,"method":"get_chain_id","params":[]}',
  '{"id":4294967295,"method":"get_chain_id","params":[]}',
  '{"id":4294967296,"method":"get_chain_id","params":[]}',
  '{"id":-2147483648,"method":"get_chain_id","params":[]}',
  '{"id":-2147483649,"method":"get_chain_id","params":[]}',
  '{"id":9007199254740993,"method":"get_chain_id","params":[]}',
  '{"id":18446744073709551615,"method":"get_chain_id","params":[]}',
  '{"id":18446744073709551616,"method":"get_chain_id","params":[]}',
  '{"id":-9223372036854775809,"method":"get_chain_id","params":[]}',
  '{"id":1,"method":"call","params":[]}',
  '{"id":1,"method":"call"}',
  '{"id":1,"method":"call","params":[1,"get_info"]}',
  '{"id":1,"method":"call","params":[1,"get_info",{}]}',
  '{"id":1,"method":"call","params":[1,"get_info",[],[]]}',
  '{"id":1,"method":"call","params":[-1,"get_info",[]]}',
  '{"id":1,"method":"call","params":[99,"get_info",[]]}',
  '{"id":1,"method":"call","params":["database_api","get_chain_id",[]]}',
  '{"id":1,"method":"call","params":["history","no_such_method",[]]}',
  '{"id":1,"method":"call","params":[0,"get_chain_id",[1,2,3]]}',
  '{ "id" : 1 , "method" : "get_chain_id" , "params" : [ ] }',
  '{"id":1,"method":"get_chain_id","params":[],"extra":true}',
  '{"id":1,"id":2,"method":"get_chain_id","params":[]}',
];

const SUBSCRIPTIONS: Read[] = [
  ['database', 'set_subscribe_callback', [1, false]],
  ['database', 'set_subscribe_callback', [2, true]],
  ['database', 'set_pending_transaction_callback', [3]],
  ['database', 'set_block_applied_callback', [4]],
  ['database', 'set_auto_subscription', [false]],
  ['database', 'get_objects', [['1.2.7', '2.1.0'], true]],
  ['database', 'get_accounts', [['exchange-1'], true]],
  ['database', 'get_full_accounts', [['exchange-1'], true]],
  ['database', 'lookup_accounts', ['exchange-', 3, true]],
  ['database', 'subscribe_to_market', [5, 'BTS', 'XUSD']],
  ['database', 'unsubscribe_from_market', ['BTS', 'XUSD']],
  ['database', 'cancel_all_subscriptions', []],
  ['database', 'set_subscribe_callback', []],
  ['database', 'set_subscribe_callback', ['x', 'y']],
  ['network_broadcast', 'broadcast_transaction_with_callback', [6, STALE_TRX]],
];

let nextId = 1;
const named = ([set, method, params]: Read): string => JSON.stringify({ id: nextId++, method: 'call', params: [set, method, params] });
const direct = ([, method, params]: Read, jsonrpc = false): string =>
  JSON.stringify(jsonrpc ? { jsonrpc: '2.0', id: nextId++, method, params } : { id: nextId++, method, params });
const numeric = (api: number, method: string, params: unknown[] = []): string => JSON.stringify({ id: nextId++, method: 'call', params: [api, method, params] });
const getters = (): string[] => LOGIN_GETTERS.map((g) => numeric(1, g));

/** The login API's own sequences: getters, repeated getters, login and logout, info calls. */
function loginSequence(): string[] {
  return [
    ...getters(),
    ...getters(),
    numeric(1, 'login', ['', '']),
    numeric(1, 'login', ['bytemaster', 'supersecret']),
    ...getters(),
    numeric(1, 'login', ['bytemaster', 'wrong']),
    numeric(1, 'login', ['user2', 'superpassword2']),
    ...getters(),
    numeric(1, 'login', ['anypass', 'whatever']),
    ...getters(),
    numeric(1, 'login', []),
    numeric(1, 'login', ['bytemaster']),
    numeric(1, 'logout'),
    ...getters(),
    numeric(1, 'get_info'),
    numeric(1, 'get_config'),
    numeric(1, 'get_available_api_sets'),
    numeric(1, 'custom_operations'),
    numeric(1, 'dummy'),
    numeric(1, 'is_database_api_allowed'),
    numeric(0, 'get_chain_id'),
    numeric(2, 'get_chain_id'),
    numeric(3, 'get_account_count'),
    numeric(4, 'get_account_history', ['exchange-1', '1.11.0', 3, '1.11.0']),
    numeric(5, 'get_blocks', [50, 51]),
    numeric(12, 'get_chain_id'),
    numeric(1000, 'get_chain_id'),
  ];
}

const conn = (transport: 'ws' | 'http', requests: string[], auth?: string): Connection => ({ transport, auth, requests });
const every = <T>(list: T[], n: number, at = 0): T[] => list.filter((_, i) => i % n === at);
const inSets = (sets: string[]): Read[] => READS.filter(([set]) => sets.includes(set));
/**
 * A call by numeric API ID on a connection that has asked for every getter once, in LOGIN_GETTERS
 * order, with every set allowed: database keeps ID 0, login is 1, the others follow from 2.
 */
const byId = ([set, method, params]: Read): string => numeric(set === 'database' ? 0 : 2 + LOGIN_GETTERS.filter((g) => g !== 'database').indexOf(set), method, params);

/** One node per login API variant and access policy; each starts fresh on its own copy of the store. */
export function replayScript(): NodeScript[] {
  nextId = 1;
  return [
    {
      // The access file's users between them reach every API set; anonymous calls get access denied.
      name: 'access-file',
      options: { 'api-access': 'api-access.json', 'api-node-info': 'replay node' },
      connections: [
        conn('ws', loginSequence()),
        conn('ws', [...getters(), ...every(READS, 2).map(named)]),
        conn('http', every(READS, 2, 1).map(named)),
        conn('ws', [...every(inSets(['database']), 3).map((r) => direct(r)), ...SUBSCRIPTIONS.map(named), numeric(0, 'get_chain_id')]),
        conn('http', every(inSets(['database']), 4, 1).map((r) => direct(r, true))),
        conn('ws', [...getters(), ...inSets(['history', 'asset', 'block']).map(named), numeric(0, 'get_chain_id')], 'user2:superpassword2'),
        conn('http', inSets(['network_node', 'debug', 'crypto', 'orders', 'custom_operations']).map(named), 'anypass:x'),
        conn('http', [named(['database', 'get_chain_id', []]), named(['history', 'get_market_history_buckets', []])], 'bytemaster:wrong'),
        conn('http', [...BROADCASTS.map(named), ...every(ENVELOPES, 2).map((e) => e)]),
        conn('ws', [...BROADCASTS.map(named), numeric(0, 'get_chain_id')], 'bytemaster:supersecret'),
        conn('http', LOGIN_GETTERS.map((g) => named(['login', g, []])), 'user2:superpassword2'),
      ],
    },
    {
      // Every set open to everyone: each set's reads succeed, by numeric API ID over WebSocket.
      name: 'all-sets-open',
      options: { 'api-access': 'replay/api-access-open.json' },
      connections: [
        conn('ws', [...getters(), ...inSets(['history', 'asset', 'block', 'crypto', 'orders', 'network_node', 'debug']).map(byId), ...every(inSets(['database']), 5, 2).map(byId)]),
        conn('http', inSets(['crypto', 'orders', 'asset', 'block']).map(named)),
      ],
    },
    {
      // No access file: the default policy.
      name: 'default-policy',
      options: {},
      connections: [
        conn('ws', loginSequence()),
        conn('ws', [...ENVELOPES, numeric(0, 'get_chain_id')]),
        conn('http', ENVELOPES),
        conn('http', every(READS, 4, 2).map(named)),
        conn('ws', [...SUBSCRIPTIONS.map(named), ...every(BROADCASTS, 2).map(named), numeric(0, 'get_chain_id')]),
      ],
    },
    {
      name: 'legacy',
      options: { 'api-access': 'api-access.json', 'login-api-variant': 'legacy' },
      connections: [
        conn('ws', loginSequence()),
        conn('ws', [...getters(), numeric(1, 'get_info'), numeric(0, 'get_chain_id')], 'user2:superpassword2'),
        conn('ws', [...every(ENVELOPES, 3).map((e) => e), ...every(READS, 6, 1).map(named), numeric(0, 'get_chain_id')]),
        conn('http', [...LOGIN_GETTERS.map((g) => named(['login', g, []])), ...every(READS, 6, 4).map(named)], 'bytemaster:supersecret'),
      ],
    },
  ];
}
