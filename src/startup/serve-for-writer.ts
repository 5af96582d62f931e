// A front end whose chain writer is elsewhere: a serving process of --processes N > 1
// (src/serving-process.ts runs this) or a serving thread of --serving-threads N > 1
// (src/serving-thread.ts): the front end over the store opened read-only, with the writer reached
// over the channel (IPC, or the Worker's MessagePort).
//
// What a thread must do differently, because it shares its process with the writer and its siblings:
// it never calls process.exit (that would end the node) nor handles signals (the writer's process
// gets them, and relays a reload or a shutdown over the channel); it ends by closing what it holds
// and letting its event loop run empty, and closes every socket first, since a thread that ends with
// uWS sockets open takes the process down (serving-units.ts). An error it does not catch ends it the
// same way, and the writer starts it again, as it does a serving process that crashed.
import { parentPort } from 'node:worker_threads';
import { deepFreeze } from '../config.js';
import { createLogger, kernelThreadId } from '../log.js';
import { openChainStore, type ChainStore } from '../chain/store/store.js';
import { setAddressPrefix } from '../chain/crypto/public-key.js';
import { WriterLink, portChannel, type Channel } from '../processes/writer-link.js';
import type { ToServing } from '../processes/messages.js';
import { threadShare } from '../metrics/node-metrics.js';
import { loadPolicy, serverPem } from './credentials.js';
import { runningOptions } from './options.js';
import { readerSlots } from './writable-store.js';
import { serveFrontEnd, type FrontEnd } from './front-end.js';

/** ms a stopping serving process waits for its last log lines to reach the writer before it exits. */
const LOG_FLUSH_MS = 2000;

/** Where a front end of the writer runs, and what that changes. */
interface Host {
  readonly kind: 'process' | 'thread';
  readonly channel: Channel;
  /** Ends this front end with `code`, once what it holds is closed. */
  end(code: number): void;
}

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
    void serveForWriter(init, link, { kind: 'process', channel, end: (code) => process.exit(code) });
  });
}

/**
 * A serving thread of --serving-threads N > 1 (src/serving-thread.ts runs this): the same, in a
 * worker thread of the writer's process, over its MessagePort.
 */
export function runServingThread(): void {
  const port = parentPort;
  if (!port) throw new Error('a serving thread runs in a worker thread');
  const channel = portChannel(port);
  port.once('message', (init: ToServing) => {
    if (init.t !== 'init') throw new Error(`a serving thread's first message must be init, not ${init.t}`);
    const link = new WriterLink(channel, init);
    const end = (code: number) => {
      // The thread's exit code, once nothing holds its event loop: the port no longer does.
      process.exitCode = code;
      port.unref();
    };
    void serveForWriter(init, link, { kind: 'thread', channel, end });
  });
}

async function serveForWriter(init: Extract<ToServing, { t: 'init' }>, link: WriterLink, host: Host): Promise<void> {
  const config = deepFreeze(init.config);
  setAddressPrefix(config.addressPrefix);
  const noun = `serving ${host.kind}`;
  const log = createLogger(init.logLevel, { [host.kind]: init.index }, 'json', link.logDestination);
  const options = runningOptions(config, log);
  let front: FrontEnd | undefined;
  let store: ChainStore | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (code: number) => {
    stopping ??= (async () => {
      try {
        await front?.close();
        // What close left open (keep-alive HTTP connections, WebSockets not yet closed by their client):
        // a process' exit closes it; a thread must.
        if (host.kind === 'thread') front?.closeSockets();
        await store?.close();
      } catch (err) {
        log.error({ err }, `${noun} did not stop cleanly`);
        code = 1;
      }
      log.info(`${noun} stopped`);
      await link.logsFlushed(LOG_FLUSH_MS);
      host.end(code);
    })();
  };
  if (host.kind === 'process') {
    // The writer process relays SIGHUP (options, access file) and asks for shutdown over the channel.
    // Signals sent to the whole process group (Ctrl-C, systemd's control-group kill) reach this process
    // too: SIGINT/SIGTERM start the same graceful stop; SIGHUP is left to the writer, which relays it
    // once with the configuration it read (by default SIGHUP would end this process).
    process.on('SIGHUP', () => log.debug('SIGHUP: the writer process relays reloads'));
    process.on('SIGINT', () => stop(0));
    process.on('SIGTERM', () => stop(0));
  } else {
    // An error nothing caught: this thread's state can no longer be trusted. Its connections close at
    // once (their clients reconnect, to a sibling), it ends, and the writer starts it again.
    process.on('uncaughtException', (err) => {
      log.error({ err }, 'serving thread failed: it closes its connections and ends');
      front?.closeSockets();
      stop(1);
    });
  }
  link.controlledBy({
    // A thread's process metrics are the whole process', which the writer reports once.
    metrics: async () => (front ? (host.kind === 'thread' ? threadShare(await front.metricsJson()) : front.metricsJson()) : []),
    reloadOptions: (next) => void options.reload(deepFreeze(next)),
    reloadAccess: () => void front?.reloadAccess(),
    close: () => stop(0),
    halt: () => {
      front?.closeSockets();
      stop(1);
    },
    writerGone: () => {
      // A store nobody writes would go stale with /ready saying nothing: stop, and say why.
      log.error('the writer process is gone: this serving process stops');
      stop(1);
    },
  });
  try {
    const policy = loadPolicy(config, log, 'using');
    const pem = serverPem(config);
    store = openChainStore(config.dataDir, { readOnly: true, maxReaders: readerSlots(config) });
    front = await serveFrontEnd({ config, log, options, policy, pem, store, writer: link, writerState: () => link.state, sharedPort: init.sharedPort, scrape: () => link.scrape() });
  } catch (err) {
    log.error({ err }, `${noun} could not start`);
    link.tell({ t: 'start-failed', message: (err as Error).message });
    await store?.close();
    await link.logsFlushed(LOG_FLUSH_MS);
    host.end(1);
    return;
  }
  const started = front;
  link.onStored(() => started.storeChanged());
  // Events the writer sent while the pool was starting had no listener yet: whatever the workers
  // read during start-up, they read afresh from here.
  started.storeChanged();
  link.tell({ t: 'listening', port: started.port, tlsPort: started.tlsPort, ...(host.kind === 'thread' ? { tid: kernelThreadId() } : {}) });
}
