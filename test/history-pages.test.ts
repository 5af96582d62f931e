// history-pages.ts: each account's operations are kept in records of PAGE_SIZE, appended block by
// block; reading them back, across record boundaries and from any sequence, gives exactly the
// operations and bytes the per-operation history holds.
import test from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { httpPost } from './helpers/clients.js';
import { PAGE_SIZE, historyRuns, seqAtOrBefore } from '../src/chain/plugins/history-pages.js';
import type { ChainStore } from '../src/chain/store/store.js';
import { uintField } from '../workers/handlers/history.js';

const NATHAN = 6;

/** The account's history the slow way: sequence index, then each 1.11.x object. */
function reference(store: ChainStore, account: number, fromSeq: number): { seq: number; instance: number; json: string }[] {
  const out: { seq: number; instance: number; json: string }[] = [];
  for (const { key, value } of store.accountSequence.getRange({ start: [account, fromSeq], end: [account, 0], reverse: true })) {
    out.push({ seq: key[1], instance: value, json: store.objects.get([1, 11, value])!.toString('utf8') });
  }
  return out;
}

function busyChain(t: Parameters<typeof makeChain>[0]) {
  const chain = makeChain(t);
  // Blocks of different sizes, so that records fill across several blocks and within one.
  for (const n of [1, 50, 100, 3, 130, 1, 70]) {
    const ops = Array.from({ length: n }, (_, i) => op.transfer('1.2.6', '1.2.0', 1000 + i));
    chain.block(...Array.from({ length: Math.ceil(n / 50) }, (_, k) => ops.slice(k * 50, k * 50 + 50)));
  }
  return chain;
}

test('each operation the pages hold is the per-operation history\'s: its bytes, its instance and its type, at every sequence', (t) => {
  const chain = busyChain(t);
  const all = reference(chain.store, NATHAN, Number.MAX_SAFE_INTEGER);
  t.true(all.length > 2 * PAGE_SIZE, `${all.length} operations span three records`);
  /** The runs of a walk, each run's bytes copied before the next is read, as the contract says. */
  const read = (...args: Parameters<typeof historyRuns>) => {
    const out: { json: string; count: number }[] = [];
    for (const r of historyRuns(...args)) out.push({ json: r.record.toString('utf8', r.start, r.end), count: r.count });
    return out;
  };
  for (const e of all) {
    // One operation from its own sequence: its stored bytes.
    t.deepEqual(read(chain.store, NATHAN, e.seq, 1), [{ json: e.json, count: 1 }], `seq ${e.seq}`);
    // Its stored instance: it is above the one below it, and not above itself.
    t.is(read(chain.store, NATHAN, e.seq, 1, e.instance - 1).length, 1, `seq ${e.seq}: instance`);
    t.deepEqual(read(chain.store, NATHAN, e.seq, 1, e.instance), [], `seq ${e.seq}: instance`);
    // Its stored type: every operation here is a transfer (0).
    t.deepEqual(read(chain.store, NATHAN, e.seq, 1, -1, (type) => type === 0), [{ json: e.json, count: 1 }], `seq ${e.seq}: type`);
  }
  t.deepEqual(read(chain.store, 12345, 10, 100), [], 'an account without history');
});

test('a page read as runs of whole records is the per-operation history joined by commas, within its limit and instance bound', (t) => {
  const chain = busyChain(t);
  const all = reference(chain.store, NATHAN, Number.MAX_SAFE_INTEGER);
  const total = all.length;
  const bySeq = new Map(all.map((e) => [e.seq, e]));
  for (const from of [total, total - 1, 2 * PAGE_SIZE + 1, 2 * PAGE_SIZE, PAGE_SIZE + 1, PAGE_SIZE, 1, 37]) {
    for (const limit of [1, 2, 99, 100, PAGE_SIZE, PAGE_SIZE + 1, 1000]) {
      const expected = reference(chain.store, NATHAN, from).slice(0, limit);
      // Each run's bytes copied before the next is read, as the contract says.
      const runs = [...historyRuns(chain.store, NATHAN, from, limit)].length;
      const parts: string[] = [];
      let count = 0;
      for (const r of historyRuns(chain.store, NATHAN, from, limit)) {
        parts.push(r.record.toString('utf8', r.start, r.end));
        count += r.count;
      }
      t.is(parts.join(','), expected.map((e) => e.json).join(','), `from ${from}, limit ${limit}`);
      t.is(count, expected.length, `from ${from}, limit ${limit}: counted`);
      // One run per record the page spans.
      const records = new Set(expected.map((e) => Math.floor((e.seq - 1) / PAGE_SIZE))).size;
      t.is(runs, records, `from ${from}, limit ${limit}: runs`);
    }
    // The instance bound: only operations above it, whichever record it falls in.
    for (const cut of [1, PAGE_SIZE - 1, PAGE_SIZE, PAGE_SIZE + 5, 2 * PAGE_SIZE + 3]) {
      const above = bySeq.get(cut)?.instance;
      if (above === undefined || cut > from) continue;
      const expected = reference(chain.store, NATHAN, from).filter((e) => e.instance > above);
      const got: string[] = [];
      for (const r of historyRuns(chain.store, NATHAN, from, 1000, above)) got.push(r.record.toString('utf8', r.start, r.end));
      t.is(got.join(','), expected.map((e) => e.json).join(','), `from ${from}, above ${above}`);
    }
  }
  t.deepEqual([...historyRuns(chain.store, 12345, 10, 100)], [], 'an account without history');
  t.deepEqual([...historyRuns(chain.store, NATHAN, total, 0)], [], 'a limit of 0');
});

