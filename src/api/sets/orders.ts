// orders_api (reference §4). Method table; the handlers are in workers/handlers/orders.ts.
import { defineApiSet } from '../types.js';

export const ordersApi = defineApiSet({
  name: 'orders',
  accessName: 'orders_api',
  runsIn: 'pool',
  methods: {},
});
