// api/params.ts: fc's lenient argument conversions and the fc exceptions for bad input (reference §5.1, §5.4).
import test, { type ExecutionContext } from 'ava';
import { asArray, asByteArray, asHexVector, asInt64, asObjectId, asOptionalBool, asSha256, asString, asTime, asUint32, asUint64, asVariantArray } from '../src/api/params.js';
import { parseInbound } from '../src/protocol/jsonrpc.js';
import { RpcError } from '../src/errors.js';

/** Runs fn and returns the wire error it throws. */
const fails = (t: ExecutionContext, fn: () => unknown, code: number, message: string, label = message): RpcError | undefined => {
  const err = t.throws(fn, { instanceOf: RpcError }, label);
  if (!err) return undefined;
  const wire = (err as RpcError).wire;
  t.is(wire.code, code, label);
  t.is(wire.message, message, label);
  t.is(wire.data?.code, code, label);
  return err as RpcError;
};

test('asUint64 accepts numbers, numeric strings, booleans and null (→ 0)', (t) => {
  t.is(asUint64(0), 0n);
  t.is(asUint64(100), 100n);
  t.is(asUint64(4294967296), 4294967296n);
  t.is(asUint64('42'), 42n);
  t.is(asUint64('18446744073709551615'), 18446744073709551615n);
  t.is(asUint64(true), 1n);
  t.is(asUint64(false), 0n);
  t.is(asUint64(null), 0n);
  t.is(asUint64(undefined), 0n);
});

test('asUint64 casts negative and fractional numbers as C++ static_cast does', (t) => {
  t.is(asUint64(-1), 18446744073709551615n);
  t.is(asUint64('-1'), 18446744073709551615n);
  t.is(asUint64(1.9), 1n);
});

test('asUint64 refuses a non-numeric string with parse_error "Couldn\'t parse uint64_t"', (t) => {
  for (const v of ['abc', '', '1.2.0', '12abc']) {
    fails(t, () => asUint64(v), 4, "Execution error: Parse Error: Couldn't parse uint64_t", JSON.stringify(v));
  }
});

test('asUint64 refuses objects and arrays with bad_cast', (t) => {
  const err = t.throws(() => asUint64({}), { instanceOf: RpcError }) as RpcError;
  t.is(err.wire.code, 7);
  t.is(err.wire.data!.name, 'bad_cast_exception');
  t.regex(err.wire.message, /^Execution error: Bad Cast: Invalid cast from object\S* to uint64/);
  const arr = t.throws(() => asUint64([1]), { instanceOf: RpcError }) as RpcError;
  t.is(arr.wire.code, 7);
  t.regex(arr.wire.message, /Invalid cast from array\S* to uint64/);
});

test('a uint64 or int64 argument beyond 2^53 is read exactly, sent as a bare JSON number or as a string', (t) => {
  const r = parseInbound('{"id":1,"method":"x","params":[8394872615091287364,"8394872615091287364",-9223372036854775807,18446744073709551615]}', 250);
  if (r.kind !== 'request') return t.fail(JSON.stringify(r));
  const [bare, quoted, negative, max] = r.request.params;
  t.is(asUint64(bare), 8394872615091287364n);
  t.is(asUint64(quoted), 8394872615091287364n);
  t.is(asInt64(negative), -9223372036854775807n);
  t.is(asUint64(max), 18446744073709551615n);
  t.is(asInt64(max), -1n, 'a uint64 read as int64 is static_cast, as fc does');
});

test('a numeric string that does not fit 64 bits is Core\'s "Couldn\'t parse" error', (t) => {
  fails(t, () => asUint64('18446744073709551616'), 4, "Execution error: Parse Error: Couldn't parse uint64_t");
  fails(t, () => asInt64('18446744073709551616'), 4, "Execution error: Parse Error: Couldn't parse int64_t");
  fails(t, () => asInt64('-9223372036854775809'), 4, "Execution error: Parse Error: Couldn't parse int64_t");
  t.is(asInt64('-9223372036854775808'), -9223372036854775808n);
});

test('asUint32 truncates to 32 bits without an overflow check, as static_cast<uint32_t>', (t) => {
  t.is(asUint32(7), 7);
  t.is(asUint32('100'), 100);
  t.is(asUint32(4294967295), 4294967295);
  t.is(asUint32(4294967296), 0);
  t.is(asUint32(4294967297), 1);
  t.is(asUint32(-1), 4294967295);
  t.is(asUint32(null), 0);
  fails(t, () => asUint32('x'), 4, "Execution error: Parse Error: Couldn't parse uint64_t");
});

test('asString turns numbers and booleans into text and null into ""', (t) => {
  t.is(asString('alice'), 'alice');
  t.is(asString(''), '');
  t.is(asString(5), '5');
  t.is(asString(true), 'true');
  t.is(asString(false), 'false');
  t.is(asString(null), '');
});

