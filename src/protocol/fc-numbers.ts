// Integers exactly as bitshares-fc writes them in JSON (`json::stringify_large_ints_and_doubles`,
// reference §5.4): the one place for this rule, used by the envelope (request ids) and, through
// src/chain/fc/fc-json.ts, by every object the chain writer builds. A leaf: it imports nothing.

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const UINT32_MAX = 4294967295;

/** A signed 64-bit value (share_type, int64): a JSON number inside the int32 range, else a string. */
export function i64(v: number | bigint): number | string {
  if (typeof v === 'bigint') return v >= BigInt(INT32_MIN) && v <= BigInt(INT32_MAX) ? Number(v) : v.toString();
  return v >= INT32_MIN && v <= INT32_MAX ? v : BigInt(v).toString();
}

/** An unsigned value (uint8…uint64): a JSON number up to 2^32-1, else a string. */
export function u64(v: number | bigint): number | string {
  if (typeof v === 'bigint') return v <= BigInt(UINT32_MAX) ? Number(v) : v.toString();
  return v <= UINT32_MAX ? v : BigInt(v).toString();
}

/** A request id or any other number coming from a client, echoed as fc's legacy parser would type it. */
export function echoNumber(n: number): number | string {
  if (!Number.isInteger(n)) return String(n);
  return n < 0 ? i64(n) : u64(n);
}
