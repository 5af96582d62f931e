// history_api against a real node: every call, with BitShares Core's windowing rules (api.cpp,
// reference §4.2, §4.11). The chain is built through the chain writer; expected answers come from
// hand-worked cases and from `CoreModel`, a line-by-line transcription of Core's loops over its
// multi-index containers and 2.9.x linked lists, swept over many argument combinations.
import test, { type ExecutionContext } from 'ava';
import { makeChain, op } from './helpers/chain.js';
import { httpPost, WsClient } from './helpers/clients.js';
import type { OperationJson } from '../src/chain/evaluators/evaluators.js';
import { idInstance } from '../src/chain/fc/object-id.js';

const NATHAN = '1.2.6';
const ALICE = '1.2.7';
const BOB = '1.2.8';
const CAROL = '1.2.9';
const MAX = 0xffffffffffff;

interface OpInfo {
  id: number;
  type: number;
  block: number;
  trx: number;
  time: string;
  accounts: number[];
}

/**
 * 42 operations in 12 blocks (block 9 is empty), genesis at 2026-01-01T00:00:00 and one block every
 * 3 seconds. Operation 1.11.0 is a transfer nathan → committee-account, the only operation of
 * committee-account: in Core its 2.9.0 history object belongs to committee-account (1.2.0, the
 * lower id), which makes get_account_history_operations treat that account as having no history.
 */
async function historyChain(t: ExecutionContext) {
  const chain = makeChain(t);
  const blocks: OperationJson[][][] = [
    [[op.transfer(NATHAN, '1.2.0', 1000)], [op.accountCreate('alice')], [op.accountCreate('bob')], [op.accountCreate('carol')]],
    [[op.transfer(NATHAN, ALICE, 5_000_000), op.transfer(NATHAN, BOB, 3_000_000)], [op.transfer(NATHAN, CAROL, 1_000_000)]],
    [[op.assetCreate('GOLD')], [op.assetIssue('1.3.1', ALICE, 500), op.assetIssue('1.3.1', BOB, 700)], [op.assetIssue('1.3.1', CAROL, 500)]],
  ];
  const ring = [ALICE, BOB, CAROL];
  for (let b = 0; b < 5; b++) {
    const txs: OperationJson[][] = [];
    for (let i = 0; i < 4; i++) {
      const n = b * 4 + i;
      txs.push([op.transfer(ring[n % 3]!, ring[(n + 1) % 3]!, 10 + n)]);
    }
    blocks.push(txs);
  }
  blocks.push([]); // block 9: no operations
  blocks.push([[op.transfer(ALICE, NATHAN, 1), op.transfer(BOB, NATHAN, 2), op.assetIssue('1.3.1', NATHAN, 5)]]);
  blocks.push([[op.transfer(CAROL, ALICE, 3)], [op.transfer(ALICE, CAROL, 4)]]);
  blocks.push([[op.accountCreate('dave'), op.transfer(NATHAN, '1.2.10', 100), op.transfer('1.2.10', ALICE, 1)]]);
  for (const b of blocks) chain.block(...b);

  // What the writer recorded: each operation's accounts, from the store's [account, op] index.
  const ops: OpInfo[] = [];
  for (const { value } of chain.store.objects.getRange({ start: [1, 11, 0], end: [1, 12, 0] })) {
    const o = JSON.parse(value.toString()) as { id: string; op: [number, unknown]; block_num: number; trx_in_block: number; block_time: string };
    ops.push({ id: idInstance(o.id), type: o.op[0], block: o.block_num, trx: o.trx_in_block, time: o.block_time, accounts: [] });
  }
  for (const key of chain.store.accountHistory.getKeys({})) ops[key[1]]!.accounts.push(key[0]);
  const node = await chain.serve();
  return { node, model: new CoreModel(ops), ops };
}

