// The deposit feed's index: every transfer of every account, by account and chain position.
//
// Key: [account instance, block_num, trx_in_block, op_in_trx, virtual_op] (ordered-binary), one entry
// under the sender and one under the receiver. Value: the transfer's served JSON without the two
// fields that are not facts of the chain (its cursor, which is its key, and `irreversible`, which
// depends on when it is read), so a page is one ordered range read per account, copied into the
// reply as it is.
//
// Why positions and not 1.11.x instances: an instance is a number this store handed out (a follower
// built from another node's blocks may count differently, and Core does not keep every 1.11.x), while
// (block_num, trx_in_block, op_in_trx, virtual_op) is the same on every node of the chain. A cursor is
// such a position, so a client can take its cursor from one replica to another.
//
// Written only by the chain writer when a block is applied (block-applier.ts applyBlock), inside the block's
// write transaction (`generate` holds a batch of blocks' entries and writes them sorted at the end of
// the batch's transaction): pending transactions (pending-undo.ts) never reach this table, and a block
// that is not kept leaves nothing in it.
//
// Which operations are transfers:
//  - transfer (0): the sender moves its own funds, with an optional memo;
//  - override_transfer (38): an asset's issuer moves a holder's funds without the holder's signature.
//    It changes the balances of the accounts it names exactly as a transfer does, so an exchange that
//    reconciles its accounts from the feed must see it, in or out; `op_type` tells the two apart.
// Not counted: operations without a from and a to account among the chain's accounts (blind
// transfers 39/40 move funds to or from commitments; asset_issue 14 creates funds), and operations
// that lock or free funds in an object of their own (HTLCs, vesting balances, withdraw permissions),
// which an exchange that uses them reads from their own objects and history.
import type { ChainStore, TransferFeedDb, TransferKey } from '../store/store.js';
import { MAX_INSTANCE, idInstance } from '../fc/object-id.js';
import { transactionId } from '../protocol/serializer.js';

/** The operation types the feed carries (see above). */
export const TRANSFER_OP_TYPES: ReadonlySet<number> = new Set([0, 38]);

/** A chain position: block_num, trx_in_block, op_in_trx, virtual_op (operation_history_object's fields). */
export type Position = readonly [blockNum: number, trxInBlock: number, opInTrx: number, virtualOp: number];

export type { TransferFeedDb, TransferKey };

// ---- cursors ----
//
// A cursor is a position, the first one a read after it may return: "everything at or after this".
// After a transfer at (b, t, o, v) it is (b, t, o, v + 1), and that is the cursor the transfer carries,
// so that a client resuming from the last transfer it took never gets that transfer again; after the
// head block H it is (H + 1, 0, 0, 0). The start of the chain, (0, 0, 0, 0), is CHAIN_START.
// Its text is "1" (the format's version) and the four numbers in fixed-width lower-case hex (8, 8, 4
// and 8 digits: uint32, uint32, uint16 and uint32, the widths Core gives these fields). Clients treat
// it as opaque; the node reads back only what it writes, and refuses anything else.

const CURSOR = /^1([0-9a-f]{8})([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{8})$/;

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** The cursor before every transfer: the one cursor a client may write itself (README "Deposit feed"). */
export const CHAIN_START = '1' + '0'.repeat(28);

/** The cursor text of a position. */
export function encodeCursor(p: Position): string {
  return `1${hex(p[0], 8)}${hex(p[1], 8)}${hex(p[2], 4)}${hex(p[3], 8)}`;
}

/** The position of a cursor text, or undefined when it is not one this node writes. */
export function decodeCursor(text: string): Position | undefined {
  const m = CURSOR.exec(text);
  if (!m) return undefined;
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16), parseInt(m[4]!, 16)];
}

/** The first position after the transfer at `p`. */
export const positionAfter = (p: Position): Position => [p[0], p[1], p[2], p[3] + 1];

