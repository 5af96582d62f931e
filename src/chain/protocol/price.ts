// Amounts and prices as BitShares Core computes them (libraries/protocol/asset.cpp): the products
// and quotients the matching engine rounds with, the order Core's price comparison gives, and the
// text forms the market API writes (libraries/app/util.cpp, libraries/chain/asset_object.cpp).
//
// Amounts are BigInt: Core multiplies int64 amounts in uint128 and would lose nothing, so neither
// may we. Assets are named by their 1.3.x instance. A leaf module: it imports only fc-json.

import { i64 } from '../fc/fc-json.js';
import { idInstance } from '../fc/object-id.js';

/** GRAPHENE_MAX_SHARE_SUPPLY */
export const MAX_SHARE_SUPPLY = 1_000_000_000_000_000n;
/** GRAPHENE_100_PERCENT */
export const PERCENT_100 = 10000n;

export interface Amount {
  readonly amount: bigint;
  /** 1.3.x instance */
  readonly asset: number;
}

/** `base` per `quote`: an order's sell_price is amount_to_sell / min_to_receive. */
export interface Price {
  readonly base: Amount;
  readonly quote: Amount;
}

/** A Core FC_ASSERT failure in price arithmetic; callers turn it into their own error kind. */
export class PriceError extends Error {}

const amountOf = (v: unknown): bigint => BigInt(typeof v === 'number' ? Math.trunc(v) : String(v ?? 0));

/** An asset in JSON (`{amount, asset_id}`), as the chain stores it. */
export function amountFromJson(v: unknown): Amount {
  const a = v as { amount?: unknown; asset_id?: unknown };
  return { amount: amountOf(a?.amount), asset: idInstance(a?.asset_id) };
}

export const priceFromJson = (v: unknown): Price => {
  const p = v as { base?: unknown; quote?: unknown };
  return { base: amountFromJson(p?.base), quote: amountFromJson(p?.quote) };
};

export const amountJson = (a: Amount): { amount: number | string; asset_id: string } => ({ amount: i64(a.amount), asset_id: `1.3.${a.asset}` });
export const priceJson = (p: Price): { base: ReturnType<typeof amountJson>; quote: ReturnType<typeof amountJson> } => ({ base: amountJson(p.base), quote: amountJson(p.quote) });

/** `asset / asset` (asset.cpp operator/): a price, refused for one asset on both sides. */
export function priceOf(base: Amount, quote: Amount): Price {
  if (base.asset === quote.asset) throw new PriceError('base.asset_id != quote.asset_id: ');
  return { base, quote };
}

/** `~price` */
export const invert = (p: Price): Price => ({ base: p.quote, quote: p.base });

/** price::max(base, quote): the highest price of a market. */
export const priceMax = (base: number, quote: number): Price => ({ base: { amount: MAX_SHARE_SUPPLY, asset: base }, quote: { amount: 1n, asset: quote } });

/** price::min(base, quote): the lowest price of a market. */
export const priceMin = (base: number, quote: number): Price => ({ base: { amount: 1n, asset: base }, quote: { amount: MAX_SHARE_SUPPLY, asset: quote } });

/** int64 → uint128 as C++ converts it (`uint128_t( amount.value )`), for comparisons of any input. */
const u128 = (v: bigint): bigint => BigInt.asUintN(128, v);

/**
 * Core's price ordering (asset.cpp operator<): by base asset id, then quote asset id, then value,
 * compared exactly as base_a * quote_b against base_b * quote_a in uint128. Negative when a < b.
 */
export function comparePrice(a: Price, b: Price): number {
  if (a.base.asset !== b.base.asset) return a.base.asset < b.base.asset ? -1 : 1;
  if (a.quote.asset !== b.quote.asset) return a.quote.asset < b.quote.asset ? -1 : 1;
  const amult = BigInt.asUintN(128, u128(b.quote.amount) * u128(a.base.amount));
  const bmult = BigInt.asUintN(128, u128(a.quote.amount) * u128(b.base.amount));
  return amult < bmult ? -1 : amult > bmult ? 1 : 0;
}

