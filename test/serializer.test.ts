// The binary serialiser against bitsharesjs' (an independent implementation of fc::raw::pack used by
// BitShares wallets): every operation and transaction shape packs to the same bytes, ids and digests
// agree, and the rules bitsharesjs does not cover (block id, merkle root) are pinned to block.cpp.
// Over 500 lines because it checks one module, src/chain/protocol/serializer.ts (with its packers in pack/),
// shape by shape against bitsharesjs.

import test from 'ava';
import { createHash } from 'node:crypto';
import bjs from 'bitsharesjs';
import bitsharesWs from 'bitsharesjs-ws';
import {
  canonicalSignedTransaction,
  canonicalOperation,
  packOperation,
  packTransaction,
  packSignedTransaction,
  packProcessedTransaction,
  transactionId,
  signingDigest,
  packBlockHeader,
  packSignedBlockHeader,
  blockHeaderDigest,
  blockId,
  transactionMerkleRoot,
  refBlockPrefix,
  numFromId,
} from '../src/chain/protocol/serializer.js';
import { ByteWriter } from '../src/chain/protocol/pack/byte-writer.js';
import { formatAddress, formatPublicKey, parseAddress, parsePublicKey, publicKeyAddress } from '../src/chain/crypto/public-key.js';
import { RpcError, type WireError } from '../src/errors.js';
import { NULL_PUBLIC_KEY } from '../src/chain/fc/fc-json.js';
import { DEV_PUB, DEV_WIF } from './helpers/chain.js';

// bitsharesjs defaults to the "CBA" prefix; our JSON uses the main chain's.
(bitsharesWs as { ChainConfig: { setPrefix(p: string): void } }).ChainConfig.setPrefix('BTS');

const CHAIN_ID = '4018d7844c78f6a6c41c6a552b898022310fc5dec06da467ee7905a8dad512c8';
const keyFromSeed = (seed: string): string => bjs.PrivateKey.fromSeed(seed).toPublicKey().toString();
const KEY_A = keyFromSeed('alice-owner');
const KEY_B = keyFromSeed('alice-active');
const KEY_C = keyFromSeed('alice-memo');

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bjsPack = (type: string, json: unknown): string => {
  const s = bjs.ops[type];
  if (!s) throw new Error(`bitsharesjs has no serializer ${type}`);
  return s.toBuffer(s.fromObject(json)).toString('hex');
};
/** bitsharesjs' `operation` is a bare static_variant without toBuffer: its varint code, then the op. */
const bjsOperation = (code: number, name: string, json: unknown): string => hex(new ByteWriter().varint(code).finish()) + bjsPack(name, json);

// ---------------------------------------------------------------------------------------------
// Realistic operation JSON, as the RPC API shows it

const memo = { from: DEV_PUB, to: KEY_C, nonce: '17303385396364519520', message: '2d6a4e1b9c0f3a77e0a3f2b5c8d1e4f7' };

const transfers = {
  plain: { fee: { amount: 86869, asset_id: '1.3.0' }, from: '1.2.100', to: '1.2.200', amount: { amount: 100000, asset_id: '1.3.0' }, extensions: [] },
  memo: { fee: { amount: 1000, asset_id: '1.3.0' }, from: '1.2.1048576', to: '1.2.127', amount: { amount: '5000000000', asset_id: '1.3.121' }, memo, extensions: [] },
  large: { fee: { amount: '9007199254740993', asset_id: '1.3.0' }, from: '1.2.128', to: '1.2.16384', amount: { amount: '9223372036854775807', asset_id: '1.3.16383' }, extensions: [] },
};

const auth = (threshold: number, keys: [string, number][], accounts: [string, number][] = []) => ({
  weight_threshold: threshold,
  account_auths: accounts,
  key_auths: keys,
  address_auths: [],
});

const options = (votes: string[] = []) => ({ memo_key: KEY_C, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes, extensions: [] });

const accountCreates = {
  simple: {
    fee: { amount: 514755, asset_id: '1.3.0' },
    registrar: '1.2.17',
    referrer: '1.2.17',
    referrer_percent: 0,
    name: 'alice-1',
    owner: auth(1, [[KEY_A, 1]]),
    active: auth(1, [[KEY_B, 1]]),
    options: options(),
    extensions: {},
  },
  multisig: {
    fee: { amount: 514755, asset_id: '1.3.0' },
    registrar: '1.2.17',
    referrer: '1.2.999',
    referrer_percent: 5000,
    name: 'multi-sig-äccount',
    // Out of order on purpose: both sides sort flat_map keys (accounts by instance, keys by address).
    owner: auth(2, [[KEY_C, 1], [KEY_A, 1], [KEY_B, 1], [DEV_PUB, 2]], [['1.2.300', 1], ['1.2.7', 1]]),
    active: auth(1, [[KEY_B, 1], [KEY_A, 1]]),
    options: options(['1:300', '0:11', '1:25', '2:70']),
    extensions: {},
  },
};

