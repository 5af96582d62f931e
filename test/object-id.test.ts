// chain/object-id.ts: the one parser of "space.type.instance" and the faults it names.
import test from 'ava';
import { idInstance, readObjectId, objectIdParts } from '../src/chain/object-id.js';

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
  t.is(readObjectId('-1.2.3'), 'not-a-number');
  t.is(readObjectId('256.2.3'), 'space-or-type-out-of-range');
  t.is(readObjectId('1.256.3'), 'space-or-type-out-of-range');
  t.is(readObjectId('1.2.281474976710656'), 'instance-out-of-range');
  t.is(readObjectId('1.2.99999999999999999999999'), 'instance-out-of-range');
  t.is(readObjectId(`1.2.${'9'.repeat(400)}`), 'instance-out-of-range', 'past what a double holds');
  t.is(readObjectId('1.2.１'), 'not-a-number', 'digits are ASCII digits only');
  t.is(readObjectId('1.2. 3'), 'not-a-number');
  t.is(readObjectId('1.2.+3'), 'not-a-number');
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
