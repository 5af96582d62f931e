// Builds a real chain store for a test through the chain writer (the same path live blocks and
// `graphene-rpc generate` take), then serves it with a real node.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChainStore, type ChainStore } from '../../src/chain/store/store.js';
import { BUNDLED_GENESIS, loadGenesis } from '../../src/chain/node/genesis.js';
import { applyBlock, initChain, type AppliedBlock, type SignedTransactionJson } from '../../src/chain/node/block-applier.js';
import type { OperationJson } from '../../src/chain/evaluators/evaluators.js';
import { parseFcTime, fcTime } from '../../src/chain/fc/fc-json.js';
import { privateKeyFromWif } from '../../src/chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF, DEV_PUBLIC_KEY } from '../../src/chain/crypto/dev-key.js';
import { accountCreateOp, assetCreateOp, assetIssueOp, customOp, limitOrderCancelOp, limitOrderCreateOp, transferOp } from '../../src/chain/protocol/operation-builders.js';
import { startTestNode, type TestNode } from './node.js';

/** Graphene's well-known development key: nathan's keys and the devnet's block signing key. */
export const DEV_WIF = DEV_BLOCK_SIGNING_WIF;
export const DEV_PUB = DEV_PUBLIC_KEY;

export interface TestChain {
  readonly dataDir: string;
  readonly store: ChainStore;
  readonly chainId: string;
  /** Applies one block; each argument is one transaction's operations. */
  block(...transactions: OperationJson[][]): AppliedBlock;
  /** Closes the writer's store and starts a node on it. */
  serve(options?: Record<string, string>): Promise<TestNode>;
}

export function makeChain(t: ExecutionContext): TestChain {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-chain-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = openChainStore(dataDir);
  const { genesis, chainId } = loadGenesis(BUNDLED_GENESIS);
  initChain(store, genesis, chainId);
  const key = privateKeyFromWif(DEV_WIF);
  let time = parseFcTime(genesis.initial_timestamp);
  let closed = false;
  return {
    dataDir,
    store,
    chainId,
    block(...transactions) {
      time += 3;
      const txs: SignedTransactionJson[] = transactions.map((operations) => ({
        ref_block_num: 0,
        ref_block_prefix: 0,
        expiration: fcTime(time + 60),
        operations,
        extensions: [],
        signatures: [],
      }));
      return applyBlock(store, { timestamp: time, transactions: txs }, key);
    },
    async serve(options = {}) {
      if (!closed) {
        closed = true;
        await store.close();
      }
      return startTestNode(t, { ...options, 'data-dir': dataDir });
    },
  };
}

/** Operation builders with the fields in Core's reflection order (src/chain/protocol/operation-builders.ts). */
export const op = {
  transfer: (from: string, to: string, amount: number | string, assetId = '1.3.0', memo?: Record<string, unknown>): OperationJson => transferOp(from, to, amount, assetId, memo),
  accountCreate: (name: string, key = DEV_PUB, registrar = '1.2.6'): OperationJson => accountCreateOp(name, key, registrar),
  assetCreate: (symbol: string, issuer = '1.2.6', precision = 4, maxSupply: string | number = '1000000000000000'): OperationJson => assetCreateOp(symbol, issuer, { precision, maxSupply }),
  assetIssue: (assetId: string, to: string, amount: number | string, issuer = '1.2.6'): OperationJson => assetIssueOp(issuer, assetId, to, amount),
  /** seller sells `sell` [amount, asset id] for at least `receive` [amount, asset id] */
  limitOrderCreate: (seller: string, sell: [number | string, string], receive: [number | string, string], o: { expiration?: string; fillOrKill?: boolean } = {}): OperationJson =>
    limitOrderCreateOp(seller, sell[0], sell[1], receive[0], receive[1], o),
  limitOrderCancel: (seller: string, order: string): OperationJson => limitOrderCancelOp(seller, order),
  /** custom (35) carrying `data` (hex) */
  custom: (payer: string, data: string, o: { requiredAuths?: string[]; id?: number } = {}): OperationJson => customOp(payer, data, o),
};