test('asString refuses objects and arrays with bad_cast', (t) => {
  for (const v of [{}, ['a']]) {
    const err = t.throws(() => asString(v), { instanceOf: RpcError }) as RpcError;
    t.is(err.wire.code, 7);
    t.true(err.wire.message.startsWith('Execution error: Bad Cast: '), err.wire.message);
  }
});

test('asArray accepts arrays and null, and refuses other values with an assert', (t) => {
  t.deepEqual(asArray([1, 2]), [1, 2]);
  t.deepEqual(asArray(null), []);
  fails(t, () => asArray('x'), 10, 'Execution error: Assert Exception: is_array(): Expected an array, got string');
});

test('asOptionalBool: missing or null is undefined; booleans, numbers and "true"/"false" convert', (t) => {
  t.is(asOptionalBool(undefined), undefined);
  t.is(asOptionalBool(null), undefined);
  t.is(asOptionalBool(true), true);
  t.is(asOptionalBool(false), false);
  t.is(asOptionalBool(1), true);
  t.is(asOptionalBool(0), false);
  t.is(asOptionalBool('true'), true);
  t.is(asOptionalBool('false'), false);
});

test('asOptionalBool refuses other strings, objects and arrays with bad_cast', (t) => {
  for (const v of ['yes', {}, []]) {
    const err = t.throws(() => asOptionalBool(v), { instanceOf: RpcError }) as RpcError;
    t.is(err.wire.code, 7, JSON.stringify(v));
    t.is(err.wire.data!.name, 'bad_cast_exception');
  }
});

test('asObjectId parses "space.type.instance"', (t) => {
  t.deepEqual(asObjectId('1.2.0'), { space: 1, type: 2, instance: 0 });
  t.deepEqual(asObjectId('2.9.123456'), { space: 2, type: 9, instance: 123456 });
  t.deepEqual(asObjectId('1.11.281474976710655'), { space: 1, type: 11, instance: 0xffffffffffff });
  t.deepEqual(asObjectId('1.2.5', { space: 1, type: 2 }), { space: 1, type: 2, instance: 5 });
});

test('asObjectId requires a real JSON string (bad_cast otherwise)', (t) => {
  for (const v of [5, null, ['1.2.0'], {}]) {
    const err = t.throws(() => asObjectId(v), { instanceOf: RpcError }) as RpcError;
    t.is(err.wire.code, 7, JSON.stringify(v));
  }
});

test('asObjectId reports missing parts with object_id.hpp asserts, in its order', (t) => {
  fails(t, () => asObjectId('alice'), 10, 'Execution error: Assert Exception: first_dot != std::string::npos: Missing the first dot');
  fails(t, () => asObjectId(''), 10, 'Execution error: Assert Exception: first_dot != std::string::npos: Missing the first dot');
  fails(t, () => asObjectId('.2.0'), 10, 'Execution error: Assert Exception: first_dot != 0: Missing the space part');
  fails(t, () => asObjectId('1.2'), 10, 'Execution error: Assert Exception: second_dot != std::string::npos: Missing the second dot');
  fails(t, () => asObjectId('1..0'), 10, 'Execution error: Assert Exception: second_dot != first_dot+1: Missing the type part');
});

test('asObjectId refuses what fc::to_uint64 cannot read with a parse error', (t) => {
  for (const v of ['1.2.x', 'a.2.0', '1.b.0', '1.2.', '1.2.--1', '1.2.3.4', '1.2.18446744073709551616']) {
    fails(t, () => asObjectId(v), 4, "Execution error: Parse Error: Couldn't parse uint64_t", v);
    fails(t, () => asObjectId(v, { space: v.startsWith('a') ? 0 : 1, type: 2 }), 4, "Execution error: Parse Error: Couldn't parse uint64_t", `${v} typed`);
  }
});

test('asObjectId reads a sign as lexical_cast does; a minus wraps past 48 bits, and Core 7.0 says instance overflow', (t) => {
  t.deepEqual(asObjectId('1.2.+5'), { space: 1, type: 2, instance: 5 });
  t.deepEqual(asObjectId('+1.+11.-0', { space: 1, type: 11 }), { space: 1, type: 11, instance: 0 });
  const typed = fails(t, () => asObjectId('1.11.-1', { space: 1, type: 11 }), 10, 'Execution error: Assert Exception: (instance.value >> instance_bits) == 0: instance overflow');
  t.deepEqual(typed?.wire.data!.stack[0]!.data, { instance: '18446744073709551615' });
  const untyped = fails(t, () => asObjectId('1.11.-1'), 10, 'Execution error: Assert Exception: i >> instance_bits == 0: instance overflow');
  t.deepEqual(untyped?.wire.data!.stack[0]!.data, { instance: '18446744073709551615' });
  fails(t, () => asObjectId('1.2.281474976710656', { space: 1, type: 2 }), 10, 'Execution error: Assert Exception: (instance.value >> instance_bits) == 0: instance overflow');
});

