// Micro-benchmark of the write path's admission: what accepting one more transaction into the
// pending pool costs (validation, then the producer's dry run against everything already pending),
// with 10, 100 and 1000 transactions pending. Prints a table and writes JSON to bench/results/ (or
// --out DIR).
//
//   node dist/bench/pending-pool.js [--sizes 10,100,1000] [--samples N] [--label TEXT] [--out DIR]
//
// Each size starts from a fresh devnet store (bundled genesis, in a temporary directory); nathan
// signs transfers to the special accounts, all signed before the clock starts. The figure is the
// mean push() time of `samples` transactions accepted once `size` are pending.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { openChainStore } from '../src/chain/store/store.js';
import { initChain } from '../src/chain/node/block-applier.js';
import { BUNDLED_GENESIS, loadGenesis } from '../src/chain/node/genesis.js';
import { BlockProducer } from '../src/chain/node/producer.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from '../src/chain/crypto/dev-key.js';
import { transferOp } from '../src/chain/protocol/operation-builders.js';
import { buildTransaction, headOf, signTransaction } from '../src/chain/protocol/transaction-builder.js';
import type { FeeSchedule } from '../src/chain/protocol/fees.js';
import type { SignedTransactionJson } from '../src/chain/protocol/types.js';
import { createLogger } from '../src/log.js';

export interface PendingPoolResult {
  pending: number;
  samples: number;
  meanMs: number;
  p50Ms: number;
  maxMs: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const round = (ms: number) => Math.round(ms * 1000) / 1000;

function measure(pending: number, samples: number): PendingPoolResult {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-pending-'));
  const store = openChainStore(dir, { noSync: true });
  try {
    const { genesis, chainId } = loadGenesis(BUNDLED_GENESIS);
    initChain(store, genesis, chainId);
    const key = privateKeyFromWif(DEV_BLOCK_SIGNING_WIF);
    const dgp = JSON.parse(store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; head_block_id: string; time: string };
    const gp = JSON.parse(store.objects.get([2, 0, 0])!.toString('utf8')) as { parameters: { current_fees: FeeSchedule } };
    const trxs: SignedTransactionJson[] = [];
    for (let i = 0; i < pending + samples; i++) {
      // Distinct amounts make distinct transactions; the six special accounts share the credits.
      const op = transferOp('1.2.6', `1.2.${i % 6}`, 1 + i);
      trxs.push(signTransaction(chainId, buildTransaction(headOf(dgp), [op], { expiresIn: 3600, fees: gp.parameters.current_fees }), [key]));
    }
    const producer = new BlockProducer(store, key, 0, createLogger('silent'));
    for (const t of trxs.slice(0, pending)) producer.push(t);
    const times: number[] = [];
    for (const t of trxs.slice(pending)) {
      const t0 = performance.now();
      producer.push(t);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return {
      pending,
      samples,
      meanMs: round(times.reduce((a, b) => a + b, 0) / times.length),
      p50Ms: round(times[Math.floor(times.length / 2)]!),
      maxMs: round(times[times.length - 1]!),
    };
  } finally {
    void store.close().then(() => rmSync(dir, { recursive: true, force: true }));
  }
}

function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10,100,1000' },
      samples: { type: 'string', default: '200' },
      label: { type: 'string', default: '' },
      out: { type: 'string', default: path.join(root, 'bench/results') },
    },
  });
  const sizes = values.sizes!.split(',').map(Number);
  const samples = Number(values.samples);
  if (sizes.some((n) => !Number.isInteger(n) || n < 0) || !(samples > 0)) throw new Error('--sizes expects non-negative integers and --samples a positive number');
  // One small round first, so that the first size is not the one that pays for the JIT.
  measure(10, samples);
  const results = sizes.map((n) => measure(n, samples));
  console.table(results.map((r) => ({ pending: r.pending, samples: r.samples, 'mean ms per accepted trx': r.meanMs, 'p50 ms': r.p50Ms, 'max ms': r.maxMs })));
  mkdirSync(values.out!, { recursive: true });
  const file = path.join(values.out!, `pending-pool-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ bench: 'pending-pool', label: values.label, node: process.version, results }, null, 2));
  process.stderr.write(`wrote ${file}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`pending-pool: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
}
