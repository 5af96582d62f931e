// bitshares-fc's variant conversions as `from_variant` performs them on a request's structs, with the
// exceptions fc throws, word for word (src/variant.cpp, src/string.cpp, include/fc/variant.hpp): the
// serializer reads every member through these, so a value that does not fit its type gets Core's
// error whichever call carried it (get_transaction_hex, broadcast_transaction, get_required_fees…).
//
// fc does not range-check: `as_int64` of a uint64 variant and `static_cast<uint16_t>(as_uint64())`
// wrap, and so do these. The one place where this node cannot tell what fc saw: a bare literal
// beyond 2^53 reaches here as its decimal string (protocol/jsonrpc.ts keeps its digits that way),
// and fc reads a literal in (INT64_MAX, UINT64_MAX] as a uint64 variant that `as_int64` wraps. So a
// decimal string in that range wraps too, where fc's `to_int64` would refuse a quoted one (README,
// "Where BitShares Core is followed, and where not").

import { FC, RpcError, fcError, type WireError } from '../../errors.js';

/** fc's `variant::type_id` names (FC_REFLECT_ENUM in variant.hpp), as its bad-cast messages print them. */
export function variantTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null_type';
  if (Array.isArray(v)) return 'array_type';
  if (typeof v === 'object') return 'object_type';
  if (typeof v === 'string') return 'string_type';
  if (typeof v === 'boolean') return 'bool_type';
  if (typeof v === 'bigint') return v < 0n ? 'int64_type' : 'uint64_type';
  if (typeof v === 'number' && !Number.isInteger(v)) return 'double_type';
  if (typeof v === 'number' && v < 0) return 'int64_type';
  return 'uint64_type';
}

/** FC_CAPTURE_AND_RETHROW( (x) ): a warn entry with an empty format (so not in the message) and the value. */
function captured(e: WireError, data: Record<string, unknown>, method: string): WireError {
  const stack = e.data!.stack;
  stack.push({ context: { ...stack[0]!.context, level: 'warn', method }, format: '', data });
  return e;
}

/** `variant::get_array()`: "Invalid cast from ${type} to Array" (the non-const and const texts agree). */
export const notArray = (v: unknown): RpcError => new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to Array', { type: variantTypeName(v) }, { file: 'variant.cpp', method: 'get_array' }));

/** `variant::get_object() const`, what a reflected struct's from_variant calls: note fc's "type '…'" wording. */
export const notObject = (v: unknown): RpcError =>
  new RpcError(fcError(FC.badCast, "Invalid cast from type '${type}' to Object", { type: variantTypeName(v) }, { file: 'variant.cpp', method: 'get_object' }));

/** A JSON value as fc prints it in a log's data: JSON types unchanged, a bigint as its digits. */
const logValue = (v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v === undefined ? null : v);

/**
 * `to_int64` (string.cpp): boost::lexical_cast refused the text. Its FC_RETHROW_EXCEPTIONS sits on
 * the same try as the catch that throws, so it adds nothing: one entry.
 */
const int64ParseError = (): RpcError => new RpcError(fcError(FC.parse, "Couldn't parse int64_t", {}, { file: 'string.cpp', method: 'to_int64' }));

/** `to_uint64` (string.cpp) and then `as_uint64`, each wrapped in FC_CAPTURE_AND_RETHROW. */
const uint64ParseError = (text: string, v: unknown): RpcError => {
  const e = fcError(FC.parse, "Couldn't parse uint64_t", {}, { file: 'string.cpp', method: 'to_uint64' });
  captured(e, { i: text }, 'to_uint64');
  return new RpcError(captured(e, { '*this': logValue(v) }, 'as_uint64'));
};

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
/** boost::lexical_cast's integer syntax: an optional sign, then digits; no spaces. */
const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * The integer of a number variant: a double is truncated toward zero (`int64_t(double)`). A JS
 * number that is not a safe integer cannot be a literal fc read as an integer (those beyond 2^53
 * arrive as strings): it came from an exponent form (`1e20`), which fc's parser keeps as the string
 * "1e20", and lexical_cast refuses.
 */
function numberValue(v: number, refuse: () => RpcError): bigint {
  if (!Number.isFinite(v)) throw refuse();
  const n = Math.trunc(v);
  if (!Number.isSafeInteger(n)) throw refuse();
  return BigInt(n);
}

/** `variant::as_int64()`: integers, numeric strings, doubles (truncated), booleans, null (→ 0); wraps. */
export function asInt64(v: unknown): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return BigInt.asIntN(64, v);
  if (typeof v === 'number') return BigInt.asIntN(64, numberValue(v, int64ParseError));
  if (typeof v === 'string') {
    if (!INTEGER_TEXT.test(v)) throw int64ParseError();
    const n = BigInt(v);
    // up to UINT64_MAX: a bare uint64 literal, which as_int64 wraps (see the header)
    if (n < INT64_MIN || n > UINT64_MAX) throw int64ParseError();
    return BigInt.asIntN(64, n);
  }
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to int64', { type: variantTypeName(v) }, { file: 'variant.cpp', method: 'as_int64' }));
}

/** `variant::as_uint64()`: as as_int64; negatives wrap (static_cast, and lexical_cast<uint64_t>("-1")). */
export function asUint64(v: unknown): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return BigInt.asUintN(64, v);
  if (typeof v === 'number') return BigInt.asUintN(64, numberValue(v, () => uint64ParseError(String(v), v)));
  if (typeof v === 'string') {
    if (!INTEGER_TEXT.test(v)) throw uint64ParseError(v, v);
    const n = BigInt(v);
    if (n < -UINT64_MAX || n > UINT64_MAX) throw uint64ParseError(v, v);
    return BigInt.asUintN(64, n);
  }
  const e = fcError(FC.badCast, 'Invalid cast from ${type} to uint64', { type: variantTypeName(v) }, { file: 'variant.cpp', method: 'as_uint64' });
  throw new RpcError(captured(e, { '*this': logValue(v) }, 'as_uint64'));
}

/**
 * `variant::as_bool()`: booleans, numbers (non-zero is true), "true"/"false", null (false). A decimal
 * string of more than 2^53 is a bare literal jsonrpc.ts kept as text: a number to fc.
 */
export function asBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === null || v === undefined) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (v === 'true' || v === 'false') return v === 'true';
  if (typeof v === 'string' && /^-?\d+$/.test(v) && !Number.isSafeInteger(Number(v))) return BigInt(v) !== 0n;
  if (typeof v === 'string') throw new RpcError(fcError(FC.badCast, 'Cannot convert string to bool (only "true" or "false" can be converted)', {}, { file: 'variant.cpp', method: 'as_bool' }));
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to bool', { type: variantTypeName(v) }, { file: 'variant.cpp', method: 'as_bool' }));
}

/** `variant::as_string()`: numbers and booleans become their text, null ""; arrays and objects a bad cast. */
export function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to string', { type: variantTypeName(v) }, { file: 'variant.cpp', method: 'as_string' }));
}