test('asObjectId refuses an id of another space or type, naming both, before it reads the instance', (t) => {
  const mismatch = (v: string, s: number, ty: number) =>
    `Execution error: Assert Exception: fc::to_uint64( s.substr( 0, first_dot ) ) == SpaceID && fc::to_uint64( s.substr( first_dot+1, (second_dot-first_dot)-1 ) ) == TypeID: Space.Type.0 (${s}.${ty}.0) doesn't match expected value ${v}`;
  fails(t, () => asObjectId('1.3.0', { space: 1, type: 2 }), 10, mismatch('1.3.0', 1, 2));
  fails(t, () => asObjectId('2.2.0', { space: 1, type: 2 }), 10, mismatch('2.2.0', 1, 2));
  fails(t, () => asObjectId('1.3.x', { space: 1, type: 2 }), 10, mismatch('1.3.x', 1, 2));
  // `&&`: a space that differs is enough; the type is not read
  fails(t, () => asObjectId('-1.x.0', { space: 1, type: 2 }), 10, mismatch('-1.x.0', 1, 2));
});

test('asObjectId of any type refuses a space or type beyond 8 bits, each with its own text', (t) => {
  fails(t, () => asObjectId('256.2.0'), 10, 'Execution error: Assert Exception: space_id <= graphene::db::object_id_type::one_byte_mask: space overflow');
  fails(t, () => asObjectId('-1.2.0'), 10, 'Execution error: Assert Exception: space_id <= graphene::db::object_id_type::one_byte_mask: space overflow');
  fails(t, () => asObjectId('1.256.x'), 10, 'Execution error: Assert Exception: type_id <= graphene::db::object_id_type::one_byte_mask: type overflow');
  fails(t, () => asObjectId('1.2.281474976710656'), 10, 'Execution error: Assert Exception: i >> instance_bits == 0: instance overflow');
  t.deepEqual(asObjectId('255.255.281474976710655'), { space: 255, type: 255, instance: 281474976710655 });
});

test('asTime reads fc time_point_sec text as seconds; anything else is a parse error with from_iso_string\'s text', (t) => {
  t.is(asTime('2026-01-01T00:00:00'), 1767225600);
  t.is(asTime('20260101T000000'), 1767225600);
  // A fraction is dropped, as boost's total_seconds() drops it.
  t.is(asTime('2026-01-01T00:00:00.999'), 1767225600);
  for (const bad of ['yesterday', '', null, 1767225600, '2026-02-30T00:00:00']) {
    fails(t, () => asTime(bad), 4, `Execution error: Parse Error: not a time: '${asString(bad)}': unable to convert ISO-formatted string to fc::time_point_sec`, String(bad));
  }
  t.throws(() => asTime({}), { instanceOf: RpcError }, 'as_string() of an object');
});

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

test('hex arguments: vector<char> reads length/2 bytes, sha256 pads or cuts to 32, std::array<33> reads no further than its size', (t) => {
  t.is(hexOf(asHexVector('0aFf')), '0aff');
  t.is(hexOf(asHexVector('0aF')), '0a', 'an odd last digit is never read');
  t.is(hexOf(asHexVector(null)), '');
  t.is(hexOf(asHexVector(12)), '12', 'a number is its decimal text');
  t.is(hexOf(asSha256('01')), '01' + '00'.repeat(31));
  t.is(hexOf(asSha256('ab'.repeat(40))), 'ab'.repeat(32));
  t.is(hexOf(asByteArray('02' + '11'.repeat(40), 33)), '02' + '11'.repeat(32));
  t.is(hexOf(asByteArray('02' + '11'.repeat(32) + 'zz', 33)), '02' + '11'.repeat(32), 'characters past its size are not looked at');
  t.is(hexOf(asByteArray('', 33)), '00'.repeat(33));
});

test('hex arguments fail as fc does: a bad digit is fc::exception (0), a wrong type a bad cast naming fc\'s variant type', (t) => {
  fails(t, () => asHexVector('0g'), 0, "Execution error: unspecified: Invalid hex character 'g'");
  fails(t, () => asSha256('00'.repeat(32) + 'x0'), 0, "Execution error: unspecified: Invalid hex character 'x'", 'a sha256 decodes its whole string first');
  fails(t, () => asByteArray('-1', 33), 0, "Execution error: unspecified: Invalid hex character '-'");
  fails(t, () => asHexVector({}), 7, 'Execution error: Bad Cast: Invalid cast from object_type to string');
  fails(t, () => asByteArray([], 33), 7, 'Execution error: Bad Cast: Invalid cast from array_type to string');
  t.deepEqual(asVariantArray([1]), [1]);
  fails(t, () => asVariantArray(null), 7, 'Execution error: Bad Cast: Invalid cast from null_type to Array');
  fails(t, () => asVariantArray('x'), 7, 'Execution error: Bad Cast: Invalid cast from string_type to Array');
  fails(t, () => asVariantArray(-3), 7, 'Execution error: Bad Cast: Invalid cast from int64_type to Array');
  fails(t, () => asVariantArray(1.5), 7, 'Execution error: Bad Cast: Invalid cast from double_type to Array');
});
