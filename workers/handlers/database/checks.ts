// database_api's assertions as Core phrases them (file database_api, the calling method), and the
// limit checks of its paged calls, in Core's order: argument conversions first, then lookups and
// limits in the order each C++ body runs them.
import { RpcError, assertError } from '../../../src/errors.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import { optTyped, optU32, typed } from './arguments.js';
import { asString, asUint32 } from '../../../src/api/params.js';

export const FILE = 'database_api';

export const fail = (method: string, format: string, data: Record<string, unknown> = {}): never => {
  throw new RpcError(assertError(format, data, { file: FILE, method }));
};

/** `FC_ASSERT( <test> <= configured_limit, "<text>", ("configured_limit", …) )` */
export function checkLimit(method: string, n: number, configured: number, test = 'limit', text = 'limit can not be greater than ${configured_limit}'): void {
  if (n > configured) fail(method, `${test} <= configured_limit: ${text}`, { configured_limit: configured });
}

export const notSupported = (method: string, why: string): never => fail(method, 'false: ${method} is not supported by this node: ${why}', { method, why });

/**
 * get_objects_by_x (database_api_helper.hxx): an optional limit defaulting to the configured one,
 * then the usual check.
 */
export function pageLimit(method: string, limit: number | undefined, configured: number): void {
  checkLimit(method, limit ?? configured, configured);
}

/** list_X(limit, start_id): both optional. */
export function listPage(method: string, [space, type]: [number, number], limitArg: unknown, startArg: unknown, configured: number): void {
  const limit = optU32(limitArg);
  optTyped(space, type)(startArg);
  pageLimit(method, limit, configured);
}

/** get_X_by_owner-style calls: the account is resolved (throwing) before the limit is checked. */
export function byAccountPage(ctx: WorkerContext, method: string, t: [number, number], nameOrId: unknown, limitArg: unknown, startArg: unknown, configured: number): void {
  const name = asString(nameOrId);
  const limit = optU32(limitArg);
  optTyped(t[0], t[1])(startArg);
  resolveAccount(ctx, name, true);
  pageLimit(method, limit, configured);
}

/** get_X_by_asset-style calls: the asset is resolved (throwing) before the limit is checked. */
export function byAssetPage(ctx: WorkerContext, method: string, t: [number, number], assetArg: unknown, limitArg: unknown, startArg: unknown, configured: number): void {
  const s = asString(assetArg);
  const limit = optU32(limitArg);
  optTyped(t[0], t[1])(startArg);
  resolveAsset(ctx, s, true);
  pageLimit(method, limit, configured);
}

/**
 * get_X_by_account(account, start, limit) calls with a required start id and limit (withdraw
 * permissions, HTLCs, call and settle orders): the name is read, the start id checked, the limit
 * checked, then the account resolved (throwing), in the order Core's bodies run them.
 */
export function byAccountStartLimit(ctx: WorkerContext, method: string, t: [number, number], nameOrId: unknown, startArg: unknown, limitArg: unknown, configured: number): [account: number, start: number] {
  const name = asString(nameOrId);
  const start = typed(t[0], t[1])(startArg).instance;
  checkLimit(method, asUint32(limitArg), configured);
  return [resolveAccount(ctx, name, true)!, start];
}

/**
 * `{ try { … } FC_CAPTURE_AND_RETHROW( (a)(b) ) }` around a body: an fc error from inside gains a warn
 * entry naming the method, with an empty format (so the message is unchanged) and the captured values.
 */
export function captureAndRethrow<T>(method: string, data: Record<string, unknown>, body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof RpcError && err.wire.data) {
      const stack = err.wire.data.stack;
      stack.push({ context: { ...stack[0]!.context, level: 'warn', file: FILE, method }, format: '', data });
    }
    throw err;
  }
}
