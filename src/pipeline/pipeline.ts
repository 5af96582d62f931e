// The call pipeline: the one place every call passes, from either transport. The whole life of a
// call is this list. Layers run outermost first; decode…run do their work on the way in, encode and
// record on the way out:
//
//   message ─▶ decode ─▶ authorize ─▶ admit ─▶ limit rate ─▶ limit lists ─▶ schedule ─▶ run ─┐ front end,
//   reply   ◀─ record ◀─ encode ◀────────────────────────────────────────────────────────────────┘ or the pool
//
// A new per-call concern (a rate limit, a time budget) is one more layer in this list.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { FrontTables } from '../api/registry.js';
import type { FrontHandler, Services } from '../handlers/types.js';
import type { Scheduler } from '../pool/scheduler.js';
import { CallStats } from '../metrics/calls.js';
import { compose, type Call, type Step } from './types.js';
import { record } from './record.js';
import { encode } from './encode.js';
import { decode } from './decode.js';
import { authorize } from './authorize.js';
import { admit } from './admit.js';
import { limitLists } from './limit-lists.js';
import { limitRate } from './limit-rate.js';
import type { LearntCosts } from '../pool/learnt-costs.js';
import type { ReplySizes } from '../pool/reply-sizes.js';
import { schedule } from './schedule.js';
import { runner } from './run.js';

export interface PipelineDeps {
  readonly config: Config;
  readonly log: Logger;
  readonly front: FrontTables<FrontHandler>;
  readonly scheduler: Scheduler;
  readonly services: Services;
  /** whether the node holds more than --max-buffered-bytes for slow readers now */
  readonly memoryOver: () => boolean;
  /** where the record layer counts calls (the node's metrics); tests of the pipeline alone may leave it out */
  readonly calls?: CallStats;
  /** cost classes learnt from calls that used up their slice (the scheduler notes them) */
  readonly learnt?: LearntCosts;
  /** sizes of large replies by call shape (the scheduler notes them) */
  readonly replySizes?: ReplySizes;
  /** where requests dropped unread are counted (large ones whose connection closed before a worker read them) */
  readonly droppedUnread?: { n: number };
}

export interface Pipeline {
  /** Takes a call through every layer; when it settles, `call.reply` is what to send. */
  readonly handle: (call: Call) => Step;
  readonly scheduler: Scheduler;
}

export function buildPipeline({ config, log, front, scheduler, services, memoryOver, calls = new CallStats(), learnt, replySizes, droppedUnread }: PipelineDeps): Pipeline {
  const run = runner(front, scheduler, services);
  const handle = compose(
    [
      record(log, calls), //                        9. counts the answered call (metrics), logs refusals and, at debug, the served line
      encode, //                                    8. the outcome as a reply in fc's envelope
      decode(config, scheduler, calls, droppedUnread), // 1. text → request (large ones read in the pool); unreadable messages end here
      authorize(config.loginApiVariant, run), //    2. API-ID table and login state → the call's target
      admit(config), //                             3. per-connection limits
      limitRate(config), //                         4. calls per second, per connection and per user
      limitLists(config), //                        5. id and name lists within --max-ids-per-call
      schedule(memoryOver, learnt, replySizes), //  6. cost class and owner for the fair scheduler
    ],
    run.run, //                                     7. the handler, in the front end or in the pool
  );
  return { handle, scheduler };
}
