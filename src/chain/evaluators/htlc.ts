// Hashed time-locked contracts (1.16.x): htlc_create (49), htlc_redeem (50) with its virtual
// htlc_redeemed (51), htlc_extend (52), and the virtual htlc_refund (53) of an HTLC that expires, as
// BitShares Core has them, every hardfork of their rules having passed (BSIP64: memos and hash160):
//
//  - the evaluators: htlc_evaluator.cpp; validate() and fees: protocol/htlc.cpp;
//  - the object (htlc_object.hpp, reflected in small_objects.cpp): transfer, conditions, memo;
//  - expiry: database::clear_expired_htlcs (db_update.cpp), at the end of each block.
//
// The chain's HTLC limits are the committee's: the global properties' parameters.extensions
// .updatable_htlc_options ({max_timeout_secs, max_preimage_size}), set in the genesis file's
// initial_parameters as Core reads them. A chain whose parameters lack them refuses htlc_create, as
// Core does ("HTLC Committee options are not set."); this chain has no committee proposals to set
// them later, so a chain that wants HTLCs names them in its genesis, as the bundled devnet genesis does.
//
// Indexes (store.ts, htlcIndex): [0, expiration, instance] (by_expiration), [1, from, instance]
// (by_from_id), [2, to, instance] (by_to_id).

import { createHash } from 'node:crypto';
import { fcTime, i64, parseFcTime, TIME_MAX } from '../fc/fc-json.js';
import { ChainError } from './chain-error.js';
import type { ObjectKey } from '../store/store.js';
import { accountInstance, adjustBalance, amountOf, assetInstance, balanceOf, instanceOf, payFee, type EvalContext, type Evaluated } from './ledger.js';
import { isAuthorizedAsset } from './ledger.js';

type Obj = Record<string, unknown>;

const INDEX_EXPIRATION = 0;
const INDEX_FROM = 1;
const INDEX_TO = 2;
/** asset_issuer_permission_flags::transfer_restricted */
const TRANSFER_RESTRICTED = 0x08;

const htlcKey = (instance: number): ObjectKey => [1, 16, instance];
const headTime = (ctx: EvalContext): number => ctx.headTime ?? ctx.blockTime;

/** htlc_hash's algorithms, by their position in the static_variant: ripemd160, sha1, sha256, hash160. */
const HASHES: readonly ((data: Buffer) => Buffer)[] = [
  (d) => createHash('ripemd160').update(d).digest(),
  (d) => createHash('sha1').update(d).digest(),
  (d) => createHash('sha256').update(d).digest(),
  // fc::hash160: ripemd160 of the sha256
  (d) => createHash('ripemd160').update(createHash('sha256').update(d).digest()).digest(),
];

/** The committee's HTLC options, or undefined when the chain parameters have none. */
function htlcOptions(ctx: EvalContext): { max_timeout_secs: number; max_preimage_size: number } | undefined {
  const parameters = ctx.state.get([2, 0, 0]).parameters as Obj;
  const options = (parameters.extensions as Obj | undefined)?.updatable_htlc_options as { max_timeout_secs: unknown; max_preimage_size: unknown } | undefined;
  return options ? { max_timeout_secs: Number(options.max_timeout_secs), max_preimage_size: Number(options.max_preimage_size) } : undefined;
}

interface Htlc {
  readonly instance: number;
  readonly obj: Obj;
  readonly from: number;
  readonly to: number;
  readonly amount: bigint;
  readonly asset: number;
  readonly expiration: number;
}

/** `d.get(o.htlc_id)` */
function loadHtlc(ctx: EvalContext, id: unknown): Htlc {
  const instance = instanceOf(id, 1, 16, 'htlc_id');
  const obj = ctx.state.find(htlcKey(instance));
  if (!obj) throw new ChainError(`maybe_found != nullptr: Unable to find Object 1.16.${instance}`);
  const transfer = obj.transfer as Obj;
  const conditions = obj.conditions as { time_lock: { expiration: string } };
  return {
    instance,
    obj,
    from: instanceOf(transfer.from, 1, 2, 'from'),
    to: instanceOf(transfer.to, 1, 2, 'to'),
    amount: amountOf(transfer.amount),
    asset: instanceOf(transfer.asset_id, 1, 3, 'asset_id'),
    expiration: parseFcTime(conditions.time_lock.expiration),
  };
}

function indexHtlc(ctx: EvalContext, h: { instance: number; from: number; to: number; expiration: number }, present: boolean): void {
  const index = ctx.state.store.htlcIndex;
  const keys = [
    [INDEX_EXPIRATION, h.expiration, h.instance],
    [INDEX_FROM, h.from, h.instance],
    [INDEX_TO, h.to, h.instance],
  ];
  for (const k of keys) {
    if (present) index.putSync(k, 1);
    else index.removeSync(k);
  }
}

