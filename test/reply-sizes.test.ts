// Reply sizes learnt from answers (src/pool/reply-sizes.ts): a shape that answered a large reply is
// expected to answer as much again, for a while; small answers teach nothing; the shapes kept are
// bounded.
import test from 'ava';
import { ReplySizes } from '../src/pool/reply-sizes.js';
import { HEAVY_REPLY_BYTES, LARGE_REPLY_BYTES, REPLY_SIZE_FOR_MS, REPLY_SIZE_SHAPES } from '../src/tuning.js';

const blocks = (from: number, to: number) => ({ set: 'block', method: 'get_blocks', params: [from, to] });

test('a shape that answered a large reply is expected to answer its largest recent one; other shapes nothing', (t) => {
  let now = 1_000_000;
  const sizes = new ReplySizes(() => now);
  t.is(sizes.expected(blocks(1, 49)), 0, 'nothing known yet');
  sizes.note(blocks(1, 49), 9_400_000);
  t.is(sizes.expected(blocks(1, 49)), 9_400_000);
  t.is(sizes.expected(blocks(50, 98)), 9_400_000, 'the same span of blocks is the same shape');
  t.is(sizes.expected(blocks(1, 3)), 0, 'another span is another shape');
  t.is(sizes.expected({ set: 'database', method: 'get_accounts', params: [['1.2.0']] }), 0);
  t.is(sizes.expected({ setKey: 'block', method: 'get_blocks', args: [1, 49] }), 9_400_000, 'a routed target is known by the same shape');
  // A smaller answer of the shape (a range of emptier blocks) does not lower what is expected.
  sizes.note(blocks(100, 148), 200_000);
  t.is(sizes.expected(blocks(1, 49)), 9_400_000);
  now += REPLY_SIZE_FOR_MS + 1;
  t.is(sizes.expected(blocks(1, 49)), 0, 'forgotten after a while');
  t.is(sizes.kept, 0);
});

test('replies under LARGE_REPLY_BYTES teach nothing; a large shape whose answers stay small for REPLY_SIZE_FOR_MS is forgotten', (t) => {
  let now = 0;
  const sizes = new ReplySizes(() => now);
  sizes.note(blocks(1, 2), LARGE_REPLY_BYTES - 1);
  t.is(sizes.kept, 0);
  sizes.note(blocks(1, 2), LARGE_REPLY_BYTES);
  t.is(sizes.kept, 1);
  now += REPLY_SIZE_FOR_MS + 1;
  sizes.note(blocks(1, 2), 100);
  t.is(sizes.kept, 0, 'its largest is out of date and the new one is small');
  t.is(LARGE_REPLY_BYTES, 64 * 1024);
});

test('a shape that answers HEAVY_REPLY_BYTES or more is heavy', (t) => {
  const sizes = new ReplySizes();
  sizes.note(blocks(1, 10), HEAVY_REPLY_BYTES - 1);
  t.false(sizes.heavy(blocks(1, 10)));
  sizes.note(blocks(1, 10), HEAVY_REPLY_BYTES);
  t.true(sizes.heavy(blocks(1, 10)));
  t.true(sizes.heavy({ setKey: 'block', method: 'get_blocks', args: [5, 14] }));
  t.is(HEAVY_REPLY_BYTES, 1024 * 1024);
});

test('at most REPLY_SIZE_SHAPES shapes are kept, the least recently noted forgotten first', (t) => {
  const sizes = new ReplySizes(Date.now, 4);
  for (let i = 0; i < 4; i++) sizes.note({ set: 'database', method: `m${i}`, params: [] }, LARGE_REPLY_BYTES);
  t.is(sizes.kept, 4);
  sizes.note({ set: 'database', method: 'm4', params: [] }, LARGE_REPLY_BYTES);
  t.is(sizes.kept, 4, 'bounded');
  t.is(sizes.expected({ set: 'database', method: 'm0', params: [] }), 0, 'the oldest went first');
  t.is(sizes.expected({ set: 'database', method: 'm4', params: [] }), LARGE_REPLY_BYTES);
  t.is(REPLY_SIZE_SHAPES, 1024);
});
