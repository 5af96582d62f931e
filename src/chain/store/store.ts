// The chain store: one LMDB environment in `<data-dir>/chain`, opened once per thread.
//
// Why this layout:
//  - Every object is kept as the exact UTF-8 JSON the API serves (fc key order, number and time
//    formats already applied by the writer). A read is then a memcpy into the reply, never a parse
//    and a re-serialise; that is where a JSON API spends its time, and LMDB hands out the bytes
//    without copying them first (`getBinaryFast`).
//  - Object keys are `[space, type, instance]` tuples in lmdb-js' ordered-binary encoding, so all
//    objects of one type are contiguous and ordered by instance: "the next N accounts" or "every
//    1.11.x after X" are single range reads, and `get_objects` is one B-tree lookup per id.
//  - Secondary indexes are separate sub-databases mapping a lookup key to an instance number
//    (account name → 1.2.x instance); they are small and stay hot in the page cache.
//  - Balances are 2.5.x objects like any other, found through [account, asset] → instance, so "all
//    balances of an account" is one prefix range and one balance is one lookup.
//  - Blocks are kept by number as the JSON get_block serves; their ids and the transactions' ids
//    (→ block number, position) are small side tables.
//  - Each operation's type, block, position and time are a small side table too (operation_index),
//    so history calls filter and search operations without parsing them.
//  - Key and account references (who names this key or account in its authorities) are index-only
//    sub-databases of [key or account, referencing account] → 1: one prefix range per lookup.
//  - Limit orders (1.7.x) are objects like any other; Core's order indexes are sub-databases of
//    keys only: by market and price (the matching engine's "best opposite order" is the first key of a
//    prefix), by account, by account, market and price, and by expiration. A price sorts as a
//    fixed-width text (price.ts, priceKey), so one market's orders lie in Core's by_price order.
//  - The market_history plugin's objects (fills 5.0.x, buckets 5.1.x, tickers 5.2.x, the ticker meta
//    object 5.3.0) are objects too, found through their plugin's keys: fills by market and sequence
//    and by market and time, buckets by market, size and open time, tickers by market and by volume.
//  - The custom_operations plugin's account storage (7.0.x) are objects too; its five indexes are
//    one sub-database of keys, each key led by the number of the index it belongs to
//    (account-storage.ts), with the catalog and key texts as hex of their bytes, so that they sort
//    as Core's std::string does, byte by byte, whatever bytes they hold.
//  - Proposals (1.10.x) and HTLCs (1.16.x) are objects too; each has one sub-database of keys
//    holding its indexes, each key led by the number of the index it belongs to (proposals.ts:
//    by expiration, and Core's required_approval_index of account → proposals; htlc.ts: by
//    expiration, by sender, by recipient).
//  - Witnesses (1.6.x), committee members (1.5.x), workers (1.14.x) and vesting balances (1.13.x)
//    are objects too; one sub-database of keys (`governance`, governance.ts) holds Core's indexes of
//    them that evaluators and reads need: by account (witness and committee by_account, worker and
//    vesting balance by_account) and by vote id (by_vote_id, worker by_vote_for and by_vote_against).
//  - The deposit feed's index (transfer-index.ts): [account, block_num, trx_in_block, op_in_trx,
//    virtual_op] → the served JSON of a transfer, so that a page of an account's transfers after a
//    chain position is one range read.
//  - Node-local, non-chain state (the peer list of network_node) lives in its own sub-database so
//    that chain state stays exactly what the chain writer produced.
//  - Writes happen only in the chain writer, in one LMDB write transaction per block (or per
//    genesis, or per pending transaction: pending-undo.ts), so a reader never sees half a block, and a
//    crash leaves the last committed block.
//    The one exception is `peers`, written by network_node.add_node, which is not chain state.

import { open, type Database, type RootDatabase } from 'lmdb';
import { constants } from 'node:os';
import path from 'node:path';
import { objectIdParts } from '../fc/object-id.js';

export type ObjectKey = [space: number, type: number, instance: number];

