// Checks a signed transaction before it may enter the pending pool, in the order BitShares Core's
// database::_apply_transaction runs them: structure, duplicate, signatures and authorities, TaPoS,
// expiration, then fees. Applying it (balances, names…) is the producer's dry run.
//
// Every refusal is an RpcError in fc's shape whose message says what is wrong.

import { RpcError, assertError } from '../../errors.js';
import type { ChainStore } from '../store/store.js';
import type { SignedTransactionJson } from '../protocol/types.js';
import { canonicalSignedTransaction, packSignedTransaction, refBlockPrefix, signingDigest, transactionId, OPERATION_NAMES } from '../protocol/serializer.js';
import { EVALUATED_OPERATIONS } from '../evaluators/evaluators.js';
import { signatureKeys, verifyAuthority, type AuthorityJson } from '../protocol/authority.js';
import { requiredFee, type FeeSchedule } from '../protocol/fees.js';
import { fcTime, parseFcTime } from '../fc/fc-json.js';
import { isCanonical } from '../crypto/keys.js';

export interface ChainHead {
  readonly number: number;
  /** seconds */
  readonly time: number;
}

const fail = (format: string, data: Record<string, unknown> = {}): never => {
  throw new RpcError(assertError(format, data, { file: 'db_block', method: '_apply_transaction' }));
};

function readJson<T>(store: ChainStore, key: [number, number, number]): T | undefined {
  const raw = store.objects.get(key);
  return raw ? (JSON.parse(raw.toString('utf8')) as T) : undefined;
}

/** Checks one transaction against the committed chain; returns its id. `pendingIds` are already queued. */
export function validateTransaction(store: ChainStore, trx: unknown, pendingIds: ReadonlySet<string>): { id: string; trx: SignedTransactionJson } {
  // from_variant as Core's API layer does it, before anything else (missing members defaulted, unknown
  // ones dropped, long integers exact, fc's errors for what does not fit), so that every check below
  // and what is stored see Core's reading of the request.
  // Decoding checks every field's type and shape; the binary form is the same as the client's.
  let t: SignedTransactionJson;
  let packedSize: number;
  try {
    t = canonicalSignedTransaction(trx) as unknown as SignedTransactionJson;
    packedSize = packSignedTransaction(t).length;
  } catch (err) {
    // The serializer's errors are fc's (or parse errors naming the member), as get_transaction_hex
    // gives them for the same transaction: passed on unchanged.
    if (err instanceof RpcError) throw err;
    return fail('fc::raw::pack(trx): the transaction is malformed: ${error}', { error: (err as Error).message });
  }
  for (const op of t.operations) {
    const code = op[0];
    // Every operation can be read, packed and priced; only these change the devnet's state.
    if (!EVALUATED_OPERATIONS.has(code)) {
      fail('is_supported(op): operation ${op} is not supported on this chain (supported: ${supported})', {
        op: `${code} (${OPERATION_NAMES[code]})`,
        supported: [...EVALUATED_OPERATIONS].map(([c, n]) => `${c} ${n}`).join(', '),
      });
    }
  }
  if (t.operations.length === 0) fail('trx.operations.size() > 0: A transaction must have at least one operation');
  if (!Array.isArray(t.signatures) || t.signatures.length === 0) fail('trx.signatures.size() > 0: the transaction is not signed');

  // Graphene accepts only canonical compact signatures (fc's is_canonical), so that a signature
  // cannot be altered into another valid one (and so into another transaction id of a block).
  for (const sig of t.signatures) {
    if (!isCanonical(Buffer.from(String(sig), 'hex'))) fail('is_canonical( c ): signature ${sig} is not canonical', { sig });
  }

  const id = transactionId(t);
  if (pendingIds.has(id) || store.transactions.doesExist(id)) {
    fail("trx_idx.indices().get<by_trx_id>().find(trx.id()) == trx_idx.indices().get<by_trx_id>().end(): Transaction '${txid}' is already in the database", { txid: id });
  }

  const chainId = store.meta.get('chain_id')!;
  const gp = readJson<{ parameters: { current_fees: FeeSchedule; maximum_time_until_expiration: number; max_authority_depth: number; maximum_transaction_size: number } }>(store, [2, 0, 0])!;
  const dgp = readJson<{ head_block_number: number; time: string }>(store, [2, 1, 0])!;

  const keys = signatureKeys(chainId, t, signingDigest(chainId, t));
  const account = (i: number) => readJson<{ owner: AuthorityJson; active: AuthorityJson }>(store, [1, 2, i]);
  verifyAuthority(t.operations, keys, {
    getActive: (i) => account(i)?.active,
    getOwner: (i) => account(i)?.owner,
    allowNonImmediateOwner: true,
    maxRecursion: gp.parameters.max_authority_depth,
  });

  if (dgp.head_block_number > 0) {
    // TaPoS: ref_block_num names one of the last 65536 blocks by its low 16 bits, and
    // ref_block_prefix must be bytes 4..7 of that block's id.
    const head = dgp.head_block_number;
    const refNum = head - ((head - t.ref_block_num) & 0xffff);
    const refId = refNum === 0 ? '0'.repeat(40) : store.blockIds.get(refNum);
    const expected = refId === undefined ? undefined : refId === '0'.repeat(40) ? 0 : refBlockPrefix(refId);
    if (expected === undefined || expected !== t.ref_block_prefix) {
      fail('trx.ref_block_prefix == tapos_block_summary.block_id._hash[1]: TaPoS: ref_block_num ${ref_block_num} with ref_block_prefix ${ref_block_prefix} does not name a recent block of this chain', {
        ref_block_num: t.ref_block_num,
        ref_block_prefix: t.ref_block_prefix,
      });
    }
    const now = parseFcTime(dgp.time);
    const expiration = parseFcTime(t.expiration);
    const max = gp.parameters.maximum_time_until_expiration;
    if (!(expiration <= now + max)) {
      fail('trx.expiration <= now + chain_parameters.maximum_time_until_expiration: expiration ${expiration} is more than ${max} s after the head block time ${now}', { expiration: t.expiration, now: fcTime(now), max });
    }
    if (!(now <= expiration)) fail('now <= trx.expiration: the transaction expired at ${expiration}; the head block time is ${now}', { expiration: t.expiration, now: fcTime(now) });
    // Since HARDFORK_CORE_1573 (2019), long before any block of this chain: the packed signed
    // transaction, signatures included, within the chain parameter.
    const maxSize = gp.parameters.maximum_transaction_size;
    if (!(packedSize <= maxSize)) {
      fail('head_block_time() <= HARDFORK_CORE_1573_TIME || trx.get_packed_size() <= chain_parameters.maximum_transaction_size: Transaction exceeds maximum transaction size.', {
        size: packedSize,
        maximum_transaction_size: maxSize,
      });
    }
  }

  for (const op of t.operations) {
    const fee = (op[1].fee ?? {}) as { amount?: unknown; asset_id?: unknown };
    if (fee.asset_id !== '1.3.0') fail('fee.asset_id == asset_id_type(): fees are paid in the core asset on this chain, got ${asset}', { asset: String(fee.asset_id) });
    const required = BigInt(requiredFee(op, gp.parameters.current_fees));
    const paid = BigInt(String(fee.amount ?? 0));
    if (paid < required) fail('core_fee_paid >= core_fee_required: Insufficient Fee Paid: ${paid} paid, ${required} required', { paid: paid.toString(), required: required.toString() });
  }
  // Stored and served as Core would write it back, whatever the client's spelling (amounts as
  // strings, unsorted sets…); the binary form, and so the id and signatures, are the same.
  return { id, trx: t };
}
