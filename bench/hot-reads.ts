// Micro-benchmark of the hot reads, measured inside a worker thread exactly as the pool runs them:
// the handler reads LMDB and writes the finished reply bytes. Prints the per-call cost and writes
// JSON to bench/results/ (or --out DIR).
//
//   node dist/bench/hot-reads.js [--data-dir DIR] [--iterations N] [--out DIR]
//
// Without --data-dir it uses bench/data/chain-default, generating it first if missing as the capacity
// benchmark does (100,000 accounts, 2,000,000 transfers, 20,000 limit orders: a few minutes).
import { Worker } from 'node:worker_threads';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runGenerate } from '../src/generate/command.js';
import { upgradeDataDir } from '../src/chain/node/block-applier.js';
import { benchDefault } from './options.js';

export interface ReadResult {
  name: string;
  calls: number;
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  maxUs: number;
  replyBytes: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      iterations: { type: 'string', default: '20000' },
      out: { type: 'string', default: path.join(root, 'bench/results') },
    },
  });
  const dataDir = values['data-dir'] ?? path.join(root, 'bench/data/chain-default');
  if (!existsSync(path.join(dataDir, 'chain'))) {
    // The same chain as the capacity benchmark's full run generates there (bench/options.ts), so
    // that either command can reuse what the other made.
    const size = { accounts: Number(benchDefault('accounts', 'full')), operations: Number(benchDefault('operations', 'full')), orders: Number(benchDefault('orders', 'full')) };
    process.stderr.write(`generating ${dataDir} (${size.accounts} accounts, ${size.operations} transfers, ${size.orders} limit orders)…\n`);
    process.stderr.write(`${await runGenerate({ dataDir, ...size, seed: 1 })}\n`);
  }
  // The worker opens the store read-only, as the node's workers do; a chain made by an older version
  // gets its indexes first.
  if (await upgradeDataDir(dataDir)) process.stderr.write(`upgraded ${dataDir} to the current store schema\n`);
  const iterations = Number(values.iterations);
  const worker = new Worker(new URL('./hot-reads-worker.js', import.meta.url), { workerData: { dataDir, iterations } });
  const results = await new Promise<ReadResult[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const rows = results.map((r) => ({ call: r.name, calls: r.calls, 'mean µs': r.meanUs.toFixed(1), 'p50 µs': r.p50Us, 'p90 µs': r.p90Us, 'p99 µs': r.p99Us, 'reply bytes': r.replyBytes }));
  console.table(rows);
  mkdirSync(values.out!, { recursive: true });
  const file = path.join(values.out!, `hot-reads-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ bench: 'hot-reads', dataDir, iterations, node: process.version, results }, null, 2));
  process.stderr.write(`wrote ${file}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`hot-reads: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