export interface ChainStore {
  readonly root: RootDatabase;
  /** [space, type, instance] → served JSON bytes */
  readonly objects: Database<Buffer, ObjectKey>;
  /** account name → account instance (1.2.x) */
  readonly accountNames: Database<number, string>;
  /** string key → string value: chain_id, schema */
  readonly meta: Database<string, string>;
  /**
   * Per-account operation history: [account instance, 1.11 instance] → sequence number (1-based, per
   * account). Operation ids grow with sequence, so "the account's ops with stop < id <= start, newest
   * first" is one reverse range read.
   */
  readonly accountHistory: Database<number, [number, number]>;
  /** [account instance, sequence] → 1.11 instance: relative positions are one range read */
  readonly accountSequence: Database<number, [number, number]>;
  /**
   * [account instance, record number] → up to PAGE_SIZE consecutive operations of the account's
   * history with their served JSON (history-pages.ts): a history page is one to three reads
   */
  readonly accountPages: Database<Buffer, [number, number]>;
  /** [account instance, asset instance] → 2.5.x balance object instance */
  readonly balances: Database<number, [number, number]>;
  /** [asset instance, account instance] → 2.5.x instance: the holders of an asset, one prefix range */
  readonly assetHolders: Database<number, [number, number]>;
  /** block number → [first 1.11.x instance, number of operations] of that block */
  readonly blockOperations: Database<[number, number], number>;
  /**
   * 1.11 instance → [op type, block_num, trx_in_block, block_time seconds]: what the history calls
   * filter and search by, without parsing the operation (schema 2; built on opening an older store).
   */
  readonly operationIndex: Database<OperationIndexEntry, number>;
  /** asset symbol → 1.3.x instance */
  readonly assetSymbols: Database<number, string>;
  /** block number → served JSON bytes of the signed block (header, signature, transactions) */
  readonly blocks: Database<Buffer, number>;
  /** block number → block id (40 hex) */
  readonly blockIds: Database<string, number>;
  /** transaction id (40 hex) → [block number, index in block] */
  readonly transactions: Database<[number, number], string>;
  /** [public key text, account instance] → 1: accounts whose owner/active/memo keys include the key */
  readonly keyReferences: Database<number, [string, number]>;
  /** [account instance, referencing account instance] → 1: accounts whose authorities name the account */
  readonly accountReferences: Database<number, [number, number]>;
  /**
   * [sell asset, receive asset, price key, order instance] → 1: Core's limit_order_index by_price
   * within one market (the best price first, then the oldest order)
   */
  readonly orderPrices: Database<number, OrderPriceKey>;
  /** [seller, order instance] → 1 (by_account) */
  readonly accountOrders: Database<number, [number, number]>;
  /** [seller, sell asset, receive asset, price key, order instance] → 1 (by_account_price within a market) */
  readonly accountOrderPrices: Database<number, [number, number, number, string, number]>;
  /** [expiration seconds, order instance] → 1 (by_expiration) */
  readonly orderExpirations: Database<number, [number, number]>;
  /**
   * [base, quote, n] → 5.0.x instance, base < quote, n = -sequence (0 for a market's first fill,
   * growing): the plugin's history by_key, read newest first
   */
  readonly fillHistory: Database<number, [number, number, number]>;
  /** [base, quote, time seconds, n] → 5.0.x instance (by_market_time) */
  readonly fillTimes: Database<number, [number, number, number, number]>;
  /** [base, quote, bucket seconds, open seconds] → 5.1.x instance */
  readonly buckets: Database<number, [number, number, number, number]>;
  /** [base, quote] → 5.2.x instance */
  readonly tickers: Database<number, [number, number]>;
  /** [base_volume as 32 hex digits, ticker instance] → 1 (by_volume) */
  readonly tickerVolumes: Database<number, [string, number]>;
  /**
   * [owner address text, asset instance, 1.15 instance] → 1: genesis balance objects by owner
   * (Core's balance_index by_owner), for get_balance_objects
   */
  readonly balanceOwners: Database<number, [string, number, number]>;
  /** the custom_operations plugin's indexes of account storage objects (account-storage.ts) */
  readonly accountStorage: Database<number, StorageIndexKey>;
  /**
   * proposal indexes (proposals.ts): [0, expiration seconds, proposal instance] → 1 (by_expiration),
   * [1, account instance, proposal instance] → 1 (required_approval_index)
   */
  readonly proposalIndex: Database<number, number[]>;
  /**
   * HTLC indexes (htlc.ts): [0, expiration seconds, htlc instance] → 1 (by_expiration),
   * [1, from account, htlc instance] → 1 (by_from_id), [2, to account, htlc instance] → 1 (by_to_id)
   */
  readonly htlcIndex: Database<number, number[]>;
  /**
   * The indexes of market-issued assets (bitasset-data.ts): debt positions by collateralization and by
   * borrower, force settlements by date and by owner, collateral bids by price and by bidder, and
   * the assets themselves, all and by backing asset
   */
  readonly bitassetIndex: Database<number, (number | string)[]>;
  /** Core's by-account and by-vote-id indexes of 1.5/1.6/1.13/1.14 objects (governance.ts) */
  readonly governance: Database<number, GovernanceKey>;
  /**
   * The deposit feed (transfer-index.ts): [account, block_num, trx_in_block, op_in_trx, virtual_op] →
   * the transfer's JSON body, under its sender and its receiver; written only with blocks
   */
  readonly transferFeed: TransferFeedDb;
  /** "ip:port" → served JSON bytes of the peer record */
  readonly peers: Database<Buffer, string>;
  /**
   * n → [table, key, value before] for every write of the pending transactions since the head
   * block (pending-undo.ts): played back newest first before a block is applied, or after a crash
   */
  readonly pendingUndo: Database<unknown, number>;
  close(): Promise<void>;
}

