// The block applier: the only code that changes chain state (the genesis state, each block, the
// store's schema upgrades). Every change it makes is one LMDB write transaction, so readers see all of
// it or none. Whoever writes the chain (the producer, a follower) calls it; the front end sees them
// only as a ChainWriter (chain-writer.ts).

import { type ChainStore, SCHEMA_VERSION, openChainStore } from '../store/store.js';
import { MAX_INSTANCE, idInstance, objectIdParts } from '../fc/object-id.js';
import type { Genesis } from './genesis.js';
import { fcTime, i64, parseFcTime, u64 } from '../fc/fc-json.js';
import { addressPrefix, DEFAULT_ADDRESS_PREFIX } from '../crypto/public-key.js';
import { createBalanceObject } from '../evaluators/balance-claim.js';
import { ChainState } from '../store/state.js';
import { evaluate, adjustBalance, indexAccountReferences, APPLIER } from '../evaluators/evaluators.js';
import { clearExpiredOrders } from '../evaluators/market.js';
import { bitassetMaintenance, clearExpiredForceSettlements, updateExpiredFeeds } from '../evaluators/margin.js';
import { clearExpiredProposals } from '../evaluators/proposals.js';
import { clearExpiredHtlcs } from '../evaluators/htlc.js';
import { updateMarketHistories, type FillOrder } from '../plugins/market-history.js';
import { marketKey } from '../protocol/price.js';
import { applyCustomOperation } from '../plugins/account-storage.js';
import type { ChangeSet, OperationJson, OperationResult, SignedTransactionJson, VirtualOperation } from '../protocol/types.js';
import { blockHeaderDigest, blockId, transactionId, transactionMerkleRoot } from '../protocol/serializer.js';
import { appendHistory, buildHistoryPages, convertHistoryPages, type HistoryAppend } from '../plugins/history-pages.js';
import { buildTransferFeed, indexBlockTransfers } from '../plugins/transfer-index.js';
import { recoverPublicKey, signCompact } from '../crypto/keys.js';
import {
  accountObject,
  accountStatisticsObject,
  assetDynamicDataObject,
  assetObject,
  authority,
  dynamicGlobalPropertyObject,
  globalPropertyObject,
  PERCENT_100,
  NETWORK_PERCENT_OF_FEE,
  LIFETIME_REFERRER_PERCENT_OF_FEE,
  type AccountInit,
} from '../evaluators/objects.js';

/** vote_id_type::vote_type (protocol/vote.hpp) */
const VOTE_COMMITTEE = 0;
const VOTE_WITNESS = 1;
/** asset_issuer_permission_flags (protocol/types.hpp): witness_fed_asset, and DEFAULT_UIA_ASSET_ISSUER_PERMISSION */
const WITNESS_FED_ASSET = 0x80;
const DEFAULT_UIA_ASSET_ISSUER_PERMISSION = 0x4f;

// The shapes are defined in types.ts; re-exported for the modules that name them from here.
export type { ChangeSet, SignedTransactionJson } from '../protocol/types.js';

/** BitShares' special accounts 1.2.0–1.2.5, as db_init.cpp creates them. */
function specialAccounts(): AccountInit[] {
  const t1 = authority(1);
  return [
    { instance: 0, name: 'committee-account', registrar: 0, lifetimeMember: true, owner: t1, active: t1 },
    { instance: 1, name: 'witness-account', registrar: 1, lifetimeMember: true, owner: t1, active: t1 },
    { instance: 2, name: 'relaxed-committee-account', registrar: 2, lifetimeMember: true, owner: t1, active: t1 },
    { instance: 3, name: 'null-account', registrar: 3, lifetimeMember: true, networkFeePercentage: 0, lifetimeReferrerFeePercentage: PERCENT_100, owner: t1, active: t1 },
    { instance: 4, name: 'temp-account', registrar: 4, lifetimeMember: true, owner: authority(0), active: authority(0) },
    { instance: 5, name: 'proxy-to-self', registrar: 3, lifetimeMember: true, networkFeePercentage: 0, lifetimeReferrerFeePercentage: PERCENT_100, owner: t1, active: t1 },
  ];
}

