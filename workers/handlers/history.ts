// history_api handlers, with BitShares Core's windowing rules (api.cpp, reference §4.11).
import { historyApi } from '../../src/api/sets/history.js';
import { ASSERT, RpcError, assertError } from '../../src/errors.js';
import { asObjectId, asString, asUint32 } from '../../src/api/params.js';
import { resolveAccount, type WorkerContext } from '../context.js';
import type { ReplyWriter } from '../reply-writer.js';
import type { HandlersFor } from './types.js';

const OP_HISTORY = { space: 1, type: 11 };
/** operation_history_id_type::max(): 48-bit instance */
const MAX_INSTANCE = 0xffffffffffff;

function checkLimit(limit: number, configured: number, method: string): void {
  if (limit > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, { file: 'history_api', method }));
}

/** Writes the 1.11.x objects with the given instances, in order. */
function writeOps(ctx: WorkerContext, out: ReplyWriter, instances: readonly number[]): void {
  out.text('[');
  let first = true;
  for (const i of instances) {
    const bytes = ctx.store.objects.getBinaryFast([1, 11, i]);
    if (!bytes) continue;
    if (!first) out.text(',');
    first = false;
    out.raw(bytes);
  }
  out.text(']');
}

export const historyHandlers = {
  get_account_history(ctx, [accountArg, stopArg, limitArg, startArg], out) {
    // Arguments convert before the call body runs, so a malformed id fails even for unknown accounts.
    const account = asString(accountArg);
    const stop = asObjectId(stopArg, OP_HISTORY).instance;
    const limit = asUint32(limitArg);
    let start = asObjectId(startArg, OP_HISTORY).instance;
    checkLimit(limit, ctx.config.apiLimits.api_limit_get_account_history, 'get_account_history');
    let acct: number | undefined;
    try {
      acct = resolveAccount(ctx, account, true);
    } catch {
      // Core swallows lookup failures here and answers with an empty list.
      acct = undefined;
    }
    if (acct === undefined) return void out.text('[]');
    // "1.11.0" as start means "the newest"; the price is that op 0 cannot be asked for as a start.
    if (start === 0) start = MAX_INSTANCE;
    if (start < stop) return void out.text('[]');
    const found: number[] = [];
    for (const key of ctx.store.accountHistory.getKeys({ start: [acct, start], end: [acct, stop], reverse: true, limit })) {
      // A reverse range starts at the greatest key <= start; it may step onto [acct, start] exactly.
      if (key[1] > start) continue;
      found.push(key[1]);
    }
    // Core's special case: with stop at 0, operation 1.11.0 itself is included when it is the account's.
    if (stop === 0 && found.length < limit && ctx.store.accountHistory.doesExist([acct, 0])) found.push(0);
    writeOps(ctx, out, found);
  },
} satisfies HandlersFor<typeof historyApi>;
