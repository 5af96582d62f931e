// The schedule layer: a pool call gets its cost class, and the connection it belongs to becomes its
// owner in the fair scheduler (src/pool/scheduler.ts): connections are served in turn, light calls
// are never stuck behind heavy ones, and the node-wide bound (--max-queued-calls) answers -32010 at
// once instead of letting a queue grow. While the node holds more than --max-buffered-bytes for
// slow readers, heavy calls (the ones with big replies) get -32010 too, until it drains.
// A call guessed light gets its shape, so that the scheduler can learn from it if it turns out slow
// (src/pool/learnt-costs.ts); a shape learnt heavy makes the call heavy here. Front-end calls pass
// straight through.
import { RPC, limitError } from '../errors.js';
import type { Layer } from './types.js';
import { costOf } from './cost.js';
import { shapeOf, type LearntCosts } from '../pool/learnt-costs.js';

const OVER_MEMORY = limitError(RPC.NODE_BUSY, 'replies held for slow readers are over --max-buffered-bytes');

export function schedule(memoryOver: () => boolean, learnt?: LearntCosts): Layer {
  return (call, next) => {
    if (call.target!.runsIn !== 'pool') return next(call);
    call.cost = costOf(call.target!);
    // A call guessed light whose shape has used up its slice often enough is heavy from the start.
    if (call.cost === 'light' && learnt) {
      const shape = shapeOf(call.target!);
      if (learnt.isHeavy(shape)) call.cost = 'heavy';
      else call.shape = shape;
    }
    if (call.cost === 'heavy' && memoryOver()) {
      call.outcome = { kind: 'error', error: OVER_MEMORY };
      call.limit = 'max-buffered-bytes';
      return;
    }
    return next(call);
  };
}
