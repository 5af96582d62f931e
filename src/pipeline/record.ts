// The record layer: sees every call once it is answered, with its target, outcome and duration. This
// is where metrics and the served-log line belong; today it writes the served line at debug level
// (conn, api, method, reqId bindings; never the parameters, which may carry a password).
import type { Logger } from '../log.js';
import { after, type Call, type Layer } from './types.js';

function served(call: Call, log: Logger): void {
  const o = call.outcome;
  log.debug(
    {
      conn: call.session.connId,
      api: call.target?.setKey,
      method: call.target?.method ?? call.request?.method,
      reqId: call.request?.id,
      outcome: o?.kind,
      code: o && 'error' in o ? o.error.code : undefined,
      ms: Math.round((performance.now() - call.arrived) * 1000) / 1000,
    },
    'served',
  );
}

export function record(log: Logger): Layer {
  // Checked once per call; a disabled level costs one comparison, not an object per call.
  return (call, next) => (log.isLevelEnabled('debug') ? after(next(call), () => served(call, log)) : next(call));
}
