// database_api handlers (reference §4.1, §4.11), after BitShares Core's database_api.cpp.
//
// Replies that are stored objects are copied from LMDB's bytes into the reply; only calls that must
// look inside an object (full accounts, fees, authorities, transactions in a block) parse it.
// Arguments are converted first, all of them, as fc does before the C++ body runs, so a malformed
// argument fails before any lookup or limit check.
//
// This node behaves as Core with the api_helper_indexes and market_history plugins enabled (it has
// the key and account reference indexes), on a chain without markets, pools, funds, credit offers,
// HTLCs, tickets, withdraw permissions, workers, proposals, committee members or blinded balances:
// those calls keep Core's argument and limit checks and answer "nothing" (README, "Functions about subsystems this chain does not have").

import { databaseApi } from '../../src/api/sets/database.js';
import { asArray, asObjectId, asOptionalBool, asString, asUint32, asUint64, type ParsedId } from '../../src/api/params.js';
import { FC, RpcError, assertError, fcError } from '../../src/errors.js';
import { parseFcTime } from '../../src/chain/fc-json.js';
import { parseAddress, parsePublicKey } from '../../src/chain/public-key.js';
import { packSignedTransaction, packTransaction } from '../../src/chain/serializer.js';
import { FEE_OPERATIONS, normaliseOperation, requiredFeeAsset, type FeeScheduleJson, type PriceJson } from '../../src/chain/fees.js';
import { potentialSignatures, requiredSignatures, signatureKeys, sortKeys, verifyAuthority, type AuthorityJson } from '../../src/chain/authority.js';
import { resolveAccount, resolveAsset, type WorkerContext } from '../context.js';
import type { ReplyWriter } from '../reply-writer.js';
import type { HandlersFor } from './types.js';

type Key = [number, number, number];

const NULL = new TextEncoder().encode('null');
const FILE = 'database_api';

/** GRAPHENE_MAX_SIG_CHECK_DEPTH, verify_authority's default recursion. */
const MAX_SIG_CHECK_DEPTH = 2;
/** chain_property_object.immutable_parameters: immutable_chain_parameters' defaults. */
const IMMUTABLE_PARAMETERS = { min_committee_member_count: 11, min_witness_count: 11, num_special_accounts: 0, num_special_assets: 0 };

// ---------------------------------------------------------------------------------------------
// Errors and argument conversions

const fail = (method: string, format: string, data: Record<string, unknown> = {}): never => {
  throw new RpcError(assertError(format, data, { file: FILE, method }));
};

/** `FC_ASSERT( <test> <= configured_limit, "<text>", ("configured_limit", …) )` */
function checkLimit(method: string, n: number, configured: number, test = 'limit', text = 'limit can not be greater than ${configured_limit}'): void {
  if (n > configured) fail(method, `${test} <= configured_limit: ${text}`, { configured_limit: configured });
}

const optU32 = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : asUint32(v));
const asBool = (v: unknown): boolean => asOptionalBool(v) ?? false;
const typed = (space: number, type: number) => (v: unknown): ParsedId => asObjectId(v, { space, type });
const optTyped = (space: number, type: number) => (v: unknown): ParsedId | undefined => (v === null || v === undefined ? undefined : asObjectId(v, { space, type }));
const ids = (v: unknown, space: number, type: number): ParsedId[] => asArray(v).map(typed(space, type));

/** `variant::as_int64`: integers, numeric strings, booleans, null (→ 0). */
function asInt64(v: unknown): bigint {
  if (typeof v === 'string' && /^\s*-\d+\s*$/.test(v)) return BigInt.asIntN(64, BigInt(v.trim()));
  if (typeof v === 'number' && v < 0) return BigInt(Math.trunc(v));
  return BigInt.asIntN(64, asUint64(v));
}

/** time_point_sec from a string, as fc's from_iso_string. */
function asTime(v: unknown): number {
  const s = parseFcTime(asString(v));
  if (Number.isNaN(s)) throw new RpcError(fcError(FC.parse, "Couldn't parse time_point_sec from ${value}", { value: v }));
  return s;
}

/** public_key_type(std::string) (protocol/types.cpp), with its checks in order. */
function asPublicKey(v: unknown): string {
  const s = asString(v);
  if (s.length <= 3) throw new RpcError(assertError('base58str.size() > prefix_len: '));
  if (!s.startsWith('BTS')) throw new RpcError(assertError('base58str.substr( 0, prefix_len ) == prefix: ', { base58str: s }));
  try {
    parsePublicKey(s);
  } catch (err) {
    const why = (err as Error).message;
    if (why.includes('base58')) throw new RpcError(fcError(FC.parse, 'Unable to decode base58 string ${base58_str}', { base58_str: s.slice(3) }));
    if (why.includes('checksum')) throw new RpcError(assertError('fc::ripemd160::hash( (char*) key_data.data(), key_data.size() )._hash[0].value() == bin_key.check: '));
    throw new RpcError(fcError(FC.outOfRange, 'public key ${key}: ${why}', { key: s, why }));
  }
  return s;
}

/** address(std::string) (protocol/address.cpp). */
function asAddress(v: unknown): string {
  const s = asString(v);
  try {
    parseAddress(s);
  } catch {
    throw new RpcError(assertError('is_valid( base58str ): invalid address ${a}', { a: s }));
  }
  return s;
}

/** A serializer failure (a malformed transaction) as an fc parse error that names the field. */
function serializerError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  return new RpcError(fcError(FC.parse, '${error}', { error: (err as Error).message }));
}

/** A signed_transaction as fc's from_variant leaves it: absent fields keep their defaults. */
function asTransaction(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RpcError(fcError(FC.badCast, 'Invalid cast from ${type} to Object', { type: Array.isArray(v) ? 'array' : typeof v }));
  const t = v as Record<string, unknown>;
  const operations = asArray(t.operations).map((op) => (Array.isArray(op) && FEE_OPERATIONS.has(Number(op[0])) ? normaliseOperation(op) : op));
  return {
    ref_block_num: t.ref_block_num ?? 0,
    ref_block_prefix: t.ref_block_prefix ?? 0,
    expiration: t.expiration ?? '1970-01-01T00:00:00',
    operations,
    extensions: t.extensions ?? [],
    signatures: t.signatures ?? [],
  };
}

const notSupported = (method: string, why: string): never => fail(method, 'false: ${method} is not supported by this node: ${why}', { method, why });

// ---------------------------------------------------------------------------------------------
// Reading the store

const idText = (k: Key): string => `${k[0]}.${k[1]}.${k[2]}`;

function rawObject(ctx: WorkerContext, k: Key): Uint8Array | undefined {
  return ctx.store.objects.getBinaryFast(k) ?? undefined;
}

function parseObject<T = Record<string, unknown>>(ctx: WorkerContext, k: Key): T | undefined {
  const b = ctx.store.objects.get(k);
  return b ? (JSON.parse(b.toString('utf8')) as T) : undefined;
}

