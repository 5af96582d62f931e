// Which methods a worker thread has run often enough that a slow call of theirs says something of
// the call. A thread's first calls of a method compile the method's code and map the store's pages
// it reads: a light call among them may use up its slice for that alone, and its shape would be
// learnt heavy for minutes (src/pool/learnt-costs.ts) from what was the thread's cost, not the
// call's. A node started under load hits this in every worker thread at once.

import { COLD_CALLS } from '../src/tuning.js';

export class MethodWarmth {
  /** set → method → calls of it started in this thread (only methods of the API: bounded); two maps, so that no key is built per call */
  private readonly runs = new Map<string, Map<string, number>>();

  constructor(private readonly coldCalls = COLD_CALLS) {}

  /** Counts a call of `set.method` as it starts; true while it is among the thread's first coldCalls of it. */
  start(set: string, method: string): boolean {
    let methods = this.runs.get(set);
    if (!methods) this.runs.set(set, (methods = new Map()));
    const n = methods.get(method) ?? 0;
    if (n >= this.coldCalls) return false;
    methods.set(method, n + 1);
    return true;
  }
}
