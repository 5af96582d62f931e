// config.ts: defaults, precedence (command line > ini file > default), refusals, freezing, and the
// application_options view that login.get_config returns (reference §1.5).
import test from 'ava';
import { autoFrontEnds, autoWorkers, usableCpus } from '../src/sizing.js';
import os from 'node:os';
import { API_LIMIT_DEFAULTS, OPTIONS, ConfigError, applicationOptions, buildConfig, defaultConfig, frontEnds, resolveConfig } from '../src/config.js';
import { DEV_WIF } from './helpers/chain.js';

// BitShares Core's defaults in its reflection order, copied from reference §1.5 (not from config.ts).
const CORE_LIMITS: [string, number][] = [
  ['api_limit_get_account_history', 100],
  ['api_limit_get_account_history_operations', 100],
  ['api_limit_get_account_history_by_operations', 100],
  ['api_limit_get_relative_account_history', 100],
  ['api_limit_get_market_history', 200],
  ['api_limit_get_trade_history', 100],
  ['api_limit_get_trade_history_by_sequence', 100],
  ['api_limit_get_liquidity_pool_history', 101],
  ['api_limit_get_top_markets', 100],
  ['api_limit_get_assets', 101],
  ['api_limit_get_asset_holders', 100],
  ['api_limit_get_key_references', 100],
  ['api_limit_get_full_accounts', 50],
  ['api_limit_get_full_accounts_lists', 500],
  ['api_limit_get_full_accounts_subscribe', 100],
  ['api_limit_get_top_voters', 200],
  ['api_limit_get_limit_orders', 300],
  ['api_limit_get_limit_orders_by_account', 101],
  ['api_limit_get_account_limit_orders', 101],
  ['api_limit_get_grouped_limit_orders', 101],
  ['api_limit_get_order_book', 50],
  ['api_limit_get_call_orders', 300],
  ['api_limit_get_settle_orders', 300],
  ['api_limit_get_collateral_bids', 100],
  ['api_limit_lookup_accounts', 1000],
  ['api_limit_lookup_witness_accounts', 1000],
  ['api_limit_lookup_committee_member_accounts', 1000],
  ['api_limit_lookup_vote_ids', 1000],
  ['api_limit_list_htlcs', 100],
  ['api_limit_get_htlc_by', 100],
  ['api_limit_get_withdraw_permissions_by_giver', 101],
  ['api_limit_get_withdraw_permissions_by_recipient', 101],
  ['api_limit_get_tickets', 101],
  ['api_limit_get_liquidity_pools', 101],
  ['api_limit_get_samet_funds', 101],
  ['api_limit_get_credit_offers', 101],
  ['api_limit_get_storage_info', 101],
];

const refused = (t: import('ava').ExecutionContext, fn: () => unknown, ...parts: (string | RegExp)[]): void => {
  const err = t.throws(fn, { instanceOf: ConfigError });
  for (const p of parts) {
    if (typeof p === 'string') t.true(err!.message.includes(p), `message ${JSON.stringify(err!.message)} should contain ${JSON.stringify(p)}`);
    else t.regex(err!.message, p);
  }
};

test('defaults: rpc-endpoint is 127.0.0.1:8090 and the other options have their documented values', (t) => {
  const c = buildConfig({});
  t.deepEqual(c.rpcEndpoint, { host: '127.0.0.1', port: 8090 });
  t.is(c.dataDir, './data');
  t.is(c.genesisJson, null);
  t.is(c.apiAccess, null);
  t.is(c.apiNodeInfo, '');
  t.is(c.processes, autoFrontEnds(usableCpus()));
  t.is(c.servingThreads, 1);
  t.is(c.workers, autoWorkers(usableCpus(), c.processes));
  t.is(c.loginApiVariant, 'current');
  t.is(c.enableSubscribeToAll, false);
  t.is(c.maxJsonDepth, 250);
  t.is(c.maxRequestBytes, 1024 * 1024);
  t.is(c.logLevel, 'info');
});

