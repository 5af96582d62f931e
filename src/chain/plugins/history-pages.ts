// Account history laid out for reading at the speed of the wire.
//
// A history page (get_account_history and its relatives) is the served JSON of up to a few hundred
// operations, newest first. Looked up one operation at a time (the account's index, then each 1.11.x
// object), a page of 100 costs two B-tree descents per operation. Here each account's operations are
// also kept in records of PAGE_SIZE consecutive sequence numbers: one record holds, for each operation,
// its 1.11.x instance and type, and the operations' served JSON, newest first and joined by commas as
// a page shows them. A page of 100 is then one to three record reads, each copied into the reply in
// one piece: no parse, no per-operation lookup, no per-operation copy. The cost is storing each
// operation's JSON once more per account it concerns, and rewriting a record whole when a block adds
// to it (which appending at its end would need too: LMDB writes a value whole).
//
// Record layout (little-endian): u32 count; count × { f64 instance, u32 op type, u32 start } in
// ascending sequence; then the data: the operations' JSON from the newest (k = count - 1) to the
// oldest (k = 0), a comma between each two. Entry k's JSON starts at its `start` (counted from the
// data's start) and ends one byte (the comma) before entry k - 1's start, or at the data's end for
// k = 0. Entries k down to j are therefore the one run of bytes from k's start to j's end.

import type { ChainStore } from '../store/store.js';

/** Operations per record: a page of 100 spans at most three records. */
export const PAGE_SIZE = 128;

const ENTRY_BYTES = 16;
const COMMA = 0x2c;

interface Entry {
  instance: number;
  type: number;
  bytes: Uint8Array;
}

const recordNo = (seq: number): number => Math.floor((seq - 1) / PAGE_SIZE);

/** A record read in place: its entries' index and where its data starts (both in `record`). */
class RecordView {
  readonly view: DataView;
  readonly count: number;
  readonly data: number;
  /** the data's end, in `record` */
  readonly end: number;
  constructor(readonly record: Buffer) {
    // lmdb-js' fast buffer spans its whole shared read buffer; `length` is the value's size.
    this.view = new DataView(record.buffer, record.byteOffset, record.length);
    this.count = this.view.getUint32(0, true);
    this.data = 4 + this.count * ENTRY_BYTES;
    this.end = record.length;
  }
  instance(k: number): number {
    return this.view.getFloat64(4 + k * ENTRY_BYTES, true);
  }
  type(k: number): number {
    return this.view.getUint32(4 + k * ENTRY_BYTES + 8, true);
  }
  /** where entry k's JSON starts, in `record` */
  start(k: number): number {
    return this.data + this.view.getUint32(4 + k * ENTRY_BYTES + 12, true);
  }
  /** where entry k's JSON ends, in `record`: before the comma ahead of the next older one */
  stop(k: number): number {
    return k === 0 ? this.end : this.start(k - 1) - 1;
  }
}

function decode(record: Buffer): Entry[] {
  const r = new RecordView(record);
  const out: Entry[] = [];
  for (let k = 0; k < r.count; k++) out.push({ instance: r.instance(k), type: r.type(k), bytes: record.subarray(r.start(k), r.stop(k)) });
  return out;
}

function encode(entries: readonly Entry[]): Buffer {
  const n = entries.length;
  const dataBytes = entries.reduce((sum, e) => sum + e.bytes.byteLength, 0) + Math.max(0, n - 1);
  const out = Buffer.allocUnsafe(4 + n * ENTRY_BYTES + dataBytes);
  out.writeUInt32LE(n, 0);
  const data = 4 + n * ENTRY_BYTES;
  let at = 0;
  for (let k = n - 1; k >= 0; k--) {
    const e = entries[k]!;
    const index = 4 + k * ENTRY_BYTES;
    out.writeDoubleLE(e.instance, index);
    out.writeUInt32LE(e.type, index + 8);
    out.writeUInt32LE(at, index + 12);
    out.set(e.bytes, data + at);
    at += e.bytes.byteLength;
    if (k > 0) out[data + at++] = COMMA;
  }
  return out;
}

/**
 * Records as schema 5 to 8 wrote them, oldest first: the same index, but each entry's u32 is the
 * end of its JSON, the data holding the operations back to back in ascending order. Read once, by
 * the upgrade to schema 9 (convertHistoryPages).
 */
function decodeAscending(record: Uint8Array): Entry[] {
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

/** Rewrites every record of the ascending layout (schema 5 to 8) newest first; returns how many. */
export function convertHistoryPages(store: ChainStore): number {
  let converted = 0;
  for (const { key, value } of store.accountPages.getRange({})) {
    store.accountPages.putSync(key, encode(decodeAscending(value)));
    converted++;
  }
  return converted;
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

/** Consecutive entries of one record, newest first: their JSON, commas between, is `record` from `start` to `end`. */
export interface HistoryRun {
  /**
   * the record, read without a copy (getBinaryFast: LMDB's shared read buffer, valid until the next
   * read of the store) and without cutting a view out of it (a Buffer view costs as much as copying
   * the bytes it shows): copy `start` to `end` before asking for the next run
   */
  readonly record: Buffer;
  readonly start: number;
  readonly end: number;
  /** entries in the run (0: a run that only reports entries the filter turned down) */
  readonly count: number;
  /** entries the filter turned down since the previous run */
  readonly skipped: number;
}

/**
 * The account's history from sequence `fromSeq` down, newest first, as runs of consecutive entries
 * of one record: at most `limit` entries, only while their 1.11 instance is above `above` (the history
 * is in ascending instance order, so the first at or below it ends the walk), and only those whose
 * operation type `keep` accepts. Unfiltered, a page is one copy per record it spans; filtered, one per
 * run of accepted entries. Entries turned down are reported in the next run's `skipped` (a run of
 * none at a record's end, so that a filter that turns down thousands is still counted as it goes).
 * The consumer must copy a run's bytes before it asks for the next.
 */
export function* historyRuns(store: ChainStore, account: number, fromSeq: number, limit: number, above = -1, keep?: (type: number) => boolean): Generator<HistoryRun> {
  let seq = fromSeq;
  let left = limit;
  while (seq >= 1 && left > 0) {
    const no = recordNo(seq);
    const bytes = store.accountPages.getBinaryFast([account, no]);
    if (!bytes) return;
    const r = new RecordView(bytes);
    let k = seq - 1 - no * PAGE_SIZE;
    if (k >= r.count) return;
    let skipped = 0;
    while (k >= 0 && left > 0) {
      if (r.instance(k) <= above) {
        if (skipped > 0) yield { record: bytes, start: 0, end: 0, count: 0, skipped };
        return;
      }
      if (keep && !keep(r.type(k))) {
        skipped++;
        k--;
        continue;
      }
      // A run from k down: to the record's first entry, the limit, the instance bound or the filter.
      const first = k;
      const lowest = Math.max(0, first - left + 1);
      while (k > lowest && r.instance(k - 1) > above && (!keep || keep(r.type(k - 1)))) k--;
      yield { record: bytes, start: r.start(first), end: r.stop(k), count: first - k + 1, skipped };
      skipped = 0;
      left -= first - k + 1;
      k--;
    }
    if (skipped > 0) yield { record: bytes, start: 0, end: 0, count: 0, skipped };
    // The record's first entry was reached: on with the record before it.
    seq = no * PAGE_SIZE;
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