/** `obj(_db)` on an id that does not exist. */
function mustParse<T = Record<string, unknown>>(ctx: WorkerContext, k: Key): T {
  const o = parseObject<T>(ctx, k);
  if (!o) throw new RpcError(assertError('maybe_found != nullptr: Unable to find Object ${id}', { id: idText(k) }));
  return o;
}

const countOf = (ctx: WorkerContext, space: number, type: number): number =>
  ctx.store.objects.getKeysCount({ start: [space, type, 0], end: [space, type, Number.MAX_SAFE_INTEGER] });

/** Every stored instance of a space.type, ascending. */
function* instancesOf(ctx: WorkerContext, space: number, type: number, from = 0): Generator<number> {
  for (const k of ctx.store.objects.getKeys({ start: [space, type, from], end: [space, type, Number.MAX_SAFE_INTEGER] })) yield k[2];
}

/** Writes `[o1,o2,…]` from stored objects, `null` for absent ones. */
function writeObjects(ctx: WorkerContext, out: ReplyWriter, keys: readonly (Key | undefined)[]): void {
  out.text('[');
  keys.forEach((k, i) => {
    if (i > 0) out.text(',');
    // getBinaryFast returns LMDB's bytes without a copy; they are valid until the next read,
    // and we copy them into the reply at once.
    out.raw((k && ctx.store.objects.getBinaryFast(k)) || NULL);
  });
  out.text(']');
}

/**
 * extended_asset_object: the stored asset plus `total_in_collateral` (0: no call orders on this
 * chain), which Core adds when api_helper_indexes is on; no bitasset data, so no backing collateral.
 */
function writeExtendedAsset(ctx: WorkerContext, out: ReplyWriter, instance: number | undefined): void {
  const bytes = instance === undefined ? undefined : ctx.store.objects.getBinaryFast([1, 3, instance]);
  if (!bytes) return void out.raw(NULL);
  const len = bytes.length;
  // The stored JSON ends with its closing brace; reopen it for the extra member.
  out.raw(bytes.subarray(0, len - 1));
  out.text(',"total_in_collateral":0}');
}

function writeList(out: ReplyWriter, n: number, each: (i: number) => void): void {
  out.text('[');
  for (let i = 0; i < n; i++) {
    if (i > 0) out.text(',');
    each(i);
  }
  out.text(']');
}

const globals = (ctx: WorkerContext) => mustParse<{ parameters: { current_fees: FeeScheduleJson; max_authority_depth?: number } }>(ctx, [2, 0, 0]);
const headTime = (ctx: WorkerContext): string => mustParse<{ time: string }>(ctx, [2, 1, 0]).time;
const accountName = (ctx: WorkerContext, id: string): string => mustParse<{ name: string }>(ctx, [1, 2, Number(id.split('.')[2])]).name;
const assetSymbol = (ctx: WorkerContext, instance: number): string => mustParse<{ symbol: string }>(ctx, [1, 3, instance]).symbol;

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

/** lookup_asset_symbols({base, quote}) plus the "Invalid … asset symbol" asserts of the market calls. */
function marketAssets(ctx: WorkerContext, method: string, base: string, quote: string): [number, number] {
  const b = resolveAsset(ctx, base, false);
  const q = resolveAsset(ctx, quote, false);
  if (b === undefined) fail(method, 'assets[0]: Invalid base asset symbol: ${s}', { s: base });
  if (q === undefined) fail(method, 'assets[1]: Invalid quote asset symbol: ${s}', { s: quote });
  return [b!, q!];
}

/** Witnesses (1.6.x) as parsed objects; there are few. */
function witnesses(ctx: WorkerContext): { instance: number; witness_account: string; vote_id: string }[] {
  const out: { instance: number; witness_account: string; vote_id: string }[] = [];
  for (const i of instancesOf(ctx, 1, 6)) out.push({ instance: i, ...mustParse<{ witness_account: string; vote_id: string }>(ctx, [1, 6, i]) });
  return out;
}

/** database_api_impl::lookup_vote_ids, as JSON texts of objects or null (a type-3 id adds nothing). */
function lookupVotes(ctx: WorkerContext, votes: readonly string[]): string[] {
  const result: string[] = [];
  let ws: ReturnType<typeof witnesses> | undefined;
  for (const v of votes) {
    const type = Number(v.split(':')[0]);
    if (type === 1) {
      ws ??= witnesses(ctx);
      const w = ws.find((x) => x.vote_id === v);
      result.push(w ? ctx.store.objects.get([1, 6, w.instance])!.toString('utf8') : 'null');
    } else if (type === 0 || type === 2) {
      result.push('null'); // no committee members, no workers
    } else if (type === 3) {
      // VOTE_TYPE_COUNT: Core's switch breaks without adding anything.
    } else {
      throw new RpcError(fcError(FC.outOfRange, '', { id: v }));
    }
  }
  return result;
}

/** vote_id_type from "type:instance" (protocol/vote.hpp). */
function asVoteId(v: unknown): string {
  const s = asString(v);
  const colon = s.indexOf(':');
  if (colon < 0) throw new RpcError(assertError('colon != std::string::npos: ', { serial: s }));
  const type = Number.parseInt(s.slice(0, colon), 10);
  const instance = Number.parseInt(s.slice(colon + 1), 10);
  if (Number.isNaN(type) || Number.isNaN(instance)) throw new RpcError(fcError(FC.invalidArg, 'stoul: ${serial}', { serial: s }));
  return `${type & 0xff}:${instance & 0xffffff}`;
}

/** The assets an account issued, ascending by id (Core's by_issuer index); found by a scan. */
function assetsIssuedBy(ctx: WorkerContext, account: number, from = 0): number[] {
  const needle = `"issuer":"1.2.${account}"`;
  const out: number[] = [];
  for (const i of instancesOf(ctx, 1, 3, from)) {
    const b = ctx.store.objects.getBinaryFast([1, 3, i]);
    if (b && Buffer.from(b.buffer, b.byteOffset, b.length).includes(needle)) out.push(i);
  }
  return out;
}

/** The account's balance objects (2.5.x instances) in asset order. */
function balanceInstances(ctx: WorkerContext, account: number, limit?: number): { asset: number; instance: number }[] {
  const out: { asset: number; instance: number }[] = [];
  for (const { key, value } of ctx.store.balances.getRange({ start: [account, 0], end: [account, Number.MAX_SAFE_INTEGER], limit })) out.push({ asset: key[1], instance: value });
  return out;
}

/** The `balance` member of a stored 2.5.x object, as served (already fc-formatted). */
function balanceText(ctx: WorkerContext, instance: number): string {
  const b = ctx.store.objects.get([2, 5, instance]);
  const m = b ? /"balance":("?-?\d+"?)/.exec(b.toString('utf8')) : null;
  return m ? m[1]! : '0';
}

