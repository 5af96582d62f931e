// Argument conversions with bitshares-fc's leniency (reference §5.4): numbers may come as numeric
// strings, null converts to 0 or "", object ids must be strings in "space.type.instance" form.
// Each failure throws an RpcError shaped like the fc exception Core would raise.

import { ASSERT, FC, RpcError, assertError, fcError } from '../errors.js';
import { parseFcTime } from '../chain/fc/fc-json.js';
import { MAX_INSTANCE, MAX_SPACE_OR_TYPE, fcToUint64, type ObjectIdParts } from '../chain/fc/object-id.js';

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

const badCast = (v: unknown, to: string): RpcError => new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to ${to}', { type: typeName(v), to }));
const parseFail = (what: string): RpcError => new RpcError(fcError(FC.parse, "Couldn't parse ${what}", { what }));

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * The exact integer of a number, numeric string, boolean or null, before a cast to 64 bits. Integers
 * beyond 2^53 reach here as decimal strings (jsonrpc.ts parses them losslessly), so every digit counts.
 */
function integerOf(v: unknown, type: 'uint64_t' | 'int64_t', min: bigint, max: bigint): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw parseFail(type);
    return BigInt(Math.trunc(v));
  }
  if (typeof v === 'string') {
    const t = v.trim();
    // boost::lexical_cast refuses what does not fit the target type.
    if (!/^-?\d+$/.test(t)) throw parseFail(type);
    const n = BigInt(t);
    if (n < min || n > max) throw parseFail(type);
    return n;
  }
  throw badCast(v, type === 'uint64_t' ? 'uint64' : 'int64');
}

/** `variant::as_uint64`: non-negative integers, numeric strings, booleans, null (→ 0). */
export const asUint64 = (v: unknown): bigint => BigInt.asUintN(64, integerOf(v, 'uint64_t', -UINT64_MAX, UINT64_MAX));

/**
 * `variant::as_int64`: as asUint64, read as a signed 64-bit value. A literal above INT64_MAX is a
 * uint64 variant in fc and wraps by static_cast; it reaches here as a string, so strings wrap too.
 */
export const asInt64 = (v: unknown): bigint => BigInt.asIntN(64, integerOf(v, 'int64_t', INT64_MIN, UINT64_MAX));

/** A uint32 parameter: `static_cast<uint32_t>(as_uint64())`, truncated as fc does. */
export const asUint32 = (v: unknown): number => Number(BigInt.asUintN(32, asUint64(v)));

/** `variant::as_string`: numbers and booleans become text, null becomes "". */
export function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badCast(v, 'string');
}

export function asArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === null || v === undefined) return [];
  throw new RpcError(assertError(ASSERT.EXPECTED_ARRAY, { type: typeName(v) }));
}

/** An optional<bool>: undefined when missing or null. */
export function asOptionalBool(v: unknown): boolean | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badCast(v, 'bool');
}

// ---- hex and byte-array arguments (crypto_api), with fc's own conversions and error texts ----

/** fc's variant type names (`variant::type_id`), as its bad-cast messages print them. */
export function variantType(v: unknown): string {
  if (v === null || v === undefined) return 'null_type';
  if (Array.isArray(v)) return 'array_type';
  if (typeof v === 'object') return 'object_type';
  if (typeof v === 'string') return 'string_type';
  if (typeof v === 'boolean') return 'bool_type';
  if (typeof v === 'number' && !Number.isInteger(v)) return 'double_type';
  if (typeof v === 'number' && v < 0) return 'int64_type';
  return 'uint64_type';
}

/**
 * `variant::get_array()` as `from_variant(variant, std::vector<T>)` calls it: anything but an array,
 * null included, is a bad cast (fc src/variant.cpp).
 */
export function asVariantArray(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to Array', { type: variantType(v) }));
}

/** `variant::as_string()`: numbers and booleans become their text, null "", arrays and objects a bad cast. */
function variantString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to string', { type: variantType(v) }));
}

const HEX_DIGIT: Record<string, number> = Object.fromEntries([...'0123456789abcdef'].map((c, i) => [c, i]).concat([...'ABCDEF'].map((c, i) => [c, i + 10])));

/**
 * fc's `from_hex(str, out, len)` (src/crypto/hex.cpp): fills `len` bytes from the first `2 * len`
 * characters and looks at nothing after them; a character that is not a hex digit, upper or lower
 * case, fails with fc's plain exception (code 0).
 */
function fromHex(text: string, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) {
    const hi = HEX_DIGIT[text[2 * i]!];
    if (hi === undefined) throw invalidHex(text[2 * i]!);
    const lo = HEX_DIGIT[text[2 * i + 1]!];
    if (lo === undefined) throw invalidHex(text[2 * i + 1]!);
    out[i] = (hi << 4) | lo;
  }
  return out;
}
const invalidHex = (c: string): RpcError => new RpcError(fcError(FC.unspecified, "Invalid hex character '${c}'", { c }));