/**
 * 2: the operation index (operationIndex). 3: limit orders and market history (empty before).
 * 4: the custom_operations plugin's account storage (empty before: no chain had custom operations).
 * 5: account history pages (accountPages), built from the per-operation history.
 * 6: the proposal and HTLC indexes (empty before: no chain had proposals or HTLCs).
 * 7: the governance index (witnesses and committee members by account and vote id; workers and
 * vesting balances, which no older store has), built from the genesis' witnesses and committee.
 * 8: the deposit feed's transfer index (transferFeed), built from the stored history.
 * 9: the account history pages hold their operations newest first, joined by commas, so that a page
 * is one copy per record (history-pages.ts); converted from the ascending records of 5 to 8.
 * 10: the bitasset index (bitassetIndex: market-issued assets, their debt positions, settlements and
 * collateral bids; empty before: no chain had market-issued assets).
 */
export const SCHEMA_VERSION = '10';

/**
 * A key of the governance index: `['a', type, account, instance]` (the 1.type.instance object
 * belongs to account: by_account), or `['v', vote type, vote instance]` (→ the instance of the
 * object holding that vote id; a worker's vote_against too).
 */
export type GovernanceKey = ['a', number, number, number] | ['v', number, number];

/** A key of the deposit feed (transfer-index.ts): an account and a chain position. */
export type TransferKey = [account: number, blockNum: number, trxInBlock: number, opInTrx: number, virtualOp: number];

export type TransferFeedDb = Database<Buffer, TransferKey>;

/** A key of the account storage indexes: the index's number, then its fields (account-storage.ts). */
export type StorageIndexKey = (number | string)[];

export type OrderPriceKey = [sell: number, receive: number, price: string, order: number];

export type OperationIndexEntry = [opType: number, blockNum: number, trxInBlock: number, blockTime: number];

/** Types in the object id space (reference §5.1) that the store keeps. */
export const OBJ = {
  account: [1, 2],
  asset: [1, 3],
  witness: [1, 6],
  globalProperty: [2, 0],
  dynamicGlobalProperty: [2, 1],
  assetDynamicData: [2, 3],
  accountStatistics: [2, 6],
  limitOrder: [1, 7],
  committeeMember: [1, 5],
  balance: [1, 15],
  fillHistory: [5, 0],
  bucket: [5, 1],
  ticker: [5, 2],
  tickerMeta: [5, 3],
  accountStorage: [7, 0],
  proposal: [1, 10],
  htlc: [1, 16],
  vestingBalance: [1, 13],
  worker: [1, 14],
} as const satisfies Record<string, readonly [number, number]>;

