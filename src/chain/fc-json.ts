// Number and time formats exactly as bitshares-fc writes them in RPC replies
// (`json::stringify_large_ints_and_doubles`, reference §5.4). Applied per value when an object is
// built, so stored objects are already in their served form.

// The integer rules live with the wire protocol, which needs them for request ids too.
export { echoNumber, i64, u64 } from '../protocol/fc-numbers.js';

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

/** The all-zero public key, as fc prints `public_key_type()` with the BTS prefix (public-key.ts' nullPublicKey gives the chain's). */
export const NULL_PUBLIC_KEY = 'BTS1111111111111111111111111111111114T1Anm';
