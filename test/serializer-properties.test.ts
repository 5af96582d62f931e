// Properties of the binary serialiser (src/chain/protocol/serializer.ts) over generated transactions of every
// operation type it packs (transfer, account_create, account_update, asset_create, asset_issue, custom):
//  - the canonical JSON a transaction is stored and served in packs to the same bytes as the client's
//    JSON, also after the store's JSON round trip, and canonicalising it again changes nothing (else a
//    transaction's id would change once stored);
//  - decoding the packed bytes (with bitsharesjs' fromBuffer, an independent fc::raw reader) and
//    packing the decoded value gives the same bytes: pack(decode(pack(x))) == pack(x);
//  - bitsharesjs packs the generated JSON to the same bytes as we do.
import test from 'ava';
import fc from 'fast-check';
import bjs from 'bitsharesjs';
import bitsharesWs from 'bitsharesjs-ws';
import { canonicalSignedTransaction, packOperation, packSignedTransaction, transactionId } from '../src/chain/protocol/serializer.js';
import { checkProperty } from './helpers/properties.js';

// bitsharesjs defaults to the "CBA" prefix; our JSON uses the main chain's.
(bitsharesWs as { ChainConfig: { setPrefix(p: string): void } }).ChainConfig.setPrefix('BTS');

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'].map((s) => bjs.PrivateKey.fromSeed(`serializer-properties-${s}`).toPublicKey().toString());

// ---- arbitraries: operation JSON as clients write it ----

const uint8 = fc.integer({ min: 0, max: 0xff });
const uint16 = fc.integer({ min: 0, max: 0xffff });
const uint32 = fc.integer({ min: 0, max: 0xffffffff });
/** An integer as a client writes it: a number while exact, else a decimal string. */
const asJson = (n: bigint): number | string => (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString());
const int64 = fc.oneof(fc.integer({ min: -1000, max: 1_000_000 }).map((n) => n as number | string), fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map(asJson));
const uint64 = fc.oneof(fc.nat().map((n) => n as number | string), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map(asJson));
// Below 2^31: bitsharesjs reads a larger varint32 instance back as a negative number.
const instance = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 0x7fffffff }));
const accountId = instance.map((i) => `1.2.${i}`);
const assetId = instance.map((i) => `1.3.${i}`);
const key = fc.constantFrom(...KEYS);
const asset = fc.record({ amount: int64, asset_id: assetId });
const hexString = fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('hex'));
const memo = fc.record({ from: key, to: key, nonce: uint64, message: hexString });
const time = fc.integer({ min: 0, max: 0xffffffff }).map((s) => new Date(s * 1000).toISOString().slice(0, 19));
const text = fc.string({ unit: 'grapheme', maxLength: 20 });

/** A flat_map or flat_set as a client may send it: any order, keys unique (bitsharesjs does not drop duplicates as fc does). */
const uniqueBy = <T>(arb: fc.Arbitrary<T>, keyOf: (v: T) => string, max = 4) => fc.uniqueArray(arb, { maxLength: max, selector: keyOf });
const authority = fc.record({
  weight_threshold: uint32,
  account_auths: uniqueBy(fc.tuple(accountId, uint16), ([a]) => a),
  key_auths: uniqueBy(fc.tuple(key, uint16), ([k]) => k),
  // bitsharesjs orders addresses by their base58 text, fc by their bytes: one address is unambiguous.
  address_auths: fc.constant([] as unknown[]),
});
const voteId = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 0xffffff })).map(([t, i]) => `${t}:${i}`);
const accountOptions = fc.record({
  memo_key: key,
  voting_account: accountId,
  num_witness: uint16,
  num_committee: uint16,
  // Unique by instance: bitsharesjs orders vote ids by instance alone (types.js vote_id.compare), fc by
  // instance << 8 | type, so two votes of one instance (0:13 and 1:13) are ordered differently there.
  votes: uniqueBy(voteId, (v) => v.split(':')[1]!, 5),
  extensions: fc.constant([]),
});
const specialAuthority = fc.oneof(fc.constant([0, {}]), fc.record({ asset: assetId, num_top_holders: uint8 }).map((v) => [1, v]));
const price = fc.record({ base: asset, quote: asset });

const transfer = fc.record({ fee: asset, from: accountId, to: accountId, amount: asset, memo, extensions: fc.constant([]) }, { requiredKeys: ['fee', 'from', 'to', 'amount', 'extensions'] });
/**
 * account_create/account_update extensions (special authorities, buyback options): bitsharesjs does not
 * model them (it reads an empty future_extensions set), so the transactions compared with it leave them empty.
 */