export function openChainStore(dataDir: string, opts: { readOnly?: boolean; noSync?: boolean; maxReaders?: number } = {}): ChainStore {
  const root = open({
    path: path.join(dataDir, 'chain'),
    // One map of 64 GiB of address space: LMDB only uses what it needs, and a fixed large map means
    // the store never has to be resized while readers are open.
    mapSize: 64 * 1024 ** 3,
    maxDbs: 64,
    // Readers in every worker thread, plus the writer; 126 is LMDB's default. The first process to
    // open the store sizes the table for all (LMDB keeps the lock file's size), so a node of several
    // processes (--processes) passes what they need together (src/startup/writable-store.ts, readerSlots).
    maxReaders: opts.maxReaders ?? 512,
    readOnly: opts.readOnly ?? false,
    // Durability: every commit is flushed, so a committed block survives a crash or kill -9.
    // (`generate` turns this off for speed and syncs once at the end: its chain can be made again.)
    noSync: opts.noSync ?? false,
    cache: false,
  });
  const objects = root.openDB<Buffer, ObjectKey>({ name: 'objects', encoding: 'binary' });
  const accountNames = root.openDB<number, string>({ name: 'account_names', encoding: 'ordered-binary' });
  const meta = root.openDB<string, string>({ name: 'meta', encoding: 'string' });
  const peers = root.openDB<Buffer, string>({ name: 'peers', encoding: 'binary' });
  const accountHistory = root.openDB<number, [number, number]>({ name: 'account_history', encoding: 'ordered-binary' });
  const accountSequence = root.openDB<number, [number, number]>({ name: 'account_sequence', encoding: 'ordered-binary' });
  const accountPages = root.openDB<Buffer, [number, number]>({ name: 'account_pages', encoding: 'binary' });
  const balances = root.openDB<number, [number, number]>({ name: 'balances', encoding: 'ordered-binary' });
  const assetSymbols = root.openDB<number, string>({ name: 'asset_symbols', encoding: 'ordered-binary' });
  const blocks = root.openDB<Buffer, number>({ name: 'blocks', encoding: 'binary' });
  const blockIds = root.openDB<string, number>({ name: 'block_ids', encoding: 'string' });
  const transactions = root.openDB<[number, number], string>({ name: 'transactions', encoding: 'ordered-binary' });
  const keyReferences = root.openDB<number, [string, number]>({ name: 'key_references', encoding: 'ordered-binary' });
  const accountReferences = root.openDB<number, [number, number]>({ name: 'account_references', encoding: 'ordered-binary' });
  const assetHolders = root.openDB<number, [number, number]>({ name: 'asset_holders', encoding: 'ordered-binary' });
  const blockOperations = root.openDB<[number, number], number>({ name: 'block_operations', encoding: 'ordered-binary' });
  const operationIndex = root.openDB<OperationIndexEntry, number>({ name: 'operation_index', encoding: 'ordered-binary' });
  const orderPrices = root.openDB<number, OrderPriceKey>({ name: 'order_prices', encoding: 'ordered-binary' });
  const accountOrders = root.openDB<number, [number, number]>({ name: 'account_orders', encoding: 'ordered-binary' });
  const accountOrderPrices = root.openDB<number, [number, number, number, string, number]>({ name: 'account_order_prices', encoding: 'ordered-binary' });
  const orderExpirations = root.openDB<number, [number, number]>({ name: 'order_expirations', encoding: 'ordered-binary' });
  const fillHistory = root.openDB<number, [number, number, number]>({ name: 'fill_history', encoding: 'ordered-binary' });
  const fillTimes = root.openDB<number, [number, number, number, number]>({ name: 'fill_times', encoding: 'ordered-binary' });
  const buckets = root.openDB<number, [number, number, number, number]>({ name: 'buckets', encoding: 'ordered-binary' });
  const tickers = root.openDB<number, [number, number]>({ name: 'tickers', encoding: 'ordered-binary' });
  const tickerVolumes = root.openDB<number, [string, number]>({ name: 'ticker_volumes', encoding: 'ordered-binary' });
  const balanceOwners = root.openDB<number, [string, number, number]>({ name: 'balance_owners', encoding: 'ordered-binary' });
  const pendingUndo = root.openDB<unknown, number>({ name: 'pending_undo', encoding: 'msgpack' });
  const accountStorage = root.openDB<number, StorageIndexKey>({ name: 'account_storage', encoding: 'ordered-binary' });
  const proposalIndex = root.openDB<number, number[]>({ name: 'proposal_index', encoding: 'ordered-binary' });
  const htlcIndex = root.openDB<number, number[]>({ name: 'htlc_index', encoding: 'ordered-binary' });
  const governance = root.openDB<number, GovernanceKey>({ name: 'governance', encoding: 'ordered-binary' });
  const bitassetIndex = root.openDB<number, (number | string)[]>({ name: 'bitasset_index', encoding: 'ordered-binary' });
  const transferFeed = root.openDB<Buffer, TransferKey>({ name: 'transfer_feed', encoding: 'binary' });
  // A read-only handle cannot create what an older store lacks; the node upgrades the store
  // (block-applier.ts, upgradeStore) before anything opens it read-only.
  const schema = meta.get('schema');
  if (opts.readOnly && schema !== undefined && schema !== SCHEMA_VERSION) {
    void root.close();
    throw new Error(`the chain store in ${dataDir} has schema ${schema}, and this version reads schema ${SCHEMA_VERSION}: open it once with graphene-rpc serve to upgrade it`);
  }
  return {
    root,
    assetHolders,
    blockOperations,
    operationIndex,
    keyReferences,
    accountReferences,
    objects,
    accountNames,
    accountHistory,
    accountSequence,
    accountPages,
    balances,
    assetSymbols,
    blocks,
    blockIds,
    transactions,
    meta,
    peers,
    orderPrices,
    accountOrders,
    accountOrderPrices,
    orderExpirations,
    fillHistory,
    fillTimes,
    buckets,
    tickers,
    tickerVolumes,
    balanceOwners,
    pendingUndo,
    accountStorage,
    proposalIndex,
    htlcIndex,
    governance,
    bitassetIndex,
    transferFeed,
    close: () => root.close(),
  };
}

