// The composition root: the only module that wires every layer together.
//   config → access policy → chain store (genesis) → chain writer → worker pool → call pipeline → connections → uWS server
// With --processes N > 1 the line splits after the chain writer: this process (the writer) keeps
// the store's writable handle and the writer, and N serving processes (runServingProcess) each run
// the rest over the store opened read-only, with the writer reached over IPC (src/processes/).
// The metrics are wired here too: each part counts what it owns into them, and they read the rest
// (connections, the pool's queue, the head block) from the parts when scraped.
// Shutdown runs the other way: stop listening, end sessions, drain the pool, close the store.

import path from 'node:path';
import { OPTIONS, deepFreeze, type Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { defaultAccessPolicy, loadAccessFile, type AccessPolicy } from './access.js';
import { BUNDLED_GENESIS, loadGenesis } from './chain/node/genesis.js';
import { openChainStore, type ChainStore } from './chain/store/store.js';
import type { ChainWriter } from './chain/node/chain-writer.js';
import { checkAddressPrefix, initChain } from './chain/node/block-applier.js';
import { openPool, type CallPool } from './pool/pool.js';
import { chainLookups } from './pool/lookups.js';
import { LearntCosts } from './pool/learnt-costs.js';
import { fairScheduler, type Scheduler } from './pool/scheduler.js';
import { checkRegistry } from './api/registry.js';
import { BlockProducer } from './chain/node/producer.js';
import { Follower } from './follow/follower.js';
import { privateKeyFromWif, publicKeyOf } from './chain/crypto/keys.js';
import { DEV_BLOCK_SIGNING_WIF } from './chain/crypto/dev-key.js';
import { addressPrefix, setAddressPrefix } from './chain/crypto/public-key.js';
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
import { loadServerPem, type ServerPem } from './transport/tls.js';
import { parseFcTime } from './chain/fc/fc-json.js';
import { nodeMetrics, type BackpressureLimit, type MetricsJson } from './metrics/node-metrics.js';
import { startServingProcesses, type ServingProcesses } from './processes/serving-processes.js';
import { WriterLink, type Channel } from './processes/writer-link.js';
import type { ToServing, WriterState } from './processes/messages.js';
import type { LimitName } from './metrics/calls.js';
import { idInstance } from './chain/fc/object-id.js';
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
  /** --processes N > 1: the serving processes this (writer) process runs */
  readonly servingProcesses?: ServingProcesses;
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

/** The options in force: what start-up read, with what reloads (SIGHUP) have applied. */
interface RunningOptions {
  readonly current: Config;
  /** a Config that always shows the options in force: for the parts that read a reloadable option at each use */
  readonly live: Config;
  /** loggers made at start, whose level a reload sets too (sessions follow the root on their own) */
  readonly loggers: Logger[];
  reload(next: Config): { readonly applied: readonly string[]; readonly needRestart: readonly string[] };
}

function runningOptions(config: Config, log: Logger): RunningOptions {
  let running = config;
  const loggers: Logger[] = [];
  return {
    get current() {
      return running;
    },
    live: liveConfig(() => running),
    loggers,
    reload(next) {
      const changed = changedOptions(running, next);
      const applied = changed.filter((name) => RELOADABLE_OPTIONS.has(name));
      const needRestart = changed.filter((name) => !RELOADABLE_OPTIONS.has(name));
      if (applied.includes('log-level')) {
        log.level = next.logLevel;
        for (const l of loggers) l.level = next.logLevel;
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
    },
  };
}

/** The TLS certificate, checked and logged; undefined when TLS is not served. */
function checkedPem(config: Config, log: Logger): ServerPem | undefined {
  // witness_node reads --server-pem only with --rpc-tls-endpoint; say so rather than ignore it in silence.
  if (config.serverPem && !config.rpcTlsEndpoint) log.warn({ file: config.serverPem }, '--server-pem is set but --rpc-tls-endpoint is not: TLS is not served');
  const pem = config.rpcTlsEndpoint && config.serverPem ? loadServerPem(config.serverPem, config.serverPemPassword) : undefined;
  if (pem) {
    log.info({ file: pem.file, subject: pem.subject, validTo: new Date(pem.validTo).toISOString() }, 'TLS certificate');
    if (pem.validTo < Date.now()) log.warn({ file: pem.file, validTo: new Date(pem.validTo).toISOString() }, 'the --server-pem certificate has expired: clients will refuse it');
  }
  return pem;
}

/**
 * The chain's one writer, in the process that holds the store's writable handle. Which writer a node
 * runs is decided here and only here: the block producer of a devnet node. The front end, in this
 * process or in serving processes (--processes), sees it only as a ChainWriter.
 */
interface LocalWriter {
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

async function openLocalWriter(config: Config, store: ChainStore, chainId: string, options: RunningOptions, log: Logger): Promise<LocalWriter> {
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

/** One front end: the uWS server, its worker pool, call pipeline, subscriptions and metrics, over a store. */
interface FrontEnd {
  readonly port: number;
  readonly tlsPort: number | undefined;
  readonly bufferedBytes: () => number;
  readonly reloadAccess: RunningNode['reloadAccess'];
  /** tells the workers the store changed (node-local state another process wrote) */
  storeChanged(): void;
  metricsJson(): Promise<MetricsJson>;
  /** /ready 503, drain, then stop (the store stays open: its owner closes it) */
  close(): Promise<void>;
}

async function serveFrontEnd(p: {
  config: Config;
  log: Logger;
  options: RunningOptions;
  policy: AccessPolicy;
  pem: ServerPem | undefined;
  store: ChainStore;
  writer: ChainWriter;
  writerState: () => WriterState;
  /** another process' front ends share the port already (--processes) */
  sharedPort?: boolean;
  /** the node's /metrics when the node is more than this process (the writer aggregates) */
  scrape?: () => Promise<{ readonly contentType: string; readonly text: string }>;
}): Promise<FrontEnd> {
  const { config, log, options, store, writer } = p;
  const live = options.live;
  const confirmations = new Confirmations();
  // The metrics come first: the parts below count into them from the start. What they read when
  // scraped is made later, so they read it through `parts`.
  const parts: { pool?: CallPool; scheduler?: Scheduler; server?: RpcServer; transfers?: TransferFeed } = {};
  const buffered = bufferedBytes(config.maxBufferedBytes);
  const following = config.follow !== null;
  // Cost classes learnt from light calls that used up their slice (the scheduler notes them, the schedule layer reads them).
  const learnt = new LearntCosts();
  const metrics = nodeMetrics({
    connections: () => ({ ws: parts.server?.connections ?? 0, http: parts.server?.httpRequests ?? 0 }),
    pool: () => ({
      queued: parts.scheduler?.queued ?? 0,
      running: parts.scheduler?.running ?? 0,
      busyWorkers: parts.pool?.busyWorkers ?? 0,
      workers: config.workers,
      replySlab: parts.pool?.replySlab ?? NO_SLAB,
      slices: { learnt: learnt.learnt, kept: learnt.kept, requeued: learnt.requeued, ranLong: learnt.ranLong },
    }),
    head: () => {
      const dgp = JSON.parse(store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; time: string; last_irreversible_block_num: number };
      return { number: dgp.head_block_number, time: parseFcTime(dgp.time), lastIrreversible: dgp.last_irreversible_block_num };
    },
    bufferedBytes: () => buffered.total,
    storeWritable: () => p.writerState().blockWriteFailure === undefined,
    follow: following ? () => p.writerState().follow ?? { connected: false, lagBlocks: 0, lagSeconds: 0, reconnects: 0, stopped: undefined } : undefined,
    transferSubscriptions: () => parts.transfers?.subscriptions ?? 0,
  });

  const subscriptions = new SubscriptionHub((kind, n) => void (metrics.subscriptionsRefused[kind] += n));

  checkRegistry();
  const poolLog = log.child({ component: 'pool' });
  options.loggers.push(poolLog);
  const pool = (parts.pool = openPool(config, poolLog, { onWorkerReplaced: () => void metrics.workersReplaced.n++ }));
  try {
    await pool.ready();
  } catch (err) {
    await pool.close();
    throw err;
  }
  const scheduler = (parts.scheduler = fairScheduler(pool, {
    get maxQueued() {
      return options.current.maxQueuedCalls;
    },
    lightSliceMs: config.lightSliceMs,
    learnt,
    timing: metrics.poolTiming,
  }));
  const chain = chainLookups(scheduler);
  // The deposit feed reads its pages from the store in the workers, as the session's own calls.
  const transfers = (parts.transfers = new TransferFeed((owner, params, heavy) => chain.transferPage(owner, params, heavy), {
    pageSize: () => options.current.apiLimitGetTransfers,
    counts: metrics.transferFeed,
  }));
  // Workers must read the new block before anyone is told about it.
  writer.on('block', (block) => {
    pool.storeChanged();
    confirmations.onBlock(block);
    subscriptions.onBlock(block);
    transfers.onBlock(block);
  });
  // A pending transaction is in the store already (pending-undo.ts): workers read it before anyone hears of it.
  writer.on('pending', (trx) => {
    pool.storeChanged();
    subscriptions.onPendingTransaction(trx);
  });
  writer.on('dropped', (id, reason) => confirmations.onDropped(id, reason));
  const login: LoginServices = { policy: p.policy, throttle: loginThrottle(live), users: new UserSessions(), failures: metrics.failedLogins };
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
  const pipeline = buildPipeline({ config: live, log, front: FRONT_HANDLERS, scheduler, services, memoryOver: () => buffered.over, calls: metrics.calls, learnt });
  let closing: Promise<void> | undefined;
  let server: RpcServer;
  try {
    // On-demand chains (--block-interval 0) have no head age to watch; on a follower the lag behind
    // its upstream takes its place (the upstream's own /ready watches its head's age).
    const maxHeadAgeSeconds = config.blockInterval === 0 || following ? 0 : config.readyMaxHeadAge;
    const probes = readiness({
      store,
      dataDir: config.dataDir,
      maxHeadAgeSeconds,
      draining: () => closing !== undefined,
      blockWriteFailure: () => p.writerState().blockWriteFailure,
      following: following ? () => p.writerState().following : undefined,
      workers: () => ({ up: pool.workersUp, of: config.workers }),
      minFreeDiskBytes: () => options.current.minFreeDiskBytes,
    });
    const monitor = {
      scrape: p.scrape ?? (() => metrics.scrape()),
      refused: (limit: LimitName) => void metrics.calls.refusals[limit]++,
      closed: (limit: BackpressureLimit) => void metrics.backpressureCloses[limit]++,
    };
    server = await startServer(config, log, connections(live, login, pipeline, log, metrics), buffered, probes, monitor, p.pem, p.sharedPort);
    parts.server = server;
  } catch (err) {
    await pool.close();
    throw err;
  }

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
  // A changed file is picked up on its own too.
  const watched = config.apiAccess;
  const unwatch = watched ? watchAccessFile(path.resolve(watched), () => void reloadAccess()) : undefined;

  return {
    port: server.port,
    tlsPort: server.tlsPort,
    bufferedBytes: () => buffered.total,
    reloadAccess,
    storeChanged: () => pool.storeChanged(),
    metricsJson: () => metrics.json(),
    close() {
      closing ??= (async () => {
        // /ready says 503 from here on (closing is set), so a load balancer moves traffic away.
        unwatch?.();
        // A broadcast_transaction_synchronous waiting for a block would wait until the drain bound
        // for nothing (production has stopped), and its transaction, still pending, is not kept:
        // it is answered now that the node is shutting down, so that the client sends it again
        // elsewhere; new transactions are refused the same way (producer.push).
        confirmations.abandonAll(limitError(RPC.SHUTTING_DOWN, 'the transaction was not included in a block and is dropped'));
        const unanswered = await server.close(config.shutdownDrainMs);
        if (unanswered > 0) log.warn({ unanswered, drainMs: config.shutdownDrainMs }, 'calls still in flight after --shutdown-drain-ms were answered with -32016 (server shutting down)');
        await pool.close();
      })();
      return closing;
    },
  };
}

/** The chain store of a writer: opened writable, upgraded and made from the genesis when new. */
function openWritableStore(config: Config, log: Logger): { store: ChainStore; chainId: string } {
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

/**
 * LMDB reader slots the node needs: each process that opens the store takes one per thread that reads
 * (lmdb-js keeps a read transaction per thread): per serving process its workers, its front-end
 * thread and a spare for a worker being replaced, plus the writer's own; with room to spare for
 * readers of a process that died and whose slots LMDB has not reclaimed yet. Never fewer than
 * MIN_READER_SLOTS, what a single-process node always had.
 */
export function readerSlots(config: Pick<Config, 'processes' | 'workers'>): number {
  const perProcess = config.workers + 2;
  return Math.max(MIN_READER_SLOTS, 2 * (config.processes * perProcess + 2));
}
/** The reply slab before the pool is open (or in a process without one): nothing held. */
const NO_SLAB = { slots: 0, inUse: 0, collected: 0 };

const MIN_READER_SLOTS = 512;

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
  const described = config.follow ? { follow: config.follow } : { blockInterval: config.blockInterval };
  /**
   * The node's close, once however often it is called: no block after the one being written
   * (production stops between blocks, a block is written whole or not at all, as witness_node's does
   * on shutdown), then the front ends drain and stop, then the store closes.
   */
  const closeWith = (front: { close(): Promise<void> }): (() => Promise<void>) => {
    let closing: Promise<void> | undefined;
    return () =>
      (closing ??= (async () => {
        await local.stop();
        await front.close();
        await store.close();
        log.info('stopped');
      })());
  };
  const shared = {
    producer: local.producer,
    chainId,
    log,
    reloadOptions: (next: Config) => options.reload(next),
  };
  if (config.processes === 1) {
    const front: FrontEnd = await orUnwind(() => serveFrontEnd({ config, log, options, policy, pem, store, writer: local.writer, writerState: local.state }));
    await startProducing();
    log.info(
      { host: config.rpcEndpoint.host, port: front.port, workers: config.workers, loginApi: config.loginApiVariant, ...described },
      'serving JSON-RPC over HTTP and WebSocket',
    );
    if (config.rpcTlsEndpoint) log.info({ host: config.rpcTlsEndpoint.host, port: front.tlsPort }, 'serving JSON-RPC over HTTPS and secure WebSocket');
    return {
      ...shared,
      port: front.port,
      tlsPort: front.tlsPort,
      bufferedBytes: front.bufferedBytes,
      reloadAccess: front.reloadAccess,
      close: closeWith(front),
    };
  }

  // --processes N > 1: this process writes; N serving processes serve (README "Scaling out").
  const serving: ServingProcesses = await orUnwind(() =>
    startServingProcesses({ count: config.processes, config, log, writer: local.writer, state: local.state, onState: local.onState, entry: new URL('./serving-process.js', import.meta.url) }),
  );
  await startProducing();
  log.info(
    { host: config.rpcEndpoint.host, port: serving.port, processes: config.processes, workers: config.workers, loginApi: config.loginApiVariant, ...described },
    'serving JSON-RPC over HTTP and WebSocket',
  );
  return {
    ...shared,
    port: serving.port,
    tlsPort: serving.tlsPort,
    // Held by the serving processes; each counts its own against its own --max-buffered-bytes.
    bufferedBytes: () => 0,
    servingProcesses: serving,
    reloadAccess() {
      // The writer's own read checks the file; each serving process reads it again and applies it.
      try {
        const next = loadPolicy(config, log, 'reloaded');
        serving.reloadAccess();
        return { ok: true as const, users: next.users.size };
      } catch (err) {
        const error = (err as Error).message;
        log.error({ error }, 'api-access file not reloaded: the rules in force stay');
        return { ok: false as const, error };
      }
    },
    reloadOptions(next: Config) {
      const result = options.reload(next);
      serving.reloadOptions(next);
      return result;
    },
    // Each serving process says 503 on /ready, drains and stops, as a single-process node does.
    close: closeWith(serving),
  };
}

/** ms a stopping serving process waits for its last log lines to reach the writer before it exits. */
const LOG_FLUSH_MS = 2000;

/**
 * A serving process of --processes N > 1 (src/serving-process.ts runs this): it takes its options
 * from the writer process' first message, opens the store read-only and serves a front end whose
 * chain writer is the writer process, over IPC.
 */
export function runServingProcess(): void {
  const channel = process as unknown as Channel;
  process.once('message', (init: ToServing) => {
    if (init.t !== 'init') throw new Error(`a serving process' first message must be init, not ${init.t}`);
    // Made at once: every message after init is the link's.
    const link = new WriterLink(channel, init);
    void serveForWriter(init, link);
  });
}

async function serveForWriter(init: Extract<ToServing, { t: 'init' }>, link: WriterLink): Promise<void> {
  const config = deepFreeze(init.config);
  setAddressPrefix(config.addressPrefix);
  const log = createLogger(init.logLevel, { process: init.index }, 'json', link.logDestination);
  const options = runningOptions(config, log);
  let front: FrontEnd | undefined;
  let store: ChainStore | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (code: number) => {
    stopping ??= (async () => {
      try {
        await front?.close();
        await store?.close();
      } catch (err) {
        log.error({ err }, 'serving process did not stop cleanly');
        code = 1;
      }
      log.info('serving process stopped');
      await link.logsFlushed(LOG_FLUSH_MS);
      process.exit(code);
    })();
  };
  // The writer process relays SIGHUP (options, access file) and asks for shutdown over the channel.
  // Signals sent to the whole process group (Ctrl-C, systemd's control-group kill) reach this process
  // too: SIGINT/SIGTERM start the same graceful stop; SIGHUP is left to the writer, which relays it
  // once with the configuration it read (by default SIGHUP would end this process).
  process.on('SIGHUP', () => log.debug('SIGHUP: the writer process relays reloads'));
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  link.controlledBy({
    metrics: async () => (front ? front.metricsJson() : []),
    reloadOptions: (next) => void options.reload(deepFreeze(next)),
    reloadAccess: () => void front?.reloadAccess(),
    close: () => stop(0),
    writerGone: () => {
      // A store nobody writes would go stale with /ready saying nothing: stop, and say why.
      log.error('the writer process is gone: this serving process stops');
      stop(1);
    },
  });
  try {
    const policy = loadPolicy(config, log, 'using');
    const pem = config.rpcTlsEndpoint && config.serverPem ? loadServerPem(config.serverPem, config.serverPemPassword) : undefined;
    store = openChainStore(config.dataDir, { readOnly: true, maxReaders: readerSlots(config) });
    front = await serveFrontEnd({ config, log, options, policy, pem, store, writer: link, writerState: () => link.state, sharedPort: init.sharedPort, scrape: () => link.scrape() });
  } catch (err) {
    log.error({ err }, 'serving process could not start');
    link.tell({ t: 'start-failed', message: (err as Error).message });
    process.exit(1);
  }
  const started = front;
  link.onStored(() => started.storeChanged());
  // Events the writer sent while the pool was starting had no listener yet: whatever the workers
  // read during start-up, they read afresh from here.
  started.storeChanged();
  link.tell({ t: 'listening', port: started.port, tlsPort: started.tlsPort });
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
