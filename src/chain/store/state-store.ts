// The part of the chain store that operations are evaluated against, and an in-memory overlay of it.
//
// A block is evaluated against the store itself, inside its LMDB write transaction. The producer's
// dry run of a pending transaction is evaluated against overlays instead: one holding the effect of
// every transaction already pending (kept between pushes, dropped when a block is applied), and on
// top of it one for the transaction being tried, merged down only if it applies. So accepting one
// more transaction costs the same however many are pending, and a refused one leaves no trace.

import type { GovernanceKey, ObjectKey, OrderPriceKey } from './store.js';

/** The operations of an lmdb-js Database that evaluation uses. */
export interface Table<V, K> {
  get(key: K): V | undefined;
  doesExist(key: K): boolean;
  putSync(key: K, value: V): unknown;
  removeSync(key: K): unknown;
}

export interface KeyRange<K> {
  /** inclusive; the higher bound when `reverse`; a key's prefix bounds all keys it begins */
  readonly start: K | IndexKey;
  /** exclusive; the lower bound when `reverse` */
  readonly end: K | IndexKey;
  readonly reverse?: boolean;
  readonly limit?: number;
}

/** A table whose keys are read in order (lmdb-js `getKeys`, with its bounds). */
export interface RangeTable<V, K> extends Table<V, K> {
  getKeys(range: KeyRange<K>): Iterable<K>;
}

export interface ObjectTable extends Table<Buffer, ObjectKey> {
  getKeys(range: { start: ObjectKey; end: ObjectKey; reverse?: boolean; limit?: number }): Iterable<ObjectKey>;
}

/** A key of the ordered indexes: numbers and (ASCII) texts, compared element by element. */
export type IndexKey = (number | string)[];

/**
 * The order lmdb-js' ordered-binary encoding gives the index keys this chain writes: element by
 * element, numbers by value, texts by their (ASCII) characters, and a key before every longer key
 * it begins (test/market-store.test.ts checks this against LMDB itself).
 */
export function compareIndexKeys(a: IndexKey, b: IndexKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === typeof y) return x < y ? -1 : 1;
    return typeof x === 'number' ? -1 : 1;
  }
  return a.length - b.length;
}

/** What ChainState and the evaluators read and write (a ChainStore is one). */
export interface StateStore {
  readonly objects: ObjectTable;
  readonly meta: Table<string, string>;
  readonly accountNames: Table<number, string>;
  readonly balances: Table<number, [number, number]>;
  readonly assetHolders: Table<number, [number, number]>;
  readonly assetSymbols: Table<number, string>;
  readonly keyReferences: Table<number, [string, number]>;
  readonly accountReferences: Table<number, [number, number]>;
  readonly orderPrices: RangeTable<number, OrderPriceKey>;
  readonly accountOrders: Table<number, [number, number]>;
  readonly accountOrderPrices: Table<number, [number, number, number, string, number]>;
  readonly orderExpirations: RangeTable<number, [number, number]>;
  readonly balanceOwners: Table<number, [string, number, number]>;
  readonly proposalIndex: RangeTable<number, number[]>;
  readonly htlcIndex: RangeTable<number, number[]>;
  readonly governance: RangeTable<number, GovernanceKey>;
  readonly bitassetIndex: RangeTable<number, IndexKey>;
}

/** Writes kept in memory over a base table; `commit` replays them onto the base. */
class OverlayTable<V, K> implements Table<V, K> {
  /** JSON of the key → the key and its value (undefined: removed) */
  protected readonly writes = new Map<string, { key: K; value: V | undefined }>();

  constructor(protected readonly base: Table<V, K>) {}

  get(key: K): V | undefined {
    const w = this.writes.get(JSON.stringify(key));
    return w ? w.value : this.base.get(key);
  }

  doesExist(key: K): boolean {
    const w = this.writes.get(JSON.stringify(key));
    return w ? w.value !== undefined : this.base.doesExist(key);
  }