interface HistoryNode {
  id: number;
  account: number;
  op: number;
  sequence: number;
  /** 2.9.x id of the next older node; 0 (2.9.0, the default id) ends the list */
  next: number;
}

/** Core's account_history plugin and history_api, transcribed (api.cpp; account_history_plugin.cpp). */
class CoreModel {
  readonly nodes: HistoryNode[] = [];
  readonly mostRecent = new Map<number, number>();
  readonly totalOps = new Map<number, number>();

  constructor(readonly ops: readonly OpInfo[]) {
    for (const o of ops) {
      // impacted accounts are a flat_set: visited in ascending order
      for (const account of [...o.accounts].sort((a, b) => a - b)) {
        const sequence = (this.totalOps.get(account) ?? 0) + 1;
        this.totalOps.set(account, sequence);
        const node = { id: this.nodes.length, account, op: o.id, sequence, next: this.mostRecent.get(account) ?? 0 };
        this.nodes.push(node);
        this.mostRecent.set(account, node.id);
      }
    }
  }

  /** account_history_index by_op: (account asc, operation_id desc) */
  private byOp(): HistoryNode[] {
    return [...this.nodes].sort((a, b) => a.account - b.account || b.op - a.op);
  }

  getAccountHistory(account: number, stop: number, limit: number, start: number): number[] {
    const result: number[] = [];
    if (start === 0) start = MAX;
    if (start < stop) return result;
    const idx = this.byOp();
    const lowerBound = (acc: number, o: number) => {
      const i = idx.findIndex((n) => n.account > acc || (n.account === acc && n.op <= o));
      return i < 0 ? idx.length : i;
    };
    let itr = lowerBound(account, start);
    const end = lowerBound(account, stop);
    while (itr !== end && result.length < limit) result.push(idx[itr++]!.op);
    if (stop === 0 && result.length < limit && itr !== idx.length && idx[itr]!.account === account) result.push(idx[itr]!.op);
    return result;
  }

  getAccountHistoryOperations(account: number, type: number, start: number, stop: number, limit: number): number[] {
    const result: number[] = [];
    const mostRecent = this.mostRecent.get(account) ?? 0;
    if (mostRecent === 0) return result;
    let node: HistoryNode | undefined = this.nodes[mostRecent]!;
    if (start === 0) start = node.op;
    while (node && node.op > stop && result.length < limit) {
      if (node.op <= start && this.ops[node.op]!.type === type) result.push(node.op);
      node = node.next === 0 ? undefined : this.nodes[node.next];
    }
    if (stop === 0 && result.length < limit) {
      const head = this.nodes[0];
      if (head && head.account === account && this.ops[head.op]!.type === type) result.push(head.op);
    }
    return result;
  }

  getRelativeAccountHistory(account: number, stop: number, limit: number, start: number): number[] {
    const result: number[] = [];
    const total = this.totalOps.get(account) ?? 0;
    start = start === 0 ? total : Math.min(total, start);
    if (start >= stop && start > 0 && limit > 0) {
      // by_seq: (account, sequence) ascending
      const idx = [...this.nodes].sort((a, b) => a.account - b.account || a.sequence - b.sequence);
      const upper = idx.findIndex((n) => n.account > account || (n.account === account && n.sequence > start));
      let itr = upper < 0 ? idx.length : upper;
      const lower = idx.findIndex((n) => n.account > account || (n.account === account && n.sequence >= stop));
      const itrStop = lower < 0 ? idx.length : lower;
      do {
        --itr;
        result.push(idx[itr]!.op);
      } while (itr !== itrStop && result.length < limit);
    }
    return result;
  }

  /** operation_history by_time: (block_time desc, id desc); lower_bound(start) */
  private timeLowerBound(start: string): number {
    const idx = this.byTime();
    const i = idx.findIndex((o) => o.time <= start);
    return i < 0 ? idx.length : i;
  }

