// database_api's argument conversions beyond the shared ones of src/api/params.ts: each as fc's
// from_variant (or the C++ constructor it calls) converts it, with the same failures.
import { asArray, asInt64 as asInt64Checked, asObjectId, asOptionalBool, asString, asUint32, asUint64, type ParsedId } from '../../../src/api/params.js';
import { FC, RpcError, assertError, fcError } from '../../../src/errors.js';
import { addressPrefix, parseAddress, parsePublicKey } from '../../../src/chain/crypto/public-key.js';
import { canonicalSignedTransaction } from '../../../src/chain/protocol/serializer.js';

export const optU32 = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : asUint32(v));
export const asBool = (v: unknown): boolean => asOptionalBool(v) ?? false;
export const typed = (space: number, type: number) => (v: unknown): ParsedId => asObjectId(v, { space, type });
export const optTyped = (space: number, type: number) => (v: unknown): ParsedId | undefined => (v === null || v === undefined ? undefined : asObjectId(v, { space, type }));
export const ids = (v: unknown, space: number, type: number): ParsedId[] => asArray(v).map(typed(space, type));

/** `variant::as_int64`: integers, numeric strings, booleans, null (→ 0). */
export function asInt64(v: unknown): bigint {
  if (typeof v === 'string' && /^\s*-\d+\s*$/.test(v)) return BigInt.asIntN(64, BigInt(v.trim()));
  // -Infinity (what JSON.parse makes of -1e999999) is no integer: refused as fc refuses it, not a RangeError.
  if (typeof v === 'number' && !Number.isFinite(v)) return asInt64Checked(v);
  if (typeof v === 'number' && v < 0) return BigInt(Math.trunc(v));
  return BigInt.asIntN(64, asUint64(v));
}

/**
 * Longest base58 text after the prefix that is decoded as a key or address. A key is 37 bytes (33 and
 * a checksum), at most 51 base58 digits; base58 decoding takes time quadratic in the length, so a
 * 100,000-character "key" would hold a worker for seconds before failing. Longer text is refused
 * with the error Core's decoding ends in, without decoding it.
 */
const LONGEST_BASE58 = 64;
const BASE58_DIGITS = /^[1-9A-HJ-NP-Za-km-z]*$/;
/** A long argument as an error echoes it: its start, not 100,000 characters. */
const shown = (s: string, n: number): string => (s.length > n + LONGEST_BASE58 ? `${s.slice(0, n + LONGEST_BASE58)}…` : s);
const keyChecksumError = (): RpcError => new RpcError(assertError('fc::ripemd160::hash( (char*) key_data.data(), key_data.size() )._hash[0].value() == bin_key.check: '));

/** public_key_type(std::string) (protocol/types.cpp), with its checks in order. */
export function asPublicKey(v: unknown): string {
  const s = asString(v);
  const prefix = addressPrefix();
  const n = prefix.length;
  if (s.length <= n) throw new RpcError(assertError('base58str.size() > prefix_len: '));
  if (!s.startsWith(prefix)) throw new RpcError(assertError('base58str.substr( 0, prefix_len ) == prefix: ', { base58str: shown(s, n) }));
  if (s.length > n + LONGEST_BASE58) {
    // What Core's fc::from_base58 and unpack<binary_key> do with it: a character that is not a
    // base58 digit fails the decoding; otherwise the value decodes to more than 37 bytes, of which
    // unpack reads the first 37 as key and checksum, and the checksum assert fails. (Text crafted so
    // that its first 37 bytes are a key and its checksum would name that key in Core; here it is
    // refused as any other over-long text.)
    if (!BASE58_DIGITS.test(s.slice(n))) throw new RpcError(fcError(FC.parse, 'Unable to decode base58 string ${base58_str}', { base58_str: shown(s, n).slice(n) }));
    throw keyChecksumError();
  }
  try {
    parsePublicKey(s);
  } catch (err) {
    const why = (err as Error).message;
    if (why.includes('base58')) throw new RpcError(fcError(FC.parse, 'Unable to decode base58 string ${base58_str}', { base58_str: s.slice(n) }));
    if (why.includes('checksum')) throw keyChecksumError();
    // More than 37 bytes: Core's unpack reads the first 37 and the checksum assert fails, as above.
    const decoded = /decodes to (\d+) bytes/.exec(why);
    if (decoded && Number(decoded[1]) > 37) throw keyChecksumError();
    throw new RpcError(fcError(FC.outOfRange, 'public key ${key}: ${why}', { key: s, why }));
  }
  return s;
}

/** address(std::string) (protocol/address.cpp): `FC_ASSERT( is_valid( base58str ), ... )`. */
export function asAddress(v: unknown): string {
  const s = asString(v);
  const invalid = () => new RpcError(assertError('is_valid( base58str ): invalid address ${a}', { a: shown(s, addressPrefix().length) }));
  // is_valid decodes the text and wants exactly 24 bytes: longer text is no address.
  if (s.length > addressPrefix().length + LONGEST_BASE58) throw invalid();
  try {
    parseAddress(s);
  } catch {
    throw invalid();
  }
  return s;
}

/** A serializer failure (a malformed transaction) as an fc parse error that names the field. */
export function serializerError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  return new RpcError(fcError(FC.parse, '${error}', { error: (err as Error).message }));
}

/**
 * A signed_transaction as fc's from_variant leaves it: absent members at their defaults, unknown ones
 * dropped, and fc's own errors for what does not fit (a transaction that is no object, an operation
 * that is no array, an amount lexical_cast refuses), as broadcast_transaction reads it too.
 */
export function asTransaction(v: unknown): Record<string, unknown> {
  try {
    return canonicalSignedTransaction(v);
  } catch (err) {
    throw serializerError(err);
  }
}
