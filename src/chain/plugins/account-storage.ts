// BitShares Core's custom_operations plugin (libraries/plugins/custom_operations): account storage
// written through custom_operation (35). The operation itself is evaluated like any other
// (evaluators.ts); once a block is applied, the plugin reads every custom operation of the block
// whose `data` is not empty, in order:
//
//  - `data` is unpacked as `custom_plugin_operation`, a static_variant whose only alternative (0) is
//    account_storage_map { bool remove; string catalog; flat_map<string, optional<string>>
//    key_values } (fc::raw: varint tag, one byte for the bool, varint-length strings, varint count,
//    keys sorted and the first of equal ones kept). Bytes after it are not read. The `id` field of
//    the operation is not looked at;
//  - account_storage_map::validate: 0 < catalog length <= 200 bytes;
//  - custom_generic_evaluator::do_apply for the payer (`fee_payer()`): with `remove`, each listed key
//    of the catalog that exists is removed; otherwise each key longer than 200 bytes is skipped, and
//    each other one is created, or has its value replaced, with the value read by fc::json::from_string
//    (fc-json-reader.ts) or no value for a null one.
//
// Whatever fails is ignored, as the plugin ignores it ("only api node will know if the unpack,
// validate or apply fails"): a payload that does not unpack or validate changes nothing; a value that
// is not JSON to fc (parse_error_exception) skips its key alone; and a value whose text ends early
// (eof_exception, which the evaluator does not catch) stops the operation there, keeping what the
// keys before it did. The operation, its fee and its history are the same in every case.
//
// Core's plugin starts at block 45,000,000 by default (`custom-operations-start-block`, a figure of
// the main chain); this chain's blocks start at 1, so it runs from the first block.
//
// Objects are account_storage_object 7.0.x {id, account, catalog, key, value?}, with Core's indexes
// (custom_objects.hpp) as keys of one sub-database, each led by the index's number:
//   by_account_catalog_key [0, account, catalog, key] → instance (unique)
//   by_account_catalog     [1, account, catalog, instance]
//   by_account             [2, account, instance]
//   by_catalog_key         [3, catalog, key, instance]
//   by_catalog             [4, catalog, instance]
// (by_id is the object store itself). Texts are the hex of their bytes after an `x`, which orders
// them as std::string compares them and keeps an empty key a text.

import type { ObjectKey, StorageIndexKey } from '../store/store.js';
import type { ChainState } from '../store/state.js';
import type { OperationJson } from '../protocol/types.js';
import type { Table } from '../store/state-store.js';
import { readFcJson } from '../fc/fc-json-reader.js';
import { idInstance } from '../fc/object-id.js';

/** CUSTOM_OPERATIONS_MAX_KEY_SIZE (custom_objects.hpp): longest catalog and key, in bytes. */
export const MAX_KEY_SIZE = 200;
/** MAX_ARRAY_ALLOC_SIZE (fc raw_fwd.hpp): a string's length must be below it. */
const MAX_ARRAY_ALLOC_SIZE = 10 * 1024 * 1024;

export const STORAGE_SPACE = 7;
export const STORAGE_TYPE = 0;

export const STORAGE_INDEX = { byAccountCatalogKey: 0, byAccountCatalog: 1, byAccount: 2, byCatalogKey: 3, byCatalog: 4 } as const;

/** A catalog or key as an index element: its bytes in hex after an `x`. */
export const indexText = (bytes: Uint8Array): string => `x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')}`;

/** account_storage_map as unpacked: texts as the bytes they are; a null value as null. */
export interface AccountStorageMap {
  readonly remove: boolean;
  readonly catalog: Uint8Array;
  /** sorted by key bytes, each key once */
  readonly keyValues: readonly (readonly [Uint8Array, Uint8Array | null])[];
}

class UnpackError extends Error {}

/** fc::datastream over the payload, with fc::raw's rules for the types the payload holds. */
class Unpacker {
  private pos = 0;

  constructor(private readonly b: Uint8Array) {}

  private byte(): number {
    if (this.pos >= this.b.length) throw new UnpackError('read datastream of length beyond its end');
    return this.b[this.pos++]!;
  }