/**
 * Creates the genesis state in an empty store, or checks that a store was made from this genesis
 * and with this key prefix. Returns the chain id in force.
 *
 * As Core's database::init_genesis (db_genesis.cpp): the special accounts, the initial accounts
 * (registered by temp-account, lifetime members upgraded), the core asset, the initial assets, the
 * initial balances (balance objects 1.15.x for addresses; this node credits account names directly),
 * the witnesses (1.6.x, from 1.6.1 in Core's form: 1.6.0 is GRAPHENE_NULL_WITNESS), the committee
 * members (1.5.x) and the global properties with the first `initial_active_witnesses` witnesses.
 */
export function initChain(store: ChainStore, genesis: Genesis, chainId: string, prefix = addressPrefix()): { chainId: string; created: boolean } {
  const existing = store.meta.get('chain_id');
  if (existing !== undefined) {
    if (existing !== chainId) {
      throw new Error(`the data directory holds chain ${existing}, but the genesis file gives chain ${chainId}; use another --data-dir or the genesis it was made from`);
    }
    checkAddressPrefix(store, prefix);
    upgradeStore(store);
    return { chainId: existing, created: false };
  }
  const genesisTime = fcTime(parseFcTime(genesis.initial_timestamp));
  const maxSupply = BigInt(genesis.max_core_supply);
  const accounts: AccountInit[] = specialAccounts();
  // Core reserves the ids of num_special_accounts (and _assets) beyond its own special ones.
  const firstAccount = Math.max(accounts.length, genesis.immutable_parameters.num_special_accounts);
  // Core creates genesis accounts with an account_create from temp-account (referrer 1.2.0), then
  // upgrades lifetime members, which makes them their own registrar, referrer and lifetime referrer
  // (db_init.cpp, account_upgrade_evaluator).
  genesis.initial_accounts.forEach((a, i) => {
    const self = firstAccount + i;
    accounts.push({
      instance: self,
      name: a.name,
      registrar: a.is_lifetime_member ? self : 4,
      referrer: a.is_lifetime_member ? self : 0,
      lifetimeReferrer: a.is_lifetime_member ? self : 0,
      lifetimeReferrerFeePercentage: a.is_lifetime_member ? PERCENT_100 - NETWORK_PERCENT_OF_FEE : LIFETIME_REFERRER_PERCENT_OF_FEE,
      lifetimeMember: a.is_lifetime_member,
      owner: authority(1, [[a.owner_key, 1]]),
      active: authority(1, [[a.active_key, 1]]),
      memoKey: a.memo_key ?? a.active_key,
      creationTime: genesisTime,
    });
  });

  store.root.transactionSync(() => {
    const state = new ChainState(store);
    for (const a of accounts) {
      if (a.instance >= 6 && state.peekInstance(1, 2) < a.instance) state.setNextInstance(1, 2, a.instance);
      const { obj } = state.create(1, 2, () => accountObject(a));
      indexAccountReferences(state, a.instance, undefined, obj);
      if (state.peekInstance(2, 6) < a.instance) state.setNextInstance(2, 6, a.instance);
      state.create(2, 6, () => accountStatisticsObject({ instance: a.instance, name: a.name }));
      store.accountNames.putSync(a.name, a.instance);
    }
    const accountId = (name: string): number => store.accountNames.get(name)!;
    // The supply of each asset: what the genesis hands out (balances, balance objects, accumulated fees).
    const supply = new Map<string, bigint>([[genesis.core_asset.symbol, 0n]]);
    for (const b of genesis.initial_balances) supply.set(b.asset_symbol, (supply.get(b.asset_symbol) ?? 0n) + BigInt(b.amount));
    state.create(1, 3, () => assetObject({ instance: 0, symbol: genesis.core_asset.symbol, precision: genesis.core_asset.precision, issuer: 3, maxSupply }));
    store.assetSymbols.putSync(genesis.core_asset.symbol, 0);
    state.create(2, 3, () => assetDynamicDataObject(0, supply.get(genesis.core_asset.symbol)!));
    const firstAsset = Math.max(1, genesis.immutable_parameters.num_special_assets);
    if (genesis.initial_assets.length > 0 && firstAsset > 1) {
      state.setNextInstance(1, 3, firstAsset);
      state.setNextInstance(2, 3, firstAsset);
    }
    for (const a of genesis.initial_assets) {
      const { instance, obj } = state.create(1, 3, (_id, i) =>
        assetObject({ instance: i, symbol: a.symbol, precision: a.precision, issuer: accountId(a.issuer_name), maxSupply: BigInt(a.max_supply), description: a.description, creationTime: genesisTime }),
      );
      // Core gives genesis user-issued assets the witness_fed_asset flag and DEFAULT_UIA_ASSET_ISSUER_PERMISSION.
      const options = obj.options as Record<string, unknown>;
      options.flags = WITNESS_FED_ASSET;
      options.issuer_permissions = DEFAULT_UIA_ASSET_ISSUER_PERMISSION;
      // ... and leaves core_exchange_rate at asset_options' default, price(asset(), asset(0, asset_id_type(1))):
      // no fee can be paid or priced in the asset (get_required_fees: "b.base.amount.value > 0") until
      // its issuer sets a rate with asset_update.
      options.core_exchange_rate = { base: { amount: 0, asset_id: '1.3.0' }, quote: { amount: 0, asset_id: '1.3.1' } };
      const dyn = assetDynamicDataObject(instance, (supply.get(a.symbol) ?? 0n) + BigInt(a.accumulated_fees));
      dyn.accumulated_fees = i64(BigInt(a.accumulated_fees));
      state.create(2, 3, () => dyn);
      store.assetSymbols.putSync(a.symbol, instance);
    }
    const ctx = { state, blockNum: 0, blockTime: parseFcTime(genesis.initial_timestamp) };
    for (const b of genesis.initial_balances) {
      const asset = store.assetSymbols.get(b.asset_symbol)!;
      const account = store.accountNames.get(b.owner);
      if (account !== undefined) adjustBalance(ctx, account, asset, BigInt(b.amount));
      else createBalanceObject(state, b.owner, BigInt(b.amount), asset);
    }
    // Core's witness 1.6.0 is created and removed at genesis: its id is reserved.
    if (genesis.first_witness_instance > 0) state.setNextInstance(1, 6, genesis.first_witness_instance);
    // Vote ids are handed out in creation order across witnesses and committee members (get_next_vote_id).
    let nextVoteId = 0;
    const witnesses = genesis.initial_witness_candidates.map(
      (w) =>
        state.create(1, 6, (id) => ({
          id,
          witness_account: `1.2.${accountId(w.owner_name)}`,
          last_aslot: 0,
          signing_key: w.block_signing_key,
          vote_id: `${VOTE_WITNESS}:${nextVoteId++}`,
          total_votes: 0,
          url: '',
          total_missed: 0,
          last_confirmed_block_num: 0,
        })).obj.id as string,
    );
    for (const c of genesis.initial_committee_candidates) {
      state.create(1, 5, (id) => ({ id, committee_member_account: `1.2.${accountId(c.owner_name)}`, vote_id: `${VOTE_COMMITTEE}:${nextVoteId++}`, total_votes: 0, url: '' }));
    }
    const active = witnesses.slice(0, genesis.initial_active_witnesses);
    const gp = globalPropertyObject(genesis.initial_parameters, active, []);
    gp.next_available_vote_id = nextVoteId;
    state.create(2, 0, () => gp);
    state.create(2, 1, () =>
      dynamicGlobalPropertyObject({
        headBlockNumber: 0,
        headBlockId: '0'.repeat(40),
        time: genesisTime,
        currentWitness: active[0]!,
        nextMaintenanceTime: genesisTime,
        lastBudgetTime: genesisTime,
        currentAslot: 0,
        recentSlotsFilled: ((1n << 128n) - 1n).toString(),
        lastIrreversibleBlockNum: 0,
      }),
    );
    state.flush();
    indexGovernance(store);
    store.meta.putSync('chain_id', chainId);
    store.meta.putSync('address_prefix', prefix);
    store.meta.putSync('immutable_parameters', JSON.stringify(genesis.immutable_parameters));
    store.meta.putSync('schema', SCHEMA_VERSION);
  });
  return { chainId, created: true };
}

