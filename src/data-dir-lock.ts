// One node per data directory: two nodes on one store would both produce blocks on one chain. The
// lock is a file holding the holder's pid, made with O_EXCL; a lock whose process is gone (a crash,
// kill -9) is stale and taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'node.lock';

export class DataDirInUse extends Error {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the data directory's lock; returns the function that gives it back. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new DataDirInUse(`data directory ${path.resolve(dataDir)} is in use by another node (pid ${pid}; lock file ${file})`);
      }
      if (pid === process.pid) throw new DataDirInUse(`data directory ${path.resolve(dataDir)} is already in use by a node in this process`);
      // Stale: its process is gone.
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUse(`data directory ${path.resolve(dataDir)}: cannot take its lock file ${file}`);
}