const accountUpdates = {
  onlyOptions: { fee: { amount: 2000, asset_id: '1.3.0' }, account: '1.2.555', new_options: options(['1:27', '1:26']), extensions: {} },
  keys: { fee: { amount: 2000, asset_id: '1.3.0' }, account: '1.2.555', owner: auth(1, [[KEY_A, 1]]), active: auth(1, [[KEY_B, 1]], [['1.2.1', 1]]), extensions: {} },
};

const commonOptions = {
  max_supply: '1000000000000000',
  market_fee_percent: 0,
  max_market_fee: '1000000000000000',
  issuer_permissions: 79,
  flags: 0,
  core_exchange_rate: { base: { amount: 100000, asset_id: '1.3.0' }, quote: { amount: 100000, asset_id: '1.3.1' } },
  whitelist_authorities: [],
  blacklist_authorities: [],
  whitelist_markets: [],
  blacklist_markets: [],
  description: '{"main":"A test token","short_name":"","market":""}',
  extensions: {},
};

const assetCreates = {
  uia: { fee: { amount: '50000000000', asset_id: '1.3.0' }, issuer: '1.2.17', symbol: 'TESTCOIN', precision: 5, common_options: commonOptions, is_prediction_market: false, extensions: [] },
  lists: {
    fee: { amount: 500000, asset_id: '1.3.0' },
    issuer: '1.2.17',
    symbol: 'ALICE.BOND',
    precision: 0,
    common_options: {
      ...commonOptions,
      market_fee_percent: 25,
      flags: 1,
      whitelist_authorities: ['1.2.900', '1.2.17'],
      blacklist_authorities: ['1.2.3'],
      whitelist_markets: ['1.3.113', '1.3.0', '1.3.121'],
      extensions: { reward_percent: 2000, whitelist_market_fee_sharing: ['1.2.40', '1.2.30'], taker_fee_percent: 10 },
    },
    is_prediction_market: false,
    extensions: [],
  },
  bitasset: {
    fee: { amount: 500000, asset_id: '1.3.0' },
    issuer: '1.2.17',
    symbol: 'ALICEUSD',
    precision: 4,
    common_options: { ...commonOptions, issuer_permissions: 511 },
    bitasset_opts: {
      feed_lifetime_sec: 86400,
      minimum_feeds: 7,
      force_settlement_delay_sec: 86400,
      force_settlement_offset_percent: 100,
      maximum_force_settlement_volume: 2000,
      short_backing_asset: '1.3.0',
      extensions: { maintenance_collateral_ratio: 1600, margin_call_fee_ratio: 50 },
    },
    is_prediction_market: false,
    extensions: [],
  },
};

const assetIssues = {
  plain: { fee: { amount: 20000, asset_id: '1.3.0' }, issuer: '1.2.17', asset_to_issue: { amount: '1000000000000', asset_id: '1.3.5000' }, issue_to_account: '1.2.99999', extensions: [] },
  memo: { fee: { amount: 20000, asset_id: '1.3.0' }, issuer: '1.2.17', asset_to_issue: { amount: 1, asset_id: '1.3.5000' }, issue_to_account: '1.2.99999', memo: { ...memo, nonce: 42, message: '' }, extensions: [] },
};

const customs = {
  // an account_storage_map payload of the custom_operations plugin: settings {language: "en"}
  storage: { fee: { amount: 100032, asset_id: '1.3.0' }, payer: '1.2.17', required_auths: [], id: 0, data: '0000' + '0873657474696e6773' + '01' + '086c616e6775616765' + '01' + '04' + '22656e22' },
  auths: { fee: { amount: 100000, asset_id: '1.3.0' }, payer: '1.2.17', required_auths: ['1.2.300', '1.2.17', '1.2.128'], id: 65535, data: '' },
};

type OpCase = [code: number, name: string, variant: string, json: Record<string, unknown>];
const cases = (code: number, name: string, variants: Record<string, Record<string, unknown>>): OpCase[] =>
  Object.entries(variants).map(([variant, json]) => [code, name, variant, json]);
const OPS: OpCase[] = [
  ...cases(0, 'transfer', transfers),
  ...cases(5, 'account_create', accountCreates),
  ...cases(6, 'account_update', accountUpdates),
  ...cases(10, 'asset_create', assetCreates),
  ...cases(14, 'asset_issue', assetIssues),
  ...cases(35, 'custom', customs),
];

const trx = (operations: unknown[], extra: Record<string, unknown> = {}) => ({
  ref_block_num: 34294,
  ref_block_prefix: 3707022213,
  expiration: '2024-03-05T10:20:30',
  operations,
  extensions: [],
  ...extra,
});

