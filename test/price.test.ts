// Prices and amounts as Core computes and prints them (src/chain/protocol/price.ts, after protocol/asset.cpp,
// app/util.cpp and asset_object.cpp), the key order the order book relies on, checked against LMDB
// itself, and the pending pool's overlay reading those keys in order.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import {
  amountToString,
  comparePrice,
  divideByRatio,
  multiply,
  multiplyByRatio,
  multiplyRoundUp,
  priceDiffPercentString,
  priceKey,
  priceToString,
  uint128AmountToString,
  type Price,
} from '../src/chain/protocol/price.js';
import { compareIndexKeys, overlayStore, type IndexKey, type StateStore } from '../src/chain/store/state-store.js';
import { prng } from '../src/prng.js';

const price = (b: bigint | number, q: bigint | number, ba = 0, qa = 1): Price => ({ base: { amount: BigInt(b), asset: ba }, quote: { amount: BigInt(q), asset: qa } });


test('price keys sort as Core compares prices, the highest first, equal prices equal, up to int64 amounts', (t) => {
  const random = prng(17);
  const amount = (): bigint => {
    // Small, mid-sized and int64-sized amounts, so that near-equal prices are common.
    const kind = random();
    if (kind < 0.4) return BigInt(1 + Math.floor(random() * 20));
    if (kind < 0.8) return BigInt(1 + Math.floor(random() * 1e6));
    return (BigInt(Math.floor(random() * 2 ** 31)) << 32n) + BigInt(Math.floor(random() * 2 ** 32)) + 1n;
  };
  const prices = Array.from({ length: 400 }, () => price(amount(), amount()));
  prices.push(price(1, 2), price(2, 4), price(1_000_000_000_000_000n, 1), price(1, 1_000_000_000_000_000n), price((1n << 63n) - 1n, (1n << 63n) - 2n), price((1n << 63n) - 2n, (1n << 63n) - 1n));
  for (let i = 0; i < prices.length; i++) {
    for (let j = i + 1; j < prices.length; j++) {
      const core = comparePrice(prices[i]!, prices[j]!);
      const keys = priceKey(prices[i]!) < priceKey(prices[j]!) ? 1 : priceKey(prices[i]!) > priceKey(prices[j]!) ? -1 : 0;
      if (core !== keys) t.fail(`${prices[i]!.base.amount}/${prices[i]!.quote.amount} vs ${prices[j]!.base.amount}/${prices[j]!.quote.amount}: Core ${core}, keys ${keys}`);
    }
  }
  t.is(priceKey(price(1, 2)), priceKey(price(2, 4)));
  t.is(priceKey(price(1, 2)).length, 48);
});

test('asset * price rounds down and multiply_and_round_up rounds up, from either side of the price', (t) => {
  const p = price(3, 200); // 3 of asset 0 for 200 of asset 1
  t.deepEqual(multiply({ amount: 100n, asset: 1 }, p), { amount: 1n, asset: 0 });
  t.deepEqual(multiplyRoundUp({ amount: 1n, asset: 0 }, p), { amount: 67n, asset: 1 });
  t.deepEqual(multiply({ amount: 3n, asset: 0 }, p), { amount: 200n, asset: 1 });
  t.deepEqual(multiplyRoundUp({ amount: 100n, asset: 1 }, p), { amount: 2n, asset: 0 });
  t.throws(() => multiply({ amount: 1n, asset: 2 }, p), { message: /invalid asset \* price/ });
  t.throws(() => multiply({ amount: 1_000_000_000_000_000n, asset: 1 }, price(2, 1)), { message: /GRAPHENE_MAX_SHARE_SUPPLY/ });
});

test('amounts, prices and percentages print as Core prints them', (t) => {
  // asset_object::amount_to_string keeps every decimal once one is not zero.
  t.is(amountToString(5_000n, 4), '0.5000');
  t.is(amountToString(1_000_000n, 5), '10');
  t.is(amountToString(123_456_789n, 5), '1234.56789');
  t.is(amountToString(-5n, 4), '-0.0005');
  t.is(amountToString(7n, 0), '7');
  // uint128_amount_to_string drops trailing zeros of the fraction.
  t.is(uint128AmountToString(2_000n, 4), '0.2');
  t.is(uint128AmountToString(400_000n, 5), '4');
  t.is(uint128AmountToString(0n, 5), '0');
  t.is(uint128AmountToString(1_234_500n, 2), '12345');
  t.is(uint128AmountToString(5n, 3), '0.005');
  // price_to_string: base per quote, 19 extra digits.
  t.is(priceToString(price(1_000_000, 5_000), 5, 4), '20');
  t.is(priceToString(price(5_000, 1_000_000), 4, 5), '0.05');
  t.is(priceToString(price(1, 3), 0, 0), '0.3333333333333333333');
  t.is(priceToString(price(0, 3), 0, 0), '0');
  t.is(priceToString(price(5, 0), 0, 0), '9223372036854775807');
  // price_diff_percent_string: two decimals at most, toward zero.
  t.is(priceDiffPercentString(price(1, 1), price(3, 2)), '50');
  t.is(priceDiffPercentString(price(2, 1), price(1, 1)), '-50');
  t.is(priceDiffPercentString(price(3, 1), price(2, 1)), '-33.33');
  t.is(priceDiffPercentString(price(10_000, 1), price(10_001, 1)), '0.01');
  t.is(priceDiffPercentString(price(100_000, 1), price(100_001, 1)), '0');
});

