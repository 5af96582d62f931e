// network_broadcast_api (reference §4.3). Runs in the front end: it hands transactions to the block
// producer and answers callbacks on the caller's connection.
import { defineApiSet, method, req } from '../types.js';

export const networkBroadcastApi = defineApiSet({
  name: 'network_broadcast',
  accessName: 'network_broadcast_api',
  runsIn: 'front',
  methods: {
    broadcast_transaction: method(req('trx')),
    broadcast_transaction_with_callback: method(req('cb'), req('trx')),
    broadcast_transaction_synchronous: method(req('trx')),
    broadcast_block: method(req('block')),
  },
});