// ---------------------------------------------------------------------------------------------
// Public keys

test('the dev key is what bitsharesjs derives from its WIF, and round-trips through our parser', (t) => {
  t.is(bjs.PrivateKey.fromWif(DEV_WIF).toPublicKey().toString(), DEV_PUB);
  const bytes = parsePublicKey(DEV_PUB);
  t.is(bytes.length, 33);
  t.is(hex(bytes), bjs.PublicKey.fromStringOrThrow(DEV_PUB).toBuffer().toString('hex'));
  t.is(formatPublicKey(bytes), DEV_PUB);
});

test('keys round-trip and honour a configurable prefix', (t) => {
  for (const k of [KEY_A, KEY_B, KEY_C]) t.is(formatPublicKey(parsePublicKey(k)), k);
  const test1 = formatPublicKey(parsePublicKey(KEY_A), 'TEST');
  t.true(test1.startsWith('TEST'));
  t.is(test1, bjs.PublicKey.fromStringOrThrow(KEY_A).toString('TEST'));
  t.is(formatPublicKey(parsePublicKey(test1, 'TEST')), KEY_A);
});

test('the all-zero key prints as fc prints public_key_type()', (t) => {
  t.is(formatPublicKey(new Uint8Array(33)), 'BTS1111111111111111111111111111111114T1Anm');
  t.is(formatPublicKey(new Uint8Array(33)), NULL_PUBLIC_KEY);
  t.deepEqual(parsePublicKey(NULL_PUBLIC_KEY), new Uint8Array(33));
});

test('a key with a bad checksum, prefix or length is refused with a clear message', (t) => {
  const last = DEV_PUB.at(-1) === '1' ? '2' : '1';
  t.throws(() => parsePublicKey(DEV_PUB.slice(0, -1) + last), { message: /checksum mismatch/ });
  t.throws(() => parsePublicKey('TEST' + DEV_PUB.slice(3)), { message: /expected the prefix "BTS"/ });
  t.throws(() => parsePublicKey('BTS'), { message: /expected the prefix/ });
  t.throws(() => parsePublicKey(DEV_PUB.slice(0, -4)), { message: /decodes to \d+ bytes, expected 37/ });
  t.throws(() => parsePublicKey('BTS0OIl'), { message: /not valid base58/ });
  t.throws(() => parsePublicKey(42), { message: /expected a string/ });
  t.throws(() => packOperation([0, { ...transfers.memo, memo: { ...memo, to: DEV_PUB.slice(0, -1) + last } }]), {
    message: /^Execution error: Parse Error: operation\[1\]\.memo\.to: public key .* checksum mismatch/,
  });
});

test('addresses round-trip, and a key orders by its address as bitsharesjs computes it', (t) => {
  const addr = publicKeyAddress(parsePublicKey(DEV_PUB));
  const text = formatAddress(addr);
  t.deepEqual(parseAddress(text), addr);
  // bitsharesjs' toBlockchainAddress is ripemd160(sha512(key)), the address Core orders keys by.
  const pk = bjs.PublicKey.fromStringOrThrow(DEV_PUB) as unknown as { toBlockchainAddress(): Buffer };
  t.is(hex(addr), pk.toBlockchainAddress().toString('hex'));
});

// ---------------------------------------------------------------------------------------------
// Primitives

test('varint32 matches fc::unsigned_int at the 7-bit boundaries', (t) => {
  const v = (n: number | bigint) => hex(new ByteWriter().varint(n).finish());
  t.is(v(0), '00');
  t.is(v(127), '7f');
  t.is(v(128), '8001');
  t.is(v(16383), 'ff7f');
  t.is(v(16384), '808001');
  t.is(v(0xffffffff), 'ffffffff0f');
  t.is(v(2n ** 48n - 1n), 'ffffffffffff3f');
  // The same ids through bitsharesjs' typed id (varint instance).
  for (const n of [127, 128, 16383, 16384]) t.is(bjsPack('asset', { amount: 0, asset_id: `1.3.${n}` }).slice(16), v(n));
});

test('int64 packs negatives and values beyond 2^53 given as strings', (t) => {
  const a = (amount: number | string) => hex(packOperation([0, { ...transfers.plain, amount: { amount, asset_id: '1.3.0' } }]));
  for (const amount of [-1, '-1', '-9223372036854775808', '9223372036854775807', '9007199254740993', 2147483647, '2147483648']) {
    t.is(a(amount), bjsOperation(0, 'transfer', { ...transfers.plain, amount: { amount, asset_id: '1.3.0' } }), String(amount));
  }
  const w = new ByteWriter().int64(-2n).uint64(2n ** 64n - 1n).finish();
  t.is(hex(w), 'feffffffffffffff' + 'ffffffffffffffff');
});