const accountCreateExt = fc.record(
  {
    owner_special_authority: specialAuthority,
    active_special_authority: specialAuthority,
    buyback_options: fc.record({ asset_to_buy: assetId, asset_to_buy_issuer: accountId, markets: uniqueBy(assetId, (a) => a) }),
  },
  { requiredKeys: [] },
);
const accountUpdateExt = fc.record({ owner_special_authority: specialAuthority, active_special_authority: specialAuthority }, { requiredKeys: [] });
const NO_EXTENSIONS: fc.Arbitrary<object> = fc.constant({});
const accountCreate = (ext: fc.Arbitrary<object>) => fc.record({
  fee: asset,
  registrar: accountId,
  referrer: accountId,
  referrer_percent: uint16,
  name: text,
  owner: authority,
  active: authority,
  options: accountOptions,
  extensions: ext,
});
const accountUpdate = (ext: fc.Arbitrary<object>) => fc.record(
  {
    fee: asset,
    account: accountId,
    owner: authority,
    active: authority,
    new_options: accountOptions,
    extensions: ext,
  },
  { requiredKeys: ['fee', 'account', 'extensions'] },
);
const commonOptions = fc.record({
  max_supply: int64,
  market_fee_percent: uint16,
  max_market_fee: int64,
  issuer_permissions: uint16,
  flags: uint16,
  core_exchange_rate: price,
  whitelist_authorities: uniqueBy(accountId, (a) => a),
  blacklist_authorities: uniqueBy(accountId, (a) => a),
  whitelist_markets: uniqueBy(assetId, (a) => a),
  blacklist_markets: uniqueBy(assetId, (a) => a),
  description: text,
  extensions: fc.record({ reward_percent: uint16, whitelist_market_fee_sharing: uniqueBy(accountId, (a) => a), taker_fee_percent: uint16 }, { requiredKeys: [] }),
});
const bitassetOptions = fc.record({
  feed_lifetime_sec: uint32,
  minimum_feeds: uint8,
  force_settlement_delay_sec: uint32,
  force_settlement_offset_percent: uint16,
  maximum_force_settlement_volume: uint16,
  short_backing_asset: assetId,
  extensions: fc.record(
    { initial_collateral_ratio: uint16, maintenance_collateral_ratio: uint16, maximum_short_squeeze_ratio: uint16, margin_call_fee_ratio: uint16, force_settle_fee_percent: uint16 },
    { requiredKeys: [] },
  ),
});
const assetCreate = fc.record(
  { fee: asset, issuer: accountId, symbol: text, precision: uint8, common_options: commonOptions, bitasset_opts: bitassetOptions, is_prediction_market: fc.boolean(), extensions: fc.constant([]) },
  { requiredKeys: ['fee', 'issuer', 'symbol', 'precision', 'common_options', 'is_prediction_market', 'extensions'] },
);
const assetIssue = fc.record(
  { fee: asset, issuer: accountId, asset_to_issue: asset, issue_to_account: accountId, memo, extensions: fc.constant([]) },
  { requiredKeys: ['fee', 'issuer', 'asset_to_issue', 'issue_to_account', 'extensions'] },
);
const custom = fc.record({ fee: asset, payer: accountId, required_auths: uniqueBy(accountId, (a) => a), id: uint16, data: hexString });

/** The operations, with (`full`) or without the extensions bitsharesjs does not model. */
const operations = (full: boolean): [code: number, arb: fc.Arbitrary<Record<string, unknown>>][] => [
  [0, transfer],
  [5, accountCreate(full ? accountCreateExt : NO_EXTENSIONS)],
  [6, accountUpdate(full ? accountUpdateExt : NO_EXTENSIONS)],
  [10, assetCreate],
  [14, assetIssue],
  [35, custom],
];
const signature = fc.uint8Array({ minLength: 65, maxLength: 65 }).map((b) => Buffer.from(b).toString('hex'));
const signedTransaction = (full: boolean) =>
  fc.record({
    ref_block_num: uint16,
    ref_block_prefix: uint32,
    expiration: time,
    operations: fc.array(fc.oneof(...operations(full).map(([code, arb]) => arb.map((v) => [code, v] as [number, Record<string, unknown>]))), { minLength: 1, maxLength: 3 }),
    extensions: fc.constant([]),
    // fc keeps signatures in their order (a vector); bitsharesjs sorts them (a set), so it gets them sorted.
    signatures: fc.array(signature, { maxLength: 2 }).map((sigs) => (full ? sigs : [...sigs].sort())),
  });

