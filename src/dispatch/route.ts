// Routing of one request, as fc's websocket_api does it (reference §3.2):
//  - `call` with [api, method, args]: api is an ID in the connection's API-ID table, or the name of a
//    login API method whose (numeric) result is the ID;
//  - any other method name: a call on API 0 with `params` as the arguments.
// The result is the call's target: the set, the method's table entry, its arguments and where it
// runs. Every refusal is thrown as an RpcError carrying Core's error for it.
//
// Pure: it reads the API-ID table it is given and knows nothing of sessions, handlers or the pool.
import { ASSERT, FC, RpcError, assertError, fcError, methodNotFound } from '../errors.js';
import type { RpcRequest } from '../protocol/jsonrpc.js';
import { requiredArgs, runsIn, type ApiSetSpec, type MethodSpec, type RunsIn } from '../api/types.js';
import { setFor } from '../api/registry.js';

export interface Target {
  /** the set's key in the registry ("login" or "login_legacy" for the login API) */
  readonly setKey: string;
  readonly set: ApiSetSpec;
  readonly method: string;
  readonly spec: MethodSpec;
  readonly args: unknown[];
  readonly runsIn: RunsIn;
}

/** What routing needs besides the request; made once, and given the caller `W` it is routing for. */
export interface RouteContext<W> {
  readonly loginVariant: 'current' | 'legacy';
  /**
   * Runs a login-API method with no arguments for `who` and returns its result's JSON value (the
   * call form's named API: `["history", "get_account_history", …]` asks login.history() for the ID first).
   */
  readonly callLogin: (target: Target, who: W) => unknown;
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

/** The method `name` of the set at `apiId` in `apis`, with its argument count checked. */
function lookup(apis: readonly string[], loginVariant: 'current' | 'legacy', apiId: number, name: string, args: unknown[]): Target {
  const setName = apis[apiId];
  const set = setName === undefined ? undefined : setFor(setName, loginVariant);
  if (!set) throw new RpcError(assertError(ASSERT.UNKNOWN_API_ID, {}, { method: 'receive_call' }));
  // Own properties only: a method called "constructor" is not found, like any other unknown name.
  const spec = Object.hasOwn(set.methods, name) ? set.methods[name] : undefined;
  if (!spec) throw new RpcError(methodNotFound(name, Object.keys(set.methods), { file: set.accessName }));
  if (args.length < requiredArgs(spec)) throw new RpcError(assertError(ASSERT.TOO_FEW_ARGS, {}, { file: set.accessName, method: name }));
  const setKey = setName === 'login' && loginVariant === 'legacy' ? 'login_legacy' : setName!;
  return { setKey, set, method: name, spec, args, runsIn: runsIn(set, spec) };
}

/** The target of a request through the API-ID table `apis` of `who`, or an RpcError thrown with Core's reason. */
export function route<W>(req: RpcRequest, apis: readonly string[], who: W, ctx: RouteContext<W>): Target {
  const v = ctx.loginVariant;
  if (req.method !== 'call') return lookup(apis, v, 0, req.method, req.params);
  const p = req.params;
  if (p.length !== 3 || !Array.isArray(p[2])) throw new RpcError(assertError(ASSERT.CALL_SHAPE, {}, { method: 'call' }));
  const apiId = typeof p[0] === 'string' ? apiIdFrom(ctx.callLogin(lookup(apis, v, 1, p[0], []), who)) : apiIdFrom(p[0]);
  return lookup(apis, v, apiId, methodNameFrom(p[1]), p[2]);
}
