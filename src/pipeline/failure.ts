// The one place where an exception becomes a call's error. An RpcError (or plain wire error data)
// is the call's answer; anything else is a fault of ours: the caller gets -32603 without details,
// and the details go to the log with the call they belong to. Nothing is swallowed silently.
import { RpcError, isWireError, toWireError, type WireError } from '../errors.js';
import type { Call } from './types.js';

export function failure(call: Call, err: unknown): WireError {
  if (!(err instanceof RpcError) && !isWireError(err)) {
    call.session.log.error({ err, api: call.target?.setKey, method: call.target?.method ?? call.request?.method }, 'call failed');
  }
  return toWireError(err);
}
