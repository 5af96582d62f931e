// The one transaction builder, for the code that writes transactions itself (`generate`, the
// benchmark, tests), the way a wallet does: TaPoS from a head block, an expiration counted from the
// head block's time, fees from the fee schedule (or as the node quoted them), then one signature
// per key over the chain's signing digest.
//
// The result is in signed_transaction's reflection order (ref_block_num, ref_block_prefix,
// expiration, operations, extensions, signatures), the order Core writes it back; operation-builders.ts
// builds operations in their reflection order too, so what is built is what the node serves.

import type { OperationJson, SignedTransactionJson } from './types.js';
import { fcTime, parseFcTime } from '../fc/fc-json.js';
import { refBlockPrefix, signingDigest } from './serializer.js';
import { signCompact } from '../crypto/keys.js';
import { requiredFee, type FeeSchedule } from './fees.js';

export type UnsignedTransactionJson = Omit<SignedTransactionJson, 'signatures'>;

/** The block a transaction refers to (TaPoS) and counts its expiration from. */
export interface HeadBlock {
  readonly number: number;
  /** 40 hex; unused for block 0, whose prefix is 0 */
  readonly id: string;
  /** seconds */
  readonly time: number;
}

/** The head block of the dynamic global properties (2.1.0) as the API serves them. */
export const headOf = (dgp: { head_block_number: number; head_block_id: string; time: string }): HeadBlock => ({
  number: dgp.head_block_number,
  id: dgp.head_block_id,
  time: parseFcTime(dgp.time),
});

export interface BuildOptions {
  /** seconds after the head block time (default 60) */
  readonly expiresIn?: number;
  /** the expiration itself, seconds; wins over `expiresIn` */
  readonly expiration?: number;
  /**
   * Each operation's fee, in the core asset: from the fee schedule, or the amounts the node quoted
   * (get_required_fees), one per operation. Without it the operations keep the fees they carry.
   */
  readonly fees?: FeeSchedule | readonly (number | string)[];
  /** one fee amount for every operation (tests of fee checks) */
  readonly fee?: number | string;
  readonly refBlockNum?: number;
  readonly refBlockPrefix?: number;
}

/** An unsigned transaction of `operations` (whose fees it sets in place) referring to `head`. */
export function buildTransaction(head: HeadBlock, operations: OperationJson[], o: BuildOptions = {}): UnsignedTransactionJson {
  const { fees, fee } = o;
  if (fee !== undefined || fees !== undefined) {
    operations.forEach((op, i) => {
      const amount = fee ?? (Array.isArray(fees) ? fees[i] : requiredFee(op, fees as FeeSchedule));
      if (amount === undefined) throw new Error(`no fee given for operation ${i}`);
      op[1].fee = { amount, asset_id: '1.3.0' };
    });
  }
  return {
    ref_block_num: o.refBlockNum ?? head.number & 0xffff,
    ref_block_prefix: o.refBlockPrefix ?? (head.number === 0 ? 0 : refBlockPrefix(head.id)),
    expiration: fcTime(o.expiration ?? head.time + (o.expiresIn ?? 60)),
    operations,
    extensions: [],
  };
}

/** One compact signature per key over the transaction's signing digest. */
export function transactionSignatures(chainId: string, trx: UnsignedTransactionJson, keys: readonly Uint8Array[]): string[] {
  const digest = signingDigest(chainId, trx);
  return keys.map((k) => signCompact(digest, k));
}

/** The transaction signed with each of `keys`. */
export function signTransaction(chainId: string, trx: UnsignedTransactionJson, keys: readonly Uint8Array[]): SignedTransactionJson {
  return { ...trx, signatures: transactionSignatures(chainId, trx, keys) };
}
