// Time exactly as bitshares-fc writes and reads it (`time_point_sec`, reference §5.4): the one place
// for this format, used by the error table (the log context's timestamp) and, through
// src/chain/fc/fc-json.ts, by every object the chain writer builds and every argument the API reads.
// A leaf: it imports nothing, so the error table and the wire protocol may use it without reaching
// into the chain.

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
