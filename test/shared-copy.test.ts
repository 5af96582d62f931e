// Copies into and out of shared memory (src/protocol/shared-copy.ts): every byte lands where it
// should, at any alignment, on either side of the size from which memcpy is used, and nothing
// around the range is touched.
import test from 'ava';
import { copyBytes, ownCopy } from '../src/protocol/shared-copy.js';
import { NATIVE_COPY_FROM_BYTES } from '../src/tuning.js';

const pattern = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

for (const length of [0, 1, 7, NATIVE_COPY_FROM_BYTES - 1, NATIVE_COPY_FROM_BYTES, NATIVE_COPY_FROM_BYTES + 13, 30_001]) {
  test(`copyBytes puts ${length} bytes into shared memory at any offset, and nothing around them`, (t) => {
    const source = pattern(length + 5, length);
    for (const [from, at] of [[0, 0], [3, 0], [0, 5], [1, 6], [5, 11]] as const) {
      const target = new Uint8Array(new SharedArrayBuffer(length + 32)).fill(0xee);
      copyBytes(target, at, source.subarray(from, from + length));
      t.deepEqual(target.subarray(at, at + length), source.subarray(from, from + length), `from ${from} to ${at}`);
      t.true(target.subarray(0, at).every((b) => b === 0xee), 'before the range');
      t.true(target.subarray(at + length).every((b) => b === 0xee), 'after the range');
    }
  });
}

test('ownCopy takes a reply out of shared memory into memory of its own', (t) => {
  const shared = new Uint8Array(new SharedArrayBuffer(4096));
  shared.set(pattern(4096, 9));
  for (const length of [10, 3000]) {
    const view = shared.subarray(3, 3 + length);
    const own = ownCopy(view);
    t.false(own.buffer instanceof SharedArrayBuffer);
    t.deepEqual(Uint8Array.from(own), Uint8Array.from(view));
    // Its own: later writes to the slab do not show in it.
    const before = own[0];
    shared[3] = (shared[3]! + 1) & 0xff;
    t.is(own[0], before);
  }
});