/** The wire error of what `fn` threw: the serializer throws fc's errors as RpcErrors. */
const wireOf = (t: import('ava').ExecutionContext, fn: () => unknown): WireError => {
  const err = t.throws(fn);
  t.true(err instanceof RpcError, `an RpcError, got ${String(err)}`);
  return (err as RpcError).wire;
};

test('an amount that does not fit int64 gets fc\'s errors or fc\'s wrap: as_int64 of a uint64 literal wraps, lexical_cast refuses bad text', (t) => {
  const a = (amount: unknown) => hex(packOperation([0, { ...transfers.plain, amount: { amount, asset_id: '1.3.0' } }]));
  // A bare 9223372036854775808 is a uint64 variant to fc; as_int64 casts it to INT64_MIN. It reaches
  // the serializer as its digits (jsonrpc.ts), and packs as Core packs it.
  t.is(a('9223372036854775808'), a('-9223372036854775808'));
  t.is(a('18446744073709551615'), a(-1));
  // A double is truncated toward zero: int64_t(1.5).
  t.is(a(1.5), a(1));
  const parse = wireOf(t, () => a('12a'));
  t.is(parse.code, 4);
  t.is(parse.message, "Execution error: Parse Error: Couldn't parse int64_t");
  t.like(parse.data, { code: 4, name: 'parse_error_exception', message: 'Parse Error' });
  t.deepEqual(parse.data!.stack.map((m) => [m.format, m.data]), [["Couldn't parse int64_t", {}]]);
  for (const bad of ['-9223372036854775809', '18446744073709551616', ' 5', '1e5', 1e20]) t.is(wireOf(t, () => a(bad)).message, "Execution error: Parse Error: Couldn't parse int64_t", String(bad));
  const cast = wireOf(t, () => a({}));
  t.is(cast.code, 7);
  t.is(cast.message, 'Execution error: Bad Cast: Invalid cast from object_type to int64');
});

test('unsigned members are static_cast<uintN_t>(as_uint64()): they wrap, and bad text is fc\'s "Couldn\'t parse uint64_t"', (t) => {
  const ref = (ref_block_num: unknown) => hex(packTransaction({ ...trx([[0, transfers.plain]]), ref_block_num }));
  t.is(ref(65536), ref(0));
  t.is(ref(-1), ref(65535));
  t.is(ref('65537'), ref(1));
  const e = wireOf(t, () => ref('x'));
  t.is(e.message, "Execution error: Parse Error: Couldn't parse uint64_t");
  // to_uint64 and as_uint64 both FC_CAPTURE_AND_RETHROW: warn entries with an empty format and the value
  t.deepEqual(e.data!.stack.map((m) => [m.context.level, m.format, m.data]), [
    ['error', "Couldn't parse uint64_t", {}],
    ['warn', '', { i: 'x' }],
    ['warn', '', { '*this': 'x' }],
  ]);
  t.is(wireOf(t, () => ref([])).message, 'Execution error: Bad Cast: Invalid cast from array_type to uint64');
});

test('strings are varint-length UTF-8, time_point_sec is uint32 seconds', (t) => {
  t.is(hex(new ByteWriter().string('äb').finish()), '03c3a462');
  const packed = hex(packTransaction(trx([[0, transfers.plain]])));
  // ref_block_num 34294 = 0x85f6, ref_block_prefix 3707022213 = 0xdcf4ab85, then
  // 2024-03-05T10:20:30Z = 1709634030 = 0x65e6f1ee, all little-endian.
  t.is(packed.slice(0, 20), 'f685' + '85abf4dc' + 'eef1e665');
});

// ---------------------------------------------------------------------------------------------
// Operations against bitsharesjs

for (const [code, name, variant, json] of OPS) {
  test(`op ${code} ${name} (${variant}) packs as bitsharesjs does`, (t) => {
    const ours = hex(packOperation([code, json]));
    t.is(ours, bjsOperation(code, name, json));
    t.is(ours.slice(2), bjsPack(name, json));
  });
}

test('flat_map/flat_set order does not depend on the JSON order, and duplicates keep the first', (t) => {
  const m = accountCreates.multisig;
  const reversed = { ...m, owner: { ...m.owner, key_auths: [...m.owner.key_auths].reverse(), account_auths: [...m.owner.account_auths].reverse() }, options: options([...m.options.votes].reverse()) };
  t.is(hex(packOperation([5, reversed])), hex(packOperation([5, m])));
  const dup = { ...m, options: options([...m.options.votes, '1:300']) };
  t.is(hex(packOperation([5, dup])), hex(packOperation([5, m])));
  const dupKey = { ...m, active: auth(1, [[KEY_B, 1], [KEY_A, 1], [KEY_B, 7]]) };
  t.is(hex(packOperation([5, dupKey])), hex(packOperation([5, m])));
});

