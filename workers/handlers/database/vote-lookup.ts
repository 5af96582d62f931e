// Votes and the witnesses they name, read by get_full_accounts (an account's votes) as well as by
// the witness and vote calls.
import { FC, RpcError, fcError } from '../../../src/errors.js';
import type { WorkerContext } from '../../context.js';
import { instancesOf, mustParse } from './store-reads.js';

/** Witnesses (1.6.x) as parsed objects; there are few. */
export function witnesses(ctx: WorkerContext): { instance: number; witness_account: string; vote_id: string }[] {
  const out: { instance: number; witness_account: string; vote_id: string }[] = [];
  for (const i of instancesOf(ctx, 1, 6)) out.push({ instance: i, ...mustParse<{ witness_account: string; vote_id: string }>(ctx, [1, 6, i]) });
  return out;
}

/** Committee members (1.5.x) as parsed objects: the genesis candidates, few. */
export function committeeMembers(ctx: WorkerContext): { instance: number; committee_member_account: string; vote_id: string }[] {
  const out: { instance: number; committee_member_account: string; vote_id: string }[] = [];
  for (const i of instancesOf(ctx, 1, 5)) out.push({ instance: i, ...mustParse<{ committee_member_account: string; vote_id: string }>(ctx, [1, 5, i]) });
  return out;
}

/** database_api_impl::lookup_vote_ids, as JSON texts of objects or null (a type-3 id adds nothing). */
export function lookupVotes(ctx: WorkerContext, votes: readonly string[]): string[] {
  const result: string[] = [];
  let ws: ReturnType<typeof witnesses> | undefined;
  let cs: ReturnType<typeof committeeMembers> | undefined;
  for (const v of votes) {
    const type = Number(v.split(':')[0]);
    if (type === 1) {
      ws ??= witnesses(ctx);
      const w = ws.find((x) => x.vote_id === v);
      result.push(w ? ctx.store.objects.get([1, 6, w.instance])!.toString('utf8') : 'null');
    } else if (type === 0) {
      cs ??= committeeMembers(ctx);
      const c = cs.find((x) => x.vote_id === v);
      result.push(c ? ctx.store.objects.get([1, 5, c.instance])!.toString('utf8') : 'null');
    } else if (type === 2) {
      result.push('null'); // no workers
    } else if (type === 3) {
      // VOTE_TYPE_COUNT: Core's switch breaks without adding anything.
    } else {
      throw new RpcError(fcError(FC.outOfRange, '', { id: v }));
    }
  }
  return result;
}
