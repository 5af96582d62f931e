// The node's configuration: one table of options (names as BitShares Core's witness_node spells them),
// one validator, one deep-frozen object. The CLI, the ini file, `login.get_config` and the README's
// option list are all derived from OPTIONS, so they cannot drift apart.
//
// Side-effect free on import: workers reuse `deepFreeze` and the types.

import { autoFrontEnds, autoWorkers, usableCpus } from './sizing.js';

/** BitShares Core's `application_options` api-limit fields, in its reflection order, with its defaults. */
export const API_LIMIT_DEFAULTS = {
  api_limit_get_account_history: 100,
  api_limit_get_account_history_operations: 100,
  api_limit_get_account_history_by_operations: 100,
  api_limit_get_relative_account_history: 100,
  api_limit_get_market_history: 200,
  api_limit_get_trade_history: 100,
  api_limit_get_trade_history_by_sequence: 100,
  api_limit_get_liquidity_pool_history: 101,
  api_limit_get_top_markets: 100,
  api_limit_get_assets: 101,
  api_limit_get_asset_holders: 100,
  api_limit_get_key_references: 100,
  api_limit_get_full_accounts: 50,
  api_limit_get_full_accounts_lists: 500,
  api_limit_get_full_accounts_subscribe: 100,
  api_limit_get_top_voters: 200,
  api_limit_get_limit_orders: 300,
  api_limit_get_limit_orders_by_account: 101,
  api_limit_get_account_limit_orders: 101,
  api_limit_get_grouped_limit_orders: 101,
  api_limit_get_order_book: 50,
  api_limit_get_call_orders: 300,
  api_limit_get_settle_orders: 300,
  api_limit_get_collateral_bids: 100,
  api_limit_lookup_accounts: 1000,
  api_limit_lookup_witness_accounts: 1000,
  api_limit_lookup_committee_member_accounts: 1000,
  api_limit_lookup_vote_ids: 1000,
  api_limit_list_htlcs: 100,
  api_limit_get_htlc_by: 100,
  api_limit_get_withdraw_permissions_by_giver: 101,
  api_limit_get_withdraw_permissions_by_recipient: 101,
  api_limit_get_tickets: 101,
  api_limit_get_liquidity_pools: 101,
  api_limit_get_samet_funds: 101,
  api_limit_get_credit_offers: 101,
  api_limit_get_storage_info: 101,
} as const;

export type ApiLimitName = keyof typeof API_LIMIT_DEFAULTS;
export type ApiLimits = { readonly [K in ApiLimitName]: number };

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

