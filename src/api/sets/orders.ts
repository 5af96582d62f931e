// orders_api (reference §4.8). Its data comes from the grouped_orders plugin; the handlers in
// workers/handlers/orders.ts answer as Core does with it, from the limit orders in the store.
import { defineApiSet, method, opt, req } from '../types.js';

export const ordersApi = defineApiSet({
  name: 'orders',
  accessName: 'orders_api',
  runsIn: 'pool',
  methods: {
    get_tracked_groups: method(),
    // `start` is an optional<price> in the middle: it cannot be left out, but may be null (reference §4).
    get_grouped_limit_orders: method(req('base_asset'), req('quote_asset'), req('group'), opt('start'), req('limit')),
  },
});
