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

/**
 * The number the ASCII digits of v[from, to) write, or -1 when that is empty or holds anything else.
 * Read in one pass, with nothing allocated: ids are parsed for every argument and every stored object
 * a call looks inside (an order book of 100 orders parses some 300). Past 2^53 the value is not
 * exact, but it stays above the limits it is compared with.
 */
function digitsAt(v: string, from: number, to: number): number {
  if (from >= to) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
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
