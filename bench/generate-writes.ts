// Where `generate`'s time in the store goes, and what bounds it: generates a chain with every read
// and write of the store counted and timed by table, then times LMDB puts alone on this machine
// (appends, and keys at random accounts, into a tree of the size the chain's history indexes reach),
// so that the floor the store puts under `generate`'s speed can be read off (README "A synthetic
// chain"). Prints both tables and writes them as JSON to bench/results/ (or --out DIR).
//
//   node dist/bench/generate-writes.js [--accounts N] [--operations M] [--out DIR]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { open } from 'lmdb';
import { BUNDLED_GENESIS, loadGenesis } from '../src/chain/node/genesis.js';
import { openChainStore, type ChainStore } from '../src/chain/store/store.js';
import { initChain } from '../src/chain/node/block-applier.js';
import { generateChain } from '../src/generate/generate.js';
import { privateKeyFromWif } from '../src/chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from '../src/chain/crypto/dev-key.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The store's calls that reach LMDB, by table and method: how many, and their time. */
type Tally = Map<string, { calls: number; ns: bigint }>;

const COUNTED = ['putSync', 'removeSync', 'get', 'getBinaryFast', 'doesExist'] as const;

/**
 * Wraps each table's calls so that they are counted and timed. lmdb-js' `get` calls the table's own
 * `getBinaryFast`, so only the outermost call of a nest is counted.
 */
function countCalls(store: ChainStore, tally: Tally): void {
  let depth = 0;
  for (const [table, db] of Object.entries(store)) {
    if (table === 'root' || typeof db !== 'object' || db === null || typeof (db as { putSync?: unknown }).putSync !== 'function') continue;
    const methods = db as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of COUNTED) {
      const inner = methods[method]!.bind(db);
      const row = { calls: 0, ns: 0n };
      tally.set(`${table}.${method}`, row);
      methods[method] = (...args: unknown[]) => {
        if (depth > 0) return inner(...args);
        depth++;
        const t = process.hrtime.bigint();
        try {
          return inner(...args);
        } finally {
          row.ns += process.hrtime.bigint() - t;
          row.calls++;
          depth--;
        }
      };
    }
  }
}

/** µs a put, commit included, for `txns` write transactions of `perTxn` puts from `keyOf`. */
function timePuts(dir: string, fill: number, perTxn: number, txns: number, keyOf: (i: number) => [number, number]): number {
  rmSync(dir, { recursive: true, force: true });
  const env = open({ path: dir, mapSize: 16 * 1024 ** 3, maxDbs: 2, noSync: true, cache: false });
  const db = env.openDB<number, [number, number]>({ name: 't', encoding: 'ordered-binary' });
  let i = 0;
  // The tree first, as large as the chain's history index.
  while (i < fill) env.transactionSync(() => { for (const end = Math.min(fill, i + 100_000); i < end; i++) db.putSync(keyOf(i), i); });
  const t = process.hrtime.bigint();
  for (let n = 0; n < txns; n++) env.transactionSync(() => { for (const end = i + perTxn; i < end; i++) db.putSync(keyOf(i), i); });
  const us = Number(process.hrtime.bigint() - t) / 1000 / (perTxn * txns);
  void env.close();
  return us;
}

async function main() {
  const { values } = parseArgs({
    options: {
      accounts: { type: 'string', default: '50000' },
      operations: { type: 'string', default: '300000' },
      out: { type: 'string', default: path.join(root, 'bench/results') },
    },
  });
  const accounts = Number(values.accounts);
  const operations = Number(values.operations);
  const work = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-writes-'));
  try {
    const { genesis, chainId } = loadGenesis(BUNDLED_GENESIS);
    const store = openChainStore(path.join(work, 'chain'), { noSync: true });
    initChain(store, genesis, chainId);
    const tally: Tally = new Map();
    countCalls(store, tally);
    process.stderr.write(`generating ${accounts} accounts and ${operations} transfers with the store's calls counted…\n`);
    const started = process.hrtime.bigint();
    const summary = await generateChain(store, { accounts, operations, seed: 1 }, privateKeyFromWif(DEV_BLOCK_SIGNING_WIF));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await store.close();
    const ops = summary.operations;
    const rows = [...tally].filter(([, r]) => r.calls > 0).sort((a, b) => Number(b[1].ns - a[1].ns));
    const storeNs = rows.reduce((n, [, r]) => n + r.ns, 0n);
    console.log(`${ops} operations in ${seconds.toFixed(1)} s (${Math.round(ops / seconds)} operations/s, counting slows it); the store's calls ${(Number(storeNs) / 1e3 / ops).toFixed(1)} µs an operation of ${(seconds * 1e6 / ops).toFixed(1)}`);
    const puts = rows.filter(([k]) => k.endsWith('.putSync')).reduce((n, [, r]) => n + r.calls, 0);
    console.log(`puts: ${(puts / ops).toFixed(2)} an operation`);
    const calls = rows.map(([call, r]) => ({ call, 'per operation': +(r.calls / ops).toFixed(2), 'µs a call': +(Number(r.ns) / 1e3 / r.calls).toFixed(2), 'µs an operation': +(Number(r.ns) / 1e3 / ops).toFixed(2) }));
    console.table(calls.slice(0, 20));

    // The history indexes' tree: two entries an operation (sender and receiver), keyed [account, n].
    const fill = 2 * ops;
    const dir = path.join(work, 'puts');
    const perTxn = 16_000;
    const random = (i: number): [number, number] => [(i * 7919) % accounts, i];
    const floor = [
      { keys: 'appended (each after the last)', 'µs a put': timePuts(dir, fill, perTxn, 10, (i) => [0, i]) },
      { keys: `at random accounts of ${accounts}`, 'µs a put': timePuts(dir, fill, perTxn, 10, random) },
    ].map((r) => ({ ...r, 'µs a put': +r['µs a put'].toFixed(2) }));
    console.log(`LMDB puts alone, ${perTxn} a write transaction (commit included), into a tree of ${fill} entries:`);
    console.table(floor);

    mkdirSync(values.out!, { recursive: true });
    const file = path.join(values.out!, `generate-writes-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ accounts, operations, generated: ops, seconds, putsPerOperation: puts / ops, calls, floor, node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model }, null, 2));
    process.stderr.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
