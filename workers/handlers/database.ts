// database_api handlers: reads assembled from the stored JSON of each object.
import { databaseApi } from '../../src/api/sets/database.js';
import { asArray, asObjectId, asString } from '../../src/api/params.js';
import { resolveAccount, type WorkerContext } from '../context.js';
import type { ReplyWriter } from '../reply-writer.js';
import type { HandlersFor } from './types.js';

const NULL = new TextEncoder().encode('null');

/** Writes a JSON array of stored objects (or null for absent ones). */
function writeObjects(ctx: WorkerContext, out: ReplyWriter, keys: readonly ([number, number, number] | undefined)[]): void {
  out.text('[');
  keys.forEach((k, i) => {
    if (i > 0) out.text(',');
    // getBinaryFast returns LMDB's bytes without a copy; they are valid until the next read,
    // and we copy them into the reply at once.
    const bytes = k ? ctx.store.objects.getBinaryFast(k) : undefined;
    out.raw(bytes ?? NULL);
  });
  out.text(']');
}

export const databaseHandlers = {
  get_objects(ctx, [ids], out) {
    const keys = asArray(ids).map((v) => {
      const id = asObjectId(v);
      return [id.space, id.type, id.instance] as [number, number, number];
    });
    writeObjects(ctx, out, keys);
  },

  get_chain_id(ctx, _params, out) {
    out.json(ctx.store.meta.get('chain_id'));
  },

  get_dynamic_global_properties(ctx, _params, out) {
    out.raw(ctx.store.objects.getBinaryFast([2, 1, 0]) ?? NULL);
  },

  get_accounts(ctx, [namesOrIds], out) {
    const keys = asArray(namesOrIds).map((v) => {
      const instance = resolveAccount(ctx, asString(v), false);
      return instance === undefined ? undefined : ([1, 2, instance] as [number, number, number]);
    });
    writeObjects(ctx, out, keys);
  },

  get_account_by_name(ctx, [name], out) {
    // An exact name lookup: ids are not accepted here (database_api.cpp:727-739).
    const instance = ctx.store.accountNames.get(asString(name));
    out.raw((instance !== undefined && ctx.store.objects.getBinaryFast([1, 2, instance])) || NULL);
  },
} satisfies HandlersFor<typeof databaseApi>;
