// The serializer's scalar types (serializer.ts): one packer per fc or Graphene type that holds no other
// (integers, bool, string, bytes, hashes, time_point_sec, object ids, keys, addresses, vote ids), and
// the helpers they read JSON values with. Each packs its fc JSON value, gives back the value as Core
// writes it, and names its default; a value its own parser refuses is an fc parse error naming where.
import { createHash } from 'node:crypto';
import { fcTime, i64, parseFcTime, u64 } from '../../fc/fc-json.js';
import { FC, RpcError, fcError } from '../../../errors.js';
import { asBool, asInt64, asString, asUint64 } from '../../fc/fc-variant.js';
import { formatAddress, formatPublicKey, nullPublicKey, parseAddress, parsePublicKey, publicKeyAddress } from '../../crypto/public-key.js';
import { readObjectId } from '../../fc/object-id.js';
import { ByteWriter } from './byte-writer.js';

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

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A member of an integer type: `as_int64()` for the signed ones, `static_cast<uintN_t>(as_uint64())`
 * for the unsigned ones (fc variant.cpp), wrapping as those casts do.
 */
function integerOf(v: unknown, bits: number, signed: boolean): bigint {
  return signed ? BigInt.asIntN(bits, asInt64(v)) : BigInt.asUintN(bits, asUint64(v));
}

export function hexBytes(v: unknown, path: string, size?: number): Uint8Array {
  if (typeof v !== 'string' || v.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(v)) {
    fail(path, `expected a hex string, got ${describe(v)}`);
  }
  const data = Uint8Array.from(Buffer.from(v, 'hex'));
  if (size !== undefined && data.length !== size) fail(path, `expected ${size} bytes (${size * 2} hex digits), got ${data.length}`);
  return data;
}

export function toHex(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString('hex');
}

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

// ---------------------------------------------------------------------------------------------
// Types

/** What flat_set/flat_map sort by: a number, or bytes compared as memcmp does. */
export type SortKey = bigint | Uint8Array;

export interface Type {
  readonly name: string;
  pack(w: ByteWriter, v: unknown, path: string): void;
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

export function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  throw new Error('internal: mixed sort keys');
}

function integer(name: string, bits: number, signed: boolean, write: (w: ByteWriter, n: bigint) => void): Type {
  const read = (v: unknown): bigint => integerOf(v, bits, signed);
  return {
    name,
    pack: (w, v) => write(w, read(v)),
    json: (v) => (signed ? i64 : u64)(read(v)),
    sortKey: read,
    zero: 0,
  };
}

export const uint8 = integer('uint8', 8, false, (w, n) => w.uint8(Number(n)));
export const uint16 = integer('uint16', 16, false, (w, n) => w.uint16(Number(n)));
export const uint32 = integer('uint32', 32, false, (w, n) => w.uint32(Number(n)));
export const uint64 = integer('uint64', 64, false, (w, n) => w.uint64(n));
/** share_type is safe<int64_t>, read with as<int64_t> (fc variant.hpp) and packed as its int64 (types.hpp). */
export const int64 = integer('int64', 64, true, (w, n) => w.int64(n));
/** fc::unsigned_int: a uint64 `value` packed as a varint (varint.hpp, raw.hpp); read with as_uint64 (varint.cpp). */
export const unsignedInt = integer('unsigned_int', 64, false, (w, n) => w.varint(n));

export const bool: Type = {
  name: 'bool',
  pack: (w, v) => w.bool(asBool(v)),
  json: (v) => asBool(v),
  sortKey: (v) => (asBool(v) ? 1n : 0n),
  zero: false,
};

export const string: Type = {
  name: 'string',
  pack: (w, v) => w.string(asString(v)),
  json: (v) => asString(v),
  // std::string's operator< compares the bytes as unsigned chars, as memcmp does.
  sortKey: (v) => new TextEncoder().encode(asString(v)),
  zero: '',
};

/** vector<char>, written in JSON as hex (fc variant.cpp). */
export const bytes: Type = {
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
export const ripemd160 = fixedBytes('ripemd160', 20);
export const signature = fixedBytes('signature', 65);
export const sha1 = fixedBytes('sha1', 20);
export const sha256Hash = fixedBytes('sha256', 32);
export const hash160 = fixedBytes('hash160', 20);
/** fc::ecc::commitment_type, an fc::array<char,33>: raw, hex in JSON (fc array.hpp). */
export const commitment = fixedBytes('commitment', 33);

/** time_point_sec: uint32 seconds since the epoch; JSON "YYYY-MM-DDTHH:MM:SS" UTC (fc time.cpp). */
export const timePointSec: Type = {
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
export const accountId = typedId(1, 2, 'account');
export const assetId = typedId(1, 3, 'asset');
export const forceSettlementId = typedId(1, 4, 'force_settlement');
export const committeeMemberId = typedId(1, 5, 'committee_member');
export const witnessId = typedId(1, 6, 'witness');
export const limitOrderId = typedId(1, 7, 'limit_order');
export const callOrderId = typedId(1, 8, 'call_order');
export const customId = typedId(1, 9, 'custom');
export const proposalId = typedId(1, 10, 'proposal');
export const withdrawPermissionId = typedId(1, 12, 'withdraw_permission');
export const vestingBalanceId = typedId(1, 13, 'vesting_balance');
export const workerId = typedId(1, 14, 'worker');
export const balanceId = typedId(1, 15, 'balance');
export const htlcId = typedId(1, 16, 'htlc');
export const customAuthorityId = typedId(1, 17, 'custom_authority');
export const ticketId = typedId(1, 18, 'ticket');
export const liquidityPoolId = typedId(1, 19, 'liquidity_pool');
export const sametFundId = typedId(1, 20, 'samet_fund');
export const creditOfferId = typedId(1, 21, 'credit_offer');
export const creditDealId = typedId(1, 22, 'credit_deal');

/**
 * The untyped object_id_type: FC_REFLECT( object_id_type, (number) ), a uint64 of
 * space << 56 | type << 48 | instance (object_id.hpp). Used by operation results.
 */
function objectIdNumber(v: unknown, path: string): bigint {
  const id = parseObjectId(v, path);
  return (id.space << 56n) | (id.type << 48n) | id.instance;
}
export const objectIdType: Type = {
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
export const publicKey: Type = {
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
export const address: Type = {
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
export const voteId: Type = {
  name: 'vote_id',
  pack: (w, v, path) => w.uint32(Number(voteIdContent(v, path))),
  json(v, path) {
    const c = voteIdContent(v, path);
    return `${c & 0xffn}:${c >> 8n}`;
  },
  sortKey: voteIdContent,
  zero: '0:0',
};
