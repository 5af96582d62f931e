// history_api handlers, with BitShares Core's windowing rules (api.cpp, reference §4.2, §4.11).
//
// Arguments are converted first, left to right, as fc's call_generic does before the method body
// runs; so a malformed id or time fails even where the body would answer with an empty list.
// Unknown accounts give empty results, never errors: Core catches every lookup failure in these calls.
import { historyApi } from '../../src/api/sets/history.js';
import { ASSERT, RpcError, assertError } from '../../src/errors.js';
import { asArray, asObjectId, asString, asTime, asUint32, asUint64 } from '../../src/api/params.js';
import { objectIdParts } from '../../src/chain/fc/object-id.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../context.js';
import type { ReplyWriter } from '../reply-writer.js';
import { historyRuns, seqAtOrBefore } from '../../src/chain/plugins/history-pages.js';
import type { HandlersFor } from './types.js';
import { answerNothing } from './unkept-answers.js';

const FILE = 'history_api';
const OP_HISTORY = { space: 1, type: 11 };
const LIQUIDITY_POOL = { space: 1, type: 19 };
/** operation_history_id_type::max(): 48-bit instance */
const MAX_INSTANCE = 0xffffffffffff;
/** time_point_sec::maximum() */
const TIME_MAX_SECONDS = 0xffffffff;

/** application::get_plugin<T> (application.hpp) asserts before the calls' own "not enabled" checks. */
/** validate_get_lp_history_params (api.cpp) */
/** time_point_sec::from_iso_string's FC_RETHROW_EXCEPTIONS text (fc src/time.cpp) */

// ---- argument conversions (fc's from_variant rules, reference §5.4) ----

/** An fc::optional<T>: missing or null means "not set". */
const optional = <T>(v: unknown, convert: (v: unknown) => T): T | undefined => (v === null || v === undefined ? undefined : convert(v));

/** `variant::as_int64`: the same leniency as as_uint64, read as signed. */
const asInt64 = (v: unknown): bigint => BigInt.asIntN(64, asUint64(v));

/** A uint16 parameter: `static_cast<uint16_t>(as_uint64())`, truncated as fc does. */
const asUint16 = (v: unknown): number => Number(BigInt.asUintN(16, asUint64(v)));

function checkLimit(limit: number, configured: number, method: string): void {
  if (limit > configured) throw new RpcError(assertError(ASSERT.LIMIT, { configured_limit: configured }, { file: FILE, method }));
}

/** `get_account_from_string` inside Core's `try { … } catch(...) { return result; }`. */
function findAccount(ctx: WorkerContext, nameOrId: string): number | undefined {
  try {
    return resolveAccount(ctx, nameOrId, true);
  } catch {
    // Unknown names and malformed ids alike: the caller answers with an empty list.
    return undefined;
  }
}

// ---- the operation index (store.ts: 1.11 instance → [op type, block_num, trx_in_block, block_time]) ----

/** op.which() of operation 1.11.`instance`. */
const opTypeOf = (ctx: WorkerContext, instance: number): number | undefined => ctx.store.operationIndex.get(instance)?.[0];

const trxInBlockOf = (ctx: WorkerContext, instance: number): number | undefined => ctx.store.operationIndex.get(instance)?.[2];

/** block_time, seconds. */
const blockTimeOf = (ctx: WorkerContext, instance: number): number | undefined => ctx.store.operationIndex.get(instance)?.[3];

/** The lowest and highest 1.11.x instances stored; operations are never removed, so all between exist. */
function opInstanceRange(ctx: WorkerContext): [first: number, last: number] | undefined {
  let first: number | undefined;
  let last: number | undefined;
  for (const key of ctx.store.objects.getKeys({ start: [1, 11, 0], end: [1, 11, MAX_INSTANCE + 1], limit: 1 })) first = key[2];
  for (const key of ctx.store.objects.getKeys({ start: [1, 11, MAX_INSTANCE], end: [1, 11, -1], reverse: true, limit: 1 })) last = key[2];
  return first === undefined || last === undefined ? undefined : [first, last];
}

/**
 * The newest operation with block_time <= `time`: where Core's `by_time` index (block_time desc,
 * id desc) puts `lower_bound(time)`. Block times never decrease as ids grow, so a binary search.
 */
