// The `generate` command: opens a new store, runs the generator with a progress bar, prints a summary.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { BUNDLED_GENESIS, loadGenesis } from '../chain/node/genesis.js';
import { openChainStore } from '../chain/store/store.js';
import { initChain } from '../chain/node/block-applier.js';
import { generateChain } from './generate.js';
import { privateKeyFromWif } from '../chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from '../chain/crypto/dev-key.js';

function dirSize(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    total += st.isDirectory() ? dirSize(p) : st.size;
  }
  return total;
}

export async function runGenerate(opts: { dataDir: string; accounts: number; operations: number; seed: number; orders?: number; genesisJson?: string; progress?: boolean }): Promise<string> {
  if (opts.accounts < 6) throw new Error('--accounts must be at least 6 (5 exchanges and a user)');
  if (existsSync(path.join(opts.dataDir, 'chain'))) throw new Error(`${opts.dataDir} already holds a chain store; generate writes a new one`);
  const { genesis, chainId } = loadGenesis(opts.genesisJson ?? BUNDLED_GENESIS);
  const started = Date.now();
  // Blocks are committed without fsync (the chain can be generated again); one synced commit at the
  // end makes everything durable.
  const store = openChainStore(opts.dataDir, { noSync: true });
  initChain(store, genesis, chainId);
  const bar = new cliProgress.SingleBar(
    { format: 'generate [{bar}] {percentage}% | {value}/{total} ops | {rate} ops/s | ETA {eta_formatted}', noTTYOutput: true, notTTYSchedule: 5000, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  const showBar = opts.progress ?? true;
  if (showBar) bar.start(1, 0, { rate: 0 });
  let summary;
  try {
    summary = await generateChain(store, {
      accounts: opts.accounts,
      operations: opts.operations,
      seed: opts.seed,
      orders: opts.orders ?? 0,
      onProgress: (done, total) => {
        if (!showBar) return;
        const secs = (Date.now() - started) / 1000;
        bar.setTotal(total);
        bar.update(done, { rate: Math.round(done / Math.max(secs, 0.001)) });
      },
    }, privateKeyFromWif(DEV_BLOCK_SIGNING_WIF));
  } finally {
    if (showBar) bar.stop();
    await store.close();
  }
  // With how long it took until now, so that a report on this chain (the bench's) can say how fast
  // it was made; the synced commit that makes it durable is this write itself, so it is not counted.
  const generated = { ...summary, seed: opts.seed, seconds: (Date.now() - started) / 1000 };
  const synced = openChainStore(opts.dataDir);
  synced.root.transactionSync(() => synced.meta.putSync('generated', JSON.stringify(generated)));
  await synced.close();
  const secs = (Date.now() - started) / 1000;
  const size = dirSize(opts.dataDir);
  return [
    `accounts:    ${summary.accounts} (busiest: ${summary.busiestAccount} with ${summary.busiestAccountOps} operations)`,
    `operations:  ${summary.operations} (${summary.transfers} transfers)`,
    ...(summary.orders > 0 ? [`orders:      ${summary.orders} (${summary.trades} trades)`] : []),
    `blocks:      ${summary.blocks}`,
    `store size:  ${(size / 1024 / 1024).toFixed(1)} MiB in ${path.resolve(opts.dataDir)}`,
    `time:        ${secs.toFixed(1)} s (${Math.round(summary.operations / secs)} operations/s)`,
  ].join('\n');
}
