// The chain store of the process that writes it: opened writable, with reader slots for every
// process and thread that will read it, checked against the key prefix, and made from the genesis
// when new.
import path from 'node:path';
import { frontEnds, type Config } from '../config.js';
import type { Logger } from '../log.js';
import { openChainStore, type ChainStore } from '../chain/store/store.js';
import { BUNDLED_GENESIS, loadGenesis } from '../chain/node/genesis.js';
import { checkAddressPrefix, initChain } from '../chain/node/block-applier.js';

/** The chain store of a writer: opened writable, upgraded and made from the genesis when new. */
export function openWritableStore(config: Config, log: Logger): { store: ChainStore; chainId: string } {
  // Its reader table is sized here, by the first process that opens it (LMDB keeps the size the
  // lock file was made with): every serving process' workers and front end read it too.
  const store = openChainStore(config.dataDir, { maxReaders: readerSlots(config) });
  try {
    // A store with keys of another prefix is refused first: its genesis would not even read.
    checkAddressPrefix(store, config.addressPrefix);
    const { genesis, chainId: genesisChainId } = loadGenesis(config.genesisJson ?? BUNDLED_GENESIS);
    const init = initChain(store, genesis, genesisChainId);
    log.info({ chainId: init.chainId, dataDir: path.resolve(config.dataDir), created: init.created }, init.created ? 'created chain store from genesis' : 'opened chain store');
    return { store, chainId: init.chainId };
  } catch (err) {
    void store.close();
    throw err;
  }
}

const MIN_READER_SLOTS = 512;

/**
 * LMDB reader slots the node needs: each process that opens the store takes one per thread that reads
 * (lmdb-js keeps a read transaction per thread): per front end (serving process or serving thread)
 * its workers, its front-end thread and a spare for a worker being replaced, plus the writer's own;
 * with room to spare for readers of a process or thread that died and whose slots LMDB has not
 * reclaimed yet. Never fewer than MIN_READER_SLOTS, what a single-process node always had.
 */
export function readerSlots(config: Pick<Config, 'processes' | 'workers'> & Partial<Pick<Config, 'servingThreads'>>): number {
  const perFrontEnd = config.workers + 2;
  return Math.max(MIN_READER_SLOTS, 2 * (frontEnds({ servingThreads: 1, ...config }) * perFrontEnd + 2));
}
