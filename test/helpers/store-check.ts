// Whether a chain store is consistent, as a node killed at any moment must leave it: every block
// 1..head present, linked to the one before, with the id and merkle root its contents give; each
// block's operations present and indexed (objects, operation index, transactions, account history)
// and nothing of a block after the head; the counters agree with what is stored.
import { openChainStore } from '../../src/chain/store/store.js';
import { blockId, transactionId, transactionMerkleRoot } from '../../src/chain/protocol/serializer.js';
import { parseFcTime } from '../../src/chain/fc/fc-json.js';

export interface StoreCheck {
  /** the head block number; 0 for a store holding genesis only, -1 for one with nothing committed */
  readonly head: number;
  readonly operations: number;
  readonly accounts: number;
  readonly problems: string[];
}

const json = <T>(b: Buffer | undefined): T | undefined => (b === undefined ? undefined : (JSON.parse(b.toString('utf8')) as T));

interface StoredBlock {
  previous: string;
  timestamp: string;
  transaction_merkle_root: string;
  transactions: { operations: [number, unknown][] }[];
}

/** Opens the store in `dataDir` (its node must be gone), checks it, closes it. */
export async function checkStore(dataDir: string): Promise<StoreCheck> {
  const store = openChainStore(dataDir);
  const problems: string[] = [];
  const problem = (p: string) => {
    if (problems.length < 20) problems.push(p);
  };
  try {
    const dgp = json<{ head_block_number: number; head_block_id: string }>(store.objects.get([2, 1, 0]));
    if (store.meta.get('chain_id') === undefined) {
      // Killed before the genesis transaction committed: nothing at all may be there.
      if (dgp !== undefined || store.blocks.get(1) !== undefined) problem('objects or blocks without a chain id: a partial genesis');
      return { head: -1, operations: 0, accounts: 0, problems };
    }
    if (!dgp) {
      problem('a chain id but no dynamic global properties');
      return { head: -1, operations: 0, accounts: 0, problems };
    }
    const head = dgp.head_block_number;
    let previous = '0'.repeat(40);
    let nextOp = Number(store.meta.get('next_instance:1.11') ?? 0);
    let expectedFirst: number | undefined;
    for (let n = 1; n <= head; n++) {
      const block = json<StoredBlock>(store.blocks.get(n));
      if (!block) {
        problem(`block ${n} of ${head} is missing`);
        break;
      }
      if (block.previous !== previous) problem(`block ${n} links to ${block.previous}, not to block ${n - 1} (${previous})`);
      const id = blockId(block, n);
      if (store.blockIds.get(n) !== id) problem(`block ${n}: its stored id ${store.blockIds.get(n)} is not the id of its contents ${id}`);
      if (transactionMerkleRoot(block.transactions) !== block.transaction_merkle_root) problem(`block ${n}: its transactions do not give its merkle root (a partial block)`);
      previous = id;
      const range = store.blockOperations.get(n);
      const count = block.transactions.reduce((s, trx) => s + trx.operations.length, 0);
      if (!range) {
        problem(`block ${n}: no operation range`);
        continue;
      }
      const [first, opCount] = range;
      if (opCount !== count) problem(`block ${n}: ${opCount} operations indexed, ${count} in the block`);
      if (expectedFirst !== undefined && first !== expectedFirst) problem(`block ${n}: its operations start at 1.11.${first}, not 1.11.${expectedFirst}`);
      expectedFirst = first + opCount;
      const seconds = parseFcTime(block.timestamp);
      let op = first;
      block.transactions.forEach((trx, trxInBlock) => {
        const where = store.transactions.get(transactionId(trx));
        if (!where || where[0] !== n || where[1] !== trxInBlock) problem(`block ${n}: transaction ${trxInBlock} is not indexed where it is (${JSON.stringify(where)})`);
        trx.operations.forEach((o) => {
          const stored = json<{ block_num: number; trx_in_block: number; op: [number, unknown] }>(store.objects.get([1, 11, op]));
          if (!stored || stored.block_num !== n || stored.trx_in_block !== trxInBlock || stored.op[0] !== o[0]) problem(`1.11.${op} (block ${n}) is missing or not this block's`);
          const index = store.operationIndex.get(op);
          if (!index || index[0] !== o[0] || index[1] !== n || index[2] !== trxInBlock || index[3] !== seconds) problem(`1.11.${op}: operation index ${JSON.stringify(index)} does not match block ${n}`);
          op++;
        });
      });
    }
    if (dgp.head_block_id !== (head === 0 ? dgp.head_block_id : previous)) problem(`the head id ${dgp.head_block_id} is not block ${head}'s ${previous}`);
    // Nothing of a block after the head.
    if (store.blocks.get(head + 1) !== undefined || store.blockIds.get(head + 1) !== undefined || store.blockOperations.get(head + 1) !== undefined) problem(`parts of block ${head + 1} after the head ${head}`);
    if (expectedFirst !== undefined && expectedFirst !== nextOp) problem(`the operation counter is ${nextOp}, the blocks hold operations up to ${expectedFirst}`);
    if (store.objects.get([1, 11, nextOp]) !== undefined || store.operationIndex.get(nextOp) !== undefined) problem(`operation 1.11.${nextOp} exists past the counter`);
    // Account history: every entry names a stored operation, and sequences match.
    const perAccount = new Map<number, number>();
    for (const { key, value } of store.accountHistory.getRange()) {
      const [account, instance] = key;
      if (instance >= nextOp) problem(`history of 1.2.${account} names 1.11.${instance}, past the counter ${nextOp}`);
      if (store.accountSequence.get([account, value]) !== instance) problem(`history of 1.2.${account}: sequence ${value} does not lead back to 1.11.${instance}`);
      perAccount.set(account, (perAccount.get(account) ?? 0) + 1);
    }
    const accounts = Number(store.meta.get('next_instance:1.2') ?? 0);
    for (let a = 0; a < accounts; a++) {
      const account = json<{ name: string }>(store.objects.get([1, 2, a]));
      if (!account) {
        problem(`account 1.2.${a} of ${accounts} is missing`);
        continue;
      }
      if (store.accountNames.get(account.name) !== a) problem(`the name ${account.name} does not lead to 1.2.${a}`);
      const stats = json<{ total_ops: number | string }>(store.objects.get([2, 6, a]));
      if (stats && Number(stats.total_ops) !== (perAccount.get(a) ?? 0)) problem(`1.2.${a}: total_ops ${stats.total_ops}, ${perAccount.get(a) ?? 0} history entries`);
    }
    if (store.objects.get([1, 2, accounts]) !== undefined) problem(`account 1.2.${accounts} exists past the counter`);
    for (const { key, value } of store.accountNames.getRange()) if (value >= accounts) problem(`the name ${key} leads to 1.2.${value}, past the counter ${accounts}`);
    nextOp = Math.max(nextOp, 0);
    return { head, operations: nextOp, accounts, problems };
  } finally {
    await store.close();
  }
}
