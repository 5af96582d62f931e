// What every handler gets: the store opened by this worker thread, the frozen config, and the
// lookups several API sets share (name-or-id resolution, as database_api_helper does it).
import type { ChainStore } from '../src/chain/store.js';
import type { Config } from '../src/config.js';
import { ASSERT, RpcError, assertError } from '../src/errors.js';
import { asObjectId } from '../src/api/params.js';

export interface WorkerContext {
  readonly store: ChainStore;
  readonly config: Config;
}

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
    instance = ctx.store.accountNames.get(nameOrId);
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
    instance = ctx.store.assetSymbols.get(symbolOrId);
  }
  if (instance === undefined && orThrow) throw new RpcError(assertError(ASSERT.NO_SUCH_ASSET));
  return instance;
}
