// The subscription functions of database_api (database_api.cpp:172-200, 1366-1390). They change
// the connection's subscription state, so they run in the front end; notices need a WebSocket.
import { RpcError, assertError } from '../errors.js';
import { asOptionalBool, asString, asUint64 } from '../api/params.js';
import type { LocalHandler } from '../dispatch/dispatcher.js';
import { requireWebSocket } from './broadcast-api.js';
import type { Session } from './session.js';

const where = (method: string) => ({ file: 'database_api', method });

const asBool = (v: unknown): boolean => asOptionalBool(v) ?? false;

/** Resolves an asset symbol or id through the pool (the front end does not read the chain itself). */
async function assetId(s: Session, symbolOrId: string): Promise<string> {
  const answer = await s.deps.pool.run({ set: 'database', method: 'get_asset_id_from_string', params: [symbolOrId], head: '' });
  if ('error' in answer) throw new RpcError(answer.error);
  const bytes = answer instanceof Uint8Array ? answer : answer.bytes;
  // head '' and the closing '}': the bytes are the JSON string followed by '}'.
  return JSON.parse(Buffer.from(bytes.subarray(0, bytes.length - 1)).toString('utf8')) as string;
}

const marketKey = (a: string, b: string): string => {
  const n = (id: string) => Number(id.split('.')[2]);
  return n(a) < n(b) ? `${a}:${b}` : `${b}:${a}`;
};

export const subscriptionHandlers: Readonly<Record<string, LocalHandler>> = {
  set_subscribe_callback(s, [cb, notifyRemoveCreate]) {
    requireWebSocket(s, 'set_subscribe_callback');
    const callback = asUint64(cb);
    const all = asBool(notifyRemoveCreate);
    if (all && !s.deps.config.enableSubscribeToAll) {
      throw new RpcError(
        assertError('notify_remove_create == false || _enabled_subscribe_to_all: Subscribing to universal object creation and removal is disallowed in this server.', {}, where('set_subscribe_callback')),
      );
    }
    s.deps.subscriptions.setCallback(s, callback, all);
    return null;
  },

  set_auto_subscription(s, [enable]) {
    requireWebSocket(s, 'set_auto_subscription');
    s.subs.autoSubscription = asBool(enable);
    return null;
  },

  set_pending_transaction_callback(s, [cb]) {
    requireWebSocket(s, 'set_pending_transaction_callback');
    s.deps.subscriptions.setPendingTransactions(s, asUint64(cb));
    return null;
  },

  set_block_applied_callback(s, [cb]) {
    requireWebSocket(s, 'set_block_applied_callback');
    s.deps.subscriptions.setBlockApplied(s, asUint64(cb));
    return null;
  },

  cancel_all_subscriptions(s) {
    requireWebSocket(s, 'cancel_all_subscriptions');
    s.deps.subscriptions.cancelAll(s);
    return null;
  },

  async subscribe_to_market(s, [cb, a, b]) {
    requireWebSocket(s, 'subscribe_to_market');
    const callback = asUint64(cb);
    const [ia, ib] = [await assetId(s, asString(a)), await assetId(s, asString(b))];
    if (ia === ib) throw new RpcError(assertError('asset_a_id != asset_b_id: ', {}, where('subscribe_to_market')));
    // This chain has no markets: the subscription is kept, and never fires.
    s.subs.markets.set(marketKey(ia, ib), callback);
    return null;
  },

  async unsubscribe_from_market(s, [a, b]) {
    requireWebSocket(s, 'unsubscribe_from_market');
    const [ia, ib] = [await assetId(s, asString(a)), await assetId(s, asString(b))];
    s.subs.markets.delete(marketKey(ia, ib));
    return null;
  },
};
