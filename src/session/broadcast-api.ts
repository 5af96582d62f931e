// network_broadcast_api handlers (api.cpp): hand a transaction to the block producer. Errors in the
// transaction come back as fc errors that say what is wrong.
import { RpcError, assertError } from '../errors.js';
import { asUint64 } from '../api/params.js';
import type { LocalHandler } from '../dispatch/dispatcher.js';
import type { Session } from './session.js';

const where = (method: string) => ({ file: 'network_broadcast_api', method });

/** Callbacks need a connection that lives on: over HTTP they are refused. */
export function requireWebSocket(s: Session, method: string): void {
  if (s.transport !== 'ws') {
    throw new RpcError(assertError('is_websocket: ${method} needs a WebSocket connection: its notices cannot be delivered over HTTP', { method }, where(method)));
  }
}

export const broadcastHandlers: Readonly<Record<string, LocalHandler>> = {
  broadcast_transaction(s, [trx]) {
    s.deps.producer.push(trx);
    return null;
  },

  broadcast_transaction_with_callback(s, [cb, trx]) {
    requireWebSocket(s, 'broadcast_transaction_with_callback');
    const callbackId = asUint64(cb);
    const id = s.deps.producer.push(trx);
    // The notice goes through the session's ordered queue, so it never precedes this reply.
    // A dropped transaction gets no notice, as in Core: its callback is simply never called.
    s.deps.confirmations.wait(id, s.confirmationWaiter((c) => ('dropped' in c ? undefined : s.notice(callbackId, JSON.stringify(c)))));
    return null;
  },

  async broadcast_transaction_synchronous(s, [trx]) {
    const id = s.deps.producer.push(trx);
    // Core waits without a timeout; a transaction that can no longer make it into a block (it
    // expired while pending) is answered with the reason instead of never.
    return new Promise((resolve, reject) =>
      s.deps.confirmations.wait(
        id,
        s.confirmationWaiter((c) =>
          'dropped' in c ? reject(new RpcError(assertError('false: ${reason}', { reason: c.dropped }, where('broadcast_transaction_synchronous')))) : resolve(c),
        ),
      ),
    );
  },

  broadcast_block() {
    throw new RpcError(assertError('false: broadcast_block is not supported: this node produces its own blocks and has no P2P network', {}, where('broadcast_block')));
  },
};