/** `asset * price` (asset.cpp operator*): rounds down. */
export function multiply(a: Amount, p: Price): Amount {
  if (a.asset === p.base.asset) {
    if (!(p.base.amount > 0n)) throw new PriceError('b.base.amount.value > 0: ');
    const r = (a.amount * p.quote.amount) / p.base.amount;
    if (r > MAX_SHARE_SUPPLY) throw new PriceError('result <= GRAPHENE_MAX_SHARE_SUPPLY: ');
    return { amount: r, asset: p.quote.asset };
  }
  if (a.asset === p.quote.asset) {
    if (!(p.quote.amount > 0n)) throw new PriceError('b.quote.amount.value > 0: ');
    const r = (a.amount * p.base.amount) / p.quote.amount;
    if (r > MAX_SHARE_SUPPLY) throw new PriceError('result <= GRAPHENE_MAX_SHARE_SUPPLY: ');
    return { amount: r, asset: p.base.asset };
  }
  throw new PriceError('invalid asset * price');
}

/** asset::multiply_and_round_up(price) (asset.cpp): rounds up. */
export function multiplyRoundUp(a: Amount, p: Price): Amount {
  if (a.asset === p.base.asset) {
    if (!(p.base.amount > 0n)) throw new PriceError('b.base.amount.value > 0: ');
    const r = (a.amount * p.quote.amount + p.base.amount - 1n) / p.base.amount;
    if (r > MAX_SHARE_SUPPLY) throw new PriceError('result <= GRAPHENE_MAX_SHARE_SUPPLY: ');
    return { amount: r, asset: p.quote.asset };
  }
  if (a.asset === p.quote.asset) {
    if (!(p.quote.amount > 0n)) throw new PriceError('b.quote.amount.value > 0: ');
    const r = (a.amount * p.base.amount + p.quote.amount - 1n) / p.quote.amount;
    if (r > MAX_SHARE_SUPPLY) throw new PriceError('result <= GRAPHENE_MAX_SHARE_SUPPLY: ');
    return { amount: r, asset: p.base.asset };
  }
  throw new PriceError('invalid asset::multiply_and_round_up(price)');
}

/** detail::calculate_percent (protocol/asset.cpp helpers): value * percent / 100%, rounded down. */
export function calculatePercent(value: bigint, percent: number | bigint): bigint {
  const r = (value * BigInt(percent)) / PERCENT_100;
  if (r > MAX_SHARE_SUPPLY) throw new PriceError('a <= GRAPHENE_MAX_SHARE_SUPPLY: overflow when calculating percent');
  return r;
}

/** 2^192: price keys are 48 hex digits. */
const KEY_SPAN = 1n << 192n;
/** The scale of a price key: 2^128 parts of one quote unit. */
const KEY_SCALE = 128n;

/**
 * A fixed-width text that sorts as Core's by_price index sorts one market (greater<price>, so the
 * highest price first): `KEY_SPAN - 1 - floor(base * 2^128 / quote)` in hex.
 *
 * Exact for every price an order can have: two different prices b1/q1 and b2/q2 with int64 amounts
 * differ by at least 1/(q1*q2) > 2^-126, so their scaled values differ by more than 2 and their
 * floors cannot meet; equal prices (1/2 and 2/4) get equal keys, and the order id that follows the
 * key in every index breaks the tie as Core's composite key does. Amounts Core would not accept in an
 * order (zero or negative, which start prices of queries may carry) are clamped to the ends.
 */
export function priceKey(p: Price): string {
  return (KEY_SPAN - 1n - scaledPrice(p)).toString(16).padStart(48, '0');
}

