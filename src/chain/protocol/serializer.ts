// Graphene's binary serialisation (fc::raw::pack), for the JSON forms the RPC API shows: the bytes
// that transaction ids, signing digests, block ids and merkle roots are hashes of, and what
// `get_transaction_hex` returns.
//
// Each type below is a small packer that takes the fc JSON value and writes its bytes; structs list
// their fields in the order of the FC_REFLECT line they cite, because fc packs reflected members in
// that order and nothing else (no tags, no lengths). Rules come from bitshares-fc include/fc/io/raw.hpp
// (integers little-endian, unsigned_int as LEB128, optional as a bool byte, containers as a varint
// count) and the Core headers named at each type. Cross-checked byte for byte against bitsharesjs in
// test/serializer.test.ts, and every operation type in test/all-operations.test.ts.
//
// Parsing follows fc's from_variant (reflect/variant.hpp, variant.cpp): a struct member that is
// present is read, a missing one keeps its type's default (zero, "", empty containers, an unset
// optional, the null key, id x.y.0, the epoch), an unknown one is ignored; integers may be numbers,
// decimal strings, booleans or null, and wrap to their type's width as fc's casts do; flat_set/flat_map
// are sorted and keep the first of duplicate keys; a static_variant array shorter than two keeps the
// default alternative 0. Where fc throws (a struct that is not an object, a container that is not an
// array, an integer text lexical_cast refuses), the error is fc's, from fc-variant.ts. Where the
// value's own parser fails (hex, keys, ids, times, vote ids), the error is an fc parse error naming
// the path. Either way every failure is an RpcError, the same whichever call met it.
//
// Why one file of some fifteen hundred lines: it is one table of packers, one per Graphene type, that
// refer to each other (an operation packs assets, authorities, memos, extensions…); split by type
// they would import each other in circles, and the file reads as the list of FC_REFLECT lines it mirrors.

import { createHash } from 'node:crypto';
import { fcTime, i64, parseFcTime, u64 } from '../fc/fc-json.js';
import { FC, RpcError, assertError, fcError } from '../../errors.js';
import { asBool, asInt64, asString, asUint64, notArray, notObject } from '../fc/fc-variant.js';
import { formatAddress, formatPublicKey, nullPublicKey, parseAddress, parsePublicKey, publicKeyAddress } from '../crypto/public-key.js';
import { readObjectId } from '../fc/object-id.js';
import { FEE_PARAMETERS, OPERATION_NAMES, type FeeParameterKind } from './fee-parameters.js';

// ---------------------------------------------------------------------------------------------
// Writer

/** A growing byte buffer with fc's primitive encodings. */
export class Writer {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  constructor(initialSize = 256) {
    this.buf = new Uint8Array(initialSize);
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.len;
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  uint8(v: number): this {
    this.reserve(1);
    this.view.setUint8(this.len, v);
    this.len += 1;
    return this;
  }

