// The subscription functions of database_api (database_api.cpp:172-200, 1366-1390), over the hub of
// src/subscriptions. They change the connection's subscription state, so they run in the front end;
// notices need a WebSocket.
import { RpcError, assertError } from '../errors.js';
import { asOptionalBool, asString, asUint64 } from '../api/params.js';
import type { databaseApi } from '../api/sets/database.js';
import type { HandlerTable } from '../api/types.js';
import type { FrontHandler } from './types.js';
import { requireWebSocket } from './broadcast.js';
import { marketKey } from '../chain/protocol/price.js';
import { idInstance } from '../chain/fc/object-id.js';

const FILE = 'database_api';
const where = (method: string) => ({ file: FILE, method });

const asBool = (v: unknown): boolean => asOptionalBool(v) ?? false;

/** Market subscriptions are kept per unordered pair of asset ids, as the chain names markets. */
const marketOf = (a: string, b: string): string => marketKey(idInstance(a), idInstance(b));

export const subscriptionHandlers = {
  set_subscribe_callback({ session, services }, [cb, notifyRemoveCreate]) {
    requireWebSocket(session, 'set_subscribe_callback');
    const callback = asUint64(cb);
    const all = asBool(notifyRemoveCreate);
    if (all && !services.config.enableSubscribeToAll) {
      throw new RpcError(
        assertError('notify_remove_create == false || _enabled_subscribe_to_all: Subscribing to universal object creation and removal is disallowed in this server.', {}, where('set_subscribe_callback')),
      );
    }
    services.subscriptions.setCallback(session, callback, all);
    return null;
  },

  set_auto_subscription({ session }, [enable]) {
    requireWebSocket(session, 'set_auto_subscription');
    session.subs.autoSubscription = asBool(enable);
    return null;
  },

  set_pending_transaction_callback({ session, services }, [cb]) {
    requireWebSocket(session, 'set_pending_transaction_callback');
    services.subscriptions.setPendingTransactions(session, asUint64(cb));
    return null;
  },

  set_block_applied_callback({ session, services }, [cb]) {
    requireWebSocket(session, 'set_block_applied_callback');
    services.subscriptions.setBlockApplied(session, asUint64(cb));
    return null;
  },

  cancel_all_subscriptions({ session, services }) {
    requireWebSocket(session, 'cancel_all_subscriptions');
    services.subscriptions.cancelAll(session);
    return null;
  },

  async subscribe_to_market({ session, services }, [cb, a, b]) {
    requireWebSocket(session, 'subscribe_to_market');
    const callback = asUint64(cb);
    const [ia, ib] = [await services.chain.assetId(asString(a)), await services.chain.assetId(asString(b))];
    if (ia === ib) throw new RpcError(assertError('asset_a_id != asset_b_id: ', {}, where('subscribe_to_market')));
    // Core has no cap; here one more market than the option allows is refused, as an execution
    // error shaped like Core's own limits, so that the client knows it will hear nothing of it.
    const limit = services.config.maxMarketSubscriptionsPerConnection;
    if (!services.subscriptions.subscribeMarket(session, marketOf(ia, ib), callback, limit)) {
      throw new RpcError(
        assertError(
          '_market_subscriptions.size() < max_market_subscriptions_per_connection: Number of markets one connection subscribes to can not be greater than ${configured_limit} (--max-market-subscriptions-per-connection)',
          { configured_limit: limit },
          where('subscribe_to_market'),
        ),
      );
    }
    return null;
  },

  async unsubscribe_from_market({ session, services }, [a, b]) {
    requireWebSocket(session, 'unsubscribe_from_market');
    const [ia, ib] = [await services.chain.assetId(asString(a)), await services.chain.assetId(asString(b))];
    services.subscriptions.unsubscribeMarket(session, marketOf(ia, ib));
    return null;
  },
} satisfies Omit<HandlerTable<typeof databaseApi, 'front', FrontHandler>, 'validate_transaction'>;