  /** unsigned_int: 7 bits a byte, low first; more than 64 bits is "Invalid packed unsigned_int!". */
  varint(): bigint {
    let v = 0n;
    let by = 0;
    let b: number;
    do {
      b = this.byte();
      if (by >= 64 || (by === 63 && b > 1)) throw new UnpackError('Invalid packed unsigned_int!');
      v |= BigInt(b & 0x7f) << BigInt(by);
      by += 7;
    } while (b & 0x80);
    return v;
  }

  /** bool: one byte, 0 or 1 (`FC_ASSERT( (b & ~1) == 0 )`). */
  bool(): boolean {
    const b = this.byte();
    if ((b & ~1) !== 0) throw new UnpackError('(b & ~1) == 0');
    return b === 1;
  }

  /** std::string: a varint length below MAX_ARRAY_ALLOC_SIZE, then that many bytes. */
  string(): Uint8Array {
    const size = this.varint();
    if (!(size < BigInt(MAX_ARRAY_ALLOC_SIZE))) throw new UnpackError('size.value < MAX_ARRAY_ALLOC_SIZE');
    const n = Number(size);
    if (this.pos + n > this.b.length) throw new UnpackError('read datastream of length beyond its end');
    const out = this.b.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);

/**
 * fc::raw::unpack<custom_plugin_operation>(data): the account_storage_map it holds, or undefined when
 * fc would throw (an unknown alternative, a malformed or short field).
 */
export function unpackStorageMap(data: Uint8Array): AccountStorageMap | undefined {
  try {
    const u = new Unpacker(data);
    // static_variant::set_which asserts the tag names an alternative; there is one.
    if (u.varint() !== 0n) return undefined;
    const remove = u.bool();
    const catalog = u.string();
    const count = u.varint();
    const keyValues: [Uint8Array, Uint8Array | null][] = [];
    for (let i = 0n; i < count; i++) {
      const key = u.string();
      const value = u.bool() ? u.string() : null;
      // flat_map::insert: sorted, and a key already there keeps its first value
      let lo = 0;
      let hi = keyValues.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareBytes(keyValues[mid]![0], key) < 0) lo = mid + 1;
        else hi = mid;
      }
      if (lo < keyValues.length && compareBytes(keyValues[lo]![0], key) === 0) continue;
      keyValues.splice(lo, 0, [key, value]);
    }
    return { remove, catalog, keyValues };
  } catch (err) {
    if (err instanceof UnpackError) return undefined;
    throw err;
  }
}

/** fc::raw::pack of a custom_plugin_operation holding `map` (tag 0): what wallets put into `data`. */
export function packStorageMap(map: { remove: boolean; catalog: string; keyValues: readonly (readonly [string, string | null])[] }): Uint8Array {
  const parts: number[] = [0, map.remove ? 1 : 0];
  const varint = (n: number): void => {
    let v = n;
    do {
      let b = v & 0x7f;
      v = Math.floor(v / 128);
      if (v > 0) b |= 0x80;
      parts.push(b);
    } while (v > 0);
  };
  const text = (s: string): void => {
    const bytes = Buffer.from(s, 'utf8');
    varint(bytes.length);
    parts.push(...bytes);
  };
  text(map.catalog);
  varint(map.keyValues.length);
  for (const [k, v] of map.keyValues) {
    text(k);
    if (v === null) parts.push(0);
    else {
      parts.push(1);
      text(v);
    }
  }
  return Uint8Array.from(parts);
}

const utf8 = new TextDecoder('utf-8');
const textJson = (bytes: Uint8Array): string => JSON.stringify(utf8.decode(bytes));

/** account_storage_object as served: FC_REFLECT_DERIVED order, `value` left out when unset. */
function objectJson(id: string, account: number, catalog: Uint8Array, key: Uint8Array, value: string | undefined): string {
  return `{"id":"${id}","account":"1.2.${account}","catalog":${textJson(catalog)},"key":${textJson(key)}${value === undefined ? '' : `,"value":${value}`}}`;
}

/** The index table the plugin writes. */
export type StorageIndex = Table<number, StorageIndexKey>;

