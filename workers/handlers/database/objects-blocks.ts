// database_api: Objects and Blocks and transactions (database_api.hpp's first groups). Blocks are
// served from their stored signed_block JSON; a header is a prefix of those bytes.

import { asArray, asObjectId, asOptionalBool, asUint32 } from '../../../src/api/params.js';
import { parseFcTime } from '../../../src/chain/fc/fc-json.js';
import type { WorkerContext } from '../../context.js';
import type { ReplyWriter } from '../../reply-writer.js';
import { fail } from './checks.js';
import { NULL, headTime, writeList, writeObjects, type Key } from './store-reads.js';
import type { databaseApi } from '../../../src/api/sets/database.js';
import type { HandlersFor } from '../types.js';

/** The stored block's bytes (signed_block JSON), or undefined. */
const blockBytes = (ctx: WorkerContext, num: number): Buffer | undefined => ctx.store.blocks.get(num) ?? undefined;

/**
 * maybe_signed_block_header from a stored block: its JSON starts with the header fields, then
 * `witness_signature`, then `transactions`, so the header is a prefix of the stored bytes.
 */
function writeHeader(out: ReplyWriter, block: Buffer, withSignature: boolean): void {
  const cut = block.indexOf(withSignature ? ',"transactions":' : ',"witness_signature":');
  out.raw(block.subarray(0, cut));
  out.text('}');
}

export const objectAndBlockHandlers = {
  // Objects

  get_objects(ctx, [idsArg], out) {
    const keys = asArray(idsArg).map((v) => {
      const id = asObjectId(v);
      return [id.space, id.type, id.instance] as Key;
    });
    // Core subscribes to each requested id, except operation history (1.11.x, 2.9.x).
    for (const k of keys) if (!((k[0] === 1 && k[1] === 11) || (k[0] === 2 && k[1] === 9))) out.subscribe(`${k[0]}.${k[1]}.${k[2]}`);
    writeObjects(ctx, out, keys);
  },

  // Blocks and transactions

  get_block_header(ctx, [num, withSig], out) {
    const block = blockBytes(ctx, asUint32(num));
    if (!block) return void out.raw(NULL);
    writeHeader(out, block, asOptionalBool(withSig) ?? false);
  },

  get_block_header_batch(ctx, [nums, withSigs], out) {
    // A std::map: keyed by block number, ascending, each number once.
    const sorted = [...new Set(asArray(nums).map(asUint32))].sort((a, b) => a - b);
    const withSignature = asOptionalBool(withSigs) ?? false;
    writeList(out, sorted.length, (i) => {
      const n = sorted[i]!;
      out.text(`[${n},`);
      const block = blockBytes(ctx, n);
      if (block) writeHeader(out, block, withSignature);
      else out.raw(NULL);
      out.text(']');
    });
  },

  get_block(ctx, [num], out) {
    out.raw(blockBytes(ctx, asUint32(num)) ?? NULL);
  },

  get_transaction(ctx, [num, trxNum], out) {
    const blockNum = asUint32(num);
    const trxInBlock = asUint32(trxNum);
    const block = blockBytes(ctx, blockNum);
    if (!block) fail('get_transaction', 'opt_block: ');
    const { transactions } = JSON.parse(block!.toString('utf8')) as { transactions: unknown[] };
    if (!(transactions.length > trxInBlock)) fail('get_transaction', 'opt_block->transactions.size() > trx_num: ');
    out.json(transactions[trxInBlock]);
  },

  get_recent_transaction_by_id(ctx, [txid], out) {
    // Core answers null on any failure, a malformed id included. "Recent" means not yet expired:
    // Core's transaction index forgets a transaction once the head block passes its expiration.
    const id = typeof txid === 'string' ? txid.toLowerCase() : '';
    const where = /^[0-9a-f]{40}$/.test(id) ? ctx.store.transactions.get(id) : undefined;
    const block = where ? blockBytes(ctx, where[0]) : undefined;
    if (!where || !block) return void out.raw(NULL);
    const trx = (JSON.parse(block.toString('utf8')) as { transactions: Record<string, unknown>[] }).transactions[where[1]];
    if (!trx || parseFcTime(String(trx.expiration)) < parseFcTime(headTime(ctx))) return void out.raw(NULL);
    const { operation_results: _results, ...signed } = trx;
    out.json(signed);
  },
} satisfies Partial<HandlersFor<typeof databaseApi>>;
