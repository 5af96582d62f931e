// What piscina loads in each worker thread. piscina loads its file with require() first, and on
// Node 20.19+ require() of an ES module is on by default: that path can fail a native assertion
// (module_wrap.cc, CreateRequiredModuleFacade) and abort the whole process, which it did in CI.
// This file is CommonJS, so require() loads it without that path, and it brings in the real entry
// (an ES module, named in workerData) with import(). piscina awaits the exported promise before
// the worker takes tasks.
import { workerData } from 'node:worker_threads';

const { entry } = workerData as { entry: string };
const entryModule = import(entry).then(
  (m: { default: unknown; heavy?: unknown }) => m,
  (err: unknown) => {
    // piscina would swallow this and report only "no handler function exported"; thrown uncaught,
    // the cause (say, a store that cannot be opened) is what the worker fails with.
    queueMicrotask(() => {
      throw err;
    });
    throw err;
  },
);
export default entryModule.then((m) => m.default);
/**
 * The handler of heavy tasks, which piscina runs by this name (src/pool/worker-roles.ts): the pool's
 * balancer tells the kinds apart by it, and the worker runs them at their priority. A test entry
 * without one runs them with its default.
 */
export const heavy = entryModule.then((m) => m.heavy ?? m.default);
