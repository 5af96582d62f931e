// Temporary directories that a test removes when it ends.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new empty directory under the system temp dir, removed at the test's teardown. */
export function tempDir(t: ExecutionContext, prefix = 'graphene-rpc-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
