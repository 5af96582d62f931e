// How a node serves once its chain writer is open: one front end in this process, or N serving
// processes (--processes N > 1) or N serving threads of this process (--serving-threads N > 1), each
// a front end, with this process (its main thread) as their writer ("Scaling out"). Either way the
// producer starts making blocks only once clients can be served.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { AccessPolicy } from '../access.js';
import type { ChainStore } from '../chain/store/store.js';
import type { ServerPem } from '../transport/tls.js';
import { startServingFrontEnds, type ServingFrontEnds } from '../processes/serving-processes.js';
import type { ServingKind } from '../processes/serving-units.js';
import { reloadPolicy, type AccessReload } from './credentials.js';
import type { RunningOptions } from './options.js';
import type { LocalWriter } from './local-writer.js';
import { serveFrontEnd } from './front-end.js';

/** What a node needs to serve: its options, what start-up read, and its open store and writer. */
export interface ServeFrom {
  readonly config: Config;
  readonly log: Logger;
  readonly options: RunningOptions;
  readonly policy: AccessPolicy;
  readonly pem: ServerPem | undefined;
  readonly store: ChainStore;
  readonly local: LocalWriter;
  /** runs a start-up step; when it fails, the writer stops and the store closes before the error goes on */
  orUnwind<T>(step: () => Promise<T>): Promise<T>;
  /** starts the producer (a follower started before anything listened) */
  startProducing(): Promise<void>;
}

/** What serving gives the running node. */
export interface Serving {
  readonly port: number;
  readonly tlsPort: number | undefined;
  readonly bufferedBytes: () => number;
  reloadAccess(): AccessReload;
  /** the options reload beyond this process' own, where there is one (the serving processes' or threads') */
  readonly reloadOptions?: (next: Config) => void;
  readonly servingProcesses?: ServingFrontEnds;
  readonly servingThreads?: ServingFrontEnds;
  /** ends serving at once, before the process exits without a drain (serving threads must close their sockets first) */
  readonly halt?: () => Promise<void>;
  /** what the node's close stops after the writer and before the store */
  readonly front: { close(): Promise<void> };
}

/** How the log describes where the node's blocks come from. */
const described = (config: Config) => (config.follow ? { follow: config.follow } : { blockInterval: config.blockInterval });

/** One front end, in this process. */
export async function serveInThisProcess(from: ServeFrom): Promise<Serving> {
  const { config, log, options, policy, pem, store, local } = from;
  const front = await from.orUnwind(() => serveFrontEnd({ config, log, options, policy, pem, store, writer: local.writer, writerState: local.state }));
  await from.startProducing();
  log.info(
    { host: config.rpcEndpoint.host, port: front.port, workers: config.workers, loginApi: config.loginApiVariant, ...described(config) },
    'serving JSON-RPC over HTTP and WebSocket',
  );
  if (config.rpcTlsEndpoint) log.info({ host: config.rpcTlsEndpoint.host, port: front.tlsPort }, 'serving JSON-RPC over HTTPS and secure WebSocket');
  return { port: front.port, tlsPort: front.tlsPort, bufferedBytes: front.bufferedBytes, reloadAccess: () => front.reloadAccess(), front };
}

/** --processes N > 1 or --serving-threads N > 1: this process writes; N serving processes or threads serve. */
export async function serveInFrontEnds(from: ServeFrom, kind: ServingKind): Promise<Serving> {
  const { config, log, local } = from;
  const count = kind === 'processes' ? config.processes : config.servingThreads;
  const entry = new URL(kind === 'processes' ? '../serving-process.js' : '../serving-thread.js', import.meta.url);
  const serving: ServingFrontEnds = await from.orUnwind(() => startServingFrontEnds({ kind, count, config, log, writer: local.writer, state: local.state, onState: local.onState, entry }));
  await from.startProducing();
  log.info(
    { host: config.rpcEndpoint.host, port: serving.port, [kind === 'processes' ? 'processes' : 'servingThreads']: count, workers: config.workers, loginApi: config.loginApiVariant, ...described(config) },
    'serving JSON-RPC over HTTP and WebSocket',
  );
  return {
    port: serving.port,
    tlsPort: serving.tlsPort,
    // Held by the front ends; each counts its own against its own --max-buffered-bytes.
    bufferedBytes: () => 0,
    ...(kind === 'processes' ? { servingProcesses: serving } : { servingThreads: serving }),
    // The writer's own read checks the file; each front end reads it again and applies it.
    reloadAccess: () => reloadPolicy(config, log, () => serving.reloadAccess()),
    reloadOptions: (next) => serving.reloadOptions(next),
    halt: () => serving.halt(),
    // Each front end says 503 on /ready, drains and stops, as a single-process node does.
    front: serving,
  };
}
