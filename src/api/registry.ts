// All API sets by getter name. Built once at start-up; a duplicate set name is a programming error
// and stops the node before it listens.
import type { ApiSetSpec } from './types.js';
import { databaseApi } from './sets/database.js';
import { historyApi } from './sets/history.js';
import { networkNodeApi } from './sets/network-node.js';
import { networkBroadcastApi } from './sets/network-broadcast.js';
import { debugApi } from './sets/debug.js';
import { blockApi } from './sets/block.js';
import { assetApi } from './sets/asset.js';
import { cryptoApi } from './sets/crypto.js';
import { ordersApi } from './sets/orders.js';

/** Every API set but login, keyed by getter name (the pool serves those with runsIn 'pool'). */
export const API_SETS: readonly ApiSetSpec[] = [databaseApi, historyApi, networkNodeApi, blockApi, networkBroadcastApi, cryptoApi, assetApi, ordersApi, debugApi];

export function buildRegistry(sets: readonly ApiSetSpec[]): ReadonlyMap<string, ApiSetSpec> {
  const out = new Map<string, ApiSetSpec>();
  for (const s of sets) {
    if (out.has(s.name)) throw new Error(`API set '${s.name}' is registered twice`);
    out.set(s.name, s);
  }
  return out;
}
