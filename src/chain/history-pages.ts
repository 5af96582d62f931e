// Account history laid out for reading at the speed of the wire.
//
// A history page (get_account_history and its relatives) is the served JSON of up to a few hundred
// operations, newest first. Looked up one operation at a time (the account's index, then each 1.11.x
// object), a page of 100 costs two B-tree descents per operation. Here each account's operations are
// also kept in pages of PAGE_SIZE consecutive sequence numbers: one record holds, for each operation,
// its 1.11.x instance, its type and its served JSON, back to back. A page of 100 is then one to three
// record reads whose bytes are copied into the reply as they are: no parse, no per-operation lookup.
// The cost is storing each operation's JSON once more per account it concerns.
//
// Record layout (little-endian): u32 count; count × { f64 instance, u32 op type, u32 end offset };
// then the operations' JSON, the k-th ending at its end offset (counted from the data's start).

import type { ChainStore } from './store.js';

/** Operations per record: a page of 100 spans at most three records. */
export const PAGE_SIZE = 128;

const ENTRY_BYTES = 16;

/** One operation of an account's history, as a record holds it. */
export interface HistoryEntry {
  /** the operation's position in the account's history (1 = its first) */
  readonly seq: number;
  /** 1.11.x instance */
  readonly instance: number;
  /** op.which() */
  readonly type: number;
  /**
   * the record and where the served JSON of the 1.11.x object lies in it. The record is LMDB's
   * shared read buffer (getBinaryFast): valid until the next read of the store, so copy the bytes
   * before reading anything else.
   */
  readonly record: Buffer;
  readonly start: number;
  readonly end: number;
}

/** The served JSON of an entry, copied out of its record. */
export const entryBytes = (e: HistoryEntry): Buffer => Buffer.from(e.record.subarray(e.start, e.end));

interface Entry {
  instance: number;
  type: number;
  bytes: Uint8Array;
}

const recordNo = (seq: number): number => Math.floor((seq - 1) / PAGE_SIZE);

function decode(record: Uint8Array): Entry[] {
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  const count = view.getUint32(0, true);
  const data = 4 + count * ENTRY_BYTES;
  const out: Entry[] = [];
  let start = 0;
  for (let k = 0; k < count; k++) {
    const at = 4 + k * ENTRY_BYTES;
    const end = view.getUint32(at + 12, true);
    out.push({ instance: view.getFloat64(at, true), type: view.getUint32(at + 8, true), bytes: record.subarray(data + start, data + end) });
    start = end;
  }
  return out;
}

function encode(entries: readonly Entry[]): Buffer {
  const dataBytes = entries.reduce((n, e) => n + e.bytes.byteLength, 0);
  const out = Buffer.allocUnsafe(4 + entries.length * ENTRY_BYTES + dataBytes);
  out.writeUInt32LE(entries.length, 0);
  let data = 4 + entries.length * ENTRY_BYTES;
  let end = 0;
  entries.forEach((e, k) => {
    const at = 4 + k * ENTRY_BYTES;
    out.writeDoubleLE(e.instance, at);
    out.writeUInt32LE(e.type, at + 8);
    out.set(e.bytes, data);
    data += e.bytes.byteLength;
    end += e.bytes.byteLength;
    out.writeUInt32LE(end, at + 12);
  });
  return out;
}

/** An operation to add to an account's history: `seq` follows the account's last one. */
export interface HistoryAppend {
  readonly account: number;
  readonly seq: number;
  readonly instance: number;
  readonly type: number;
}

/**
 * Adds a block's operations to their accounts' pages (inside the block's write transaction), each
 * touched record written once. `json` gives the served JSON of each new 1.11.x object by id.
 */
export function appendHistory(store: ChainStore, appends: readonly HistoryAppend[], json: (id: string) => string): void {
  const byRecord = new Map<string, { account: number; no: number; entries: Entry[] }>();
  for (const a of appends) {
    const no = recordNo(a.seq);
    const k = `${a.account}:${no}`;
    let r = byRecord.get(k);
    if (!r) {
      const stored = store.accountPages.get([a.account, no]);
      r = { account: a.account, no, entries: stored ? decode(stored) : [] };
      byRecord.set(k, r);
    }
    // Sequences are dense from 1: the entry's place in its record is fixed by its seq.
    const place = (a.seq - 1) % PAGE_SIZE;
    if (place !== r.entries.length) throw new Error(`history of account 1.2.${a.account}: sequence ${a.seq} does not follow the record's ${r.entries.length} entries`);
    r.entries.push({ instance: a.instance, type: a.type, bytes: Buffer.from(json(`1.11.${a.instance}`)) });
  }
  for (const r of byRecord.values()) store.accountPages.putSync([r.account, r.no], encode(r.entries));
}

/**
 * The account's history from sequence `fromSeq` down to 1, newest first. Entries point into their
 * record, read without a copy (see HistoryEntry.record), and without cutting views out of it (a
 * Buffer view costs as much as copying the bytes it shows). The consumer must copy an entry's bytes
 * before it reads the store or asks for the next entry.
 */
export function* historyDesc(store: ChainStore, account: number, fromSeq: number): Generator<HistoryEntry> {
  let seq = fromSeq;
  while (seq >= 1) {
    const no = recordNo(seq);
    const record = store.accountPages.getBinaryFast([account, no]);
    if (!record) return;
    // lmdb-js' fast buffer spans its whole shared read buffer; `length` is the value's size.
    const view = new DataView(record.buffer, record.byteOffset, record.length);
    const count = view.getUint32(0, true);
    const data = 4 + count * ENTRY_BYTES;
    for (let k = seq - 1 - no * PAGE_SIZE; k >= 0; k--, seq--) {
      if (k >= count) return;
      const at = 4 + k * ENTRY_BYTES;
      const start = data + (k === 0 ? 0 : view.getUint32(at - 4, true));
      yield { seq, instance: view.getFloat64(at, true), type: view.getUint32(at + 8, true), record, start, end: data + view.getUint32(at + 12, true) };
    }
  }
}

/** The sequence of the account's newest operation with a 1.11 instance <= `instance`, or 0. */
export function seqAtOrBefore(store: ChainStore, account: number, instance: number): number {
  for (const { value } of store.accountHistory.getRange({ start: [account, instance], end: [account, -1], reverse: true, limit: 1 })) return value;
  return 0;
}

/** Builds every account's pages from the per-operation history (a store written before pages). */
export function buildHistoryPages(store: ChainStore): number {
  let written = 0;
  let account = -1;
  let entries: Entry[] = [];
  let no = 0;
  const flush = () => {
    if (account >= 0 && entries.length > 0) store.accountPages.putSync([account, no], encode(entries));
    entries = [];
  };
  for (const { key, value: instance } of store.accountSequence.getRange({})) {
    const [acct, seq] = key;
    const n = recordNo(seq);
    if (acct !== account || n !== no) {
      flush();
      account = acct;
      no = n;
    }
    const bytes = store.objects.get([1, 11, instance]);
    const type = store.operationIndex.get(instance)?.[0];
    if (!bytes || type === undefined) throw new Error(`operation 1.11.${instance} of account 1.2.${acct} is missing`);
    entries.push({ instance, type, bytes });
    written++;
  }
  flush();
  return written;
}
