// The vocabulary of the call pipeline: a call as it travels, what it ends as, and the shape of a layer.
import type { WireError } from '../errors.js';
import type { InvalidTo, RpcRequest } from '../protocol/jsonrpc.js';
import type { Reply, Session } from '../session/session.js';
import type { Target } from '../dispatch/route.js';
import type { CostClass } from '../pool/scheduler.js';
import type { LimitName } from '../metrics/calls.js';

/** How a call ended, before it is written as a reply. */
export type Outcome =
  /** a front-end handler's result, as JSON text */
  | { readonly kind: 'result'; readonly json: string }
  /** a worker's finished reply bytes (envelope included) */
  | { readonly kind: 'reply'; readonly bytes: Uint8Array }
  /** an error for this request (its id is echoed) */
  | { readonly kind: 'error'; readonly error: WireError }
  /**
   * a message refused for its envelope: answered with its id when readable (`to`), else `"id":null`;
   * `body`: the reply as a worker wrote it (a request read in the pool, src/protocol/read-in-pool.ts)
   */
  | { readonly kind: 'invalid'; readonly error: WireError; readonly to?: InvalidTo; readonly body?: Uint8Array }
  /** a client's reply to a server call: nothing to answer */
  | { readonly kind: 'ignore' };

/**
 * One inbound message on its way through the layers. Each layer fills in what it learns; none
 * removes anything, so the record layer at the end sees the whole story.
 */
export interface Call {
  readonly session: Session;
  /** the message text as the transport decoded it ('' when it came as `bytes`) */
  readonly text: string;
  /**
   * the message's bytes, for one of READ_IN_POOL_FROM_BYTES or more: the transport does not decode
   * it, and the decode layer has it read in the pool (src/protocol/read-in-pool.ts)
   */
  readonly bytes?: Uint8Array;
  /** performance.now() when the message arrived */
  readonly arrived: number;
  /** set by decode */
  request?: RpcRequest;
  /** set by authorize */
  target?: Target;
  /** set by schedule, for pool calls */
  cost?: CostClass;
  /** set by the layer that ends the call */
  outcome?: Outcome;
  /**
   * set by a layer that refuses the call for one of the node's limits, where the error's code alone
   * does not name it (record.ts names the others from the code)
   */
  limit?: LimitName;
  /** set by encode: what the session sends, or null for none */
  reply?: Reply;
}

/**
 * A layer: does its part of `call`, then passes it on to `next` (or ends it by setting
 * `call.outcome` and returning). Layers return a promise only when they wait, so a call that
 * finishes at once costs no microtask per layer.
 */
export type Step = void | Promise<void>;
export type Next = (call: Call) => Step;
export type Layer = (call: Call, next: Next) => Step;

/** Runs `then` after `step`, without a promise when `step` finished at once. */
export function after(step: Step, then: () => void): Step {
  return step instanceof Promise ? step.then(then) : then();
}

/** Builds one function from layers (outermost first) and the final step. */
export function compose(layers: readonly Layer[], last: Next): Next {
  return layers.reduceRight<Next>((next, layer) => (call) => layer(call, next), last);
}
