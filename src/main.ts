// The composition root: the only module that wires every layer together.
//   config → access policy → chain store (genesis) → worker pool → sessions → uWS server
// Shutdown runs the other way: stop listening, end sessions, drain the pool, close the store.

import path from 'node:path';
import type { Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { defaultAccessPolicy, loadAccessFile, type AccessPolicy } from './access.js';
import { BUNDLED_GENESIS, loadGenesis } from './chain/genesis.js';
import { openChainStore } from './chain/store.js';
import { initChain } from './chain/writer.js';
import { openPool } from './pool/pool.js';
import { buildRegistry, API_SETS } from './api/registry.js';
import { Session, type SessionDeps } from './session/session.js';
import { BlockProducer } from './chain/producer.js';
import { privateKeyFromWif, publicKeyOf } from './chain/keys.js';
import { Confirmations } from './session/confirmations.js';
import { broadcastHandlers } from './session/broadcast-api.js';
import { debugHandlers } from './session/debug-api.js';
import { subscriptionHandlers } from './session/subscription-api.js';
import { SubscriptionHub } from './session/subscriptions.js';
import type { LocalHandler } from './dispatch/dispatcher.js';
import { startServer } from './transport/server.js';

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
  readonly producer: BlockProducer;
  readonly chainId: string;
  readonly log: Logger;
  close(): Promise<void>;
}

export async function startNode(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningNode> {
  // Everything that can refuse to start does so before anything listens.
  const policy: AccessPolicy = config.apiAccess ? loadAccessFile(config.apiAccess) : defaultAccessPolicy();
  if (config.apiAccess) log.info({ file: path.resolve(config.apiAccess), users: policy.users.size }, 'using api-access file');
  else log.info('no api-access file: every user gets the public API sets');
  if (policy.unknownApiNames.length > 0) log.warn({ names: policy.unknownApiNames }, 'api-access file names API sets this node does not have; they grant nothing');

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

  const pool = openPool(config, { maxQueue: config.maxQueuedCalls });
  try {
    await pool.ready();
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  const localHandlers = new Map<string, Readonly<Record<string, LocalHandler>>>([
    ['network_broadcast', broadcastHandlers],
    ['debug', debugHandlers],
    ['database', subscriptionHandlers],
  ]);
  // Workers must read the new block before anyone is told about it.
  producer.on('block', (block) => {
    pool.storeChanged();
    confirmations.onBlock(block);
    subscriptions.onBlock(block);
  });
  producer.on('pending', (trx) => subscriptions.onPendingTransaction(trx));
  producer.on('dropped', (id, reason) => confirmations.onDropped(id, reason));
  const deps: SessionDeps = { config, policy, pool, poolSets: buildRegistry(API_SETS), localHandlers, producer, confirmations, subscriptions, log };
  let server;
  try {
    server = await startServer(config, log, (transport, credentials, sink) => new Session(deps, transport, credentials, sink));
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

  let closing: Promise<void> | undefined;
  return {
    port: server.port,
    producer,
    chainId,
    log,
    close() {
      closing ??= (async () => {
        producer.stop();
        server.close();
        await pool.close();
        await store.close();
        log.info('stopped');
      })();
      return closing;
    },
  };
}