/** Refuses a store whose keys carry another prefix than `prefix` (a new, empty store passes). */
export function checkAddressPrefix(store: ChainStore, prefix: string): void {
  if (store.meta.get('chain_id') === undefined) return;
  // Stores made before the option have BTS keys in them.
  const stored = store.meta.get('address_prefix') ?? DEFAULT_ADDRESS_PREFIX;
  if (stored !== prefix) {
    throw new Error(`the data directory holds a chain whose keys have the prefix ${stored}, but --address-prefix is ${prefix}; start with --address-prefix ${stored}, or use another --data-dir`);
  }
}

/**
 * The block interval the global properties (2.0.0) report for a producer running at `seconds`
 * (--block-interval). Clients wait "one block interval" and date blocks by it, so it must be the
 * interval blocks are actually produced at, whatever the store was created with.
 *
 * On demand (0) reports 1, GRAPHENE_MIN_BLOCK_INTERVAL: Core refuses a block_interval of 0
 * (chain_parameters::validate) and clients divide by it, and blocks produced on demand are dated at
 * least one second apart (producer.ts), so `head_block_time + 1` is the earliest next block, which is
 * what a Core client computes from it. The field is a uint8_t: longer intervals report 255.
 */
export function reportedBlockInterval(seconds: number): number {
  return seconds === 0 ? 1 : Math.min(seconds, 255);
}