test('a filtered page is read as runs of the operations the filter keeps, and what it turns down is counted', (t) => {
  const chain = makeChain(t);
  // nathan's history: transfers (type 0) with account creations (type 5) among them, over three records.
  for (let b = 0; b < 9; b++) {
    const ops = Array.from({ length: 35 }, (_, i) => ((i + b) % 7 === 0 ? op.accountCreate(`acct-${b}-${i}`) : op.transfer('1.2.6', '1.2.0', 1000 + i)));
    chain.block(ops);
  }
  const typeOf = (instance: number) => chain.store.operationIndex.get(instance)![0];
  const all = reference(chain.store, NATHAN, Number.MAX_SAFE_INTEGER);
  t.true(all.length > 2 * PAGE_SIZE);
  t.deepEqual([...new Set(all.map((e) => typeOf(e.instance)))].sort(), [0, 5]);
  for (const from of [all.length, 2 * PAGE_SIZE + 3, PAGE_SIZE, 40]) {
    for (const [wanted, limit] of [[5, 100], [0, 100], [0, 7], [5, 1000], [9, 100]] as const) {
      const expected = reference(chain.store, NATHAN, from).filter((e) => typeOf(e.instance) === wanted).slice(0, limit);
      const parts: string[] = [];
      let kept = 0;
      let turnedDown = 0;
      for (const r of historyRuns(chain.store, NATHAN, from, limit, -1, (type) => type === wanted)) {
        if (r.count > 0) parts.push(r.record.toString('utf8', r.start, r.end));
        kept += r.count;
        turnedDown += r.skipped;
      }
      const label = `from ${from}, type ${wanted}, limit ${limit}`;
      t.is(parts.join(','), expected.map((e) => e.json).join(','), label);
      t.is(kept, expected.length, label);
      // Short of the limit, the walk read the whole history down from `from`: each entry kept or turned down.
      if (kept < limit) t.is(kept + turnedDown, from, `${label}: every entry counted`);
    }
  }
});

test('seqAtOrBefore finds the newest of the account operations at or before an operation id', (t) => {
  const chain = busyChain(t);
  const all = reference(chain.store, NATHAN, Number.MAX_SAFE_INTEGER);
  const mid = all[Math.floor(all.length / 2)]!;
  t.is(seqAtOrBefore(chain.store, NATHAN, mid.instance), mid.seq);
  t.is(seqAtOrBefore(chain.store, NATHAN, Number.MAX_SAFE_INTEGER), all[0]!.seq);
  t.is(seqAtOrBefore(chain.store, 12345, 100), 0);
});

test('history calls page across records over the wire as the per-operation history orders them', async (t) => {
  const chain = busyChain(t);
  const all = reference(chain.store, NATHAN, Number.MAX_SAFE_INTEGER);
  const { httpUrl } = await chain.serve();
  const call = async (method: string, params: unknown[]) => JSON.parse((await httpPost(httpUrl, JSON.stringify({ id: 1, method: 'call', params: ['history', method, params] }))).text).result;
  // get_relative_account_history: sequences start down to stop, at most limit.
  const rel = await call('get_relative_account_history', ['nathan', PAGE_SIZE - 20, 60, PAGE_SIZE + 20]);
  t.deepEqual(rel.map((o: { id: string }) => o.id), all.filter((e) => e.seq <= PAGE_SIZE + 20).slice(0, 41).map((e) => `1.11.${e.instance}`));
  // get_account_history: ids in (stop, start], newest first.
  const start = all[PAGE_SIZE]!.instance;
  const page = await call('get_account_history', ['nathan', '1.11.0', 100, `1.11.${start}`]);
  t.deepEqual(page.map((o: { id: string }) => o.id), all.filter((e) => e.instance <= start).slice(0, 100).map((e) => `1.11.${e.instance}`));
  t.is(JSON.stringify(page[0]), all.find((e) => e.instance === start)!.json);
});

test('a history page reads total_ops and removed_ops out of the stored statistics without parsing them: numbers, strings of digits, and absent fields', (t) => {
  const stats = '{"id":"2.6.7","owner":"1.2.7","name":"exchange-1","most_recent_op":"2.9.89999","total_ops":15203,"removed_ops":0,"total_core_in_orders":0,"core_in_balance":"6771867684"}';
  t.is(uintField(stats, '"total_ops":'), 15203n);
  t.is(uintField(stats, '"removed_ops":'), 0n);
  // fc writes a 64-bit integer past 2^53 as a string; it must come back exact.
  t.is(uintField('{"total_ops":"18446744073709551615","removed_ops":"12"}', '"total_ops":'), 18446744073709551615n);
  t.is(uintField('{"total_ops":"18446744073709551615","removed_ops":"12"}', '"removed_ops":'), 12n);
  // A field name that ends another's ("total_ops" in "xtotal_ops") is not taken for it.
  t.is(uintField('{"xtotal_ops":5,"total_ops":7}', '"total_ops":'), 7n);
  t.is(uintField('{"total_ops":9}', '"removed_ops":'), 0n, 'absent');
  t.is(uintField('{"total_ops":9', '"total_ops":'), 9n, 'at the very end');
});