  uint16(v: number): this {
    this.reserve(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }

  uint32(v: number): this {
    this.reserve(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
    return this;
  }

  uint64(v: bigint | number): this {
    this.reserve(8);
    this.view.setBigUint64(this.len, BigInt(v), true);
    this.len += 8;
    return this;
  }

  int64(v: bigint | number): this {
    this.reserve(8);
    this.view.setBigInt64(this.len, BigInt(v), true);
    this.len += 8;
    return this;
  }

  /** fc::unsigned_int: 7 bits a byte, low bits first, high bit set on all but the last (raw.hpp). */
  varint(v: bigint | number): this {
    let n = BigInt(v);
    if (n < 0n) throw new Error(`varint: negative value ${n}`);
    do {
      let b = Number(n & 0x7fn);
      n >>= 7n;
      if (n > 0n) b |= 0x80;
      this.uint8(b);
    } while (n > 0n);
    return this;
  }

  /** Raw bytes, no length prefix (fixed-size values such as hashes, keys, signatures). */
  raw(data: Uint8Array): this {
    this.reserve(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    return this;
  }

  /** vector<char>: varint length, then the bytes. */
  bytes(data: Uint8Array): this {
    return this.varint(data.length).raw(data);
  }

  /** std::string: varint byte length, then UTF-8. */
  string(s: string): this {
    return this.bytes(new TextEncoder().encode(s));
  }

  bool(v: boolean): this {
    return this.uint8(v ? 1 : 0);
  }

  /** A copy of exactly the bytes written. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON value helpers

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 60 ? `${v.slice(0, 60)}…` : v}"`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** A value its own parser refused (hex, a key, an id, a time): an fc parse error naming where. */
function fail(path: string, message: string): never {
  throw new RpcError(fcError(FC.parse, '${error}', { error: `${path}: ${message}` }));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A member of an integer type: `as_int64()` for the signed ones, `static_cast<uintN_t>(as_uint64())`
 * for the unsigned ones (fc variant.cpp), wrapping as those casts do.
 */
function integerOf(v: unknown, bits: number, signed: boolean): bigint {
  return signed ? BigInt.asIntN(bits, asInt64(v)) : BigInt.asUintN(bits, asUint64(v));
}

function hexBytes(v: unknown, path: string, size?: number): Uint8Array {
  if (typeof v !== 'string' || v.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(v)) {
    fail(path, `expected a hex string, got ${describe(v)}`);
  }
  const data = Uint8Array.from(Buffer.from(v, 'hex'));
  if (size !== undefined && data.length !== size) fail(path, `expected ${size} bytes (${size * 2} hex digits), got ${data.length}`);
  return data;
}

function toHex(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString('hex');
}

function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

// ---------------------------------------------------------------------------------------------
// Types

/** What flat_set/flat_map sort by: a number, or bytes compared as memcmp does. */
type SortKey = bigint | Uint8Array;

interface Type {
  readonly name: string;
  pack(w: Writer, v: unknown, path: string): void;
  /**
   * The value as Core writes it back after reading it (from_variant then to_variant): numbers in fc's
   * formats, sets sorted, ids and keys in canonical text, optional fields that are unset left out
   * (undefined). What the chain stores and serves is this, never the client's own spelling.
   */
  json(v: unknown, path: string): unknown;
  /** The value Core's `operator<` compares; only types used as set elements or map keys have it. */
  sortKey?(v: unknown, path: string): SortKey;
  /** A struct field of this type may be absent from the JSON (optional<T>, extensions). */
  readonly mayBeAbsent?: boolean;
  /** The JSON of the type's default-constructed value, which a struct member that is absent keeps. */
  readonly zero: unknown;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  throw new Error('internal: mixed sort keys');
}

function integer(name: string, bits: number, signed: boolean, write: (w: Writer, n: bigint) => void): Type {
  const read = (v: unknown): bigint => integerOf(v, bits, signed);
  return {
    name,
    pack: (w, v) => write(w, read(v)),
    json: (v) => (signed ? i64 : u64)(read(v)),
    sortKey: read,
    zero: 0,
  };
}

const uint8 = integer('uint8', 8, false, (w, n) => w.uint8(Number(n)));
const uint16 = integer('uint16', 16, false, (w, n) => w.uint16(Number(n)));
const uint32 = integer('uint32', 32, false, (w, n) => w.uint32(Number(n)));
const uint64 = integer('uint64', 64, false, (w, n) => w.uint64(n));
/** share_type is safe<int64_t>, read with as<int64_t> (fc variant.hpp) and packed as its int64 (types.hpp). */
const int64 = integer('int64', 64, true, (w, n) => w.int64(n));
/** fc::unsigned_int: a uint64 `value` packed as a varint (varint.hpp, raw.hpp); read with as_uint64 (varint.cpp). */
const unsignedInt = integer('unsigned_int', 64, false, (w, n) => w.varint(n));

const bool: Type = {
  name: 'bool',
  pack: (w, v) => w.bool(asBool(v)),
  json: (v) => asBool(v),
  sortKey: (v) => (asBool(v) ? 1n : 0n),
  zero: false,
};

const string: Type = {
  name: 'string',
  pack: (w, v) => w.string(asString(v)),
  json: (v) => asString(v),
  // std::string's operator< compares the bytes as unsigned chars, as memcmp does.
  sortKey: (v) => new TextEncoder().encode(asString(v)),
  zero: '',
};

/** vector<char>, written in JSON as hex (fc variant.cpp). */
const bytes: Type = {
  name: 'bytes',
  pack: (w, v, path) => w.bytes(hexBytes(v, path)),
  json: (v, path) => toHex(hexBytes(v, path)),
  zero: '',
};

/** A fixed-size hash or signature (ripemd160 = 20, compact_signature = 65): raw bytes, hex in JSON. */
function fixedBytes(name: string, size: number): Type {
  return {
    name,
    pack: (w, v, path) => w.raw(hexBytes(v, path, size)),
    json: (v, path) => toHex(hexBytes(v, path, size)),
    sortKey: (v, path) => hexBytes(v, path, size),
    zero: '00'.repeat(size),
  };
}
const ripemd160 = fixedBytes('ripemd160', 20);
const signature = fixedBytes('signature', 65);
const sha1 = fixedBytes('sha1', 20);
const sha256Hash = fixedBytes('sha256', 32);
const hash160 = fixedBytes('hash160', 20);
/** fc::ecc::commitment_type, an fc::array<char,33>: raw, hex in JSON (fc array.hpp). */
const commitment = fixedBytes('commitment', 33);

/** time_point_sec: uint32 seconds since the epoch; JSON "YYYY-MM-DDTHH:MM:SS" UTC (fc time.cpp). */
const timePointSec: Type = {
  name: 'time_point_sec',
  pack(w, v, path) {
    const s = typeof v === 'string' ? parseFcTime(v) : NaN;
    if (Number.isNaN(s) || s < 0 || s > 0xffffffff) fail(path, `expected a time "YYYY-MM-DDTHH:MM:SS", got ${describe(v)}`);
    w.uint32(s);
  },
  json(v, path) {
    const s = typeof v === 'string' ? parseFcTime(v) : NaN;
    if (Number.isNaN(s)) fail(path, `expected a time "YYYY-MM-DDTHH:MM:SS", got ${describe(v)}`);
    return fcTime(s);
  },
  sortKey(v, path) {
    const s = typeof v === 'string' ? parseFcTime(v) : NaN;
    if (Number.isNaN(s)) fail(path, `expected a time "YYYY-MM-DDTHH:MM:SS", got ${describe(v)}`);
    return BigInt(s);
  },
  zero: fcTime(0),
};

function parseObjectId(v: unknown, path: string): { space: bigint; type: bigint; instance: bigint } {
  const id = readObjectId(v);
  if (id === 'space-or-type-out-of-range') return fail(path, `space and type of ${String(v)} must be below 256`);
  if (id === 'instance-out-of-range') return fail(path, `instance of ${String(v)} is above 2^48-1`);
  if (typeof id === 'string') return fail(path, `expected an object id "space.type.instance", got ${describe(v)}`);
  return { space: BigInt(id.space), type: BigInt(id.type), instance: BigInt(id.instance) };
}

/**
 * A typed id (object_id<S,T>): reflected as its one member `instance`, an unsigned_int, so only
 * the varint instance is packed (protocol/object_id.hpp, manual `reflector<object_id<…>>`).
 */
function typedId(space: number, type: number, what: string): Type {
  const instance = (v: unknown, path: string): bigint => {
    const id = parseObjectId(v, path);
    if (id.space !== BigInt(space) || id.type !== BigInt(type)) fail(path, `expected ${what} id ${space}.${type}.x, got ${describe(v)}`);
    return id.instance;
  };
  return {
    name: `${what}_id`,
    pack: (w, v, path) => w.varint(instance(v, path)),
    json: (v, path) => `${space}.${type}.${instance(v, path)}`,
    sortKey: instance,
    zero: `${space}.${type}.0`,
  };
}
// The protocol space's object types (types.hpp GRAPHENE_DEFINE_IDS, 1.x.y).
const accountId = typedId(1, 2, 'account');
const assetId = typedId(1, 3, 'asset');
const forceSettlementId = typedId(1, 4, 'force_settlement');
const committeeMemberId = typedId(1, 5, 'committee_member');
const witnessId = typedId(1, 6, 'witness');
const limitOrderId = typedId(1, 7, 'limit_order');
const callOrderId = typedId(1, 8, 'call_order');
const customId = typedId(1, 9, 'custom');
const proposalId = typedId(1, 10, 'proposal');
const withdrawPermissionId = typedId(1, 12, 'withdraw_permission');
const vestingBalanceId = typedId(1, 13, 'vesting_balance');
const workerId = typedId(1, 14, 'worker');
const balanceId = typedId(1, 15, 'balance');
const htlcId = typedId(1, 16, 'htlc');
const customAuthorityId = typedId(1, 17, 'custom_authority');
const ticketId = typedId(1, 18, 'ticket');
const liquidityPoolId = typedId(1, 19, 'liquidity_pool');
const sametFundId = typedId(1, 20, 'samet_fund');
const creditOfferId = typedId(1, 21, 'credit_offer');
const creditDealId = typedId(1, 22, 'credit_deal');

/**
 * The untyped object_id_type: FC_REFLECT( object_id_type, (number) ), a uint64 of
 * space << 56 | type << 48 | instance (object_id.hpp). Used by operation results.
 */
function objectIdNumber(v: unknown, path: string): bigint {
  const id = parseObjectId(v, path);
  return (id.space << 56n) | (id.type << 48n) | id.instance;
}
const objectIdType: Type = {
  name: 'object_id_type',
  pack: (w, v, path) => w.uint64(objectIdNumber(v, path)),
  json(v, path) {
    const id = parseObjectId(v, path);
    return `${id.space}.${id.type}.${id.instance}`;
  },
  sortKey: objectIdNumber,
  zero: '0.0.0',
};

/** public_key_type: the 33 key bytes (FC_REFLECT( public_key_type, (key_data) )); ordered by address. */
const publicKey: Type = {
  name: 'public_key',
  pack: (w, v, path) => w.raw(parsePublicKeyAt(v, path)),
  json: (v, path) => formatPublicKey(parsePublicKeyAt(v, path)),
  sortKey: (v, path) => publicKeyAddress(parsePublicKeyAt(v, path)),
  // the chain's prefix is set at start, after this table is built
  get zero() {
    return nullPublicKey();
  },
};

function parsePublicKeyAt(v: unknown, path: string): Uint8Array {
  try {
    return parsePublicKey(v);
  } catch (e) {
    return fail(path, (e as Error).message);
  }
}

/** address: a ripemd160, packed raw, ordered by memcmp (address.hpp). */
const address: Type = {
  name: 'address',
  pack: (w, v, path) => w.raw(parseAddressAt(v, path)),
  json: (v, path) => formatAddress(parseAddressAt(v, path)),
  sortKey: (v, path) => parseAddressAt(v, path),
  get zero() {
    return formatAddress(new Uint8Array(20));
  },
};

function parseAddressAt(v: unknown, path: string): Uint8Array {
  try {
    return parseAddress(v);
  } catch (e) {
    return fail(path, (e as Error).message);
  }
}

/**
 * vote_id_type: FC_REFLECT( vote_id_type, (content) ), a uint32 with the type in the low 8 bits and
 * the instance in the upper 24; JSON "type:instance" (protocol/vote.hpp, vote.cpp). Ordered by content.
 */
function voteIdContent(v: unknown, path: string): bigint {
  const m = typeof v === 'string' ? /^(\d+):(\d+)$/.exec(v) : null;
  if (!m) return fail(path, `expected a vote id "type:instance", got ${describe(v)}`);
  const type = BigInt(m[1] as string);
  const instance = BigInt(m[2] as string);
  if (type > 0xffn || instance > 0xffffffn) fail(path, `vote id ${v}: type must be below 2^8 and instance below 2^24`);
  return (instance << 8n) | type;
}
const voteId: Type = {
  name: 'vote_id',
  pack: (w, v, path) => w.uint32(Number(voteIdContent(v, path))),
  json(v, path) {
    const c = voteIdContent(v, path);
    return `${c & 0xffn}:${c >> 8n}`;
  },
  sortKey: voteIdContent,
  zero: '0:0',
};

/** optional<T>: a bool byte, then the value if set (raw.hpp). JSON: the key is absent (or null). */
function optional(t: Type): Type {
  return {
    name: `optional<${t.name}>`,
    mayBeAbsent: true,
    pack(w, v, path) {
      if (v === undefined || v === null) {
        w.uint8(0);
      } else {
        w.uint8(1);
        t.pack(w, v, path);
      }
    },
    json: (v, path) => (v === undefined || v === null ? undefined : t.json(v, path)),
    zero: undefined,
  };
}

/** `variant::get_array()`, which every container's from_variant starts with: null is no array either. */
function expectArray(v: unknown, _path: string): unknown[] {
  if (!Array.isArray(v)) throw notArray(v);
  return v;
}

/** vector<T>: varint count, then the elements in the given order. */
function vector(t: Type): Type {
  return {
    name: `vector<${t.name}>`,
    pack(w, v, path) {
      const items = expectArray(v, path);
      w.varint(items.length);
      items.forEach((item, i) => t.pack(w, item, `${path}[${i}]`));
    },
    json: (v, path) => expectArray(v, path).map((item, i) => t.json(item, `${path}[${i}]`)),
    zero: [],
  };
}

/**
 * Shared by flat_set and flat_map: the JSON order does not matter, Core inserts each element into
 * the sorted container (keeping the first of equal keys, fc container/flat.hpp from_variant) and
 * packs it in key order.
 */
function packSorted(w: Writer, items: unknown[], path: string, key: (item: unknown, p: string) => SortKey, pack: (w: Writer, item: unknown, p: string) => void): void {
  // One item is in order already; its key (for a public key, a sha512 and a ripemd160) is not needed.
  if (items.length === 1) {
    w.varint(1);
    pack(w, items[0], `${path}[0]`);
    return;
  }
  const entries: { key: SortKey; bytes: Uint8Array }[] = [];
  items.forEach((item, i) => {
    const p = `${path}[${i}]`;
    const k = key(item, p);
    const sub = new Writer(64);
    pack(sub, item, p);
    if (!entries.some((e) => compareKeys(e.key, k) === 0)) entries.push({ key: k, bytes: sub.finish() });
  });
  entries.sort((a, b) => compareKeys(a.key, b.key));
  w.varint(entries.length);
  for (const e of entries) w.raw(e.bytes);
}

/** The items of a flat_set/flat_map JSON array in Core's order: sorted by key, first of equals kept. */
function sortedUnique(items: unknown[], path: string, key: (item: unknown, p: string) => SortKey): [unknown, string][] {
  const entries: { key: SortKey; item: unknown; p: string }[] = [];
  items.forEach((item, i) => {
    const p = `${path}[${i}]`;
    const k = key(item, p);
    if (!entries.some((e) => compareKeys(e.key, k) === 0)) entries.push({ key: k, item, p });
  });
  entries.sort((a, b) => compareKeys(a.key, b.key));
  return entries.map((e) => [e.item, e.p]);
}

function flatSet(t: Type): Type {
  const key = t.sortKey;
  if (!key) throw new Error(`internal: ${t.name} has no order and cannot be a set element`);
  return {
    name: `flat_set<${t.name}>`,
    pack: (w, v, path) => packSorted(w, expectArray(v, path), path, key, (sw, item, p) => t.pack(sw, item, p)),
    json: (v, path) => sortedUnique(expectArray(v, path), path, key).map(([item, p]) => t.json(item, p)),
    zero: [],
  };
}

/** flat_map<K,V>: JSON is an array of [key, value] pairs (fc container/flat.hpp). */
function flatMap(k: Type, val: Type): Type {
  const key = k.sortKey;
  if (!key) throw new Error(`internal: ${k.name} has no order and cannot be a map key`);
  // std::pair's from_variant (variant.hpp): an array, whose missing elements keep their defaults.
  const pair = (item: unknown, p: string): [unknown, unknown] => {
    const arr = expectArray(item, p);
    return [arr.length > 0 ? arr[0] : k.zero, arr.length > 1 ? arr[1] : val.zero];
  };
  return {
    name: `flat_map<${k.name},${val.name}>`,
    pack: (w, v, path) =>
      packSorted(
        w,
        expectArray(v, path),
        path,
        (item, p) => key(pair(item, p)[0], `${p}[0]`),
        (sw, item, p) => {
          const [a, b] = pair(item, p);
          k.pack(sw, a, `${p}[0]`);
          val.pack(sw, b, `${p}[1]`);
        },
      ),
    json: (v, path) =>
      sortedUnique(expectArray(v, path), path, (item, p) => key(pair(item, p)[0], `${p}[0]`)).map(([item, p]) => {
        const [a, b] = pair(item, p);
        return [k.json(a, `${p}[0]`), val.json(b, `${p}[1]`)];
      }),
    zero: [],
  };
}

/**
 * A reflected struct: its fields in FC_REFLECT order, nothing between them. As fc's
 * from_variant_visitor, a member missing from the JSON keeps its default and unknown keys are ignored.
 */
function struct(name: string, fields: ReadonlyArray<readonly [string, Type]>): Type {
  const member = (v: Record<string, unknown>, field: string, t: Type): unknown => (Object.prototype.hasOwnProperty.call(v, field) ? v[field] : t.zero);
  return {
    name,
    pack(w, v, path) {
      if (!isObject(v)) throw notObject(v);
      for (const [field, t] of fields) t.pack(w, member(v, field, t), `${path}.${field}`);
    },
    json(v, path) {
      if (!isObject(v)) throw notObject(v);
      const out: Record<string, unknown> = {};
      for (const [field, t] of fields) {
        const j = t.json(member(v, field, t), `${path}.${field}`);
        if (j !== undefined) out[field] = j;
      }
      return out;
    },
    zero: {},
  };
}

/** A member whose C++ declaration gives it a default other than its type's (`uint8_t minimum_feeds = 1;`). */
const defaulted = (t: Type, zero: unknown): Type => ({ ...t, zero });

/** GRAPHENE_MAX_SHARE_SUPPLY (config.hpp), the default max_supply and max_market_fee of asset_options. */
const MAX_SHARE_SUPPLY = '1000000000000000';

/** An empty struct (void_t, void_result, no_special_authority): packs nothing. JSON `{}`. */
function emptyStruct(name: string): Type {
  return {
    name,
    pack(_w, v) {
      if (!isObject(v)) throw notObject(v);
    },
    json(v) {
      if (!isObject(v)) throw notObject(v);
      return {};
    },
    zero: {},
  };
}

/**
 * static_variant: varint `which`, then that alternative (fc static_variant.hpp). JSON [which, value].
 * A `which` beyond the alternatives is refused as fc's set_which refuses it, with an assertion.
 */
function staticVariant(name: string, alternatives: readonly Type[], ordered = false): Type {
  const first = alternatives[0];
  if (!first) throw new Error(`internal: ${name} has no alternative 0 to default to`);
  const zero = [0, first.zero];
  /** fc's from_variant: `if( ar.size() < 2 ) return;` keeps the default; extra elements are ignored. */
  const read = (v: unknown, path: string): [bigint, Type, unknown] => {
    const [tag, value] = expectArray(v, path).length < 2 ? zero : (v as unknown[]);
    const which = asUint64(tag);
    const t = which >= 0n && which < BigInt(alternatives.length) ? alternatives[Number(which)] : undefined;
    if (!t) {
      // as_uint64 has already wrapped a negative tag to its two's complement, as fc prints it
      throw new RpcError(assertError("static_cast<size_t>(tag) < count(): Unable to set tag '${tag}' when the number of supported tags is ${count}", { tag: u64(which), count: alternatives.length }));
    }
    return [which, t, value];
  };
  return {
    name,
    pack(w, v, path) {
      const [which, t, value] = read(v, path);
      w.varint(which);
      t.pack(w, value, `${path}[1]`);
    },
    json(v, path) {
      const [which, t, value] = read(v, path);
      return [Number(which), t.json(value, `${path}[1]`)];
    },
    // fc's static_variant operator< compares which() alone: a set of them holds one of each alternative.
    ...(ordered ? { sortKey: (v: unknown, path: string) => read(v, path)[0] } : {}),
    zero,
  };
}

/**
 * A type that refers to itself through others (restriction holds restrictions, proposal_create holds
 * operations): resolved when first used, after every type is defined.
 */
function lazy(name: string, get: () => Type): Type {
  return {
    name,
    pack: (w, v, path) => get().pack(w, v, path),
    json: (v, path) => get().json(v, path),
    get zero() {
      return get().zero;
    },
  };
}

/**
 * std::pair<A,B>: packed as A then B (raw.hpp); JSON `[a, b]`, and fc's from_variant reads the
 * elements the array has, leaving the others at their defaults (variant.hpp).
 */
function pair(a: Type, b: Type): Type {
  const items = (v: unknown, path: string): [unknown, unknown] => {
    const arr = expectArray(v, path);
    return [arr.length > 0 ? arr[0] : a.zero, arr.length > 1 ? arr[1] : b.zero];
  };
  return {
    name: `pair<${a.name},${b.name}>`,
    pack(w, v, path) {
      const [x, y] = items(v, path);
      a.pack(w, x, `${path}[0]`);
      b.pack(w, y, `${path}[1]`);
    },
    json(v, path) {
      const [x, y] = items(v, path);
      return [a.json(x, `${path}[0]`), b.json(y, `${path}[1]`)];
    },
    zero: [a.zero, b.zero],
  };
}

/**
 * extensions_type = future_extensions::flat_set_type, future_extensions = static_variant<void_t>
 * (protocol/base.hpp): a flat_set ordered by `which`, so it holds at most one `[0, {}]`. Every chain
 * object so far has it empty, `[]` → one 0x00 byte; Core reads `[[0, {}]]` (or `[[0]]`, the default
 * alternative) as one void_t, packs it as 0x01 0x00 and writes it back, and so does this.
 */
const futureExtensions: Type = {
  ...flatSet(staticVariant('future_extensions', [emptyStruct('void_t')], true)),
  name: 'extensions',
  mayBeAbsent: true,
};

/**
 * extension<T> (protocol/ext.hpp): a struct of optional fields, packed as the varint count of the
 * fields that are set, then for each set field its varint index in T's reflection and its value.
 * JSON is an object with the set fields only; ext.hpp's from_variant also accepts null and `[]` as
 * empty, and refuses unknown keys ("unrecognized extension").
 */
function extension(name: string, fields: ReadonlyArray<readonly [string, Type]>): Type {
  return {
    name,
    mayBeAbsent: true,
    pack(w, v, path) {
      if (v === undefined || v === null) {
        w.varint(0);
        return;
      }
      if (Array.isArray(v)) {
        if (v.length !== 0) throw new RpcError(assertError('var.size() == 0: '));
        w.varint(0);
        return;
      }
      if (!isObject(v)) throw notObject(v);
      const known = new Set(fields.map(([f]) => f));
      // graphene_extension_from_variant_visitor counts the keys it used; any left is unrecognized
      if (Object.keys(v).some((k) => !known.has(k))) throw new RpcError(assertError('vtor.count_left == 0: '));
      const set = fields.map(([f, t], i) => [f, t, i] as const).filter(([f]) => v[f] !== undefined && v[f] !== null);
      w.varint(set.length);
      for (const [f, t, i] of set) {
        w.varint(i);
        t.pack(w, v[f], `${path}.${f}`);
      }
    },
    json(v, path) {
      const out: Record<string, unknown> = {};
      if (v === undefined || v === null) return out;
      if (Array.isArray(v)) {
        if (v.length !== 0) throw new RpcError(assertError('var.size() == 0: '));
        return out;
      }
      if (!isObject(v)) throw notObject(v);
      const known = new Set(fields.map(([f]) => f));
      if (Object.keys(v).some((k) => !known.has(k))) throw new RpcError(assertError('vtor.count_left == 0: '));
      for (const [f, t] of fields) if (v[f] !== undefined && v[f] !== null) out[f] = t.json(v[f], `${path}.${f}`);
      return out;
    },
    zero: {},
  };
}

// ---------------------------------------------------------------------------------------------
// Protocol structs

/** protocol/asset.hpp: FC_REFLECT( asset, (amount)(asset_id) ) */
const asset = struct('asset', [
  ['amount', int64],
  ['asset_id', assetId],
]);

/** protocol/asset.hpp: FC_REFLECT( price, (base)(quote) ) */
const price = struct('price', [
  ['base', asset],
  ['quote', asset],
]);

/** protocol/memo.hpp:91: (from)(to)(nonce)(message) */
const memoData = struct('memo_data', [
  ['from', publicKey],
  ['to', publicKey],
  ['nonce', uint64],
  ['message', bytes],
]);

/** protocol/authority.hpp: (weight_threshold)(account_auths)(key_auths)(address_auths) */
const authority = struct('authority', [
  ['weight_threshold', uint32],
  ['account_auths', flatMap(accountId, uint16)],
  ['key_auths', flatMap(publicKey, uint16)],
  ['address_auths', flatMap(address, uint16)],
]);

/** protocol/account.hpp:282: (memo_key)(voting_account)(num_witness)(num_committee)(votes)(extensions) */
const accountOptions = struct('account_options', [
  ['memo_key', publicKey],
  ['voting_account', defaulted(accountId, '1.2.5')], // GRAPHENE_PROXY_TO_SELF_ACCOUNT
  ['num_witness', uint16],
  ['num_committee', uint16],
  ['votes', flatSet(voteId)],
  ['extensions', futureExtensions],
]);

/** protocol/special_authority.hpp: static_variant<no_special_authority, top_holders_special_authority> */
const specialAuthority = staticVariant('special_authority', [
  emptyStruct('no_special_authority'),
  struct('top_holders_special_authority', [
    ['asset', assetId],
    ['num_top_holders', defaulted(uint8, 1)],
  ]),
]);

/** protocol/buyback.hpp: (asset_to_buy)(asset_to_buy_issuer)(markets) */
const buybackAccountOptions = struct('buyback_account_options', [
  ['asset_to_buy', assetId],
  ['asset_to_buy_issuer', accountId],
  ['markets', flatSet(assetId)],
]);

/** protocol/asset_ops.hpp:660: additional_asset_options (reward_percent)(whitelist_market_fee_sharing)(taker_fee_percent) */
const additionalAssetOptions = extension('additional_asset_options', [
  ['reward_percent', uint16],
  ['whitelist_market_fee_sharing', flatSet(accountId)],
  ['taker_fee_percent', uint16],
]);

/** protocol/asset_ops.hpp:626 FC_REFLECT( asset_options, … ) */
const assetOptions = struct('asset_options', [
  ['max_supply', defaulted(int64, MAX_SHARE_SUPPLY)],
  ['market_fee_percent', uint16],
  ['max_market_fee', defaulted(int64, MAX_SHARE_SUPPLY)],
  ['issuer_permissions', defaulted(uint16, 79)], // DEFAULT_UIA_ASSET_ISSUER_PERMISSION (types.hpp)
  ['flags', uint16],
  ['core_exchange_rate', defaulted(price, { base: { amount: 0, asset_id: '1.3.0' }, quote: { amount: 0, asset_id: '1.3.1' } })],
  ['whitelist_authorities', flatSet(accountId)],
  ['blacklist_authorities', flatSet(accountId)],
  ['whitelist_markets', flatSet(assetId)],
  ['blacklist_markets', flatSet(assetId)],
  ['description', string],
  ['extensions', additionalAssetOptions],
]);

/** protocol/asset_ops.hpp: FC_REFLECT( bitasset_options, … ) and its ext */
const bitassetOptions = struct('bitasset_options', [
  // GRAPHENE_DEFAULT_PRICE_FEED_LIFETIME, 1, GRAPHENE_DEFAULT_FORCE_SETTLEMENT_DELAY, _OFFSET, _MAX_VOLUME (config.hpp)
  ['feed_lifetime_sec', defaulted(uint32, 86400)],
  ['minimum_feeds', defaulted(uint8, 1)],
  ['force_settlement_delay_sec', defaulted(uint32, 86400)],
  ['force_settlement_offset_percent', uint16],
  ['maximum_force_settlement_volume', defaulted(uint16, 2000)],
  ['short_backing_asset', assetId],
  [
    'extensions',
    extension('bitasset_options::ext', [
      ['initial_collateral_ratio', uint16],
      ['maintenance_collateral_ratio', uint16],
      ['maximum_short_squeeze_ratio', uint16],
      ['margin_call_fee_ratio', uint16],
      ['force_settle_fee_percent', uint16],
      ['black_swan_response_method', uint8],
    ]),
  ],
]);

// ---------------------------------------------------------------------------------------------
// Structs the operations share

/** protocol/asset.hpp: FC_REFLECT( price_feed, (settlement_price)(maintenance_collateral_ratio)(maximum_short_squeeze_ratio)(core_exchange_rate) ) */
const priceFeed = struct('price_feed', [
  ['settlement_price', price],
  ['maintenance_collateral_ratio', defaulted(uint16, 1750)], // GRAPHENE_DEFAULT_MAINTENANCE_COLLATERAL_RATIO
  ['maximum_short_squeeze_ratio', defaulted(uint16, 1500)], // GRAPHENE_DEFAULT_MAX_SHORT_SQUEEZE_RATIO
  ['core_exchange_rate', price],
]);

/** protocol/market.hpp: FC_REFLECT( create_take_profit_order_action, (fee_asset_id)(spread_percent)(size_percent)(expiration_seconds)(repeat)(extensions) ) */
const createTakeProfitOrderAction = struct('create_take_profit_order_action', [
  ['fee_asset_id', assetId],
  ['spread_percent', uint16],
  ['size_percent', defaulted(uint16, 10000)], // GRAPHENE_100_PERCENT
  ['expiration_seconds', uint32],
  ['repeat', bool],
  ['extensions', futureExtensions],
]);
/** protocol/market.hpp: limit_order_auto_action = static_variant< create_take_profit_order_action > */
const limitOrderAutoActions = vector(staticVariant('limit_order_auto_action', [createTakeProfitOrderAction]));

/** protocol/vesting.hpp: vesting_policy_initializer = static_variant< linear, cdd, instant > */
const vestingPolicyInitializer = staticVariant('vesting_policy_initializer', [
  struct('linear_vesting_policy_initializer', [
    ['begin_timestamp', timePointSec],
    ['vesting_cliff_seconds', uint32],
    ['vesting_duration_seconds', uint32],
  ]),
  struct('cdd_vesting_policy_initializer', [
    ['start_claim', timePointSec],
    ['vesting_seconds', uint32],
  ]),
  emptyStruct('instant_vesting_policy_initializer'),
]);

/** protocol/worker.hpp: worker_initializer = static_variant< refund, vesting_balance, burn > */
const workerInitializer = staticVariant('worker_initializer', [
  emptyStruct('refund_worker_initializer'),
  struct('vesting_balance_worker_initializer', [['pay_vesting_period_days', uint16]]),
  emptyStruct('burn_worker_initializer'),
]);

/** protocol/assert.hpp: predicate = static_variant< account_name_eq_lit, asset_symbol_eq_lit, block_id > */
const predicate = staticVariant('predicate', [
  struct('account_name_eq_lit_predicate', [
    ['account_id', accountId],
    ['name', string],
  ]),
  struct('asset_symbol_eq_lit_predicate', [
    ['asset_id', assetId],
    ['symbol', string],
  ]),
  struct('block_id_predicate', [['id', ripemd160]]),
]);

/** protocol/confidential.hpp: FC_REFLECT( stealth_confirmation, (one_time_key)(to)(encrypted_memo) ) */
const stealthConfirmation = struct('stealth_confirmation', [
  ['one_time_key', publicKey],
  ['to', optional(publicKey)],
  ['encrypted_memo', bytes],
]);

/** protocol/confidential.hpp: FC_REFLECT( blind_output, (commitment)(range_proof)(owner)(stealth_memo) ) */
const blindOutput = struct('blind_output', [
  ['commitment', commitment],
  ['range_proof', bytes],
  ['owner', authority],
  ['stealth_memo', optional(stealthConfirmation)],
]);

/** protocol/confidential.hpp: FC_REFLECT( blind_input, (commitment)(owner) ) */
const blindInput = struct('blind_input', [
  ['commitment', commitment],
  ['owner', authority],
]);

/** protocol/htlc.hpp: htlc_hash = static_variant< ripemd160, sha1, sha256, hash160 > */
const htlcHash = staticVariant('htlc_hash', [ripemd160, sha1, sha256Hash, hash160]);

/**
 * protocol/restriction.hpp: FC_REFLECT( restriction, (member_index)(restriction_type)(argument)(extensions) ),
 * its argument one of GRAPHENE_OP_RESTRICTION_ARGUMENTS_VARIADIC (alternative 41 is
 * pair<int64_t, vector<restriction>>; bitsharesjs 6.0.3 has it wrong, as a vector of vectors).
 */
const restriction: Type = lazy('restriction', () => restrictionStruct);
const restrictions = vector(restriction);
const restrictionIds = [accountId, assetId, forceSettlementId, committeeMemberId, witnessId, limitOrderId, callOrderId, customId, proposalId, withdrawPermissionId, vestingBalanceId, workerId, balanceId];
const restrictionScalars = [bool, int64, string, timePointSec, publicKey, sha256Hash, ...restrictionIds];
const restrictionStruct = struct('restriction', [
  ['member_index', unsignedInt],
  ['restriction_type', unsignedInt],
  [
    'argument',
    staticVariant('restriction::argument_type', [
      /*  0 */ emptyStruct('void_t'),
      /*  1…19 */ ...restrictionScalars,
      /* 20…38 */ ...restrictionScalars.map(flatSet),
      /* 39 */ restrictions,
      /* 40 */ vector(restrictions),
      /* 41 */ pair(int64, restrictions),
    ]),
  ],
  ['extensions', futureExtensions],
]);

/** protocol/fee_schedule.hpp: fee_parameters, one alternative per operation (fee-parameters.ts lists them). */
const feeParameterKinds: Readonly<Record<FeeParameterKind, Type>> = { uint64, uint32, int64 };
const feeParameters = staticVariant(
  'fee_parameters',
  FEE_PARAMETERS.map(({ name, fields }) => struct(`${name}_operation::fee_params_t`, fields.map(([f, kind, d]) => [f, defaulted(feeParameterKinds[kind], u64(d))] as const))),
  true,
);

/**
 * protocol/fee_schedule.hpp: FC_REFLECT( fee_schedule, (parameters)(scale) ). chain_parameters holds it
 * as a shared_ptr, which fc packs as the value itself; Core's from_variant makes a default one (no
 * parameters, scale 100%) when the JSON has none (types.cpp).
 */
const feeSchedule = struct('fee_schedule', [
  ['parameters', flatSet(feeParameters)],
  ['scale', defaulted(uint32, 10000)], // GRAPHENE_100_PERCENT
]);

/** protocol/chain_parameters.hpp: FC_REFLECT( chain_parameters, … ), defaults from config.hpp. */
const chainParameters = struct('chain_parameters', [
  ['current_fees', { ...feeSchedule, pack: (w, v, path) => feeSchedule.pack(w, v ?? {}, path), json: (v, path) => feeSchedule.json(v ?? {}, path) }],
  ['block_interval', defaulted(uint8, 5)],
  ['maintenance_interval', defaulted(uint32, 86400)],
  ['maintenance_skip_slots', defaulted(uint8, 3)],
  ['committee_proposal_review_period', defaulted(uint32, 1209600)],
  ['maximum_transaction_size', defaulted(uint32, 2048)],
  ['maximum_block_size', defaulted(uint32, 2000000)],
  ['maximum_time_until_expiration', defaulted(uint32, 86400)],
  ['maximum_proposal_lifetime', defaulted(uint32, 2419200)],
  ['maximum_asset_whitelist_authorities', defaulted(uint8, 10)],
  ['maximum_asset_feed_publishers', defaulted(uint8, 10)],
  ['maximum_witness_count', defaulted(uint16, 1001)],
  ['maximum_committee_count', defaulted(uint16, 1001)],
  ['maximum_authority_membership', defaulted(uint16, 10)],
  ['reserve_percent_of_fee', defaulted(uint16, 2000)],
  ['network_percent_of_fee', defaulted(uint16, 2000)],
  ['lifetime_referrer_percent_of_fee', defaulted(uint16, 3000)],
  ['cashback_vesting_period_seconds', defaulted(uint32, 31536000)],
  ['cashback_vesting_threshold', defaulted(int64, 10000000)],
  ['count_non_member_votes', defaulted(bool, true)],
  ['allow_non_member_whitelists', bool],
  ['witness_pay_per_block', defaulted(int64, 1000000)],
  ['worker_budget_per_day', defaulted(int64, '50000000000')],
  ['max_predicate_opcode', defaulted(uint16, 1)],
  ['fee_liquidation_threshold', defaulted(int64, 10000000)],
  ['accounts_per_fee_scale', defaulted(uint16, 1000)],
  ['account_fee_scale_bitshifts', defaulted(uint8, 4)],
  ['max_authority_depth', defaulted(uint8, 2)], // GRAPHENE_MAX_SIG_CHECK_DEPTH
  [
    'extensions',
    extension('chain_parameters::ext', [
      [
        'updatable_htlc_options',
        struct('htlc_options', [
          ['max_timeout_secs', uint32],
          ['max_preimage_size', uint32],
        ]),
      ],
      [
        'custom_authority_options',
        struct('custom_authority_options_type', [
          ['max_custom_authority_lifetime_seconds', defaulted(uint32, 2592000)],
          ['max_custom_authorities_per_account', defaulted(uint32, 10)],
          ['max_custom_authorities_per_account_op', defaulted(uint32, 3)],
          ['max_custom_authority_restrictions', defaulted(uint32, 10)],
        ]),
      ],
      ['market_fee_network_percent', uint16],
      ['maker_fee_discount_percent', uint16],
    ]),
  ],
]);

// ---------------------------------------------------------------------------------------------
// Operations (protocol/operations.hpp gives the codes: the static_variant's alternative index).
// Each is its FC_REFLECT line, in the header named. A member the C++ leaves uninitialised (htlc_create's
// preimage_size, custom_authority_create's enabled, credit_deal_update's auto_repay) defaults to zero.

type Fields = ReadonlyArray<readonly [string, Type]>;
const FEE = ['fee', asset] as const;
const EXTENSIONS = ['extensions', futureExtensions] as const;
const op = (name: string, fields: Fields): Type => struct(`${name}_operation`, fields);

/** Operation codes → types; `operation` below refers to it through op_wrapper, hence lazy. */
const operation: Type = lazy('operation', () => operationVariant);
/** protocol/operations.hpp: FC_REFLECT( op_wrapper, (op) ) */
const opWrapper = struct('op_wrapper', [['op', operation]]);

const OPERATIONS: readonly Type[] = [
  /* 0, transfer.hpp */ op('transfer', [FEE, ['from', accountId], ['to', accountId], ['amount', asset], ['memo', optional(memoData)], EXTENSIONS]),
  /* 1, market.hpp */ op('limit_order_create', [
    FEE,
    ['seller', accountId],
    ['amount_to_sell', asset],
    ['min_to_receive', asset],
    ['expiration', defaulted(timePointSec, '2106-02-07T06:28:15')], // time_point_sec::maximum()
    ['fill_or_kill', bool],
    ['extensions', extension('limit_order_create_operation::options_type', [['on_fill', limitOrderAutoActions]])],
  ]),
  /* 2, market.hpp */ op('limit_order_cancel', [FEE, ['fee_paying_account', accountId], ['order', limitOrderId], EXTENSIONS]),
  /* 3, market.hpp */ op('call_order_update', [
    FEE,
    ['funding_account', accountId],
    ['delta_collateral', asset],
    ['delta_debt', asset],
    ['extensions', extension('call_order_update_operation::options_type', [['target_collateral_ratio', uint16]])],
  ]),
  /* 4, market.hpp, virtual */ op('fill_order', [
    FEE,
    ['order_id', objectIdType],
    ['account_id', accountId],
    ['pays', asset],
    ['receives', asset],
    ['fill_price', price],
    ['is_maker', defaulted(bool, true)],
  ]),
  /* 5, account.hpp */ op('account_create', [
    FEE,
    ['registrar', accountId],
    ['referrer', accountId],
    ['referrer_percent', uint16],
    ['name', string],
    ['owner', authority],
    ['active', authority],
    ['options', accountOptions],
    [
      'extensions',
      extension('account_create_operation::ext', [
        ['null_ext', emptyStruct('void_t')],
        ['owner_special_authority', specialAuthority],
        ['active_special_authority', specialAuthority],
        ['buyback_options', buybackAccountOptions],
      ]),
    ],
  ]),
  /* 6, account.hpp */ op('account_update', [
    FEE,
    ['account', accountId],
    ['owner', optional(authority)],
    ['active', optional(authority)],
    ['new_options', optional(accountOptions)],
    [
      'extensions',
      extension('account_update_operation::ext', [
        ['null_ext', emptyStruct('void_t')],
        ['owner_special_authority', specialAuthority],
        ['active_special_authority', specialAuthority],
      ]),
    ],
  ]),
  /* 7, account.hpp */ op('account_whitelist', [FEE, ['authorizing_account', accountId], ['account_to_list', accountId], ['new_listing', uint8], EXTENSIONS]),
  /* 8, account.hpp */ op('account_upgrade', [FEE, ['account_to_upgrade', accountId], ['upgrade_to_lifetime_member', bool], EXTENSIONS]),
  /* 9, account.hpp */ op('account_transfer', [FEE, ['account_id', accountId], ['new_owner', accountId], EXTENSIONS]),
  /* 10, asset_ops.hpp */ op('asset_create', [
    FEE,
    ['issuer', accountId],
    ['symbol', string],
    ['precision', uint8],
    ['common_options', assetOptions],
    ['bitasset_opts', optional(bitassetOptions)],
    ['is_prediction_market', bool],
    EXTENSIONS,
  ]),
  /* 11, asset_ops.hpp */ op('asset_update', [
    FEE,
    ['issuer', accountId],
    ['asset_to_update', assetId],
    ['new_issuer', optional(accountId)],
    ['new_options', assetOptions],
    [
      'extensions',
      extension('asset_update_operation::ext', [
        ['new_precision', uint8],
        ['skip_core_exchange_rate', bool],
      ]),
    ],
  ]),
  /* 12, asset_ops.hpp */ op('asset_update_bitasset', [FEE, ['issuer', accountId], ['asset_to_update', assetId], ['new_options', bitassetOptions], EXTENSIONS]),
  /* 13, asset_ops.hpp */ op('asset_update_feed_producers', [FEE, ['issuer', accountId], ['asset_to_update', assetId], ['new_feed_producers', flatSet(accountId)], EXTENSIONS]),
  /* 14, asset_ops.hpp */ op('asset_issue', [FEE, ['issuer', accountId], ['asset_to_issue', asset], ['issue_to_account', accountId], ['memo', optional(memoData)], EXTENSIONS]),
  /* 15, asset_ops.hpp */ op('asset_reserve', [FEE, ['payer', accountId], ['amount_to_reserve', asset], EXTENSIONS]),
  /* 16, asset_ops.hpp */ op('asset_fund_fee_pool', [FEE, ['from_account', accountId], ['asset_id', assetId], ['amount', int64], EXTENSIONS]),
  /* 17, asset_ops.hpp */ op('asset_settle', [FEE, ['account', accountId], ['amount', asset], EXTENSIONS]),
  /* 18, asset_ops.hpp */ op('asset_global_settle', [FEE, ['issuer', accountId], ['asset_to_settle', assetId], ['settle_price', price], EXTENSIONS]),
  /* 19, asset_ops.hpp */ op('asset_publish_feed', [
    FEE,
    ['publisher', accountId],
    ['asset_id', assetId],
    ['feed', priceFeed],
    ['extensions', extension('asset_publish_feed_operation::ext', [['initial_collateral_ratio', uint16]])],
  ]),
  /* 20, witness.hpp */ op('witness_create', [FEE, ['witness_account', accountId], ['url', string], ['block_signing_key', publicKey]]),
  /* 21, witness.hpp */ op('witness_update', [FEE, ['witness', witnessId], ['witness_account', accountId], ['new_url', optional(string)], ['new_signing_key', optional(publicKey)]]),
  /* 22, proposal.hpp */ op('proposal_create', [
    FEE,
    ['fee_paying_account', accountId],
    ['expiration_time', timePointSec],
    ['proposed_ops', vector(opWrapper)],
    ['review_period_seconds', optional(uint32)],
    EXTENSIONS,
  ]),
  /* 23, proposal.hpp */ op('proposal_update', [
    FEE,
    ['fee_paying_account', accountId],
    ['proposal', proposalId],
    ['active_approvals_to_add', flatSet(accountId)],
    ['active_approvals_to_remove', flatSet(accountId)],
    ['owner_approvals_to_add', flatSet(accountId)],
    ['owner_approvals_to_remove', flatSet(accountId)],
    ['key_approvals_to_add', flatSet(publicKey)],
    ['key_approvals_to_remove', flatSet(publicKey)],
    EXTENSIONS,
  ]),
  /* 24, proposal.hpp */ op('proposal_delete', [FEE, ['fee_paying_account', accountId], ['using_owner_authority', bool], ['proposal', proposalId], EXTENSIONS]),
  /* 25, withdraw_permission.hpp */ op('withdraw_permission_create', [
    FEE,
    ['withdraw_from_account', accountId],
    ['authorized_account', accountId],
    ['withdrawal_limit', asset],
    ['withdrawal_period_sec', uint32],
    ['periods_until_expiration', uint32],
    ['period_start_time', timePointSec],
  ]),
  /* 26, withdraw_permission.hpp */ op('withdraw_permission_update', [
    FEE,
    ['withdraw_from_account', accountId],
    ['authorized_account', accountId],
    ['permission_to_update', withdrawPermissionId],
    ['withdrawal_limit', asset],
    ['withdrawal_period_sec', uint32],
    ['period_start_time', timePointSec],
    ['periods_until_expiration', uint32],
  ]),
  /* 27, withdraw_permission.hpp */ op('withdraw_permission_claim', [
    FEE,
    ['withdraw_permission', withdrawPermissionId],
    ['withdraw_from_account', accountId],
    ['withdraw_to_account', accountId],
    ['amount_to_withdraw', asset],
    ['memo', optional(memoData)],
  ]),
  /* 28, withdraw_permission.hpp */ op('withdraw_permission_delete', [FEE, ['withdraw_from_account', accountId], ['authorized_account', accountId], ['withdrawal_permission', withdrawPermissionId]]),
  /* 29, committee_member.hpp */ op('committee_member_create', [FEE, ['committee_member_account', accountId], ['url', string]]),
  /* 30, committee_member.hpp */ op('committee_member_update', [FEE, ['committee_member', committeeMemberId], ['committee_member_account', accountId], ['new_url', optional(string)]]),
  /* 31, committee_member.hpp */ op('committee_member_update_global_parameters', [FEE, ['new_parameters', chainParameters]]),
  /* 32, vesting.hpp */ op('vesting_balance_create', [FEE, ['creator', accountId], ['owner', accountId], ['amount', asset], ['policy', vestingPolicyInitializer]]),
  /* 33, vesting.hpp */ op('vesting_balance_withdraw', [FEE, ['vesting_balance', vestingBalanceId], ['owner', accountId], ['amount', asset]]),
  /* 34, worker.hpp */ op('worker_create', [
    FEE,
    ['owner', accountId],
    ['work_begin_date', timePointSec],
    ['work_end_date', timePointSec],
    ['daily_pay', int64],
    ['name', string],
    ['url', string],
    ['initializer', workerInitializer],
  ]),
  /* 35, custom.hpp */ op('custom', [FEE, ['payer', accountId], ['required_auths', flatSet(accountId)], ['id', uint16], ['data', bytes]]),
  /* 36, assert.hpp */ op('assert', [FEE, ['fee_paying_account', accountId], ['predicates', vector(predicate)], ['required_auths', flatSet(accountId)], EXTENSIONS]),
  /* 37, balance.hpp */ op('balance_claim', [FEE, ['deposit_to_account', accountId], ['balance_to_claim', balanceId], ['balance_owner_key', publicKey], ['total_claimed', asset]]),
  /* 38, transfer.hpp */ op('override_transfer', [FEE, ['issuer', accountId], ['from', accountId], ['to', accountId], ['amount', asset], ['memo', optional(memoData)], EXTENSIONS]),
  /* 39, confidential.hpp */ op('transfer_to_blind', [FEE, ['amount', asset], ['from', accountId], ['blinding_factor', sha256Hash], ['outputs', vector(blindOutput)]]),
  /* 40, confidential.hpp */ op('blind_transfer', [FEE, ['inputs', vector(blindInput)], ['outputs', vector(blindOutput)]]),
  /* 41, confidential.hpp */ op('transfer_from_blind', [FEE, ['amount', asset], ['to', accountId], ['blinding_factor', sha256Hash], ['inputs', vector(blindInput)]]),
  /* 42, asset_ops.hpp, virtual */ op('asset_settle_cancel', [FEE, ['settlement', forceSettlementId], ['account', accountId], ['amount', asset]]),
  /* 43, asset_ops.hpp */ op('asset_claim_fees', [
    FEE,
    ['issuer', accountId],
    ['amount_to_claim', asset],
    ['extensions', extension('asset_claim_fees_operation::additional_options_type', [['claim_from_asset_id', assetId]])],
  ]),
  /* 44, fba.hpp, virtual */ op('fba_distribute', [FEE, ['account_id', accountId], ['fba_id', objectIdType], ['amount', int64]]),
  /* 45, market.hpp */ op('bid_collateral', [FEE, ['bidder', accountId], ['additional_collateral', asset], ['debt_covered', asset], EXTENSIONS]),
  /* 46, market.hpp, virtual */ op('execute_bid', [FEE, ['bidder', accountId], ['debt', asset], ['collateral', asset]]),
  /* 47, asset_ops.hpp */ op('asset_claim_pool', [FEE, ['issuer', accountId], ['asset_id', assetId], ['amount_to_claim', asset], EXTENSIONS]),
  /* 48, asset_ops.hpp */ op('asset_update_issuer', [FEE, ['issuer', accountId], ['asset_to_update', assetId], ['new_issuer', accountId], EXTENSIONS]),
  /* 49, htlc.hpp */ op('htlc_create', [
    FEE,
    ['from', accountId],
    ['to', accountId],
    ['amount', asset],
    ['preimage_hash', htlcHash],
    ['preimage_size', uint16],
    ['claim_period_seconds', uint32],
    ['extensions', extension('htlc_create_operation::additional_options_type', [['memo', memoData]])],
  ]),
  /* 50, htlc.hpp */ op('htlc_redeem', [FEE, ['htlc_id', htlcId], ['redeemer', accountId], ['preimage', bytes], EXTENSIONS]),
  /* 51, htlc.hpp, virtual */ op('htlc_redeemed', [
    FEE,
    ['htlc_id', htlcId],
    ['from', accountId],
    ['to', accountId],
    ['redeemer', accountId],
    ['amount', asset],
    ['htlc_preimage_hash', htlcHash],
    ['htlc_preimage_size', uint16],
    ['preimage', bytes],
  ]),
  /* 52, htlc.hpp */ op('htlc_extend', [FEE, ['htlc_id', htlcId], ['update_issuer', accountId], ['seconds_to_add', uint32], EXTENSIONS]),
  /* 53, htlc.hpp, virtual */ op('htlc_refund', [
    FEE,
    ['htlc_id', htlcId],
    ['to', accountId],
    ['original_htlc_recipient', accountId],
    ['htlc_amount', asset],
    ['htlc_preimage_hash', htlcHash],
    ['htlc_preimage_size', uint16],
  ]),
  /* 54, custom_authority.hpp */ op('custom_authority_create', [
    FEE,
    ['account', accountId],
    ['enabled', bool],
    ['valid_from', timePointSec],
    ['valid_to', timePointSec],
    ['operation_type', unsignedInt],
    ['auth', authority],
    ['restrictions', restrictions],
    EXTENSIONS,
  ]),
  /* 55, custom_authority.hpp */ op('custom_authority_update', [
    FEE,
    ['account', accountId],
    ['authority_to_update', customAuthorityId],
    ['new_enabled', optional(bool)],
    ['new_valid_from', optional(timePointSec)],
    ['new_valid_to', optional(timePointSec)],
    ['new_auth', optional(authority)],
    ['restrictions_to_remove', flatSet(uint16)],
    ['restrictions_to_add', restrictions],
    EXTENSIONS,
  ]),
  /* 56, custom_authority.hpp */ op('custom_authority_delete', [FEE, ['account', accountId], ['authority_to_delete', customAuthorityId], EXTENSIONS]),
  /* 57, ticket.hpp */ op('ticket_create', [FEE, ['account', accountId], ['target_type', unsignedInt], ['amount', asset], EXTENSIONS]),
  /* 58, ticket.hpp */ op('ticket_update', [FEE, ['ticket', ticketId], ['account', accountId], ['target_type', unsignedInt], ['amount_for_new_target', optional(asset)], EXTENSIONS]),
  /* 59, liquidity_pool.hpp */ op('liquidity_pool_create', [
    FEE,
    ['account', accountId],
    ['asset_a', assetId],
    ['asset_b', assetId],
    ['share_asset', assetId],
    ['taker_fee_percent', uint16],
    ['withdrawal_fee_percent', uint16],
    EXTENSIONS,
  ]),
  /* 60, liquidity_pool.hpp */ op('liquidity_pool_delete', [FEE, ['account', accountId], ['pool', liquidityPoolId], EXTENSIONS]),
  /* 61, liquidity_pool.hpp */ op('liquidity_pool_deposit', [FEE, ['account', accountId], ['pool', liquidityPoolId], ['amount_a', asset], ['amount_b', asset], EXTENSIONS]),
  /* 62, liquidity_pool.hpp */ op('liquidity_pool_withdraw', [FEE, ['account', accountId], ['pool', liquidityPoolId], ['share_amount', asset], EXTENSIONS]),
  /* 63, liquidity_pool.hpp */ op('liquidity_pool_exchange', [FEE, ['account', accountId], ['pool', liquidityPoolId], ['amount_to_sell', asset], ['min_to_receive', asset], EXTENSIONS]),
  /* 64, samet_fund.hpp */ op('samet_fund_create', [FEE, ['owner_account', accountId], ['asset_type', assetId], ['balance', int64], ['fee_rate', uint32], EXTENSIONS]),
  /* 65, samet_fund.hpp */ op('samet_fund_delete', [FEE, ['owner_account', accountId], ['fund_id', sametFundId], EXTENSIONS]),
  /* 66, samet_fund.hpp */ op('samet_fund_update', [FEE, ['owner_account', accountId], ['fund_id', sametFundId], ['delta_amount', optional(asset)], ['new_fee_rate', optional(uint32)], EXTENSIONS]),
  /* 67, samet_fund.hpp */ op('samet_fund_borrow', [FEE, ['borrower', accountId], ['fund_id', sametFundId], ['borrow_amount', asset], EXTENSIONS]),
  /* 68, samet_fund.hpp */ op('samet_fund_repay', [FEE, ['account', accountId], ['fund_id', sametFundId], ['repay_amount', asset], ['fund_fee', asset], EXTENSIONS]),
  /* 69, credit_offer.hpp */ op('credit_offer_create', [
    FEE,
    ['owner_account', accountId],
    ['asset_type', assetId],
    ['balance', int64],
    ['fee_rate', uint32],
    ['max_duration_seconds', uint32],
    ['min_deal_amount', int64],
    ['enabled', bool],
    ['auto_disable_time', timePointSec],
    ['acceptable_collateral', flatMap(assetId, price)],
    ['acceptable_borrowers', flatMap(accountId, int64)],
    EXTENSIONS,
  ]),
  /* 70, credit_offer.hpp */ op('credit_offer_delete', [FEE, ['owner_account', accountId], ['offer_id', creditOfferId], EXTENSIONS]),
  /* 71, credit_offer.hpp */ op('credit_offer_update', [
    FEE,
    ['owner_account', accountId],
    ['offer_id', creditOfferId],
    ['delta_amount', optional(asset)],
    ['fee_rate', optional(uint32)],
    ['max_duration_seconds', optional(uint32)],
    ['min_deal_amount', optional(int64)],
    ['enabled', optional(bool)],
    ['auto_disable_time', optional(timePointSec)],
    ['acceptable_collateral', optional(flatMap(assetId, price))],
    ['acceptable_borrowers', optional(flatMap(accountId, int64))],
    EXTENSIONS,
  ]),
  /* 72, credit_offer.hpp */ op('credit_offer_accept', [
    FEE,
    ['borrower', accountId],
    ['offer_id', creditOfferId],
    ['borrow_amount', asset],
    ['collateral', asset],
    ['max_fee_rate', uint32],
    ['min_duration_seconds', uint32],
    ['extensions', extension('credit_offer_accept_operation::ext', [['auto_repay', uint8]])],
  ]),
  /* 73, credit_offer.hpp */ op('credit_deal_repay', [FEE, ['account', accountId], ['deal_id', creditDealId], ['repay_amount', asset], ['credit_fee', asset], EXTENSIONS]),
  /* 74, credit_offer.hpp, virtual */ op('credit_deal_expired', [
    FEE,
    ['deal_id', creditDealId],
    ['offer_id', creditOfferId],
    ['offer_owner', accountId],
    ['borrower', accountId],
    ['unpaid_amount', asset],
    ['collateral', asset],
    ['fee_rate', uint32],
  ]),
  /* 75, liquidity_pool.hpp */ op('liquidity_pool_update', [
    FEE,
    ['account', accountId],
    ['pool', liquidityPoolId],
    ['taker_fee_percent', optional(uint16)],
    ['withdrawal_fee_percent', optional(uint16)],
    EXTENSIONS,
  ]),
  /* 76, credit_offer.hpp */ op('credit_deal_update', [FEE, ['account', accountId], ['deal_id', creditDealId], ['auto_repay', uint8], EXTENSIONS]),
  /* 77, market.hpp */ op('limit_order_update', [
    FEE,
    ['seller', accountId],
    ['order', limitOrderId],
    ['new_price', optional(price)],
    ['delta_amount_to_sell', optional(asset)],
    ['new_expiration', optional(timePointSec)],
    ['on_fill', optional(limitOrderAutoActions)],
    EXTENSIONS,
  ]),
];
if (OPERATIONS.length !== OPERATION_NAMES.length) throw new Error('internal: the operation table and the fee parameter table differ in length');

export { OPERATION_NAMES };

const operationVariant = staticVariant('operation', OPERATIONS);

/** protocol/base.hpp:88-121: generic_operation_result, generic_exchange_operation_result, extendable_operation_result */
const operationResult = staticVariant('operation_result', [
  emptyStruct('void_result'),
  objectIdType,
  asset,
  struct('generic_operation_result', [
    ['new_objects', flatSet(objectIdType)],
    ['updated_objects', flatSet(objectIdType)],
    ['removed_objects', flatSet(objectIdType)],
  ]),
  struct('generic_exchange_operation_result', [
    ['paid', vector(asset)],
    ['received', vector(asset)],
    ['fees', vector(asset)],
  ]),
  extension('extendable_operation_result', [
    ['impacted_accounts', flatSet(accountId)],
    ['new_objects', flatSet(objectIdType)],
    ['updated_objects', flatSet(objectIdType)],
    ['removed_objects', flatSet(objectIdType)],
    ['paid', vector(asset)],
    ['received', vector(asset)],
    ['fees', vector(asset)],
  ]),
]);

// ---------------------------------------------------------------------------------------------
// Transactions and blocks (protocol/transaction.hpp:307-311, protocol/block.hpp:75-77)

const transactionFields = [
  ['ref_block_num', uint16],
  ['ref_block_prefix', uint32],
  ['expiration', timePointSec],
  ['operations', vector(operation)],
  ['extensions', futureExtensions],
] as const;
const signedTransactionFields = [...transactionFields, ['signatures', vector(signature)]] as const;

const transaction = struct('transaction', transactionFields);
const signedTransaction = struct('signed_transaction', signedTransactionFields);
const processedTransaction = struct('processed_transaction', [...signedTransactionFields, ['operation_results', vector(operationResult)]]);

const blockHeaderFields = [
  ['previous', ripemd160],
  ['timestamp', timePointSec],
  ['witness', witnessId],
  ['transaction_merkle_root', ripemd160],
  ['extensions', futureExtensions],
] as const;
const blockHeader = struct('block_header', blockHeaderFields);
const signedBlockHeader = struct('signed_block_header', [...blockHeaderFields, ['witness_signature', signature]]);

function packWith(t: Type, v: unknown): Uint8Array {
  const w = new Writer();
  t.pack(w, v, t.name);
  return w.finish();
}

/** One operation, `[code, {fields}]`. */
export function packOperation(op: unknown): Uint8Array {
  return packWith(operation, op);
}

/**
 * An operation as Core holds it after from_variant, written back as JSON: `[code, {members}]` with
 * every member (defaults where the JSON had none), unknown ones dropped, optionals unset left out.
 * Throws an Error naming the path of a member it cannot read.
 */
export function canonicalOperation(op: unknown): [number, Record<string, unknown>] {
  return operation.json(op, 'operation') as [number, Record<string, unknown>];
}

const sizeOf = (t: Type, v: unknown, path: string): number => {
  const w = new Writer(64);
  t.pack(w, v, path);
  return w.length;
};
const optionalMemo = optional(memoData);

/** fc::raw::pack_size of the parts of operations that fee rules price by size (fees.ts). */
export const packSize = {
  /** an optional<memo_data>: its flag byte, plus the memo when set */
  optionalMemo: (memo: unknown): number => sizeOf(optionalMemo, memo, 'memo'),
  /** a vector<restriction> */
  restrictions: (v: unknown): number => sizeOf(restrictions, v, 'restrictions'),
  authority: (v: unknown): number => sizeOf(authority, v, 'authority'),
};

/** The transaction without signatures: what its id and signatures are hashes of. */
export function packTransaction(trx: unknown): Uint8Array {
  return packWith(transaction, trx);
}

/** signed_transaction: the transaction followed by its signatures (`get_transaction_hex`). */
export function packSignedTransaction(trx: unknown): Uint8Array {
  return packWith(signedTransaction, trx);
}

/** processed_transaction: a signed transaction plus `operation_results`, as blocks hold them. */
export function packProcessedTransaction(trx: unknown): Uint8Array {
  return packWith(processedTransaction, trx);
}

/**
 * transaction::id(): the first 20 bytes of sha256(pack(transaction)), signatures excluded
 * (protocol/transaction.cpp: digest() then memcpy into the ripemd160-sized id). Lower-case hex.
 */
export function transactionId(trx: unknown): string {
  return toHex(sha256(packTransaction(trx)).subarray(0, 20));
}

/** transaction::sig_digest(chain_id): sha256(chain_id ‖ pack(transaction)), the 32 bytes each key signs. */
export function signingDigest(chainIdHex: string, trx: unknown): Uint8Array {
  return sha256(hexBytes(chainIdHex, 'chain_id', 32), packTransaction(trx));
}

/** signingDigest and transactionId of one transaction, packed once for both. */
export function signingDigestAndId(chainIdHex: string, trx: unknown): { digest: Uint8Array; id: string } {
  const packed = packTransaction(trx);
  return { digest: sha256(hexBytes(chainIdHex, 'chain_id', 32), packed), id: toHex(sha256(packed).subarray(0, 20)) };
}

export function packBlockHeader(header: unknown): Uint8Array {
  return packWith(blockHeader, header);
}

export function packSignedBlockHeader(header: unknown): Uint8Array {
  return packWith(signedBlockHeader, header);
}

/** block_header::digest(): sha256(pack(block_header)), what the witness signs (block.cpp). */
export function blockHeaderDigest(header: unknown): Uint8Array {
  return sha256(packBlockHeader(header));
}

/** block_header::num_from_id: the first 4 bytes of the id, big-endian (block.cpp, endian_reverse). */
export function numFromId(blockIdHex: string): number {
  return Buffer.from(hexBytes(blockIdHex, 'block_id', 20)).readUInt32BE(0);
}

/**
 * transaction::set_reference_block: ref_block_prefix = `_hash[1]`, the id's bytes 4..7 read as a
 * little-endian uint32 (transaction.cpp).
 */
export function refBlockPrefix(blockIdHex: string): number {
  return Buffer.from(hexBytes(blockIdHex, 'block_id', 20)).readUInt32LE(4);
}

/**
 * signed_block_header::id() (block.cpp): sha224(pack(signed_block_header)), its first 4 bytes
 * replaced by the block number big-endian, truncated to the 20 bytes of a ripemd160. The number is
 * block_num() = num_from_id(previous) + 1 unless given.
 */
export function blockId(signedHeader: unknown, blockNum?: number): string {
  const packed = packSignedBlockHeader(signedHeader);
  let num = blockNum;
  if (num === undefined) {
    const previous = isObject(signedHeader) ? signedHeader.previous : undefined;
    num = numFromId(typeof previous === 'string' ? previous : '') + 1;
  }
  if (!Number.isInteger(num) || num < 0 || num > 0xffffffff) throw new Error(`block number ${num} is not a uint32`);
  const id = Buffer.from(createHash('sha224').update(packed).digest().subarray(0, 20));
  id.writeUInt32BE(num >>> 0, 0);
  return id.toString('hex');
}

/**
 * signed_block::calculate_merkle_root (block.cpp): each transaction contributes
 * processed_transaction::merkle_digest() = sha256(pack(processed_transaction)), signatures and
 * operation_results included (transaction.cpp). Digests are hashed in pairs, sha256(left ‖ right),
 * and an odd one out is carried up unchanged, until one is left; the root is ripemd160 of that
 * 32-byte digest. No transactions give the all-zero root. Lower-case hex.
 */
export function transactionMerkleRoot(transactions: readonly unknown[]): string {
  if (transactions.length === 0) return '00'.repeat(20);
  let ids = transactions.map((trx, i) => {
    const w = new Writer();
    processedTransaction.pack(w, trx, `transactions[${i}]`);
    return sha256(w.finish());
  });
  while (ids.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < ids.length; i += 2) next.push(sha256(ids[i] as Uint8Array, ids[i + 1] as Uint8Array));
    if (ids.length % 2 === 1) next.push(ids[ids.length - 1] as Uint8Array);
    ids = next;
  }
  return toHex(createHash('ripemd160').update(ids[0] as Uint8Array).digest());
}

/** A signed transaction as Core stores and serves it (canonical numbers, ids, keys, sorted sets). */
export function canonicalSignedTransaction(trx: unknown): Record<string, unknown> {
  return signedTransaction.json(trx, 'trx') as Record<string, unknown>;
}