/** Writes the reported block interval into the global properties when it differs; true when it did. */
export function setBlockInterval(store: ChainStore, seconds: number): boolean {
  const interval = reportedBlockInterval(seconds);
  return store.root.transactionSync(() => {
    const state = new ChainState(store);
    const parameters = state.get([2, 0, 0]).parameters as Record<string, unknown>;
    if (parameters.block_interval === interval) return false;
    parameters.block_interval = interval;
    state.touch([2, 0, 0]);
    state.flush();
    return true;
  });
}

/**
 * Brings a store made by an older version up to SCHEMA_VERSION, in one write transaction (so a crash
 * leaves it as it was); returns whether it changed anything. Only the writable side can do this: the
 * node calls it (through initChain) before its workers open the store read-only.
 *
 * Schema 1 → 2: the operation index, built from the stored 1.11.x objects in one pass.
 * Schema 2 → 3: the order and market history sub-databases, which a writable open has created;
 * a chain made before them has no orders or fills, so they start empty.
 * Schema 3 → 4: the account storage sub-database, created the same way; before it the chain refused
 * custom operations, so there is nothing to index.
 * Schema 4 → 5: the account history pages (history-pages.ts), built from the per-account sequences.
 * Schema 5 → 6: the proposal and HTLC index sub-databases, created by a writable open; before them
 * the chain refused proposals and HTLCs, so they start empty.
 * Schema 6 → 7: the governance index of the genesis' witnesses and committee members.
 * Schema 7 → 8: the deposit feed's transfer index (transfer-index.ts), built from the stored history.
 * Schema 8 → 9: the history pages rewritten newest first (from 5 on; before 5 they are built so).
 * Schema 9 → 10: the bitasset index sub-database (market-issued assets), created by a writable open;
 * before it the chain refused market-issued assets, so it starts empty.
 */
export function upgradeStore(store: ChainStore): boolean {
  const schema = store.meta.get('schema') ?? '1';
  if (schema === SCHEMA_VERSION) return false;
  if (!['1', '2', '3', '4', '5', '6', '7', '8', '9'].includes(schema)) throw new Error(`the chain store has schema ${schema}, which this version does not know (it writes schema ${SCHEMA_VERSION}); use the version that made it`);
  store.root.transactionSync(() => {
    if (schema !== '9') upgradeToNine(store, schema);
    store.meta.putSync('schema', SCHEMA_VERSION);
  });
  return true;
}

