// The admit layer: limits on what one connection may ask of the node. Today one: a connection may
// have --max-pending-calls-per-connection calls waiting for their replies; the next one is refused
// with -32009 (in its place in the reply order) instead of growing the node's memory.
import type { Config } from '../config.js';
import { RPC, protocolError } from '../errors.js';
import type { Layer } from './types.js';

export function admit(config: Pick<Config, 'maxPendingCallsPerConnection'>): Layer {
  return (call, next) => {
    // `pending` counts this connection's earlier calls only: the session takes this call's place in
    // its reply order after the pipeline has run its synchronous part (see connection.ts).
    if (call.session.pending >= config.maxPendingCallsPerConnection) {
      call.outcome = { kind: 'invalid', error: protocolError(RPC.SERVER_BUSY) };
      return;
    }
    return next(call);
  };
}
