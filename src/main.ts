// The composition root: the only module that wires every layer together.
//   config → access policy → chain store (genesis) → chain writer → worker pool → call pipeline → connections → uWS server
// With --processes N > 1 (or --serving-threads N > 1) the line splits after the chain writer: this
// process (the writer) keeps the store's writable handle and the writer, and N serving processes
// (runServingProcess) or threads of this process (runServingThread) each run the rest over the store
// opened read-only, with the writer reached over IPC or a MessagePort (src/processes/).
// The metrics are wired with each front end (src/startup/front-end.ts): each part counts what it owns
// into them, and they read the rest (connections, the pool's queue, the head block) from the parts when scraped.
// Shutdown runs the other way: stop listening, end sessions, drain the pool, close the store.
//
// Each step is a module of src/startup/: credentials.ts (access file, TLS certificate, signing key),
// options.ts (the options in force and their reload), writable-store.ts, local-writer.ts (which chain
// writer), front-end.ts (one front end), serve.ts (in this process or in serving processes) and
// serve-for-writer.ts (a serving process or thread). This file only puts them in order.

import type { Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import type { BlockProducer } from './chain/node/producer.js';
import { addressPrefix, setAddressPrefix } from './chain/crypto/public-key.js';
import { lockDataDir } from './data-dir-lock.js';
import type { ServingFrontEnds } from './processes/serving-processes.js';
import { checkedPem, loadPolicy, type AccessReload } from './startup/credentials.js';
import { runningOptions } from './startup/options.js';
import { openWritableStore } from './startup/writable-store.js';
import { openLocalWriter, type LocalWriter } from './startup/local-writer.js';
import { serveInFrontEnds, serveInThisProcess } from './startup/serve.js';

export interface RunningNode {
  readonly port: number;
  /** the --rpc-tls-endpoint port, when TLS is served */
  readonly tlsPort: number | undefined;
  /** the block producer; none on a follower (--follow) */
  readonly producer: BlockProducer | undefined;
  /** bytes held now for slow readers (WebSocket queues and unsent HTTP replies) */
  readonly bufferedBytes: () => number;
  readonly chainId: string;
  /**
   * Re-reads the access file (SIGHUP, or the file changed on disk). A valid file replaces the rules
   * at once for new logins, and for open sessions at their next accessor call (login-flow.ts
   * allowedNow); they keep the IDs they hold. An invalid one is refused, logged, and the rules in
   * force stay.
   */
  reloadAccess(): AccessReload;
  /**
   * Takes the options as they are now (SIGHUP: the config files and the command line read again).
   * Those in RELOADABLE_OPTIONS take effect at once; any other that differs from the running value
   * is named in `needRestart` (and logged) and keeps its running value.
   */
  reloadOptions(next: Config): { readonly applied: readonly string[]; readonly needRestart: readonly string[] };
  readonly log: Logger;
  /** --processes N > 1: the serving processes this (writer) process runs */
  readonly servingProcesses?: ServingFrontEnds;
  /** --serving-threads N > 1: the serving threads this (writer) process runs */
  readonly servingThreads?: ServingFrontEnds;
  close(): Promise<void>;
  /**
   * Ends serving at once, without a drain, before the process exits on a second signal: serving
   * threads close their sockets (a process that exits while one of its threads holds uWS sockets
   * aborts). Nothing to do without serving threads.
   */
  halt(): Promise<void>;
}

/** Nodes running in this process: the key prefix is one per thread (public-key.ts), so they must share it. */
let nodesRunning = 0;

export async function startNode(config: Config, log: Logger = createLogger(config.logLevel, {}, config.logFormat)): Promise<RunningNode> {
  if (nodesRunning > 0 && addressPrefix() !== config.addressPrefix) {
    throw new Error(`a node with the key prefix ${addressPrefix()} runs in this process; one with --address-prefix ${config.addressPrefix} needs a process of its own`);
  }
  setAddressPrefix(config.addressPrefix);
  // One node per data directory, held from before the store opens until after it closes.
  const release = lockDataDir(config.dataDir);
  let node: RunningNode;
  try {
    node = await startLocked(config, log);
  } catch (err) {
    release();
    throw err;
  }
  nodesRunning++;
  const close = node.close.bind(node);
  let closed: Promise<void> | undefined;
  return Object.assign(node, {
    close: () =>
      (closed ??= close().finally(() => {
        nodesRunning--;
        release();
      })),
  });
}

async function startLocked(config: Config, log: Logger): Promise<RunningNode> {
  const options = runningOptions(config, log);
  // Everything that can refuse to start does so before anything listens: serving processes read
  // the access file and the certificate again, and would refuse them the same way.
  const policy = loadPolicy(config, log, 'using');
  const pem = checkedPem(config, log);
  const { store, chainId } = openWritableStore(config, log);
  let local: LocalWriter;
  try {
    local = await openLocalWriter(config, store, chainId, options, log);
  } catch (err) {
    await store.close();
    throw err;
  }
  // A follower starts before anything listens: an upstream that serves another chain refuses the
  // start. A producer starts once clients can be served, and makes its first block then.
  /** Runs one start-up step; when it fails, the writer stops and the store closes before the error goes on. */
  const orUnwind = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (err) {
      await local.stop();
      await store.close();
      throw err;
    }
  };
  if (config.follow) await orUnwind(() => local.start());
  const startProducing = async () => {
    if (!config.follow) await local.start();
  };
  const from = { config, log, options, policy, pem, store, local, orUnwind, startProducing };
  const { front, reloadOptions, halt, ...served } =
    config.processes > 1 ? await serveInFrontEnds(from, 'processes') : config.servingThreads > 1 ? await serveInFrontEnds(from, 'threads') : await serveInThisProcess(from);
  /**
   * The node's close, once however often it is called: no block after the one being written
   * (production stops between blocks, a block is written whole or not at all, as witness_node's does
   * on shutdown), then the front ends drain and stop, then the store closes.
   */
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await local.stop();
      await front.close();
      await store.close();
      log.info('stopped');
    })());
  return {
    ...served,
    producer: local.producer,
    chainId,
    log,
    reloadOptions(next: Config) {
      const result = options.reload(next);
      reloadOptions?.(next);
      return result;
    },
    close,
    halt: halt ?? (() => Promise.resolve()),
  };
}