/** The steps from schemas 1 to 8 up to 9. */
function upgradeToNine(store: ChainStore, schema: string): void {
  {
    if (schema === '1') {
      for (const { key, value } of store.objects.getRange({ start: [1, 11, 0], end: [1, 11, MAX_INSTANCE + 1] })) {
        const o = JSON.parse(value.toString('utf8')) as { op: [number, unknown]; block_num: number; trx_in_block: number; block_time: string };
        store.operationIndex.putSync(key[2], [o.op[0], o.block_num, o.trx_in_block, parseFcTime(o.block_time)]);
      }
    }
    // Schema 5: every account's history pages, from the per-operation history; schema 9: laid out
    // newest first (the pages of 5 to 8 are rewritten so).
    if (['1', '2', '3', '4'].includes(schema)) buildHistoryPages(store);
    else convertHistoryPages(store);
    // Schema 7: the governance index of the genesis' witnesses and committee members (an older
    // store has no workers or vesting balances: no chain could create them).
    if (schema !== '7') indexGovernance(store);
    // Schema 8: the transfers of every stored block.
    if (schema !== '8') buildTransferFeed(store);
  }
}

/**
 * Indexes the witnesses (1.6.x) and committee members (1.5.x) in the store by account and vote id
 * (the governance index, store.ts), as the genesis creates them and an older store holds them.
 */
function indexGovernance(store: ChainStore): void {
  for (const [type, accountField] of [
    [6, 'witness_account'],
    [5, 'committee_member_account'],
  ] as const) {
    for (const { key, value } of store.objects.getRange({ start: [1, type, 0], end: [1, type, MAX_INSTANCE + 1] })) {
      const o = JSON.parse(value.toString('utf8')) as Record<string, string>;
      store.governance.putSync(['a', type, objectIdParts(o[accountField])!.instance, key[2]], 1);
      const [t, i] = o.vote_id!.split(':').map(Number);
      store.governance.putSync(['v', t!, i!], key[2]);
    }
  }
}

/** upgradeStore for a data directory that no node has open (the benchmarks' chains). */
export async function upgradeDataDir(dataDir: string): Promise<boolean> {
  const store = openChainStore(dataDir);
  try {
    return upgradeStore(store);
  } finally {
    await store.close();
  }
}

export interface BlockInput {
  /** block time, seconds since the epoch */
  readonly timestamp: number;
  readonly transactions: readonly SignedTransactionJson[];
  /**
   * The transactions' ids, in order, when the caller has computed them with transactionId already
   * (generate's signer thread packs each transaction to sign it); computed here otherwise.
   */
  readonly transactionIds?: readonly string[];
}

/** The plugins of Core's witness_node that change what a block does to the store. */
export interface BlockPlugins {
  /** custom_operations: account storage from custom operations (account-storage.ts); Core enables it by default */
  readonly customOperations: boolean;
}

export const DEFAULT_PLUGINS: BlockPlugins = { customOperations: true };

/** A custom operation whose payload the custom_operations plugin ignored, wholly or in part (Core logs these). */
export interface PluginNote {
  readonly trxInBlock: number;
  readonly opInTrx: number;
  readonly message: string;
}

export interface AppliedBlock {
  readonly blockNum: number;
  readonly blockId: string;
  readonly timestamp: string;
  readonly transactionIds: readonly string[];
  /** the transactions as the block holds them (with operation_results), in order */
  readonly transactions: readonly Record<string, unknown>[];
  readonly changes: ChangeSet;
  /** account instances whose objects or history changed */
  readonly impactedAccounts: readonly number[];
  /** what subscribe_to_market sessions hear of this block */
  readonly market: MarketChanges;
  /** custom operations whose payload the custom_operations plugin ignored, wholly or in part */
  readonly pluginNotes: readonly PluginNote[];
}

/** A block's market events, by market ("1.3.a:1.3.b", the lower id first). */
export interface MarketChanges {
  /** each fill_order of the block with its result, `[op, result]` as JSON, in order */
  readonly fills: readonly { readonly market: string; readonly json: string }[];
  /** the market of every limit order (1.7.x) the block created, changed or removed */
  readonly orders: ReadonlyMap<string, string>;
}

/** The markets of the limit orders in a change set, from their (last) JSON. */
function orderMarkets(changes: ChangeSet): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of [...changes.created, ...changes.changed, ...changes.removed]) {
    if (!id.startsWith('1.7.')) continue;
    const o = JSON.parse(changes.json.get(id)!) as { sell_price: { base: { asset_id: string }; quote: { asset_id: string } } };
    out.set(id, marketKey(idInstance(o.sell_price.base.asset_id), idInstance(o.sell_price.quote.asset_id)));
  }
  return out;
}

