// Every front-end handler table, by set key. `FrontTables` makes the compiler check this against the
// registry: every set with front-end methods has a table here, each covering exactly those methods.
import type { FrontTables } from '../api/registry.js';
import type { FrontHandler } from './types.js';
import { currentLoginHandlers, dummyHandlers, legacyLoginHandlers } from './login.js';
import { broadcastHandlers } from './broadcast.js';
import { debugHandlers } from './debug.js';
import { networkNodeHandlers } from './network-node.js';
import { subscriptionHandlers } from './subscriptions.js';
import { pendingStateHandlers } from './pending.js';
import { depositsHandlers } from './deposits.js';

export const FRONT_HANDLERS: FrontTables<FrontHandler> = {
  login: currentLoginHandlers,
  login_legacy: legacyLoginHandlers,
  dummy: dummyHandlers,
  network_broadcast: broadcastHandlers,
  debug: debugHandlers,
  network_node: networkNodeHandlers,
  database: { ...subscriptionHandlers, ...pendingStateHandlers },
  deposits: depositsHandlers,
};
