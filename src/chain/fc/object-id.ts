// Object ids, "space.type.instance" (protocol/object_id.hpp): the one parser. It names what is wrong
// instead of throwing, because each caller answers in its own terms: the API's argument converter
// with the fc assertion Core raises, the serializer with the field path, the evaluators with a
// chain error. A leaf module: it imports nothing.

export interface ObjectIdParts {
  space: number;
  type: number;
  instance: number;
}

/** What is wrong with a text that should be an object id, in the order object_id.hpp checks it. */
export type ObjectIdFault =
  | 'not-a-string'
  | 'missing-first-dot'
  | 'missing-space'
  | 'missing-second-dot'
  | 'missing-type'
  | 'not-a-number'
  | 'space-or-type-out-of-range'
  | 'instance-out-of-range';

/** Graphene ids are 8-bit space, 8-bit type, 48-bit instance. */
export const MAX_SPACE_OR_TYPE = 0xff;
export const MAX_INSTANCE = 0xffffffffffff;

const UINT64 = 1n << 64n;

/**
 * `fc::to_uint64` (bitshares-fc src/string.cpp): `boost::lexical_cast<uint64_t>(i.c_str())`. It reads
 * the text up to its first NUL: an optional sign, then one or more ASCII digits, nothing else; the
 * digits must fit in 64 bits, and a minus wraps them (2^64 - n: "-1" is 2^64-1, "-0" is 0).
 * undefined where lexical_cast throws.
 */
export function fcToUint64(text: string): bigint | undefined {
  const nul = text.indexOf('\0');
  const t = nul < 0 ? text : text.slice(0, nul);
  const m = /^([+-]?)(\d+)$/.exec(t);
  if (!m) return undefined;
  const n = BigInt(m[2]!);
  if (n >= UINT64) return undefined;
  return m[1] === '-' && n !== 0n ? UINT64 - n : n;
}

/** fc::to_uint64 of v[from, to) as a number (inexact past 2^53, but above every limit it meets), or -1. */
function exactAt(v: string, from: number, to: number): number {
  const n = fcToUint64(v.slice(from, to));
  return n === undefined ? -1 : Number(n);
}

/**
 * The number v[from, to) writes as fc::to_uint64 reads it, or -1 where it refuses. Up to 15 plain
 * digits are read in one pass, with nothing allocated: ids are parsed for every argument and every
 * stored object a call looks inside (an order book of 100 orders parses some 300). A sign, a NUL or
 * a longer text (which may not fit in 64 bits) is rare, and read exactly.
 */
function digitsAt(v: string, from: number, to: number): number {
  if (from >= to) return -1;
  if (to - from > 15) return exactAt(v, from, to);
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return exactAt(v, from, to);
    n = n * 10 + d;
  }
  return n;
}

/** The parts of an object id, or what is wrong with it. */
export function readObjectId(v: unknown): ObjectIdParts | ObjectIdFault {
  if (typeof v !== 'string') return 'not-a-string';
  const first = v.indexOf('.');
  if (first < 0) return 'missing-first-dot';
  if (first === 0) return 'missing-space';
  const second = v.indexOf('.', first + 1);
  if (second < 0) return 'missing-second-dot';
  if (second === first + 1) return 'missing-type';
  const space = digitsAt(v, 0, first);
  const type = digitsAt(v, first + 1, second);
  const instance = digitsAt(v, second + 1, v.length);
  if (space < 0 || type < 0 || instance < 0) return 'not-a-number';
  if (space > MAX_SPACE_OR_TYPE || type > MAX_SPACE_OR_TYPE) return 'space-or-type-out-of-range';
  if (instance > MAX_INSTANCE) return 'instance-out-of-range';
  return { space, type, instance };
}

/** The parts of a well-formed id, or undefined. */
export function objectIdParts(v: unknown): ObjectIdParts | undefined {
  const id = readObjectId(v);
  return typeof id === 'string' ? undefined : id;
}

/**
 * The instance of a well-formed id, or NaN: for ids whose space and type the caller knows from where
 * they sit (an asset id in a price, the payer of an operation the node accepted, a stored object's id).
 */
export function idInstance(v: unknown): number {
  const id = readObjectId(v);
  return typeof id === 'string' ? NaN : id.instance;
}
