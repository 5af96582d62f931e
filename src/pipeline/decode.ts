// The decode layer: the message text becomes a request (fc's envelope checks, reference §3.5). A
// message that is not a valid request ends here, answered with its id if that could be read (else
// `"id":null`); a client's reply to a server call ends here unanswered.
import type { Config } from '../config.js';
import { parseInbound } from '../protocol/jsonrpc.js';
import { RPC } from '../errors.js';
import type { Layer } from './types.js';

export function decode(config: Pick<Config, 'maxJsonDepth'>): Layer {
  return (call, next) => {
    const inbound = parseInbound(call.text, config.maxJsonDepth);
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
}