/** Parses "s.t.i" into a key; undefined for anything that is not a well-formed object id. */
export function parseObjectId(id: string): ObjectKey | undefined {
  const p = objectIdParts(id);
  return p && [p.space, p.type, p.instance];
}

export const objectId = (k: readonly [number, number, number]): string => `${k[0]}.${k[1]}.${k[2]}`;

/**
 * The order in which the store keeps keys that are tuples of numbers of one length (object keys, the
 * deposit feed's keys): ordered-binary sorts them by each number in turn. Writers that sort their
 * puts by it write each next to the last.
 */
export function compareNumberKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** LMDB's own error codes (lmdb.h), by the number lmdb-js puts in an error's `code`. */
const MDB_ERRORS: Readonly<Record<number, string>> = {
  [-30799]: 'MDB_KEYEXIST',
  [-30798]: 'MDB_NOTFOUND',
  [-30797]: 'MDB_PAGE_NOTFOUND',
  [-30796]: 'MDB_CORRUPTED',
  [-30795]: 'MDB_PANIC',
  [-30794]: 'MDB_VERSION_MISMATCH',
  [-30793]: 'MDB_INVALID',
  [-30792]: 'MDB_MAP_FULL',
  [-30791]: 'MDB_DBS_FULL',
  [-30790]: 'MDB_READERS_FULL',
  [-30789]: 'MDB_TLS_FULL',
  [-30788]: 'MDB_TXN_FULL',
  [-30787]: 'MDB_CURSOR_FULL',
  [-30786]: 'MDB_PAGE_FULL',
  [-30785]: 'MDB_MAP_RESIZED',
  [-30784]: 'MDB_INCOMPATIBLE',
  [-30783]: 'MDB_BAD_RSLOT',
  [-30782]: 'MDB_BAD_TXN',
  [-30781]: 'MDB_BAD_VALSIZE',
  [-30780]: 'MDB_BAD_DBI',
  [-30779]: 'MDB_PROBLEM',
};

const ERRNO_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(constants.errno).map(([name, n]) => [n, name]));

/**
 * What the store said when it refused a write (a full disk, a full map, an I/O error), in a few words:
 * "ENOSPC (No space left on device)", "MDB_MAP_FULL (Environment mapsize limit reached)". Undefined
 * for anything else, such as a block whose transactions do not apply: that is the block's fault, not
 * the store's, and trying again later would not help.
 *
 * lmdb-js throws an Error whose `code` is LMDB's code or the errno, as a number; Node's fs errors
 * carry the errno name as a string.
 */
export function storeWriteError(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  let name: string | undefined;
  if (typeof code === 'number') name = MDB_ERRORS[code] ?? ERRNO_NAMES.get(code) ?? `LMDB error ${code}`;
  else if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) name = code;
  if (name === undefined) return undefined;
  // mdb_strerror's text, without lmdb-js's page positions after it.
  const text = err.message.replace(/^MDB_[A-Z_]+: /, '').replace(new RegExp(`^${name}: `), '').split(':')[0]!.trim();
  return text && text !== name ? `${name} (${text})` : name;
}