test('index keys compare as LMDB orders them, and the pending overlay reads its own writes in that order', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = open({ path: dir, maxDbs: 4 });
  const db = root.openDB<number, IndexKey>({ name: 'keys', encoding: 'ordered-binary' });
  const random = prng(5);
  const keys: IndexKey[] = [];
  for (let i = 0; i < 300; i++) {
    const hex = Math.floor(random() * 16 ** 6).toString(16).padStart(48, '0');
    const shape = Math.floor(random() * 3);
    const n = () => Math.floor(random() * (random() < 0.5 ? 5 : 300_000));
    keys.push(shape === 0 ? [n(), n(), hex, n()] : shape === 1 ? [n(), n()] : [n(), hex, n()]);
  }
  await root.transaction(() => {
    for (const k of keys) db.putSync(k, 1);
  });
  const stored = [...db.getKeys()];
  const unique = [...new Map(keys.map((k) => [JSON.stringify(k), k])).values()];
  t.deepEqual(stored, [...unique].sort(compareIndexKeys));

  // An overlay over it: some keys removed, some added, read forwards and backwards, with a limit.
  const base = { orderPrices: db } as unknown as StateStore;
  const overlay = overlayStore({ ...base, orderExpirations: db } as unknown as StateStore);
  const table = overlay.orderPrices as unknown as { putSync(k: IndexKey, v: number): void; removeSync(k: IndexKey): void; getKeys(r: object): Iterable<IndexKey> };
  const removed = stored.filter((_, i) => i % 3 === 0);
  const added: IndexKey[] = [
    [2, 1, 'f'.repeat(48), 7],
    [2, 3],
    [0, 0],
  ];
  for (const k of removed) table.removeSync(k);
  for (const k of added) table.putSync(k, 1);
  const expected = [...stored.filter((k) => !removed.includes(k)), ...added].sort(compareIndexKeys);
  const inRange = (k: IndexKey) => compareIndexKeys(k, [1]) >= 0 && compareIndexKeys(k, [3]) < 0;
  t.deepEqual([...table.getKeys({ start: [1], end: [3] })], expected.filter(inRange));
  t.deepEqual([...table.getKeys({ start: [3], end: [1], reverse: true })], expected.filter((k) => compareIndexKeys(k, [3]) <= 0 && compareIndexKeys(k, [1]) > 0).reverse());
  t.deepEqual([...table.getKeys({ start: [1], end: [3], limit: 2 })], expected.filter(inRange).slice(0, 2));
  await root.close();
});

test('price * ratio as Core scales prices: exact when it fits, the supply bound when it does not, and close after halving', (t) => {
  t.deepEqual(multiplyByRatio(price(1_000, 10), 10_010, 10_000), price(1_001, 10));
  t.deepEqual(divideByRatio(price(1_010, 10), 10_010, 10_000), price(101_000, 1_001));
  t.deepEqual(multiplyByRatio(price(7, 3), 10_000, 10_000), price(7, 3), 'a ratio of one gives the price back');
  // 10^15 * 1.001 does not fit, and the quotient is an integer: the supply bound itself.
  t.deepEqual(multiplyByRatio(price(1_000_000_000_000_000n, 1), 10_010, 10_000), price(1_000_000_000_000_000n, 1));
  // Halved until both sides fit, then the closer of that and the rounded quotient.
  const big = price(999_999_999_999_989n, 999_999_999_999_937n);
  const scaled = multiplyByRatio(big, 10_100, 10_000);
  t.true(scaled.base.amount <= 1_000_000_000_000_000n && scaled.quote.amount <= 1_000_000_000_000_000n);
  const exact = (999_999_999_999_989 / 999_999_999_999_937) * 1.01;
  t.true(Math.abs(Number(scaled.base.amount) / Number(scaled.quote.amount) / exact - 1) < 1e-12);
});
