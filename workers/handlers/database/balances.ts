// database_api: Balances, and Blinded balances. Balances are the stored 2.5.x objects, found through
// the store's (account, asset) index; genesis balance objects (1.15.x) through their owner's address;
// vesting balances (1.13.x) through the governance index by owner; there are no blinded balances.

import { asArray, asString } from '../../../src/api/params.js';
import { FC, RpcError, fcError } from '../../../src/errors.js';
import { resolveAccount, type WorkerContext } from '../../context.js';
import type { ReplyWriter } from '../../reply-writer.js';
import { answerNothing } from '../unkept-answers.js';
import { asAddress, ids } from './arguments.js';
import { balanceInstances, balanceText } from './account-holdings.js';
import { mustParse, writeList, writeObjects, type Key } from './store-reads.js';
import { instancesByAccount } from './vote-lookup.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

export const balanceHandlers = {
  // Balances

  get_account_balances(ctx, [nameOrId, assetsArg], out) {
    writeBalances(ctx, out, nameOrId, assetsArg);
  },

  get_named_account_balances(ctx, [name, assetsArg], out) {
    // Core runs the same code (my->get_account_balances), so ids are accepted too.
    writeBalances(ctx, out, name, assetsArg);
  },

  get_balance_objects(ctx, [addrs], out) {
    // Genesis balance objects (1.15.x) still to claim, by owner address and then asset (Core's by_owner).
    const owners = asArray(addrs).map(asAddress);
    const found: Key[] = [];
    for (const owner of owners) {
      for (const k of ctx.store.balanceOwners.getKeys({ start: [owner], end: [owner, Number.MAX_SAFE_INTEGER] })) found.push([1, 15, k[2]]);
    }
    writeObjects(ctx, out, found);
  },

  get_vested_balances(ctx, [objs], out) {
    // balance_object::available: the whole balance, none of them vesting (genesis.ts refuses vesting ones).
    const balances = ids(objs, 1, 15).map((b) => mustParse<{ balance: unknown }>(ctx, [1, 15, b.instance]).balance);
    out.json(balances);
  },

  get_vesting_balances(ctx, [nameOrId], out) {
    // The account's vesting balances (1.13.x) by owner (by_account), in id order.
    const account = resolveAccount(ctx, asString(nameOrId), true)!;
    writeObjects(ctx, out, instancesByAccount(ctx, 13, account).map((i) => [1, 13, i] as Key));
  },

  // Blinded balances: none exist.

  get_blinded_balances(_ctx, [commitments], out) {
    for (const c of asArray(commitments)) {
      const s = asString(c);
      // commitment_type is 33 bytes, hex in JSON.
      if (!/^[0-9a-fA-F]{66}$/.test(s)) throw new RpcError(fcError(FC.parse, 'commitment ${c} is not 33 bytes of hex', { c: s }));
    }
    answerNothing(out, 'database', 'get_blinded_balances');
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;

/** get_account_balances: all of an account's balances, or those of the assets asked for. */
function writeBalances(ctx: WorkerContext, out: ReplyWriter, nameOrId: unknown, assetsArg: unknown): void {
  const name = asString(nameOrId);
  // flat_set<asset_id_type>: ascending, each asset once.
  const assets = [...new Set(ids(assetsArg, 1, 3).map((a) => a.instance))].sort((a, b) => a - b);
  const account = resolveAccount(ctx, name, true)!;
  if (assets.length === 0) {
    // Every balance object of the account, in asset order (zero balances included).
    const all = balanceInstances(ctx, account);
    writeList(out, all.length, (i) => out.text(`{"amount":${balanceText(ctx, all[i]!.instance)},"asset_id":"1.3.${all[i]!.asset}"}`));
    return;
  }
  writeList(out, assets.length, (i) => {
    const instance = ctx.store.balances.get([account, assets[i]!]);
    out.text(`{"amount":${instance === undefined ? '0' : balanceText(ctx, instance)},"asset_id":"1.3.${assets[i]}"}`);
  });
}
