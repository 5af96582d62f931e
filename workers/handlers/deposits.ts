// deposits_api.get_transfers: a page of the deposit feed (src/chain/plugins/transfer-index.ts, README "Deposit
// feed"). One ordered range read per account from the cursor on, merged in chain order, each
// transfer's stored JSON copied into the reply between its cursor and its `irreversible` flag.
//
// The same call serves subscribe_transfers' pages (src/subscriptions/transfer-feed.ts): the front end
// asks for the next page after the last cursor it sent, so a backlog and the live feed are one
// sequence of reads from the store, and exactly-once holds across the switch from one to the other.
import { depositsApi } from '../../src/api/sets/deposits.js';
import { ASSERT, RpcError, assertError } from '../../src/errors.js';
import { asArray, asOptionalBool, asString, asUint32 } from '../../src/api/params.js';
import { afterBlock, decodeCursor, encodeCursor, laterPosition, positionAfter, readTransfers, type Position } from '../../src/chain/plugins/transfer-index.js';
import { headNextInstance } from '../../src/chain/store/pending-undo.js';
import { resolveAccount, type WorkerContext } from '../context.js';
import type { HandlersFor } from './types.js';

const where = { file: 'deposits_api', method: 'get_transfers' };

/** The cursor argument: null ("from the head block on") or a cursor this API wrote. */
function asCursor(v: unknown): Position | undefined {
  if (v === null || v === undefined) return undefined;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  const p = typeof v === 'string' ? decodeCursor(v) : undefined;
  if (!p) throw new RpcError(assertError(ASSERT.FEED_CURSOR, { cursor: text.length > 64 ? `${text.slice(0, 64)}…` : text }, where));
  return p;
}

/** The last answer of firstPendingAccount, and the read snapshot it holds for. */
let pendingAccounts: { snapshot: number; from: number | undefined } | undefined;

/**
 * The first account instance pending transactions created (undefined: none). Finding it walks the
 * pending undo log, which grows with what is pending (a few entries per transaction), so a worker
 * walks it once per read snapshot, not once per call: the snapshot moves with every block and
 * every accepted transaction, and nothing else changes the log.
 */
function firstPendingAccount(ctx: WorkerContext): number | undefined {
  if (ctx.snapshot === undefined) return headNextInstance(ctx.store, 1, 2);
  if (pendingAccounts?.snapshot !== ctx.snapshot) pendingAccounts = { snapshot: ctx.snapshot, from: headNextInstance(ctx.store, 1, 2) };
  return pendingAccounts.from;
}

/**
 * The account instances of names or ids, each once. An account that only a pending transaction
 * created is refused like an unknown one: its id is not the chain's until its block is applied (a
 * rolled-back account's id goes to the next one created).
 */
function feedAccounts(ctx: WorkerContext, list: readonly unknown[]): number[] {
  if (list.length > ctx.config.maxTransferAccounts) throw new RpcError(assertError(ASSERT.FEED_ACCOUNTS, { configured_limit: ctx.config.maxTransferAccounts }, where));
  const pendingFrom = firstPendingAccount(ctx);
  const out = new Set<number>();
  for (const v of list) {
    const nameOrId = asString(v);
    const instance = resolveAccount(ctx, nameOrId, false);
    if (instance === undefined || (pendingFrom !== undefined && instance >= pendingFrom)) {
      throw new RpcError(assertError(ASSERT.FEED_NO_SUCH_ACCOUNT, { account: nameOrId.length > 64 ? `${nameOrId.slice(0, 64)}…` : nameOrId }, where));
    }
    out.add(instance);
  }
  return [...out];
}

/** The head block and the last irreversible block, as the dynamic global properties say now. */
function headAndIrreversible(ctx: WorkerContext): { head: number; lib: number } {
  const bytes = ctx.store.objects.getBinaryFast([2, 1, 0])!;
  const dgp = JSON.parse(bytes.toString('utf8', 0, bytes.length)) as { head_block_number: number; last_irreversible_block_num: number };
  return { head: dgp.head_block_number, lib: dgp.last_irreversible_block_num };
}

export const depositsHandlers = {
  get_transfers(ctx, [accountsArg, cursorArg, limitArg, irreversibleArg], out) {
    // Arguments are converted left to right, as fc does, before anything is read.
    const list = asArray(accountsArg);
    const cursor = asCursor(cursorArg);
    const limit = asUint32(limitArg);
    const irreversibleOnly = asOptionalBool(irreversibleArg) ?? false;
    const configured = ctx.config.apiLimitGetTransfers;
    if (limit > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, where));
    const accounts = feedAccounts(ctx, list);
    const { head, lib } = headAndIrreversible(ctx);
    const start = cursor ?? afterBlock(head);
    const lastBlock = irreversibleOnly ? lib : head;
    out.text('{"transfers":[');
    let n = 0;
    let last: Position | undefined;
    for (const e of readTransfers(ctx.store.transferFeed, accounts, start, lastBlock, limit, () => out.skipped())) {
      // A transfer's cursor is where a read after it starts: resuming from it never repeats it.
      const cursorText = encodeCursor(positionAfter(e.position));
      out.text(n > 0 ? `,{"cursor":"${cursorText}",` : `{"cursor":"${cursorText}",`);
      out.raw(e.body);
      out.text(e.position[0] <= lib ? ',"irreversible":true}' : ',"irreversible":false}');
      last = e.position;
      n++;
    }
    // A short page read everything up to its last block: the next read starts after that block (or
    // where the cursor already was, when it is further on, as a cursor from a replica that is ahead
    // of this one is: going back would repeat transfers). A full page stops after its last transfer.
    const next = n < limit ? laterPosition(start, afterBlock(lastBlock)) : last ? positionAfter(last) : start;
    out.text(`],"next_cursor":"${encodeCursor(next)}","head_block_num":${head},"last_irreversible_block_num":${lib}}`);
  },
} satisfies HandlersFor<typeof depositsApi>;
