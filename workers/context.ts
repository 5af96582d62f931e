// What every handler gets: the store opened by this worker thread, the frozen config, and the
// lookups several API sets share (name-or-id resolution, as database_api_helper does it).
import type { ChainStore } from '../src/chain/store/store.js';
import type { Config } from '../src/config.js';
import { ASSERT, RpcError, assertError } from '../src/errors.js';
import { asObjectId } from '../src/api/params.js';

export interface WorkerContext {
  readonly store: ChainStore;
  readonly config: Config;
  /**
   * Which read snapshot the calls see: the worker entry bumps it whenever it moves to a newer one.
   * Caches of what the store says are kept per snapshot (a pending account rolled back frees its
   * id for another); a context without it caches nothing.
   */
  snapshot?: number;
  /** the front end's cancel flags (WorkerInit.cancelled); a context without them cancels nothing */
  readonly cancelled?: Int32Array;
}

/**
 * Longest name or symbol a lookup sends to the store. Account names (at most 63 characters in Core)
 * and asset symbols (16) are far shorter, so a longer one names nothing; and LMDB refuses a key
 * beyond its key size, which would otherwise reach the client as an internal error.
 */
export const LONGEST_LOOKUP_KEY = 256;

/** `key` for an exact lookup, or undefined when it is too long to name anything. */
export const lookupKey = (key: string): string | undefined => (key.length > LONGEST_LOOKUP_KEY ? undefined : key);

/**
 * `key` as a range's lower bound. Cut to one character past the longest lookup key, it orders every
 * stored key (all shorter than that) exactly as the whole bound does, and the store accepts it.
 */
export const lowerBoundKey = (key: string): string => (key.length > LONGEST_LOOKUP_KEY ? key.slice(0, LONGEST_LOOKUP_KEY + 1) : key);

/**
 * `get_account_from_string`: a string starting with a digit is an account id (a malformed or
 * mistyped id throws even when `orThrow` is false, as in Core); otherwise a name. Returns the
 * account instance, or undefined when absent and `orThrow` is false.
 */
export function resolveAccount(ctx: WorkerContext, nameOrId: string, orThrow: boolean): number | undefined {
  if (nameOrId === '') {
    if (orThrow) throw new RpcError(assertError('no such account'));
    return undefined;
  }
  let instance: number | undefined;
  const c = nameOrId.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    const id = asObjectId(nameOrId, { space: 1, type: 2 });
    instance = ctx.store.objects.doesExist([1, 2, id.instance]) ? id.instance : undefined;
  } else {
    const name = lookupKey(nameOrId);
    instance = name === undefined ? undefined : ctx.store.accountNames.get(name);
  }
  if (instance === undefined && orThrow) throw new RpcError(assertError(ASSERT.NO_SUCH_ACCOUNT));
  return instance;
}


/**
 * `get_asset_from_string`, the mirror of account resolution: a string starting with a digit is an
 * asset id (malformed or mistyped ids throw), anything else a symbol. Returns the asset instance, or
 * undefined when absent and `orThrow` is false.
 */
export function resolveAsset(ctx: WorkerContext, symbolOrId: string, orThrow: boolean): number | undefined {
  if (symbolOrId === '') {
    if (orThrow) throw new RpcError(assertError('no such asset'));
    return undefined;
  }
  let instance: number | undefined;
  const c = symbolOrId.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    const id = asObjectId(symbolOrId, { space: 1, type: 3 });
    instance = ctx.store.objects.doesExist([1, 3, id.instance]) ? id.instance : undefined;
  } else {
    const symbol = lookupKey(symbolOrId);
    instance = symbol === undefined ? undefined : ctx.store.assetSymbols.get(symbol);
  }
  if (instance === undefined && orThrow) throw new RpcError(assertError(ASSERT.NO_SUCH_ASSET));
  return instance;
}
