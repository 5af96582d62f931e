// database_api: Liquidity pools. None exist (src/api/unkept.ts); each call keeps Core's argument
// conversions, lookups and limit checks, whose order differs from call to call as in Core.

import { asArray, asOptionalBool, asString } from '../../../src/api/params.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import { answerNothing, answerNullForEach } from '../unkept-answers.js';
import { ids, optTyped, optU32 } from './arguments.js';
import { checkLimit, pageLimit } from './checks.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

export const liquidityPoolHandlers = {
  list_liquidity_pools(ctx, [limitArg, startArg, withStats], out) {
    const limit = optU32(limitArg);
    optTyped(1, 19)(startArg);
    asOptionalBool(withStats);
    pageLimit('list_liquidity_pools', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    answerNothing(out, 'database', 'list_liquidity_pools');
  },

  get_liquidity_pools_by_asset_a(ctx, params, out) {
    poolsByAsset(ctx, 'get_liquidity_pools_by_asset_a', params);
    answerNothing(out, 'database', 'get_liquidity_pools_by_asset_a');
  },

  get_liquidity_pools_by_asset_b(ctx, params, out) {
    poolsByAsset(ctx, 'get_liquidity_pools_by_asset_b', params);
    answerNothing(out, 'database', 'get_liquidity_pools_by_asset_b');
  },

  get_liquidity_pools_by_one_asset(ctx, [assetArg, limitArg, startArg, withStats], out) {
    const s = asString(assetArg);
    const limit = optU32(limitArg);
    optTyped(1, 19)(startArg);
    asOptionalBool(withStats);
    // Here the limit is checked before the asset is looked up.
    pageLimit('get_liquidity_pools_by_one_asset', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    resolveAsset(ctx, s, true);
    answerNothing(out, 'database', 'get_liquidity_pools_by_one_asset');
  },

  get_liquidity_pools_by_both_assets(ctx, [aArg, bArg, limitArg, startArg, withStats], out) {
    const a = asString(aArg);
    const b = asString(bArg);
    const limit = optU32(limitArg);
    optTyped(1, 19)(startArg);
    asOptionalBool(withStats);
    resolveAsset(ctx, a, true);
    resolveAsset(ctx, b, true);
    pageLimit('get_liquidity_pools_by_both_assets', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    answerNothing(out, 'database', 'get_liquidity_pools_by_both_assets');
  },

  get_liquidity_pools(ctx, [idsArg, subscribe, withStats], out) {
    const pools = ids(idsArg, 1, 19);
    asOptionalBool(subscribe);
    asOptionalBool(withStats);
    checkLimit('get_liquidity_pools', pools.length, ctx.config.apiLimits.api_limit_get_liquidity_pools, 'ids.size()', 'size of the querying list can not be greater than ${configured_limit}');
    answerNullForEach(out, 'database', 'get_liquidity_pools', pools.length);
  },

  get_liquidity_pools_by_share_asset(ctx, [symbolsArg, subscribe, withStats], out) {
    const symbols = asArray(symbolsArg).map(asString);
    asOptionalBool(subscribe);
    asOptionalBool(withStats);
    checkLimit(
      'get_liquidity_pools_by_share_asset',
      symbols.length,
      ctx.config.apiLimits.api_limit_get_liquidity_pools,
      'asset_symbols_or_ids.size()',
      'size of the querying list can not be greater than ${configured_limit}',
    );
    // No asset here is a pool's share asset: null for each (malformed ids still throw).
    for (const s of symbols) resolveAsset(ctx, s, false);
    answerNullForEach(out, 'database', 'get_liquidity_pools_by_share_asset', symbols.length);
  },

  get_liquidity_pools_by_owner(ctx, [nameOrId, limitArg, startArg, withStats], out) {
    const name = asString(nameOrId);
    const limit = optU32(limitArg);
    optTyped(1, 3)(startArg);
    asOptionalBool(withStats);
    pageLimit('get_liquidity_pools_by_owner', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    resolveAccount(ctx, name, true);
    answerNothing(out, 'database', 'get_liquidity_pools_by_owner');
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;

/** get_liquidity_pools_by_asset_a/b: the asset is looked up first, then the limit checked. */
function poolsByAsset(ctx: WorkerContext, method: string, [assetArg, limitArg, startArg, withStats]: unknown[]): void {
  const s = asString(assetArg);
  const limit = optU32(limitArg);
  optTyped(1, 19)(startArg);
  asOptionalBool(withStats);
  resolveAsset(ctx, s, true);
  pageLimit(method, limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
}
