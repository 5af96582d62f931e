// The measuring side of bench/hot-reads: runs handlers inside a worker thread against the store.
import { parentPort, workerData } from 'node:worker_threads';
import hdr from 'hdr-histogram-js';
import { buildConfig } from '../src/config.js';
import { openChainStore } from '../src/chain/store/store.js';
import { handlerFor } from '../workers/handlers/index.js';
import { ReplyWriter } from '../workers/reply-writer.js';
import type { WorkerContext } from '../workers/context.js';
import type { ReadResult } from './hot-reads.js';
import { fcTime, parseFcTime } from '../src/chain/fc/fc-json.js';

const { dataDir, iterations } = workerData as { dataDir: string; iterations: number };
const store = openChainStore(dataDir, { readOnly: true });
// One snapshot for the whole run, as a worker between two blocks has.
const ctx: WorkerContext = { store, config: buildConfig({ 'data-dir': dataDir }), snapshot: 0 };

const opCount = Number(store.meta.get('next_instance:1.11') ?? '1');
const users = Number(store.meta.get('next_instance:1.2') ?? '7');
let seed = 12345;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};

const readJson = <T>(key: [number, number, number]): T | undefined => {
  const raw = store.objects.get(key);
  return raw ? (JSON.parse(raw.toString('utf8')) as T) : undefined;
};
const busiest = store.accountNames.get('exchange-1') ?? 6;
const busiestOps = Number(readJson<{ total_ops: number | string }>([2, 6, busiest])?.total_ops ?? 1);
const dgp = readJson<{ head_block_number: number; time: string }>([2, 1, 0])!;
const firstOpTime = parseFcTime(readJson<{ block_time: string }>([1, 11, 0])?.block_time ?? dgp.time);
const randomTime = () => fcTime(firstOpTime + rand(Math.max(1, parseFcTime(dgp.time) - firstOpTime + 1)));

/** `max`: fewer calls for the heavy ones (a whole block's operations per reply). */
type Case = { name: string; set: string; method: string; params: () => unknown[]; max?: number; ctx?: WorkerContext };
/**
 * Without a read snapshot nothing is kept (order books, sellers' names): every call builds its book
 * and reads each order's seller name, an upper bound on the first book after a block, which reads
 * each distinct seller once.
 */
const unkept: WorkerContext = { ...ctx, snapshot: undefined };
const cases: Case[] = [
  { name: 'get_accounts (1 account by id)', set: 'database', method: 'get_accounts', params: () => [[`1.2.${rand(users)}`]] },
  { name: 'get_full_accounts (1 account)', set: 'database', method: 'get_full_accounts', params: () => [[`1.2.${7 + rand(Math.max(1, users - 7))}`], false] },
  { name: 'get_account_history limit 100, newest (busiest account)', set: 'history', method: 'get_account_history', params: () => ['exchange-1', '1.11.0', 100, '1.11.0'] },
  { name: 'get_account_history limit 100, random page (busiest account)', set: 'history', method: 'get_account_history', params: () => ['exchange-1', '1.11.0', 100, `1.11.${rand(opCount)}`] },
  // The capacity bench's ws-history call: a page at a random place in the busiest account's history.
  { name: 'get_relative_account_history limit 100, random start (busiest account)', set: 'history', method: 'get_relative_account_history', params: () => ['exchange-1', 0, 100, 100 + rand(Math.max(1, busiestOps - 100))] },
  { name: 'get_account_history_operations transfers limit 100 (busiest account)', set: 'history', method: 'get_account_history_operations', params: () => ['exchange-1', 0, '1.11.0', '1.11.0', 100] },
  { name: 'get_account_history_by_operations [transfer] limit 100, random start (busiest account)', set: 'history', method: 'get_account_history_by_operations', params: () => ['exchange-1', [0], rand(busiestOps), 100] },
  { name: 'get_account_history_by_time limit 100, random time (busiest account)', set: 'history', method: 'get_account_history_by_time', params: () => ['exchange-1', 100, randomTime()] },
  { name: 'get_block_operation_history (trx 0 of a random block)', set: 'history', method: 'get_block_operation_history', params: () => [1 + rand(Math.max(1, dgp.head_block_number)), 0] },
  { name: 'get_block_operations_by_time (random time: a whole block)', set: 'history', method: 'get_block_operations_by_time', params: () => [randomTime()], max: 2000 },
  { name: 'get_objects (1 op, 1.11.x)', set: 'database', method: 'get_objects', params: () => [[`1.11.${rand(opCount)}`]] },
  { name: 'get_objects (10 ops, 1.11.x)', set: 'database', method: 'get_objects', params: () => [Array.from({ length: 10 }, () => `1.11.${rand(opCount)}`)] },
  // What a trading bot polls (bench ws-market), on the markets `generate --orders` makes.
  ...(store.assetSymbols.get('XUSD') === undefined
    ? []
    : [
        { name: 'get_order_book BTS/XUSD depth 50, built, nothing kept', set: 'database', method: 'get_order_book', params: () => ['BTS', 'XUSD', 50], ctx: unkept },
        { name: 'get_order_book BTS/XUSD depth 50, kept for the snapshot', set: 'database', method: 'get_order_book', params: () => ['BTS', 'XUSD', 50] },
        { name: 'get_ticker BTS/XUSD', set: 'database', method: 'get_ticker', params: () => ['BTS', 'XUSD'] },
      ]),
];

const results: ReadResult[] = [];
for (const c of cases) {
  const handler = handlerFor(c.set, c.method);
  if (!handler) continue;
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: 3 });
  let bytes = 0;
  const calls = Math.min(iterations, c.max ?? iterations);
  const warm = Math.min(1000, calls);
  for (let i = 0; i < warm + calls; i++) {
    const params = c.params();
    const out = new ReplyWriter();
    const t0 = process.hrtime.bigint();
    out.text('{"id":1,"result":');
    await handler(c.ctx ?? ctx, params, out);
    out.text('}');
    out.finish();
    const ns = Number(process.hrtime.bigint() - t0);
    if (i >= warm) {
      h.recordValue(Math.max(1, Math.round(ns / 1000)));
      bytes += out.length;
    }
  }
  results.push({
    name: c.name,
    calls,
    meanUs: h.mean,
    p50Us: h.getValueAtPercentile(50),
    p90Us: h.getValueAtPercentile(90),
    p99Us: h.getValueAtPercentile(99),
    maxUs: h.maxValue,
    replyBytes: Math.round(bytes / calls),
  });
}
parentPort!.postMessage(results);