  putSync(key: K, value: V): void {
    this.writes.set(JSON.stringify(key), { key, value });
  }

  removeSync(key: K): void {
    this.writes.set(JSON.stringify(key), { key, value: undefined });
  }

  commit(): void {
    for (const { key, value } of this.writes.values()) {
      if (value === undefined) this.base.removeSync(key);
      else this.base.putSync(key, value);
    }
    this.writes.clear();
  }
}

/**
 * An overlay whose keys are also read in order: the base's keys in the range, without those this
 * overlay removed, merged with the keys this overlay wrote. The matching engine reads one key at a
 * time (the best opposite order), so the merge is lazy.
 */
class OverlayRangeTable<V, K extends IndexKey> extends OverlayTable<V, K> implements RangeTable<V, K> {
  constructor(protected override readonly base: RangeTable<V, K>) {
    super(base);
  }

  *getKeys(range: KeyRange<K>): Iterable<K> {
    const { start, end, reverse = false, limit = Infinity } = range;
    if (limit <= 0) return;
    const order = (a: IndexKey, b: IndexKey): number => (reverse ? compareIndexKeys(b, a) : compareIndexKeys(a, b));
    const inRange = (k: K): boolean => order(k, start) >= 0 && order(k, end) < 0;
    const mine = [...this.writes.values()].filter((w) => w.value !== undefined && inRange(w.key)).map((w) => w.key);
    mine.sort(order);
    let given = 0;
    let i = 0;
    for (const k of this.base.getKeys({ start, end, reverse })) {
      // A key this overlay wrote is given from `mine` (or not at all, when removed).
      if (this.writes.has(JSON.stringify(k))) continue;
      while (i < mine.length && order(mine[i]!, k) < 0) {
        yield mine[i++]!;
        if (++given >= limit) return;
      }
      yield k;
      if (++given >= limit) return;
    }
    while (i < mine.length) {
      yield mine[i++]!;
      if (++given >= limit) return;
    }
  }
}

class OverlayObjects extends OverlayTable<Buffer, ObjectKey> implements ObjectTable {
  constructor(protected override readonly base: ObjectTable) {
    super(base);
  }

  /**
   * ChainState scans keys only to find the next instance of a type with no stored counter; once an
   * overlay creates an object of a type, it holds that type's counter too, so the base's keys are
   * the answer whenever the question is asked.
   */
  getKeys(range: { start: ObjectKey; end: ObjectKey; reverse?: boolean; limit?: number }): Iterable<ObjectKey> {
    return this.base.getKeys(range);
  }
}

export interface OverlayStore extends StateStore {
  /** Writes everything this overlay holds into its base, and empties it. */
  commit(): void;
}

export function overlayStore(base: StateStore): OverlayStore {
  const tables = {
    objects: new OverlayObjects(base.objects),
    meta: new OverlayTable(base.meta),
    accountNames: new OverlayTable(base.accountNames),
    balances: new OverlayTable(base.balances),
    assetHolders: new OverlayTable(base.assetHolders),
    assetSymbols: new OverlayTable(base.assetSymbols),
    keyReferences: new OverlayTable(base.keyReferences),
    accountReferences: new OverlayTable(base.accountReferences),
    orderPrices: new OverlayRangeTable(base.orderPrices),
    accountOrders: new OverlayTable(base.accountOrders),
    accountOrderPrices: new OverlayTable(base.accountOrderPrices),
    orderExpirations: new OverlayRangeTable(base.orderExpirations),
    balanceOwners: new OverlayTable(base.balanceOwners),
    proposalIndex: new OverlayRangeTable(base.proposalIndex),
    htlcIndex: new OverlayRangeTable(base.htlcIndex),
    governance: new OverlayRangeTable(base.governance),
    bitassetIndex: new OverlayRangeTable(base.bitassetIndex),
  };
  return {
    ...tables,
    commit: () => {
      for (const t of Object.values(tables)) t.commit();
    },
  };
}
