// Graphene's binary serialisation (fc::raw::pack), for the JSON forms the RPC API shows: the bytes
// that transaction ids, signing digests, block ids and merkle roots are hashes of, and what
// `get_transaction_hex` returns.
//
// Each type below is a small packer that takes the fc JSON value and writes its bytes; structs list
// their fields in the order of the FC_REFLECT line they cite, because fc packs reflected members in
// that order and nothing else (no tags, no lengths). Rules come from bitshares-fc include/fc/io/raw.hpp
// (integers little-endian, unsigned_int as LEB128, optional as a bool byte, containers as a varint
// count) and the Core headers named at each type. Cross-checked byte for byte against bitsharesjs in
// test/serializer.test.ts, and every operation type in test/all-operations.test.ts.
//
// Parsing follows fc's from_variant (reflect/variant.hpp, variant.cpp): a struct member that is
// present is read, a missing one keeps its type's default (zero, "", empty containers, an unset
// optional, the null key, id x.y.0, the epoch), an unknown one is ignored; integers may be numbers,
// decimal strings, booleans or null, and wrap to their type's width as fc's casts do; flat_set/flat_map
// are sorted and keep the first of duplicate keys; a static_variant array shorter than two keeps the
// default alternative 0. Where fc throws (a struct that is not an object, a container that is not an
// array, an integer text lexical_cast refuses), the error is fc's, from fc-variant.ts. Where the
// value's own parser fails (hex, keys, ids, times, vote ids), the error is an fc parse error naming
// the path. Either way every failure is an RpcError, the same whichever call met it.
//
// The packers are in pack/, one level per file, each importing only the ones before it:
// byte-writer.ts (the byte buffer and fc's primitive encodings), primitives.ts (one packer per scalar
// type: integers, strings, hashes, times, ids, keys, vote ids), combinators.ts (optional, vector,
// flat_set, flat_map, struct, static_variant, extensions), structs.ts (the protocol structs the
// operations share) and operations.ts (the operation table, one FC_REFLECT line per operation). This
// file packs transactions and blocks from them, and is what the rest of the node imports.

import { createHash } from 'node:crypto';
import { ByteWriter } from './pack/byte-writer.js';
import { type Type, hexBytes, isObject, ripemd160, sha256, signature, timePointSec, toHex, uint16, uint32, witnessId } from './pack/primitives.js';
import { authority, memoData, restrictions } from './pack/structs.js';
import { futureExtensions, optional, struct, vector } from './pack/combinators.js';
import { operation, operationResult } from './pack/operations.js';

export { OPERATION_NAMES } from './fee-parameters.js';

// ---------------------------------------------------------------------------------------------
// Transactions and blocks (protocol/transaction.hpp:307-311, protocol/block.hpp:75-77)

const transactionFields = [
  ['ref_block_num', uint16],
  ['ref_block_prefix', uint32],
  ['expiration', timePointSec],
  ['operations', vector(operation)],
  ['extensions', futureExtensions],
] as const;
const signedTransactionFields = [...transactionFields, ['signatures', vector(signature)]] as const;

const transaction = struct('transaction', transactionFields);
const signedTransaction = struct('signed_transaction', signedTransactionFields);
const processedTransaction = struct('processed_transaction', [...signedTransactionFields, ['operation_results', vector(operationResult)]]);

const blockHeaderFields = [
  ['previous', ripemd160],
  ['timestamp', timePointSec],
  ['witness', witnessId],
  ['transaction_merkle_root', ripemd160],
  ['extensions', futureExtensions],
] as const;
const blockHeader = struct('block_header', blockHeaderFields);
const signedBlockHeader = struct('signed_block_header', [...blockHeaderFields, ['witness_signature', signature]]);

function packWith(t: Type, v: unknown): Uint8Array {
  const w = new ByteWriter();
  t.pack(w, v, t.name);
  return w.finish();
}

/** One operation, `[code, {fields}]`. */
export function packOperation(op: unknown): Uint8Array {
  return packWith(operation, op);
}

/**
 * An operation as Core holds it after from_variant, written back as JSON: `[code, {members}]` with
 * every member (defaults where the JSON had none), unknown ones dropped, optionals unset left out.
 * Throws an Error naming the path of a member it cannot read.
 */
export function canonicalOperation(op: unknown): [number, Record<string, unknown>] {
  return operation.json(op, 'operation') as [number, Record<string, unknown>];
}

const sizeOf = (t: Type, v: unknown, path: string): number => {
  const w = new ByteWriter(64);
  t.pack(w, v, path);
  return w.length;
};
const optionalMemo = optional(memoData);

/** fc::raw::pack_size of the parts of operations that fee rules price by size (fees.ts). */
export const packSize = {
  /** an optional<memo_data>: its flag byte, plus the memo when set */
  optionalMemo: (memo: unknown): number => sizeOf(optionalMemo, memo, 'memo'),
  /** a vector<restriction> */
  restrictions: (v: unknown): number => sizeOf(restrictions, v, 'restrictions'),
  authority: (v: unknown): number => sizeOf(authority, v, 'authority'),
};

