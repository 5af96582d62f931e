// nth-element.ts against libstdc++'s std::nth_element: test/fixtures/nth-element/libstdcxx.txt holds
// what test/fixtures/nth-element/libstdcxx.cpp (g++ 12.2, libstdc++) prints for arrays of items with
// two keys of few values (ties are what the order of equal elements is about), the median taken by
// the first key and then by the second on the same array, as update_median_feeds does field after
// field. Each line: n, the n pairs of keys, then after " |" the items' original indexes in the order
// each call leaves them. The last lines' inputs make introselect spend its depth limit and fall back
// to the heap select.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fixture } from './helpers/node.js';
import { nthElement } from '../src/chain/evaluators/nth-element.js';

interface Item {
  k1: number;
  k2: number;
  id: number;
}

test('nthElement leaves every element where libstdc++\'s std::nth_element leaves it, ties and the heap-select fallback included', (t) => {
  const lines = readFileSync(fixture('nth-element/libstdcxx.txt'), 'utf8').trim().split('\n');
  t.true(lines.length > 150);
  for (const line of lines) {
    const [input, byFirst, bySecond] = line.split(' |');
    const numbers = input!.trim().split(' ').map(Number);
    const n = numbers[0]!;
    const items: Item[] = Array.from({ length: n }, (_, i) => ({ k1: numbers[1 + 2 * i]!, k2: numbers[2 + 2 * i]!, id: i }));
    const mid = Math.floor(n / 2);
    nthElement(items, mid, (a, b) => a.k1 < b.k1);
    t.is(items.map((x) => x.id).join(' '), byFirst!.trim(), input);
    nthElement(items, mid, (a, b) => a.k2 < b.k2);
    t.is(items.map((x) => x.id).join(' '), bySecond!.trim(), input);
  }
});
