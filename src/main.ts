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
import { buildRegistry, POOL_SETS } from './api/registry.js';
import { Session, type SessionDeps } from './session/session.js';
import { startServer } from './transport/server.js';

export interface RunningNode {
  readonly port: number;
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

  const pool = openPool(config, { maxQueue: config.maxQueuedCalls });
  try {
    await pool.ready();
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  const deps: SessionDeps = { config, policy, pool, poolSets: buildRegistry(POOL_SETS), log };
  let server;
  try {
    server = await startServer(config, log, (transport, credentials, sink) => new Session(deps, transport, credentials, sink));
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  log.info({ host: config.rpcEndpoint.host, port: server.port, workers: config.workers, loginApi: config.loginApiVariant }, 'serving JSON-RPC over HTTP and WebSocket');

  let closing: Promise<void> | undefined;
  return {
    port: server.port,
    chainId,
    log,
    close() {
      closing ??= (async () => {
        server.close();
        await pool.close();
        await store.close();
        log.info('stopped');
      })();
      return closing;
    },
  };
}
