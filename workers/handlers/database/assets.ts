// database_api: Assets, answered as extended_asset_object (api_helper_indexes on).

import { asArray, asString, asUint32 } from '../../../src/api/params.js';
import { lowerBoundKey, resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import type { ReplyWriter } from '../../reply-writer.js';
import { typed } from './arguments.js';
import { checkLimit } from './checks.js';
import { assetsIssuedBy } from './account-holdings.js';
import { NULL, bitassetsBackedBy, callsByCollateral, countOf, isBitasset, mustParse, writeList } from './store-reads.js';
import { i64 } from '../../../src/chain/fc/fc-json.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

/** The collateral of each market-issued asset's debt positions, read in one store snapshot. */
const backing: { store: unknown; snapshot: number; byAsset: Map<number, bigint> } = { store: undefined, snapshot: -1, byAsset: new Map() };

/**
 * amount_in_collateral_index::get_backing_collateral: the collateral of every debt position in
 * `mia`. Summed once per snapshot (a smartcoin may have thousands of positions, and get_assets of it
 * is asked often); without a snapshot (tools that read a store directly), summed each time. The
 * cache holds one number per market-issued asset asked for, so the chain's own count bounds it.
 */
function backingCollateral(ctx: WorkerContext, out: ReplyWriter, mia: number): bigint {
  if (ctx.snapshot !== undefined && (backing.store !== ctx.store || backing.snapshot !== ctx.snapshot)) {
    backing.store = ctx.store;
    backing.snapshot = ctx.snapshot;
    backing.byAsset.clear();
  }
  let sum = ctx.snapshot === undefined ? undefined : backing.byAsset.get(mia);
  if (sum === undefined) {
    sum = 0n;
    const positions = callsByCollateral(ctx, mia, Number.MAX_SAFE_INTEGER);
    for (const call of positions) sum += BigInt(mustParse<{ collateral: number | string }>(ctx, [1, 8, call]).collateral);
    // The positions read count for the call's deadline.
    out.skipped(positions.length);
    if (ctx.snapshot !== undefined) backing.byAsset.set(mia, sum);
  }
  return sum;
}

/**
 * extended_asset_object, as Core writes it with api_helper_indexes on (database_api_impl.hxx,
 * extend_asset): the stored asset, then `total_in_collateral` (the collateral of every debt position
 * whose collateral is this asset: those of the market-issued assets it backs), then, for a
 * market-issued asset, `total_backing_collateral` (the collateral of its own debt positions).
 */
function writeExtendedAsset(ctx: WorkerContext, out: ReplyWriter, instance: number | undefined): void {
  if (instance === undefined) return void out.raw(NULL);
  // The sums first (an asset that does not exist backs nothing and is not market-issued), then the
  // asset: the store's fast buffer holds only the last value read.
  let inCollateral = 0n;
  for (const mia of bitassetsBackedBy(ctx, instance)) inCollateral += backingCollateral(ctx, out, mia);
  const own = isBitasset(ctx, instance) ? backingCollateral(ctx, out, instance) : undefined;
  const bytes = ctx.store.objects.getBinaryFast([1, 3, instance]);
  if (!bytes) return void out.raw(NULL);
  // The stored JSON ends with its closing brace; reopen it for the extra members.
  out.raw(bytes.subarray(0, bytes.length - 1));
  out.text(`,"total_in_collateral":${JSON.stringify(i64(inCollateral))}`);
  if (own !== undefined) out.text(`,"total_backing_collateral":${JSON.stringify(i64(own))}`);
  out.text('}');
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