function removeHtlc(ctx: EvalContext, h: Htlc): void {
  indexHtlc(ctx, h, false);
  ctx.state.remove(htlcKey(h.instance));
}

const hashLock = (h: Htlc): { preimage_hash: [number, string]; preimage_size: number } => (h.obj.conditions as { hash_lock: { preimage_hash: [number, string]; preimage_size: number } }).hash_lock;

/** htlc_create_evaluator: the amount leaves the sender's balance into the contract. */
export function htlcCreate(ctx: EvalContext, op: Obj): Evaluated {
  // validate()
  const amount = op.amount as { amount?: unknown; asset_id?: unknown } | undefined;
  if (amountOf((op.fee as Obj | undefined)?.amount ?? 0) < 0n) throw new ChainError('fee.amount >= 0: Fee amount should not be negative');
  const value = amountOf(amount?.amount ?? 0);
  if (!(value > 0n)) throw new ChainError('amount.amount > 0: HTLC amount should be greater than zero');

  // prepare_fee, then do_evaluate
  const from = accountInstance(ctx, op.from, 'from');
  const options = htlcOptions(ctx);
  if (!options) throw new ChainError('htlc_options: HTLC Committee options are not set.');
  const claimPeriod = Number(op.claim_period_seconds ?? 0);
  if (!(claimPeriod <= options.max_timeout_secs)) throw new ChainError('o.claim_period_seconds <= htlc_options->max_timeout_secs: HTLC Timeout exceeds allowed length');
  const preimageSize = Number(op.preimage_size ?? 0);
  if (!(preimageSize <= options.max_preimage_size)) throw new ChainError('o.preimage_size <= htlc_options->max_preimage_size: HTLC preimage length exceeds allowed length');
  const asset = assetInstance(ctx, amount?.asset_id, 'amount.asset_id');
  if (!(balanceOf(ctx, from, asset) >= value)) throw new ChainError('d.get_balance( o.from, o.amount.asset_id) >= (o.amount): Insufficient funds');
  const to = accountInstance(ctx, op.to, 'to');
  const assetObj = ctx.state.get([1, 3, asset]);
  const issuer = String(assetObj.issuer);
  const restricted = (Number((assetObj.options as Obj).flags ?? 0) & TRANSFER_RESTRICTED) !== 0;
  if (restricted && op.from !== issuer && op.to !== issuer) {
    throw new ChainError(`!asset_to_transfer.is_transfer_restricted() || op.from == asset_to_transfer.issuer || op.to == asset_to_transfer.issuer: Asset 1.3.${asset} cannot be transfered.`);
  }
  if (!isAuthorizedAsset(ctx, from, assetObj)) throw new ChainError(`is_authorized_asset( d, from_account, asset_to_transfer ): Asset 1.3.${asset} is not authorized for account 1.2.${from}.`);
  if (!isAuthorizedAsset(ctx, to, assetObj)) throw new ChainError(`is_authorized_asset( d, to_account, asset_to_transfer ): Asset 1.3.${asset} is not authorized for account 1.2.${to}.`);

  // do_apply
  adjustBalance(ctx, from, asset, -value);
  const expiration = headTime(ctx) + claimPeriod;
  const memo = (op.extensions as Obj | undefined)?.memo;
  const { instance } = ctx.state.create(1, 16, (id) => {
    const h: Obj = {
      id,
      transfer: { from: `1.2.${from}`, to: `1.2.${to}`, amount: i64(value), asset_id: `1.3.${asset}` },
      conditions: { hash_lock: { preimage_hash: op.preimage_hash, preimage_size: preimageSize }, time_lock: { expiration: fcTime(expiration) } },
    };
    if (memo !== undefined && memo !== null) h.memo = memo;
    return h;
  });
  indexHtlc(ctx, { instance, from, to, expiration }, true);
  payFee(ctx, from, op.fee);
  return { result: [1, `1.16.${instance}`], impacted: [from, to] };
}

