// Routing of one request, as fc's websocket_api does it (reference §3.2):
//  - `call` with [api, method, args]: api is an ID on this connection, or the name of a login API
//    method whose (numeric) result is the ID;
//  - any other method name: a call on API 0 with `params` as the arguments.
// Calls that read or change session or producer state (login, dummy, network_broadcast, debug, and
// the subscription calls of the database set) run here; every chain read goes to the pool, which
// returns the finished reply bytes.

import { ASSERT, FC, RPC, RpcError, assertError, fcError, httpStatusFor, methodNotFound, protocolError, toWireError, type WireError } from '../errors.js';
import { errorReply, resultPrefix, type RpcRequest } from '../protocol/jsonrpc.js';
import { requiredArgs, type ApiSetSpec } from '../api/types.js';
import { dummyApi, loginApiCurrent, loginApiLegacy } from '../api/sets/login.js';
import { currentLoginHandlers, dummyHandlers, legacyLoginHandlers } from '../session/login-api.js';
import type { Reply, Session } from '../session/session.js';

/** A front-end handler: returns the result's JSON value (or a promise of it). */
export type LocalHandler = (s: Session, args: unknown[], req: RpcRequest) => unknown;

interface Target {
  readonly spec: ApiSetSpec;
  /** handlers that run in the front end; methods without one go to the pool */
  readonly local?: Readonly<Record<string, LocalHandler>>;
}

function targetFor(s: Session, setName: string): Target | undefined {
  if (setName === 'login') {
    return s.deps.config.loginApiVariant === 'legacy'
      ? { spec: loginApiLegacy, local: legacyLoginHandlers }
      : { spec: loginApiCurrent, local: currentLoginHandlers };
  }
  if (setName === 'dummy') return { spec: dummyApi, local: dummyHandlers };
  const spec = s.deps.poolSets.get(setName);
  return spec ? { spec, local: s.deps.localHandlers.get(setName) } : undefined;
}

/** `variant::as_uint64` for an API id: numbers, booleans and null (→ 0); anything else is a bad cast. */
function apiIdFrom(v: unknown): number {
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isFinite(v)) return v < 0 ? Number.MAX_SAFE_INTEGER : Math.trunc(v);
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to uint64', { type: Array.isArray(v) ? 'array' : typeof v }));
}

function methodNameFrom(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to string', { type: Array.isArray(v) ? 'array' : typeof v }));
}

type Outcome = { json: string } | { bytes: Uint8Array } | { error: WireError };

/** database_api calls that subscribe to what they return, and the position of their `subscribe` flag. */
const SUBSCRIBING: Readonly<Record<string, number>> = { get_objects: 1, get_accounts: 1, get_full_accounts: 1, lookup_accounts: 2, get_assets: 1 };

/** Whether this call subscribes its session (Core's get_whether_to_subscribe). */
function subscribes(s: Session, set: string, method: string, args: unknown[]): boolean {
  if (set !== 'database' || s.subs.callback === undefined) return false;
  const at = SUBSCRIBING[method];
  if (at === undefined) return false;
  const flag = args[at];
  return s.subs.wants(flag === undefined || flag === null ? undefined : Boolean(flag));
}

/** Runs a login-API method by name with no arguments and reads its result as an API ID. */
function resolveNamedApi(s: Session, name: string): number {
  const outcome = invokeLocal(s, 1, name, []);
  if ('error' in outcome) throw new RpcError(outcome.error);
  if (!('json' in outcome)) throw new RpcError(protocolError(RPC.INTERNAL));
  return apiIdFrom(JSON.parse(outcome.json));
}

function lookup(s: Session, apiId: number, method: string, args: unknown[]): { target: Target } | { error: WireError } {
  const setName = s.apis[apiId];
  const target = setName === undefined ? undefined : targetFor(s, setName);
  if (!target) return { error: assertError(ASSERT.UNKNOWN_API_ID, {}, { method: 'receive_call' }) };
  const spec = target.spec.methods[method];
  if (!spec) return { error: methodNotFound(method, Object.keys(target.spec.methods), { file: target.spec.accessName }) };
  if (args.length < requiredArgs(spec)) return { error: assertError(ASSERT.TOO_FEW_ARGS, {}, { file: target.spec.accessName, method }) };
  return { target };
}

function invokeLocal(s: Session, apiId: number, method: string, args: unknown[]): Outcome {
  const found = lookup(s, apiId, method, args);
  if ('error' in found) return found;
  const handler = found.target.local?.[method];
  if (!handler) return { error: protocolError(RPC.INTERNAL) };
  try {
    const result = handler(s, args, { id: 0, wantsReply: false, jsonrpc: false, method, params: args });
    return { json: JSON.stringify(result === undefined ? null : result) };
  } catch (err) {
    return { error: toWireError(err) };
  }
}

async function invoke(s: Session, req: RpcRequest, apiId: number, method: string, args: unknown[]): Promise<Outcome> {
  const found = lookup(s, apiId, method, args);
  if ('error' in found) return found;
  const { target } = found;
  const local = target.local?.[method];
  if (local) {
    try {
      const result = await local(s, args, req);
      return { json: JSON.stringify(result === undefined ? null : result) };
    } catch (err) {
      return { error: toWireError(err) };
    }
  }
  if (target.spec.runsIn === 'main' || target.spec.methods[method]?.runsIn === 'main') return { error: protocolError(RPC.INTERNAL) };
  const subscribe = subscribes(s, target.spec.name, method, args);
  const answer = await s.deps.pool.run({ set: target.spec.name, method, params: args, head: resultPrefix(req), subscribe });
  if (answer instanceof Uint8Array) return { bytes: answer };
  if ('error' in answer) return answer;
  // Registered before the reply is queued: notices for these objects follow the reply.
  s.deps.subscriptions.subscribeIds(s, answer.subscriptions.ids);
  s.deps.subscriptions.subscribeAccounts(s, answer.subscriptions.accounts, s.deps.config.apiLimits.api_limit_get_full_accounts_subscribe);
  return { bytes: answer.bytes };
}

async function route(s: Session, req: RpcRequest): Promise<Outcome> {
  if (req.method !== 'call') return invoke(s, req, 0, req.method, req.params);
  const p = req.params;
  if (p.length !== 3 || !Array.isArray(p[2])) return { error: assertError(ASSERT.CALL_SHAPE, {}, { method: 'call' }) };
  try {
    const apiId = typeof p[0] === 'string' ? resolveNamedApi(s, p[0]) : apiIdFrom(p[0]);
    return await invoke(s, req, apiId, methodNameFrom(p[1]), p[2]);
  } catch (err) {
    return { error: toWireError(err) };
  }
}

/** Answers one request. Never rejects. */
export async function dispatch(s: Session, req: RpcRequest): Promise<Reply> {
  let outcome: Outcome;
  try {
    outcome = await route(s, req);
  } catch (err) {
    s.log.error({ err, method: req.method }, 'call failed');
    outcome = { error: protocolError(RPC.INTERNAL) };
  }
  if ('error' in outcome) {
    // Notifications get no reply, except internal errors, which fc always returns.
    if (!req.wantsReply && outcome.error.code !== RPC.INTERNAL.code) return null;
    return { body: errorReply(req, outcome.error), status: httpStatusFor(outcome.error) };
  }
  if (!req.wantsReply) return null;
  if ('bytes' in outcome) return { body: outcome.bytes, status: 200 };
  return { body: `${resultPrefix(req)}${outcome.json}}`, status: 200 };
}
