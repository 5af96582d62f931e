// Whether this node should get traffic: GET /ready for load balancers (HAProxy's `option httpchk GET
// /ready`). Ready means: the node is not shutting down; every worker thread is up now (the node does
// not listen before they all are, and a thread being replaced, or its replacement still starting, is
// not up); the store accepts blocks (the last block write was not refused); a follower is connected
// to its upstream and at most --follow-max-lag-blocks behind it; the chain's head block is
// younger than --ready-max-head-age; and the data directory accepts writes: it is writable, and its
// disk has --min-free-disk-bytes free, the bound block production checks before each block (so a
// disk too full for the next block shows here before a block is refused). GET /health only says the
// process answers.
import { accessSync, constants } from 'node:fs';
import { parseFcTime } from './chain/fc/fc-json.js';
import type { ChainStore } from './chain/store/store.js';
import { diskTooFull, type BlockWriteFailure } from './chain/node/producer.js';

export interface ReadyState {
  readonly ready: boolean;
  /** why not, in a few words (absent when ready) */
  readonly reason?: string;
  readonly headBlockNumber: number;
  readonly headAgeSeconds: number;
}

export interface Probes {
  ready(): ReadyState;
}

export function readiness(opts: {
  store: ChainStore;
  dataDir: string;
  maxHeadAgeSeconds: number;
  draining: () => boolean;
  /** why the store refuses blocks now (the producer's blockWriteFailure), or undefined */
  blockWriteFailure: () => BlockWriteFailure | undefined;
  /** on a follower: why it should get no traffic (disconnected, behind its upstream, stopped), or undefined */
  following?: () => string | undefined;
  /** worker threads up now, and how many there should be */
  workers: () => { readonly up: number; readonly of: number };
  /** --min-free-disk-bytes as it is now (it reloads) */
  minFreeDiskBytes: () => number;
}): Probes {
  const disk = { dataDir: opts.dataDir, minFreeBytes: opts.minFreeDiskBytes };
  return {
    ready() {
      const dgp = JSON.parse(opts.store.objects.get([2, 1, 0])!.toString('utf8')) as { head_block_number: number; time: string };
      const headAgeSeconds = Math.max(0, Math.floor(Date.now() / 1000) - parseFcTime(dgp.time));
      const base = { headBlockNumber: dgp.head_block_number, headAgeSeconds };
      if (opts.draining()) return { ...base, ready: false, reason: 'shutting down' };
      const workers = opts.workers();
      if (workers.up < workers.of) return { ...base, ready: false, reason: `${workers.up} of ${workers.of} worker threads up` };
      // Before the head age: while blocks cannot be written the head also grows old, and this says why.
      const failure = opts.blockWriteFailure();
      if (failure) {
        const seconds = Math.max(0, Math.floor((Date.now() - failure.since) / 1000));
        return { ...base, ready: false, reason: `blocks cannot be written: ${failure.error} (for ${seconds} s, ${failure.attempts} attempts)` };
      }
      const following = opts.following?.();
      if (following !== undefined) return { ...base, ready: false, reason: following };
      if (opts.maxHeadAgeSeconds > 0 && headAgeSeconds > opts.maxHeadAgeSeconds) {
        return { ...base, ready: false, reason: `head block is ${headAgeSeconds} s old (--ready-max-head-age ${opts.maxHeadAgeSeconds})` };
      }
      let full: string | undefined;
      try {
        accessSync(opts.dataDir, constants.W_OK);
        full = diskTooFull(disk);
      } catch (err) {
        return { ...base, ready: false, reason: `data directory does not accept writes (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
      }
      if (full) return { ...base, ready: false, reason: `data directory does not accept writes: ${full}` };
      return { ...base, ready: true };
    },
  };
}
