// The part of the chain store that operations are evaluated against, and an in-memory overlay of it.
//
// A block is evaluated against the store itself, inside its LMDB write transaction. The producer's
// dry run of a pending transaction is evaluated against overlays instead: one holding the effect of
// every transaction already pending (kept between pushes, dropped when a block is applied), and on
// top of it one for the transaction being tried, merged down only if it applies. So accepting one
// more transaction costs the same however many are pending, and a refused one leaves no trace.

import type { ObjectKey } from './store.js';

/** The operations of an lmdb-js Database that evaluation uses. */
export interface Table<V, K> {
  get(key: K): V | undefined;
  doesExist(key: K): boolean;
  putSync(key: K, value: V): unknown;
  removeSync(key: K): unknown;
}

export interface ObjectTable extends Table<Buffer, ObjectKey> {
  getKeys(range: { start: ObjectKey; end: ObjectKey; reverse?: boolean; limit?: number }): Iterable<ObjectKey>;
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
  };
  return {
    ...tables,
    commit: () => {
      for (const t of Object.values(tables)) t.commit();
    },
  };
}
