// The decode layer: the message text becomes a request (fc's envelope checks, reference §3.5). A
// message that is not a valid request ends here, answered with its id if that could be read (else
// `"id":null`); a client's reply to a server call ends here unanswered.
//
// A large message (the transport hands it over as bytes, READ_IN_POOL_FROM_BYTES or more) is read in
// the worker pool instead, as a heavy task in its connection's share (src/protocol/read-in-pool.ts):
// reading costs in proportion to size, and on the front end's thread every other call waits for it.
import type { Config } from '../config.js';
import { parseInbound, type Inbound } from '../protocol/jsonrpc.js';
import { READ_METHOD, READ_SET, takeReadAnswer, type ReadAnswer } from '../protocol/read-in-pool.js';
import { requestBuffers } from '../protocol/request-buffers.js';
import type { PoolAnswer } from '../protocol/thread-messages.js';
import type { Scheduler } from '../pool/scheduler.js';
import type { CallStats } from '../metrics/calls.js';
import { RPC, protocolError } from '../errors.js';
import type { Call, Layer, Next, Step } from './types.js';

/**
 * `dropped` counts large requests whose connection closed before they were read (the node's
 * graphene_rpc_requests_dropped_unread_total, as for those that wait their turn in the transport).
 */
export function decode(config: Pick<Config, 'maxJsonDepth' | 'callBudgetMs'>, scheduler: Scheduler, stats: Pick<CallStats, 'readInPool'>, dropped: { n: number } = { n: 0 }): Layer {
  /** The call goes on with what reading it gave. */
  const decoded = (call: Call, inbound: Inbound | ReadAnswer, next: Next): Step => {
    if (inbound.kind === 'ignore') {
      call.outcome = { kind: 'ignore' };
      return;
    }
    if (inbound.kind === 'invalid') {
      call.outcome = inbound;
      // The same code as any unreadable message: only the message tells the depth limit.
      if (inbound.error.message === RPC.TOO_DEEP.message) call.limit = 'max-json-depth';
      return;
    }
    call.request = inbound.request;
    return next(call);
  };

  const readInPool = (call: Call, bytes: Uint8Array, next: Next): Promise<void> => {
    const { session } = call;
    // Reading counts against the call's budget, as a wait for a worker does.
    const budgetMs = session.limits.callBudgetMs ?? config.callBudgetMs;
    const deadline = Date.now() + budgetMs - (performance.now() - call.arrived);
    stats.readInPool++;
    return new Promise<PoolAnswer>((resolve) =>
      scheduler.queue(session, 'heavy', { set: READ_SET, method: READ_METHOD, params: [bytes, config.maxJsonDepth], deadline, budgetMs }, resolve, call.arrived),
    ).then((answer) => {
      if (answer instanceof Uint8Array) {
        const step = decoded(call, takeReadAnswer(answer), next);
        // Read: its bytes are needed no more (the call carries what was read), and their buffer
        // goes to the next large request. One not read (refused) may be read for its id on shutdown.
        if (call.request) requestBuffers.release(bytes);
        return step;
      }
      if ('error' in answer && answer.error.code === RPC.CALL_CANCELLED.code) {
        // Its connection closed first: never read, never run, and nobody to answer.
        dropped.n++;
        call.outcome = { kind: 'ignore' };
        return;
      }
      // Not read (the node's queue is full, or it waited past its budget): its
      // id is not known, so it is answered as an unreadable message is, with `"id":null`.
      call.outcome = { kind: 'invalid', error: 'error' in answer ? answer.error : protocolError(RPC.INTERNAL) };
    });
  };

  return (call, next) => {
    if (call.bytes) return readInPool(call, call.bytes, next);
    return decoded(call, parseInbound(call.text, config.maxJsonDepth), next);
  };
}