/**
 * `std::vector<char>` (a range proof): `as_string()`, then `length / 2` bytes of hex. An odd last
 * character is never read; there is no other length rule.
 */
export function asHexVector(v: unknown): Uint8Array {
  const text = variantString(v);
  return fromHex(text, text.length >> 1);
}

/**
 * `fc::sha256` (a blinding factor or nonce): read as a `std::vector<char>`, then its first 32 bytes,
 * zero-padded when shorter. fc has no length check: a short or long string is not an error.
 */
export function asSha256(v: unknown): Uint8Array {
  const bytes = asHexVector(v);
  const out = new Uint8Array(32);
  out.set(bytes.subarray(0, 32));
  return out;
}

/**
 * `std::array<unsigned char, N>` (a 33-byte commitment): `min(length / 2, N)` bytes of hex over
 * zeros; characters past the first `2 * N` are not looked at, so a long string is cut, not refused.
 */
export function asByteArray(v: unknown, n: number): Uint8Array {
  const text = variantString(v);
  const out = new Uint8Array(n);
  out.set(fromHex(text, Math.min(text.length >> 1, n)));
  return out;
}

export type ParsedId = ObjectIdParts;

/**
 * An object id from a string, as BitShares Core 7.0's from_variant reads it (protocol/object_id.hpp):
 * `object_id_type` without `expect`, `object_id<SpaceID, TypeID>` with it. Each part is read with
 * fc::to_uint64 (lexical_cast: a sign is accepted and a minus wraps, so "1.11.-1" has the instance
 * 2^64-1, which the 48-bit check then refuses). The checks and their texts are Core's, in its order.
 */
export function asObjectId(v: unknown, expect?: { space: number; type: number }): ParsedId {
  if (typeof v !== 'string') throw badCast(v, 'string');
  const first = v.indexOf('.');
  if (first < 0) throw new RpcError(assertError(ASSERT.ID_FIRST_DOT));
  if (first === 0) throw new RpcError(assertError(ASSERT.ID_SPACE_PART));
  const second = v.indexOf('.', first + 1);
  if (second < 0) throw new RpcError(assertError(ASSERT.ID_SECOND_DOT));
  if (second === first + 1) throw new RpcError(assertError(ASSERT.ID_TYPE_PART));
  const part = (from: number, to?: number): bigint => {
    const n = fcToUint64(v.slice(from, to));
    if (n === undefined) throw parseFail('uint64_t');
    return n;
  };
  let space: bigint;
  let type: bigint;
  if (expect) {
    // `to_uint64(space) == SpaceID && to_uint64(type) == TypeID`: the type is not read when the space differs
    space = part(0, first);
    if (space !== BigInt(expect.space) || (type = part(first + 1, second)) !== BigInt(expect.type)) {
      throw new RpcError(assertError(ASSERT.ID_TYPE_MISMATCH, { TypeID: expect.type, SpaceID: expect.space, var: v }));
    }
  } else {
    space = part(0, first);
    if (space > BigInt(MAX_SPACE_OR_TYPE)) throw new RpcError(assertError(ASSERT.ID_SPACE_OVERFLOW));
    type = part(first + 1, second);
    if (type > BigInt(MAX_SPACE_OR_TYPE)) throw new RpcError(assertError(ASSERT.ID_TYPE_OVERFLOW));
  }
  const instance = part(second + 1);
  if (instance > BigInt(MAX_INSTANCE)) {
    // fc prints a uint64 above 2^32 in quotes (json::stringify_large_ints_and_doubles)
    throw new RpcError(assertError(expect ? ASSERT.ID_INSTANCE_OVERFLOW : ASSERT.ID_INSTANCE_OVERFLOW_UNTYPED, { instance: instance.toString() }));
  }
  return { space: Number(space), type: Number(type), instance: Number(instance) };
}

/**
 * `time_point_sec` from its ISO text, in seconds: `as_string()` first (so a number or null fails
 * too), then fc's `from_iso_string`. A failure carries the text of that function's
 * FC_RETHROW_EXCEPTIONS (fc src/time.cpp); Core reports it as std_exception (13), naming the boost
 * exception in `what`, where this node reports a parse error (4) naming the text.
 */
export function asTime(v: unknown): number {
  const text = asString(v);
  const seconds = parseFcTime(text);
  if (Number.isNaN(seconds)) {
    throw new RpcError(fcError(FC.parse, '${what}: unable to convert ISO-formatted string to fc::time_point_sec', { what: `not a time: '${text}'` }));
  }
  return seconds;
}