/** htlc_redeem_evaluator: the preimage releases the amount to the recipient, with a virtual htlc_redeemed. */
export function htlcRedeem(ctx: EvalContext, op: Obj): Evaluated {
  if (amountOf((op.fee as Obj | undefined)?.amount ?? 0) < 0n) throw new ChainError('fee.amount >= 0: Fee amount should not be negative');
  const redeemer = accountInstance(ctx, op.redeemer, 'redeemer');
  const h = loadHtlc(ctx, op.htlc_id);
  const lock = hashLock(h);
  const preimage = Buffer.from(String(op.preimage ?? ''), 'hex');
  if (lock.preimage_size > 0 && preimage.length !== lock.preimage_size) throw new ChainError('op.preimage.size() == htlc_obj->conditions.hash_lock.preimage_size: Preimage size mismatch.');
  const [algorithm, expected] = lock.preimage_hash;
  const hash = HASHES[algorithm];
  if (!hash || hash(preimage).toString('hex') !== String(expected).toLowerCase()) {
    throw new ChainError('htlc_obj->conditions.hash_lock.preimage_hash.visit( vtor ): Provided preimage does not generate correct hash.');
  }
  // do_apply
  const amount = { amount: i64(h.amount), asset_id: `1.3.${h.asset}` };
  adjustBalance(ctx, h.to, h.asset, h.amount);
  const redeemed = {
    fee: { amount: 0, asset_id: '1.3.0' },
    htlc_id: `1.16.${h.instance}`,
    from: `1.2.${h.from}`,
    to: `1.2.${h.to}`,
    redeemer: `1.2.${redeemer}`,
    amount,
    htlc_preimage_hash: lock.preimage_hash,
    htlc_preimage_size: lock.preimage_size,
    preimage: String(op.preimage ?? ''),
  };
  // db_notify.cpp: the sender, and the recipient unless it redeemed itself
  ctx.virtualOps?.push({ op: [51, redeemed], result: [0, {}], impacted: h.to === redeemer ? [h.from] : [h.from, h.to] });
  removeHtlc(ctx, h);
  payFee(ctx, redeemer, op.fee);
  return { result: [0, {}], impacted: [redeemer] };
}

/** htlc_extend_evaluator: its creator moves the expiration later, within the committee's limit. */
export function htlcExtend(ctx: EvalContext, op: Obj): Evaluated {
  if (amountOf((op.fee as Obj | undefined)?.amount ?? 0) < 0n) throw new ChainError('fee.amount >= 0: Fee amount should not be negative');
  const issuer = accountInstance(ctx, op.update_issuer, 'update_issuer');
  const h = loadHtlc(ctx, op.htlc_id);
  if (issuer !== h.from) throw new ChainError('o.update_issuer == htlc_obj->transfer.from: HTLC may only be extended by its creator.');
  const options = htlcOptions(ctx);
  if (!options) throw new ChainError('htlc_options: HTLC Committee options are not set.');
  const add = Number(op.seconds_to_add ?? 0);
  if (!(h.expiration + add < parseFcTime(TIME_MAX))) {
    throw new ChainError('htlc_obj->conditions.time_lock.expiration.sec_since_epoch() + static_cast<uint64_t>(o.seconds_to_add) < fc::time_point_sec::maximum().sec_since_epoch(): Extension would cause an invalid date');
  }
  if (!(h.expiration + add <= headTime(ctx) + options.max_timeout_secs)) {
    throw new ChainError('htlc_obj->conditions.time_lock.expiration + o.seconds_to_add <= db().head_block_time() + htlc_options->max_timeout_secs: Extension pushes contract too far into the future');
  }
  // do_apply
  indexHtlc(ctx, h, false);
  (h.obj.conditions as { time_lock: { expiration: string } }).time_lock.expiration = fcTime(h.expiration + add);
  ctx.state.touch(htlcKey(h.instance));
  indexHtlc(ctx, { ...h, expiration: h.expiration + add }, true);
  payFee(ctx, issuer, op.fee);
  return { result: [0, {}], impacted: [issuer] };
}

/**
 * database::clear_expired_htlcs, at the end of a block: every HTLC whose expiration is at or before
 * the block time goes back to its sender, with a virtual htlc_refund, earliest expiration first.
 */
export function clearExpiredHtlcs(ctx: EvalContext): void {
  const expired: number[] = [];
  for (const k of ctx.state.store.htlcIndex.getKeys({ start: [INDEX_EXPIRATION, 0], end: [INDEX_EXPIRATION, ctx.blockTime + 1] })) expired.push(k[2]!);
  for (const instance of expired) {
    const h = loadHtlc(ctx, `1.16.${instance}`);
    adjustBalance(ctx, h.from, h.asset, h.amount);
    const lock = hashLock(h);
    const refund = {
      fee: { amount: 0, asset_id: '1.3.0' },
      htlc_id: `1.16.${h.instance}`,
      to: `1.2.${h.from}`,
      original_htlc_recipient: `1.2.${h.to}`,
      htlc_amount: { amount: i64(h.amount), asset_id: `1.3.${h.asset}` },
      htlc_preimage_hash: lock.preimage_hash,
      htlc_preimage_size: lock.preimage_size,
    };
    // db_notify.cpp: its fee payer, `to`: the sender getting the refund
    ctx.virtualOps?.push({ op: [53, refund], result: [0, {}], impacted: [h.from] });
    removeHtlc(ctx, h);
  }
}