test('vote ids pack as instance << 8 | type, ordered by that value', (t) => {
  const packed = hex(packOperation([6, { ...accountUpdates.onlyOptions, new_options: options(['2:1', '0:1', '1:0']) }]));
  // votes: count 3, then 1:0 (0x00000001), 0:1 (0x00000100), 2:1 (0x00000102), then empty extensions.
  t.true(packed.endsWith('03' + '01000000' + '00010000' + '02010000' + '00' + '00'));
});

test('address_auths pack 20 bytes each, ordered by the bytes as Core compares ripemd160', (t) => {
  const addrs = [DEV_PUB, KEY_A, KEY_B].map((k) => publicKeyAddress(parsePublicKey(k)));
  const sorted = [...addrs].sort((a, b) => Buffer.compare(a, b));
  const json = { ...accountUpdates.keys, owner: { ...auth(1, []), address_auths: addrs.map((a, i) => [formatAddress(a), i + 1]) } };
  const packed = hex(packOperation([6, json]));
  const expected = '03' + sorted.map((a) => hex(a) + hex(new ByteWriter().uint16(addrs.indexOf(a) + 1).finish())).join('');
  t.true(packed.includes(expected));
  // A single address is unambiguous, so bitsharesjs (which sorts by the base58 text) must agree.
  const one = { ...accountUpdates.keys, owner: { ...auth(1, []), address_auths: [[formatAddress(addrs[0] as Uint8Array), 1]] } };
  t.is(hex(packOperation([6, one])), bjsOperation(6, 'account_update', one));
});

test('account_create extensions pack as Core extension<ext>: set fields counted, each with its index', (t) => {
  const base = accountCreates.simple;
  const withExt = {
    ...base,
    extensions: {
      owner_special_authority: [1, { asset: '1.3.0', num_top_holders: 10 }],
      buyback_options: { asset_to_buy: '1.3.200', asset_to_buy_issuer: '1.2.17', markets: ['1.3.121', '1.3.0'] },
    },
  };
  const empty = hex(packOperation([5, base]));
  const ext = hex(packOperation([5, withExt]));
  t.is(empty.slice(-2), '00');
  // count 2; index 1 = owner_special_authority: which 1, asset 0, num_top_holders 10;
  // index 3 = buyback_options: 1.3.200 (c801), 1.2.17 (11), markets {0, 121}.
  t.is(ext, empty.slice(0, -2) + '02' + '01' + '01' + '00' + '0a' + '03' + 'c801' + '11' + '02' + '00' + '79');
  // graphene_extension_from_variant_visitor leaves the unknown key counted: FC_ASSERT( vtor.count_left == 0 )
  t.is(wireOf(t, () => packOperation([5, { ...base, extensions: { no_such_ext: 1 } }])).message, 'Execution error: Assert Exception: vtor.count_left == 0: ');
  t.is(wireOf(t, () => packOperation([5, { ...base, extensions: [1] }])).message, 'Execution error: Assert Exception: var.size() == 0: ');
});

test('the asset_options extension object packs as bitsharesjs extension() does, empty or not', (t) => {
  t.is(hex(packOperation([10, assetCreates.uia])), bjsOperation(10, 'asset_create', assetCreates.uia));
  const asArray = { ...assetCreates.uia, common_options: { ...commonOptions, extensions: [] } };
  t.is(hex(packOperation([10, asArray])), hex(packOperation([10, assetCreates.uia])));
});