  private byTime(): OpInfo[] {
    return [...this.ops].sort((a, b) => (a.time === b.time ? b.id - a.id : a.time < b.time ? 1 : -1));
  }

  getAccountHistoryByTime(account: number, limit: number, start = '2106-02-07T06:28:15'): number[] {
    const result: number[] = [];
    const i = this.timeLowerBound(start);
    if (i === this.ops.length) return result;
    const opId = this.byTime()[i]!.id;
    const idx = this.byOp().filter((n) => n.account === account && n.op <= opId);
    for (const n of idx) {
      if (result.length >= limit) break;
      result.push(n.op);
    }
    return result;
  }

  getBlockOperationsByTime(start?: string): number[] {
    const idx = this.byTime();
    const i = start === undefined ? 0 : this.timeLowerBound(start);
    if (i === idx.length) return [];
    return idx.slice(i).filter((o) => o.time === idx[i]!.time).map((o) => o.id);
  }
}

const ids = (reply: { result?: { id: string }[]; error?: unknown }): number[] => {
  if (!reply.result) throw new Error(`expected a result, got ${JSON.stringify(reply)}`);
  return reply.result.map((o) => idInstance(o.id));
};

async function http(url: string, method: string, params: unknown[]): Promise<any> {
  const reply = await httpPost(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'call', params: ['history', method, params] }));
  return JSON.parse(reply.text);
}

async function ws(t: ExecutionContext, url: string) {
  const client = await WsClient.connect(url);
  t.teardown(() => client.close());
  let id = 0;
  return (method: string, params: unknown[]) => client.call({ id: ++id, method: 'call', params: ['history', method, params] });
}

const oid = (n: number) => `1.11.${n}`;

test('get_account_history agrees with Core over a sweep of stop, limit and start', async (t) => {
  const { node, model } = await historyChain(t);
  const call = await ws(t, node.wsUrl);
  const points = [0, 1, 2, 5, 9, 10, 17, 24, 30, 41, 42, 100];
  let n = 0;
  for (const account of [0, 6, 7, 9, 10]) {
    for (const stop of points) {
      for (const start of points) {
        for (const limit of [0, 1, 3, 100]) {
          const got = ids(await call('get_account_history', [`1.2.${account}`, oid(stop), limit, oid(start)]));
          t.deepEqual(got, model.getAccountHistory(account, stop, limit, start), `account 1.2.${account} stop ${stop} limit ${limit} start ${start}`);
          n++;
        }
      }
    }
  }
  t.is(n, 5 * 12 * 12 * 4);
});

