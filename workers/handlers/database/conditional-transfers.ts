// database_api: Withdrawals (withdraw permissions) and HTLC: transfers that wait on a condition.
// Withdraw permissions do not exist (src/api/unkept.ts); HTLCs (1.16.x) are read from the store
// through their indexes (src/chain/evaluators/htlc.ts). The limit is checked before the account is looked up,
// as in Core.

import { asOptionalBool, asUint32 } from '../../../src/api/params.js';
import { answerNothing } from '../unkept-answers.js';
import { typed } from './arguments.js';
import { byAccountStartLimit, checkLimit } from './checks.js';
import { NULL, rawObject, writeObjects } from './store-reads.js';
import type { WorkerContext } from '../../context.js';
import type { ReplyWriter } from '../../reply-writer.js';

/** The HTLC index of senders (1) or recipients (2): the account's HTLCs from `start` on, by id, at most `limit`. */
function htlcsBy(ctx: WorkerContext, out: ReplyWriter, index: 1 | 2, account: number, start: number, limit: number): void {
  const keys: [number, number, number][] = [];
  for (const k of ctx.store.htlcIndex.getKeys({ start: [index, account, start], end: [index, account + 1], limit })) keys.push([1, 16, k[2]!]);
  writeObjects(ctx, out, keys);
}
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

export const conditionalTransferHandlers = {
  // Withdrawals

  get_withdraw_permissions_by_giver(ctx, [nameOrId, startArg, limitArg], out) {
    byAccountStartLimit(ctx, 'get_withdraw_permissions_by_giver', [1, 12], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_withdraw_permissions_by_giver);
    answerNothing(out, 'database', 'get_withdraw_permissions_by_giver');
  },

  get_withdraw_permissions_by_recipient(ctx, [nameOrId, startArg, limitArg], out) {
    byAccountStartLimit(ctx, 'get_withdraw_permissions_by_recipient', [1, 12], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_withdraw_permissions_by_recipient);
    answerNothing(out, 'database', 'get_withdraw_permissions_by_recipient');
  },

  // HTLC

  get_htlc(ctx, [idArg, subscribe], out) {
    const id = typed(1, 16)(idArg);
    asOptionalBool(subscribe);
    out.raw(rawObject(ctx, [1, 16, id.instance]) ?? NULL);
  },

  get_htlc_by_from(ctx, [nameOrId, startArg, limitArg], out) {
    const [account, start] = byAccountStartLimit(ctx, 'get_htlc_by_from', [1, 16], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_htlc_by);
    htlcsBy(ctx, out, 1, account, start, asUint32(limitArg));
  },

  get_htlc_by_to(ctx, [nameOrId, startArg, limitArg], out) {
    const [account, start] = byAccountStartLimit(ctx, 'get_htlc_by_to', [1, 16], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_htlc_by);
    htlcsBy(ctx, out, 2, account, start, asUint32(limitArg));
  },

  list_htlcs(ctx, [startArg, limitArg], out) {
    const start = typed(1, 16)(startArg).instance;
    const limit = asUint32(limitArg);
    checkLimit('list_htlcs', limit, ctx.config.apiLimits.api_limit_list_htlcs);
    const keys: [number, number, number][] = [];
    for (const k of ctx.store.objects.getKeys({ start: [1, 16, start], end: [1, 16, Number.MAX_SAFE_INTEGER], limit })) keys.push(k);
    writeObjects(ctx, out, keys);
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
