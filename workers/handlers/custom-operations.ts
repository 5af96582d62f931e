// custom_operations_api handlers (api.cpp custom_operations_api::get_storage_info, and
// database_api_helper.hxx get_objects_by_x), from the account storage the custom_operations plugin
// keeps (src/chain/plugins/account-storage.ts).
//
// Which index answers depends on the arguments given, as in Core: account, catalog and key → the one
// object of by_account_catalog_key (start_id is not used there: the index has no id to start from);
// account and catalog → by_account_catalog; account → by_account; catalog and key → by_catalog_key;
// catalog → by_catalog; nothing → every object by id. Each list runs from start_id (7.0.0 when not
// given), in id order, for at most `limit` objects. A key without a catalog is refused once the
// account is resolved, and the limit is checked once the index is chosen.
import { customOperationsApi } from '../../src/api/sets/custom-operations.js';
import { ASSERT, RpcError, assertError } from '../../src/errors.js';
import { asString } from '../../src/api/params.js';
import { MAX_INSTANCE } from '../../src/chain/fc/object-id.js';
import { MAX_KEY_SIZE, STORAGE_INDEX, STORAGE_SPACE, STORAGE_TYPE, indexText } from '../../src/chain/plugins/account-storage.js';
import type { StorageIndexKey } from '../../src/chain/store/store.js';
import { resolveAccount, type WorkerContext } from '../context.js';
import { optTyped, optU32 } from './database/arguments.js';
import { writeObjects, type Key } from './database/store-reads.js';
import type { HandlersFor } from './types.js';

const where = { file: 'custom_operations_api', method: 'get_storage_info' };

const optString = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : asString(v));

/** A text argument as the bytes Core compares; undefined when longer than any stored catalog or key. */
function storedText(s: string): string | undefined {
  const bytes = Buffer.from(s, 'utf8');
  return bytes.length > MAX_KEY_SIZE ? undefined : indexText(bytes);
}

/** The instances of one index's entries with `prefix`, from instance `start` on (the last key element). */
function instancesAfter(ctx: WorkerContext, prefix: StorageIndexKey, start: number, limit: number): number[] {
  const out: number[] = [];
  if (limit === 0) return out;
  for (const k of ctx.store.accountStorage.getKeys({ start: [...prefix, start], end: [...prefix, MAX_INSTANCE + 1], limit })) out.push(k[k.length - 1] as number);
  return out;
}

export const customOperationsHandlers = {
  get_storage_info(ctx, [accountArg, catalogArg, keyArg, limitArg, startArg], out) {
    // The arguments convert first, in order (fc::from_variant of each optional).
    const account = optString(accountArg);
    const catalog = optString(catalogArg);
    const key = optString(keyArg);
    const givenLimit = optU32(limitArg);
    const start = optTyped(STORAGE_SPACE, STORAGE_TYPE)(startArg)?.instance ?? 0;
    if (!ctx.config.customOperationsPlugin) throw new RpcError(assertError(ASSERT.STORAGE_PLUGIN, {}, where));

    const accountInstance = account === undefined ? undefined : resolveAccount(ctx, account, true)!;
    if (catalog === undefined && key !== undefined) throw new RpcError(assertError(ASSERT.STORAGE_KEY_WITHOUT_CATALOG, {}, where));
    const configured = ctx.config.apiLimits.api_limit_get_storage_info;
    const limit = givenLimit ?? configured;
    if (limit > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, where));

    const cat = catalog === undefined ? undefined : storedText(catalog);
    const k = key === undefined ? undefined : storedText(key);
    let instances: number[];
    if (catalog !== undefined && (cat === undefined || (key !== undefined && k === undefined))) instances = [];
    else if (accountInstance !== undefined && cat !== undefined && k !== undefined) {
      const found = ctx.store.accountStorage.get([STORAGE_INDEX.byAccountCatalogKey, accountInstance, cat, k]);
      instances = found === undefined || limit === 0 ? [] : [found];
    } else if (accountInstance !== undefined && cat !== undefined) instances = instancesAfter(ctx, [STORAGE_INDEX.byAccountCatalog, accountInstance, cat], start, limit);
    else if (accountInstance !== undefined) instances = instancesAfter(ctx, [STORAGE_INDEX.byAccount, accountInstance], start, limit);
    else if (cat !== undefined && k !== undefined) instances = instancesAfter(ctx, [STORAGE_INDEX.byCatalogKey, cat, k], start, limit);
    else if (cat !== undefined) instances = instancesAfter(ctx, [STORAGE_INDEX.byCatalog, cat], start, limit);
    else {
      instances = [];
      if (limit > 0) {
        for (const key of ctx.store.objects.getKeys({ start: [STORAGE_SPACE, STORAGE_TYPE, start], end: [STORAGE_SPACE, STORAGE_TYPE, MAX_INSTANCE + 1], limit })) instances.push(key[2]);
      }
    }
    writeObjects(ctx, out, instances.map((i): Key => [STORAGE_SPACE, STORAGE_TYPE, i]));
  },
} satisfies HandlersFor<typeof customOperationsApi>;
