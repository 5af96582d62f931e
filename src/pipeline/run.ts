// The run layer: the call's handler runs, in the front end or in the worker pool, as its set's table
// says. Front-end handlers return a JSON value; the pool returns finished reply bytes, which are
// passed on without being parsed. What a pool call subscribed its session to comes back as plain
// ids and is registered before the reply is queued, so notices about those objects follow the reply.
import { resultPrefix } from '../protocol/jsonrpc.js';
import type { Scheduler } from '../pool/scheduler.js';
import type { PoolAnswer, PoolTask } from '../protocol/thread-messages.js';
import type { Target } from '../dispatch/route.js';
import { handlerIn, type FrontTables } from '../api/registry.js';
import type { FrontHandler, Services } from '../handlers/types.js';
import { callSubscribes } from '../subscriptions/hub.js';
import { failure } from './failure.js';
import { packedPositions, unpackArgs } from '../protocol/read-in-pool.js';
import type { Call, Next, Step } from './types.js';

export interface FrontRunner {
  /** Runs a front-end method at once and returns its JSON value (the call form's named API). */
  callNow(call: Call, target: Target): unknown;
}

export interface Runner extends FrontRunner {
  readonly run: Next;
}

export function runner(front: FrontTables<FrontHandler>, scheduler: Scheduler, services: Services): Runner {
  const handlerOf = (t: Target): FrontHandler | undefined => handlerIn<FrontHandler>(front, t.setKey, t.method);

  const callNow = (call: Call, t: Target): unknown => {
    const handler = handlerOf(t);
    // The registry types make this unreachable; if it happens, it is our fault, and it is logged.
    if (!handler) throw new Error(`no front-end handler for ${t.setKey}.${t.method}`);
    const result = handler({ session: call.session, request: { id: 0, wantsReply: false, jsonrpc: false, method: t.method, params: t.args }, services }, t.args);
    return result === undefined ? null : result;
  };

  const runFront = (call: Call, t: Target): Step => {
    const handler = handlerOf(t);
    if (!handler) {
      call.outcome = { kind: 'error', error: failure(call, new Error(`no front-end handler for ${t.setKey}.${t.method}`)) };
      return;
    }
    // A front-end handler reads its arguments: a large request's packed ones are unpacked here (in
    // place: the request's params hold the same list). Rare: the login, broadcast and debug sets.
    if (call.bytes) unpackArgs(t.args);
    const settle = (result: unknown) => {
      call.outcome = { kind: 'result', json: JSON.stringify(result === undefined ? null : result) };
    };
    const fail = (err: unknown) => {
      call.outcome = { kind: 'error', error: failure(call, err) };
    };
    try {
      const result = handler({ session: call.session, request: call.request!, services }, t.args);
      if (result instanceof Promise) return result.then(settle).catch(fail);
      settle(result);
    } catch (err) {
      fail(err);
    }
  };

  const runInPool = (call: Call, t: Target): Promise<void> => {
    const { session } = call;
    const subscribe = callSubscribes(session.subs, t.setKey, t.method, t.args);
    // The budget counts from the call's arrival, so time spent waiting for a worker counts too.
    // The access entry's call_budget_ms, for sessions logged in under one that has it.
    const budgetMs = session.limits.callBudgetMs ?? services.config.callBudgetMs;
    const deadline = Date.now() + budgetMs - (performance.now() - call.arrived);
    // `subscribe` only when true: most calls do not, and every field crosses to the worker.
    // A large request's packed arguments cross to the worker as they came from the one that read it.
    const packed = call.bytes ? packedPositions(t.args) : undefined;
    const task: PoolTask = packed
      ? { set: t.setKey, method: t.method, params: t.args, head: resultPrefix(call.request!), subscribe, deadline, budgetMs, packed }
      : subscribe
        ? { set: t.setKey, method: t.method, params: t.args, head: resultPrefix(call.request!), subscribe, deadline, budgetMs }
        : { set: t.setKey, method: t.method, params: t.args, head: resultPrefix(call.request!), deadline, budgetMs };
    return new Promise<void>((resolve, reject) =>
      scheduler.queue(session, call.cost ?? 'light', task, (answer) => {
        try {
          settlePool(call, t, answer);
          resolve();
        } catch (err) {
          reject(err);
        }
      }, call.arrived),
    );
  };

  /** A pool call's answer as its outcome; what it subscribed its session to is registered first. */
  const settlePool = (call: Call, t: Target, answer: PoolAnswer): void => {
    if (answer instanceof Uint8Array) {
      call.outcome = { kind: 'reply', bytes: answer };
    } else if ('error' in answer) {
      call.outcome = { kind: 'error', error: answer.error };
    } else {
      const { session } = call;
      const { config, subscriptions } = services;
      const objectLimit = config.maxSubscribedObjectsPerConnection;
      // Over a cap the call still answers in full (Core's rule for accounts): what is left out is
      // counted in the metrics, and logged once per session.
      const leftOut =
        subscriptions.subscribeIds(session, answer.subscriptions.ids, objectLimit) +
        subscriptions.subscribeAccounts(session, answer.subscriptions.accounts, config.apiLimits.api_limit_get_full_accounts_subscribe, objectLimit);
      if (leftOut > 0 && !session.subs.capLogged) {
        session.subs.capLogged = true;
        session.log.info({ method: t.method, leftOut, objects: session.subs.ids.size, accounts: session.subs.accounts.size }, 'subscription cap reached: further objects or accounts are not subscribed');
      }
      call.outcome = { kind: 'reply', bytes: answer.bytes };
    }
  };

  return {
    callNow,
    run: (call) => (call.target!.runsIn === 'front' ? runFront(call, call.target!) : runInPool(call, call.target!)),
  };
}