test('address-prefix: BTS by default, any 1 to 16 upper-case letters (TEST, as Core testnet builds), anything else refused', (t) => {
  t.is(buildConfig({}).addressPrefix, 'BTS');
  t.is(buildConfig({ 'address-prefix': 'TEST' }).addressPrefix, 'TEST');
  t.is(buildConfig({}, { 'address-prefix': 'GPH' }).addressPrefix, 'GPH');
  for (const bad of ['', 'test', 'TE5T', 'ABCDEFGHIJKLMNOPQ', 'BTS ']) refused(t, () => buildConfig({ 'address-prefix': bad }), "command line: option 'address-prefix' expects 1 to 16 upper-case letters");
});

test('private-key: the development key unless given (null), as the pair witness_node takes otherwise', (t) => {
  t.is(buildConfig({}).privateKey, null);
  t.is(buildConfig({ 'private-key': '' }).privateKey, null);
  t.is(buildConfig({ 'private-key': `["TEST6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV","${DEV_WIF}"]` }).privateKey?.startsWith('["TEST'), true);
});

test('defaults: every api-limit equals BitShares Core default, and there is no other limit', (t) => {
  const c = defaultConfig();
  t.deepEqual({ ...c.apiLimits }, Object.fromEntries(CORE_LIMITS));
  t.deepEqual(Object.keys(API_LIMIT_DEFAULTS), CORE_LIMITS.map(([k]) => k));
});

test('every api-limit has an option spelled as witness_node spells it', (t) => {
  const names = new Set(OPTIONS.map((o) => o.name));
  for (const [field, def] of CORE_LIMITS) {
    const name = field.replace(/_/g, '-');
    t.true(names.has(name), name);
    t.is(OPTIONS.find((o) => o.name === name)!.default, String(def), name);
  }
  t.true(names.has('rpc-endpoint'));
  t.true(names.has('api-access'));
  t.true(names.has('enable-subscribe-to-all'));
});

test('precedence: the command line wins over the ini file, which wins over the default', (t) => {
  const file = { workers: '2', 'api-limit-get-account-history': '50', 'api-node-info': 'from file' };
  const both = buildConfig({ workers: '3', 'api-limit-get-account-history': '70' }, file);
  t.is(both.workers, 3);
  t.is(both.apiLimits.api_limit_get_account_history, 70);
  t.is(both.apiNodeInfo, 'from file');
  const fileOnly = buildConfig({}, file);
  t.is(fileOnly.workers, 2);
  t.is(fileOnly.apiLimits.api_limit_get_account_history, 50);
  t.is(fileOnly.apiLimits.api_limit_get_relative_account_history, 100);
});

test('values from the command line and the file are parsed into their types', (t) => {
  const c = buildConfig({ 'rpc-endpoint': '0.0.0.0:0', 'enable-subscribe-to-all': 'true', 'login-api-variant': 'legacy', 'api-access': 'x.json' });
  t.deepEqual(c.rpcEndpoint, { host: '0.0.0.0', port: 0 });
  t.is(c.enableSubscribeToAll, true);
  t.is(c.loginApiVariant, 'legacy');
  t.is(c.apiAccess, 'x.json');
  t.deepEqual(buildConfig({ 'rpc-endpoint': '[::1]:8091' }).rpcEndpoint, { host: '::1', port: 8091 });
  t.is(buildConfig({}, { 'enable-subscribe-to-all': 'false' }).enableSubscribeToAll, false);
});

test('an unknown option in the ini file is refused with a message naming it and the file', (t) => {
  refused(t, () => buildConfig({}, { 'no-such-option': '1' }, 'config file my.ini'), 'no-such-option', 'my.ini');
});

test('an unknown option on the command line is refused with a message naming it', (t) => {
  refused(t, () => buildConfig({ 'rpc-endpoints': '127.0.0.1:1' }), 'rpc-endpoints', 'command line');
});

