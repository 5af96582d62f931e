// The composition root: the only module that wires every layer together.
//   config → access policy → chain store (genesis) → worker pool → call pipeline → connections → uWS server
// Shutdown runs the other way: stop listening, end sessions, drain the pool, close the store.

import path from 'node:path';
import type { Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { defaultAccessPolicy, loadAccessFile, type AccessPolicy } from './access.js';
import { BUNDLED_GENESIS, loadGenesis } from './chain/genesis.js';
import { openChainStore } from './chain/store.js';
import { initChain } from './chain/writer.js';
import { openPool } from './pool/pool.js';
import { chainLookups } from './pool/lookups.js';
import { fairScheduler } from './pool/scheduler.js';
import { checkRegistry } from './api/registry.js';
import { BlockProducer } from './chain/producer.js';
import { privateKeyFromWif, publicKeyOf } from './chain/keys.js';
import { Confirmations } from './handlers/confirmations.js';
import { FRONT_HANDLERS } from './handlers/index.js';
import type { Services } from './handlers/types.js';
import { UserSessions, type LoginServices } from './handlers/login-flow.js';
import { loginThrottle } from './handlers/login-throttle.js';
import { SubscriptionHub } from './subscriptions/hub.js';
import { buildPipeline } from './pipeline/pipeline.js';
import { connections } from './pipeline/connection.js';
import { startServer } from './transport/server.js';
import { bufferedBytes } from './transport/buffered-bytes.js';
import { readiness } from './readiness.js';
import { lockDataDir } from './data-dir-lock.js';
import { watchAccessFile } from './access-watch.js';
import { loadServerPem } from './transport/tls.js';

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

/** `--private-key`: the JSON pair ["public key", "WIF"] witness_node takes; the public key must match. */
function blockSigningKey(text: string): Uint8Array {
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
  readonly producer: BlockProducer;
  /** bytes held now for slow readers (WebSocket queues and unsent HTTP replies) */
  readonly bufferedBytes: () => number;
  readonly chainId: string;
  /**
   * Re-reads the access file (SIGHUP, or the file changed on disk). A valid file replaces the rules
   * at once for new logins; sessions keep what they were granted and the IDs they hold. An invalid
   * one is refused, logged, and the rules in force stay.
   */
  reloadAccess(): { readonly ok: true; readonly users: number } | { readonly ok: false; readonly error: string };
  readonly log: Logger;
  close(): Promise<void>;
}

export async function startNode(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningNode> {
  // One node per data directory, held from before the store opens until after it closes.
  const release = lockDataDir(config.dataDir);
  let node: RunningNode;
  try {
    node = await startLocked(config, log);
  } catch (err) {
    release();
    throw err;
  }
  const close = node.close.bind(node);
  return Object.assign(node, { close: () => close().finally(release) });
}

async function startLocked(config: Config, log: Logger): Promise<RunningNode> {
  // Everything that can refuse to start does so before anything listens.
  const policy = loadPolicy(config, log, 'using');
  // witness_node reads --server-pem only with --rpc-tls-endpoint; say so rather than ignore it in silence.
  if (config.serverPem && !config.rpcTlsEndpoint) log.warn({ file: config.serverPem }, '--server-pem is set but --rpc-tls-endpoint is not: TLS is not served');
  const pem = config.rpcTlsEndpoint && config.serverPem ? loadServerPem(config.serverPem, config.serverPemPassword) : undefined;
  if (pem) {
    log.info({ file: pem.file, subject: pem.subject, validTo: new Date(pem.validTo).toISOString() }, 'TLS certificate');
    if (pem.validTo < Date.now()) log.warn({ file: pem.file, validTo: new Date(pem.validTo).toISOString() }, 'the --server-pem certificate has expired: clients will refuse it');
  }

  const { genesis, chainId: genesisChainId } = loadGenesis(config.genesisJson ?? BUNDLED_GENESIS);
  const store = openChainStore(config.dataDir);
  let chainId: string;
  try {
    const init = initChain(store, genesis, genesisChainId);
    chainId = init.chainId;
    log.info({ chainId, dataDir: path.resolve(config.dataDir), created: init.created }, init.created ? 'created chain store from genesis' : 'opened chain store');
  } catch (err) {
    await store.close();
    throw err;
  }

  const signingKey = blockSigningKey(config.privateKey);
  const witnessKey = (JSON.parse(store.objects.get([1, 6, 0])!.toString('utf8')) as { signing_key: string }).signing_key;
  if (publicKeyOf(signingKey) !== witnessKey) {
    await store.close();
    throw new Error(`--private-key signs as ${publicKeyOf(signingKey)}, but the chain's witness 1.6.0 expects blocks signed by ${witnessKey}`);
  }
  const producer = new BlockProducer(store, signingKey, config.blockInterval, log.child({ component: 'producer' }));
  const confirmations = new Confirmations();
  const subscriptions = new SubscriptionHub();

  checkRegistry();
  const pool = openPool(config, log.child({ component: 'pool' }));
  try {
    await pool.ready();
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  // Workers must read the new block before anyone is told about it.
  producer.on('block', (block) => {
    pool.storeChanged();
    confirmations.onBlock(block);
    subscriptions.onBlock(block);
  });
  producer.on('pending', (trx) => subscriptions.onPendingTransaction(trx));
  producer.on('dropped', (id, reason) => confirmations.onDropped(id, reason));
  const scheduler = fairScheduler(pool, { maxQueued: config.maxQueuedCalls });
  const login: LoginServices = { policy, throttle: loginThrottle(config), users: new UserSessions() };
  const services: Services = {
    config,
    login,
    producer,
    confirmations,
    subscriptions,
    chain: chainLookups(scheduler),
    store,
    storeChanged: () => pool.storeChanged(),
    log,
  };
  const buffered = bufferedBytes(config.maxBufferedBytes);
  const pipeline = buildPipeline({ config, log, front: FRONT_HANDLERS, scheduler, services, memoryOver: () => buffered.over });
  let closing: Promise<void> | undefined;
  let server;
  try {
    // On-demand chains (--block-interval 0) have no head age to watch.
    const maxHeadAgeSeconds = config.blockInterval === 0 ? 0 : config.readyMaxHeadAge;
    const probes = readiness({ store, dataDir: config.dataDir, maxHeadAgeSeconds, draining: () => closing !== undefined, blockWriteFailure: () => producer.blockWriteFailure });
    server = await startServer(config, log, connections(config, login, pipeline, log), buffered, probes, pem);
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  producer.start();
  log.info(
    { host: config.rpcEndpoint.host, port: server.port, workers: config.workers, loginApi: config.loginApiVariant, blockInterval: config.blockInterval },
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
  // A changed file is picked up on its own too.
  const watched = config.apiAccess;
  const unwatch = watched ? watchAccessFile(path.resolve(watched), () => void reloadAccess()) : undefined;

  return {
    port: server.port,
    tlsPort: server.tlsPort,
    reloadAccess,
    producer,
    bufferedBytes: () => buffered.total,
    chainId,
    log,
    close() {
      closing ??= (async () => {
        // /ready says 503 from here on (closing is set), so a load balancer moves traffic away.
        unwatch?.();
        producer.stop();
        const unanswered = await server.close(config.shutdownDrainMs);
        if (unanswered > 0) log.warn({ unanswered, drainMs: config.shutdownDrainMs }, 'calls still in flight after --shutdown-drain-ms were dropped');
        await pool.close();
        await store.close();
        log.info('stopped');
      })();
      return closing;
    },
  };
}
