// database_api: Keys and Accounts. This node has api_helper_indexes' key and account reference
// indexes, so the reference calls are served.

import type { Database } from 'lmdb';
import { asArray, asString, asUint32 } from '../../../src/api/params.js';
import { lookupKey, lowerBoundKey, resolveAccount } from '../../context.js';
import { answerNothing } from '../unkept-answers.js';
import { asPublicKey } from './arguments.js';
import { checkLimit } from './checks.js';
import { assetsIssuedBy, balanceInstances } from './account-holdings.js';
import { instancesByAccount, lookupVotes } from './vote-lookup.js';
import { objectIdParts } from '../../../src/chain/fc/object-id.js';
import { NULL, accountName, callsByBorrower, countOf, mustParse, rawObject, settlementsByOwner, writeInstances, writeList, writeObjects, type Key } from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

const MORE_DATA_KEYS = ['balances', 'vesting_balances', 'limit_orders', 'call_orders', 'settle_orders', 'proposals', 'assets', 'withdraws_from', 'withdraws_to', 'htlcs_from', 'htlcs_to'] as const;

export const accountHandlers = {
  // Keys

  get_key_references(ctx, [keysArg], out) {
    const keys = asArray(keysArg).map(asPublicKey);
    checkLimit('get_key_references', keys.length, ctx.config.apiLimits.api_limit_get_key_references, 'keys.size()', 'Number of querying keys can not be greater than ${configured_limit}');
    writeList(out, keys.length, (i) => {
      const accounts: string[] = [];
      // A key may be referenced by any number of accounts: the rows gathered count for the deadline.
      for (const k of ctx.store.keyReferences.getKeys({ start: [keys[i]!, 0], end: [keys[i]!, Number.MAX_SAFE_INTEGER] })) {
        accounts.push(`1.2.${k[1]}`);
        out.skipped();
      }
      out.json(accounts);
    });
  },

  is_public_key_registered(ctx, [keyArg], out) {
    const s = asString(keyArg);
    let known = false;
    if (s !== '') {
      try {
        asPublicKey(s);
        for (const _ of ctx.store.keyReferences.getKeys({ start: [s, 0], end: [s, Number.MAX_SAFE_INTEGER], limit: 1 })) known = true;
      } catch {
        // An invalid key is simply not registered (Core catches and answers false).
        known = false;
      }
    }
    out.json(known);
  },

  // Accounts

  get_account_id_from_string(ctx, [nameOrId], out) {
    out.json(`1.2.${resolveAccount(ctx, asString(nameOrId), true)}`);
  },

  get_accounts(ctx, [namesOrIds], out) {
    const keys = asArray(namesOrIds).map((v) => {
      const instance = resolveAccount(ctx, asString(v), false);
      if (instance !== undefined) out.subscribe(`1.2.${instance}`);
      return instance === undefined ? undefined : ([1, 2, instance] as Key);
    });
    writeObjects(ctx, out, keys);
  },

  get_full_accounts(ctx, [namesOrIds], out) {
    const names = asArray(namesOrIds).map(asString);
    checkLimit('get_full_accounts', names.length, ctx.config.apiLimits.api_limit_get_full_accounts, 'names_or_ids.size()', 'Number of querying accounts can not be greater than ${configured_limit}');
    const listLimit = ctx.config.apiLimits.api_limit_get_full_accounts_lists;
    // A std::map keyed by the requested string: sorted bytewise, the last of equal keys kept.
    const found = new Map<string, number>();
    for (const n of names) {
      const instance = resolveAccount(ctx, n, false);
      if (instance !== undefined) found.set(n, instance);
    }
    // Subscribing follows the caller's order; the front end caps it at api_limit_get_full_accounts_subscribe.
    for (const instance of found.values()) out.subscribeAccount(instance);
    const requested = [...found.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    writeList(out, requested.length, (i) => {
      const key = requested[i]!;
      const instance = found.get(key)!;
      const account = mustParse<{ registrar: string; referrer: string; lifetime_referrer: string; options: { votes: string[] }; cashback_vb?: string }>(ctx, [1, 2, instance]);
      const more: Record<string, boolean> = Object.fromEntries(MORE_DATA_KEYS.map((k) => [k, false]));
      out.text('[').json(key).text(',{"account":').raw(rawObject(ctx, [1, 2, instance])!);
      out.text(',"statistics":').raw(rawObject(ctx, [2, 6, instance]) ?? NULL);
      out.text(',"registrar_name":').json(accountName(ctx, account.registrar));
      out.text(',"referrer_name":').json(accountName(ctx, account.referrer));
      out.text(',"lifetime_referrer_name":').json(accountName(ctx, account.lifetime_referrer));
      out.text(`,"votes":[${lookupVotes(ctx, account.options.votes ?? []).join(',')}]`);
      // cashback_balance: the account's cashback vesting balance, once it has one (an optional: absent before).
      if (account.cashback_vb) out.text(',"cashback_balance":').raw(rawObject(ctx, [1, 13, objectIdParts(account.cashback_vb)!.instance]) ?? NULL);
      const balances = balanceInstances(ctx, instance, listLimit + 1);
      if (balances.length > listLimit) {
        balances.length = listLimit;
        more.balances = true;
      }
      out.text(',"balances":');
      writeObjects(ctx, out, balances.map((b) => [2, 5, b.instance] as Key));
      // The account's limit orders by id (by_account), at most the list limit.
      const orders: Key[] = [];
      for (const [, o] of ctx.store.accountOrders.getKeys({ start: [instance, 0], end: [instance + 1], limit: listLimit + 1 })) orders.push([1, 7, o]);
      if (orders.length > listLimit) {
        orders.length = listLimit;
        more.limit_orders = true;
      }
      // The account's vesting balances by owner (by_account), at most the list limit.
      const vesting = instancesByAccount(ctx, 13, instance, listLimit + 1);
      if (vesting.length > listLimit) {
        vesting.length = listLimit;
        more.vesting_balances = true;
      }
      out.text(',"vesting_balances":');
      writeObjects(ctx, out, vesting.map((v) => [1, 13, v] as Key));
      out.text(',"limit_orders":');
      writeObjects(ctx, out, orders);
      // Proposals (required_approval_index) and HTLCs (by_from_id, by_to_id), by id, each at most the list limit.
      const listed = (name: 'proposals' | 'htlcs_from' | 'htlcs_to', index: Database<number, number[]>, prefix: number[], type: number): void => {
        const keys: Key[] = [];
        for (const k of index.getKeys({ start: prefix, end: [prefix[0]!, prefix[1]! + 1], limit: listLimit + 1 })) keys.push([1, type, k[2]!]);
        if (keys.length > listLimit) {
          keys.length = listLimit;
          more[name] = true;
        }
        out.text(`,"${name}":`);
        writeObjects(ctx, out, keys);
      };
      // Debt positions (call_order_index by_account: by debt asset) and force settlements (by id), each at most the list limit.
      const owned = (name: 'call_orders' | 'settle_orders', type: number, instances: number[]): void => {
        if (instances.length > listLimit) {
          instances.length = listLimit;
          more[name] = true;
        }
        out.text(`,"${name}":`);
        writeInstances(ctx, out, [1, type], instances);
      };
      owned('call_orders', 8, callsByBorrower(ctx, instance, 0, listLimit + 1));
      owned('settle_orders', 4, settlementsByOwner(ctx, instance, 0, listLimit + 1));
      listed('proposals', ctx.store.proposalIndex, [1, instance], 10);
      const issued = assetsIssuedBy(ctx, instance);
      if (issued.length > listLimit) {
        issued.length = listLimit;
        more.assets = true;
      }
      out.text(',"assets":').json(issued.map((a) => `1.3.${a}`));
      out.text(',"withdraws_from":[],"withdraws_to":[]');
      listed('htlcs_from', ctx.store.htlcIndex, [1, instance], 16);
      listed('htlcs_to', ctx.store.htlcIndex, [2, instance], 16);
      out.text(',"more_data_available":').json(more).text('}]');
    });
  },

  get_top_voters(ctx, [limitArg], out) {
    checkLimit('get_top_voters', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_top_voters);
    // Core lists statistics with vote_tally_time >= last_vote_tally_time; no account has voted on
    // this chain (votes are not tallied), so none qualifies.
    answerNothing(out, 'database', 'get_top_voters');
  },

  get_account_by_name(ctx, [name], out) {
    // An exact name lookup: ids are not accepted here (database_api.cpp:727-739).
    const key = lookupKey(asString(name));
    const instance = key === undefined ? undefined : ctx.store.accountNames.get(key);
    out.raw((instance !== undefined && ctx.store.objects.getBinaryFast([1, 2, instance])) || NULL);
  },

  get_account_references(ctx, [nameOrId], out) {
    const account = resolveAccount(ctx, asString(nameOrId), true)!;
    const refs: string[] = [];
    for (const k of ctx.store.accountReferences.getKeys({ start: [account, 0], end: [account, Number.MAX_SAFE_INTEGER] })) {
      refs.push(`1.2.${k[1]}`);
      out.skipped();
    }
    out.json(refs);
  },

  lookup_account_names(ctx, [names], out) {
    const keys = asArray(names).map((v) => {
      const instance = resolveAccount(ctx, asString(v), false);
      return instance === undefined ? undefined : ([1, 2, instance] as Key);
    });
    writeObjects(ctx, out, keys);
  },

  lookup_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = lowerBoundKey(asString(lowerBound));
    const limit = asUint32(limitArg);
    checkLimit('lookup_accounts', limit, ctx.config.apiLimits.api_limit_lookup_accounts);
    const pairs: [string, string][] = [];
    if (limit > 0) for (const { key, value } of ctx.store.accountNames.getRange({ start: lower, limit })) pairs.push([key, `1.2.${value}`]);
    // Core subscribes only when exactly one account was asked for.
    if (limit === 1) for (const [, id] of pairs) out.subscribe(id);
    out.json(pairs);
  },

  get_account_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 2));
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