test('a bad integer is refused with a message naming the option', (t) => {
  for (const bad of ['abc', '-1', '1.5', '', '0x10', '4294967296']) {
    refused(t, () => buildConfig({ 'api-limit-get-account-history': bad }), "'api-limit-get-account-history'");
  }
  refused(t, () => buildConfig({ workers: '0' }), "'workers'");
  refused(t, () => buildConfig({}, { workers: 'many' }, 'config file a.ini'), "'workers'", 'a.ini');
  t.is(buildConfig({ 'api-limit-get-account-history': '4294967295' }).apiLimits.api_limit_get_account_history, 4294967295);
});

test('block-interval: 0 (on demand) to 30 s, Core\'s GRAPHENE_MAX_BLOCK_INTERVAL; 31 and more refused, as chain_parameters::validate() refuses them', (t) => {
  t.is(buildConfig({ 'block-interval': '0' }).blockInterval, 0);
  t.is(buildConfig({ 'block-interval': '30' }).blockInterval, 30);
  for (const bad of ['31', '255', '3600']) refused(t, () => buildConfig({ 'block-interval': bad }), "'block-interval' expects an integer from 0 to 30", `'${bad}'`);
  refused(t, () => buildConfig({}, { 'block-interval': '60' }, 'config file a.ini'), "'block-interval'", 'a.ini');
});

test('a bad boolean is refused with a message naming the option', (t) => {
  refused(t, () => buildConfig({ 'enable-subscribe-to-all': 'maybe' }), "'enable-subscribe-to-all'");
});

test('a bad enum value is refused with a message naming the option and the choices', (t) => {
  refused(t, () => buildConfig({ 'login-api-variant': 'newest' }), "'login-api-variant'", 'current', 'legacy');
  refused(t, () => buildConfig({ 'log-level': 'loud' }), "'log-level'");
});

test('a bad endpoint is refused with a message naming the option', (t) => {
  for (const bad of ['127.0.0.1', '127.0.0.1:', ':8090', '127.0.0.1:65536', '127.0.0.1:port', '']) {
    refused(t, () => buildConfig({ 'rpc-endpoint': bad }), "'rpc-endpoint'");
  }
});

test('the config is deep-frozen', (t) => {
  const c = buildConfig({});
  t.true(Object.isFrozen(c));
  t.true(Object.isFrozen(c.apiLimits));
  t.true(Object.isFrozen(c.rpcEndpoint));
  t.throws(() => {
    (c as unknown as { workers: number }).workers = 99;
  }, { instanceOf: TypeError });
  t.throws(() => {
    (c.apiLimits as unknown as Record<string, number>).api_limit_get_account_history = 1;
  }, { instanceOf: TypeError });
  t.is(c.apiLimits.api_limit_get_account_history, 100);
});

test('applicationOptions has Core key order: subscribe flag, the two plugin flags, then every api_limit', (t) => {
  const opts = applicationOptions(buildConfig({ 'enable-subscribe-to-all': 'true', 'api-limit-get-full-accounts-subscribe': '120' }));
  t.deepEqual(Object.keys(opts), [
    'enable_subscribe_to_all',
    'has_api_helper_indexes_plugin',
    'has_market_history_plugin',
    ...CORE_LIMITS.map(([k]) => k),
  ]);
  t.is(opts.enable_subscribe_to_all, true);
  t.is(opts.has_api_helper_indexes_plugin, true);
  t.is(opts.has_market_history_plugin, true);
  t.is(opts.api_limit_get_full_accounts_subscribe, 120);
  t.is(opts.api_limit_lookup_accounts, 1000);
});

test('applicationOptions api_limit keys follow the order of OPTIONS', (t) => {
  const fromOptions = OPTIONS.filter((o) => o.key.startsWith('apiLimits.')).map((o) => o.key.slice('apiLimits.'.length));
  const keys = Object.keys(applicationOptions(defaultConfig())).filter((k) => k.startsWith('api_limit_'));
  t.deepEqual(keys, fromOptions);
});

