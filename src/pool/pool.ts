// The worker pool: piscina threads running workers/entry.ts against the chain store. The front end
// sends msgpackr bytes (transferred) and gets back finished reply bytes (transferred) or plain error data.
//
// Calls are batched: every call that arrives in one event-loop turn (uWS delivers a socket's whole
// read in one go) is sent in one task, split over the workers, so that the cost of crossing threads
// is paid per batch. An idle node sends batches of one, with no added wait: the batch leaves at the
// end of the turn (setImmediate).
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { encode } from '../protocol/codec.js';
import type { PoolAnswer, PoolTask, WorkerInit } from '../protocol/thread-messages.js';
import { RPC, protocolError } from '../errors.js';

export interface CallPool {
  /** Runs one call; resolves to the reply bytes or to an error. Never rejects. */
  run(task: PoolTask): Promise<PoolAnswer>;
  /** Calls in the pool (batched, queued or running). */
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
    // Limits count calls, not batches: see `inPool` below.
    maxQueue: Number.POSITIVE_INFINITY,
    workerData: init,
    closeTimeout: 5000,
  });
  // A worker that dies is replaced by piscina; its task rejects and the caller gets -32603.
  piscina.on('error', () => {});
  const maxBatch = 64;
  let inPool = 0;
  let pending: { task: PoolTask; resolve: (a: PoolAnswer) => void }[] = [];
  let scheduled = false;

  const send = (items: typeof pending) => {
    const bytes = encode(items.map((i) => i.task));
    piscina.run(Piscina.move(bytes)).then(
      (answers: PoolAnswer[]) => items.forEach((it, i) => it.resolve(answers[i] ?? { error: protocolError(RPC.INTERNAL) })),
      () => items.forEach((it) => it.resolve({ error: protocolError(RPC.INTERNAL) })),
    );
  };

  const flush = () => {
    scheduled = false;
    const items = pending;
    pending = [];
    if (items.length === 0) return;
    // Spread the turn's calls over the workers, in batches of at most maxBatch.
    const size = Math.min(maxBatch, Math.max(1, Math.ceil(items.length / config.workers)));
    for (let i = 0; i < items.length; i += size) send(items.slice(i, i + size));
  };

  return {
    run(task) {
      if (inPool >= opts.maxQueue) return Promise.resolve({ error: protocolError(RPC.SERVER_BUSY) });
      inPool++;
      return new Promise<PoolAnswer>((resolve) => {
        pending.push({
          task,
          resolve: (a) => {
            inPool--;
            resolve(a);
          },
        });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    storeChanged() {
      Atomics.add(version, 0, 1);
    },
    get queued() {
      return inPool;
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