export interface Config {
  readonly rpcEndpoint: Endpoint;
  /** null: no TLS listener */
  readonly rpcTlsEndpoint: Endpoint | null;
  /** PEM file holding the TLS certificate (and its chain) and its private key, as witness_node takes it */
  readonly serverPem: string | null;
  /** password of an encrypted private key in serverPem ('' for none) */
  readonly serverPemPassword: string;
  readonly dataDir: string;
  /** null: the bundled config/genesis.json */
  readonly genesisJson: string | null;
  readonly apiAccess: string | null;
  readonly apiNodeInfo: string;
  readonly workers: number;
  /** serving processes (front end + pool each) beside the one writer process; 1: one process does both */
  readonly processes: number;
  /** front ends as worker threads of the writer's process (front end + pool each); 1: none. Never both this and processes above 1 */
  readonly servingThreads: number;
  readonly loginApiVariant: 'current' | 'legacy';
  readonly enableSubscribeToAll: boolean;
  /** Core's custom_operations plugin: account storage from custom operations, and custom_operations_api */
  readonly customOperationsPlugin: boolean;
  /** seconds between blocks; 0: only on demand */
  readonly blockInterval: number;
  /** ws://HOST:PORT of the node to follow (a follower produces no blocks); null: produce blocks */
  readonly follow: string | null;
  /** blocks a follower may be behind its upstream and still be ready */
  readonly followMaxLagBlocks: number;
  /** get_block requests a follower keeps in flight while it catches up */
  readonly followBlocksInFlight: number;
  /** bytes: the largest message a follower takes from its upstream */
  readonly followMaxFrameBytes: number;
  /** ms: the longest wait between a follower's attempts to reach its upstream */
  readonly followRetryMaxMs: number;
  /** JSON ["public key", "WIF"] of the block signing key; null: the development key */
  readonly privateKey: string | null;
  /** the chain's key prefix, Core's GRAPHENE_ADDRESS_PREFIX (BTS; TEST in Core's testnet builds) */
  readonly addressPrefix: string;
  readonly apiLimits: ApiLimits;
  /** blocks one get_blocks call may return */
  readonly maxGetBlocksRange: number;
  /** bytes; a larger HTTP body or WebSocket message gets -32007 (WS frames above 2x this close the socket) */
  readonly maxRequestBytes: number;
  /** nesting levels of arrays and objects in a request, as BitShares' GRAPHENE_NET_MAX_NESTED_OBJECTS */
  readonly maxJsonDepth: number;
  /** calls per WebSocket connection waiting for their reply; beyond it a call gets -32009 */
  readonly maxPendingCallsPerConnection: number;
  /** bytes of large requests held waiting to be read (src/transport/ingress.ts) */
  readonly maxIngressBytes: number;
  /** calls waiting for or running in a worker, node-wide; beyond it a call gets -32010 */
  readonly maxQueuedCalls: number;
  /** ms from a call's arrival to its reply; a call past it gets -32012 and stops using its worker */
  readonly callBudgetMs: number;
  /** bytes; a reply that would grow beyond it gets -32008 instead */
  readonly maxReplyBytes: number;
  /** ids or names one call may carry where Core sets no limit (get_objects, get_accounts, …) */
  readonly maxIdsPerCall: number;
  /** object ids one connection may be subscribed to (get_objects, get_accounts, get_assets, …); beyond it they are not subscribed */
  readonly maxSubscribedObjectsPerConnection: number;
  /** markets one connection may subscribe to with subscribe_to_market; beyond it the call is refused */
  readonly maxMarketSubscriptionsPerConnection: number;
  /** largest limit of deposits.get_transfers, and the transfers in one backlog notice of subscribe_transfers */
  readonly apiLimitGetTransfers: number;
  /** accounts one get_transfers call or subscribe_transfers subscription may name */
  readonly maxTransferAccounts: number;
  /** subscribe_transfers subscriptions one WebSocket connection may hold */
  readonly maxTransferSubscriptionsPerConnection: number;
  /** calls per second one WebSocket connection may make; 0: no limit */
  readonly maxCallsPerSecond: number;
  /** ms a light call may run in its worker before it goes back to run as heavy (0: none) */
  readonly lightSliceMs: number;
  /** nice value (Linux) heavy calls run at in their worker threads, where a thread may raise its priority again; 0: off */
  readonly heavyWorkerNice: number;
  /** worker threads under Linux's SCHED_BATCH policy: woken for a task, they do not preempt the thread on the CPU */
  readonly batchWorkerThreads: boolean;
  /** failed logins per client address or user name (in 10 minutes) before attempts are delayed */
  readonly loginFailuresBeforeDelay: number;
  /** ms; the longest a throttled login attempt waits */
  readonly loginDelayMaxMs: number;
  /** ms that shutdown waits for calls in flight to be answered */
  readonly shutdownDrainMs: number;
  /** seconds; /ready answers 503 while the head block is older (0: not checked) */
  readonly readyMaxHeadAge: number;
  /** WebSocket connections plus HTTP requests in progress, node-wide */
  readonly maxConnections: number;
  /** the same, per client address */
  readonly maxConnectionsPerIp: number;
  /** peer addresses whose X-Forwarded-For names the client (load balancers, reverse proxies) */
  readonly trustedProxies: readonly string[];
  /** seconds without traffic before a WebSocket is closed (uWS pings keep live clients open) */
  readonly wsIdleTimeout: number;
  /** bytes queued for a slow WebSocket reader before it is disconnected */
  readonly wsMaxBufferedBytes: number;
  /** bytes held for slow readers node-wide (WebSocket queues and unsent HTTP replies) */
  readonly maxBufferedBytes: number;
  /** pings a WebSocket client may send per second; more close the connection (1008) */
  readonly wsMaxPingsPerSecond: number;
  /** bytes that must stay free on the data directory's disk for a block to be written; 0: not checked */
  readonly minFreeDiskBytes: number;
  /** bytes of replies a WebSocket client may have outstanding (unread, waiting, expected of its calls in the pool) before its pool calls wait for it to read */
  readonly maxUnreadBytesPerConnection: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** json: one JSON object per line (pino); pretty: for people, through pino-pretty */
  readonly logFormat: 'json' | 'pretty';
}

type Kind =
  | { type: 'endpoint'; nullable?: boolean }
  | { type: 'string'; nullable?: boolean; pattern?: RegExp; expects?: string }
  | { type: 'path'; nullable?: boolean }
  | { type: 'int'; min: number; max: number; auto?: () => number }
  | { type: 'bool' }
  | { type: 'enum'; choices: readonly string[] }
  | { type: 'list' };

export interface OptionSpec {
  /** long option name, also the ini key */
  readonly name: string;
  /** where the value goes: a Config key, or `apiLimits.<field>` */
  readonly key: string;
  readonly kind: Kind;
  /** default as the text an operator would write */
  readonly default: string | null;
  readonly help: string;
  /** never printed (`graphene-rpc config` shows whether it is set, not its value) */
  readonly secret?: boolean;
}

const U32_MAX = 0xffffffff;

/**
 * What each api-limit bounds, naming only calls this node serves (test/cli.test.ts checks every name
 * against the registry). Most are the largest `limit` argument; some bound a list's length.
 */
