// The record layer: sees every call once it is answered, with its target, outcome and duration. It
// counts the call for the metrics (by API set, method and outcome; its duration; the limit that
// refused it), logs refused calls without letting a flood of them flood the log, and at debug level
// writes the served line. Never the parameters, which may carry a password.
//
// On the hot path it only adds to numbers: the (set, method) series is found in two map lookups
// and made once (src/metrics/calls.ts), and no label object or string is built per call.
import { LogBudget, type Logger } from '../log.js';
import { RPC } from '../errors.js';
import { OUTCOME, type CallStats, type LimitName } from '../metrics/calls.js';
import type { Session } from '../session/session.js';
import type { Call, Layer, Outcome } from './types.js';
import { REFUSAL_LOG_EVERY_MS } from '../tuning.js';

/** Limits whose error code names them (the layers that refuse for the others set `call.limit`). */
const LIMIT_OF_CODE: ReadonlyMap<number, LimitName> = new Map<number, LimitName>([
  [RPC.REQUEST_TOO_BIG.code, 'max-request-bytes'],
  [RPC.SERVER_BUSY.code, 'max-pending-calls-per-connection'],
  [RPC.NODE_BUSY.code, 'max-queued-calls'],
  [RPC.BUDGET_EXCEEDED.code, 'call-budget-ms'],
  [RPC.REPLY_TOO_BIG.code, 'max-reply-bytes'],
  [RPC.RATE_LIMITED.code, 'max-calls-per-second'],
  [RPC.TOO_MANY_CONNECTIONS.code, 'max_connections'],
]);

const errorOf = (o: Outcome) => (o.kind === 'error' || o.kind === 'invalid' ? o.error : undefined);

/** The outcome label of a call no limit refused. */
function outcomeOf(o: Outcome): number {
  switch (o.kind) {
    case 'result':
    case 'reply':
      return OUTCOME.ok;
    case 'invalid':
      return OUTCOME.invalid;
    case 'error':
      if (o.error.code === RPC.INTERNAL.code) return OUTCOME.internal;
      return o.error.code === RPC.CALL_CANCELLED.code ? OUTCOME.cancelled : OUTCOME.error;
    case 'ignore':
      return OUTCOME.error; // not counted: done() returns before
  }
}

const replyBytes = (call: Call): number => {
  const r = call.reply;
  if (!r) return 0;
  return typeof r.body === 'string' ? Buffer.byteLength(r.body) : r.body.byteLength;
};

export function record(log: Logger, stats: CallStats): Layer {
  // A budget per WebSocket connection; HTTP requests (a session each) share one, node-wide.
  const budgets = new WeakMap<Session, LogBudget>();
  const httpBudget = new LogBudget(REFUSAL_LOG_EVERY_MS);

  const budgetOf = (s: Session): LogBudget => {
    if (s.transport === 'http') return httpBudget;
    let b = budgets.get(s);
    if (!b) {
      const budget = (b = new LogBudget(REFUSAL_LOG_EVERY_MS));
      budgets.set(s, budget);
      // What was held back since the last line is said when the connection closes.
      s.onClose(() => {
        const unlogged = budget.drain();
        if (unlogged > 0) s.log.info({ unlogged }, 'calls refused by a limit since the last line');
      });
    }
    return b;
  };

  const refused = (call: Call, limit: LimitName, code: number | undefined) => {
    const s = call.session;
    const unlogged = budgetOf(s).admit(performance.now());
    if (unlogged < 0) return;
    s.log.info(
      {
        limit,
        code,
        api: call.target?.setKey,
        method: call.target?.method,
        // An HTTP request's connection line does not exist: its address goes here.
        address: s.transport === 'http' ? s.address : undefined,
        unlogged,
      },
      'call refused by a limit',
    );
  };

  const done = (call: Call): void => {
    const o = call.outcome;
    // A client's reply to a server call is not a call.
    if (!o || o.kind === 'ignore') return;
    const seconds = (performance.now() - call.arrived) / 1000;
    const t = call.target;
    const series = t ? stats.series(t.set, t.setKey, t.method) : stats.unknown;
    const error = errorOf(o);
    const limit = call.limit ?? (error ? LIMIT_OF_CODE.get(error.code) : undefined);
    series.record(limit ? OUTCOME.limited : outcomeOf(o), seconds);
    if (limit) {
      stats.refusals[limit]++;
      refused(call, limit, error?.code);
    }
    // Checked once per call; a disabled level costs one comparison, not an object per call.
    if (log.isLevelEnabled('debug')) served(log, call, seconds, error?.code);
  };

  return (call, next) => {
    const step = next(call);
    if (step instanceof Promise) return step.then(() => done(call));
    done(call);
  };
}

/**
 * The served line: one per call at debug level, on the node's logger with the connection's id
 * (a pino child per HTTP request would cost more than its call).
 */
function served(log: Logger, call: Call, seconds: number, code: number | undefined): void {
  const s = call.session;
  log.debug(
    {
      conn: s.connId,
      api: call.target?.setKey,
      method: call.target?.method ?? call.request?.method,
      reqId: call.request?.id,
      outcome: call.outcome?.kind,
      code,
      ms: Math.round(seconds * 1e6) / 1000,
      bytes: replyBytes(call),
      address: s.transport === 'http' ? s.address : undefined,
    },
    'served',
  );
}
