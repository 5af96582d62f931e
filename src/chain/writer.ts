// The chain writer: the only code that changes chain state. Every change it makes (today: the
// genesis state; later: each block) is one LMDB write transaction, so readers see all of it or none.

import { type ChainStore, SCHEMA_VERSION } from './store.js';
import type { Genesis } from './genesis.js';
import { fcTime, parseFcTime, u64 } from './fc-json.js';
import { ChainState } from './state.js';
import { evaluate, adjustBalance, indexAccountReferences, type OperationJson } from './evaluators.js';
import { blockHeaderDigest, blockId, transactionId, transactionMerkleRoot } from './serializer.js';
import { signCompact } from './keys.js';
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
} from './objects.js';

/** What one applied change did, for the change feed (notices build on it). */
export interface ChangeSet {
  created: string[];
  changed: string[];
  removed: string[];
  /** the served JSON of every created and changed object, by id */
  json: Map<string, string>;
  /**
   * Accounts each batch concerns (Core's get_relevant_accounts over the batch's objects): the
   * notices of a block go to every session subscribed to one of them.
   */
  createdAccounts: Set<number>;
  changedAccounts: Set<number>;
}

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
 * Creates the genesis state in an empty store, or checks that a store was made from this genesis.
 * Returns the chain id in force.
 */
export function initChain(store: ChainStore, genesis: Genesis, chainId: string): { chainId: string; created: boolean } {
  const existing = store.meta.get('chain_id');
  if (existing !== undefined) {
    if (existing !== chainId) {
      throw new Error(`the data directory holds chain ${existing}, but the genesis file gives chain ${chainId}; use another --data-dir or the genesis it was made from`);
    }
    return { chainId: existing, created: false };
  }
  const genesisTime = fcTime(parseFcTime(genesis.initial_timestamp));
  const maxSupply = BigInt(genesis.max_core_supply);
  const accounts: AccountInit[] = specialAccounts();
  // Core creates genesis accounts with an account_create from temp-account (referrer 1.2.0), then
  // upgrades lifetime members, which makes them their own registrar, referrer and lifetime referrer
  // (db_init.cpp, account_upgrade_evaluator).
  genesis.initial_accounts.forEach((a, i) => {
    const self = 6 + i;
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
      const { obj } = state.create(1, 2, () => accountObject(a));
      indexAccountReferences(state, a.instance, undefined, obj);
      state.create(2, 6, () => accountStatisticsObject({ instance: a.instance, name: a.name }));
      store.accountNames.putSync(a.name, a.instance);
    }
    state.create(1, 3, () => assetObject({ instance: 0, symbol: genesis.core_asset.symbol, precision: genesis.core_asset.precision, issuer: 3, maxSupply }));
    store.assetSymbols.putSync(genesis.core_asset.symbol, 0);
    const supply = genesis.initial_balances.reduce((sum, b) => sum + BigInt(b.amount), 0n);
    state.create(2, 3, () => assetDynamicDataObject(0, supply));
    const ctx = { state, blockNum: 0, blockTime: parseFcTime(genesis.initial_timestamp) };
    for (const b of genesis.initial_balances) adjustBalance(ctx, store.accountNames.get(b.owner)!, 0, BigInt(b.amount));
    const witnesses = genesis.initial_witness_candidates.map((w) =>
      state.create(1, 6, (id) => ({
        id,
        witness_account: `1.2.${store.accountNames.get(w.owner_name)}`,
        last_aslot: 0,
        signing_key: w.block_signing_key,
        vote_id: `1:${id.split('.')[2]}`,
        total_votes: 0,
        url: '',
        total_missed: 0,
        last_confirmed_block_num: 0,
      })).obj.id as string,
    );
    state.create(2, 0, () => globalPropertyObject(genesis.initial_parameters, witnesses, []));
    state.create(2, 1, () =>
      dynamicGlobalPropertyObject({
        headBlockNumber: 0,
        headBlockId: '0'.repeat(40),
        time: genesisTime,
        currentWitness: witnesses[0]!,
        nextMaintenanceTime: genesisTime,
        lastBudgetTime: genesisTime,
        currentAslot: 0,
        recentSlotsFilled: ((1n << 128n) - 1n).toString(),
        lastIrreversibleBlockNum: 0,
      }),
    );
    state.flush();
    store.meta.putSync('chain_id', chainId);
    store.meta.putSync('schema', SCHEMA_VERSION);
  });
  return { chainId, created: true };
}

/** A transaction as clients send it (signed_transaction JSON). */
export interface SignedTransactionJson {
  ref_block_num: number;
  ref_block_prefix: number;
  expiration: string;
  operations: OperationJson[];
  extensions: unknown[];
  signatures: string[];
}