const API_LIMIT_HELP: { readonly [K in ApiLimitName]: string } = {
  api_limit_get_account_history: 'Largest limit of history.get_account_history and get_account_history_by_time',
  api_limit_get_account_history_operations: 'Largest limit of history.get_account_history_operations',
  api_limit_get_account_history_by_operations: 'Largest limit of history.get_account_history_by_operations',
  api_limit_get_relative_account_history: 'Largest limit of history.get_relative_account_history',
  api_limit_get_market_history: 'Most buckets history.get_market_history returns (this chain has no markets: it answers [])',
  api_limit_get_trade_history: 'Largest limit of get_trade_history',
  api_limit_get_trade_history_by_sequence: 'Largest limit of get_trade_history_by_sequence',
  api_limit_get_liquidity_pool_history: 'Largest limit of history.get_liquidity_pool_history and get_liquidity_pool_history_by_sequence',
  api_limit_get_top_markets: 'Largest limit of get_top_markets',
  api_limit_get_assets: 'Largest limit of list_assets and get_assets_by_issuer',
  api_limit_get_asset_holders: 'Largest limit of asset.get_asset_holders',
  api_limit_get_key_references: 'Most keys in one get_key_references call',
  api_limit_get_full_accounts: 'Most accounts in one get_full_accounts call',
  api_limit_get_full_accounts_lists: 'Most entries of each list (balances, orders, …) in a get_full_accounts answer',
  api_limit_get_full_accounts_subscribe: 'Most accounts one connection may subscribe to through get_full_accounts',
  api_limit_get_top_voters: 'Largest limit of get_top_voters',
  api_limit_get_limit_orders: 'Largest limit of get_limit_orders',
  api_limit_get_limit_orders_by_account: 'Largest limit of get_limit_orders_by_account',
  api_limit_get_account_limit_orders: 'Largest limit of get_account_limit_orders',
  api_limit_get_grouped_limit_orders: 'Largest limit of orders.get_grouped_limit_orders',
  api_limit_get_order_book: 'Largest limit of get_order_book',
  api_limit_get_call_orders: 'Largest limit of get_call_orders and get_call_orders_by_account',
  api_limit_get_settle_orders: 'Largest limit of get_settle_orders and get_settle_orders_by_account',
  api_limit_get_collateral_bids: 'Largest limit of get_collateral_bids',
  api_limit_lookup_accounts: 'Largest limit of lookup_accounts',
  api_limit_lookup_witness_accounts: 'Largest limit of lookup_witness_accounts',
  api_limit_lookup_committee_member_accounts: 'Largest limit of lookup_committee_member_accounts',
  api_limit_lookup_vote_ids: 'Most votes in one lookup_vote_ids call',
  api_limit_list_htlcs: 'Largest limit of list_htlcs',
  api_limit_get_htlc_by: 'Largest limit of get_htlc_by_from and get_htlc_by_to',
  api_limit_get_withdraw_permissions_by_giver: 'Largest limit of get_withdraw_permissions_by_giver',
  api_limit_get_withdraw_permissions_by_recipient: 'Largest limit of get_withdraw_permissions_by_recipient',
  api_limit_get_tickets: 'Largest limit of list_tickets and get_tickets_by_account',
  api_limit_get_liquidity_pools: 'Largest limit of list_liquidity_pools and the get_liquidity_pools_by_* calls, and most ids in get_liquidity_pools',
  api_limit_get_samet_funds: 'Largest limit of list_samet_funds and get_samet_funds_by_owner and get_samet_funds_by_asset',
  api_limit_get_credit_offers: 'Largest limit of list_credit_offers, list_credit_deals and their get_credit_*_by_* calls',
  api_limit_get_storage_info: 'Largest limit of custom_operations.get_storage_info',
};

const limitOptions: OptionSpec[] = Object.entries(API_LIMIT_DEFAULTS).map(([field, def]) => ({
  name: field.replace(/_/g, '-'),
  key: `apiLimits.${field}`,
  kind: { type: 'int', min: 0, max: U32_MAX },
  default: String(def),
  help: `${API_LIMIT_HELP[field as ApiLimitName]} (BitShares Core's default)`,
}));

