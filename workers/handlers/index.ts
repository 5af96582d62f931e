// Every pool-served API set's handler table, by set key. `PoolTables` makes the compiler check this
// against the registry: every set with pool methods has a table here, and nothing else does.
import { handlerIn, type PoolTables } from '../../src/api/registry.js';
import type { Handler } from './types.js';
import { databaseHandlers } from './database/index.js';
import { historyHandlers } from './history.js';
import { networkNodeHandlers } from './network-node.js';
import { blockHandlers } from './block.js';
import { assetHandlers } from './asset.js';
import { cryptoHandlers } from './crypto.js';
import { ordersHandlers } from './orders.js';
import { customOperationsHandlers } from './custom-operations.js';
import { depositsHandlers } from './deposits.js';

export const HANDLERS: PoolTables<Handler> = {
  database: databaseHandlers,
  history: historyHandlers,
  network_node: networkNodeHandlers,
  block: blockHandlers,
  asset: assetHandlers,
  crypto: cryptoHandlers,
  orders: ordersHandlers,
  custom_operations: customOperationsHandlers,
  deposits: depositsHandlers,
};

/** A set's handler for a method, by the names a task carries (checked at run time: they crossed a thread). */
export const handlerFor = (set: string, method: string): Handler | undefined => handlerIn<Handler>(HANDLERS, set, method);