/**
 * Records one applied operation: its 1.11.x object, its index entry and each concerned account's
 * history. A virtual operation carries the position of the operation that caused it and counts
 * from 1 after it (db_block.cpp, _apply_block); those of the block's end count from 0 after the
 * last transaction.
 */
function recordOperation(
  store: ChainStore,
  state: ChainState,
  o: { op: OperationJson; result: unknown; blockNum: number; trxInBlock: number; opInTrx: number; virtualOp: number; isVirtual: boolean; blockTime: string; blockSeconds: number; accounts: readonly number[] },
  /** the accounts' history entries, written to their pages once the block's objects are serialized */
  appends: HistoryAppend[],
): void {
  const { instance } = state.create(1, 11, (id) => ({
    id,
    op: o.op,
    result: o.result,
    block_num: o.blockNum,
    trx_in_block: o.trxInBlock,
    op_in_trx: o.opInTrx,
    virtual_op: o.virtualOp,
    is_virtual: o.isVirtual,
    block_time: o.blockTime,
  }));
  store.operationIndex.putSync(instance, [o.op[0], o.blockNum, o.trxInBlock, o.blockSeconds]);
  // Core's history plugin visits the impacted accounts in ascending id order (a flat_set).
  state.noteRelevantAccounts(`1.11.${instance}`, o.accounts);
  for (const account of [...new Set(o.accounts)].sort((a, b) => a - b)) {
    const stats = state.get([2, 6, account]);
    const seq = Number(stats.total_ops) + 1;
    stats.total_ops = u64(seq);
    stats.most_recent_op = `2.9.${state.nextInstance(2, 9)}`;
    state.touch([2, 6, account]);
    store.accountHistory.putSync([account, instance], seq);
    store.accountSequence.putSync([account, seq], instance);
    appends.push({ account, seq, instance, type: o.op[0] });
    state.impactedAccounts.add(account);
  }
}

/** signed_block_header (block.hpp) as JSON: the header another node made and signed. */
export interface SignedBlockHeaderJson {
  readonly previous: string;
  readonly timestamp: string;
  readonly witness: string;
  readonly transaction_merkle_root: string;
  readonly extensions: readonly unknown[];
  readonly witness_signature: string;
}

/**
 * What makes an applied block ours or another node's: the producer signs a header of its own; a
 * follower takes the upstream's header, which the block as applied here must match, and the last
 * irreversible block the upstream reports.
 */
export type BlockSeal = { readonly signingKey: Uint8Array } | { readonly header: SignedBlockHeaderJson; readonly lastIrreversibleBlockNum: number };

/**
 * A block from another node that does not fit the chain in this store (another previous block,
 * transactions whose results differ from the upstream's, a signature not by the block's witness).
 * Nothing of the block is kept: a follower stops rather than diverge.
 */
export class BlockMismatch extends Error {}

/**
 * Applies one block: evaluates every operation of every transaction, records history, stores the
 * signed block, and advances the dynamic global properties — in one LMDB write transaction. A
 * failing operation throws and nothing of the block is kept.
 *
 * With the producer's key it signs a header of its own. With another node's header (a follower) the
 * block must be that node's block exactly: its previous block is our head, and the transaction merkle
 * root, which covers each transaction's operation results (transactionMerkleRoot), equals ours, so a
 * state that evaluated any operation differently is caught here, at the block where it happened.
 */