test('get_account_history keeps Core edge cases: 1.11.0 as start is newest, as stop includes op 0, start < stop is empty', async (t) => {
  const { node, ops } = await historyChain(t);
  const url = node.httpUrl;
  const mine = (account: number) => ops.filter((o) => o.accounts.includes(account)).map((o) => o.id).reverse();
  const nathan = mine(6);
  t.deepEqual(ids(await http(url, 'get_account_history', ['nathan', '1.11.0', 100, '1.11.0'])), nathan);
  t.is(nathan.at(-1), 0);
  // committee-account has only operation 0: a stop of 1.11.0 still includes it
  t.deepEqual(ids(await http(url, 'get_account_history', ['committee-account', '1.11.0', 100, '1.11.0'])), [0]);
  // stop excluded, start included
  t.deepEqual(ids(await http(url, 'get_account_history', ['nathan', oid(nathan[3]!), 100, oid(nathan[1]!)])), [nathan[1], nathan[2]]);
  t.deepEqual(ids(await http(url, 'get_account_history', ['nathan', '1.11.5', 100, '1.11.4'])), []);
  t.deepEqual(ids(await http(url, 'get_account_history', ['nathan', '1.11.0', 0, '1.11.0'])), []);
  // unknown names, unknown and malformed account ids: empty, not an error
  for (const who of ['nobody', '1.2.999', '1.2.x', '']) t.deepEqual(ids(await http(url, 'get_account_history', [who, '1.11.0', 10, '1.11.0'])), [], who);
  // the limit is checked before the account is looked up
  const over = await http(url, 'get_account_history', ['nobody', '1.11.0', 101, '1.11.0']);
  t.is(over.error.message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');
  // a malformed operation id fails even for an unknown account
  const bad = await http(url, 'get_account_history', ['nobody', '1.2.0', 10, '1.11.0']);
  t.is(bad.error.code, 10);
  t.regex(bad.error.message, /doesn't match expected value 1\.2\.0/);
});

test('get_account_history reads operation ids as Core 7.0 does: a sign is read, and "1.11.-1" overflows the 48-bit instance', async (t) => {
  const { node, ops } = await historyChain(t);
  const url = node.httpUrl;
  const nathan = ops.filter((o) => o.accounts.includes(6)).map((o) => o.id).reverse();
  // fc::to_uint64 is boost::lexical_cast<uint64_t>: "+4" is 4 and "-0" is 0 (the newest, as "1.11.0")
  t.deepEqual(ids(await http(url, 'get_account_history', ['nathan', '1.11.0', 100, `1.11.+${nathan[1]}`])), nathan.slice(1));
  t.deepEqual(ids(await http(url, 'get_account_history', ['nathan', '1.11.-0', 100, '1.11.-0'])), nathan);
  // "-1" wraps to 2^64-1, which object_id<1,11>'s validate() refuses (Core before 6.1 took it as the newest)
  for (const [stop, start] of [['1.11.0', '1.11.-1'], ['1.11.-1', '1.11.0'], ['1.11.0', `1.11.${MAX + 1}`]]) {
    const reply = await http(url, 'get_account_history', ['1.2.6', stop, 100, start]);
    t.is(reply.error?.code, 10, `${stop} ${start}`);
    t.is(reply.error.message, 'Execution error: Assert Exception: (instance.value >> instance_bits) == 0: instance overflow');
    const wrapped = (stop === '1.11.-1' || start === '1.11.-1') ? '18446744073709551615' : String(MAX + 1);
    t.deepEqual(reply.error.data.stack[0].data, { instance: wrapped });
  }
  // what lexical_cast refuses stays a parse error; a wrong space or type is named before the instance is read
  const parse = await http(url, 'get_account_history', ['1.2.6', '1.11.0', 100, '1.11.--1']);
  t.is(parse.error.message, "Execution error: Parse Error: Couldn't parse uint64_t");
  const other = await http(url, 'get_account_history', ['1.2.6', '1.11.0', 100, '1.2.-1']);
  t.regex(other.error.message, /doesn't match expected value 1\.2\.-1$/);
});

test('get_relative_account_history works on 1-based sequences, clamps start to total_ops, includes both ends', async (t) => {
  const { node, model, ops } = await historyChain(t);
  const url = node.httpUrl;
  const alice = ops.filter((o) => o.accounts.includes(7)).map((o) => o.id); // sequence i+1 → alice[i]
  const total = alice.length;
  const rel = async (...p: unknown[]) => ids(await http(url, 'get_relative_account_history', p));
  t.deepEqual(await rel('alice', 0, 100, 0), [...alice].reverse(), 'start 0 is the newest, stop 0 the oldest');
  t.deepEqual(await rel('alice', 2, 100, 4), [alice[3], alice[2], alice[1]], 'sequences 4 down to 2');
  t.deepEqual(await rel('alice', 3, 100, 3), [alice[2]]);
  t.deepEqual(await rel('alice', 5, 100, 4), [], 'start < stop');
  t.deepEqual(await rel('alice', 0, 2, 1000), [alice[total - 1], alice[total - 2]], 'start beyond total_ops is clamped');
  t.deepEqual(await rel('alice', total + 1, 100, 0), [], 'stop beyond total_ops');
  t.deepEqual(await rel('alice', 0, 0, 0), [], 'limit 0');
  t.deepEqual(await rel('committee-account', 0, 100, 0), [0]);
  t.deepEqual(await rel('1.2.7', '2', '3', '4'), [alice[3], alice[2], alice[1]], 'numbers may come as strings');
  t.deepEqual(await rel('nobody', 0, 100, 0), []);
  t.deepEqual(await rel('1.2.6', 0, 100, '18446744073709551615'), model.getRelativeAccountHistory(6, 0, 100, Number.MAX_SAFE_INTEGER), 'uint64 start');
  const over = await http(url, 'get_relative_account_history', ['alice', 0, 101, 0]);
  t.is(over.error.message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');

  const call = await ws(t, node.wsUrl);
  for (const account of [0, 6, 7, 8, 10]) {
    for (const stop of [0, 1, 2, 5, 8, 12, 30]) {
      for (const start of [0, 1, 3, 8, 11, 12, 13, 40]) {
        for (const limit of [0, 1, 4, 100]) {
          t.deepEqual(ids(await call('get_relative_account_history', [`1.2.${account}`, stop, limit, start])), model.getRelativeAccountHistory(account, stop, limit, start), `1.2.${account} ${stop} ${limit} ${start}`);
        }
      }
    }
  }
});

test('get_account_history_operations filters one type over (stop, start], with Core quirks around 2.9.0', async (t) => {
  const { node, model, ops } = await historyChain(t);
  const url = node.httpUrl;
  const aho = async (...p: unknown[]) => ids(await http(url, 'get_account_history_operations', p));
  const nathanCreates = ops.filter((o) => o.type === 5 && o.accounts.includes(6)).map((o) => o.id).reverse();
  t.deepEqual(await aho('nathan', 5, '1.11.0', '1.11.0', 100), nathanCreates, 'type, start, stop, limit: the newest first');
  t.deepEqual(await aho('nathan', 5, oid(nathanCreates[1]!), '1.11.0', 100), nathanCreates.slice(1), 'start included');
  t.deepEqual(await aho('nathan', 5, '1.11.0', oid(nathanCreates[1]!), 100), nathanCreates.slice(0, 1), 'stop excluded');
  t.deepEqual(await aho('nathan', 5, '1.11.0', '1.11.0', 2), nathanCreates.slice(0, 2), 'the limit counts kept operations');
  t.deepEqual(await aho('nathan', 14, '1.11.0', '1.11.0', 100), ops.filter((o) => o.type === 14).map((o) => o.id).reverse());
  t.deepEqual(await aho('nathan', 77, '1.11.0', '1.11.0', 100), []);
  t.deepEqual(await aho('nathan', '0', '1.11.0', '1.11.3', 0), [], 'limit 0');
  t.deepEqual(await aho('nobody', 0, '1.11.0', '1.11.0', 100), []);
  // Operation 1.11.0 (a transfer) is nathan's and committee-account's. Its history object 2.9.0 is
  // committee-account's, whose most_recent_op is therefore 2.9.0, which Core reads as "no history";
  // nathan's walk stops before operation 0, and only 2.9.0's owner gets it back.
  t.deepEqual(await aho('committee-account', 0, '1.11.0', '1.11.0', 100), []);
  t.deepEqual(ids(await http(url, 'get_account_history', ['committee-account', '1.11.0', 100, '1.11.0'])), [0]);
  const nathanTransfers = await aho('nathan', 0, '1.11.0', '1.11.0', 100);
  t.false(nathanTransfers.includes(0));
  t.deepEqual(nathanTransfers, model.getAccountHistoryOperations(6, 0, 0, 0, 100));
  const over = await http(url, 'get_account_history_operations', ['nathan', 0, '1.11.0', '1.11.0', 101]);
  t.is(over.error.message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');

  const call = await ws(t, node.wsUrl);
  for (const account of [0, 6, 7, 9, 10]) {
    for (const type of [0, 5, 10, 14]) {
      for (const [start, stop] of [[0, 0], [0, 3], [20, 0], [20, 8], [8, 20], [41, 40], [3, 2], [100, 0]] as const) {
        for (const limit of [1, 3, 100]) {
          t.deepEqual(
            ids(await call('get_account_history_operations', [`1.2.${account}`, type, oid(start), oid(stop), limit])),
            model.getAccountHistoryOperations(account, type, start, stop, limit),
            `1.2.${account} type ${type} start ${start} stop ${stop} limit ${limit}`,
          );
        }
      }
    }
  }
});

test('get_account_history_by_operations reads sequences start … start+limit-1 and counts before filtering', async (t) => {
  const { node, model, ops } = await historyChain(t);
  const url = node.httpUrl;
  const byOps = async (...p: unknown[]) => {
    const r = await http(url, 'get_account_history_by_operations', p);
    if (!r.result) throw new Error(JSON.stringify(r));
    return { total_count: r.result.total_count as number, ids: ids({ result: r.result.operation_history_objs }) };
  };
  const bob = ops.filter((o) => o.accounts.includes(8)).map((o) => o.id);
  // Sequences 1 … 5, newest first (get_relative_account_history(bob, 1, 5, 5)).
  t.deepEqual(await byOps('bob', [], 1, 5), { total_count: 5, ids: [bob[4]!, bob[3]!, bob[2]!, bob[1]!, bob[0]!] });
  const fiveTransfers = [bob[4]!, bob[3]!, bob[2]!, bob[1]!, bob[0]!].filter((i) => ops[i]!.type === 0);
  t.deepEqual(await byOps('bob', [0], 1, 5), { total_count: 5, ids: fiveTransfers });
  t.deepEqual(await byOps('bob', [0, 14, 0], '1', '5'), { total_count: 5, ids: [bob[4]!, bob[3]!, bob[2]!, bob[1]!, bob[0]!].filter((i) => [0, 14].includes(ops[i]!.type)) });
  // start 0: sequences 0 … limit-1, i.e. limit-1 operations
  t.deepEqual(await byOps('bob', [], 0, 3), { total_count: 2, ids: [bob[1]!, bob[0]!] });
  // start 0 and limit 0: stop 0, start wraps to 4294967295 and is clamped to total_ops, but limit 0 gives nothing
  t.deepEqual(await byOps('bob', [], 0, 0), { total_count: 0, ids: [] });
  t.deepEqual(await byOps('bob', [], 1000, 10), { total_count: 0, ids: [] }, 'beyond the history');
  t.deepEqual(await byOps('nobody', [], 1, 10), { total_count: 0, ids: [] });
  for (const [start, limit] of [[1, 100], [3, 4], [10, 100], [12, 3], [13, 1]] as const) {
    const expected = model.getRelativeAccountHistory(8, start, limit, (limit + start - 1) >>> 0);
    t.deepEqual(await byOps('1.2.8', [], start, limit), { total_count: expected.length, ids: expected }, `start ${start} limit ${limit}`);
  }
  const over = await http(url, 'get_account_history_by_operations', ['bob', [], 1, 101]);
  t.is(over.error.message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');
  const shape = await httpPost(url, JSON.stringify({ id: 9, method: 'call', params: ['history', 'get_account_history_by_operations', ['bob', [5], 1, 1]] }));
  t.regex(shape.text, /^\{"id":9,"result":\{"total_count":1,"operation_history_objs":\[\{"id":"1\.11\.2","op":\[5,/);
});

test('get_account_history_by_time: optional limit and start, block_time <= start, newest first', async (t) => {
  const { node, model, ops } = await historyChain(t);
  const url = node.httpUrl;
  const byTime = async (...p: unknown[]) => ids(await http(url, 'get_account_history_by_time', p));
  const aliceAll = ops.filter((o) => o.accounts.includes(7)).map((o) => o.id).reverse();
  t.deepEqual(await byTime('alice'), aliceAll, 'both optional arguments left out');
  t.deepEqual(await byTime('alice', null, null), aliceAll, 'null is "not set"');
  t.deepEqual(await byTime('alice', 3), aliceAll.slice(0, 3));
  t.deepEqual(await byTime('alice', 0), []);
  // Block 4 is at 00:00:12: everything of alice's up to and including block 4.
  const upTo4 = ops.filter((o) => o.accounts.includes(7) && o.block <= 4).map((o) => o.id).reverse();
  t.deepEqual(await byTime('alice', 100, '2026-01-01T00:00:12'), upTo4);
  t.deepEqual(await byTime('alice', 100, '2026-01-01T00:00:14'), upTo4, 'between blocks');
  t.deepEqual(await byTime('alice', 100, '20260101T000012'), upTo4, 'undelimited ISO form');
  t.deepEqual(await byTime('alice', 100, '2025-12-31T23:59:59'), [], 'before the first operation');
  t.deepEqual(await byTime('alice', 100, '2030-01-01T00:00:00'), aliceAll);
  t.deepEqual(await byTime('nobody', 100), []);
  for (const account of [0, 6, 7, 8, 10]) {
    for (const s of [3, 6, 9, 12, 26, 27, 28, 30, 39]) {
      const start = `2026-01-01T00:00:${String(s).padStart(2, '0')}`;
      for (const limit of [1, 5, 100]) t.deepEqual(await byTime(`1.2.${account}`, limit, start), model.getAccountHistoryByTime(account, limit, start), `1.2.${account} ${limit} ${start}`);
    }
  }
  const over = await http(url, 'get_account_history_by_time', ['alice', 101]);
  t.is(over.error.message, 'Execution error: Assert Exception: limit <= configured_limit: limit can not be greater than 100');
  const badTime = await http(url, 'get_account_history_by_time', ['alice', 1, 'yesterday']);
  t.is(badTime.error.code, 4);
  t.regex(badTime.error.message, /unable to convert ISO-formatted string to fc::time_point_sec/);
});

test('get_block_operation_history lists a block in (trx_in_block, op_in_trx) order, optionally one transaction', async (t) => {
  const { node, ops } = await historyChain(t);
  const url = node.httpUrl;
  const block = async (...p: unknown[]) => ids(await http(url, 'get_block_operation_history', p));
  const inBlock = (b: number, trx?: number) => ops.filter((o) => o.block === b && (trx === undefined || o.trx === trx)).map((o) => o.id);
  t.deepEqual(await block(2), inBlock(2));
  t.is(inBlock(2).length, 3);
  t.deepEqual(await block(2, 0), inBlock(2, 0));
  t.deepEqual(await block(2, 1), inBlock(2, 1));
  t.deepEqual(await block(2, 2), []);
  t.deepEqual(await block(2, null), inBlock(2));
  t.deepEqual(await block('10', '0'), inBlock(10, 0));
  t.deepEqual(await block(2, 65536), inBlock(2, 0), 'trx_in_block is a uint16, truncated as fc does');
  t.deepEqual(await block(9), [], 'a block without operations');
  t.deepEqual(await block(0), []);
  t.deepEqual(await block(1000), []);
  const one = JSON.parse((await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: ['history', 'get_block_operation_history', [2, 1]] }))).text);
  t.like(one.result[0], { block_num: 2, trx_in_block: 1, op_in_trx: 0, virtual_op: 0, is_virtual: false, block_time: '2026-01-01T00:00:06' });
});

test('get_block_operations_by_time returns the operations of the newest block at or before start, id descending', async (t) => {
  const { node, model, ops } = await historyChain(t);
  const url = node.httpUrl;
  const byTime = async (...p: unknown[]) => ids(await http(url, 'get_block_operations_by_time', p));
  const last = ops.at(-1)!;
  t.deepEqual(await byTime(), ops.filter((o) => o.block === last.block).map((o) => o.id).reverse(), 'no start: the newest block with operations');
  t.deepEqual(await byTime(null), await byTime());
  t.deepEqual(await byTime('2026-01-01T00:00:06'), [6, 5, 4]);
  t.deepEqual(await byTime('2026-01-01T00:00:08'), [6, 5, 4], 'between blocks');
  // Block 9 (00:00:27) has no operations: block 8's are answered.
  t.deepEqual(await byTime('2026-01-01T00:00:27'), ops.filter((o) => o.block === 8).map((o) => o.id).reverse());
  t.deepEqual(await byTime('2026-01-01T00:00:02'), [], 'before the first operation');
  for (let s = 0; s <= 45; s++) {
    const start = `2026-01-01T00:00:${String(s).padStart(2, '0')}`;
    t.deepEqual(await byTime(start), model.getBlockOperationsByTime(start), start);
  }
});

test('market and liquidity-pool history answer as Core with the plugin on a chain without markets', async (t) => {
  const { node } = await historyChain(t);
  const url = node.httpUrl;
  t.deepEqual((await http(url, 'get_fill_order_history', ['BTS', 'GOLD', 10])).result, []);
  t.deepEqual((await http(url, 'get_market_history', ['BTS', 'GOLD', 60, '2026-01-01T00:00:00', '2026-01-02T00:00:00'])).result, []);
  t.deepEqual((await http(url, 'get_market_history_buckets', [])).result, [15, 60, 300, 3600, 86400]);
  t.regex((await http(url, 'get_fill_order_history', ['BTS', 'NOPE', 10])).error.message, /no such asset/);
  t.deepEqual((await http(url, 'get_liquidity_pool_history', ['1.19.0'])).result, []);
  t.deepEqual((await http(url, 'get_liquidity_pool_history', ['1.19.0', '2026-01-02T00:00:00', null, 10, 63])).result, []);
  t.deepEqual((await http(url, 'get_liquidity_pool_history_by_sequence', ['1.19.0', 5, null, 10])).result, []);
  t.regex((await http(url, 'get_liquidity_pool_history', ['1.19.0', null, null, 102])).error.message, /limit can not be greater than 101/);
  // Arguments convert first: a pool id of the wrong type, or a bad time, fails.
  t.regex((await http(url, 'get_liquidity_pool_history', ['1.3.0'])).error.message, /doesn't match expected value 1\.3\.0/);
  t.is((await http(url, 'get_market_history', ['BTS', 'GOLD', 60, 'soon', '2026-01-02T00:00:00'])).error.code, 4);
  // Required arguments are still required.
  t.regex((await http(url, 'get_fill_order_history', ['BTS', 'GOLD'])).error.message, /too few arguments passed to method/);
  t.regex((await http(url, 'get_liquidity_pool_history', [])).error.message, /too few arguments passed to method/);
});

test('history calls work over WebSocket with a numeric API id after login', async (t) => {
  const { node, ops } = await historyChain(t);
  const client = await WsClient.connect(node.wsUrl);
  t.teardown(() => client.close());
  t.deepEqual(await client.call({ id: 1, method: 'call', params: [1, 'login', ['', '']] }), { id: 1, result: true });
  const api = (await client.call({ id: 2, method: 'call', params: [1, 'history', []] })).result as number;
  const r = await client.call({ id: 3, method: 'call', params: [api, 'get_relative_account_history', ['carol', 1, 1, 1]] });
  t.deepEqual(ids(r), [ops.find((o) => o.accounts.includes(9))!.id]);
  const missing = await client.call({ id: 4, method: 'call', params: [api, 'get_account_history_operations', ['carol', 0, '1.11.0', '1.11.0']] });
  t.regex(missing.error.message, /too few arguments passed to method/);
});
