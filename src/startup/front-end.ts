// One front end over a chain store: the uWS server, its worker pool and scheduler, the call
// pipeline, subscriptions, the deposit feed's pumps and the metrics, wired together. A node of one
// process runs one beside its chain writer; each serving process of --processes runs one with the
// writer reached over IPC.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { AccessPolicy } from '../access.js';
import type { ChainStore } from '../chain/store/store.js';
import type { ChainWriter } from '../chain/node/chain-writer.js';
import { parseFcTime } from '../chain/fc/fc-json.js';
import { openPool, type CallPool } from '../pool/pool.js';
import { chainLookups } from '../pool/lookups.js';
import { LearntCosts } from '../pool/learnt-costs.js';
import { ReplySizes } from '../pool/reply-sizes.js';
import { fairScheduler, type Scheduler } from '../pool/scheduler.js';
import { checkRegistry } from '../api/registry.js';
import { Confirmations } from '../handlers/confirmations.js';
import { FRONT_HANDLERS } from '../handlers/index.js';
import type { Services } from '../handlers/types.js';
import { UserSessions, type LoginServices } from '../handlers/login-flow.js';
import { loginThrottle } from '../handlers/login-throttle.js';
import { SubscriptionHub } from '../subscriptions/hub.js';
import { TransferFeed } from '../subscriptions/transfer-feed.js';
import { buildPipeline } from '../pipeline/pipeline.js';
import { connections } from '../pipeline/connection.js';
import { startServer, type RpcServer } from '../transport/server.js';
import { bufferedBytes } from '../transport/buffered-bytes.js';
import type { ServerPem } from '../transport/tls.js';
import { readiness } from '../readiness.js';
import { watchAccessFile } from '../access-watch.js';
import { nodeMetrics, type BackpressureLimit, type MetricsJson } from '../metrics/node-metrics.js';
import type { LimitName } from '../metrics/calls.js';
import type { WriterState } from '../processes/messages.js';
import { RPC, limitError } from '../errors.js';
import { reloadPolicy, type AccessReload } from './credentials.js';
import type { RunningOptions } from './options.js';

/** One front end: the uWS server, its worker pool, call pipeline, subscriptions and metrics, over a store. */
export interface FrontEnd {
  readonly port: number;
  readonly tlsPort: number | undefined;
  readonly bufferedBytes: () => number;
  reloadAccess(): AccessReload;
  /** tells the workers the store changed (node-local state another process wrote) */
  storeChanged(): void;
  metricsJson(): Promise<MetricsJson>;
  /** /ready 503, drain, then stop (the store stays open: its owner closes it) */
  close(): Promise<void>;
  /** every socket closed at once (after close, or after a failure): a serving thread's last step */
  closeSockets(): void;
}

export async function serveFrontEnd(p: {
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
  // Sizes of large replies by call shape: the scheduler counts them against a connection's replies outstanding.
  const replySizes = new ReplySizes();
  const metrics = nodeMetrics({
    connections: () => ({ ws: parts.server?.connections ?? 0, http: parts.server?.httpRequests ?? 0 }),
    pool: () => ({
      queued: parts.scheduler?.queued ?? 0,
      running: parts.scheduler?.running ?? 0,
      busyWorkers: parts.pool?.busyWorkers ?? 0,
      workers: config.workers,
      replySlab: parts.pool?.replySlab ?? NO_SLAB,
      slices: { learnt: learnt.learnt, kept: learnt.kept, requeued: learnt.requeued, ranLong: learnt.ranLong },
      // Counted only by the gauge that reads it (every pool gauge asks for this object).
      get heldCalls() {
        return parts.scheduler?.heldCalls ?? 0;
      },
      replySizesKept: replySizes.kept,
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
  const pool = (parts.pool = openPool(config, poolLog, { onWorkerReplaced: () => void metrics.workersReplaced.n++, onWorkerUp: () => parts.scheduler?.wake() }));
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
    replySizes,
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
  const pipeline = buildPipeline({ config: live, log, front: FRONT_HANDLERS, scheduler, services, memoryOver: () => buffered.over, calls: metrics.calls, learnt, replySizes, droppedUnread: metrics.droppedUnread });
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
      unread: (requests: number) => void (metrics.droppedUnread.n += requests),
    };
    server = await startServer({
      config,
      log,
      newConnection: connections(live, login, pipeline, log, metrics),
      buffered,
      probes,
      monitor,
      pem: p.pem,
      sharedPort: p.sharedPort,
    });
    parts.server = server;
  } catch (err) {
    await pool.close();
    throw err;
  }

  const reloadAccess = (): AccessReload => {
    if (!config.apiAccess) return { ok: true, users: login.policy.users.size };
    return reloadPolicy(config, log, (next) => void (login.policy = next));
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
    closeSockets: () => server.closeSockets(),
  };
}

/** The reply slab before the pool is open (or in a process without one): nothing held. */
const NO_SLAB = { slots: 0, inUse: 0, collected: 0, largePages: 0, largePagesInUse: 0 };
