// piscina describes each worker thread to its balancer with WorkerInfo's `interface`: an object
// literal of getters (id, currentUsage, …) that it builds afresh for every worker each time it places
// a task, and again each time a worker comes free with tasks waiting. V8 keeps an object's getters in
// its hidden class, so every such object brings a hidden class and descriptor array of its own,
// allocated in the old generation; the young objects those point to (the getters' closures) then
// survive each young collection as if alive, are copied and promoted, and are freed only by a full
// collection. On the front end, at 4,500 small calls/s, that was most of what each young collection
// kept (about 0.7 of 0.8 MB), and so most of its pause (README "The front end's collector pauses").
//
// The description only reads the worker's live state through its getters, so one per worker serves
// as well as a new one per look. keepWorkerDescriptions makes WorkerInfo's `interface` build it once
// per worker and keep it (weakly: a worker that is gone takes its description with it).
import type { Piscina } from 'piscina';

/** The symbol under which piscina's worker description names its WorkerInfo (piscina's symbols.ts). */
const WORKER_DATA = 'Piscina.kWorkerData';
/** Marks a getter as ours, so that several pools in one process patch the prototype once. */
const KEEPS = Symbol('graphene-rpc keeps worker descriptions');

/** The WorkerInfo a worker description names, or undefined when it names none (another piscina). */
export function describedWorker(description: object): object | undefined {
  const key = Object.getOwnPropertySymbols(description).find((s) => s.description === WORKER_DATA);
  const info = key === undefined ? undefined : (description as Record<symbol, unknown>)[key];
  return info !== null && typeof info === 'object' ? info : undefined;
}

/**
 * From a worker description piscina gives out ('workerCreate'), makes every WorkerInfo keep its
 * description. Returns false when the description is not of the shape this was written for (another
 * piscina version): the pool works as before, only without the saving.
 */
export function keepWorkerDescriptions(description: object): boolean {
  const info = describedWorker(description);
  if (info === undefined) return false;
  const proto = Object.getPrototypeOf(info) as object | null;
  const own = proto && Object.getOwnPropertyDescriptor(proto, 'interface');
  const build = own?.get;
  if (!proto || !build || !own.configurable) return false;
  if ((build as { [KEEPS]?: true })[KEEPS]) return true;
  const kept = new WeakMap<object, unknown>();
  const get = function (this: object): unknown {
    let d = kept.get(this);
    if (d === undefined) kept.set(this, (d = build.call(this)));
    return d;
  };
  Object.defineProperty(get, KEEPS, { value: true });
  Object.defineProperty(proto, 'interface', { ...own, get });
  return true;
}

/** Applies keepWorkerDescriptions when the pool's first worker is described; tells `failed` if it could not. */
export function keepDescriptionsOf(piscina: Piscina, failed: () => void): void {
  piscina.once('workerCreate', (description: object) => {
    if (!keepWorkerDescriptions(description)) failed();
  });
}
