// The chain writer: the only code that changes chain state. Every change it makes (today: the
// genesis state; later: each block) is one LMDB write transaction, so readers see all of it or none.

import { type ChainStore, SCHEMA_VERSION, type ObjectKey } from './store.js';
import type { Genesis } from './genesis.js';
import { fcTime, parseFcTime, u64 } from './fc-json.js';
import {
  accountObject,
  accountStatisticsObject,
  assetDynamicDataObject,
  assetObject,
  authority,
  dynamicGlobalPropertyObject,
  globalPropertyObject,
  PERCENT_100,
  type AccountInit,
} from './objects.js';

/** What one applied change did, for the change feed (notices build on it). */
export interface ChangeSet {
  created: string[];
  changed: string[];
  removed: string[];
}

const encode = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));

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
  genesis.initial_accounts.forEach((a, i) => {
    accounts.push({
      instance: 6 + i,
      name: a.name,
      registrar: 0,
      lifetimeMember: a.is_lifetime_member,
      owner: authority(1, [[a.owner_key, 1]]),
      active: authority(1, [[a.active_key, 1]]),
      memoKey: a.memo_key ?? a.active_key,
      creationTime: genesisTime,
    });
  });

  store.root.transactionSync(() => {
    const put = (k: ObjectKey, o: unknown) => store.objects.putSync(k, encode(o));
    for (const a of accounts) {
      put([1, 2, a.instance], accountObject(a));
      put([2, 6, a.instance], accountStatisticsObject({ instance: a.instance, name: a.name }));
      store.accountNames.putSync(a.name, a.instance);
    }
    put([1, 3, 0], assetObject({ instance: 0, symbol: genesis.core_asset.symbol, precision: genesis.core_asset.precision, issuer: 3, maxSupply }));
    put([2, 3, 0], assetDynamicDataObject(0, 0n));
    put([2, 0, 0], globalPropertyObject(genesis.initial_parameters, [], []));
    put(
      [2, 1, 0],
      dynamicGlobalPropertyObject({
        headBlockNumber: 0,
        headBlockId: '0'.repeat(40),
        time: genesisTime,
        currentWitness: '1.6.0',
        nextMaintenanceTime: genesisTime,
        lastBudgetTime: genesisTime,
        currentAslot: 0,
        recentSlotsFilled: ((1n << 128n) - 1n).toString(),
        lastIrreversibleBlockNum: 0,
      }),
    );
    store.meta.putSync('chain_id', chainId);
    store.meta.putSync('schema', SCHEMA_VERSION);
    store.meta.putSync('next_instance:1.2', String(accounts.length));
  });
  return { chainId, created: true };
}

/** One operation as the chain applied it, and the accounts whose history it enters. */
export interface AppliedOperation {
  /** `[op_code, {fields}]` with fc number formats applied */
  op: [number, Record<string, unknown>];
  result: [number, unknown];
  blockNum: number;
  trxInBlock: number;
  opInTrx: number;
  virtualOp: number;
  blockTime: string;
  /** account instances (1.2.x) that the operation concerns */
  accounts: number[];
}

/**
 * Records operations: their 1.11.x history objects, each concerned account's history index entries,
 * and the account statistics. Runs inside the caller's write transaction (a block), or its own.
 */
export function recordOperations(store: ChainStore, ops: readonly AppliedOperation[]): ChangeSet {
  const changes: ChangeSet = { created: [], changed: [], removed: [] };
  const run = () => {
    let nextOp = Number(store.meta.get('next_instance:1.11') ?? '0');
    let nextAh = Number(store.meta.get('next_instance:2.9') ?? '1');
    const stats = new Map<number, Record<string, unknown>>();
    for (const o of ops) {
      const instance = nextOp++;
      const id = `1.11.${instance}`;
      store.objects.putSync(
        [1, 11, instance],
        encode({
          id,
          op: o.op,
          result: o.result,
          block_num: o.blockNum,
          trx_in_block: o.trxInBlock,
          op_in_trx: o.opInTrx,
          virtual_op: o.virtualOp,
          is_virtual: false,
          block_time: o.blockTime,
        }),
      );
      changes.created.push(id);
      for (const account of new Set(o.accounts)) {
        let s = stats.get(account);
        if (!s) {
          const raw = store.objects.get([2, 6, account]);
          if (!raw) throw new Error(`operation ${id} concerns account 1.2.${account}, which does not exist`);
          s = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
          stats.set(account, s);
        }
        const seq = Number(s.total_ops) + 1;
        s.total_ops = u64(seq);
        s.most_recent_op = `2.9.${nextAh++}`;
        store.accountHistory.putSync([account, instance], seq);
        store.accountSequence.putSync([account, seq], instance);
      }
    }
    for (const [account, s] of stats) {
      store.objects.putSync([2, 6, account], encode(s));
      changes.changed.push(`2.6.${account}`);
    }
    store.meta.putSync('next_instance:1.11', String(nextOp));
    store.meta.putSync('next_instance:2.9', String(nextAh));
  };
  store.root.transactionSync(run);
  return changes;
}