test('malformed operations throw with the path and the reason', (t) => {
  t.throws(() => packOperation([78, {}]), { message: /Unable to set tag '78' when the number of supported tags is 78/ });
  t.throws(() => packOperation([-1, {}]), { message: /Unable to set tag '18446744073709551615'/ });
  const asObject = wireOf(t, () => packOperation({ fee: 1 }));
  t.is(asObject.code, 7);
  t.is(asObject.message, 'Execution error: Bad Cast: Invalid cast from object_type to Array');
  t.like(asObject.data, { code: 7, name: 'bad_cast_exception', message: 'Bad Cast' });
  t.deepEqual(asObject.data!.stack.map((m) => [m.format, m.data]), [['Invalid cast from ${type} to Array', { type: 'object_type' }]]);
  t.is(wireOf(t, () => packOperation([0, 'x'])).message, "Execution error: Bad Cast: Invalid cast from type 'string_type' to Object");
  t.is(wireOf(t, () => packOperation([5, { ...accountCreates.simple, owner: { ...accountCreates.simple.owner, key_auths: {} } }])).message, 'Execution error: Bad Cast: Invalid cast from object_type to Array');
  const { amount: _amount, ...noAmount } = transfers.plain;
  t.throws(() => packOperation([0, { ...transfers.plain, to: '1.3.5' }]), { message: /operation\[1\]\.to: expected account id 1\.2\.x/ });
  t.throws(() => packOperation([0, { ...transfers.plain, to: 200 }]), { message: /expected an object id/ });
  t.is(wireOf(t, () => packOperation([0, { ...transfers.plain, extensions: [[1, {}]] }])).message, "Execution error: Assert Exception: static_cast<size_t>(tag) < count(): Unable to set tag '1' when the number of supported tags is 1");
  t.is(wireOf(t, () => packOperation([0, { ...transfers.plain, extensions: [[0, []]] }])).message, "Execution error: Bad Cast: Invalid cast from type 'array_type' to Object");
  t.is(hex(packOperation([10, { ...assetCreates.uia, precision: 256 }])), hex(packOperation([10, { ...assetCreates.uia, precision: 0 }])), 'static_cast<uint8_t> wraps');
  t.throws(() => packOperation([0, { ...transfers.memo, memo: { ...memo, message: 'xyz' } }]), { message: /memo\.message: expected a hex string/ });
});

// ---------------------------------------------------------------------------------------------
// Transactions

const TRXS = {
  one: trx([[0, transfers.plain]]),
  many: trx([[0, transfers.memo], [5, accountCreates.multisig], [6, accountUpdates.keys], [10, assetCreates.lists], [14, assetIssues.memo]]),
  maxExpiry: trx([[14, assetIssues.plain]], { ref_block_num: 65535, ref_block_prefix: 0, expiration: '2106-02-07T06:28:15' }),
};

for (const [name, tx] of Object.entries(TRXS)) {
  test(`transaction "${name}" packs, hashes and signs as bitsharesjs does`, (t) => {
    const packed = packTransaction(tx);
    const theirs = bjs.ops.transaction!.toBuffer(bjs.ops.transaction!.fromObject(tx));
    t.is(hex(packed), theirs.toString('hex'));
    // transaction::id() = first 20 bytes of sha256; bitsharesjs TransactionBuilder.id() computes the same.
    t.is(transactionId(tx), bjs.hash.sha256(theirs).toString('hex').slice(0, 40));
    const digest = signingDigest(CHAIN_ID, tx);
    t.is(hex(digest), bjs.hash.sha256(Buffer.concat([Buffer.from(CHAIN_ID, 'hex'), theirs])).toString('hex'));
    // A signature bitsharesjs makes the way TransactionBuilder.sign does recovers the dev key from our digest.
    const sig = bjs.Signature.signBuffer(Buffer.concat([Buffer.from(CHAIN_ID, 'hex'), theirs]), bjs.PrivateKey.fromWif(DEV_WIF));
    t.is(sig.recoverPublicKey(Buffer.from(digest)).toString(), DEV_PUB);
    const signed = { ...tx, signatures: [sig.toHex()] };
    t.is(hex(packSignedTransaction(signed)), bjsPack('signed_transaction', signed));
    t.is(hex(packSignedTransaction(signed)), hex(packed) + '01' + sig.toHex());
  });
}

test('signatures keep their order (a vector), and must be 65 bytes', (t) => {
  const s1 = 'a'.repeat(130);
  const s2 = '1f' + 'b'.repeat(128);
  const packed = hex(packSignedTransaction({ ...TRXS.one, signatures: [s1, s2] }));
  t.true(packed.endsWith('02' + s1 + s2));
  t.throws(() => packSignedTransaction({ ...TRXS.one, signatures: ['abcd'] }), { message: /signatures\[0\]: expected 65 bytes/ });
  t.is(hex(packSignedTransaction(TRXS.one)), hex(packSignedTransaction({ ...TRXS.one, signatures: [] })), 'absent signatures are an empty vector');
});

test('a missing transaction extensions key is the empty default; a bad expiration is refused', (t) => {
  const { extensions: _e, ...noExt } = TRXS.one;
  t.is(hex(packTransaction(noExt)), hex(packTransaction(TRXS.one)));
  t.throws(() => packTransaction({ ...TRXS.one, expiration: '2024-02-30T00:00:00' }), { message: /expiration: expected a time/ });
  t.is(hex(packTransaction({ ...TRXS.one, ref_block_num: 65536 })), hex(packTransaction({ ...TRXS.one, ref_block_num: 0 })), 'static_cast<uint16_t> wraps');
  t.throws(() => signingDigest('abcd', TRXS.one), { message: /chain_id: expected 32 bytes/ });
});

// ---------------------------------------------------------------------------------------------
// Blocks