/** Authority lookups for the authority checks: `id(_db).active` / `.owner`, which throw if absent. */
function authorityLookups(ctx: WorkerContext): { getActive: (id: number) => AuthorityJson; getOwner: (id: number) => AuthorityJson } {
  const cache = new Map<number, { owner: AuthorityJson; active: AuthorityJson }>();
  const get = (id: number) => {
    let a = cache.get(id);
    if (!a) {
      a = mustParse<{ owner: AuthorityJson; active: AuthorityJson }>(ctx, [1, 2, id]);
      cache.set(id, a);
    }
    return a;
  };
  return { getActive: (id) => get(id).active, getOwner: (id) => get(id).owner };
}

const chainId = (ctx: WorkerContext): string => ctx.store.meta.get('chain_id')!;

/** The keys that signed a transaction, or an fc error. */
function trxSignatureKeys(ctx: WorkerContext, trx: Record<string, unknown>): string[] {
  try {
    return signatureKeys(chainId(ctx), trx);
  } catch (err) {
    throw serializerError(err);
  }
}

function maxAuthorityDepth(ctx: WorkerContext): number {
  return Number(globals(ctx).parameters.max_authority_depth ?? MAX_SIG_CHECK_DEPTH);
}

/** Writes `[]` after the argument checks of a call about objects this chain never has. */
const empty = (out: ReplyWriter): void => void out.text('[]');

/**
 * get_objects_by_x (database_api_helper.hxx): an optional limit defaulting to the configured one,
 * then the usual check.
 */
function pageLimit(method: string, limit: number | undefined, configured: number): void {
  checkLimit(method, limit ?? configured, configured);
}

/** get_next_object_id: the index exists for space 1 types 1..22 except 1.9, and space 2 types 0..18. */
function nextObjectId(ctx: WorkerContext, method: string, space: number, type: number): string {
  const spaceSizes = [0, 23, 19];
  if (space >= spaceSizes.length) {
    // formatFc fills only [A-Za-z0-9_] placeholders, so Core's ${index.size} is written out here.
    fail(method, `_index.size() > space_id: Database index \${space_id}.\${type_id} does not exist, index size is ${spaceSizes.length}`, {
      space_id: space,
      type_id: type,
      'index.size': spaceSizes.length,
    });
  }
  if (type >= spaceSizes[space]!) {
    fail(method, `_index[space_id].size() > type_id: Database index \${space_id}.\${type_id} does not exist, space size is ${spaceSizes[space]}`, {
      space_id: space,
      type_id: type,
      'index[space_id].size': spaceSizes[space],
    });
  }
  if (space === 1 && (type === 0 || type === 9)) {
    fail(method, 'tmp != nullptr: Database index ${space_id}.${type_id} has not been initialized', { space_id: space, type_id: type });
  }
  const counter = ctx.store.meta.get(`next_instance:${space}.${type}`);
  if (counter !== undefined) return `${space}.${type}.${counter}`;
  for (const k of ctx.store.objects.getKeys({ start: [space, type, Number.MAX_SAFE_INTEGER], end: [space, type, -1], reverse: true, limit: 1 })) {
    return `${space}.${type}.${k[2] + 1}`;
  }
  return `${space}.${type}.0`;
}

// ---------------------------------------------------------------------------------------------
// get_config: graphene::chain::get_config() (libraries/chain/get_config.cpp), in its insertion order,
// with the values of protocol/config.hpp and chain/config.hpp, numbers in fc's output format.

const CONFIG = {
  GRAPHENE_SYMBOL: 'BTS',
  GRAPHENE_ADDRESS_PREFIX: 'BTS',
  GRAPHENE_MIN_ACCOUNT_NAME_LENGTH: 1,
  GRAPHENE_MAX_ACCOUNT_NAME_LENGTH: 63,
  GRAPHENE_MIN_ASSET_SYMBOL_LENGTH: 3,
  GRAPHENE_MAX_ASSET_SYMBOL_LENGTH: 16,
  GRAPHENE_MAX_SHARE_SUPPLY: '1000000000000000',
  GRAPHENE_MAX_SIG_CHECK_DEPTH: 2,
  GRAPHENE_MIN_TRANSACTION_SIZE_LIMIT: 1024,
  GRAPHENE_MIN_BLOCK_INTERVAL: 1,
  GRAPHENE_MAX_BLOCK_INTERVAL: 30,
  GRAPHENE_DEFAULT_BLOCK_INTERVAL: 5,
  GRAPHENE_DEFAULT_MAX_TRANSACTION_SIZE: 2048,
  GRAPHENE_DEFAULT_MAX_BLOCK_SIZE: 2000000,
  GRAPHENE_DEFAULT_MAX_TIME_UNTIL_EXPIRATION: 86400,
  GRAPHENE_DEFAULT_MAINTENANCE_INTERVAL: 86400,
  GRAPHENE_DEFAULT_MAINTENANCE_SKIP_SLOTS: 3,
  GRAPHENE_MIN_UNDO_HISTORY: 10,
  GRAPHENE_MAX_UNDO_HISTORY: 10000,
  GRAPHENE_MIN_BLOCK_SIZE_LIMIT: 5120,
  GRAPHENE_BLOCKCHAIN_PRECISION: 100000,
  GRAPHENE_BLOCKCHAIN_PRECISION_DIGITS: 5,
  GRAPHENE_100_PERCENT: 10000,
  GRAPHENE_1_PERCENT: 100,
  GRAPHENE_MAX_MARKET_FEE_PERCENT: 10000,
  GRAPHENE_DEFAULT_FORCE_SETTLEMENT_DELAY: 86400,
  GRAPHENE_DEFAULT_FORCE_SETTLEMENT_OFFSET: 0,
  GRAPHENE_DEFAULT_FORCE_SETTLEMENT_MAX_VOLUME: 2000,
  GRAPHENE_DEFAULT_PRICE_FEED_LIFETIME: 86400,
  GRAPHENE_DEFAULT_MAX_AUTHORITY_MEMBERSHIP: 10,
  GRAPHENE_DEFAULT_MAX_ASSET_WHITELIST_AUTHORITIES: 10,
  GRAPHENE_DEFAULT_MAX_ASSET_FEED_PUBLISHERS: 10,
  GRAPHENE_COLLATERAL_RATIO_DENOM: 1000,
  GRAPHENE_MIN_COLLATERAL_RATIO: 1001,
  GRAPHENE_MAX_COLLATERAL_RATIO: 32000,
  GRAPHENE_DEFAULT_MAINTENANCE_COLLATERAL_RATIO: 1750,
  GRAPHENE_DEFAULT_MAX_SHORT_SQUEEZE_RATIO: 1500,
  GRAPHENE_DEFAULT_MAX_WITNESSES: 1001,
  GRAPHENE_DEFAULT_MAX_COMMITTEE: 1001,
  GRAPHENE_DEFAULT_MAX_PROPOSAL_LIFETIME_SEC: 2419200,
  GRAPHENE_DEFAULT_COMMITTEE_PROPOSAL_REVIEW_PERIOD_SEC: 1209600,
  GRAPHENE_DEFAULT_NETWORK_PERCENT_OF_FEE: 2000,
  GRAPHENE_DEFAULT_LIFETIME_REFERRER_PERCENT_OF_FEE: 3000,
  GRAPHENE_DEFAULT_CASHBACK_VESTING_PERIOD_SEC: 31536000,
  GRAPHENE_DEFAULT_CASHBACK_VESTING_THRESHOLD: 10000000,
  GRAPHENE_DEFAULT_BURN_PERCENT_OF_FEE: 2000,
  GRAPHENE_DEFAULT_MAX_ASSERT_OPCODE: 1,
  GRAPHENE_DEFAULT_FEE_LIQUIDATION_THRESHOLD: 10000000,
  GRAPHENE_DEFAULT_ACCOUNTS_PER_FEE_SCALE: 1000,
  GRAPHENE_DEFAULT_ACCOUNT_FEE_SCALE_BITSHIFTS: 4,
  GRAPHENE_MAX_WORKER_NAME_LENGTH: 63,
  GRAPHENE_MAX_URL_LENGTH: 127,
  GRAPHENE_CORE_ASSET_CYCLE_RATE: 17,
  GRAPHENE_CORE_ASSET_CYCLE_RATE_BITS: 32,
  GRAPHENE_DEFAULT_WITNESS_PAY_PER_BLOCK: 1000000,
  GRAPHENE_DEFAULT_WITNESS_PAY_VESTING_SECONDS: 86400,
  GRAPHENE_DEFAULT_WORKER_BUDGET_PER_DAY: '50000000000',
  GRAPHENE_COMMITTEE_ACCOUNT: '1.2.0',
  GRAPHENE_WITNESS_ACCOUNT: '1.2.1',
  GRAPHENE_RELAXED_COMMITTEE_ACCOUNT: '1.2.2',
  GRAPHENE_NULL_ACCOUNT: '1.2.3',
  GRAPHENE_TEMP_ACCOUNT: '1.2.4',
};
const CONFIG_JSON = JSON.stringify(CONFIG);

