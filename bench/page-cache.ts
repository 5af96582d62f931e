// The store, read through once before the runs, so that every system measured reads it from the
// page cache. Without this the first system measured pays for the cold reads and the ones after it
// do not: on the default chain (6.9 GB) after the cache was dropped, ws-history on graphene-rpc made
// 3,495 calls/s with the CPUs a third in I/O wait, and 13,111 once the store was in the cache.
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

export interface StoreWarmup {
  /** bytes of the store's files */
  readonly bytes: number;
  /** whether they were read (the store is at most `limitBytes`) */
  readonly read: boolean;
  /** the bound: half the machine's memory, past which the cache could not keep the store while the systems run */
  readonly limitBytes: number;
  readonly seconds: number;
}

const CHUNK = 8 * 1024 * 1024;

/** Reads every file of the store in `dir` once, in order, unless together they pass `limitBytes`. */
export function warmPageCache(dir: string, limitBytes: number): StoreWarmup {
  const started = performance.now();
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(dir, entry.name));
  const bytes = files.reduce((n, file) => n + statSync(file).size, 0);
  if (bytes > limitBytes) return { bytes, read: false, limitBytes, seconds: 0 };
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (const file of files) {
    const fd = openSync(file, 'r');
    try {
      while (readSync(fd, buffer, 0, CHUNK, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
  return { bytes, read: true, limitBytes, seconds: (performance.now() - started) / 1000 };
}