const previous = '0000270fb3a1e2b4e4b1f0d5b6e43c4a9e3d1c7b';
const header = {
  previous,
  timestamp: '2024-03-05T10:20:33',
  witness: '1.6.28',
  transaction_merkle_root: '0000000000000000000000000000000000000000',
  extensions: [],
};
const witnessSignature = '20' + '5c'.repeat(64);

test('block headers pack as bitsharesjs does', (t) => {
  t.is(hex(packBlockHeader(header)), bjsPack('block_header', header));
  const signed = { ...header, witness_signature: witnessSignature };
  t.is(hex(packSignedBlockHeader(signed)), bjsPack('signed_block_header', signed));
  t.is(hex(blockHeaderDigest(header)), createHash('sha256').update(packBlockHeader(header)).digest('hex'));
});

test('block id = sha224(signed header) truncated to 20 bytes, first 4 bytes the block number big-endian', (t) => {
  const signed = { ...header, witness_signature: witnessSignature };
  const h = createHash('sha224').update(packSignedBlockHeader(signed)).digest('hex');
  t.is(numFromId(previous), 9999);
  const id = blockId(signed);
  t.is(id, '00002710' + h.slice(8, 40));
  t.is(numFromId(id), 10000);
  t.is(blockId(signed, 0x01020304), '01020304' + h.slice(8, 40));
  t.is(id.length, 40);
});

test('ref_block_prefix is bytes 4..7 of the id little-endian, ref_block_num its low 16 bits', (t) => {
  t.is(refBlockPrefix('00002710' + '01020304' + '00'.repeat(12)), 0x04030201);
  t.is(refBlockPrefix(previous), Buffer.from(previous, 'hex').readUInt32LE(4));
  t.is(numFromId(previous) & 0xffff, 9999);
  t.throws(() => refBlockPrefix('1234'), { message: /block_id: expected 20 bytes/ });
});

// Core's rule restated directly (block.cpp calculate_merkle_root), to pin the pairing of odd counts.
const sha = (...b: Buffer[]) => createHash('sha256').update(Buffer.concat(b)).digest();
const rmd = (b: Buffer) => createHash('ripemd160').update(b).digest('hex');

test('processed transactions (with operation_results) pack as bitsharesjs does', (t) => {
  // bitsharesjs cannot read a void_result ([0, {}] fails in its fromObject), so it gets the other results.
  const p = { ...TRXS.many, signatures: ['1f' + 'ab'.repeat(64)], operation_results: [[1, '1.2.1234'], [1, '1.3.77'], [2, { amount: 5, asset_id: '1.3.0' }]] };
  t.is(hex(packProcessedTransaction(p)), bjsPack('processed_transaction', p));
  // object_id_type is the uint64 space << 56 | type << 48 | instance; void_result is its index alone.
  const withVoid = { ...p, operation_results: [[0, {}], [1, '1.2.1234']] };
  t.true(hex(packProcessedTransaction(withVoid)).endsWith('02' + '00' + '01' + 'd204000000000201'));
});

test('merkle root: sha256 per processed transaction, pairs hashed, odd one carried, ripemd160 of the last', (t) => {
  const txs = [1, 2, 3, 4, 5].map((n) => ({ ...trx([[0, { ...transfers.plain, amount: { amount: n, asset_id: '1.3.0' } }]]), signatures: [], operation_results: [[0, {}]] }));
  const d = txs.map((x) => sha(Buffer.from(packProcessedTransaction(x))));
  const [a, b, c, e, f] = d as [Buffer, Buffer, Buffer, Buffer, Buffer];
  t.is(transactionMerkleRoot([]), '0'.repeat(40));
  t.is(transactionMerkleRoot(txs.slice(0, 1)), rmd(a));
  t.is(transactionMerkleRoot(txs.slice(0, 2)), rmd(sha(a, b)));
  t.is(transactionMerkleRoot(txs.slice(0, 3)), rmd(sha(sha(a, b), c)));
  t.is(transactionMerkleRoot(txs.slice(0, 4)), rmd(sha(sha(a, b), sha(c, e))));
  t.is(transactionMerkleRoot(txs), rmd(sha(sha(sha(a, b), sha(c, e)), f)));
  // Signatures and results are part of each digest, unlike the transaction id.
  const resigned = [{ ...txs[0], signatures: ['1f' + '00'.repeat(64)] }];
  t.not(transactionMerkleRoot(resigned), transactionMerkleRoot(txs.slice(0, 1)));
  t.is(transactionMerkleRoot([TRXS.one]), transactionMerkleRoot([{ ...TRXS.one, signatures: [], operation_results: [] }]));
});