export function applyBlock(store: ChainStore, input: BlockInput, seal: Uint8Array | BlockSeal, plugins: BlockPlugins = DEFAULT_PLUGINS): AppliedBlock {
  const how: BlockSeal = seal instanceof Uint8Array ? { signingKey: seal } : seal;
  if (input.transactionIds !== undefined && input.transactionIds.length !== input.transactions.length) {
    throw new Error(`applyBlock: ${input.transactionIds.length} transaction ids for ${input.transactions.length} transactions`);
  }
  return store.root.transactionSync(() => {
    const state = new ChainState(store);
    const dgp = state.get([2, 1, 0]);
    const blockNum = Number(dgp.head_block_number) + 1;
    const blockTime = fcTime(input.timestamp);
    const virtualOps: VirtualOperation[] = [];
    // While the block's transactions apply, the head block is still the previous one (its time is
    // what order expirations are checked against); the block's own time applies at its end.
    const ctx = { state, blockNum, blockTime: input.timestamp, headTime: parseFcTime(String(dgp.time)), virtualOps };
    const processed: Record<string, unknown>[] = [];
    const transactionIds: string[] = [];
    const firstOp = state.peekInstance(1, 11);
    let opCount = 0;
    const fills: FillOrder[] = [];
    const historyAppends: HistoryAppend[] = [];
    const marketFills: { market: string; json: string }[] = [];
    const record = (op: OperationJson, result: OperationResult, trxInBlock: number, opInTrx: number, virtualOp: number, isVirtual: boolean, accounts: readonly number[]) => {
      recordOperation(store, state, { op, result, blockNum, trxInBlock, opInTrx, virtualOp, isVirtual, blockTime, blockSeconds: input.timestamp, accounts }, historyAppends);
      opCount++;
      if (op[0] === 4) {
        const fill = op[1] as unknown as FillOrder;
        fills.push(fill);
        marketFills.push({ market: marketKey(idInstance(fill.pays.asset_id), idInstance(fill.receives.asset_id)), json: JSON.stringify([op, result]) });
      }
    };
    input.transactions.forEach((trx, trxInBlock) => {
      const results: unknown[] = [];
      trx.operations.forEach((op, opInTrx) => {
        const { result, impacted } = evaluate(ctx, op);
        results.push(result);
        record(op, result, trxInBlock, opInTrx, 0, false, impacted);
        virtualOps.splice(0).forEach((v, i) => record(v.op, v.result, trxInBlock, opInTrx, i + 1, true, v.impacted));
      });
      const id = input.transactionIds?.[trxInBlock] ?? transactionId(trx);
      transactionIds.push(id);
      store.transactions.putSync(id, [blockNum, trxInBlock]);
      processed.push({
        ref_block_num: trx.ref_block_num,
        ref_block_prefix: trx.ref_block_prefix,
        expiration: trx.expiration,
        operations: trx.operations,
        extensions: trx.extensions,
        signatures: trx.signatures,
        operation_results: results,
      });
    });
    // The block's end (database::_apply_block), at the block's time (now the head block's): expired
    // proposals (executed first if approved), orders, force settlements and HTLCs, then expired price
    // feeds and core exchange rates, in Core's order; then the market
    // history plugin takes the block's fills.
    // Core's maintenance steps for market-issued assets come first (margin.ts, bitassetMaintenance).
    bitassetMaintenance(ctx);
    clearExpiredProposals({ ...ctx, headTime: input.timestamp }, APPLIER);
    clearExpiredOrders(ctx);
    clearExpiredForceSettlements(ctx);
    clearExpiredHtlcs(ctx);
    updateExpiredFeeds(ctx);
    virtualOps.splice(0).forEach((v, i) => record(v.op, v.result, input.transactions.length, 0, i, true, v.impacted));
    updateMarketHistories(store, state, fills, input.timestamp);
    // The applied block's plugins: custom_operations reads the block's custom operations, in order.
    const pluginNotes: PluginNote[] = [];
    if (plugins.customOperations) {
      input.transactions.forEach((trx, trxInBlock) =>
        trx.operations.forEach((op, opInTrx) => {
          if (op[0] !== 35) return;
          const outcome = applyCustomOperation(state, store.accountStorage, op);
          if (outcome && (outcome.ignored !== undefined || outcome.skipped > 0)) {
            pluginNotes.push({ trxInBlock, opInTrx, message: outcome.ignored ?? `${outcome.skipped} key(s) skipped: longer than 200 bytes, or a value that is not JSON` });
          }
        }),
      );
    }

    const merkleRoot = transactionMerkleRoot(processed);
    let signed: SignedBlockHeaderJson;
    if ('signingKey' in how) {
      const header = { previous: String(dgp.head_block_id), timestamp: blockTime, witness: String(dgp.current_witness), transaction_merkle_root: merkleRoot, extensions: [] };
      signed = { ...header, witness_signature: signCompact(blockHeaderDigest(header), how.signingKey) };
    } else {
      signed = checkedHeader(state, how.header, { blockNum, headId: String(dgp.head_block_id), blockTime, merkleRoot });
      // Core's current_witness is the witness of the head block.
      dgp.current_witness = signed.witness;
    }
    const id = blockId(signed, blockNum);
    store.blocks.putSync(blockNum, Buffer.from(JSON.stringify({ ...signed, transactions: processed })));
    // The deposit feed: with the block, never with a pending transaction (transfer-index.ts).
    indexBlockTransfers(store.transferFeed, blockNum, blockTime, input.transactions, transactionIds);
    store.blockOperations.putSync(blockNum, [firstOp, opCount]);
    store.blockIds.putSync(blockNum, id);

    dgp.head_block_number = blockNum;
    dgp.head_block_id = id;
    dgp.time = blockTime;
    dgp.current_aslot = u64(Number(dgp.current_aslot) + 1);
    // One producer confirms its own blocks; keep the last irreversible block one behind the head,
    // so that clients that read LIB + 1 (python-bitshares) find it. A follower takes what its upstream
    // reports (never past this block, never backwards).
    dgp.last_irreversible_block_num =
      'signingKey' in how ? Math.max(0, blockNum - 1) : Math.max(Number(dgp.last_irreversible_block_num), Math.min(how.lastIrreversibleBlockNum, blockNum));
    state.touch([2, 1, 0]);
    const witnessKey: [number, number, number] = [1, 6, objectIdParts(dgp.current_witness)!.instance];
    const witness = state.get(witnessKey);
    witness.last_aslot = dgp.current_aslot;
    witness.last_confirmed_block_num = blockNum;
    state.touch(witnessKey);

    const changes = state.flush();
    appendHistory(store, historyAppends, (opId) => changes.json.get(opId)!);
    return {
      blockNum,
      blockId: id,
      timestamp: blockTime,
      transactionIds,
      transactions: processed,
      changes,
      impactedAccounts: [...state.impactedAccounts],
      market: { fills: marketFills, orders: orderMarkets(changes) },
      pluginNotes,
    };
  });
}

