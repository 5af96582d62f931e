// Votes and the objects they name (witnesses 1.6.x, committee members 1.5.x, workers 1.14.x), read
// by get_full_accounts (an account's votes) as well as by the witness, committee, worker and vote
// calls; and the by-account index of those objects and of vesting balances (1.13.x). Both are the
// chain writer's `governance` index (store.ts).
import { FC, RpcError, fcError } from '../../../src/errors.js';
import type { WorkerContext } from '../../context.js';

/** The instances of an account's objects of one type (Core's by_account), in id order, at most `limit`. */
export function instancesByAccount(ctx: WorkerContext, type: number, account: number, limit = Number.MAX_SAFE_INTEGER): number[] {
  const out: number[] = [];
  for (const k of ctx.store.governance.getKeys({ start: ['a', type, account], end: ['a', type, account + 1], limit })) out.push(k[3] as number);
  return out;
}

/** The account's one witness (1.6) or committee member (1.5) instance, or undefined. */
export const memberOfAccount = (ctx: WorkerContext, type: 5 | 6, account: number): number | undefined => instancesByAccount(ctx, type, account, 1)[0];

/** The instance of the object holding a vote id ("type:instance"), or undefined. */
const holderOfVote = (ctx: WorkerContext, type: number, instance: number): number | undefined => ctx.store.governance.get(['v', type, instance]);

/** database_api_impl::lookup_vote_ids, as JSON texts of objects or null (a type-3 id adds nothing). */
export function lookupVotes(ctx: WorkerContext, votes: readonly string[]): string[] {
  const result: string[] = [];
  for (const v of votes) {
    const [type, instance] = v.split(':').map(Number) as [number, number];
    const objectType = type === 0 ? 5 : type === 1 ? 6 : type === 2 ? 14 : undefined;
    if (objectType !== undefined) {
      // A worker is found by its vote_for or its vote_against id, both in the index.
      const holder = holderOfVote(ctx, type, instance);
      result.push(holder === undefined ? 'null' : ctx.store.objects.get([1, objectType, holder])!.toString('utf8'));
    } else if (type === 3) {
      // VOTE_TYPE_COUNT: Core's switch breaks without adding anything.
    } else {
      throw new RpcError(fcError(FC.outOfRange, '', { id: v }));
    }
  }
  return result;
}
