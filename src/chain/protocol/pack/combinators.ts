// The serializer's type builders (serializer.ts): optional, vector, flat_set, flat_map, pair, struct,
// static_variant and extensions, each after the fc header it cites, and lazy for the types that
// contain themselves (a proposal's operations, a restriction's restrictions).
import { u64 } from '../../fc/fc-json.js';
import { RpcError, assertError } from '../../../errors.js';
import { asUint64, notArray, notObject } from '../../fc/fc-variant.js';
import { ByteWriter } from './byte-writer.js';
import { type SortKey, type Type, compareKeys, isObject } from './primitives.js';

/** optional<T>: a bool byte, then the value if set (raw.hpp). JSON: the key is absent (or null). */
export function optional(t: Type): Type {
  return {
    name: `optional<${t.name}>`,
    mayBeAbsent: true,
    pack(w, v, path) {
      if (v === undefined || v === null) {
        w.uint8(0);
      } else {
        w.uint8(1);
        t.pack(w, v, path);
      }
    },
    json: (v, path) => (v === undefined || v === null ? undefined : t.json(v, path)),
    zero: undefined,
  };
}

/** `variant::get_array()`, which every container's from_variant starts with: null is no array either. */
function expectArray(v: unknown, _path: string): unknown[] {
  if (!Array.isArray(v)) throw notArray(v);
  return v;
}

/** vector<T>: varint count, then the elements in the given order. */
/**
 * Called every PROGRESS_EVERY elements of a vector packed or read, while set (withProgress): a
 * worker's look at its call's deadline, so that a transaction of thousands of operations, packed
 * for get_transaction_hex, stops at its deadline rather than long after it. (A heavy thread, at a
 * lower priority on a busy machine, took over a second to pack four of them, past its task's hard
 * bound: its worker was replaced.) The look may throw; the pack or read stops there.
 */
let progress: (() => void) | undefined;
const PROGRESS_EVERY = 64;

/** Runs `f` with `tick` called as vectors are packed and read (see progress). */
export function withProgress<T>(tick: () => void, f: () => T): T {
  const before = progress;
  progress = tick;
  try {
    return f();
  } finally {
    progress = before;
  }
}

export function vector(t: Type): Type {
  return {
    name: `vector<${t.name}>`,
    pack(w, v, path) {
      const items = expectArray(v, path);
      w.varint(items.length);
      items.forEach((item, i) => {
        if (progress && i % PROGRESS_EVERY === PROGRESS_EVERY - 1) progress();
        t.pack(w, item, `${path}[${i}]`);
      });
    },
    json: (v, path) =>
      expectArray(v, path).map((item, i) => {
        if (progress && i % PROGRESS_EVERY === PROGRESS_EVERY - 1) progress();
        return t.json(item, `${path}[${i}]`);
      }),
    zero: [],
  };
}

/**
 * Shared by flat_set and flat_map: the JSON order does not matter, Core inserts each element into
 * the sorted container (keeping the first of equal keys, fc container/flat.hpp from_variant) and
 * packs it in key order.
 */
function packSorted(w: ByteWriter, items: unknown[], path: string, key: (item: unknown, p: string) => SortKey, pack: (w: ByteWriter, item: unknown, p: string) => void): void {
  // One item is in order already; its key (for a public key, a sha512 and a ripemd160) is not needed.
  if (items.length === 1) {
    w.varint(1);
    pack(w, items[0], `${path}[0]`);
    return;
  }
  const entries: { key: SortKey; bytes: Uint8Array }[] = [];
  items.forEach((item, i) => {
    const p = `${path}[${i}]`;
    const k = key(item, p);
    const sub = new ByteWriter(64);
    pack(sub, item, p);
    if (!entries.some((e) => compareKeys(e.key, k) === 0)) entries.push({ key: k, bytes: sub.finish() });
  });
  entries.sort((a, b) => compareKeys(a.key, b.key));
  w.varint(entries.length);
  for (const e of entries) w.raw(e.bytes);
}

/** The items of a flat_set/flat_map JSON array in Core's order: sorted by key, first of equals kept. */
function sortedUnique(items: unknown[], path: string, key: (item: unknown, p: string) => SortKey): [unknown, string][] {
  const entries: { key: SortKey; item: unknown; p: string }[] = [];
  items.forEach((item, i) => {
    const p = `${path}[${i}]`;
    const k = key(item, p);
    if (!entries.some((e) => compareKeys(e.key, k) === 0)) entries.push({ key: k, item, p });
  });
  entries.sort((a, b) => compareKeys(a.key, b.key));
  return entries.map((e) => [e.item, e.p]);
}

