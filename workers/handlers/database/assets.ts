// database_api: Assets, answered as extended_asset_object (api_helper_indexes on).

import { asArray, asString, asUint32 } from '../../../src/api/params.js';
import { lowerBoundKey, resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import type { ReplyWriter } from '../../reply-writer.js';
import { typed } from './arguments.js';
import { checkLimit } from './checks.js';
import { assetsIssuedBy } from './account-holdings.js';
import { NULL, countOf, writeList } from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

/**
 * extended_asset_object: the stored asset plus `total_in_collateral` (0: no call orders on this
 * chain), which Core adds when api_helper_indexes is on; no bitasset data, so no backing collateral.
 */
function writeExtendedAsset(ctx: WorkerContext, out: ReplyWriter, instance: number | undefined): void {
  const bytes = instance === undefined ? undefined : ctx.store.objects.getBinaryFast([1, 3, instance]);
  if (!bytes) return void out.raw(NULL);
  const len = bytes.length;
  // The stored JSON ends with its closing brace; reopen it for the extra member.
  out.raw(bytes.subarray(0, len - 1));
  out.text(',"total_in_collateral":0}');
}

export const assetHandlers = {
  get_assets(ctx, [symbolsOrIds], out) {
    const instances = asArray(symbolsOrIds).map((v) => resolveAsset(ctx, asString(v), false));
    for (const i of instances) if (i !== undefined) out.subscribe(`1.3.${i}`);
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  list_assets(ctx, [lowerBound, limitArg], out) {
    const lower = lowerBoundKey(asString(lowerBound));
    const limit = asUint32(limitArg);
    checkLimit('list_assets', limit, ctx.config.apiLimits.api_limit_get_assets);
    const instances: number[] = [];
    if (limit > 0) for (const { value } of ctx.store.assetSymbols.getRange({ start: lower, limit })) instances.push(value);
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  lookup_asset_symbols(ctx, [symbolsOrIds], out) {
    const instances = asArray(symbolsOrIds).map((v) => resolveAsset(ctx, asString(v), false));
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  get_asset_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 3));
  },

  get_assets_by_issuer(ctx, [issuer, startArg, limitArg], out) {
    const name = asString(issuer);
    const start = typed(1, 3)(startArg).instance;
    const limit = asUint32(limitArg);
    checkLimit('get_assets_by_issuer', limit, ctx.config.apiLimits.api_limit_get_assets);
    const account = resolveAccount(ctx, name, true)!;
    const instances = assetsIssuedBy(ctx, account, start).slice(0, limit);
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  get_asset_id_from_string(ctx, [symbolOrId], out) {
    out.json(`1.3.${resolveAsset(ctx, asString(symbolOrId), true)}`);
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
