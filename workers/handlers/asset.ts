// asset_api handlers (reference §4.7; api.cpp asset_api). Core reads its `by_asset_balance` index,
// ordered by (asset, balance descending, owner ascending); this node keeps [asset, account] → balance
// object and sorts the asset's holders on each call.
import { assetApi } from '../../src/api/sets/asset.js';
import { ASSERT, RpcError, assertError } from '../../src/errors.js';
import { asObjectId, asString, asUint32 } from '../../src/api/params.js';
import { i64 } from '../../src/chain/fc/fc-json.js';
import { resolveAsset, type WorkerContext } from '../context.js';
import type { HandlersFor } from './types.js';

const FILE = 'asset_api';

/** get_asset_from_string(symbol_or_id, true): never undefined, it throws instead. */
const findAsset = (ctx: WorkerContext, symbolOrId: string): number => resolveAsset(ctx, symbolOrId, true)!;

const readJson = <T>(bytes: Buffer): T => JSON.parse(bytes.toString('utf8', 0, bytes.length)) as T;

/** Balance objects (2.5.x) that exist for the asset, zero balances included: Core's equal_range(asset). */
const balanceObjectCount = (ctx: WorkerContext, asset: number): number => ctx.store.assetHolders.getKeysCount({ start: [asset], end: [asset + 1] });

interface Holding {
  account: number;
  balance: bigint;
}

/** The asset's balances in Core's by_asset_balance order: balance descending, then owner ascending. */
function holdingsByBalance(ctx: WorkerContext, asset: number): Holding[] {
  const holdings: Holding[] = [];
  for (const { key, value } of ctx.store.assetHolders.getRange({ start: [asset], end: [asset + 1] })) {
    const bytes = ctx.store.objects.getBinaryFast([2, 5, value]);
    if (!bytes) continue;
    holdings.push({ account: key[1], balance: BigInt(readJson<{ balance: number | string }>(bytes).balance) });
  }
  return holdings.sort((a, b) => (a.balance === b.balance ? a.account - b.account : a.balance > b.balance ? -1 : 1));
}

export const assetHandlers = {
  get_asset_holders(ctx, [assetArg, startArg, limitArg], out) {
    const symbolOrId = asString(assetArg);
    const start = asUint32(startArg);
    const limit = asUint32(limitArg);
    const configured = ctx.config.apiLimits.api_limit_get_asset_holders;
    if (limit > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, { file: FILE, method: 'get_asset_holders' }));
    const asset = findAsset(ctx, symbolOrId);
    const rows: string[] = [];
    // `start` counts holders with a non-zero balance, as Core's loop does.
    let index = 0;
    for (const h of holdingsByBalance(ctx, asset)) {
      if (rows.length >= limit) break;
      if (h.balance === 0n) continue;
      if (index++ < start) continue;
      const bytes = ctx.store.objects.getBinaryFast([1, 2, h.account]);
      const name = bytes ? readJson<{ name: string }>(bytes).name : '';
      rows.push(JSON.stringify({ name, account_id: `1.2.${h.account}`, amount: i64(h.balance) }));
    }
    out.text(`[${rows.join(',')}]`);
  },

  get_asset_holders_count(ctx, [assetArg], out) {
    const asset = findAsset(ctx, asString(assetArg));
    // Core counts every balance object of the asset, zero balances included, minus one (api.cpp:
    // `boost::distance(range) - 1`); an asset nobody holds gives -1.
    out.json(i64(balanceObjectCount(ctx, asset) - 1));
  },

  get_all_asset_holders(ctx, _params, out) {
    const rows: string[] = [];
    for (const { value } of ctx.store.objects.getRange({ start: [1, 3, 0], end: [1, 4, 0] })) {
      // Core takes the id from the asset's dynamic data object (api.cpp: `asset_id = dasset_obj.id`),
      // which shares the asset's instance.
      const dynamicId = readJson<{ dynamic_asset_data_id: string }>(value).dynamic_asset_data_id;
      const instance = asObjectId(dynamicId, { space: 2, type: 3 }).instance;
      rows.push(JSON.stringify({ asset_id: `1.3.${instance}`, count: i64(balanceObjectCount(ctx, instance) - 1) }));
    }
    out.text(`[${rows.join(',')}]`);
  },
} satisfies HandlersFor<typeof assetApi>;
