// chain/fc/fc-json.ts: fc's number and time formats for RPC output (reference §5.4).
import test from 'ava';
import { TIME_EPOCH, TIME_MAX, echoNumber, fcTime, i64, parseFcTime, u64 } from '../src/chain/fc/fc-json.js';

test('i64: a number inside the int32 range stays a number, outside it becomes a decimal string', (t) => {
  t.is(i64(0), 0);
  t.is(i64(2147483647), 2147483647);
  t.is(i64(2147483648), '2147483648');
  t.is(i64(-2147483648), -2147483648);
  t.is(i64(-2147483649), '-2147483649');
  t.is(i64(5000000000), '5000000000');
  t.is(i64(-5000000000), '-5000000000');
});

test('i64: bigint inputs follow the same thresholds and keep every digit', (t) => {
  t.is(i64(2147483647n), 2147483647);
  t.is(i64(2147483648n), '2147483648');
  t.is(i64(-2147483648n), -2147483648);
  t.is(i64(-2147483649n), '-2147483649');
  t.is(i64(9223372036854775807n), '9223372036854775807');
  t.is(i64(-9223372036854775808n), '-9223372036854775808');
  t.is(i64(9007199254740993n), '9007199254740993');
});

test('u64: up to 4294967295 a number, above it a decimal string', (t) => {
  t.is(u64(0), 0);
  t.is(u64(2147483648), 2147483648);
  t.is(u64(4294967295), 4294967295);
  t.is(u64(4294967296), '4294967296');
  t.is(u64(4294967295n), 4294967295);
  t.is(u64(4294967296n), '4294967296');
  t.is(u64(18446744073709551615n), '18446744073709551615');
});

test('the signed and unsigned thresholds differ: 2^31 is a string as int64, a number as uint64', (t) => {
  t.is(typeof i64(2 ** 31), 'string');
  t.is(typeof u64(2 ** 31), 'number');
});

test('the results are what JSON.stringify puts on the wire', (t) => {
  t.is(JSON.stringify({ a: i64(2147483648), b: u64(4294967295), c: i64(-1) }), '{"a":"2147483648","b":4294967295,"c":-1}');
});

test('echoNumber: integers follow the signed rule below zero and the unsigned rule from zero, fractions are strings', (t) => {
  t.is(echoNumber(4294967295), 4294967295);
  t.is(echoNumber(4294967296), '4294967296');
  t.is(echoNumber(-2147483648), -2147483648);
  t.is(echoNumber(-2147483649), '-2147483649');
  t.is(typeof echoNumber(0.5), 'string');
});

test('fcTime writes YYYY-MM-DDTHH:MM:SS in UTC with no zone and no fraction', (t) => {
  t.is(fcTime(0), '1970-01-01T00:00:00');
  t.is(fcTime(1767225600), '2026-01-01T00:00:00');
  t.is(fcTime(1704067199), '2023-12-31T23:59:59');
  t.regex(fcTime(1767225600.9), /^2026-01-01T00:00:00$/);
});

test('TIME_MAX is time_point_sec::maximum(): 2106-02-07T06:28:15', (t) => {
  t.is(TIME_MAX, '2106-02-07T06:28:15');
  t.is(fcTime(0xffffffff), '2106-02-07T06:28:15');
  t.is(TIME_EPOCH, '1970-01-01T00:00:00');
});

test('parseFcTime reads the delimited form back to seconds', (t) => {
  t.is(parseFcTime('2026-01-01T00:00:00'), 1767225600);
  t.is(parseFcTime('1970-01-01T00:00:00'), 0);
  t.is(parseFcTime(TIME_MAX), 0xffffffff);
  for (const s of [0, 1, 1704067199, 1767225600]) t.is(parseFcTime(fcTime(s)), s);
});

test('parseFcTime reads the undelimited ISO form YYYYMMDDTHHMMSS', (t) => {
  t.is(parseFcTime('20260101T000000'), 1767225600);
  t.is(parseFcTime('21060207T062815'), 0xffffffff);
  t.is(parseFcTime('20231231T235959'), 1704067199);
});

test('parseFcTime reads the time as UTC whatever the local zone', (t) => {
  t.is(parseFcTime('2026-06-01T12:00:00'), Date.UTC(2026, 5, 1, 12) / 1000);
});

test('parseFcTime returns NaN for text that is not a time', (t) => {
  for (const s of ['', 'abc', '2026-01-01', '2026-01-01 00:00:00', '2026/01/01T00:00:00', '2026-13-01T00:00:00', '20260101000000', '1767225600']) {
    t.true(Number.isNaN(parseFcTime(s)), JSON.stringify(s));
  }
});

test('parseFcTime returns NaN for calendar dates that do not exist, as boost from_iso_extended_string refuses them', (t) => {
  for (const s of ['2026-02-30T00:00:00', '2026-04-31T00:00:00', '20260230T000000', '2026-01-01T24:00:01', '2026-01-01T00:60:00']) {
    t.true(Number.isNaN(parseFcTime(s)), s);
  }
});
