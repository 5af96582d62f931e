// What piscina loads in each worker thread. piscina loads its file with require() first, and on
// Node 20.19+ require() of an ES module is on by default: that path can fail a native assertion
// (module_wrap.cc, CreateRequiredModuleFacade) and abort the whole process, which it did in CI.
// This file is CommonJS, so require() loads it without that path, and it brings in the real entry
// (an ES module, named in workerData) with import(). piscina awaits the exported promise before
// the worker takes tasks.
import { workerData } from 'node:worker_threads';

const { entry } = workerData as { entry: string };
const handler = import(entry).then(
  (m: { default: unknown }) => m.default,
  (err: unknown) => {
    // piscina would swallow this and report only "no handler function exported"; thrown uncaught,
    // the cause (say, a store that cannot be opened) is what the worker fails with.
    queueMicrotask(() => {
      throw err;
    });
    throw err;
  },
);
export default handler;
/** The same handler under the name heavy tasks are run by, so that the pool's balancer can tell them apart (src/pool/worker-roles.ts). */
export const heavy = handler;
