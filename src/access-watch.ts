// Watching the access file for changes, so that an edit takes effect without a signal. Polled, as
// fs.watch misses edits made by renaming a new file into place. One poller per file, whatever the
// number of nodes in this process watching it (tests start many): each node adds its reload to the
// file's set, and the poller goes when the last one leaves.
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { ACCESS_FILE_POLL_MS } from './tuning.js';

const watchers = new Map<string, Set<() => void>>();

/** Calls `onChange` when `file` changes; returns the function that stops it. */
export function watchAccessFile(file: string, onChange: () => void): () => void {
  let set = watchers.get(file);
  if (!set) {
    const listeners = new Set<() => void>();
    watchers.set(file, (set = listeners));
    watchFile(file, { interval: ACCESS_FILE_POLL_MS, persistent: false }, (now: Stats, before: Stats) => {
      if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) for (const fn of listeners) fn();
    });
  }
  set.add(onChange);
  return () => {
    set.delete(onChange);
    if (set.size === 0) {
      watchers.delete(file);
      unwatchFile(file);
    }
  };
}
