// The schedule layer: a pool call gets its cost class, and the connection it belongs to becomes its
// owner in the fair scheduler (src/pool/scheduler.ts): connections are served in turn, light calls
// are never stuck behind heavy ones, and the node-wide bound (--max-queued-calls) answers -32010 at
// once instead of letting a queue grow. While the node holds more than --max-buffered-bytes for
// slow readers, heavy calls (the ones with big replies) get -32010 too, until it drains.
// A call guessed light whose shape the scheduler has learnt heavy (src/pool/learnt-costs.ts), or
// whose shape answers large replies (src/pool/reply-sizes.ts), is heavy here. Front-end calls pass
// straight through.
import { RPC, limitError } from '../errors.js';
import type { Layer } from './types.js';
import { costOf } from './cost.js';
import { shapeOf, type LearntCosts } from '../pool/learnt-costs.js';
import type { ReplySizes } from '../pool/reply-sizes.js';

const OVER_MEMORY = limitError(RPC.NODE_BUSY, 'replies held for slow readers are over --max-buffered-bytes');

export function schedule(memoryOver: () => boolean, learnt?: LearntCosts, replySizes?: ReplySizes): Layer {
  return (call, next) => {
    if (call.target!.runsIn !== 'pool') return next(call);
    call.cost = costOf(call.target!);
    // A call guessed light whose shape has used up its slice often enough is heavy from the start.
    // Its shape is made only while the learner keeps some (most of the time it keeps none).
    if (call.cost === 'light' && learnt && learnt.kept > 0 && learnt.isHeavy(shapeOf(call.target!))) call.cost = 'heavy';
    // So is one whose shape answers more than a slice can write (made only for methods that have).
    if (call.cost === 'light' && replySizes?.heavy(call.target!)) call.cost = 'heavy';
    if (call.cost === 'heavy' && memoryOver()) {
      call.outcome = { kind: 'error', error: OVER_MEMORY };
      call.limit = 'max-buffered-bytes';
      return;
    }
    return next(call);
  };
}
