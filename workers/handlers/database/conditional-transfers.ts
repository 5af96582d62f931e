// database_api: Withdrawals (withdraw permissions) and HTLC: transfers that wait on a condition.
// None exist (src/api/unkept.ts); the limit is checked before the account is looked up, as in Core.

import { asOptionalBool, asUint32 } from '../../../src/api/params.js';
import { answerNothing } from '../unkept-answers.js';
import { typed } from './arguments.js';
import { byAccountStartLimit, checkLimit } from './checks.js';
import { NULL, rawObject } from './store-reads.js';
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

  // HTLC: get_htlc reads the store all the same.

  get_htlc(ctx, [idArg, subscribe], out) {
    const id = typed(1, 16)(idArg);
    asOptionalBool(subscribe);
    out.raw(rawObject(ctx, [1, 16, id.instance]) ?? NULL);
  },

  get_htlc_by_from(ctx, [nameOrId, startArg, limitArg], out) {
    byAccountStartLimit(ctx, 'get_htlc_by_from', [1, 16], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_htlc_by);
    answerNothing(out, 'database', 'get_htlc_by_from');
  },

  get_htlc_by_to(ctx, [nameOrId, startArg, limitArg], out) {
    byAccountStartLimit(ctx, 'get_htlc_by_to', [1, 16], nameOrId, startArg, limitArg, ctx.config.apiLimits.api_limit_get_htlc_by);
    answerNothing(out, 'database', 'get_htlc_by_to');
  },

  list_htlcs(ctx, [startArg, limitArg], out) {
    typed(1, 16)(startArg);
    checkLimit('list_htlcs', asUint32(limitArg), ctx.config.apiLimits.api_limit_list_htlcs);
    answerNothing(out, 'database', 'list_htlcs');
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
