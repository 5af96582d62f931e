// database_api: Witnesses, Committee members, Workers, Votes, and Tickets (which lock core asset for
// voting power): who may be voted for, and the votes. The chain has its genesis witnesses (1.6.x)
// and committee members (1.5.x) and those witness_create, committee_member_create and worker_create
// add (1.14.x), found by account and vote id through the governance index; no tickets
// (src/api/unkept.ts).

import { asArray, asObjectId, asOptionalBool, asString, asUint32 } from '../../../src/api/params.js';
import { FC, RpcError, assertError, fcError } from '../../../src/errors.js';
import { resolveAccount, type WorkerContext } from '../../context.js';
import { answerNothing } from '../unkept-answers.js';
import { ids } from './arguments.js';
import { byAccountPage, checkLimit, listPage } from './checks.js';
import { instancesByAccount, lookupVotes, memberOfAccount } from './vote-lookup.js';
import { NULL, countOf, headTime, instancesOf, mustParse, parseObject, rawObject, writeObjects, type Key } from './store-reads.js';
import { parseFcTime } from '../../../src/chain/fc/fc-json.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

export const governanceHandlers = {
  // Witnesses, 1.6.x

  get_witnesses(ctx, [idsArg], out) {
    writeObjects(ctx, out, ids(idsArg, 1, 6).map((id) => [1, 6, id.instance] as Key));
  },

  get_witness_by_account(ctx, [nameOrId], out) {
    const w = memberOfAccount(ctx, 6, resolveAccount(ctx, asString(nameOrId), true)!);
    out.raw((w !== undefined && rawObject(ctx, [1, 6, w])) || NULL);
  },

  lookup_witness_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('lookup_witness_accounts', limit, ctx.config.apiLimits.api_limit_lookup_witness_accounts);
    out.json(byAccountName(ctx, members<{ witness_account: string }>(ctx, 6).map((w) => ({ account: w.witness_account, id: w.id })), lower, limit));
  },

  get_witness_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 6));
  },

  // Committee members, 1.5.x

  get_committee_members(ctx, [idsArg], out) {
    writeObjects(ctx, out, ids(idsArg, 1, 5).map((id) => [1, 5, id.instance] as Key));
  },

  get_committee_member_by_account(ctx, [nameOrId], out) {
    const c = memberOfAccount(ctx, 5, resolveAccount(ctx, asString(nameOrId), true)!);
    out.raw((c !== undefined && rawObject(ctx, [1, 5, c])) || NULL);
  },

  lookup_committee_member_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('lookup_committee_member_accounts', limit, ctx.config.apiLimits.api_limit_lookup_committee_member_accounts);
    out.json(byAccountName(ctx, members<{ committee_member_account: string }>(ctx, 5).map((c) => ({ account: c.committee_member_account, id: c.id })), lower, limit));
  },

  get_committee_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 5));
  },

  // Workers, 1.14.x

  get_all_workers(ctx, [isExpired], out) {
    const expired = asOptionalBool(isExpired);
    const all = [...instancesOf(ctx, 1, 14)];
    if (expired === undefined) {
      // by_id
      writeObjects(ctx, out, all.map((i) => [1, 14, i] as Key));
      return;
    }
    // by_end_date: expired ones end at or before the head block time, the others at or after it
    // (a worker ending exactly now is in both, as Core's lower_bound and upper_bound give it).
    const now = parseFcTime(headTime(ctx));
    const ends = all.map((i) => ({ i, end: parseFcTime(mustParse<{ work_end_date: string }>(ctx, [1, 14, i]).work_end_date) }));
    const chosen = ends.filter((w) => (expired ? w.end <= now : w.end >= now)).sort((a, b) => a.end - b.end || a.i - b.i);
    writeObjects(ctx, out, chosen.map((w) => [1, 14, w.i] as Key));
  },

  get_workers_by_account(ctx, [nameOrId], out) {
    const account = resolveAccount(ctx, asString(nameOrId), true)!;
    writeObjects(ctx, out, instancesByAccount(ctx, 14, account).map((i) => [1, 14, i] as Key));
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

/** Every witness or committee member, by id: Core's lookup_*_accounts walk them all too (they are few). */
function members<T>(ctx: WorkerContext, type: 5 | 6): (T & { id: string })[] {
  return [...instancesOf(ctx, 1, type)].map((i) => mustParse<T & { id: string }>(ctx, [1, type, i]));
}

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
