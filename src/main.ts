// The composition root: the only module that wires every layer together.
//   config → access policy → chain store (genesis) → worker pool → call pipeline → connections → uWS server
// The metrics are wired here too: each part counts what it owns into them, and they read the rest
// (connections, the pool's queue, the head block) from the parts when scraped.
// Shutdown runs the other way: stop listening, end sessions, drain the pool, close the store.

import path from 'node:path';
import { OPTIONS, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { defaultAccessPolicy, loadAccessFile, type AccessPolicy } from './access.js';
import { BUNDLED_GENESIS, loadGenesis } from './chain/genesis.js';
import { openChainStore } from './chain/store.js';
import { checkAddressPrefix, initChain } from './chain/writer.js';
import { openPool, type CallPool } from './pool/pool.js';
import { chainLookups } from './pool/lookups.js';
import { fairScheduler, type Scheduler } from './pool/scheduler.js';
import { checkRegistry } from './api/registry.js';
import { BlockProducer } from './chain/producer.js';
import { Follower } from './follow/follower.js';
import { privateKeyFromWif, publicKeyOf } from './chain/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from './chain/dev-key.js';
import { addressPrefix, setAddressPrefix } from './chain/public-key.js';
import { Confirmations } from './handlers/confirmations.js';
import { FRONT_HANDLERS } from './handlers/index.js';
import type { Services } from './handlers/types.js';
import { UserSessions, type LoginServices } from './handlers/login-flow.js';
import { loginThrottle } from './handlers/login-throttle.js';
import { SubscriptionHub } from './subscriptions/hub.js';
import { TransferFeed } from './subscriptions/transfer-feed.js';
import { buildPipeline } from './pipeline/pipeline.js';
import { connections } from './pipeline/connection.js';
import { startServer, type RpcServer } from './transport/server.js';
import { bufferedBytes } from './transport/buffered-bytes.js';
import { readiness } from './readiness.js';
import { lockDataDir } from './data-dir-lock.js';
import { watchAccessFile } from './access-watch.js';
import { loadServerPem } from './transport/tls.js';
import { parseFcTime } from './chain/fc-json.js';
import { nodeMetrics, type BackpressureLimit } from './metrics/node-metrics.js';
import type { LimitName } from './metrics/calls.js';
import { idInstance } from './chain/object-id.js';
import { RPC, limitError } from './errors.js';

/** Reads the access file (or Core's default policy without one), and says what it holds. */
function loadPolicy(config: Config, log: Logger, what: 'using' | 'reloaded'): AccessPolicy {
  if (!config.apiAccess) {
    log.info('no api-access file: every user gets the public API sets');
    return defaultAccessPolicy();
  }
  const policy = loadAccessFile(config.apiAccess);
  log.info({ file: path.resolve(config.apiAccess), users: policy.users.size }, what === 'using' ? 'using api-access file' : 'api-access file reloaded');
  if (policy.unknownApiNames.length > 0) log.warn({ names: policy.unknownApiNames }, 'api-access file names API sets this node does not have; they grant nothing');
  return policy;
}

/** `--private-key`: the JSON pair ["public key", "WIF"] witness_node takes; the public key must match. Null: the development key. */
function blockSigningKey(text: string | null): Uint8Array {
  if (text === null) return privateKeyFromWif(DEV_BLOCK_SIGNING_WIF);
  let pair: unknown;
  try {
    pair = JSON.parse(text);
  } catch {
    throw new Error(`--private-key must be a JSON pair ["public key","WIF private key"], got ${text}`);
  }
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
    throw new Error('--private-key must be a JSON pair ["public key","WIF private key"]');
  }
  const key = privateKeyFromWif(pair[1]);
  if (publicKeyOf(key) !== pair[0]) throw new Error(`--private-key: the WIF key's public key is ${publicKeyOf(key)}, not ${pair[0]}`);
  return key;
}

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
  reloadAccess(): { readonly ok: true; readonly users: number } | { readonly ok: false; readonly error: string };
  /**
   * Takes the options as they are now (SIGHUP: the config files and the command line read again).
   * Those in RELOADABLE_OPTIONS take effect at once; any other that differs from the running value
   * is named in `needRestart` (and logged) and keeps its running value.
   */
  reloadOptions(next: Config): { readonly applied: readonly string[]; readonly needRestart: readonly string[] };
  readonly log: Logger;
  close(): Promise<void>;
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
  // The configuration in force: what start-up read, with what reloads (SIGHUP) have applied. The
  // parts that read a reloadable option at each use are given `live`, which always shows it.
  let running: Config = config;
  const live = liveConfig(() => running);
  // Everything that can refuse to start does so before anything listens.
  const policy = loadPolicy(config, log, 'using');
  // witness_node reads --server-pem only with --rpc-tls-endpoint; say so rather than ignore it in silence.
  if (config.serverPem && !config.rpcTlsEndpoint) log.warn({ file: config.serverPem }, '--server-pem is set but --rpc-tls-endpoint is not: TLS is not served');
  const pem = config.rpcTlsEndpoint && config.serverPem ? loadServerPem(config.serverPem, config.serverPemPassword) : undefined;
  if (pem) {
    log.info({ file: pem.file, subject: pem.subject, validTo: new Date(pem.validTo).toISOString() }, 'TLS certificate');
    if (pem.validTo < Date.now()) log.warn({ file: pem.file, validTo: new Date(pem.validTo).toISOString() }, 'the --server-pem certificate has expired: clients will refuse it');
  }

  const store = openChainStore(config.dataDir);
  let chainId: string;
  try {
    // A store with keys of another prefix is refused first: its genesis would not even read.
    checkAddressPrefix(store, config.addressPrefix);
    const { genesis, chainId: genesisChainId } = loadGenesis(config.genesisJson ?? BUNDLED_GENESIS);
    const init = initChain(store, genesis, genesisChainId);
    chainId = init.chainId;
    log.info({ chainId, dataDir: path.resolve(config.dataDir), created: init.created }, init.created ? 'created chain store from genesis' : 'opened chain store');
  } catch (err) {
    await store.close();
    throw err;
  }

  // The chain's one writer: this node's block producer, or a follower of another node (--follow).
  let producer: BlockProducer | undefined;
  let follower: Follower | undefined;
  const producerLog = log.child({ component: config.follow ? 'follower' : 'producer' });
  if (config.follow) {
    const o = { url: config.follow, maxLagBlocks: config.followMaxLagBlocks, blocksInFlight: config.followBlocksInFlight, maxFrameBytes: config.followMaxFrameBytes, retryMaxMs: config.followRetryMaxMs };
    follower = new Follower(store, chainId, { ...o, plugins: { customOperations: config.customOperationsPlugin } }, producerLog);
  } else {
    let signingKey: Uint8Array;
    try {
      signingKey = blockSigningKey(config.privateKey);
    } catch (err) {
      await store.close();
      throw err;
    }
    // The producer signs as the witness the dynamic global properties name (the first active one).
    const witnessId = (JSON.parse(store.objects.get([2, 1, 0])!.toString('utf8')) as { current_witness: string }).current_witness;
    const witnessKey = (JSON.parse(store.objects.get([1, 6, idInstance(witnessId)])!.toString('utf8')) as { signing_key: string }).signing_key;
    if (publicKeyOf(signingKey) !== witnessKey) {
      await store.close();
      throw new Error(`--private-key signs as ${publicKeyOf(signingKey)}, but the chain's witness ${witnessId} expects blocks signed by ${witnessKey}`);
    }
    // The free-space bound is read at each block, so a reload applies to the next one.
    producer = new BlockProducer(store, signingKey, config.blockInterval, producerLog, { dataDir: config.dataDir, minFreeBytes: () => running.minFreeDiskBytes }, { customOperations: config.customOperationsPlugin });
  }
  const confirmations = new Confirmations();

  // The metrics come first: the parts below count into them from the start. What they read when
  // scraped is made later, so they read it through `parts`.
  const parts: { pool?: CallPool; scheduler?: Scheduler; server?: RpcServer; transfers?: TransferFeed } = {};
  const buffered = bufferedBytes(config.maxBufferedBytes);
  const metrics = nodeMetrics({
    connections: () => ({ ws: parts.server?.connections ?? 0, http: parts.server?.httpRequests ?? 0 }),
    pool: () => ({
      queued: parts.scheduler?.queued ?? 0,
      running: parts.scheduler?.running ?? 0,
      busyWorkers: parts.pool?.busyWorkers ?? 0,
      workers: config.workers,
    }),
    head: () => {
      const dgp = JSON.parse(store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; time: string; last_irreversible_block_num: number };
      return { number: dgp.head_block_number, time: parseFcTime(dgp.time), lastIrreversible: dgp.last_irreversible_block_num };
    },
    bufferedBytes: () => buffered.total,
    storeWritable: () => producer?.storeWritable ?? true,
    follow: follower ? () => follower.status() : undefined,
    transferSubscriptions: () => parts.transfers?.subscriptions ?? 0,
  });

  const subscriptions = new SubscriptionHub((kind, n) => void (metrics.subscriptionsRefused[kind] += n));

  checkRegistry();
  const poolLog = log.child({ component: 'pool' });
  const pool = (parts.pool = openPool(config, poolLog, { onWorkerReplaced: () => void metrics.workersReplaced.n++ }));
  try {
    await pool.ready();
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  const writer = follower ? follower.asWriter() : producer!.asWriter();
  const scheduler = (parts.scheduler = fairScheduler(pool, {
    get maxQueued() {
      return running.maxQueuedCalls;
    },
    timing: metrics.poolTiming,
  }));
  const chain = chainLookups(scheduler);
  // The deposit feed reads its pages from the store in the workers, as the session's own calls.
  const transfers = (parts.transfers = new TransferFeed((owner, params, heavy) => chain.transferPage(owner, params, heavy), {
    pageSize: () => running.apiLimitGetTransfers,
    counts: metrics.transferFeed,
  }));
  // Workers must read the new block before anyone is told about it.
  writer.on('block', (block) => {
    pool.storeChanged();
    confirmations.onBlock(block);
    subscriptions.onBlock(block);
    transfers.onBlock(block);
  });
  // A pending transaction is in the store already (pending.ts): workers read it before anyone hears of it.
  writer.on('pending', (trx) => {
    pool.storeChanged();
    subscriptions.onPendingTransaction(trx);
  });
  writer.on('dropped', (id, reason) => confirmations.onDropped(id, reason));
  const login: LoginServices = { policy, throttle: loginThrottle(live), users: new UserSessions(), failures: metrics.failedLogins };
  const services: Services = {
    config: live,
    login,
    writer,
    confirmations,
    subscriptions,
    transfers,
    chain,
    storeChanged: () => pool.storeChanged(),
    log,
  };
  const pipeline = buildPipeline({ config: live, log, front: FRONT_HANDLERS, scheduler, services, memoryOver: () => buffered.over, calls: metrics.calls });
  let closing: Promise<void> | undefined;
  let server: RpcServer;
  try {
    // On-demand chains (--block-interval 0) have no head age to watch; on a follower the lag behind
    // its upstream takes its place (the upstream's own /ready watches its head's age).
    const maxHeadAgeSeconds = config.blockInterval === 0 || follower ? 0 : config.readyMaxHeadAge;
    const probes = readiness({
      store,
      dataDir: config.dataDir,
      maxHeadAgeSeconds,
      draining: () => closing !== undefined,
      blockWriteFailure: () => producer?.blockWriteFailure,
      following: follower ? () => follower.notReady() : undefined,
      workers: () => ({ up: pool.workersUp, of: config.workers }),
      minFreeDiskBytes: () => running.minFreeDiskBytes,
    });
    const monitor = {
      scrape: () => metrics.scrape(),
      refused: (limit: LimitName) => void metrics.calls.refusals[limit]++,
      closed: (limit: BackpressureLimit) => void metrics.backpressureCloses[limit]++,
    };
    // Before listening: an upstream that serves another chain refuses the start.
    await follower?.start();
    server = await startServer(config, log, connections(live, login, pipeline, log, metrics), buffered, probes, monitor, pem);
    parts.server = server;
  } catch (err) {
    await follower?.stop();
    await pool.close();
    await store.close();
    throw err;
  }
  producer?.start();
  log.info(
    { host: config.rpcEndpoint.host, port: server.port, workers: config.workers, loginApi: config.loginApiVariant, ...(follower ? { follow: config.follow } : { blockInterval: config.blockInterval }) },
    'serving JSON-RPC over HTTP and WebSocket',
  );
  if (config.rpcTlsEndpoint) log.info({ host: config.rpcTlsEndpoint.host, port: server.tlsPort }, 'serving JSON-RPC over HTTPS and secure WebSocket');

  const reloadAccess = () => {
    if (!config.apiAccess) return { ok: true as const, users: login.policy.users.size };
    try {
      const next = loadPolicy(config, log, 'reloaded');
      login.policy = next;
      return { ok: true as const, users: next.users.size };
    } catch (err) {
      const error = (err as Error).message;
      log.error({ error }, 'api-access file not reloaded: the rules in force stay');
      return { ok: false as const, error };
    }
  };
  // The loggers made at start, whose level a reload sets too (sessions follow the root on their own).
  const components = [producerLog, poolLog];
  const reloadOptions = (next: Config) => {
    const changed = changedOptions(running, next);
    const applied = changed.filter((name) => RELOADABLE_OPTIONS.has(name));
    const needRestart = changed.filter((name) => !RELOADABLE_OPTIONS.has(name));
    if (applied.includes('log-level')) {
      log.level = next.logLevel;
      for (const l of components) l.level = next.logLevel;
    }
    if (applied.length > 0) {
      const taken: Record<string, unknown> = { ...running };
      for (const name of applied) {
        const key = OPTIONS.find((o) => o.name === name)!.key;
        taken[key] = (next as unknown as Record<string, unknown>)[key];
      }
      running = Object.freeze(taken) as unknown as Config;
      log.info({ options: applied }, 'options reloaded');
    }
    if (needRestart.length > 0) log.warn({ options: needRestart }, 'options changed in the configuration take effect only after a restart; the running values stay');
    return { applied, needRestart };
  };
  // A changed file is picked up on its own too.
  const watched = config.apiAccess;
  const unwatch = watched ? watchAccessFile(path.resolve(watched), () => void reloadAccess()) : undefined;

  return {
    port: server.port,
    tlsPort: server.tlsPort,
    reloadAccess,
    reloadOptions,
    producer,
    bufferedBytes: () => buffered.total,
    chainId,
    log,
    close() {
      closing ??= (async () => {
        // /ready says 503 from here on (closing is set), so a load balancer moves traffic away.
        unwatch?.();
        // No block after this one: production stops between blocks (a block is written whole or not
        // at all), as witness_node's does on shutdown. A broadcast_transaction_synchronous waiting for
        // a block would wait until the drain bound for nothing, and its transaction, still pending, is
        // not kept: it is answered now that the node is shutting down, so that the client sends it
        // again elsewhere; new transactions are refused the same way (producer.push).
        producer?.stop();
        await follower?.stop();
        confirmations.abandonAll(limitError(RPC.SHUTTING_DOWN, 'the transaction was not included in a block and is dropped'));
        const unanswered = await server.close(config.shutdownDrainMs);
        if (unanswered > 0) log.warn({ unanswered, drainMs: config.shutdownDrainMs }, 'calls still in flight after --shutdown-drain-ms were answered with -32016 (server shutting down)');
        await pool.close();
        await store.close();
        log.info('stopped');
      })();
      return closing;
    },
  };
}

