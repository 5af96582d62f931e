// database_api: Witnesses, Committee members, Workers, Votes, and Tickets (which lock core asset for
// voting power): who may be voted for, and the votes. The chain has its genesis witnesses (1.6.x)
// and committee members (1.5.x), and no workers or tickets (src/api/unkept.ts).

import { asArray, asObjectId, asOptionalBool, asString, asUint32 } from '../../../src/api/params.js';
import { FC, RpcError, assertError, fcError } from '../../../src/errors.js';
import { resolveAccount, type WorkerContext } from '../../context.js';
import { answerNothing } from '../unkept-answers.js';
import { ids } from './arguments.js';
import { byAccountPage, checkLimit, listPage } from './checks.js';
import { committeeMembers, lookupVotes, witnesses } from './vote-lookup.js';
import { NULL, countOf, parseObject, rawObject, writeObjects, type Key } from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

export const governanceHandlers = {
  // Witnesses: the genesis candidates, 1.6.x.

  get_witnesses(ctx, [idsArg], out) {
    writeObjects(ctx, out, ids(idsArg, 1, 6).map((id) => [1, 6, id.instance] as Key));
  },

  get_witness_by_account(ctx, [nameOrId], out) {
    const account = `1.2.${resolveAccount(ctx, asString(nameOrId), true)}`;
    const w = witnesses(ctx).find((x) => x.witness_account === account);
    out.raw((w && rawObject(ctx, [1, 6, w.instance])) || NULL);
  },

  lookup_witness_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('lookup_witness_accounts', limit, ctx.config.apiLimits.api_limit_lookup_witness_accounts);
    out.json(byAccountName(ctx, witnesses(ctx).map((w) => ({ account: w.witness_account, id: `1.6.${w.instance}` })), lower, limit));
  },

  get_witness_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 6));
  },

  // Committee members: the genesis candidates of a genesis in Core's form, 1.5.x.

  get_committee_members(ctx, [idsArg], out) {
    writeObjects(ctx, out, ids(idsArg, 1, 5).map((id) => [1, 5, id.instance] as Key));
  },

  get_committee_member_by_account(ctx, [nameOrId], out) {
    const account = `1.2.${resolveAccount(ctx, asString(nameOrId), true)}`;
    const c = committeeMembers(ctx).find((x) => x.committee_member_account === account);
    out.raw((c && rawObject(ctx, [1, 5, c.instance])) || NULL);
  },

  lookup_committee_member_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('lookup_committee_member_accounts', limit, ctx.config.apiLimits.api_limit_lookup_committee_member_accounts);
    out.json(byAccountName(ctx, committeeMembers(ctx).map((c) => ({ account: c.committee_member_account, id: `1.5.${c.instance}` })), lower, limit));
  },

  get_committee_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 5));
  },

  // Workers: none exist.

  get_all_workers(_ctx, [isExpired], out) {
    asOptionalBool(isExpired);
    answerNothing(out, 'database', 'get_all_workers');
  },

  get_workers_by_account(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    answerNothing(out, 'database', 'get_workers_by_account');
  },

  get_worker_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 14));
  },

  // Votes

  lookup_vote_ids(ctx, [votesArg], out) {
    const votes = asArray(votesArg).map(asVoteId);
    checkLimit('lookup_vote_ids', votes.length, ctx.config.apiLimits.api_limit_lookup_vote_ids, 'votes.size()', 'Number of querying votes can not be greater than ${configured_limit}');
    out.text(`[${lookupVotes(ctx, votes).join(',')}]`);
  },

  // Tickets: none exist.

  list_tickets(ctx, [limitArg, startArg], out) {
    listPage('list_tickets', [1, 18], limitArg, startArg, ctx.config.apiLimits.api_limit_get_tickets);
    answerNothing(out, 'database', 'list_tickets');
  },

  get_tickets_by_account(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_tickets_by_account', [1, 18], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_tickets);
    answerNothing(out, 'database', 'get_tickets_by_account');
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;

/**
 * lookup_witness_accounts and lookup_committee_member_accounts: [account name, object id] pairs from
 * `lower` on, by name, at most `limit` (Core walks its by-name account index).
 */
function byAccountName(ctx: WorkerContext, members: readonly { account: string; id: string }[], lower: string, limit: number): [string, string][] {
  const byName = new Map<string, string>();
  for (const m of members) {
    const name = parseObject<{ name: string }>(ctx, [1, 2, asObjectId(m.account, { space: 1, type: 2 }).instance])?.name;
    if (name !== undefined && Buffer.compare(Buffer.from(name), Buffer.from(lower)) >= 0 && !byName.has(name)) byName.set(name, m.id);
  }
  return [...byName].sort((a, b) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0]))).slice(0, limit);
}

/** vote_id_type from "type:instance" (protocol/vote.hpp). */
function asVoteId(v: unknown): string {
  const s = asString(v);
  const colon = s.indexOf(':');
  if (colon < 0) throw new RpcError(assertError('colon != std::string::npos: ', { serial: s }));
  const type = Number.parseInt(s.slice(0, colon), 10);
  const instance = Number.parseInt(s.slice(colon + 1), 10);
  if (Number.isNaN(type) || Number.isNaN(instance)) throw new RpcError(fcError(FC.invalidArg, 'stoul: ${serial}', { serial: s }));
  return `${type & 0xff}:${instance & 0xffffff}`;
}