/**
 * Another node's header for block `blockNum`, checked against the block as applied here: it follows
 * our head, carries the block's time and our merkle root, and is signed by its witness's signing key
 * (as Core's witness_signature check, db_block.cpp validate_block_header). Throws BlockMismatch.
 */
function checkedHeader(
  state: ChainState,
  h: SignedBlockHeaderJson,
  o: { readonly blockNum: number; readonly headId: string; readonly blockTime: string; readonly merkleRoot: string },
): SignedBlockHeaderJson {
  if (h.previous !== o.headId) throw new BlockMismatch(`block ${o.blockNum}: its previous block is ${h.previous}, but our head block is ${o.headId}`);
  if (h.timestamp !== o.blockTime) throw new BlockMismatch(`block ${o.blockNum}: header time ${h.timestamp} is not the block time ${o.blockTime}`);
  if (h.transaction_merkle_root !== o.merkleRoot) {
    throw new BlockMismatch(`block ${o.blockNum}: its transaction merkle root is ${h.transaction_merkle_root}, but the transactions as applied here give ${o.merkleRoot} (an operation result differs)`);
  }
  const witness = objectIdParts(h.witness);
  const witnessObject = witness && witness.space === 1 && witness.type === 6 ? state.find([1, 6, witness.instance]) : undefined;
  if (!witnessObject) throw new BlockMismatch(`block ${o.blockNum}: witness ${h.witness} does not exist`);
  let signer: string;
  try {
    signer = recoverPublicKey(blockHeaderDigest(h), h.witness_signature);
  } catch (err) {
    throw new BlockMismatch(`block ${o.blockNum}: witness_signature cannot be read: ${(err as Error).message}`);
  }
  if (signer !== witnessObject.signing_key) throw new BlockMismatch(`block ${o.blockNum}: signed by ${signer}, not by its witness ${h.witness}'s key ${String(witnessObject.signing_key)}`);
  return { previous: h.previous, timestamp: h.timestamp, witness: h.witness, transaction_merkle_root: h.transaction_merkle_root, extensions: h.extensions, witness_signature: h.witness_signature };
}
