// How worker-side handler tables are typed against the API-set tables (src/api/registry.ts), so
// that a method cannot exist on one side only, nor be served by a worker when it runs in the front end.
import type { ApiSetSpec, HandlerTable } from '../../src/api/types.js';
import type { WorkerContext } from '../context.js';
import type { ReplyWriter } from '../reply-writer.js';

/** Writes the call's result JSON into `out`. Throws RpcError for an fc-style failure. */
export type Handler = (ctx: WorkerContext, params: unknown[], out: ReplyWriter) => void | Promise<void>;

/** One handler per method the pool serves; methods that run in the front end have none. */
export type HandlersFor<S extends ApiSetSpec> = HandlerTable<S, 'pool', Handler>;
