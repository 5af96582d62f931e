// Buffers for large requests (src/protocol/request-buffers.ts): a large request is copied out of
// uWS' memory into a kept buffer, given back once it is read, and taken by the next request of its
// size class; what is kept free is bounded.
import test from 'ava';
import { RequestBuffers } from '../src/protocol/request-buffers.js';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

test('a request is copied whole, from one chunk or several, into a buffer of its size class', (t) => {
  const buffers = new RequestBuffers();
  const one = buffers.copy([bytes(20_000, 1).buffer]);
  t.is(one.byteLength, 20_000);
  t.true(one.every((b) => b === 1));
  t.is(one.buffer.byteLength, 32 * 1024, 'the next power of two');
  const many = buffers.copy([bytes(10, 2), bytes(30_000, 3).buffer, bytes(5, 4)]);
  t.is(many.byteLength, 30_015);
  t.deepEqual([many[0], many[9], many[10], many[30_009], many[30_010], many[30_014]], [2, 2, 3, 3, 4, 4]);
});

test('a released buffer is taken by the next request of its class, once, and never while still out', (t) => {
  const buffers = new RequestBuffers();
  const a = buffers.copy([bytes(20_000, 1)]);
  const b = buffers.copy([bytes(20_000, 2)]);
  t.not(a.buffer, b.buffer, 'two requests out: two buffers');
  buffers.release(a);
  buffers.release(a);
  t.is(buffers.kept, 32 * 1024, 'released twice, kept once');
  const c = buffers.copy([bytes(25_000, 3)]);
  t.is(c.buffer, a.buffer, 'the free buffer of its class is taken');
  t.true(c.every((x) => x === 3));
  t.true(b.every((x) => x === 2), 'a buffer still out is never handed out again');
  const d = buffers.copy([bytes(20_000, 4)]);
  t.not(d.buffer, a.buffer);
  t.is(buffers.reused, 1);
  buffers.release(new Uint8Array(32 * 1024));
  t.is(buffers.kept, 0, 'a buffer it did not hand out is not taken in');
});

test('free buffers are kept up to the bound; a request beyond the largest class has a buffer of its own', (t) => {
  const buffers = new RequestBuffers(64 * 1024);
  const out = [1, 2, 3].map((i) => buffers.copy([bytes(40_000, i)]));
  for (const b of out) buffers.release(b);
  t.is(buffers.kept, 64 * 1024, 'one 64 KiB buffer kept, the others let go');
  const huge = buffers.copy([bytes(5 * 1024 * 1024, 9)]);
  t.is(huge.buffer.byteLength, 5 * 1024 * 1024);
  buffers.release(huge);
  t.is(buffers.kept, 64 * 1024);
});
