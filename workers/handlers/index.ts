// Every pool-served API set's handler table, by getter name. API sets whose table is empty need no
// entry: the dispatcher answers "Method not found" before a call reaches a worker.
import type { Handler } from './types.js';
import { databaseHandlers } from './database.js';
import { historyHandlers } from './history.js';
import { networkNodeHandlers } from './network-node.js';
import { blockHandlers } from './block.js';
import { assetHandlers } from './asset.js';
import { cryptoHandlers } from './crypto.js';
import { ordersHandlers } from './orders.js';

export const HANDLERS: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  database: databaseHandlers,
  history: historyHandlers,
  network_node: networkNodeHandlers,
  block: blockHandlers,
  asset: assetHandlers,
  crypto: cryptoHandlers,
  orders: ordersHandlers,
};