/** The transaction without signatures: what its id and signatures are hashes of. */
export function packTransaction(trx: unknown): Uint8Array {
  return packWith(transaction, trx);
}

/** signed_transaction: the transaction followed by its signatures (`get_transaction_hex`). */
export function packSignedTransaction(trx: unknown): Uint8Array {
  return packWith(signedTransaction, trx);
}

/** processed_transaction: a signed transaction plus `operation_results`, as blocks hold them. */
export function packProcessedTransaction(trx: unknown): Uint8Array {
  return packWith(processedTransaction, trx);
}

/**
 * transaction::id(): the first 20 bytes of sha256(pack(transaction)), signatures excluded
 * (protocol/transaction.cpp: digest() then memcpy into the ripemd160-sized id). Lower-case hex.
 */
export function transactionId(trx: unknown): string {
  return toHex(sha256(packTransaction(trx)).subarray(0, 20));
}

/** transaction::sig_digest(chain_id): sha256(chain_id ‖ pack(transaction)), the 32 bytes each key signs. */
export function signingDigest(chainIdHex: string, trx: unknown): Uint8Array {
  return sha256(hexBytes(chainIdHex, 'chain_id', 32), packTransaction(trx));
}

/** signingDigest and transactionId of one transaction, packed once for both. */
export function signingDigestAndId(chainIdHex: string, trx: unknown): { digest: Uint8Array; id: string } {
  const packed = packTransaction(trx);
  return { digest: sha256(hexBytes(chainIdHex, 'chain_id', 32), packed), id: toHex(sha256(packed).subarray(0, 20)) };
}

export function packBlockHeader(header: unknown): Uint8Array {
  return packWith(blockHeader, header);
}

export function packSignedBlockHeader(header: unknown): Uint8Array {
  return packWith(signedBlockHeader, header);
}

/** block_header::digest(): sha256(pack(block_header)), what the witness signs (block.cpp). */
export function blockHeaderDigest(header: unknown): Uint8Array {
  return sha256(packBlockHeader(header));
}

/** block_header::num_from_id: the first 4 bytes of the id, big-endian (block.cpp, endian_reverse). */
export function numFromId(blockIdHex: string): number {
  return Buffer.from(hexBytes(blockIdHex, 'block_id', 20)).readUInt32BE(0);
}

/**
 * transaction::set_reference_block: ref_block_prefix = `_hash[1]`, the id's bytes 4..7 read as a
 * little-endian uint32 (transaction.cpp).
 */
export function refBlockPrefix(blockIdHex: string): number {
  return Buffer.from(hexBytes(blockIdHex, 'block_id', 20)).readUInt32LE(4);
}

/**
 * signed_block_header::id() (block.cpp): sha224(pack(signed_block_header)), its first 4 bytes
 * replaced by the block number big-endian, truncated to the 20 bytes of a ripemd160. The number is
 * block_num() = num_from_id(previous) + 1 unless given.
 */
export function blockId(signedHeader: unknown, blockNum?: number): string {
  const packed = packSignedBlockHeader(signedHeader);
  let num = blockNum;
  if (num === undefined) {
    const previous = isObject(signedHeader) ? signedHeader.previous : undefined;
    num = numFromId(typeof previous === 'string' ? previous : '') + 1;
  }
  if (!Number.isInteger(num) || num < 0 || num > 0xffffffff) throw new Error(`block number ${num} is not a uint32`);
  const id = Buffer.from(createHash('sha224').update(packed).digest().subarray(0, 20));
  id.writeUInt32BE(num >>> 0, 0);
  return id.toString('hex');
}

/**
 * signed_block::calculate_merkle_root (block.cpp): each transaction contributes
 * processed_transaction::merkle_digest() = sha256(pack(processed_transaction)), signatures and
 * operation_results included (transaction.cpp). Digests are hashed in pairs, sha256(left ‖ right),
 * and an odd one out is carried up unchanged, until one is left; the root is ripemd160 of that
 * 32-byte digest. No transactions give the all-zero root. Lower-case hex.
 */
export function transactionMerkleRoot(transactions: readonly unknown[]): string {
  if (transactions.length === 0) return '00'.repeat(20);
  let ids = transactions.map((trx, i) => {
    const w = new ByteWriter();
    processedTransaction.pack(w, trx, `transactions[${i}]`);
    return sha256(w.finish());
  });
  while (ids.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < ids.length; i += 2) next.push(sha256(ids[i] as Uint8Array, ids[i + 1] as Uint8Array));
    if (ids.length % 2 === 1) next.push(ids[ids.length - 1] as Uint8Array);
    ids = next;
  }
  return toHex(createHash('ripemd160').update(ids[0] as Uint8Array).digest());
}

/** A signed transaction as Core stores and serves it (canonical numbers, ids, keys, sorted sets). */
export function canonicalSignedTransaction(trx: unknown): Record<string, unknown> {
  return signedTransaction.json(trx, 'trx') as Record<string, unknown>;
}