export function flatSet(t: Type): Type {
  const key = t.sortKey;
  if (!key) throw new Error(`internal: ${t.name} has no order and cannot be a set element`);
  return {
    name: `flat_set<${t.name}>`,
    pack: (w, v, path) => packSorted(w, expectArray(v, path), path, key, (sw, item, p) => t.pack(sw, item, p)),
    json: (v, path) => sortedUnique(expectArray(v, path), path, key).map(([item, p]) => t.json(item, p)),
    zero: [],
  };
}

/** flat_map<K,V>: JSON is an array of [key, value] pairs (fc container/flat.hpp). */
export function flatMap(k: Type, val: Type): Type {
  const key = k.sortKey;
  if (!key) throw new Error(`internal: ${k.name} has no order and cannot be a map key`);
  // std::pair's from_variant (variant.hpp): an array, whose missing elements keep their defaults.
  const pair = (item: unknown, p: string): [unknown, unknown] => {
    const arr = expectArray(item, p);
    return [arr.length > 0 ? arr[0] : k.zero, arr.length > 1 ? arr[1] : val.zero];
  };
  return {
    name: `flat_map<${k.name},${val.name}>`,
    pack: (w, v, path) =>
      packSorted(
        w,
        expectArray(v, path),
        path,
        (item, p) => key(pair(item, p)[0], `${p}[0]`),
        (sw, item, p) => {
          const [a, b] = pair(item, p);
          k.pack(sw, a, `${p}[0]`);
          val.pack(sw, b, `${p}[1]`);
        },
      ),
    json: (v, path) =>
      sortedUnique(expectArray(v, path), path, (item, p) => key(pair(item, p)[0], `${p}[0]`)).map(([item, p]) => {
        const [a, b] = pair(item, p);
        return [k.json(a, `${p}[0]`), val.json(b, `${p}[1]`)];
      }),
    zero: [],
  };
}

/**
 * A reflected struct: its fields in FC_REFLECT order, nothing between them. As fc's
 * from_variant_visitor, a member missing from the JSON keeps its default and unknown keys are ignored.
 */
export function struct(name: string, fields: ReadonlyArray<readonly [string, Type]>): Type {
  const member = (v: Record<string, unknown>, field: string, t: Type): unknown => (Object.prototype.hasOwnProperty.call(v, field) ? v[field] : t.zero);
  return {
    name,
    pack(w, v, path) {
      if (!isObject(v)) throw notObject(v);
      for (const [field, t] of fields) t.pack(w, member(v, field, t), `${path}.${field}`);
    },
    json(v, path) {
      if (!isObject(v)) throw notObject(v);
      const out: Record<string, unknown> = {};
      for (const [field, t] of fields) {
        const j = t.json(member(v, field, t), `${path}.${field}`);
        if (j !== undefined) out[field] = j;
      }
      return out;
    },
    zero: {},
  };
}

/** A member whose C++ declaration gives it a default other than its type's (`uint8_t minimum_feeds = 1;`). */
export const defaulted = (t: Type, zero: unknown): Type => ({ ...t, zero });

/** GRAPHENE_MAX_SHARE_SUPPLY (config.hpp), the default max_supply and max_market_fee of asset_options. */
export const MAX_SHARE_SUPPLY = '1000000000000000';

/** An empty struct (void_t, void_result, no_special_authority): packs nothing. JSON `{}`. */
export function emptyStruct(name: string): Type {
  return {
    name,
    pack(_w, v) {
      if (!isObject(v)) throw notObject(v);
    },
    json(v) {
      if (!isObject(v)) throw notObject(v);
      return {};
    },
    zero: {},
  };
}

/**
 * static_variant: varint `which`, then that alternative (fc static_variant.hpp). JSON [which, value].
 * A `which` beyond the alternatives is refused as fc's set_which refuses it, with an assertion.
 */
export function staticVariant(name: string, alternatives: readonly Type[], ordered = false): Type {
  const first = alternatives[0];
  if (!first) throw new Error(`internal: ${name} has no alternative 0 to default to`);
  const zero = [0, first.zero];
  /** fc's from_variant: `if( ar.size() < 2 ) return;` keeps the default; extra elements are ignored. */
  const read = (v: unknown, path: string): [bigint, Type, unknown] => {
    const [tag, value] = expectArray(v, path).length < 2 ? zero : (v as unknown[]);
    const which = asUint64(tag);
    const t = which >= 0n && which < BigInt(alternatives.length) ? alternatives[Number(which)] : undefined;
    if (!t) {
      // as_uint64 has already wrapped a negative tag to its two's complement, as fc prints it
      throw new RpcError(assertError("static_cast<size_t>(tag) < count(): Unable to set tag '${tag}' when the number of supported tags is ${count}", { tag: u64(which), count: alternatives.length }));
    }
    return [which, t, value];
  };
  return {
    name,
    pack(w, v, path) {
      const [which, t, value] = read(v, path);
      w.varint(which);
      t.pack(w, value, `${path}[1]`);
    },
    json(v, path) {
      const [which, t, value] = read(v, path);
      return [Number(which), t.json(value, `${path}[1]`)];
    },
    // fc's static_variant operator< compares which() alone: a set of them holds one of each alternative.
    ...(ordered ? { sortKey: (v: unknown, path: string) => read(v, path)[0] } : {}),
    zero,
  };
}

