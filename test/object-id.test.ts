// chain/fc/object-id.ts: the one parser of "space.type.instance" and the faults it names.
import test from 'ava';
import { fcToUint64, idInstance, readObjectId, objectIdParts } from '../src/chain/fc/object-id.js';

test('readObjectId gives the three parts of a well-formed id, up to 8/8/48 bits', (t) => {
  t.deepEqual(readObjectId('1.2.0'), { space: 1, type: 2, instance: 0 });
  t.deepEqual(readObjectId('255.255.281474976710655'), { space: 255, type: 255, instance: 0xffffffffffff });
  t.deepEqual(readObjectId('01.02.007'), { space: 1, type: 2, instance: 7 });
});

test('readObjectId names the first fault in object_id.hpp order', (t) => {
  t.is(readObjectId(12), 'not-a-string');
  t.is(readObjectId(null), 'not-a-string');
  t.is(readObjectId('alice'), 'missing-first-dot');
  t.is(readObjectId('.2.0'), 'missing-space');
  t.is(readObjectId('1.2'), 'missing-second-dot');
  t.is(readObjectId('1..0'), 'missing-type');
  t.is(readObjectId('1.2.'), 'not-a-number');
  t.is(readObjectId('1.2.x'), 'not-a-number');
  t.is(readObjectId('1.2.3.4'), 'not-a-number');
  t.is(readObjectId('-1.2.3'), 'space-or-type-out-of-range', 'a minus wraps: 2^64-1');
  t.is(readObjectId('256.2.3'), 'space-or-type-out-of-range');
  t.is(readObjectId('1.256.3'), 'space-or-type-out-of-range');
  t.is(readObjectId('1.2.281474976710656'), 'instance-out-of-range');
  t.is(readObjectId('1.2.18446744073709551615'), 'instance-out-of-range');
  t.is(readObjectId('1.2.-1'), 'instance-out-of-range', 'a minus wraps: 2^64-1');
  t.is(readObjectId('1.2.18446744073709551616'), 'not-a-number', 'lexical_cast refuses what does not fit in 64 bits');
  t.is(readObjectId('1.2.99999999999999999999999'), 'not-a-number');
  t.is(readObjectId(`1.2.${'9'.repeat(400)}`), 'not-a-number');
  t.is(readObjectId('1.2.１'), 'not-a-number', 'digits are ASCII digits only');
  t.is(readObjectId('1.2. 3'), 'not-a-number');
  t.is(readObjectId('1.2.3 '), 'not-a-number');
  t.is(readObjectId('1.2.+-3'), 'not-a-number');
  t.is(readObjectId('1.2.-'), 'not-a-number');
});

test('readObjectId reads each part as fc::to_uint64 (boost::lexical_cast<uint64_t>) does', (t) => {
  t.deepEqual(readObjectId('1.2.+3'), { space: 1, type: 2, instance: 3 });
  t.deepEqual(readObjectId('+1.-0.-0'), { space: 1, type: 0, instance: 0 });
  // 2^64 - (2^64 - 5): a minus that wraps back into range
  t.deepEqual(readObjectId('1.2.-18446744073709551611'), { space: 1, type: 2, instance: 5 });
  // c_str(): the text ends at a NUL
  t.deepEqual(readObjectId('1.2.7\u0000x'), { space: 1, type: 2, instance: 7 });
});

test('fcToUint64 is lexical_cast<uint64_t>: a sign, digits that fit in 64 bits, a minus wrapping', (t) => {
  t.is(fcToUint64('0'), 0n);
  t.is(fcToUint64('+42'), 42n);
  t.is(fcToUint64('-1'), (1n << 64n) - 1n);
  t.is(fcToUint64('-18446744073709551615'), 1n);
  t.is(fcToUint64('18446744073709551615'), (1n << 64n) - 1n);
  for (const bad of ['', '+', '-', '18446744073709551616', '-18446744073709551616', ' 1', '1 ', '0x1', '1e3', '1.5', '١']) t.is(fcToUint64(bad), undefined, JSON.stringify(bad));
});

test('objectIdParts is undefined for anything that is not an id', (t) => {
  t.deepEqual(objectIdParts('2.6.9'), { space: 2, type: 6, instance: 9 });
  t.is(objectIdParts('1.2.x'), undefined);
  t.is(objectIdParts(undefined), undefined);
});

test('idInstance is the instance of a well-formed id, and NaN for anything else', (t) => {
  t.is(idInstance('1.3.0'), 0);
  t.is(idInstance('1.2.17'), 17);
  t.is(idInstance('2.6.281474976710655'), 0xffffffffffff);
  for (const v of ['', '1.3', '1.3.x', '1.3.1.2', '1.3.281474976710656', undefined, 7]) t.true(Number.isNaN(idInstance(v)), String(v));
});
