// The one registry of API sets, for both sides of the pool. Each set is declared once (its table in
// sets/), keyed by the name a session's API-ID table holds. The handler tables of the front end
// (src/handlers) and of the workers (workers/handlers) are typed against it with `FrontTables` and
// `PoolTables`: a set or method that is misspelt, missing, or on the wrong side is a compile error.
//
// Leaf module: workers import it, so it imports only the set tables.
import type { ApiSetSpec, HandlerTable, MethodsIn, RunsIn } from './types.js';
import { databaseApi } from './sets/database.js';
import { historyApi } from './sets/history.js';
import { networkNodeApi } from './sets/network-node.js';
import { networkBroadcastApi } from './sets/network-broadcast.js';
import { debugApi } from './sets/debug.js';
import { blockApi } from './sets/block.js';
import { assetApi } from './sets/asset.js';
import { cryptoApi } from './sets/crypto.js';
import { ordersApi } from './sets/orders.js';
import { customOperationsApi } from './sets/custom-operations.js';
import { depositsApi } from './sets/deposits.js';
import { dummyApi, loginApiCurrent, loginApiLegacy } from './sets/login.js';

/** The sets a login getter hands out, by getter name, in Core's getter order. */
export const GETTER_SETS = {
  block: blockApi,
  network_broadcast: networkBroadcastApi,
  database: databaseApi,
  history: historyApi,
  network_node: networkNodeApi,
  crypto: cryptoApi,
  asset: assetApi,
  orders: ordersApi,
  debug: debugApi,
  custom_operations: customOperationsApi,
  deposits: depositsApi,
} as const;

/**
 * Every set by its key. `login` is the current login API and `login_legacy` the one of Core <= 6.0;
 * a node serves one of them under the name `login` (--login-api-variant). `dummy` is what ID 0 is for
 * a session that may not use the database API.
 */
export const API_SETS = {
  ...GETTER_SETS,
  login: loginApiCurrent,
  login_legacy: loginApiLegacy,
  dummy: dummyApi,
} as const;

export type SetKey = keyof typeof API_SETS;
type SetOf<K extends SetKey> = (typeof API_SETS)[K];

/** Set keys with at least one method on side `W`. */
type KeysWith<W extends RunsIn> = { [K in SetKey]: [MethodsIn<SetOf<K>, W>] extends [never] ? never : K }[SetKey];

/** The front end's handler tables: one per set with front-end methods, each covering exactly those. */
export type FrontTables<H> = { readonly [K in KeysWith<'front'>]: HandlerTable<SetOf<K>, 'front', H> };
/** The workers' handler tables: one per set with pool methods, each covering exactly those. */
export type PoolTables<H> = { readonly [K in KeysWith<'pool'>]: HandlerTable<SetOf<K>, 'pool', H> };

/**
 * A handler by the set and method names a call carries, from tables typed with FrontTables or
 * PoolTables. The names come from clients (or across a thread), so only own properties count: a
 * method called "constructor" finds nothing.
 */
export function handlerIn<H>(tables: object, set: string, method: string): H | undefined {
  const byName = tables as Readonly<Record<string, Readonly<Record<string, H>>>>;
  const table = Object.hasOwn(byName, set) ? byName[set] : undefined;
  return table && Object.hasOwn(table, method) ? table[method] : undefined;
}

/** The set a session's API-ID table entry names, for this node's login variant. */
export function setFor(name: string, loginVariant: 'current' | 'legacy'): ApiSetSpec | undefined {
  if (name === 'login') return loginVariant === 'legacy' ? API_SETS.login_legacy : API_SETS.login;
  if (name === 'login_legacy' || !Object.hasOwn(API_SETS, name)) return undefined;
  return API_SETS[name as SetKey];
}

/** Refuses a registry whose set names collide; run once at start-up, before the node listens. */
export function checkRegistry(sets: Readonly<Record<string, ApiSetSpec>> = API_SETS): void {
  const seen = new Map<string, string>();
  for (const [key, set] of Object.entries(sets)) {
    const name = key === 'login_legacy' ? 'login_legacy' : set.name;
    if (name !== key) throw new Error(`API set '${set.name}' is registered under '${key}'`);
    const other = seen.get(set.accessName);
    if (other !== undefined && set.accessName !== 'login_api') throw new Error(`API sets '${other}' and '${key}' share the access name '${set.accessName}'`);
    seen.set(set.accessName, key);
  }
}
