// network_broadcast_api handlers (api.cpp): hand a transaction to the block producer. Errors in the
// transaction come back as fc errors that say what is wrong.
import { RpcError, assertError } from '../errors.js';
import { asUint64 } from '../api/params.js';
import type { networkBroadcastApi } from '../api/sets/network-broadcast.js';
import type { HandlerTable } from '../api/types.js';
import type { Session } from '../session/session.js';
import { noticeText } from '../subscriptions/hub.js';
import type { Confirmations, Waiter } from './confirmations.js';
import type { FrontHandler } from './types.js';

const where = (method: string) => ({ file: 'network_broadcast_api', method });

/** Callbacks need a connection that lives on: over HTTP they are refused. */
export function requireWebSocket(s: Session, method: string, file = 'network_broadcast_api'): void {
  if (s.transport !== 'ws') {
    throw new RpcError(assertError('is_websocket: ${method} needs a WebSocket connection: its notices cannot be delivered over HTTP', { method }, { file, method }));
  }
}

/** Waits for a transaction on behalf of a session: the waiter is forgotten if the session closes first. */
function waitFor(confirmations: Confirmations, s: Session, txid: string, fn: Waiter): void {
  const w: Waiter = (c) => {
    cancel();
    fn(c);
  };
  const cancel = s.onClose(() => confirmations.drop(w));
  confirmations.wait(txid, w);
}

export const broadcastHandlers = {
  async broadcast_transaction({ services }, [trx]) {
    await services.writer.push(trx);
    return null;
  },

  async broadcast_transaction_with_callback({ session, services }, [cb, trx]) {
    requireWebSocket(session, 'broadcast_transaction_with_callback');
    const callbackId = asUint64(cb);
    const id = await services.writer.push(trx);
    // The notice goes through the session's ordered queue, so it never precedes this reply.
    // A dropped transaction gets no notice, as in Core: its callback is simply never called.
    waitFor(services.confirmations, session, id, (c) => {
      if (!('dropped' in c)) session.sendNotice(noticeText(callbackId, JSON.stringify(c)));
    });
    return null;
  },

  async broadcast_transaction_synchronous({ session, services }, [trx]) {
    const id = await services.writer.push(trx);
    // Core waits without a timeout; a transaction that can no longer make it into a block (it
    // expired while pending) is answered with the reason instead of never.
    return new Promise((resolve, reject) =>
      waitFor(services.confirmations, session, id, (c) =>
        'dropped' in c
          ? reject(new RpcError(c.error ?? assertError('false: ${reason}', { reason: c.dropped }, where('broadcast_transaction_synchronous'))))
          : resolve(c),
      ),
    );
  },

  broadcast_block() {
    throw new RpcError(assertError('false: broadcast_block is not supported: this node produces its own blocks and has no P2P network', {}, where('broadcast_block')));
  },
} satisfies HandlerTable<typeof networkBroadcastApi, 'front', FrontHandler>;
