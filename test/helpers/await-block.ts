// Run as a child process by test/kill-restart.test.ts: waits until the chain store in the data
// directory argv[2], which the process argv[4] (`generate`) is writing, holds block argv[3] (at
// least 1), prints the head it found and exits; exits printing nothing if the writer ends first
// without the store reaching that block. A process of its own: a reader opened in the test process
// while another process writes left lmdb-js unable to open the same environment for writing there
// afterwards (checkStore), and the test must not depend on that.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openChainStore, type ChainStore } from '../../src/chain/store.js';

const dataDir = process.argv[2]!;
const target = Math.max(1, Number(process.argv[3] ?? 1));
const writer = Number(process.argv[4]);

const writerAlive = (): boolean => {
  try {
    process.kill(writer, 0);
    return true;
  } catch {
    return false;
  }
};

let store: ChainStore | undefined;
function head(): number {
  if (!store && existsSync(path.join(dataDir, 'chain'))) {
    try {
      store = openChainStore(dataDir, { readOnly: true });
    } catch {
      // The directory is there but not yet its tables: a reader cannot open it yet; poll again.
      return -1;
    }
  }
  if (!store) return -1;
  // Opened read-only before the writer created its tables, a handle has none of them (lmdb-js gives
  // no table for a name it cannot create): open it again on the next poll.
  if (store.objects === undefined) {
    void store.close();
    store = undefined;
    return -1;
  }
  // A fresh snapshot for each read, as the workers take one after a block (workers/entry.ts).
  store.root.resetReadTxn();
  const dgp = store.objects.get([2, 1, 0]);
  return dgp === undefined ? -1 : (JSON.parse(dgp.toString('utf8')) as { head_block_number: number }).head_block_number;
}

for (;;) {
  // Whether the writer lives is asked before reading, so a last read follows its end.
  const alive = writerAlive();
  const h = head();
  if (h >= target) {
    process.stdout.write(`${h}\n`);
    break;
  }
  if (!alive) break;
  await new Promise((r) => setTimeout(r, 10));
}
await store?.close();