/** floor(base * 2^128 / quote), clamped to the key's span: what both price keys are made of. */
function scaledPrice(p: Price): bigint {
  const { amount: b } = p.base;
  const { amount: q } = p.quote;
  if (b <= 0n) return 0n;
  if (q <= 0n) return KEY_SPAN - 1n;
  const v = (b << KEY_SCALE) / q;
  return v >= KEY_SPAN ? KEY_SPAN - 1n : v;
}

/** A fixed-width text that sorts as std::less<price> within one market: the lowest price first. */
export const priceKeyAscending = (p: Price): string => scaledPrice(p).toString(16).padStart(48, '0');

/** The market of two assets as Core keys it (get_market(): the lower id first), "1.3.a:1.3.b". */
export const marketKey = (a: number, b: number): string => (a < b ? `1.3.${a}:1.3.${b}` : `1.3.${b}:1.3.${a}`);

// ---- text forms (app/util.cpp, chain/asset_object.cpp) ----

/** asset_object::amount_to_string: the integer part, then every decimal (trailing zeros kept) when any is non-zero. */
export function amountToString(amount: bigint, precision: number): string {
  const scaled = 10n ** BigInt(precision);
  const whole = amount / scaled;
  let result = whole.toString();
  const decimals = (amount < 0n ? -amount : amount) % scaled;
  if (decimals !== 0n) {
    if (amount < 0n && result === '0') result = '-0';
    result += `.${(scaled + decimals).toString().slice(1)}`;
  }
  return result;
}

/**
 * uint128_amount_to_string (util.cpp): the decimal text of `amount` with `precision` decimals, trailing
 * zeros of the fraction dropped (and the point with them).
 */
export function uint128AmountToString(amount: bigint, precision: number): string {
  const s = amount.toString();
  if (precision === 0 || amount === 0n) return s;
  // find_last_not_of('0'): amount is not zero, so there is one.
  let pos = s.length - 1;
  while (s[pos] === '0') pos--;
  if (s.length > precision) {
    const left = s.length - precision;
    return pos >= left ? `${s.slice(0, left)}.${s.slice(left, pos + 1)}` : s.slice(0, left);
  }
  return `0.${'0'.repeat(precision - s.length)}${s.slice(0, pos + 1)}`;
}

const INT64_MAX = (1n << 63n) - 1n;
const UINT128_MAX = (1n << 128n) - 1n;

/** price_to_string(price, base_precision, quote_precision) (util.cpp): base per quote with 19 extra digits. */
export function priceToString(p: Price, basePrecision: number, quotePrecision: number): string {
  if (p.base.amount === 0n) return '0';
  if (p.base.amount < 0n || p.quote.amount < 0n) throw new PriceError('_price.base.amount >= 0: ');
  let { amount: b } = p.base;
  let { amount: q } = p.quote;
  if (q === 0n) {
    b = INT64_MAX;
    q = 1n;
  }
  const price128 = BigInt.asUintN(128, (b * 10_000_000_000_000_000_000n) / q);
  return uint128AmountToString(price128, 19 + basePrecision - quotePrecision);
}

/** price_to_string(price, base asset, quote asset): the price inverted when it is quoted the other way. */
export function marketPriceToString(p: Price, base: { instance: number; precision: number }, quote: { instance: number; precision: number }): string {
  if (p.base.asset === base.instance && p.quote.asset === quote.instance) return priceToString(p, base.precision, quote.precision);
  if (p.base.asset === quote.instance && p.quote.asset === base.instance) return priceToString(invert(p), base.precision, quote.precision);
  throw new PriceError('!"bad parameters": ');
}