/**
 * bitsharesjs' reading of signed_transaction bytes, as JSON. Its vote_id reader keeps the instance
 * unshifted (`value & 0xffffff00`, a signed 32-bit number, where fc has `value >> 8`): the decoded
 * votes are put right here, and only those.
 */
const bjsDecode = (bytes: Uint8Array): unknown => {
  const s = bjs.ops.signed_transaction!;
  const raw = s.fromBuffer(Buffer.from(bytes)) as { operations: [number, Record<string, { votes?: { id: number }[] } | undefined>][] };
  for (const [, op] of raw.operations) {
    for (const options of [op.options, op.new_options]) for (const vote of options?.votes ?? []) vote.id = vote.id >>> 8;
  }
  return s.toObject(raw);
};
const bjsPack = (json: unknown): string => {
  const s = bjs.ops.signed_transaction!;
  return s.toBuffer(s.fromObject(json)).toString('hex');
};

/** The first operation bitsharesjs packs differently, for the failure message. */
function firstDifferentOperation(ops: [number, Record<string, unknown>][]): string {
  const names: Record<number, string> = { 0: 'transfer', 5: 'account_create', 6: 'account_update', 10: 'asset_create', 14: 'asset_issue', 35: 'custom' };
  for (const [code, v] of ops) {
    const s = bjs.ops[names[code]!]!;
    const theirs = s.toBuffer(s.fromObject(v)).toString('hex');
    const ours = hex(packOperation([code, v])).slice(code < 128 ? 2 : 4);
    if (ours !== theirs) return ` on ${JSON.stringify([code, v])}:\nours   ${ours}\ntheirs ${theirs}\n`;
  }
  return ' outside the operations';
}

// ---- properties ----

test('the canonical (stored) form packs to the client form\'s bytes, through the store\'s JSON too, and is a fixed point', (t) => {
  const n = checkProperty(t, 600, [signedTransaction(true)], (trx) => {
    const bytes = hex(packSignedTransaction(trx));
    const canonical = canonicalSignedTransaction(trx);
    if (hex(packSignedTransaction(canonical)) !== bytes) throw new Error('the canonical form packs differently');
    const stored = JSON.parse(JSON.stringify(canonical)) as Record<string, unknown>;
    if (hex(packSignedTransaction(stored)) !== bytes) throw new Error('the stored JSON packs differently');
    t.deepEqual(canonicalSignedTransaction(stored), canonical);
    if (transactionId(stored) !== transactionId(trx)) throw new Error('the id changed once stored');
  });
  t.true(n > 550);
});

test('pack(decode(pack(x))) == pack(x), decoding with bitsharesjs\' fromBuffer', (t) => {
  const n = checkProperty(t, 500, [signedTransaction(false)], (trx) => {
    const bytes = packSignedTransaction(trx);
    const decoded = bjsDecode(bytes);
    const again = hex(packSignedTransaction(decoded));
    if (again !== hex(bytes)) throw new Error(`re-encoded differently:\n${hex(bytes)}\n${again}\ndecoded ${JSON.stringify(decoded)}`);
  });
  t.true(n > 450);
});

test('bitsharesjs packs every generated transaction to our bytes', (t) => {
  const n = checkProperty(t, 500, [signedTransaction(false)], (trx) => {
    const ours = hex(packSignedTransaction(trx));
    const theirs = bjsPack(trx);
    if (ours !== theirs) throw new Error(`bitsharesjs disagrees${firstDifferentOperation(trx.operations)}:\nours   ${ours}\ntheirs ${theirs}`);
  });
  t.true(n > 450);
});

test('every operation type alone: pack(decode(pack(op))) == pack(op) and the canonical op packs the same', (t) => {
  let total = 0;
  for (const [code, arb] of operations(false)) {
    total += checkProperty(t, 200, [arb], (v) => {
      const bytes = hex(packOperation([code, v]));
      const trx = { ref_block_num: 0, ref_block_prefix: 0, expiration: '2030-01-01T00:00:00', operations: [[code, v]], extensions: [], signatures: [] };
      const decoded = bjsDecode(packSignedTransaction(trx)) as { operations: unknown[] };
      if (hex(packOperation(decoded.operations[0])) !== bytes) throw new Error(`op ${code} re-encoded differently`);
      const canonical = canonicalSignedTransaction(trx) as { operations: unknown[] };
      if (hex(packOperation(canonical.operations[0])) !== bytes) throw new Error(`op ${code}: the canonical form packs differently`);
    });
  }
  t.true(total > 900);
});