const MORE_DATA_KEYS = ['balances', 'vesting_balances', 'limit_orders', 'call_orders', 'settle_orders', 'proposals', 'assets', 'withdraws_from', 'withdraws_to', 'htlcs_from', 'htlcs_to'] as const;

// ---------------------------------------------------------------------------------------------

export const databaseHandlers = {
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

  // Globals

  get_chain_properties(ctx, _params, out) {
    out.json({ id: '2.11.0', chain_id: chainId(ctx), immutable_parameters: IMMUTABLE_PARAMETERS });
  },

  get_global_properties(ctx, _params, out) {
    out.raw(rawObject(ctx, [2, 0, 0]) ?? NULL);
  },

  get_config(_ctx, _params, out) {
    out.text(CONFIG_JSON);
  },

  get_chain_id(ctx, _params, out) {
    out.json(chainId(ctx));
  },

  get_dynamic_global_properties(ctx, _params, out) {
    out.raw(rawObject(ctx, [2, 1, 0]) ?? NULL);
  },

  get_next_object_id(ctx, [space, type, withPending], out) {
    const s = Number(asUint64(space) & 0xffn);
    const t = Number(asUint64(type) & 0xffn);
    asBool(withPending);
    // Without pending transactions Core reads api_helper_indexes' copy; this node has no pending
    // state, so both answers are the store's next id.
    out.json(nextObjectId(ctx, 'get_next_object_id', s, t));
  },

  // Keys

  get_key_references(ctx, [keysArg], out) {
    const keys = asArray(keysArg).map(asPublicKey);
    checkLimit('get_key_references', keys.length, ctx.config.apiLimits.api_limit_get_key_references, 'keys.size()', 'Number of querying keys can not be greater than ${configured_limit}');
    writeList(out, keys.length, (i) => {
      const accounts: string[] = [];
      for (const k of ctx.store.keyReferences.getKeys({ start: [keys[i]!, 0], end: [keys[i]!, Number.MAX_SAFE_INTEGER] })) accounts.push(`1.2.${k[1]}`);
      out.json(accounts);
    });
  },

  is_public_key_registered(ctx, [keyArg], out) {
    const s = asString(keyArg);
    let known = false;
    if (s !== '') {
      try {
        asPublicKey(s);
        for (const _ of ctx.store.keyReferences.getKeys({ start: [s, 0], end: [s, Number.MAX_SAFE_INTEGER], limit: 1 })) known = true;
      } catch {
        // An invalid key is simply not registered (Core catches and answers false).
        known = false;
      }
    }
    out.json(known);
  },

  // Accounts

  get_account_id_from_string(ctx, [nameOrId], out) {
    out.json(`1.2.${resolveAccount(ctx, asString(nameOrId), true)}`);
  },

  get_accounts(ctx, [namesOrIds], out) {
    const keys = asArray(namesOrIds).map((v) => {
      const instance = resolveAccount(ctx, asString(v), false);
      if (instance !== undefined) out.subscribe(`1.2.${instance}`);
      return instance === undefined ? undefined : ([1, 2, instance] as Key);
    });
    writeObjects(ctx, out, keys);
  },

  get_full_accounts(ctx, [namesOrIds], out) {
    const names = asArray(namesOrIds).map(asString);
    checkLimit('get_full_accounts', names.length, ctx.config.apiLimits.api_limit_get_full_accounts, 'names_or_ids.size()', 'Number of querying accounts can not be greater than ${configured_limit}');
    const listLimit = ctx.config.apiLimits.api_limit_get_full_accounts_lists;
    // A std::map keyed by the requested string: sorted bytewise, the last of equal keys kept.
    const found = new Map<string, number>();
    for (const n of names) {
      const instance = resolveAccount(ctx, n, false);
      if (instance !== undefined) found.set(n, instance);
    }
    // Subscribing follows the caller's order; the front end caps it at api_limit_get_full_accounts_subscribe.
    for (const instance of found.values()) out.subscribeAccount(instance);
    const requested = [...found.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    writeList(out, requested.length, (i) => {
      const key = requested[i]!;
      const instance = found.get(key)!;
      const account = mustParse<{ registrar: string; referrer: string; lifetime_referrer: string; options: { votes: string[] } }>(ctx, [1, 2, instance]);
      const more: Record<string, boolean> = Object.fromEntries(MORE_DATA_KEYS.map((k) => [k, false]));
      out.text('[').json(key).text(',{"account":').raw(rawObject(ctx, [1, 2, instance])!);
      out.text(',"statistics":').raw(rawObject(ctx, [2, 6, instance]) ?? NULL);
      out.text(',"registrar_name":').json(accountName(ctx, account.registrar));
      out.text(',"referrer_name":').json(accountName(ctx, account.referrer));
      out.text(',"lifetime_referrer_name":').json(accountName(ctx, account.lifetime_referrer));
      out.text(`,"votes":[${lookupVotes(ctx, account.options.votes ?? []).join(',')}]`);
      // No cashback vesting balances on this chain: cashback_balance stays unset and is left out.
      const balances = balanceInstances(ctx, instance, listLimit + 1);
      if (balances.length > listLimit) {
        balances.length = listLimit;
        more.balances = true;
      }
      out.text(',"balances":');
      writeObjects(ctx, out, balances.map((b) => [2, 5, b.instance] as Key));
      out.text(',"vesting_balances":[],"limit_orders":[],"call_orders":[],"settle_orders":[],"proposals":[]');
      const issued = assetsIssuedBy(ctx, instance);
      if (issued.length > listLimit) {
        issued.length = listLimit;
        more.assets = true;
      }
      out.text(',"assets":').json(issued.map((a) => `1.3.${a}`));
      out.text(',"withdraws_from":[],"withdraws_to":[],"htlcs_from":[],"htlcs_to":[]');
      out.text(',"more_data_available":').json(more).text('}]');
    });
  },

  get_top_voters(ctx, [limitArg], out) {
    checkLimit('get_top_voters', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_top_voters);
    // Core lists statistics with vote_tally_time >= last_vote_tally_time; no account has voted on
    // this chain (votes are not tallied), so none qualifies.
    empty(out);
  },

  get_account_by_name(ctx, [name], out) {
    // An exact name lookup: ids are not accepted here (database_api.cpp:727-739).
    const instance = ctx.store.accountNames.get(asString(name));
    out.raw((instance !== undefined && ctx.store.objects.getBinaryFast([1, 2, instance])) || NULL);
  },

  get_account_references(ctx, [nameOrId], out) {
    const account = resolveAccount(ctx, asString(nameOrId), true)!;
    const refs: string[] = [];
    for (const k of ctx.store.accountReferences.getKeys({ start: [account, 0], end: [account, Number.MAX_SAFE_INTEGER] })) refs.push(`1.2.${k[1]}`);
    out.json(refs);
  },

  lookup_account_names(ctx, [names], out) {
    const keys = asArray(names).map((v) => {
      const instance = resolveAccount(ctx, asString(v), false);
      return instance === undefined ? undefined : ([1, 2, instance] as Key);
    });
    writeObjects(ctx, out, keys);
  },

  lookup_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('lookup_accounts', limit, ctx.config.apiLimits.api_limit_lookup_accounts);
    const pairs: [string, string][] = [];
    if (limit > 0) for (const { key, value } of ctx.store.accountNames.getRange({ start: lower, limit })) pairs.push([key, `1.2.${value}`]);
    // Core subscribes only when exactly one account was asked for.
    if (limit === 1) for (const [, id] of pairs) out.subscribe(id);
    out.json(pairs);
  },

  get_account_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 2));
  },

  // Balances

  get_account_balances(ctx, [nameOrId, assetsArg], out) {
    writeBalances(ctx, out, nameOrId, assetsArg);
  },

  get_named_account_balances(ctx, [name, assetsArg], out) {
    // Core runs the same code (my->get_account_balances), so ids are accepted too.
    writeBalances(ctx, out, name, assetsArg);
  },

  get_balance_objects(_ctx, [addrs], out) {
    asArray(addrs).forEach(asAddress);
    // Genesis balance objects (1.15.x) to claim: this chain credits genesis balances directly.
    empty(out);
  },

  get_vested_balances(ctx, [objs], out) {
    const balances = ids(objs, 1, 15);
    // `obj(_db)` of a 1.15.x that does not exist throws; none ever exists here.
    for (const b of balances) mustParse(ctx, [1, 15, b.instance]);
    empty(out);
  },

  get_vesting_balances(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    empty(out);
  },

  // Assets

  get_assets(ctx, [symbolsOrIds], out) {
    const instances = asArray(symbolsOrIds).map((v) => resolveAsset(ctx, asString(v), false));
    for (const i of instances) if (i !== undefined) out.subscribe(`1.3.${i}`);
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  list_assets(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('list_assets', limit, ctx.config.apiLimits.api_limit_get_assets);
    const instances: number[] = [];
    if (limit > 0) for (const { value } of ctx.store.assetSymbols.getRange({ start: lower, limit })) instances.push(value);
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  lookup_asset_symbols(ctx, [symbolsOrIds], out) {
    const instances = asArray(symbolsOrIds).map((v) => resolveAsset(ctx, asString(v), false));
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  get_asset_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 3));
  },

  get_assets_by_issuer(ctx, [issuer, startArg, limitArg], out) {
    const name = asString(issuer);
    const start = typed(1, 3)(startArg).instance;
    const limit = asUint32(limitArg);
    checkLimit('get_assets_by_issuer', limit, ctx.config.apiLimits.api_limit_get_assets);
    const account = resolveAccount(ctx, name, true)!;
    const instances = assetsIssuedBy(ctx, account, start).slice(0, limit);
    writeList(out, instances.length, (i) => writeExtendedAsset(ctx, out, instances[i]));
  },

  get_asset_id_from_string(ctx, [symbolOrId], out) {
    out.json(`1.3.${resolveAsset(ctx, asString(symbolOrId), true)}`);
  },

  // Markets / feeds: there are no limit orders, call orders, settlements, bids or trades.

  get_order_book(ctx, [baseArg, quoteArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    checkLimit('get_order_book', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_order_book);
    marketAssets(ctx, 'get_order_book', base, quote);
    out.json({ base, quote, bids: [], asks: [] });
  },

  get_limit_orders(ctx, [a, b, limitArg], out) {
    const sa = asString(a);
    const sb = asString(b);
    checkLimit('get_limit_orders', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_limit_orders);
    resolveAsset(ctx, sa, true);
    resolveAsset(ctx, sb, true);
    empty(out);
  },

  get_limit_orders_by_account(ctx, [nameOrId, limitArg, startArg], out) {
    const name = asString(nameOrId);
    const limit = optU32(limitArg);
    optTyped(1, 7)(startArg);
    pageLimit('get_limit_orders_by_account', limit, ctx.config.apiLimits.api_limit_get_limit_orders_by_account);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  get_account_limit_orders(ctx, [nameOrId, baseArg, quoteArg, limitArg, startIdArg, startPriceArg], out) {
    const name = asString(nameOrId);
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const limit = asUint32(limitArg);
    const startId = optTyped(1, 7)(startIdArg);
    const startPrice = startPriceArg === null || startPriceArg === undefined ? undefined : (startPriceArg as PriceJson);
    checkLimit('get_account_limit_orders', limit, ctx.config.apiLimits.api_limit_get_account_limit_orders);
    resolveAccount(ctx, name, true);
    const [b, q] = marketAssets(ctx, 'get_account_limit_orders', base, quote);
    if (startPrice) {
      if (String(startPrice.base?.asset_id) !== `1.3.${b}`) fail('get_account_limit_orders', 'ostart_price->base.asset_id == base_id: Base asset inconsistent with start price');
      if (String(startPrice.quote?.asset_id) !== `1.3.${q}`) fail('get_account_limit_orders', 'ostart_price->quote.asset_id == quote_id: Quote asset inconsistent with start price');
    }
    if (startId && !startPrice) {
      // The start order cannot exist (there are no orders), and no start price was given.
      throw new RpcError(fcError(FC.unspecified, 'Order id invalid (maybe just been canceled?), and start price not provided', {}, { file: FILE, method: 'get_account_limit_orders' }));
    }
    empty(out);
  },

  get_call_orders(ctx, [a, limitArg], out) {
    const s = asString(a);
    checkLimit('get_call_orders', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_call_orders);
    resolveAsset(ctx, s, true);
    // Core reads the asset's bitasset data here; this chain has no market-issued assets.
    fail('get_call_orders', 'mia->is_market_issued(): Asset is not a MPA');
  },

  get_call_orders_by_account(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 3)(startArg);
    checkLimit('get_call_orders_by_account', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_call_orders);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  get_settle_orders(ctx, [a, limitArg], out) {
    const s = asString(a);
    checkLimit('get_settle_orders', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_settle_orders);
    resolveAsset(ctx, s, true);
    empty(out);
  },

  get_settle_orders_by_account(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 4)(startArg);
    checkLimit('get_settle_orders_by_account', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_settle_orders);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  get_margin_positions(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    empty(out);
  },

  get_collateral_bids(ctx, [assetArg, limitArg, startArg], out) {
    const s = asString(assetArg);
    const limit = asUint32(limitArg);
    asUint32(startArg);
    checkLimit('get_collateral_bids', limit, ctx.config.apiLimits.api_limit_get_collateral_bids);
    resolveAsset(ctx, s, true);
    // Core refuses any asset that is not market-issued; this chain has none.
    fail('get_collateral_bids', 'swan.is_market_issued(): Asset is not a MPA');
  },

  get_ticker(ctx, [baseArg, quoteArg], out) {
    const [b, q] = marketAssets(ctx, 'get_ticker', asString(baseArg), asString(quoteArg));
    // market_ticker(now, base, quote): the empty ticker of a market without trades.
    out.json({
      time: headTime(ctx),
      base: assetSymbol(ctx, b),
      quote: assetSymbol(ctx, q),
      latest: '0',
      lowest_ask: '0',
      lowest_ask_base_size: '0',
      lowest_ask_quote_size: '0',
      highest_bid: '0',
      highest_bid_base_size: '0',
      highest_bid_quote_size: '0',
      percent_change: '0',
      base_volume: '0',
      quote_volume: '0',
    });
  },

  get_24_volume(ctx, [baseArg, quoteArg], out) {
    const [b, q] = marketAssets(ctx, 'get_24_volume', asString(baseArg), asString(quoteArg));
    out.json({ time: headTime(ctx), base: assetSymbol(ctx, b), quote: assetSymbol(ctx, q), base_volume: '0', quote_volume: '0' });
  },

  get_top_markets(ctx, [limitArg], out) {
    checkLimit('get_top_markets', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_top_markets);
    empty(out);
  },

  get_trade_history(ctx, [baseArg, quoteArg, startArg, stopArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    asTime(startArg);
    asTime(stopArg);
    checkLimit('get_trade_history', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_trade_history);
    marketAssets(ctx, 'get_trade_history', base, quote);
    empty(out);
  },

  get_trade_history_by_sequence(ctx, [baseArg, quoteArg, startArg, stopArg, limitArg], out) {
    const base = asString(baseArg);
    const quote = asString(quoteArg);
    const start = asInt64(startArg);
    asTime(stopArg);
    checkLimit('get_trade_history_by_sequence', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_trade_history_by_sequence);
    if (start < 0n) fail('get_trade_history_by_sequence', 'start >= 0: ');
    marketAssets(ctx, 'get_trade_history_by_sequence', base, quote);
    empty(out);
  },

  // Liquidity pools: none exist.

  list_liquidity_pools(ctx, [limitArg, startArg, withStats], out) {
    const limit = optU32(limitArg);
    optTyped(1, 19)(startArg);
    asOptionalBool(withStats);
    pageLimit('list_liquidity_pools', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    empty(out);
  },

  get_liquidity_pools_by_asset_a(ctx, params, out) {
    poolsByAsset(ctx, 'get_liquidity_pools_by_asset_a', params);
    empty(out);
  },

  get_liquidity_pools_by_asset_b(ctx, params, out) {
    poolsByAsset(ctx, 'get_liquidity_pools_by_asset_b', params);
    empty(out);
  },

  get_liquidity_pools_by_one_asset(ctx, [assetArg, limitArg, startArg, withStats], out) {
    const s = asString(assetArg);
    const limit = optU32(limitArg);
    optTyped(1, 19)(startArg);
    asOptionalBool(withStats);
    // Here the limit is checked before the asset is looked up.
    pageLimit('get_liquidity_pools_by_one_asset', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    resolveAsset(ctx, s, true);
    empty(out);
  },

  get_liquidity_pools_by_both_assets(ctx, [aArg, bArg, limitArg, startArg, withStats], out) {
    const a = asString(aArg);
    const b = asString(bArg);
    const limit = optU32(limitArg);
    optTyped(1, 19)(startArg);
    asOptionalBool(withStats);
    resolveAsset(ctx, a, true);
    resolveAsset(ctx, b, true);
    pageLimit('get_liquidity_pools_by_both_assets', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    empty(out);
  },

  get_liquidity_pools(ctx, [idsArg, subscribe, withStats], out) {
    const pools = ids(idsArg, 1, 19);
    asOptionalBool(subscribe);
    asOptionalBool(withStats);
    checkLimit('get_liquidity_pools', pools.length, ctx.config.apiLimits.api_limit_get_liquidity_pools, 'ids.size()', 'size of the querying list can not be greater than ${configured_limit}');
    writeList(out, pools.length, () => out.raw(NULL));
  },

  get_liquidity_pools_by_share_asset(ctx, [symbolsArg, subscribe, withStats], out) {
    const symbols = asArray(symbolsArg).map(asString);
    asOptionalBool(subscribe);
    asOptionalBool(withStats);
    checkLimit(
      'get_liquidity_pools_by_share_asset',
      symbols.length,
      ctx.config.apiLimits.api_limit_get_liquidity_pools,
      'asset_symbols_or_ids.size()',
      'size of the querying list can not be greater than ${configured_limit}',
    );
    // No asset here is a pool's share asset: null for each (malformed ids still throw).
    for (const s of symbols) resolveAsset(ctx, s, false);
    writeList(out, symbols.length, () => out.raw(NULL));
  },

  get_liquidity_pools_by_owner(ctx, [nameOrId, limitArg, startArg, withStats], out) {
    const name = asString(nameOrId);
    const limit = optU32(limitArg);
    optTyped(1, 3)(startArg);
    asOptionalBool(withStats);
    pageLimit('get_liquidity_pools_by_owner', limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  // SameT funds: none exist.

  list_samet_funds(ctx, [limitArg, startArg], out) {
    listPage('list_samet_funds', [1, 20], limitArg, startArg, ctx.config.apiLimits.api_limit_get_samet_funds);
    empty(out);
  },

  get_samet_funds_by_owner(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_samet_funds_by_owner', [1, 20], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_samet_funds);
    empty(out);
  },

  get_samet_funds_by_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_samet_funds_by_asset', [1, 20], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_samet_funds);
    empty(out);
  },

  // Credit offers and deals: none exist (Core counts both against api_limit_get_credit_offers).

  list_credit_offers(ctx, [limitArg, startArg], out) {
    listPage('list_credit_offers', [1, 21], limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_offers_by_owner(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_credit_offers_by_owner', [1, 21], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_offers_by_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_credit_offers_by_asset', [1, 21], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  list_credit_deals(ctx, [limitArg, startArg], out) {
    listPage('list_credit_deals', [1, 22], limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_deals_by_offer_id(ctx, [offerArg, limitArg, startArg], out) {
    typed(1, 21)(offerArg);
    listPage('get_credit_deals_by_offer_id', [1, 22], limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_deals_by_offer_owner(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_credit_deals_by_offer_owner', [1, 22], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_deals_by_borrower(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_credit_deals_by_borrower', [1, 22], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_deals_by_debt_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_credit_deals_by_debt_asset', [1, 22], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  get_credit_deals_by_collateral_asset(ctx, [assetArg, limitArg, startArg], out) {
    byAssetPage(ctx, 'get_credit_deals_by_collateral_asset', [1, 22], assetArg, limitArg, startArg, ctx.config.apiLimits.api_limit_get_credit_offers);
    empty(out);
  },

  // Witnesses: the genesis candidates, 1.6.x.

  get_witnesses(ctx, [idsArg], out) {
    writeObjects(ctx, out, ids(idsArg, 1, 6).map((id) => [1, 6, id.instance] as Key));
  },

  get_witness_by_account(ctx, [nameOrId], out) {
    const account = `1.2.${resolveAccount(ctx, asString(nameOrId), true)}`;
    const w = witnesses(ctx).find((x) => x.witness_account === account);
    out.raw((w && rawObject(ctx, [1, 6, w.instance])) || NULL);
  },

  lookup_witness_accounts(ctx, [lowerBound, limitArg], out) {
    const lower = asString(lowerBound);
    const limit = asUint32(limitArg);
    checkLimit('lookup_witness_accounts', limit, ctx.config.apiLimits.api_limit_lookup_witness_accounts);
    const byName = new Map<string, string>();
    for (const w of witnesses(ctx)) {
      const name = parseObject<{ name: string }>(ctx, [1, 2, Number(w.witness_account.split('.')[2])])?.name;
      if (name !== undefined && Buffer.compare(Buffer.from(name), Buffer.from(lower)) >= 0 && !byName.has(name)) byName.set(name, `1.6.${w.instance}`);
    }
    const pairs = [...byName].sort((a, b) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0]))).slice(0, limit);
    out.json(pairs);
  },

  get_witness_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 6));
  },

  // Committee members: none exist.

  get_committee_members(ctx, [idsArg], out) {
    writeObjects(ctx, out, ids(idsArg, 1, 5).map((id) => [1, 5, id.instance] as Key));
  },

  get_committee_member_by_account(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    out.raw(NULL);
  },

  lookup_committee_member_accounts(ctx, [lowerBound, limitArg], out) {
    asString(lowerBound);
    checkLimit('lookup_committee_member_accounts', asUint32(limitArg), ctx.config.apiLimits.api_limit_lookup_committee_member_accounts);
    empty(out);
  },

  get_committee_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 5));
  },

  // Workers: none exist.

  get_all_workers(_ctx, [isExpired], out) {
    asOptionalBool(isExpired);
    empty(out);
  },

  get_workers_by_account(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    empty(out);
  },

  get_worker_count(ctx, _params, out) {
    out.json(countOf(ctx, 1, 14));
  },

  // Votes

  lookup_vote_ids(ctx, [votesArg], out) {
    const votes = asArray(votesArg).map(asVoteId);
    checkLimit('lookup_vote_ids', votes.length, ctx.config.apiLimits.api_limit_lookup_vote_ids, 'votes.size()', 'Number of querying votes can not be greater than ${configured_limit}');
    out.text(`[${lookupVotes(ctx, votes).join(',')}]`);
  },

  // Authority / validation

  get_transaction_hex(_ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    try {
      out.json(Buffer.from(packSignedTransaction(trx)).toString('hex'));
    } catch (err) {
      throw serializerError(err);
    }
  },

  get_transaction_hex_without_sig(_ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    try {
      out.json(Buffer.from(packTransaction(trx)).toString('hex'));
    } catch (err) {
      throw serializerError(err);
    }
  },

  get_required_signatures(ctx, [trxArg, keysArg], out) {
    const trx = asTransaction(trxArg);
    const available = sortKeys(asArray(keysArg).map(asPublicKey));
    const existing = trxSignatureKeys(ctx, trx);
    const keys = requiredSignatures(trx.operations as unknown[], existing, {
      ...authorityLookups(ctx),
      // HARDFORK_CORE_584 (2019) is long past on any chain this node serves.
      allowNonImmediateOwner: true,
      maxRecursion: maxAuthorityDepth(ctx),
      availableKeys: available,
    });
    out.json(keys);
  },

  get_potential_signatures(ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    const existing = trxSignatureKeys(ctx, trx);
    out.json(potentialSignatures(trx.operations as unknown[], existing, { ...authorityLookups(ctx), allowNonImmediateOwner: true, maxRecursion: maxAuthorityDepth(ctx) }).keys);
  },

  get_potential_address_signatures(ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    const existing = trxSignatureKeys(ctx, trx);
    out.json(potentialSignatures(trx.operations as unknown[], existing, { ...authorityLookups(ctx), allowNonImmediateOwner: true, maxRecursion: maxAuthorityDepth(ctx) }).addresses);
  },

  verify_authority(ctx, [trxArg], out) {
    const trx = asTransaction(trxArg);
    const sigs = trxSignatureKeys(ctx, trx);
    verifyAuthority(trx.operations as unknown[], sigs, { ...authorityLookups(ctx), allowNonImmediateOwner: true, maxRecursion: maxAuthorityDepth(ctx) });
    out.json(true);
  },

  verify_account_authority(ctx, [nameOrId, signersArg], out) {
    const name = asString(nameOrId);
    const keys = sortKeys(asArray(signersArg).map(asPublicKey));
    const account = resolveAccount(ctx, name, true)!;
    // Core checks a dummy transfer from the account, with verify_authority's default depth.
    const op = [0, { fee: { amount: 0, asset_id: '1.3.0' }, from: `1.2.${account}`, to: '1.2.0', amount: { amount: 0, asset_id: '1.3.0' }, extensions: [] }];
    let ok = true;
    try {
      verifyAuthority([op], keys, { ...authorityLookups(ctx), allowNonImmediateOwner: true, maxRecursion: MAX_SIG_CHECK_DEPTH });
    } catch (err) {
      // Any fc exception means "not authorised" (database_api.cpp catches fc::exception).
      if (!(err instanceof RpcError)) throw err;
      ok = false;
    }
    out.json(ok);
  },

  validate_transaction(_ctx, [trxArg], _out) {
    asTransaction(trxArg);
    notSupported('validate_transaction', 'it has no pending state to apply a transaction to; use verify_authority and get_required_fees to check one');
  },

  get_required_fees(ctx, [opsArg, assetArg], out) {
    const ops = asArray(opsArg);
    const asset = resolveAsset(ctx, asString(assetArg), true)!;
    const rate = mustParse<{ options: { core_exchange_rate: PriceJson } }>(ctx, [1, 3, asset]).options.core_exchange_rate;
    const schedule = globals(ctx).parameters.current_fees;
    const fees = ops.map((op) => {
      if (Array.isArray(op) && Number(op[0]) === 22) {
        notSupported('get_required_fees', 'proposal_create (22) is not an operation of this chain');
      }
      return requiredFeeAsset(op, schedule, rate);
    });
    out.json(fees);
  },

  // Proposed transactions: none exist.

  get_proposed_transactions(ctx, [nameOrId], out) {
    resolveAccount(ctx, asString(nameOrId), true);
    empty(out);
  },

  // Blinded balances: none exist.

  get_blinded_balances(_ctx, [commitments], out) {
    for (const c of asArray(commitments)) {
      const s = asString(c);
      // commitment_type is 33 bytes, hex in JSON.
      if (!/^[0-9a-fA-F]{66}$/.test(s)) throw new RpcError(fcError(FC.parse, 'commitment ${c} is not 33 bytes of hex', { c: s }));
    }
    empty(out);
  },

  // Withdrawals: none exist (the limit is checked before the account is looked up).

  get_withdraw_permissions_by_giver(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 12)(startArg);
    checkLimit('get_withdraw_permissions_by_giver', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_withdraw_permissions_by_giver);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  get_withdraw_permissions_by_recipient(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 12)(startArg);
    checkLimit('get_withdraw_permissions_by_recipient', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_withdraw_permissions_by_recipient);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  // HTLC: none exist.

  get_htlc(ctx, [idArg, subscribe], out) {
    const id = typed(1, 16)(idArg);
    asOptionalBool(subscribe);
    out.raw(rawObject(ctx, [1, 16, id.instance]) ?? NULL);
  },

  get_htlc_by_from(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 16)(startArg);
    checkLimit('get_htlc_by_from', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_htlc_by);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  get_htlc_by_to(ctx, [nameOrId, startArg, limitArg], out) {
    const name = asString(nameOrId);
    typed(1, 16)(startArg);
    checkLimit('get_htlc_by_to', asUint32(limitArg), ctx.config.apiLimits.api_limit_get_htlc_by);
    resolveAccount(ctx, name, true);
    empty(out);
  },

  list_htlcs(ctx, [startArg, limitArg], out) {
    typed(1, 16)(startArg);
    checkLimit('list_htlcs', asUint32(limitArg), ctx.config.apiLimits.api_limit_list_htlcs);
    empty(out);
  },

  // Tickets: none exist.

  list_tickets(ctx, [limitArg, startArg], out) {
    listPage('list_tickets', [1, 18], limitArg, startArg, ctx.config.apiLimits.api_limit_get_tickets);
    empty(out);
  },

  get_tickets_by_account(ctx, [nameOrId, limitArg, startArg], out) {
    byAccountPage(ctx, 'get_tickets_by_account', [1, 18], nameOrId, limitArg, startArg, ctx.config.apiLimits.api_limit_get_tickets);
    empty(out);
  },
} satisfies HandlersFor<typeof databaseApi>;

// ---------------------------------------------------------------------------------------------
// Shared bodies

function writeBalances(ctx: WorkerContext, out: ReplyWriter, nameOrId: unknown, assetsArg: unknown): void {
  const name = asString(nameOrId);
  // flat_set<asset_id_type>: ascending, each asset once.
  const assets = [...new Set(ids(assetsArg, 1, 3).map((a) => a.instance))].sort((a, b) => a - b);
  const account = resolveAccount(ctx, name, true)!;
  if (assets.length === 0) {
    // Every balance object of the account, in asset order (zero balances included).
    const all = balanceInstances(ctx, account);
    writeList(out, all.length, (i) => out.text(`{"amount":${balanceText(ctx, all[i]!.instance)},"asset_id":"1.3.${all[i]!.asset}"}`));
    return;
  }
  writeList(out, assets.length, (i) => {
    const instance = ctx.store.balances.get([account, assets[i]!]);
    out.text(`{"amount":${instance === undefined ? '0' : balanceText(ctx, instance)},"asset_id":"1.3.${assets[i]}"}`);
  });
}

/** get_liquidity_pools_by_asset_a/b: the asset is looked up first, then the limit checked. */
function poolsByAsset(ctx: WorkerContext, method: string, [assetArg, limitArg, startArg, withStats]: unknown[]): void {
  const s = asString(assetArg);
  const limit = optU32(limitArg);
  optTyped(1, 19)(startArg);
  asOptionalBool(withStats);
  resolveAsset(ctx, s, true);
  pageLimit(method, limit, ctx.config.apiLimits.api_limit_get_liquidity_pools);
}

function listPage(method: string, [space, type]: [number, number], limitArg: unknown, startArg: unknown, configured: number): void {
  const limit = optU32(limitArg);
  optTyped(space, type)(startArg);
  pageLimit(method, limit, configured);
}

/** get_X_by_owner-style calls: the account is resolved (throwing) before the limit is checked. */
function byAccountPage(ctx: WorkerContext, method: string, t: [number, number], nameOrId: unknown, limitArg: unknown, startArg: unknown, configured: number): void {
  const name = asString(nameOrId);
  const limit = optU32(limitArg);
  optTyped(t[0], t[1])(startArg);
  resolveAccount(ctx, name, true);
  pageLimit(method, limit, configured);
}

function byAssetPage(ctx: WorkerContext, method: string, t: [number, number], assetArg: unknown, limitArg: unknown, startArg: unknown, configured: number): void {
  const s = asString(assetArg);
  const limit = optU32(limitArg);
  optTyped(t[0], t[1])(startArg);
  resolveAsset(ctx, s, true);
  pageLimit(method, limit, configured);
}
