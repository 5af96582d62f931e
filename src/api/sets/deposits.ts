// deposits_api: the deposit feed, this node's own API set (BitShares Core has none like it). A feed of
// the transfers to and from a list of accounts, in chain order, resumable from a cursor that names a
// chain position (src/chain/plugins/transfer-index.ts; README "Deposit feed"). Pages are read in the worker
// pool; subscriptions change connection state, so they run in the front end.
import { defineApiSet, frontEnd, method, opt, req } from '../types.js';

export const depositsApi = defineApiSet({
  name: 'deposits',
  accessName: 'deposits_api',
  runsIn: 'pool',
  methods: {
    get_transfers: method(req('accounts'), req('cursor'), req('limit'), opt('irreversible_only')),
    subscribe_transfers: frontEnd(req('callback'), req('accounts'), req('cursor'), opt('irreversible_only')),
    // Without a callback: every transfer subscription of the connection.
    unsubscribe_transfers: frontEnd(opt('callback')),
  },
});
