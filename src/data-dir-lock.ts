// One node per data directory: two nodes on one store would both produce blocks on one chain. The
// lock is a file holding the holder's pid, made with O_EXCL; a lock whose process is gone (a crash,
// kill -9) is stale and taken over.
import { mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'node.lock';

export class DataDirInUse extends Error {}

/** A --data-dir that cannot be made or written: the message names the option, the path and why. */
export class DataDirUnusable extends Error {}

const code = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

const unusable = (dataDir: string, why: string): DataDirUnusable => new DataDirUnusable(`--data-dir ${dataDir}: ${why}`);

/**
 * Makes the directory and its missing parents, one level at a time, each with a plain mkdir. Not
 * mkdirSync's `recursive`: on Node.js 20 it loops forever on a path it cannot create under /proc
 * (mkdir there fails with ENOENT, which `recursive` takes for a missing parent and retries).
 */
function makeDir(dataDir: string, dir: string): void {
  try {
    if (statSync(dir).isDirectory()) return;
    throw unusable(dataDir, dir === path.resolve(dataDir) ? 'it exists and is not a directory' : `${dir} is not a directory`);
  } catch (err) {
    if (err instanceof DataDirUnusable) throw err;
    // ENOTDIR: a parent is a file; the look at the parents below names it.
    if (code(err) !== 'ENOENT' && code(err) !== 'ENOTDIR') throw unusable(dataDir, `cannot read ${dir} (${code(err)})`);
  }
  const parent = path.dirname(dir);
  if (parent !== dir) makeDir(dataDir, parent);
  try {
    mkdirSync(dir);
  } catch (err) {
    if (code(err) === 'EEXIST' && statSync(dir).isDirectory()) return;
    // ENOENT with the parent there: a file system that does not allow new directories (/proc, /sys).
    const why = code(err) === 'ENOENT' ? `${parent} does not allow new directories` : code(err);
    throw unusable(dataDir, `cannot create ${dir} (${why})`);
  }
}

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
  makeDir(dataDir, path.resolve(dataDir));
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      let fd: number;
      try {
        fd = openSync(file, 'wx');
      } catch (err) {
        if (code(err) === 'EEXIST') throw err;
        // Anything but a lock already there: the directory cannot be written (EACCES, EROFS, ENOSPC…).
        throw unusable(dataDir, `cannot write its lock file ${file} (${code(err)})`);
      }
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        rmSync(file, { force: true });
      };
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
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