test('a struct member missing from the JSON keeps its C++ default, as fc from_variant leaves it', (t) => {
  const { amount: _amount, ...noAmount } = transfers.plain;
  t.is(hex(packOperation([0, noAmount])), hex(packOperation([0, { ...noAmount, amount: { amount: 0, asset_id: '1.3.0' } }])));
  // python-bitshares writes authorities without address_auths and with an `extensions` key of its own.
  const key = 'BTS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV';
  const clientShape = { weight_threshold: 1, account_auths: [], key_auths: [[key, 1]], extensions: [] };
  const coreShape = { weight_threshold: 1, account_auths: [], key_auths: [[key, 1]], address_auths: [] };
  const create = (auth: unknown) => [5, { fee: { amount: 0, asset_id: '1.3.0' }, registrar: '1.2.6', referrer: '1.2.6', referrer_percent: 0, name: 'alice', owner: auth, active: auth, options: { memo_key: key, voting_account: '1.2.5', num_witness: 0, num_committee: 0, votes: [], extensions: [] }, extensions: {} }];
  t.is(hex(packOperation(create(clientShape))), hex(packOperation(create(coreShape))));
  const trx = { ref_block_num: 1, ref_block_prefix: 2, expiration: '2030-01-01T00:00:00', operations: [create(clientShape)], signatures: [] };
  const canonical = canonicalSignedTransaction(trx);
  t.deepEqual((canonical.operations as [number, Record<string, unknown>][])[0]![1].owner, coreShape, 'served as Core writes it back: the missing member present, the unknown one gone');
  t.deepEqual(canonical.extensions, []);
});

test('defaults follow the C++ member initialisers, not only the type', (t) => {
  const op = canonicalSignedTransaction({ operations: [[5, { options: {} }], [10, { common_options: {}, bitasset_opts: {} }]] }).operations as [number, Record<string, Record<string, unknown>>][];
  t.is(op[0]![1].options!.voting_account, '1.2.5', 'GRAPHENE_PROXY_TO_SELF_ACCOUNT');
  t.is(op[0]![1].options!.memo_key, 'BTS1111111111111111111111111111111114T1Anm');
  t.is(op[1]![1].common_options!.max_supply, '1000000000000000');
  t.deepEqual(op[1]![1].common_options!.core_exchange_rate, { base: { amount: 0, asset_id: '1.3.0' }, quote: { amount: 0, asset_id: '1.3.1' } });
  t.like(op[1]![1].bitasset_opts, { feed_lifetime_sec: 86400, minimum_feeds: 1, maximum_force_settlement_volume: 2000 });
});

test('integers, strings and booleans convert as fc variants do; a short static_variant keeps alternative 0', (t) => {
  const base = { ...transfers.plain };
  t.is(hex(packOperation([0, { ...base, amount: { amount: null, asset_id: '1.3.0' } }])), hex(packOperation([0, { ...base, amount: { amount: 0, asset_id: '1.3.0' } }])));
  const nonce = hex(packOperation([0, { ...transfers.memo, memo: { ...memo, nonce: '8394872615091287364' } }]));
  t.true(nonce.includes(Buffer.from(new BigUint64Array([8394872615091287364n]).buffer).toString('hex')), 'a uint64 nonce beyond 2^53 given as a string packs every digit');
  t.is(hex(packOperation([10, { ...assetCreates.uia, symbol: 'ABC', is_prediction_market: 0 }])), hex(packOperation([10, { ...assetCreates.uia, symbol: 'ABC', is_prediction_market: false }])));
  t.is(hex(packOperation([5])), hex(packOperation([0, {}])), 'fc: if( ar.size() < 2 ) return; — the default transfer');
  t.throws(() => packOperation({}), { message: 'Execution error: Bad Cast: Invalid cast from object_type to Array' });
});

test('future_extensions is a flat_set of static_variant<void_t>: [[0, {}]] is read, packed and written back as Core does', (t) => {
  const plain = hex(packOperation([0, transfers.plain]));
  // the empty set is one 0x00 at the end; one void_t is count 1, which 0
  const one = hex(packOperation([0, { ...transfers.plain, extensions: [[0, {}]] }]));
  t.is(one, plain.slice(0, -2) + '0100');
  // ordered by which(): a second [0, {}] is the same element; [[0]] keeps the default alternative
  t.is(hex(packOperation([0, { ...transfers.plain, extensions: [[0, {}], [0, { x: 1 }]] }])), one);
  t.is(hex(packOperation([0, { ...transfers.plain, extensions: [[0]] }])), one);
  t.deepEqual(canonicalOperation([0, { ...transfers.plain, extensions: [[0, { x: 1 }]] }])[1].extensions, [[0, {}]]);
  const tx = { ...TRXS.one, extensions: [[0, {}]] };
  t.is(hex(packTransaction(tx)), hex(packTransaction(TRXS.one)).slice(0, -2) + '0100');
  t.deepEqual(canonicalSignedTransaction(tx).extensions, [[0, {}]]);
});
