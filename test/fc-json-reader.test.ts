// fc::json::from_string's legacy parser as src/chain/fc/fc-json-reader.ts follows it, case by case from
// bitshares-fc src/io/json.cpp: what it accepts beyond JSON, which of its two exceptions it raises
// where, and how the value is written back in a reply (stringify_large_ints_and_doubles).
import test from 'ava';
import { fixed17, readFcJson } from '../src/chain/fc/fc-json-reader.js';

const read = (text: string | number[]) => readFcJson(typeof text === 'string' ? Buffer.from(text, 'utf8') : Uint8Array.from(text));
const json = (text: string | number[]): string => {
  const r = read(text);
  if (!r.ok) throw new Error(`${JSON.stringify(text)}: ${r.error} (${r.message})`);
  return r.json;
};
const failure = (text: string | number[]): string => {
  const r = read(text);
  return r.ok ? `ok: ${r.json}` : r.error;
};

test('JSON values come back as fc writes them: strings, objects in order, arrays, null and booleans', (t) => {
  t.is(json('"value"'), '"value"');
  t.is(json('"http://some.image.url/img.jpg"'), '"http://some.image.url/img.jpg"');
  t.is(json('{"name":"nathan","n":[1,2,{"x":null}],"ok":true,"no":false}'), '{"name":"nathan","n":[1,2,{"x":null}],"ok":true,"no":false}');
  t.is(json(' \t\n\r"padded"'), '"padded"');
  t.is(json('"é ✓"'), '"é ✓"');
  t.is(json('"tab\\there"'), '"tab\\there"');
  t.is(json('"\u0001"'), '"\\u0001"');
});

test('numbers: uint64 above 32 bits and int64 beyond int32 are strings, doubles are %.17f strings', (t) => {
  t.is(json('4294967295'), '4294967295');
  t.is(json('4294967296'), '"4294967296"');
  t.is(json('18446744073709551615'), '"18446744073709551615"');
  t.is(json('-2147483648'), '-2147483648');
  t.is(json('-2147483649'), '"-2147483649"');
  t.is(json('-9223372036854775808'), '"-9223372036854775808"');
  t.is(json('-0'), '0');
  t.is(json('007'), '7');
  t.is(json('1.5'), '"1.50000000000000000"');
  t.is(json('0.1'), '"0.10000000000000001"');
  t.is(json('-0.0'), '"-0.00000000000000000"');
  t.is(json('5.'), '"5.00000000000000000"');
  t.is(json('.5'), '"0.50000000000000000"');
  t.is(json('-.25'), '"-0.25000000000000000"');
  t.is(failure('18446744073709551616'), 'parse');
  t.is(failure('-9223372036854775809'), 'parse');
  t.is(failure('1' + '0'.repeat(400) + '.0'), 'parse');
  t.is(failure('1.2.3'), 'parse');
  t.is(failure('-'), 'parse');
  t.is(failure('.'), 'parse');
  t.is(failure('-.'), 'parse');
});

test('fixed17 rounds the exact binary value half to even, as glibc printf does', (t) => {
  // 2^-18 * 1 = 0.000003814697265625: the 18th decimal is a 5 with nothing after it.
  t.is(fixed17(2 ** -18), '0.00000381469726562');
  t.is(fixed17(3 * 2 ** -18), '0.00001144409179688');
  t.is(fixed17(1e21), '1000000000000000000000.00000000000000000');
  t.is(fixed17(Number.MIN_VALUE), '0.00000000000000000');
  t.is(fixed17(-Number.MIN_VALUE), '-0.00000000000000000');
  t.is(fixed17(123.456), '123.45600000000000307');
});

test("fc's leniency: trailing text ignored, optional commas, repeated keys kept, unquoted words are strings", (t) => {
  t.is(json('1 trailing'), '1');
  t.is(json('"x" junk'), '"x"');
  t.is(json('[1 2,,3,]'), '[1,2,3]');
  t.is(json('{"a":1 "a":2,,"b":3}'), '{"a":1,"a":2,"b":3}');
  t.is(json('12abc'), '"12abc"');
  t.is(json('1e5'), '"1e5"');
  t.is(json('-abc'), '"-abc"');
  t.is(json('tru'), '"tru"');
  t.is(json('test'), '"test"');
  t.is(json('truex'), 'true');
  t.is(json('nullx'), 'null');
  t.is(json('trueabc'), '"trueabc"');
  t.is(json('"a\\u0041\\/\\"\\b"'), '"au0041/\\"b"');
  t.is(json('[nul]'), '["nul"]');
});

test('what is not JSON to fc is a parse error', (t) => {
  t.is(failure('value'), 'parse');
  t.is(failure('{a:1}'), 'parse');
  t.is(failure('{"a" 1}'), 'parse');
  t.is(failure('[x]'), 'parse');
  t.is(failure([0x00]), 'parse');
  t.is(failure([0xc3, 0xa9]), 'parse');
  t.is(failure('"a\u0004"'), 'parse');
});

test('an early end is eof_exception, except inside an object, where it is a parse error', (t) => {
  t.is(failure(''), 'eof');
  t.is(failure('   '), 'eof');
  t.is(failure('"unterminated'), 'eof');
  t.is(failure('"ends in \\'), 'eof');
  t.is(failure('['), 'eof');
  t.is(failure('[1, 2'), 'eof');
  t.is(failure('[[[1]]'), 'eof');
  t.is(failure([0x04]), 'eof');
  t.is(failure([0xff]), 'eof');
  t.is(failure('{'), 'parse');
  t.is(failure('{"a":[1'), 'parse');
  t.is(failure('{"a":"b'), 'parse');
});

test('nesting deeper than 200 levels is a parse error', (t) => {
  t.is(json('['.repeat(200) + ']'.repeat(200)), '['.repeat(200) + ']'.repeat(200));
  t.is(failure('['.repeat(201) + ']'.repeat(201)), 'parse');
  t.is(failure('{"a":'.repeat(200) + '1' + '}'.repeat(200)), 'parse');
});