export const OPTIONS: readonly OptionSpec[] = [
  { name: 'rpc-endpoint', key: 'rpcEndpoint', kind: { type: 'endpoint' }, default: '127.0.0.1:8090', help: 'HOST:PORT for JSON-RPC over HTTP and WebSocket (port 0 picks a free port)' },
  { name: 'rpc-tls-endpoint', key: 'rpcTlsEndpoint', kind: { type: 'endpoint', nullable: true }, default: null, help: 'HOST:PORT for JSON-RPC over HTTPS and secure WebSocket (wss), with --server-pem; both endpoints may be served at once (default: no TLS)' },
  { name: 'server-pem', key: 'serverPem', kind: { type: 'path', nullable: true }, default: null, help: 'PEM file with the TLS certificate (and any intermediates) and its private key, as witness_node takes it' },
  { name: 'server-pem-password', key: 'serverPemPassword', kind: { type: 'string' }, default: '', help: 'Password of the private key in --server-pem, when it is encrypted', secret: true },
  { name: 'data-dir', key: 'dataDir', kind: { type: 'path' }, default: './data', help: 'Directory of the chain store; created from the genesis file on first start' },
  { name: 'genesis-json', key: 'genesisJson', kind: { type: 'path', nullable: true }, default: null, help: 'Genesis file used when the data directory is new (default: the bundled config/genesis.json)' },
  { name: 'api-access', key: 'apiAccess', kind: { type: 'path', nullable: true }, default: null, help: 'JSON file of users and the API sets they may use (default: everyone gets the public sets)' },
  { name: 'api-node-info', key: 'apiNodeInfo', kind: { type: 'string' }, default: '', help: 'Text returned by login.get_info' },
  {
    name: 'workers',
    key: 'workers',
    // Sized for the front ends actually configured: resolveConfig sizes it again once --processes is known.
    kind: { type: 'int', min: 1, max: 256, auto: () => autoWorkers(usableCpus(), autoFrontEnds(usableCpus())) },
    default: 'auto',
    help: 'Worker threads per front end (the node\'s, or each serving process\' or serving thread\'s) that run chain queries; auto: two, or one per two CPUs of each front end\'s share where that is more (src/sizing.ts)',
  },
  {
    name: 'processes',
    key: 'processes',
    kind: { type: 'int', min: 1, max: 256, auto: () => autoFrontEnds(usableCpus()) },
    default: 'auto',
    help: 'Serving processes sharing the RPC port, each with its own front end and --workers threads, beside one writer process (1: one process does everything; auto: one per 4 CPUs the node may use, cgroup quota included, at least 1). See README "Scaling out"',
  },
  {
    name: 'serving-threads',
    key: 'servingThreads',
    kind: { type: 'int', min: 1, max: 256 },
    default: '1',
    help: 'Front ends as threads of one process instead of serving processes: N threads sharing the RPC port, each with its own connections, sessions and --workers threads, beside the writer in the main thread (1: none; above 1, --processes auto means 1 and any other --processes is refused). See README "Scaling out"',
  },
  { name: 'login-api-variant', key: 'loginApiVariant', kind: { type: 'enum', choices: ['current', 'legacy'] }, default: 'current', help: 'Login API of BitShares Core >= 6.1 (current) or <= 6.0 (legacy)' },
  // At most GRAPHENE_MAX_BLOCK_INTERVAL (30 s, protocol/config.hpp), as chain_parameters::validate()
  // requires of block_interval: the global properties report the interval in use, and a longer one
  // would be a value Core refuses to hold.
  { name: 'block-interval', key: 'blockInterval', kind: { type: 'int', min: 0, max: 30 }, default: '3', help: 'Seconds between produced blocks, at most 30 (Core\'s GRAPHENE_MAX_BLOCK_INTERVAL); 0 produces blocks only on demand (debug_generate_blocks)' },
  { name: 'private-key', key: 'privateKey', kind: { type: 'string', nullable: true }, default: null, help: 'Block signing key pair ["public key","WIF private key"], as witness_node takes it (default: the development key, with the chain\'s key prefix)' },
  {
    name: 'address-prefix',
    key: 'addressPrefix',
    kind: { type: 'string', pattern: /^[A-Z]{1,16}$/, expects: '1 to 16 upper-case letters' },
    default: 'BTS',
    help: "Key prefix of the chain (BitShares Core's GRAPHENE_ADDRESS_PREFIX; its testnet builds use TEST): public keys and addresses in requests, replies, stored objects and the genesis file carry it; a data directory keeps the prefix it was created with",
  },
  {
    name: 'follow',
    key: 'follow',
    kind: { type: 'string', nullable: true, pattern: /^wss?:\/\/[^\s/?#]+(\/\S*)?$/, expects: 'a ws://HOST:PORT (or wss://) URL' },
    default: null,
    help: 'Follow the node at this WebSocket URL (this node or BitShares Core, same genesis) instead of producing blocks: its blocks are applied to this store, reads and subscriptions are served here, broadcasts are forwarded to it (default: produce blocks)',
  },
  { name: 'follow-max-lag-blocks', key: 'followMaxLagBlocks', kind: { type: 'int', min: 0, max: 1_000_000 }, default: '5', help: 'On a follower, GET /ready answers 503 while it is more blocks than this behind its upstream (or not connected to it)' },
  { name: 'follow-blocks-in-flight', key: 'followBlocksInFlight', kind: { type: 'int', min: 1, max: 1000 }, default: '32', help: 'get_block requests a follower keeps in flight to its upstream while it catches up' },
  { name: 'follow-max-frame-bytes', key: 'followMaxFrameBytes', kind: { type: 'int', min: 64 * 1024, max: 1024 * 1024 * 1024 }, default: String(16 * 1024 * 1024), help: 'Largest message a follower takes from its upstream, in bytes; a larger one stops following (a block that big cannot be applied)' },
  { name: 'follow-retry-max-ms', key: 'followRetryMaxMs', kind: { type: 'int', min: 100, max: 600_000 }, default: '10000', help: 'Longest wait between a follower\'s attempts to reach its upstream, in milliseconds (the first wait is 250 ms, doubling)' },
  { name: 'enable-subscribe-to-all', key: 'enableSubscribeToAll', kind: { type: 'bool' }, default: 'false', help: 'Allow set_subscribe_callback(cb, true)' },
  {
    name: 'custom-operations-plugin',
    key: 'customOperationsPlugin',
    kind: { type: 'bool' },
    default: 'true',
    help: "Run BitShares Core's custom_operations plugin, which witness_node enables by default: account storage (7.0.x) written by custom operations from the first block, read with custom_operations_api.get_storage_info; false: custom operations are still applied, their payloads are not, and the custom_operations getter answers that the plugin is not enabled",
  },
  ...limitOptions,
  { name: 'max-get-blocks-range', key: 'maxGetBlocksRange', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '10000', help: 'Most blocks one block_api.get_blocks call may return (Core has no limit)' },
  { name: 'max-request-bytes', key: 'maxRequestBytes', kind: { type: 'int', min: 256, max: 64 * 1024 * 1024 }, default: String(1024 * 1024), help: 'Largest request body or WebSocket message, in bytes; larger ones get error -32007' },
  { name: 'max-json-depth', key: 'maxJsonDepth', kind: { type: 'int', min: 2, max: 10_000 }, default: '250', help: 'Deepest nesting of arrays and objects in a request (BitShares: 250)' },
  {
    name: 'max-ingress-bytes',
    key: 'maxIngressBytes',
    kind: { type: 'int', min: 1024 * 1024, max: 16 * 1024 * 1024 * 1024 },
    default: String(64 * 1024 * 1024),
    help: 'Bytes of large requests (over 64 KiB) the node may hold waiting to be read, one per turn of its event loop, connections in turn; past it large requests get error -32010',
  },
  { name: 'max-pending-calls-per-connection', key: 'maxPendingCallsPerConnection', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '100', help: 'Calls a WebSocket connection may have in flight; more get error -32009' },
  { name: 'max-queued-calls', key: 'maxQueuedCalls', kind: { type: 'int', min: 1, max: 10_000_000 }, default: '10000', help: 'Calls the node may hold for its worker pool (waiting or running); more get error -32010' },
  {
    name: 'light-slice-ms',
    key: 'lightSliceMs',
    kind: { type: 'int', min: 0, max: 1000 },
    default: '5',
    help: 'Milliseconds a call guessed light may run in its worker; past it the call stops and runs again as heavy, and calls of its method and argument size that do so 3 times are heavy from the start (0: no slice)',
  },
  {
    name: 'heavy-worker-nice',
    key: 'heavyWorkerNice',
    kind: { type: 'int', min: 0, max: 19 },
    default: '10',
    help: 'Nice value (Linux) heavy calls run at in their worker threads (with two workers or more), light calls running at the front end\'s, so that when the CPUs are short the front end and light calls get them first; only where a thread may raise its priority again (CAP_SYS_NICE, or RLIMIT_NICE 20), else every call runs at the front end\'s priority (0: off)',
  },
  {
    name: 'batch-worker-threads',
    key: 'batchWorkerThreads',
    kind: { type: 'bool' },
    default: 'true',
    help: "Worker threads run under Linux's SCHED_BATCH policy (set with util-linux's chrt): a worker woken for a task does not preempt the thread on the CPU (the front end, most often), which finishes its turn of reading requests and writing replies first; workers still get their share of the CPUs. Where chrt is missing the node logs so and runs them under the default policy (false: the default policy)",
  },
  { name: 'call-budget-ms', key: 'callBudgetMs', kind: { type: 'int', min: 10, max: 3_600_000 }, default: '5000', help: 'Milliseconds a call may take from arrival to reply; past it the call gets error -32012 and its worker is freed (Core has no such limit)' },
  { name: 'max-reply-bytes', key: 'maxReplyBytes', kind: { type: 'int', min: 1024, max: 1024 * 1024 * 1024 }, default: String(32 * 1024 * 1024), help: 'Largest reply in bytes; a call whose reply would be larger gets error -32008 instead' },
  { name: 'max-ids-per-call', key: 'maxIdsPerCall', kind: { type: 'int', min: 1, max: 10_000_000 }, default: '1000', help: 'Ids or names one call may carry where Core sets no limit (get_objects, get_accounts, lookup_account_names, …)' },
  {
    name: 'max-subscribed-objects-per-connection',
    key: 'maxSubscribedObjectsPerConnection',
    kind: { type: 'int', min: 1, max: 10_000_000 },
    default: '10000',
    help: 'Object ids one WebSocket connection may be subscribed to (get_objects, get_accounts, get_assets, …); the call still answers, ids beyond it are not subscribed (Core keeps them in a bloom filter sized for 10,000)',
  },
  { name: 'max-market-subscriptions-per-connection', key: 'maxMarketSubscriptionsPerConnection', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '100', help: 'Markets one WebSocket connection may subscribe to with subscribe_to_market; one more is refused with an execution error (Core has no limit)' },
  {
    name: 'api-limit-get-transfers',
    key: 'apiLimitGetTransfers',
    kind: { type: 'int', min: 1, max: 100_000 },
    default: '1000',
    help: 'Largest limit of deposits.get_transfers, and most transfers in one notice of subscribe_transfers (its backlog comes in pages of this size); a larger limit is refused as Core refuses its api-limit-* (this node\'s own: Core has no deposit feed)',
  },
  { name: 'max-transfer-accounts', key: 'maxTransferAccounts', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '1000', help: 'Accounts one deposits.get_transfers call or subscribe_transfers subscription may name; more are refused with an execution error' },
  { name: 'max-transfer-subscriptions-per-connection', key: 'maxTransferSubscriptionsPerConnection', kind: { type: 'int', min: 1, max: 10_000 }, default: '10', help: 'subscribe_transfers subscriptions one WebSocket connection may hold (one per callback); one more is refused with an execution error' },
  { name: 'shutdown-drain-ms', key: 'shutdownDrainMs', kind: { type: 'int', min: 0, max: 600_000 }, default: '5000', help: 'On SIGINT/SIGTERM, milliseconds to wait for calls in flight to be answered; then the rest get error -32016 and WebSockets are closed (1001); a second signal stops at once' },
  { name: 'ready-max-head-age', key: 'readyMaxHeadAge', kind: { type: 'int', min: 0, max: 31_536_000 }, default: '60', help: 'Seconds; GET /ready answers 503 while the head block is older than this (0: not checked; on-demand blocks are never checked)' },
  { name: 'max-calls-per-second', key: 'maxCallsPerSecond', kind: { type: 'int', min: 0, max: 10_000_000 }, default: '2000', help: 'Calls per second one WebSocket connection may make; more get error -32013 (0: no limit). Per-user limits go in the access file (max_calls_per_second)' },
  { name: 'login-failures-before-delay', key: 'loginFailuresBeforeDelay', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '5', help: 'Failed logins from one address, or for one user name, within 10 minutes before further attempts wait (250 ms, doubling)' },
  { name: 'login-delay-max-ms', key: 'loginDelayMaxMs', kind: { type: 'int', min: 0, max: 3_600_000 }, default: '10000', help: 'Longest wait of a throttled login attempt, in milliseconds' },
  { name: 'max-connections', key: 'maxConnections', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '10000', help: 'WebSocket connections and HTTP requests in progress the node holds at once; more are refused with HTTP 503 and error -32014' },
  { name: 'max-connections-per-ip', key: 'maxConnectionsPerIp', kind: { type: 'int', min: 1, max: 1_000_000 }, default: '100', help: 'The same, per client address' },
  { name: 'trusted-proxies', key: 'trustedProxies', kind: { type: 'list' }, default: '', help: 'Comma-separated peer addresses (load balancers) whose X-Forwarded-For header names the client address' },
  { name: 'ws-idle-timeout', key: 'wsIdleTimeout', kind: { type: 'int', min: 0, max: 960 }, default: '120', help: 'Seconds without traffic before a WebSocket is closed: 0 (never) or 8 to 960 (pings are sent automatically)' },
  { name: 'ws-max-buffered-bytes', key: 'wsMaxBufferedBytes', kind: { type: 'int', min: 1024, max: 1024 * 1024 * 1024 }, default: String(16 * 1024 * 1024), help: 'Bytes queued for a WebSocket client that does not read before it is disconnected' },
  { name: 'min-free-disk-bytes', key: 'minFreeDiskBytes', kind: { type: 'int', min: 0, max: 2 ** 52 }, default: String(64 * 1024 * 1024), help: 'Bytes that must stay free on the data directory\'s disk; below it blocks are not written and transactions get error -32015 until space returns (0: not checked); reloads on SIGHUP' },
  { name: 'ws-max-pings-per-second', key: 'wsMaxPingsPerSecond', kind: { type: 'int', min: 1, max: 100_000 }, default: '10', help: 'WebSocket ping frames a client may send per second (uWebSockets.js answers each with a pong); a client over it is disconnected with close code 1008' },
  { name: 'max-unread-bytes-per-connection', key: 'maxUnreadBytesPerConnection', kind: { type: 'int', min: 64 * 1024, max: 1024 * 1024 * 1024 }, default: String(1024 * 1024), help: 'Bytes of replies a WebSocket client may have outstanding: unread, waiting for an earlier reply, or expected of its calls in the worker pool (what calls of their shape answered lately); beyond it none of its calls that need the worker pool run until it reads (they wait, counted in --max-pending-calls-per-connection)' },
  { name: 'max-buffered-bytes', key: 'maxBufferedBytes', kind: { type: 'int', min: 64 * 1024, max: 64 * 1024 * 1024 * 1024 }, default: String(256 * 1024 * 1024), help: 'Bytes the node holds for slow readers in all (WebSocket queues and unsent HTTP replies); over it, connections holding more than their share are closed and heavy calls get error -32010' },
  { name: 'log-level', key: 'logLevel', kind: { type: 'enum', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }, default: 'info', help: 'Log level (pino)' },
  { name: 'log-format', key: 'logFormat', kind: { type: 'enum', choices: ['json', 'pretty'] }, default: 'json', help: 'Log lines as JSON objects (json), or formatted for people (pretty)' },
];

export class ConfigError extends Error {}

function parseValue(spec: OptionSpec, raw: string, source: string): unknown {
  const where = `${source}: option '${spec.name}'`;
  const k = spec.kind;
  switch (k.type) {
    case 'string':
      if (raw === '' && k.nullable) return null;
      if (k.pattern && !k.pattern.test(raw)) throw new ConfigError(`${where} expects ${k.expects ?? k.pattern.source}, got '${raw}'`);
      return raw;
    case 'path':
      if (raw === '' && k.nullable) return null;
      if (raw === '') throw new ConfigError(`${where} needs a path`);
      return raw;
    case 'int': {
      const t = raw.trim();
      if (t === 'auto' && k.auto) return Math.min(k.max, Math.max(k.min, k.auto()));
      if (!/^\d+$/.test(t)) throw new ConfigError(`${where} expects an integer from ${k.min} to ${k.max}${k.auto ? ' or auto' : ''}, got '${raw}'`);
      const n = Number(t);
      if (n < k.min || n > k.max) throw new ConfigError(`${where} expects an integer from ${k.min} to ${k.max}, got '${raw}'`);
      return n;
    }
    case 'bool': {
      const t = raw.trim().toLowerCase();
      if (t === 'true' || t === '1' || t === 'yes') return true;
      if (t === 'false' || t === '0' || t === 'no') return false;
      throw new ConfigError(`${where} expects true or false, got '${raw}'`);
    }
    case 'enum':
      if (!k.choices.includes(raw)) throw new ConfigError(`${where} expects one of ${k.choices.join(', ')}, got '${raw}'`);
      return raw;
    case 'list':
      return raw
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');
    case 'endpoint': {
      if (raw.trim() === '' && k.nullable) return null;
      const m = /^(.*):(\d{1,5})$/.exec(raw.trim());
      const host = m?.[1]?.replace(/^\[(.*)\]$/, '$1');
      const port = m ? Number(m[2]) : NaN;
      if (!m || !host || port > 65535) throw new ConfigError(`${where} expects HOST:PORT, got '${raw}'`);
      return { host, port };
    }
  }
}

export const optionByName: ReadonlyMap<string, OptionSpec> = new Map(OPTIONS.map((o) => [o.name, o]));

/** Where an option's value came from. */
export type OptionSource = 'default' | 'config file' | 'environment' | 'command line';

/** The environment variable of an option: GRAPHENE_RPC_ and the option name in capitals, `-` as `_`. */
export const envName = (option: string): string => `GRAPHENE_RPC_${option.toUpperCase().replace(/-/g, '_')}`;
const ENV_PREFIX = 'GRAPHENE_RPC_';

/**
 * Builds the frozen config from option texts, and says where each value came from. Precedence, lowest
 * first: defaults, the ini file, environment variables (GRAPHENE_RPC_<OPTION>), the command line, as
 * witness_node gives the command line precedence over config.ini. A bad value stops with one line
 * naming the option, its source and what is allowed. `env` is the process environment: only the
 * CLI passes it, so nothing else reads process.env.
 */
export function resolveConfig(
  cli: Readonly<Record<string, string>>,
  file: Readonly<Record<string, string>> = {},
  fileName = 'config file',
  env: Readonly<Record<string, string | undefined>> = {},
): { config: Config; sources: Readonly<Record<string, OptionSource>> } {
  for (const name of Object.keys(file)) {
    if (!optionByName.has(name)) throw new ConfigError(`${fileName}: unknown option '${name}'`);
  }
  for (const name of Object.keys(cli)) {
    if (!optionByName.has(name)) throw new ConfigError(`command line: unknown option '--${name}'`);
  }
  const fromEnv: Record<string, string> = {};
  const envOptions = new Map(OPTIONS.map((o) => [envName(o.name), o.name]));
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith(ENV_PREFIX) || v === undefined) continue;
    const name = envOptions.get(k);
    // A misspelt variable would otherwise be ignored in silence.
    if (name === undefined) throw new ConfigError(`environment: unknown variable ${k} (options are GRAPHENE_RPC_ and the option name in capitals, e.g. ${envName('rpc-endpoint')})`);
    fromEnv[name] = v;
  }
  const out: Record<string, unknown> = { apiLimits: {} };
  let workersAuto = false;
  let processesAuto = false;
  const sources: Record<string, OptionSource> = {};
  /** where each value came from, as a refusal names it */
  const wheres: Record<string, string> = {};
  for (const spec of OPTIONS) {
    let raw: string | null = spec.default;
    let source: OptionSource = 'default';
    let where = 'default';
    if (spec.name in file) {
      raw = file[spec.name]!;
      source = 'config file';
      where = fileName;
    }
    if (spec.name in fromEnv) {
      raw = fromEnv[spec.name]!;
      source = 'environment';
      where = `environment ${envName(spec.name)}`;
    }
    if (spec.name in cli) {
      raw = cli[spec.name]!;
      source = 'command line';
      where = 'command line';
    }
    const value = raw === null ? null : parseValue(spec, raw, where);
    if (spec.name === 'workers' && raw?.trim() === 'auto') workersAuto = true;
    if (spec.name === 'processes' && raw?.trim() === 'auto') processesAuto = true;
    sources[spec.name] = source;
    wheres[spec.name] = where;
    if (spec.key.startsWith('apiLimits.')) (out.apiLimits as Record<string, unknown>)[spec.key.slice(10)] = value;
    else out[spec.key] = value;
  }
  // Front ends are processes or threads, not both: serving threads take the place of the automatic
  // serving processes, and refuse a count of processes given beside them.
  if ((out.servingThreads as number) > 1) {
    if (processesAuto) out.processes = 1;
    else if ((out.processes as number) > 1) {
      throw new ConfigError(`${wheres['serving-threads']}: option 'serving-threads' (${out.servingThreads as number}) needs --processes 1 or auto, got ${out.processes as number} from ${wheres.processes}: the node's front ends are processes or threads, not both`);
    }
  }
  // --workers auto sizes each front end's share of the CPUs, so it follows --processes or --serving-threads.
  if (workersAuto) out.workers = autoWorkers(usableCpus(), frontEnds(out as unknown as Config));
  // A TLS listener needs its certificate: refused here, with the option's source, rather than at listen.
  if (out.rpcTlsEndpoint !== null && out.serverPem === null) {
    throw new ConfigError(`${wheres['rpc-tls-endpoint']}: option 'rpc-tls-endpoint' needs --server-pem (the certificate and its private key in one PEM file)`);
  }
  const plain = out.rpcEndpoint as Endpoint;
  const tls = out.rpcTlsEndpoint as Endpoint | null;
  if (tls && tls.port !== 0 && tls.port === plain.port && tls.host === plain.host) {
    throw new ConfigError(`${wheres['rpc-tls-endpoint']}: option 'rpc-tls-endpoint' expects a HOST:PORT other than --rpc-endpoint's, got '${tls.host}:${tls.port}'`);
  }
  // uWebSockets.js aborts the whole process (std::terminate, "idleTimeout must be either 0 or greater
  // than 8") at listen for an idle timeout of 1 to 7 s: refused here with its source instead.
  const idle = out.wsIdleTimeout as number;
  if (idle > 0 && idle < 8) {
    throw new ConfigError(`${wheres['ws-idle-timeout']}: option 'ws-idle-timeout' expects 0 or an integer from 8 to 960, got '${idle}' (uWebSockets.js takes no shorter idle timeout)`);
  }
  return { config: deepFreeze(out as unknown as Config), sources: Object.freeze(sources) };
}

/** The node's front ends: its serving processes or its serving threads (one of the two is 1). */
export const frontEnds = (config: Pick<Config, 'processes' | 'servingThreads'>): number => config.processes * config.servingThreads;

/** The frozen config from option texts (resolveConfig without the sources). */
export function buildConfig(
  cli: Readonly<Record<string, string>>,
  file: Readonly<Record<string, string>> = {},
  fileName = 'config file',
  env: Readonly<Record<string, string | undefined>> = {},
): Config {
  return resolveConfig(cli, file, fileName, env).config;
}

export const defaultConfig = (overrides: Readonly<Record<string, string>> = {}): Config => buildConfig(overrides);

/** Freezes an object graph; workers call it again because structured clone drops frozenness. */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}

/** `application_options` as BitShares Core's `login.get_config` returns it (reference §1.5 key order). */
export function applicationOptions(config: Config): Record<string, unknown> {
  return {
    enable_subscribe_to_all: config.enableSubscribeToAll,
    // The calls these plugins serve in Core are served here (key/account references, tickers and
    // market history on a chain without markets), so the flags say so.
    has_api_helper_indexes_plugin: true,
    has_market_history_plugin: true,
    ...config.apiLimits,
  };
}