/** The first position after block `blockNum`. */
export const afterBlock = (blockNum: number): Position => [blockNum + 1, 0, 0, 0];

export function comparePositions(a: Position, b: Position): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3];
}

export const laterPosition = (a: Position, b: Position): Position => (comparePositions(a, b) >= 0 ? a : b);

// ---- writing ----

interface TransferOp {
  from: string;
  to: string;
  amount: unknown;
  memo?: unknown;
}

/**
 * The stored part of one transfer: its fields from block_num to memo, without the braces (the reader
 * adds the cursor before them and `irreversible` after them). Field order is the feed's (README).
 */
export function transferBody(o: { blockNum: number; blockTime: string; trxInBlock: number; opInTrx: number; virtualOp: number; trxId: string; opType: number; op: TransferOp }): string {
  return (
    `"block_num":${o.blockNum},"block_time":${JSON.stringify(o.blockTime)},"trx_in_block":${o.trxInBlock},"op_in_trx":${o.opInTrx},"virtual_op":${o.virtualOp},` +
    `"trx_id":${JSON.stringify(o.trxId)},"op_type":${o.opType},"from":${JSON.stringify(o.op.from)},"to":${JSON.stringify(o.op.to)},` +
    `"amount":${JSON.stringify(o.op.amount)},"memo":${o.op.memo === undefined ? 'null' : JSON.stringify(o.op.memo)}`
  );
}

/** The transactions of a block as the feed reads them: their operations as the block holds them. */
export interface FeedTransaction {
  readonly operations: readonly (readonly [number, unknown])[];
}

/**
 * Indexes a block's transfers; call it inside the block's write transaction. `ids` are the
 * transactions' ids, in order. Transfers are never virtual operations, so virtual_op is 0.
 */
export function indexBlockTransfers(db: TransferFeedDb, blockNum: number, blockTime: string, transactions: readonly FeedTransaction[], ids: readonly string[]): number {
  let n = 0;
  transactions.forEach((trx, trxInBlock) =>
    trx.operations.forEach(([opType, body], opInTrx) => {
      if (!TRANSFER_OP_TYPES.has(opType)) return;
      const op = body as TransferOp;
      const bytes = Buffer.from(transferBody({ blockNum, blockTime, trxInBlock, opInTrx, virtualOp: 0, trxId: ids[trxInBlock]!, opType, op }));
      const from = idInstance(op.from);
      const to = idInstance(op.to);
      db.putSync([from, blockNum, trxInBlock, opInTrx, 0], bytes);
      // A transfer to oneself is one entry: the reader would skip the second as a duplicate anyway.
      if (to !== from) db.putSync([to, blockNum, trxInBlock, opInTrx, 0], bytes);
      n++;
    }),
  );
  return n;
}

/**
 * The account instances a block's transfers name (senders and receivers), from the transactions as
 * the block holds them: what a live subscription needs to know whether the block concerns it.
 */
export function transferAccountsOf(transactions: readonly Record<string, unknown>[]): Set<number> {
  const out = new Set<number>();
  for (const trx of transactions) {
    for (const [opType, body] of trx.operations as [number, TransferOp][]) {
      if (!TRANSFER_OP_TYPES.has(opType)) continue;
      out.add(idInstance(body.from));
      out.add(idInstance(body.to));
    }
  }
  return out;
}

/**
 * Builds the index from the stored blocks' history (a store written before the feed): every 1.11.x
 * operation of a transfer type, in the order of its blocks. Returns the transfers indexed.
 */
