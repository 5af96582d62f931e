// deposits_api's subscriptions (README "Deposit feed"): subscribe_transfers and unsubscribe_transfers.
// They change the connection's subscription state, so they run in the front end; the pages they send
// are read in the worker pool (src/subscriptions/transfer-feed.ts).
import { ASSERT, RpcError, assertError } from '../errors.js';
import { asArray, asOptionalBool, asString, asUint64 } from '../api/params.js';
import type { depositsApi } from '../api/sets/deposits.js';
import type { HandlerTable } from '../api/types.js';
import type { FrontHandler } from './types.js';
import { requireWebSocket } from './broadcast.js';
import { cutPage } from '../subscriptions/transfer-feed.js';

const FILE = 'deposits_api';

export const depositsHandlers = {
  async subscribe_transfers({ session, services }, [cb, accountsArg, cursor, irreversibleArg]) {
    requireWebSocket(session, 'subscribe_transfers', FILE);
    const callback = asUint64(cb);
    const accounts = asArray(accountsArg);
    const irreversibleOnly = asOptionalBool(irreversibleArg) ?? false;
    const limit = services.config.maxTransferSubscriptionsPerConnection;
    const refused = () => new RpcError(assertError(ASSERT.FEED_SUBSCRIPTIONS, { configured_limit: limit }, { file: FILE, method: 'subscribe_transfers' }));
    // Checked before any read, and again when it is added (another subscribe may have come between).
    if (services.transfers.held(session) >= limit && !services.transfers.holds(session, callback)) throw refused();
    // A page of none checks the accounts and the cursor as get_transfers does (its errors are the
    // reply), and gives the first page's cursor: the caller's, or the one after the head block now.
    const start = cutPage(await services.chain.transferPage(session, [accounts, cursor, 0, irreversibleOnly], accounts.length > 100));
    const instances = await services.chain.accountInstances(accounts.map(asString));
    // Checked by the page above; an account that vanished since (a pending one rolled back) names nothing.
    const known = instances.filter((a): a is number => a !== undefined && Number.isFinite(a));
    if (!services.transfers.subscribe(session, { callback, accounts: known, irreversibleOnly, cursor: start.nextCursor }, limit)) throw refused();
    return null;
  },

  unsubscribe_transfers({ session, services }, [cb]) {
    requireWebSocket(session, 'unsubscribe_transfers', FILE);
    services.transfers.unsubscribe(session, cb === undefined || cb === null ? undefined : asUint64(cb));
    return null;
  },
} satisfies HandlerTable<typeof depositsApi, 'front', FrontHandler>;
