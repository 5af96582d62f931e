// Number and time formats exactly as bitshares-fc writes them in RPC replies
// (`json::stringify_large_ints_and_doubles`, reference §5.4). Applied per value when an object is
// built, so stored objects are already in their served form.

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

/** `time_point_sec` → `YYYY-MM-DDTHH:MM:SS` (UTC, no zone, no fraction). */
export function fcTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** Parses fc's time format (and the undelimited `YYYYMMDDTHHMMSS`); returns seconds or NaN. */
export function parseFcTime(text: string): number {
  let t = text.trim();
  const undelimited = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(t);
  if (undelimited) t = `${undelimited[1]}-${undelimited[2]}-${undelimited[3]}T${undelimited[4]}:${undelimited[5]}:${undelimited[6]}`;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/.test(t)) return NaN;
  const ms = Date.parse(t.endsWith('Z') ? t : `${t}Z`);
  if (Number.isNaN(ms)) return NaN;
  // Date.parse rolls 2026-02-30 over to March; fc refuses dates that do not exist.
  if (new Date(ms).toISOString().slice(0, 19) !== t.slice(0, 19)) return NaN;
  return Math.floor(ms / 1000);
}

/** `time_point_sec::maximum()`, the membership expiry of lifetime members. */
export const TIME_MAX = fcTime(0xffffffff);
export const TIME_EPOCH = fcTime(0);

/** The all-zero public key, as fc prints `public_key_type()` with the BTS prefix. */
export const NULL_PUBLIC_KEY = 'BTS1111111111111111111111111111111114T1Anm';
