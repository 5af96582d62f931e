// database_api: Authority and validation, and Proposed transactions: who must sign a
// transaction, and which proposals wait on an account. Transactions are parsed as fc's from_variant leaves them; authorities are read from the
// stored accounts.

import { asArray, asString } from '../../../src/api/params.js';
import { RpcError } from '../../../src/errors.js';
import { packSignedTransaction, packTransaction } from '../../../src/chain/protocol/serializer.js';
import { withProgress } from '../../../src/chain/protocol/pack/combinators.js';
import { requiredFeesOf, type PriceJson } from '../../../src/chain/protocol/fees.js';
import { potentialSignatures, requiredSignatures, signatureKeys, sortKeys, verifyAuthority, type AuthorityJson } from '../../../src/chain/protocol/authority.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../../context.js';
import { asPublicKey, asTransaction, serializerError } from './arguments.js';
import { notSupported } from './checks.js';
import { chainId, globals, mustParse, writeObjects } from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';
import type { ReplyWriter } from '../../reply-writer.js';

/** GRAPHENE_MAX_SIG_CHECK_DEPTH, verify_authority's default recursion. */
const MAX_SIG_CHECK_DEPTH = 2;

/** Authority lookups for the authority checks: `id(_db).active` / `.owner`, which throw if absent. */
function authorityLookups(ctx: WorkerContext): { getActive: (id: number) => AuthorityJson; getOwner: (id: number) => AuthorityJson } {
  const cache = new Map<number, { owner: AuthorityJson; active: AuthorityJson }>();
  const get = (id: number) => {
    let a = cache.get(id);
    if (!a) {
      a = mustParse<{ owner: AuthorityJson; active: AuthorityJson }>(ctx, [1, 2, id]);
      cache.set(id, a);
    }
    return a;
  };
  return { getActive: (id) => get(id).active, getOwner: (id) => get(id).owner };
}

/** The keys that signed a transaction, or an fc error. */
function trxSignatureKeys(ctx: WorkerContext, trx: Record<string, unknown>): string[] {
  try {
    return signatureKeys(chainId(ctx), trx);
  } catch (err) {
    throw serializerError(err);
  }
}

function maxAuthorityDepth(ctx: WorkerContext): number {
  return Number(globals(ctx).parameters.max_authority_depth ?? MAX_SIG_CHECK_DEPTH);
}

/**
 * What database_api passes to the authority checks. HARDFORK_CORE_584 (2019, an owner authority may
 * stand in for an active one at any depth) and HARDFORK_CORE_210 (2020, custom_operation's
 * required_auths count) are long past on any chain this node serves.
 */
const checkOptions = (ctx: WorkerContext) => ({
  ...authorityLookups(ctx),
  allowNonImmediateOwner: true,
  ignoreCustomOperationRequiredAuths: false,
  maxRecursion: maxAuthorityDepth(ctx),
});

/**
 * A transaction read and packed, written as hex. Reading and packing thousands of operations look
 * at the call's deadline as they go (withProgress): neither writes rows the reply writer would count.
 */
function writeHex(trxArg: unknown, out: ReplyWriter, pack: (trx: unknown) => Uint8Array): void {
  withProgress(
    () => out.checkDeadline(),
    () => {
      const trx = asTransaction(trxArg);
      try {
        out.json(Buffer.from(pack(trx)).toString('hex'));
      } catch (err) {
        throw serializerError(err);
      }
    },
  );
}

export const authorityHandlers = {
  // Authority / validation

  get_transaction_hex(_ctx, [trxArg], out) {
    writeHex(trxArg, out, packSignedTransaction);
  },

  get_transaction_hex_without_sig(_ctx, [trxArg], out) {
    writeHex(trxArg, out, packTransaction);
  },

  get_required_signatures(ctx, [trxArg, keysArg], out) {
    const trx = asTransaction(trxArg);
    const available = sortKeys(asArray(keysArg).map(asPublicKey));
    const existing = trxSignatureKeys(ctx, trx);
    const keys = requiredSignatures(trx.operations as unknown[], existing, { ...checkOptions(ctx), availableKeys: available });
    out.json(keys);
  },

  get_potential_signatures(ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    const existing = trxSignatureKeys(ctx, trx);
    out.json(potentialSignatures(trx.operations as unknown[], existing, checkOptions(ctx)).keys);
  },

  get_potential_address_signatures(ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    const existing = trxSignatureKeys(ctx, trx);
    out.json(potentialSignatures(trx.operations as unknown[], existing, checkOptions(ctx)).addresses);
  },

  verify_authority(ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    const sigs = trxSignatureKeys(ctx, trx);
    // Core's database_api::verify_authority passes max_authority_depth where signed_transaction::
    // verify_authority takes ignore_custom_operation_required_auths, and leaves max_recursion at its
    // default, GRAPHENE_MAX_SIG_CHECK_DEPTH: so custom_operation's required_auths are not checked
    // (unless max_authority_depth is 0) and accounts nest two deep, whatever the parameter says.
    const depth = maxAuthorityDepth(ctx);
    verifyAuthority(trx.operations as unknown[], sigs, { ...checkOptions(ctx), ignoreCustomOperationRequiredAuths: depth !== 0, maxRecursion: MAX_SIG_CHECK_DEPTH });
    out.json(true);
  },

  verify_account_authority(ctx, [nameOrId, signersArg], out) {
    const name = asString(nameOrId);
    const keys = sortKeys(asArray(signersArg).map(asPublicKey));
    const account = resolveAccount(ctx, name, true)!;
    // Core checks a dummy transfer from the account, with verify_authority's default depth.
    const op = [0, { fee: { amount: 0, asset_id: '1.3.0' }, from: `1.2.${account}`, to: '1.2.0', amount: { amount: 0, asset_id: '1.3.0' }, extensions: [] }];
    let ok = true;
    try {
      verifyAuthority([op], keys, { ...checkOptions(ctx), maxRecursion: MAX_SIG_CHECK_DEPTH });
    } catch (err) {
      // Any fc exception means "not authorised" (database_api.cpp catches fc::exception).
      if (!(err instanceof RpcError)) throw err;
      ok = false;
    }
    out.json(ok);
  },

  get_required_fees(ctx, [opsArg, assetArg], out) {
    const ops = asArray(opsArg);
    const asset = resolveAsset(ctx, asString(assetArg), true)!;
    const rate = mustParse<{ options: { core_exchange_rate: PriceJson } }>(ctx, [1, 3, asset]).options.core_exchange_rate;
    const schedule = globals(ctx).parameters.current_fees;
    out.json(ops.map((op) => requiredFeesOf(op, schedule, rate)));
  },

  // Proposed transactions: Core's required_approval_index (the store's proposal index [1, account,
  // proposal]: every proposal that requires the account's approval or holds it), by proposal id.

  get_proposed_transactions(ctx, [nameOrId], out) {
    const account = resolveAccount(ctx, asString(nameOrId), true)!;
    const keys: [number, number, number][] = [];
    for (const k of ctx.store.proposalIndex.getKeys({ start: [1, account], end: [1, account + 1] })) keys.push([1, 10, k[2]!]);
    writeObjects(ctx, out, keys);
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