/**
 * A type that refers to itself through others (restriction holds restrictions, proposal_create holds
 * operations): resolved when first used, after every type is defined.
 */
export function lazy(name: string, get: () => Type): Type {
  return {
    name,
    pack: (w, v, path) => get().pack(w, v, path),
    json: (v, path) => get().json(v, path),
    get zero() {
      return get().zero;
    },
  };
}

/**
 * std::pair<A,B>: packed as A then B (raw.hpp); JSON `[a, b]`, and fc's from_variant reads the
 * elements the array has, leaving the others at their defaults (variant.hpp).
 */
export function pair(a: Type, b: Type): Type {
  const items = (v: unknown, path: string): [unknown, unknown] => {
    const arr = expectArray(v, path);
    return [arr.length > 0 ? arr[0] : a.zero, arr.length > 1 ? arr[1] : b.zero];
  };
  return {
    name: `pair<${a.name},${b.name}>`,
    pack(w, v, path) {
      const [x, y] = items(v, path);
      a.pack(w, x, `${path}[0]`);
      b.pack(w, y, `${path}[1]`);
    },
    json(v, path) {
      const [x, y] = items(v, path);
      return [a.json(x, `${path}[0]`), b.json(y, `${path}[1]`)];
    },
    zero: [a.zero, b.zero],
  };
}

/**
 * extensions_type = future_extensions::flat_set_type, future_extensions = static_variant<void_t>
 * (protocol/base.hpp): a flat_set ordered by `which`, so it holds at most one `[0, {}]`. Every chain
 * object so far has it empty, `[]` → one 0x00 byte; Core reads `[[0, {}]]` (or `[[0]]`, the default
 * alternative) as one void_t, packs it as 0x01 0x00 and writes it back, and so does this.
 */
export const futureExtensions: Type = {
  ...flatSet(staticVariant('future_extensions', [emptyStruct('void_t')], true)),
  name: 'extensions',
  mayBeAbsent: true,
};

/**
 * extension<T> (protocol/ext.hpp): a struct of optional fields, packed as the varint count of the
 * fields that are set, then for each set field its varint index in T's reflection and its value.
 * JSON is an object with the set fields only; ext.hpp's from_variant also accepts null and `[]` as
 * empty, and refuses unknown keys ("unrecognized extension").
 */
export function extension(name: string, fields: ReadonlyArray<readonly [string, Type]>): Type {
  return {
    name,
    mayBeAbsent: true,
    pack(w, v, path) {
      if (v === undefined || v === null) {
        w.varint(0);
        return;
      }
      if (Array.isArray(v)) {
        if (v.length !== 0) throw new RpcError(assertError('var.size() == 0: '));
        w.varint(0);
        return;
      }
      if (!isObject(v)) throw notObject(v);
      const known = new Set(fields.map(([f]) => f));
      // graphene_extension_from_variant_visitor counts the keys it used; any left is unrecognized
      if (Object.keys(v).some((k) => !known.has(k))) throw new RpcError(assertError('vtor.count_left == 0: '));
      const set = fields.map(([f, t], i) => [f, t, i] as const).filter(([f]) => v[f] !== undefined && v[f] !== null);
      w.varint(set.length);
      for (const [f, t, i] of set) {
        w.varint(i);
        t.pack(w, v[f], `${path}.${f}`);
      }
    },
    json(v, path) {
      const out: Record<string, unknown> = {};
      if (v === undefined || v === null) return out;
      if (Array.isArray(v)) {
        if (v.length !== 0) throw new RpcError(assertError('var.size() == 0: '));
        return out;
      }
      if (!isObject(v)) throw notObject(v);
      const known = new Set(fields.map(([f]) => f));
      if (Object.keys(v).some((k) => !known.has(k))) throw new RpcError(assertError('vtor.count_left == 0: '));
      for (const [f, t] of fields) if (v[f] !== undefined && v[f] !== null) out[f] = t.json(v[f], `${path}.${f}`);
      return out;
    },
    zero: {},
  };
}
