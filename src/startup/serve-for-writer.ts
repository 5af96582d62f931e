// A serving process of --processes N > 1 (src/serving-process.ts runs this): a front end over the
// store opened read-only, whose chain writer is the writer process, reached over IPC.
import { deepFreeze } from '../config.js';
import { createLogger } from '../log.js';
import { openChainStore, type ChainStore } from '../chain/store/store.js';
import { setAddressPrefix } from '../chain/crypto/public-key.js';
import { WriterLink, type Channel } from '../processes/writer-link.js';
import type { ToServing } from '../processes/messages.js';
import { loadPolicy, serverPem } from './credentials.js';
import { runningOptions } from './options.js';
import { readerSlots } from './writable-store.js';
import { serveFrontEnd, type FrontEnd } from './front-end.js';

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
    const pem = serverPem(config);
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