test('sources take precedence in order: default < config file < environment < command line, and each value says where it came from', (t) => {
  const file = { workers: '2', 'max-reply-bytes': '4096', 'log-level': 'warn' };
  const env = { GRAPHENE_RPC_WORKERS: '3', GRAPHENE_RPC_LOG_LEVEL: 'error', PATH: '/bin' };
  const { config, sources } = resolveConfig({ workers: '4' }, file, 'config file x.ini', env);
  t.is(config.workers, 4);
  t.is(sources.workers, 'command line');
  t.is(config.logLevel, 'error');
  t.is(sources['log-level'], 'environment');
  t.is(config.maxReplyBytes, 4096);
  t.is(sources['max-reply-bytes'], 'config file');
  t.is(sources['rpc-endpoint'], 'default');
  t.true(Object.isFrozen(sources));
});

test('an environment variable that names no option stops start-up; a bad value names the variable', (t) => {
  t.throws(() => resolveConfig({}, {}, 'config file', { GRAPHENE_RPC_WORKRS: '3' }), { message: /environment: unknown variable GRAPHENE_RPC_WORKRS/ });
  t.throws(() => resolveConfig({}, {}, 'config file', { GRAPHENE_RPC_WORKERS: 'many' }), {
    message: "environment GRAPHENE_RPC_WORKERS: option 'workers' expects an integer from 1 to 256 or auto, got 'many'",
  });
});

test('--ws-idle-timeout of 1 to 7 s stops start-up with a config error (uWebSockets.js would abort the process at listen); 0 and 8 are taken', (t) => {
  for (const v of ['1', '7']) {
    t.throws(() => resolveConfig({ 'ws-idle-timeout': v }, {}, 'config file', {}), {
      message: `command line: option 'ws-idle-timeout' expects 0 or an integer from 8 to 960, got '${v}' (uWebSockets.js takes no shorter idle timeout)`,
    });
  }
  t.is(resolveConfig({ 'ws-idle-timeout': '0' }, {}, 'config file', {}).config.wsIdleTimeout, 0);
  t.is(resolveConfig({ 'ws-idle-timeout': '8' }, {}, 'config file', {}).config.wsIdleTimeout, 8);
});

test('--workers and --processes auto are sized from the usable CPUs, and are the defaults; auto workers follow the processes given', (t) => {
  const cpus = usableCpus();
  t.is(buildConfig({ workers: 'auto' }).workers, autoWorkers(cpus, autoFrontEnds(cpus)));
  t.is(buildConfig({}).workers, autoWorkers(cpus, autoFrontEnds(cpus)));
  t.is(buildConfig({ processes: 'auto' }).processes, autoFrontEnds(cpus));
  t.is(buildConfig({ processes: '8' }).workers, autoWorkers(cpus, 8), 'auto workers are sized for the processes actually configured');
  t.is(buildConfig({ processes: '8', workers: '3' }).workers, 3, 'a number given is kept');
});

test('--serving-threads: 1 by default; above 1 it takes the place of automatic serving processes, refuses a number of them, and auto workers follow it', (t) => {
  const cpus = usableCpus();
  t.is(buildConfig({}).servingThreads, 1);
  const threads = buildConfig({ 'serving-threads': '4' });
  t.is(threads.servingThreads, 4);
  t.is(threads.processes, 1, '--processes auto means one process when the front ends are threads');
  t.is(threads.workers, autoWorkers(cpus, 4), 'auto workers are sized for the threads');
  t.is(frontEnds(threads), 4);
  t.is(buildConfig({ 'serving-threads': '4', processes: '1' }).servingThreads, 4);
  t.is(frontEnds(buildConfig({ processes: '3' })), 3);
  refused(t, () => resolveConfig({ 'serving-threads': '2' }, { processes: '2' }, 'node.ini'), "command line: option 'serving-threads' (2) needs --processes 1 or auto, got 2 from node.ini");
  refused(t, () => buildConfig({ 'serving-threads': '0' }), "'serving-threads'");
});
