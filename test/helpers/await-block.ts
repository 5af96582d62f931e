// Run as a child process by test/kill-restart.test.ts: waits until the chain store in the data
// directory argv[2], which the process argv[4] (`generate`) is writing, holds block argv[3] (at
// least 1), prints the head it found and exits; exits printing nothing if the writer ends first
// without the store reaching that block. A process of its own: a reader opened in the test process
// while another process writes left lmdb-js unable to open the same environment for writing there
// afterwards (checkStore), and the test must not depend on that.
//
// The environment is opened once, once its data file holds LMDB's two meta pages, and read-only
// tables the writer has not made yet are asked for again on the next poll (openChainStore, used here
// before, threw on them and left each handle open). The test starts this reader only after
// generate has committed its genesis: a reader that opened the store while generate was creating it
// crashed generate now and then (kill-restart.test.ts).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { ObjectKey } from '../../src/chain/store/store.js';

const dataDir = process.argv[2]!;
const target = Math.max(1, Number(process.argv[3] ?? 1));
const writer = Number(process.argv[4]);
const dataFile = path.join(dataDir, 'chain', 'data.mdb');
/** LMDB's two meta pages (4 KiB each here): below that the writer is still creating the file. */
const META_BYTES = 2 * 4096;

const writerAlive = (): boolean => {
  try {
    process.kill(writer, 0);
    return true;
  } catch {
    return false;
  }
};

let root: RootDatabase | undefined;
let objects: Database<Buffer, ObjectKey> | undefined;
function head(): number {
  if (!root) {
    if (!existsSync(dataFile) || statSync(dataFile).size < META_BYTES) return -1;
    root = open({ path: path.join(dataDir, 'chain'), readOnly: true, maxDbs: 64, maxReaders: 512, mapSize: 64 * 1024 ** 3, cache: false });
  }
  // A fresh snapshot for each read, as the workers take one after a block (workers/entry.ts).
  root.resetReadTxn();
  // A read-only handle gets no table the writer has not made yet: asked again on the next poll.
  objects ??= root.openDB<Buffer, ObjectKey>({ name: 'objects', encoding: 'binary' }) ?? undefined;
  const dgp = objects?.get([2, 1, 0]);
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
  if (!alive) {
    // Why it gives up, for the test's message.
    process.stderr.write(`await-block: the writer ended with the store at head ${h} (block ${target} awaited; store ${root ? 'open' : 'not open'})\n`);
    break;
  }
  await new Promise((r) => setTimeout(r, 10));
}
await root?.close();
