// The worker pool: piscina threads running workers/entry.ts against the chain store. The front end
// sends msgpackr bytes (transferred) and gets back finished reply bytes (transferred) or plain error data.
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { encode } from '../protocol/codec.js';
import type { PoolAnswer, PoolTask, WorkerInit } from '../protocol/thread-messages.js';
import { RPC, protocolError, type WireError } from '../errors.js';

export interface CallPool {
  /** Runs one call; resolves to the reply bytes or to an error. Never rejects. */
  run(task: PoolTask): Promise<PoolAnswer>;
  /** Calls waiting for a worker. */
  readonly queued: number;
  /** Tells the workers that the store changed (after a block): their next reads see it. */
  storeChanged(): void;
  /** Resolves once every worker has loaded and opened the store. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Named by URL, not imported: the front end never loads worker code. */
const WORKER_ENTRY = new URL('../../workers/entry.js', import.meta.url).href;

export function openPool(config: Config, opts: { maxQueue: number }): CallPool {
  const ready = new SharedArrayBuffer(4);
  const readyCount = new Int32Array(ready);
  const storeVersion = new SharedArrayBuffer(4);
  const version = new Int32Array(storeVersion);
  const init: WorkerInit = { config, ready, storeVersion };
  const piscina = new Piscina({
    filename: WORKER_ENTRY,
    minThreads: config.workers,
    maxThreads: config.workers,
    // Workers hold an open LMDB environment; keep them for the life of the node.
    idleTimeout: Number.POSITIVE_INFINITY,
    maxQueue: opts.maxQueue,
    workerData: init,
    closeTimeout: 5000,
  });
  // A worker that dies is replaced by piscina; its task rejects and the caller gets -32603.
  piscina.on('error', () => {});
  return {
    async run(task) {
      const bytes = encode(task);
      try {
        const answer = (await piscina.run(Piscina.move(bytes), { transferList: undefined })) as PoolAnswer;
        return answer;
      } catch (err) {
        const queueFull = (err as Error)?.message?.includes('queue is at limit');
        return { error: protocolError(queueFull ? RPC.SERVER_BUSY : RPC.INTERNAL) };
      }
    },
    storeChanged() {
      Atomics.add(version, 0, 1);
    },
    get queued() {
      return piscina.queueSize;
    },
    // Terminating a worker while it is still inside LMDB's native open aborts the whole process, so
    // the node does not serve (and tests do not close it) before every worker is up.
    async ready(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Atomics.load(readyCount, 0) < config.workers) {
        if (Date.now() > deadline) throw new Error(`worker threads did not start within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () => piscina.close({ force: false }),
  };
}
