// Which chain writer a node runs, chosen here and only here: a follower of another node (--follow)
// or the block producer of a devnet node, signing with --private-key.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { ChainStore } from '../chain/store/store.js';
import type { ChainWriter } from '../chain/node/chain-writer.js';
import { BlockProducer } from '../chain/node/producer.js';
import { publicKeyOf } from '../chain/crypto/keys.js';
import { idInstance } from '../chain/fc/object-id.js';
import { Follower } from '../follow/follower.js';
import type { WriterState } from '../processes/messages.js';
import { blockSigningKey } from './credentials.js';
import type { RunningOptions } from './options.js';

/**
 * The chain's one writer, in the process that holds the store's writable handle. Which writer a node
 * runs is decided here and only here: the block producer of a devnet node. The front end, in this
 * process or in serving processes (--processes), sees it only as a ChainWriter.
 */
export interface LocalWriter {
  readonly writer: ChainWriter;
  /** the block producer; none on a follower */
  readonly producer: BlockProducer | undefined;
  /** what /ready and /metrics say of block writing */
  readonly state: () => WriterState;
  /** calls `listener` when the state changes */
  onState(listener: () => void): void;
  readonly log: Logger;
  /** Starts writing: production on the interval, or following (which refuses an upstream of another chain). */
  start(): Promise<void>;
  /** No block after the one being written (shutdown). */
  stop(): Promise<void>;
}

export async function openLocalWriter(config: Config, store: ChainStore, chainId: string, options: RunningOptions, log: Logger): Promise<LocalWriter> {
  if (config.follow) {
    // A follower of another node (README "Followers"): its blocks, applied here; broadcasts go there.
    const followLog = log.child({ component: 'follower' });
    options.loggers.push(followLog);
    const o = { url: config.follow, maxLagBlocks: config.followMaxLagBlocks, blocksInFlight: config.followBlocksInFlight, maxFrameBytes: config.followMaxFrameBytes, retryMaxMs: config.followRetryMaxMs };
    const follower = new Follower(store, chainId, { ...o, plugins: { customOperations: config.customOperationsPlugin } }, followLog);
    const listeners: (() => void)[] = [];
    let timer: NodeJS.Timeout | undefined;
    return {
      writer: follower.asWriter(),
      producer: undefined,
      state: () => ({ blockWriteFailure: undefined, following: follower.notReady(), follow: follower.status() }),
      onState: (listener) => {
        // Lag and connection change with each block and each attempt to reach the upstream: serving
        // processes hear of them with every block and at least once a second.
        listeners.push(listener);
        if (listeners.length === 1) {
          follower.on('block', () => listeners.forEach((l) => l()));
          timer = setInterval(() => listeners.forEach((l) => l()), 1000).unref();
        }
      },
      log: followLog,
      start: () => follower.start(),
      stop: async () => {
        if (timer) clearInterval(timer);
        await follower.stop();
      },
    };
  }
  const signingKey = blockSigningKey(config.privateKey);
  // The producer signs as the witness the dynamic global properties name (the first active one).
  const witnessId = (JSON.parse(store.objects.get([2, 1, 0])!.toString('utf8')) as { current_witness: string }).current_witness;
  const witnessKey = (JSON.parse(store.objects.get([1, 6, idInstance(witnessId)])!.toString('utf8')) as { signing_key: string }).signing_key;
  if (publicKeyOf(signingKey) !== witnessKey) {
    throw new Error(`--private-key signs as ${publicKeyOf(signingKey)}, but the chain's witness ${witnessId} expects blocks signed by ${witnessKey}`);
  }
  const producerLog = log.child({ component: 'producer' });
  options.loggers.push(producerLog);
  // The free-space bound is read at each block, so a reload applies to the next one.
  const producer = new BlockProducer(store, signingKey, config.blockInterval, producerLog, { dataDir: config.dataDir, minFreeBytes: () => options.current.minFreeDiskBytes }, { customOperations: config.customOperationsPlugin });
  return {
    writer: producer.asWriter(),
    producer,
    state: () => ({ blockWriteFailure: producer.blockWriteFailure }),
    onState: (listener) => void producer.on('blockWriteFailure', () => listener()),
    log: producerLog,
    start: async () => producer.start(),
    stop: async () => producer.stop(),
  };
}