function newestOpAtOrBefore(ctx: WorkerContext, time: number): number | undefined {
  const range = opInstanceRange(ctx);
  if (!range) return undefined;
  let [lo, hi] = range;
  if ((blockTimeOf(ctx, lo) ?? -Infinity) > time) return undefined;
  // Invariant: block_time(lo) <= time.
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if ((blockTimeOf(ctx, mid) ?? -Infinity) <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Writes the objects space.type.i for the given instances, in order. */
function writeObjectsOf(ctx: WorkerContext, out: ReplyWriter, space: number, type: number, instances: readonly number[]): void {
  out.text('[');
  instances.forEach((i, n) => {
    if (n > 0) out.text(',');
    out.raw(ctx.store.objects.getBinaryFast([space, type, i])!);
  });
  out.text(']');
}

/**
 * Writes the 1.11.x objects `from` … `to` - 1 (ascending, or descending when `newestFirst`), each
 * copied from LMDB's shared read buffer into the reply (ids absent from the store are left out).
 */
function writeOpRange(ctx: WorkerContext, out: ReplyWriter, from: number, to: number, newestFirst = false): void {
  out.text('[');
  // One read per id: a range cursor over binary values copies each into a Buffer of its own, which
  // cost a whole block of operations more than the lookups do (bench:hot-reads).
  let first = true;
  const step = newestFirst ? -1 : 1;
  for (let i = newestFirst ? to - 1 : from; newestFirst ? i >= from : i < to; i += step) {
    const value = ctx.store.objects.getBinaryFast([1, 11, i]);
    if (!value) continue;
    if (!first) out.text(',');
    first = false;
    out.raw(value);
  }
  out.text(']');
}

/** The first i in [lo, hi) for which `pred` holds (`pred` false then true as i grows), or hi. */
function lowerBound(lo: number, hi: number, pred: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}


// ---- per-account history ----

/**
 * Writes the account's operations from sequence `fromSeq` down, newest first, that `keep` accepts,
 * while their 1.11 instance is above `above`, at most `limit`, each after a comma unless it is the
 * array's first. They are copied straight from the account's history pages (history-pages.ts): no
 * per-operation lookup, no parse, and without a filter one copy per record the page spans. Returns
 * how many were written.
 */
function writePaged(ctx: WorkerContext, out: ReplyWriter, account: number, fromSeq: number, limit: number, above: number, keep?: (type: number) => boolean): number {
  let n = 0;
  for (const run of historyRuns(ctx.store, account, fromSeq, limit, above, keep)) {
    // A filter may turn down every row of a long history: those count for the look at the deadline too.
    if (run.skipped > 0) out.skipped(run.skipped);
    if (run.count === 0) continue;
    if (n > 0) out.text(',');
    // One copy for the run, its commas stored with it.
    out.rawRange(run.record, run.start, run.end, run.count);
    n += run.count;
  }
  return n;
}

/** Writes the stored 1.11.0 object (Core's special cases of the first history object), after `written` others. */
function writeOpZero(ctx: WorkerContext, out: ReplyWriter, written: number): void {
  const bytes = ctx.store.objects.getBinaryFast([1, 11, 0]);
  if (!bytes) return;
  if (written > 0) out.text(',');
  out.raw(bytes);
}

/** The account's operation instances in [below+1, from], newest first (Core's `by_op` index order). */
function* accountOpsDesc(ctx: WorkerContext, account: number, from: number, below: number): Generator<number> {
  for (const key of ctx.store.accountHistory.getKeys({ start: [account, from], end: [account, below], reverse: true })) {
    if (key[1] > from) continue;
    yield key[1];
  }
}

function newestAccountOp(ctx: WorkerContext, account: number): number | undefined {
  for (const op of accountOpsDesc(ctx, account, MAX_INSTANCE, -1)) return op;
  return undefined;
}

/**
 * Core keeps each account's history as a linked list of 2.9.x objects. The very first of them, 2.9.0,
 * is special in get_account_history_operations: `most_recent_op == 2.9.0` reads as "no history", the
 * walk stops before it, and a separate check adds it back when `stop` is 0. It belongs to the
 * lowest-numbered account that operation 1.11.0 concerned (the history plugin visits an operation's
 * impacted accounts in flat_set order); those accounts are all named as "1.2.x" in the operation or
 * its result.
 */
function firstHistoryOwner(ctx: WorkerContext): number | undefined {
  const bytes = ctx.store.objects.getBinaryFast([1, 11, 0]);
  if (!bytes) return undefined;
  const named = new Set<number>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      const id = objectIdParts(v);
      if (id && id.space === 1 && id.type === 2) named.add(id.instance);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(JSON.parse(bytes.toString('utf8', 0, bytes.length)));
  return [...named].sort((a, b) => a - b).find((account) => ctx.store.accountHistory.doesExist([account, 0]));
}

/** total_ops and removed_ops of the account's statistics (2.6.x, same instance as the account). */
function opCounts(ctx: WorkerContext, account: number): { totalOps: bigint; removedOps: bigint } {
  const bytes = ctx.store.objects.getBinaryFast([2, 6, account]);
  if (!bytes) return { totalOps: 0n, removedOps: 0n };
  // Two fields of a stored object of about 600 bytes, on every history page: read where they are,
  // rather than parsing the whole object (a third of the rest of a page's cost in the worker).
  const json = bytes.toString('latin1', 0, bytes.length);
  return { totalOps: uintField(json, '"total_ops":'), removedOps: uintField(json, '"removed_ops":') };
}

/**
 * The unsigned integer after `key` (a quoted field name and its colon) in a stored object's JSON, as
 * fc writes it: a number, or a string of digits; 0 when the field is absent. The stored objects are
 * the chain writer's own, compact JSON, whose field names never occur inside a value.
 */
export function uintField(json: string, key: string): bigint {
  const at = json.indexOf(key);
  if (at < 0) return 0n;
  let start = at + key.length;
  if (json.charCodeAt(start) === 34) start++;
  let end = start;
  for (let c = json.charCodeAt(end); c >= 48 && c <= 57; c = json.charCodeAt(++end));
  return end > start ? BigInt(json.slice(start, end)) : 0n;
}

/**
 * get_relative_account_history's body (api.cpp): sequences `start` down to `stop`, both inclusive,
 * newest first; `start` 0 means the newest and a larger one is clamped to total_ops.
 */
/**
 * get_relative_account_history's window (api.cpp): sequences `start` down to `stop`, both inclusive,
 * newest first, at most `limit`; `start` 0 means the newest and a larger one is clamped to
 * total_ops. Undefined when the window is empty.
 */
function relativeWindow(ctx: WorkerContext, nameOrId: string, stop: bigint, limit: number, start: bigint): { account: number; top: number; count: number } | undefined {
  checkLimit(limit, ctx.config.apiLimits.api_limit_get_relative_account_history, 'get_relative_account_history');
  const account = findAccount(ctx, nameOrId);
  if (account === undefined) return undefined;
  const { totalOps, removedOps } = opCounts(ctx, account);
  const top = start === 0n || start > totalOps ? totalOps : start;
  if (!(top >= stop && top > removedOps && limit > 0)) return undefined;
  // `stop` <= top <= total_ops here, so both fit a double exactly; sequences 1 … total_ops all exist.
  const lowest = Math.max(1, Number(stop));
  return { account, top: Number(top), count: Math.min(limit, Number(top) - lowest + 1) };
}


export const historyHandlers = {
  get_account_history(ctx, [accountArg, stopArg, limitArg, startArg], out) {
    const nameOrId = asString(accountArg);
    const stop = asObjectId(stopArg, OP_HISTORY).instance;
    const limit = asUint32(limitArg);
    let start = asObjectId(startArg, OP_HISTORY).instance;
    checkLimit(limit, ctx.config.apiLimits.api_limit_get_account_history, 'get_account_history');
    // "1.11.0" as start means "the newest"; the price is that op 0 cannot be asked for as a start.
    if (start === 0) start = MAX_INSTANCE;
    if (start < stop) return void out.text('[]');
    const account = findAccount(ctx, nameOrId);
    if (account === undefined) return void out.text('[]');
    // The account's operations with stop < id <= start, newest first.
    out.text('[');
    const n = writePaged(ctx, out, account, seqAtOrBefore(ctx.store, account, start), limit, stop);
    // Core's special case: with stop at 0, operation 1.11.0 itself is included when it is the account's.
    if (stop === 0 && n < limit && ctx.store.accountHistory.doesExist([account, 0])) writeOpZero(ctx, out, n);
    out.text(']');
  },

  get_account_history_by_time(ctx, [accountArg, limitArg, startArg], out) {
    const nameOrId = asString(accountArg);
    const olimit = optional(limitArg, asUint32);
    const ostart = optional(startArg, asTime);
    const configured = ctx.config.apiLimits.api_limit_get_account_history;
    const limit = olimit ?? configured;
    checkLimit(limit, configured, 'get_account_history_by_time');
    const account = findAccount(ctx, nameOrId);
    if (account === undefined) return void out.text('[]');
    // The account's operations from the newest one with block_time <= start, newest first.
    const newest = newestOpAtOrBefore(ctx, ostart ?? TIME_MAX_SECONDS);
    if (newest === undefined) return void out.text('[]');
    out.text('[');
    writePaged(ctx, out, account, seqAtOrBefore(ctx.store, account, newest), limit, -1);
    out.text(']');
  },

  get_account_history_by_operations(ctx, [accountArg, typesArg, startArg, limitArg], out) {
    const nameOrId = asString(accountArg);
    const types = new Set(asArray(typesArg).map(asUint16));
    const start = asUint32(startArg);
    const limit = asUint32(limitArg);
    checkLimit(limit, ctx.config.apiLimits.api_limit_get_account_history_by_operations, 'get_account_history_by_operations');
    // Core asks for sequences start … limit+start-1, computed in uint32 (so start 0 with limit 0
    // wraps to 4294967295, which then clamps to total_ops).
    const w = relativeWindow(ctx, nameOrId, BigInt(start), limit, BigInt((limit + start - 1) >>> 0));
    // total_count is the number fetched, before the type filter.
    out.text(`{"total_count":${w?.count ?? 0},"operation_history_objs":[`);
    if (w) writePaged(ctx, out, w.account, w.top, w.count, -1, types.size === 0 ? undefined : (type) => types.has(type));
    out.text(']}');
  },

  get_account_history_operations(ctx, [accountArg, typeArg, startArg, stopArg, limitArg], out) {
    const nameOrId = asString(accountArg);
    const operationType = asInt64(typeArg);
    let start = asObjectId(startArg, OP_HISTORY).instance;
    const stop = asObjectId(stopArg, OP_HISTORY).instance;
    const limit = asUint32(limitArg);
    checkLimit(limit, ctx.config.apiLimits.api_limit_get_account_history_operations, 'get_account_history_operations');
    const account = findAccount(ctx, nameOrId);
    if (account === undefined) return void out.text('[]');
    const newest = newestAccountOp(ctx, account);
    // stats.most_recent_op == 2.9.0: no history at all, or only the very first history object.
    if (newest === undefined || (newest === 0 && firstHistoryOwner(ctx) === account)) return void out.text('[]');
    if (start === 0) start = newest;
    // Stored types are uint32: a wanted type outside that range matches none (-1 matches none).
    const wanted = operationType >= 0n && operationType <= 0xffffffffn ? Number(operationType) : -1;
    // Core walks the list from the newest while op > stop, keeping ops <= start of the type; the
    // walk never reaches operation 1.11.0 (0 > stop never holds), which only the check below can add.
    out.text('[');
    const n = writePaged(ctx, out, account, seqAtOrBefore(ctx.store, account, start), limit, stop, (type) => type === wanted);
    if (stop === 0 && n < limit && firstHistoryOwner(ctx) === account && BigInt(opTypeOf(ctx, 0) ?? -1) === operationType) writeOpZero(ctx, out, n);
    out.text(']');
  },

  get_relative_account_history(ctx, [accountArg, stopArg, limitArg, startArg], out) {
    const nameOrId = asString(accountArg);
    const stop = asUint64(stopArg);
    const limit = asUint32(limitArg);
    const start = asUint64(startArg);
    const w = relativeWindow(ctx, nameOrId, stop, limit, start);
    out.text('[');
    if (w) writePaged(ctx, out, w.account, w.top, w.count, -1);
    out.text(']');
  },

  get_block_operation_history(ctx, [blockArg, trxArg], out) {
    const blockNum = asUint32(blockArg);
    const trxInBlock = optional(trxArg, asUint16);
    const range = ctx.store.blockOperations.get(blockNum);
    if (!range) return void out.text('[]');
    const [first, count] = range;
    const end = first + count;
    if (trxInBlock === undefined) return writeOpRange(ctx, out, first, end);
    // A block's operations have consecutive ids in (trx_in_block, op_in_trx) order (Core's by_block
    // order), so one transaction's operations are one run, found by two binary searches.
    const trxOf = (i: number): number => trxInBlockOf(ctx, i) ?? -1;
    const lo = lowerBound(first, end, (i) => trxOf(i) >= trxInBlock);
    const hi = lowerBound(lo, end, (i) => trxOf(i) > trxInBlock);
    writeOpRange(ctx, out, lo, hi);
  },

  get_block_operations_by_time(ctx, [startArg], out) {
    const ostart = optional(startArg, asTime);
    // Every operation with the newest block_time <= start (all of the newest without one), in Core's
    // by_time order: id descending. Block times never decrease as ids grow: the run of that time
    // ends at `newest` and starts where a binary search finds it.
    const range = opInstanceRange(ctx);
    const newest = ostart === undefined ? range?.[1] : newestOpAtOrBefore(ctx, ostart);
    if (range === undefined || newest === undefined) return void out.text('[]');
    const time = blockTimeOf(ctx, newest);
    const lowest = range[0];
    const from = lowerBound(lowest, newest, (i) => (blockTimeOf(ctx, i) ?? -Infinity) >= (time ?? Infinity));
    writeOpRange(ctx, out, from, newest + 1, true);
  },

  // The market_history plugin's calls (api.cpp), from the plugin's objects in the store
  // (src/chain/plugins/market-history.ts): assets are resolved (throwing), and the pair is ordered by id.
  get_fill_order_history(ctx, [a, b, limitArg], out) {
    const base = asString(a);
    const quote = asString(b);
    // Core puts no api-limit on this call: the plugin keeps at most its records per market.
    const limit = asUint32(limitArg);
    const ia = resolveAsset(ctx, base, true)!;
    const ib = resolveAsset(ctx, quote, true)!;
    const [lo, hi] = ia < ib ? [ia, ib] : [ib, ia];
    const found: number[] = [];
    if (limit > 0) for (const { value } of ctx.store.fillHistory.getRange({ start: [lo, hi, Number.MAX_SAFE_INTEGER], end: [lo, hi], reverse: true, limit })) found.push(value);
    writeObjectsOf(ctx, out, 5, 0, found);
  },

  get_market_history(ctx, [a, b, bucketSeconds, startArg, endArg], out) {
    const base = asString(a);
    const quote = asString(b);
    const seconds = asUint32(bucketSeconds);
    const start = asTime(startArg);
    const end = asTime(endArg);
    const ia = resolveAsset(ctx, base, true)!;
    const ib = resolveAsset(ctx, quote, true)!;
    const [lo, hi] = ia < ib ? [ia, ib] : [ib, ia];
    // At most api_limit_get_market_history buckets, without an error: the page simply ends there.
    const limit = ctx.config.apiLimits.api_limit_get_market_history;
    const found: number[] = [];
    if (start <= end && limit > 0) for (const { value } of ctx.store.buckets.getRange({ start: [lo, hi, seconds, start], end: [lo, hi, seconds, end + 1], limit })) found.push(value);
    writeObjectsOf(ctx, out, 5, 1, found);
  },

  get_market_history_buckets(_ctx, _params, out) {
    // market_history_plugin's default `bucket-size` option.
    out.text('[15,60,300,3600,86400]');
  },

  get_liquidity_pool_history(ctx, [poolId, start, stop, limit, operationType], out) {
    asObjectId(poolId, LIQUIDITY_POOL);
    optional(start, asTime);
    optional(stop, asTime);
    const l = optional(limit, asUint32);
    optional(operationType, asInt64);
    if (l !== undefined) checkLimit(l, ctx.config.apiLimits.api_limit_get_liquidity_pool_history, 'get_liquidity_pool_history');
    answerNothing(out, 'history', 'get_liquidity_pool_history');
  },

  get_liquidity_pool_history_by_sequence(ctx, [poolId, start, stop, limit, operationType], out) {
    asObjectId(poolId, LIQUIDITY_POOL);
    optional(start, asUint64);
    optional(stop, asTime);
    const l = optional(limit, asUint32);
    optional(operationType, asInt64);
    if (l !== undefined) checkLimit(l, ctx.config.apiLimits.api_limit_get_liquidity_pool_history, 'get_liquidity_pool_history_by_sequence');
    answerNothing(out, 'history', 'get_liquidity_pool_history_by_sequence');
  },
} satisfies HandlersFor<typeof historyApi>;