export function buildTransferFeed(store: ChainStore): number {
  let n = 0;
  // One block's transaction ids, computed once for all its transfers.
  let idsOf: { blockNum: number; ids: string[] } | undefined;
  const trxId = (blockNum: number, trxInBlock: number): string => {
    if (idsOf?.blockNum !== blockNum) {
      const block = store.blocks.get(blockNum);
      if (!block) throw new Error(`block ${blockNum} of a stored transfer is missing`);
      const { transactions } = JSON.parse(block.toString('utf8')) as { transactions: unknown[] };
      idsOf = { blockNum, ids: transactions.map((t) => transactionId(t)) };
    }
    const id = idsOf.ids[trxInBlock];
    if (id === undefined) throw new Error(`block ${blockNum} has no transaction ${trxInBlock}`);
    return id;
  };
  for (const { key, value } of store.operationIndex.getRange({ start: 0, end: MAX_INSTANCE + 1 })) {
    if (!TRANSFER_OP_TYPES.has(value[0])) continue;
    const bytes = store.objects.get([1, 11, key]);
    if (!bytes) throw new Error(`operation 1.11.${key} is missing`);
    const o = JSON.parse(bytes.toString('utf8')) as { op: [number, TransferOp]; block_num: number; trx_in_block: number; op_in_trx: number; virtual_op: number; is_virtual: boolean; block_time: string };
    if (o.is_virtual) continue;
    const body = Buffer.from(
      transferBody({ blockNum: o.block_num, blockTime: o.block_time, trxInBlock: o.trx_in_block, opInTrx: o.op_in_trx, virtualOp: o.virtual_op, trxId: trxId(o.block_num, o.trx_in_block), opType: o.op[0], op: o.op[1] }),
    );
    const from = idInstance(o.op[1].from);
    const to = idInstance(o.op[1].to);
    store.transferFeed.putSync([from, o.block_num, o.trx_in_block, o.op_in_trx, o.virtual_op], body);
    if (to !== from) store.transferFeed.putSync([to, o.block_num, o.trx_in_block, o.op_in_trx, o.virtual_op], body);
    n++;
  }
  return n;
}

// ---- reading ----

/** One transfer as a page reads it: its position and its stored body. */
export interface FeedEntry {
  readonly position: Position;
  readonly body: Buffer;
}

/**
 * The transfers of `accounts` at positions >= `from` in blocks <= `lastBlock`, in chain order, each
 * once (a transfer between two listed accounts is stored under both), at most `limit`. One range read
 * per account, merged (k-way, by a binary heap of the accounts' next entries). `onRow` is called for
 * every entry read, duplicates included, so that the caller can look at its deadline.
 */
export function* readTransfers(db: TransferFeedDb, accounts: readonly number[], from: Position, lastBlock: number, limit: number, onRow: () => void = () => {}): Generator<FeedEntry> {
  if (limit <= 0 || from[0] > lastBlock) return;
  interface Head {
    position: Position;
    body: Buffer;
    rest: Iterator<{ key: TransferKey; value: Buffer }>;
  }
  const heap: Head[] = [];
  const less = (a: Head, b: Head) => comparePositions(a.position, b.position) < 0;
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  const advance = (rest: Head['rest']): Head | undefined => {
    const next = rest.next();
    if (next.done) return undefined;
    const [, b, t, o, v] = next.value.key;
    return { position: [b, t, o, v], body: next.value.value, rest };
  };
  try {
    for (const account of accounts) {
      const rest = db.getRange({ start: [account, from[0], from[1], from[2], from[3]], end: [account, lastBlock + 1] })[Symbol.iterator]();
      const head = advance(rest);
      if (head) {
        heap.push(head);
        up(heap.length - 1);
      }
    }
    let last: Position | undefined;
    let n = 0;
    while (heap.length > 0 && n < limit) {
      const top = heap[0]!;
      onRow();
      if (!last || comparePositions(top.position, last) !== 0) {
        yield { position: top.position, body: top.body };
        last = top.position;
        n++;
      }
      const next = advance(top.rest);
      if (next) {
        heap[0] = next;
        down(0);
      } else {
        const tail = heap.pop()!;
        if (heap.length > 0) {
          heap[0] = tail;
          down(0);
        }
      }
    }
  } finally {
    // Ranges not read to their end (a full page, or a reader that stopped: its deadline) are closed.
    for (const h of heap) h.rest.return?.();
  }
}
