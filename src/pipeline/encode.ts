// The encode layer: the call's outcome becomes the reply the session sends, in fc's envelope:
// `{"id":…,"jsonrpc":"2.0","result":…}` or `…"error":{…}}` with the request's id (also for envelope
// errors, when the id could be read), `"id":null` for messages whose id could not be read, nothing for notifications (except internal errors,
// which fc always returns). It also catches what a layer let escape, so every call is answered.
import { RPC, httpStatusFor, protocolError } from '../errors.js';
import { errorReply, invalidReply, resultPrefix } from '../protocol/jsonrpc.js';
import type { Reply } from '../session/session.js';
import { failure } from './failure.js';
import type { Call, Layer, Step } from './types.js';

function replyFor(call: Call): Reply {
  const o = call.outcome ?? { kind: 'error', error: failure(call, new Error('the call ended without an outcome')) };
  if (o.kind === 'ignore') return null;
  if (o.kind === 'invalid') return { body: o.body ?? invalidReply(o.error, o.to), status: httpStatusFor(o.error) };
  const req = call.request!;
  if (o.kind === 'error') {
    if (!req.wantsReply && o.error.code !== RPC.INTERNAL.code) return null;
    return { body: errorReply(req, o.error), status: httpStatusFor(o.error) };
  }
  if (!req.wantsReply) return null;
  if (o.kind === 'reply') return { body: o.bytes, status: 200 };
  return { body: `${resultPrefix(req)}${o.json}}`, status: 200 };
}

function finish(call: Call): void {
  call.reply = replyFor(call);
}

/** A layer let an exception escape: the call is answered -32603 all the same, and the cause logged. */
function escaped(call: Call, err: unknown): void {
  const error = call.request ? failure(call, err) : protocolError(RPC.INTERNAL);
  if (!call.request) call.session.log.error({ err }, 'message handling failed');
  call.outcome = call.request ? { kind: 'error', error } : { kind: 'invalid', error };
  finish(call);
}

export const encode: Layer = (call, next) => {
  let step: Step;
  try {
    step = next(call);
  } catch (err) {
    return escaped(call, err);
  }
  if (step instanceof Promise) {
    return step.then(
      () => finish(call),
      (err: unknown) => escaped(call, err),
    );
  }
  finish(call);
};
