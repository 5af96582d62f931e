// Struck shapes (src/pool/struck-shapes.ts): a shape whose light call used up its slice is struck
// until one of its light calls runs within it, or STRUCK_FOR_MS; at most STRUCK_SHAPES are kept.
import test from 'ava';
import { StruckShapes } from '../src/pool/struck-shapes.js';
import { STRUCK_FOR_MS, STRUCK_SHAPES } from '../src/tuning.js';

const blocks = (from: number, to: number) => ({ set: 'block', method: 'get_blocks', params: [from, to] });

test('a struck shape stays struck until a call of it runs within its slice, or for STRUCK_FOR_MS', (t) => {
  let now = 0;
  const struck = new StruckShapes(() => now);
  struck.strike(blocks(1, 49));
  t.true(struck.has(blocks(50, 98)), 'the same shape');
  t.false(struck.has(blocks(1, 3)), 'another span');
  t.false(struck.has({ set: 'database', method: 'get_accounts', params: [['1.2.0']] }));
  struck.clear(blocks(1, 49));
  t.false(struck.has(blocks(1, 49)), 'a call back within its slice clears it');
  struck.strike(blocks(1, 49));
  now += STRUCK_FOR_MS + 1;
  t.false(struck.has(blocks(1, 49)), 'forgotten after a while');
  t.is(struck.size, 0);
  t.is(STRUCK_FOR_MS, 2000);
});

test('at most STRUCK_SHAPES are kept, the oldest strike forgotten first', (t) => {
  const struck = new StruckShapes(() => 0, 2);
  struck.strike({ set: 'database', method: 'a', params: [] });
  struck.strike({ set: 'database', method: 'b', params: [] });
  struck.strike({ set: 'database', method: 'a', params: [] });
  struck.strike({ set: 'database', method: 'c', params: [] });
  t.is(struck.size, 2);
  t.false(struck.has({ set: 'database', method: 'b', params: [] }), 'b was struck longest ago');
  t.true(struck.has({ set: 'database', method: 'a', params: [] }));
  t.is(STRUCK_SHAPES, 256);
});