/** price_diff_percent_string (util.cpp): (new / old - 1) in percent, two decimals at most, rounded toward zero. */
export function priceDiffPercentString(oldPrice: Price, newPrice: Price): string {
  const fix = (p: Price): [bigint, bigint] => (p.base.amount === 0n ? [1n, INT64_MAX] : p.quote.amount === 0n ? [INT64_MAX, 1n] : [p.base.amount, p.quote.amount]);
  const [ob, oq] = fix(oldPrice);
  const [nb, nq] = fix(newPrice);
  const new256 = nb * oq;
  const old256 = ob * nq;
  const nonNegative = new256 >= old256;
  let diff = ((nonNegative ? new256 - old256 : old256 - new256) * 10000n) / old256;
  if (diff > UINT128_MAX) diff = UINT128_MAX;
  const text = uint128AmountToString(diff, 2);
  return nonNegative || text === '0' ? text : `-${text}`;
}

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/** boost::rational: num/den in lowest terms. */
const rational = (num: bigint, den: bigint): [bigint, bigint] => {
  const g = gcd(num, den);
  return g === 0n ? [num, den] : [num / g, den / g];
};

/** Exact comparison of two non-negative rationals. */
const compareRational = ([a, b]: [bigint, bigint], [c, d]: [bigint, bigint]): number => {
  const l = a * d;
  const r = c * b;
  return l < r ? -1 : l > r ? 1 : 0;
};

/**
 * `price * ratio_type` (asset.cpp operator*): the price scaled by num/den, in lowest terms, halved
 * until both sides fit GRAPHENE_MAX_SHARE_SUPPLY and then the closer of that and the rounded
 * quotient taken; a result that would move the wrong way gives the price back unchanged.
 * (ratio_type is a boost::rational<int32_t>, in lowest terms too.)
 */
export function multiplyByRatio(p: Price, ratioNum: number, ratioDen: number): Price {
  if (!(p.base.amount > 0n) || !(p.quote.amount > 0n) || p.base.asset === p.quote.asset) throw new PriceError('p.validate(): ');
  const [rn, rd] = rational(BigInt(ratioNum), BigInt(ratioDen));
  if (!(rn > 0n && rd > 0n)) throw new PriceError('r.numerator() > 0 && r.denominator() > 0: ');
  if (rn === rd) return p;
  let cp = rational(p.base.amount * rn, p.quote.amount * rd);
  const ocp = cp;
  let shrinked = false;
  let usingMax = false;
  while (cp[0] > MAX_SHARE_SUPPLY || cp[1] > MAX_SHARE_SUPPLY) {
    if (cp[0] === 1n) {
      cp = [1n, MAX_SHARE_SUPPLY];
      usingMax = true;
      break;
    } else if (cp[1] === 1n) {
      cp = [MAX_SHARE_SUPPLY, 1n];
      usingMax = true;
      break;
    } else {
      cp = rational(cp[0] >> 1n, cp[1] >> 1n);
      shrinked = true;
    }
  }
  if (shrinked) {
    let [num, den] = ocp;
    if (num > den) {
      num /= den;
      if (num > MAX_SHARE_SUPPLY) num = MAX_SHARE_SUPPLY;
      den = 1n;
    } else {
      den /= num;
      if (den > MAX_SHARE_SUPPLY) den = MAX_SHARE_SUPPLY;
      num = 1n;
    }
    const ncp: [bigint, bigint] = [num, den];
    if (num === MAX_SHARE_SUPPLY || den === MAX_SHARE_SUPPLY) cp = ncp;
    else {
      // the closer of the two to the exact value
      const diff = (x: [bigint, bigint]): [bigint, bigint] => {
        const n = x[0] * ocp[1] - ocp[0] * x[1];
        return [n < 0n ? -n : n, x[1] * ocp[1]];
      };
      if (compareRational(diff(ncp), diff(cp)) < 0) cp = ncp;
    }
  }
  let np: Price = { base: { amount: cp[0], asset: p.base.asset }, quote: { amount: cp[1], asset: p.quote.asset } };
  if (shrinked || usingMax) {
    const flipped = rn > rd ? comparePrice(np, p) < 0 : comparePrice(np, p) > 0;
    if (flipped) np = p;
  }
  return np;
}

/** `price / ratio_type`: the price times the inverted ratio. */
export const divideByRatio = (p: Price, ratioNum: number, ratioDen: number): Price => multiplyByRatio(p, ratioDen, ratioNum);
