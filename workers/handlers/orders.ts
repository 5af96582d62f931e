// orders_api handlers.
import { ordersApi } from '../../src/api/sets/orders.js';
import type { HandlersFor } from './types.js';

export const ordersHandlers = {} satisfies HandlersFor<typeof ordersApi>;