/** What the plugin did with one operation, for the node's log. */
export interface StorageOutcome {
  /** why the operation changed nothing or stopped early, as Core's plugin logs it */
  readonly ignored?: string;
  /** keys skipped: too long, or a value that is not JSON to fc */
  readonly skipped: number;
  readonly written: number;
  readonly removed: number;
}

function createObject(state: ChainState, index: StorageIndex, account: number, catalog: Uint8Array, key: Uint8Array, value: string | undefined): void {
  const cat = indexText(catalog);
  const k = indexText(key);
  const { instance } = state.createText(STORAGE_SPACE, STORAGE_TYPE, (id) => objectJson(id, account, catalog, key, value));
  index.putSync([STORAGE_INDEX.byAccountCatalogKey, account, cat, k], instance);
  index.putSync([STORAGE_INDEX.byAccountCatalog, account, cat, instance], 1);
  index.putSync([STORAGE_INDEX.byAccount, account, instance], 1);
  index.putSync([STORAGE_INDEX.byCatalogKey, cat, k, instance], 1);
  index.putSync([STORAGE_INDEX.byCatalog, cat, instance], 1);
}

function removeObject(state: ChainState, index: StorageIndex, account: number, catalog: Uint8Array, key: Uint8Array, instance: number): void {
  const cat = indexText(catalog);
  const k = indexText(key);
  state.remove([STORAGE_SPACE, STORAGE_TYPE, instance]);
  index.removeSync([STORAGE_INDEX.byAccountCatalogKey, account, cat, k]);
  index.removeSync([STORAGE_INDEX.byAccountCatalog, account, cat, instance]);
  index.removeSync([STORAGE_INDEX.byAccount, account, instance]);
  index.removeSync([STORAGE_INDEX.byCatalogKey, cat, k, instance]);
  index.removeSync([STORAGE_INDEX.byCatalog, cat, instance]);
}

/** The plugin's handling of one applied custom_operation (custom_operations_plugin_impl::onBlock). */
export function applyCustomOperation(state: ChainState, index: StorageIndex, op: OperationJson): StorageOutcome | undefined {
  const f = op[1] as { payer: string; data: string };
  if (f.data.length === 0) return undefined;
  const account = idInstance(f.payer);
  const map = unpackStorageMap(Buffer.from(f.data, 'hex'));
  const outcome = { skipped: 0, written: 0, removed: 0 };
  if (!map) return { ...outcome, ignored: 'the data is not a custom_plugin_operation' };
  if (!(map.catalog.length > 0 && map.catalog.length <= MAX_KEY_SIZE)) {
    return { ...outcome, ignored: 'catalog.length() <= CUSTOM_OPERATIONS_MAX_KEY_SIZE && catalog.length() > 0' };
  }
  const cat = indexText(map.catalog);
  for (const [key, value] of map.keyValues) {
    if (map.remove) {
      const found = index.get([STORAGE_INDEX.byAccountCatalogKey, account, cat, indexText(key)]);
      if (found === undefined) continue;
      removeObject(state, index, account, map.catalog, key, found);
      outcome.removed++;
      continue;
    }
    if (key.length > MAX_KEY_SIZE) {
      outcome.skipped++;
      continue;
    }
    let text: string | undefined;
    if (value !== null) {
      const read = readFcJson(value);
      if (!read.ok && read.error === 'eof') return { ...outcome, ignored: `a value ends early (eof_exception: ${read.message}); the keys after it are not applied` };
      if (!read.ok) {
        outcome.skipped++;
        continue;
      }
      text = read.json;
    }
    const found = index.get([STORAGE_INDEX.byAccountCatalogKey, account, cat, indexText(key)]);
    if (found === undefined) createObject(state, index, account, map.catalog, key, text);
    else {
      const id = `${STORAGE_SPACE}.${STORAGE_TYPE}.${found}`;
      const objectKey: ObjectKey = [STORAGE_SPACE, STORAGE_TYPE, found];
      state.get(objectKey);
      state.replaceText(objectKey, objectJson(id, account, map.catalog, key, text));
    }
    outcome.written++;
  }
  return outcome;
}
