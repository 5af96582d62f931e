// The pending state: transactions accepted since the head block, applied to the store itself.
//
// Core applies an accepted transaction at once to its pending state, so that every read sees it
// before the next block, and rewinds that state (its undo session) when a block is applied. This
// node does the same in the store: a pending transaction is applied in its own LMDB write
// transaction, and every value it overwrites or removes is kept in `pending_undo`, in the same
// transaction. Readers (the worker threads) then see pending effects with no extra work on any read,
// and a crash leaves either the transaction with its undo entries or neither.
//
// Before a block is applied the undo log is played back, newest first, inside the block's own write
// transaction, so that the block starts from the head state. After a crash, the node plays back what
// a previous run left before anything reads (Core loses its pending transactions on restart too).

import type { ChainStore, ObjectKey } from './store.js';
import type { StateStore, Table } from './state-store.js';

/** The StateStore tables a transaction writes, by name; the undo log names them so. */
const TABLES = [
  'objects',
  'meta',
  'accountNames',
  'balances',
  'assetHolders',
  'assetSymbols',
  'keyReferences',
  'accountReferences',
  'orderPrices',
  'accountOrders',
  'accountOrderPrices',
  'orderExpirations',
  'balanceOwners',
  'proposalIndex',
  'htlcIndex',
  'governance',
  'bitassetIndex',
] as const satisfies readonly (keyof StateStore)[];
type TableName = (typeof TABLES)[number];

/** One undo entry: the table, the key, and the value before the write (absent: the key was not there). */
type UndoEntry = [table: TableName, key: unknown, before: unknown] | [table: TableName, key: unknown];

type AnyTable = Table<unknown, unknown>;

/** The number the next undo entry is stored under (entries are read back newest first). */
function nextUndoKey(store: ChainStore): number {
  for (const k of store.pendingUndo.getKeys({ reverse: true, limit: 1 })) return k + 1;
  return 0;
}

/**
 * The store as a pending transaction writes it: every write first records the value it replaces.
 * Call it inside the write transaction that applies the transaction.
 */
export function undoRecordingStore(store: ChainStore): StateStore {
  let seq = nextUndoKey(store);
  const wrap = (name: TableName): AnyTable => {
    const base = store[name] as unknown as AnyTable & { getKeys?: unknown };
    const record = (key: unknown): void => {
      const before = base.get(key);
      store.pendingUndo.putSync(seq++, before === undefined ? [name, key] : [name, key, before]);
    };
    const wrapped: AnyTable & Record<string, unknown> = {
      get: (key) => base.get(key),
      doesExist: (key) => base.doesExist(key),
      putSync: (key, value) => {
        record(key);
        return base.putSync(key, value);
      },
      removeSync: (key) => {
        record(key);
        return base.removeSync(key);
      },
    };
    if (typeof base.getKeys === 'function') wrapped.getKeys = (range: unknown) => (base.getKeys as (r: unknown) => unknown).call(base, range);
    return wrapped;
  };
  return Object.fromEntries(TABLES.map((name) => [name, wrap(name)])) as unknown as StateStore;
}

/**
 * Plays the undo log back, newest first, and empties it: the store is the head state again. Call
 * it inside a write transaction. Returns the number of entries played back.
 */
export function rewindPending(store: ChainStore): number {
  let n = 0;
  for (const { key, value } of store.pendingUndo.getRange({ reverse: true })) {
    const [name, k, ...before] = value as UndoEntry;
    const table = store[name] as unknown as AnyTable;
    if (before.length === 0) table.removeSync(k);
    else table.putSync(k, before[0]);
    store.pendingUndo.removeSync(key);
    n++;
  }
  return n;
}

/** True when pending transactions have changed the store since the head block. */
export function hasPendingChanges(store: ChainStore): boolean {
  for (const _ of store.pendingUndo.getKeys({ limit: 1 })) return true;
  return false;
}

/**
 * The next instance of `space.type` as of the head block, without pending transactions (Core's
 * api_helper_indexes answer): the first instance a pending transaction created, when one did.
 * Undefined when pending transactions created none of that type.
 */
export function headNextInstance(store: ChainStore, space: number, type: number): number | undefined {
  let first: number | undefined;
  for (const { value } of store.pendingUndo.getRange({})) {
    const [name, k, ...before] = value as UndoEntry;
    if (name !== 'objects' || before.length !== 0) continue;
    const key = k as ObjectKey;
    if (key[0] === space && key[1] === type && (first === undefined || key[2] < first)) first = key[2];
  }
  return first;
}
