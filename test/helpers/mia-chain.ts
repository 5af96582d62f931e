// A chain for the tests of market-issued assets: helpers/chain.ts's store (the genesis applied
// through the chain writer), with blocks whose time the test moves on, so that feed lifetimes and
// force settlement delays can pass without thousands of blocks; and the reads those tests make
// (objects, balances, a block's operation history).
import type { ExecutionContext } from 'ava';
import { makeChain, op, DEV_WIF, type TestChain } from './chain.js';
import { applyBlock, type AppliedBlock, type SignedTransactionJson } from '../../src/chain/node/block-applier.js';
import type { OperationJson } from '../../src/chain/protocol/types.js';
import { fcTime, parseFcTime } from '../../src/chain/fc/fc-json.js';
import { idInstance, objectIdParts } from '../../src/chain/fc/object-id.js';
import { privateKeyFromWif } from '../../src/chain/crypto/keys.js';

export const NATHAN = '1.2.6';
export const CORE = '1.3.0';
/** The first asset a test creates (the genesis has only the core asset). */
export const FIRST_ASSET = '1.3.1';

type Obj = Record<string, any>;

export interface MiaChain {
  readonly chain: TestChain;
  /** One block 3 s after the last; each argument is one transaction's operations. */
  block(...transactions: OperationJson[][]): AppliedBlock;
  /** One block holding one transaction of `ops`. */
  push(...ops: OperationJson[]): AppliedBlock;
  /** Makes the next block come `seconds` after the last one (instead of 3). */
  elapse(seconds: number): void;
  /** The head block's time, in seconds. */
  now(): number;
  /** Creates accounts registered by nathan, one transaction each in one block; their ids by name. */
  actors<N extends string>(...names: N[]): Record<N, string>;
  /** nathan transfers `amount` of the core asset to each account. */
  fund(amount: number, ...accounts: string[]): void;
  obj(id: string): Obj | undefined;
  balance(account: string, asset: string): number;
  /** The block's operation history objects, in order. */
  blockOps(blockNum: number): Obj[];
  /** The block's fill_order operations, as [order_id, account_id, pays, receives, fee, is_maker]. */
  fills(blockNum: number): [string, string, number, number, number, boolean][];
}

export function miaChain(t: ExecutionContext): MiaChain {
  const chain = makeChain(t);
  const key = privateKeyFromWif(DEV_WIF);
  const obj = (id: string): Obj | undefined => {
    const { space, type, instance } = objectIdParts(id)!;
    const raw = chain.store.objects.get([space, type, instance]);
    return raw ? JSON.parse(raw.toString('utf8')) : undefined;
  };
  let time = parseFcTime(String(obj('2.1.0')!.time));
  let gap = 3;
  const block = (...transactions: OperationJson[][]): AppliedBlock => {
    // A refused block leaves the head where it was, and the next block comes after the head.
    time = parseFcTime(String(obj('2.1.0')!.time)) + gap;
    gap = 3;
    const txs: SignedTransactionJson[] = transactions.map((operations) => ({
      ref_block_num: 0,
      ref_block_prefix: 0,
      expiration: fcTime(time + 60),
      operations,
      extensions: [],
      signatures: [],
    }));
    return applyBlock(chain.store, { timestamp: time, transactions: txs }, key);
  };
  const balance = (account: string, asset: string): number => {
    const b = chain.store.balances.get([idInstance(account), idInstance(asset)]);
    return b === undefined ? 0 : Number(obj(`2.5.${b}`)!.balance);
  };
  const blockOps = (blockNum: number): Obj[] => {
    const [first, count] = chain.store.blockOperations.get(blockNum)!;
    return Array.from({ length: count }, (_, i) => obj(`1.11.${first + i}`)!);
  };
  return {
    chain,
    block,
    push: (...ops) => block(ops),
    elapse(seconds) {
      gap = seconds;
    },
    now: () => time,
    actors<N extends string>(...names: N[]): Record<N, string> {
      const b = block(...names.map((n) => [op.accountCreate(n)]));
      const ids = b.transactions.map((trx) => (trx.operation_results as [number, string][])[0]![1]);
      return Object.fromEntries(names.map((n, i) => [n, ids[i]!])) as Record<N, string>;
    },
    fund(amount, ...accounts) {
      block(...accounts.map((a) => [op.transfer(NATHAN, a, amount)]));
    },
    obj,
    balance,
    blockOps,
    fills: (blockNum) =>
      blockOps(blockNum)
        .filter((o) => o.op[0] === 4)
        .map((o) => {
          const f = o.op[1];
          return [f.order_id, f.account_id, Number(f.pays.amount), Number(f.receives.amount), Number(f.fee.amount), f.is_maker];
        }),
  };
}