export interface BlockInput {
  /** block time, seconds since the epoch */
  readonly timestamp: number;
  readonly transactions: readonly SignedTransactionJson[];
}

export interface AppliedBlock {
  readonly blockNum: number;
  readonly blockId: string;
  readonly timestamp: string;
  readonly transactionIds: readonly string[];
  readonly changes: ChangeSet;
  /** account instances whose objects or history changed */
  readonly impactedAccounts: readonly number[];
}

/** Records one applied operation: its 1.11.x object and each concerned account's history. */
function recordOperation(
  state: ChainState,
  o: { op: OperationJson; result: unknown; blockNum: number; trxInBlock: number; opInTrx: number; blockTime: string; accounts: readonly number[] },
): void {
  const { instance } = state.create(1, 11, (id) => ({
    id,
    op: o.op,
    result: o.result,
    block_num: o.blockNum,
    trx_in_block: o.trxInBlock,
    op_in_trx: o.opInTrx,
    virtual_op: 0,
    is_virtual: false,
    block_time: o.blockTime,
  }));
  // Core's history plugin visits the impacted accounts in ascending id order (a flat_set).
  state.noteRelevantAccounts(`1.11.${instance}`, o.accounts);
  for (const account of [...new Set(o.accounts)].sort((a, b) => a - b)) {
    const stats = state.get([2, 6, account]);
    const seq = Number(stats.total_ops) + 1;
    stats.total_ops = u64(seq);
    stats.most_recent_op = `2.9.${state.nextInstance(2, 9)}`;
    state.touch([2, 6, account]);
    state.store.accountHistory.putSync([account, instance], seq);
    state.store.accountSequence.putSync([account, seq], instance);
    state.impactedAccounts.add(account);
  }
}

/**
 * Applies one block: evaluates every operation of every transaction, records history, stores the
 * signed block, and advances the dynamic global properties — in one LMDB write transaction. A
 * failing operation throws and nothing of the block is kept.
 */
export function applyBlock(store: ChainStore, input: BlockInput, signingKey: Uint8Array): AppliedBlock {
  return store.root.transactionSync(() => {
    const state = new ChainState(store);
    const dgp = state.get([2, 1, 0]);
    const blockNum = Number(dgp.head_block_number) + 1;
    const blockTime = fcTime(input.timestamp);
    const ctx = { state, blockNum, blockTime: input.timestamp };
    const processed: Record<string, unknown>[] = [];
    const transactionIds: string[] = [];
    const firstOp = state.peekInstance(1, 11);
    let opCount = 0;
    input.transactions.forEach((trx, trxInBlock) => {
      const results: unknown[] = [];
      trx.operations.forEach((op, opInTrx) => {
        const { result, impacted } = evaluate(ctx, op);
        results.push(result);
        recordOperation(state, { op, result, blockNum, trxInBlock, opInTrx, blockTime, accounts: impacted });
        opCount++;
      });
      const id = transactionId(trx);
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
    const header = {
      previous: String(dgp.head_block_id),
      timestamp: blockTime,
      witness: String(dgp.current_witness),
      transaction_merkle_root: transactionMerkleRoot(processed),
      extensions: [],
    };
    const signed = { ...header, witness_signature: signCompact(blockHeaderDigest(header), signingKey) };
    const id = blockId(signed, blockNum);
    store.blocks.putSync(blockNum, Buffer.from(JSON.stringify({ ...signed, transactions: processed })));
    store.blockOperations.putSync(blockNum, [firstOp, opCount]);
    store.blockIds.putSync(blockNum, id);

    dgp.head_block_number = blockNum;
    dgp.head_block_id = id;
    dgp.time = blockTime;
    dgp.current_aslot = u64(Number(dgp.current_aslot) + 1);
    // One producer confirms its own blocks; keep the last irreversible block one behind the head,
    // so that clients that read LIB + 1 (python-bitshares) find it.
    dgp.last_irreversible_block_num = Math.max(0, blockNum - 1);
    state.touch([2, 1, 0]);
    const witness = state.get([1, 6, Number(String(dgp.current_witness).split('.')[2])]);
    witness.last_aslot = dgp.current_aslot;
    witness.last_confirmed_block_num = blockNum;
    state.touch([1, 6, Number(String(dgp.current_witness).split('.')[2])]);

    const changes = state.flush();
    return { blockNum, blockId: id, timestamp: blockTime, transactionIds, changes, impactedAccounts: [...state.impactedAccounts] };
  });
}