/**
 * Options a running node takes from a reload (SIGHUP): the log level, the free space blocks need
 * (read at each block), and the per-call limits the front end reads at each call. Every other option is
 * read into the pipeline, the transport, the worker threads or the store when the node starts, so a
 * new value would apply to some parts and not others; those are reported as needing a restart. (The
 * access file is reloaded separately, and also when it changes on disk.) Worker threads keep the log
 * level they started with: they log only faults.
 */
export const RELOADABLE_OPTIONS: ReadonlySet<string> = new Set([
  'log-level',
  'min-free-disk-bytes',
  // read at each call by the pipeline's layers, the connection, the scheduler and the login throttle
  'max-json-depth',
  'max-pending-calls-per-connection',
  'max-queued-calls',
  'call-budget-ms',
  'max-ids-per-call',
  'max-calls-per-second',
  'max-unread-bytes-per-connection',
  'login-failures-before-delay',
  'login-delay-max-ms',
]);

/** A Config whose every field is read from `current()` when it is read: the running configuration. */
function liveConfig(current: () => Config): Config {
  const view = {};
  for (const key of Object.keys(current())) Object.defineProperty(view, key, { get: () => (current() as unknown as Record<string, unknown>)[key], enumerable: true });
  return Object.freeze(view) as Config;
}

/** The names of the options whose values differ between two configurations. */
export function changedOptions(a: Config, b: Config): string[] {
  const valueOf = (c: Config, key: string): unknown => (key.startsWith('apiLimits.') ? (c.apiLimits as Record<string, unknown>)[key.slice(10)] : (c as unknown as Record<string, unknown>)[key]);
  return OPTIONS.filter((o) => JSON.stringify(valueOf(a, o.key)) !== JSON.stringify(valueOf(b, o.key))).map((o) => o.name);
}
