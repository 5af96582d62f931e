// Fair scheduling of pool calls. One FIFO queue for the whole node lets the connection that queues
// most be served most: 99 pipelined calls of one client go before a newcomer's one. Instead:
//
//  - every share has its own queue, and tasks are filled round robin: one call from each share
//    with calls waiting, then a second from each, and so on (deficit-free round robin: calls, not
//    their cost, are the unit within a class). A share is a WebSocket connection, or a client
//    address for HTTP requests (Owner.share): each request is a connection of its own;
//  - calls are of two cost classes. Light calls (one object, a short list, a small page) are batched
//    many to a task; heavy calls (long id lists, large pages, whole-account reads) at most
//    HEAVY_CALLS_PER_TASK to a task and never with light ones, so a light call never waits behind a
//    heavy one inside a task. While light calls are about (one was queued in the last
//    LIGHT_RECENT_MS), heavy tasks hold at most `workers - 1` workers, keeping one for light calls;
//    with only heavy calls about, they may use every worker (the pool is not left idle);
//  - at most `2 × workers` tasks are in the pool at once (one running and one ready per worker; the
//    ready one is handed over as soon as a worker is free). Everything else waits here, where the
//    order can still be chosen, instead of in piscina's FIFO;
//  - tasks are still built at the end of an event-loop turn (setImmediate), so the calls of one
//    turn travel together, and again whenever a task comes back;
//  - light tasks go eagerly up to EAGER_LIGHT_TASKS in the pool (a second once SPREAD_FROM_CALLS
//    wait): two workers in turn keep the front end from waiting on one. Past that, light calls that
//    arrive wait for a light task to come back and go together in the next task, until a whole
//    task's worth (MAX_CALLS_PER_TASK) waits or the oldest has waited HOLD_LIGHT_MS: only then is
//    another sleeping worker woken, for all that waits. Each task costs a crossing and a wake
//    whatever it carries, so spreading whatever had arrived over every idle worker made each added
//    worker raise the CPU a call costs. An idle pool gets a few calls in one task, more in two;
//  - an owner's queued calls are dropped once it has closed: they never run (they are answered
//    CALL_CANCELLED as the scheduler comes to them, which costs a closed owner nothing up front);
//    its running ones are cancelled: each call in the pool has a cancel slot (CallPool.cancel), set
//    when its owner closes, and the worker stops the call at its next look at its deadline;
//  - a task still in a worker HARD_BOUND_GRACE_MS after the last deadline of its calls is aborted:
//    its worker is terminated and replaced, so a call that never checks its deadline (stuck in a
//    long native read, say) cannot keep a worker for good.
//
// The node-wide bound (`maxQueued`: queued plus running calls) is enforced at submit.
import type { PoolAnswer, PoolTask } from '../protocol/thread-messages.js';
import { RPC, limitError, protocolError } from '../errors.js';
import type { CallPool } from './pool.js';
import { shapeOf, type LearntCosts } from './learnt-costs.js';
import type { ReplySizes } from './reply-sizes.js';
import { READ_SET } from '../protocol/read-in-pool.js';
import { HEAVY_REPLY_BYTES, HARD_BOUND_GRACE_MS, EAGER_LIGHT_TASKS, HEAVY_CALLS_PER_TASK, LIGHT_RECENT_MS, QUANTUM, SPREAD_FROM_CALLS, HOLD_LIGHT_MS, SWEEP_EVERY_MS, MAX_CALLS_PER_TASK, TASKS_PER_WORKER } from '../tuning.js';

/**
 * A task's hard-bound signal, in the EventEmitter shape piscina accepts besides AbortSignal. An
 * AbortSignal's addEventListener and removeEventListener, once per task, cost more than the rest of
 * what the scheduler does for a task of a few calls (EventTarget's listener records, a WeakRef each).
 * Piscina adds one listener per run of the task (more when a failed task's calls run again apart).
 */
class TaskSignal {
  aborted = false;
  readonly reason = 'the task ran past its hard time bound';
  private readonly listeners: (() => void)[] = [];

  once(_event: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }

  off(_event: 'abort', listener: () => void): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  removeListener(event: 'abort', listener: () => void): void {
    this.off(event, listener);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    for (const l of this.listeners.splice(0)) l();
  }
}

export type CostClass = 'light' | 'heavy';

/** An owner's calls in the pool, as the scheduler counts them (Owner.inPool). */
export interface InPool {
  calls: number;
  expectedBytes: number;
}

interface Waiting {
  readonly owner: Owner;
  readonly task: PoolTask;
  readonly answered: (a: PoolAnswer) => void;
  /** performance.now() at submit */
  readonly at: number;
  /**
   * its place in its owner's order (performance.now() when its request arrived, or at submit): a
   * connection's replies leave in this order, so its calls are queued and run in it
   */
  readonly order: number;
  /** reply bytes this call is expected to answer (ReplySizes), counted in its owner's inPool while in the pool */
  expected: number;
}

/** A call's shape (LearntCosts), from its task: only wanted once a call has used up its slice, or some shape has. */
const shapeOfTask = (t: PoolTask) => shapeOf({ setKey: t.set, method: t.method, args: t.params });
/**
 * Whoever calls belong to (a connection); once closed, its waiting calls are dropped. While paused
 * (its replies outstanding are over its limit: it does not read them) its calls wait: work done
 * for a client that does not read only grows what the node holds for it.
 */
export interface Owner {
  readonly isClosed: boolean;
  readonly isPaused: boolean;
  /**
   * Kept here for owners that give it (sessions): their calls in the pool, and the reply bytes those
   * are expected to answer (SchedulerOptions.replySizes), added as each call is taken and taken away
   * when its answer is back. An owner whose pause counts `expectedBytes` stops being served as soon
   * as enough is on its way, not only once it has arrived unread.
   */
  readonly inPool?: InPool;
  /**
   * True while a finished reply of this owner waits for an earlier call of it (its replies leave in
   * order) and nothing else holds it back. When such an owner is paused with no call in the pool,
   * its oldest waiting call runs all the same: the replies that pause it may be waiting for that
   * very call.
   */
  readonly replyWaits?: boolean;
  /**
   * Runs `fn` when the owner closes; returns a way to cancel that. Owners that can close give it,
   * so that their calls running in the pool are cancelled; one that never closes (the front end's
   * own lookups) need not.
   */
  onClose?(fn: () => void): () => void;
  /**
   * The share it is served under (default: itself). Owners with the same share are served as one:
   * HTTP requests give their client address, since each request is an owner of its own and a client
   * with 100 requests in flight would otherwise get 100 turns per round.
   */
  readonly share?: unknown;
}

const CANCELLED: PoolAnswer = { error: protocolError(RPC.CALL_CANCELLED) };

export interface Scheduler {
  /** Queues a call for `owner`; resolves with its answer, or at once with NODE_BUSY over the bound. */
  submit(owner: Owner, cost: CostClass, task: PoolTask): Promise<PoolAnswer>;
  /**
   * submit without a promise of its own: `answered` gets the answer (at once for NODE_BUSY), exactly
   * once, and must not throw. The call pipeline's way: a promise per call, and the microtask its
   * settling costs, is a measurable part of a small call's front-end time. `order` is the call's
   * place among its owner's (when its request arrived; default: now).
   */
  queue(owner: Owner, cost: CostClass, task: PoolTask, answered: (a: PoolAnswer) => void, order?: number): void;
  /** Looks for work again: an owner's calls may run now (it was paused and reads again). */
  wake(): void;
  /** calls waiting here */
  readonly queued: number;
  /** calls in tasks the pool holds */
  readonly running: number;
  /** calls waiting here whose owners are paused: their clients have not read enough of their replies */
  readonly heldCalls: number;
}

/** Where the scheduler records times, in seconds (the node's metrics). */
export interface SchedulerTiming {
  /** per call: from submit until its task is handed to the pool */
  readonly wait: { observe(seconds: number): void };
  /** per task: from handing it to the pool until its answers are back */
  readonly run: { observe(seconds: number): void };
}

export interface SchedulerOptions {
  /** node-wide bound on queued plus running calls (--max-queued-calls) */
  readonly maxQueued: number;
  readonly timing?: SchedulerTiming;
  /** ms; default HOLD_LIGHT_MS (tests give a longer one to see the hold without racing it) */
  readonly holdLightMs?: number;
  /**
   * ms a light call may run in its worker (--light-slice-ms; 0: no slice). Past it the call stops at
   * its next look at the clock and is queued again, as heavy, at the head of its owner's heavy calls;
   * its shape gets a strike in `learnt`.
   */
  readonly lightSliceMs?: number;
  /** where shapes that used up their slice are noted (the schedule layer reads it) */
  readonly learnt?: LearntCosts;
  /** where the sizes of large replies are noted, and read as each call is taken (Owner.inPool) */
  readonly replySizes?: ReplySizes;
}

/** What the scheduler needs of the pool: cancelling running calls is optional (test pools may leave it out). */
export type SchedulerPool = Pick<CallPool, 'runTask' | 'workers'> & Partial<Pick<CallPool, 'cancel' | 'cancelSlots' | 'heavyThreadsUp'>>;

export function fairScheduler(pool: SchedulerPool, opts: SchedulerOptions): Scheduler {
  const maxTasks = TASKS_PER_WORKER * pool.workers;
  const heavyCapWithLight = Math.max(1, pool.workers - 1);
  const holdLightMs = opts.holdLightMs ?? HOLD_LIGHT_MS;
  const learnt = opts.learnt;
  const sizes = opts.replySizes;
  // Per class, owners with waiting calls and their queues, in round-robin order. An owner is in a
  // ring only while it has calls waiting, so nothing here outlives its calls.
  const ring: Record<CostClass, Map<unknown, Waiting[]>> = { light: new Map(), heavy: new Map() };
  const queuedIn: Record<CostClass, number> = { light: 0, heavy: 0 };
  let lastLight = Number.NEGATIVE_INFINITY;
  let running = 0;
  let tasks = 0;
  let heavyTasks = 0;
  let scheduled = false;
  // Looks again HOLD_LIGHT_MS after light calls were held back, in case no task comes back by then.
  let holdTimer: NodeJS.Timeout | undefined;
  // Tasks in the pool with a hard bound, and the sweep that aborts those past it.
  const bounded = new Map<TaskSignal, number>();
  // Signals not aborted are used again: piscina removes its listener when a task is done.
  const spare: TaskSignal[] = [];
  let sweeper: NodeJS.Timeout | undefined;
  // Cancel slots not in use (every call in the pool holds one, while there are enough), and the
  // slots of each owner's calls in the pool with the hook that cancels them when it closes. An
  // owner is here only while it has calls in the pool.
  const freeSlots: number[] = [];
  const cancel = pool.cancel?.bind(pool);
  if (cancel) for (let slot = (pool.cancelSlots ?? 0) - 1; slot >= 0; slot--) freeSlots.push(slot);
  const inPool = new Map<Owner, { readonly slots: Set<number>; forget: () => void }>();
  const holdSlot = (owner: Owner): number | undefined => {
    if (!cancel || !owner.onClose || freeSlots.length === 0) return undefined;
    const slot = freeSlots.pop()!;
    let held = inPool.get(owner);
    if (!held) {
      const slots = new Set<number>();
      held = { slots, forget: () => {} };
      inPool.set(owner, held);
      held.forget = owner.onClose(() => {
        for (const s of slots) cancel(s);
      });
    }
    held.slots.add(slot);
    return slot;
  };
  const releaseSlot = (owner: Owner, slot: number) => {
    freeSlots.push(slot);
    const held = inPool.get(owner);
    if (!held) return;
    held.slots.delete(slot);
    if (held.slots.size === 0) {
      inPool.delete(owner);
      held.forget();
    }
  };
  const sweep = () => {
    const now = Date.now();
    for (const [ctl, hardAt] of bounded) if (now > hardAt) ctl.abort();
    // Stopped once no task is in the pool: kept between tasks, not made again for each.
    if (bounded.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  /** Takes up to `max` calls of class `cls`, up to QUANTUM[cls] per owner per round, rotating the ring. */
  const take = (cls: CostClass, max: number): Waiting[] => {
    const quantum = QUANTUM[cls];
    const out: Waiting[] = [];
    const r = ring[cls];
    const now = Date.now();
    // Calls answered here for being past their deadline, taken from the queue all the same.
    let overdueCalls = 0;
    /**
     * A call past its deadline and the grace after it by its turn (it waited for its client to
     * read) is answered over budget here: sent to a worker, its task would be past its hard bound
     * at once, and aborted with its worker.
     */
    const overdue = (it: Waiting, at: number): boolean => {
      if (it.task.deadline === undefined || it.task.deadline + HARD_BOUND_GRACE_MS >= at) return false;
      overdueCalls++;
      it.answered({ error: limitError(RPC.BUDGET_EXCEEDED, `${it.task.budgetMs ?? 0} ms: --call-budget-ms`) });
      return true;
    };
    // Map iteration visits entries re-added during it, so re-adding a served owner at the end
    // makes this loop go round the owners one call at a time.
    for (const [share, list] of r) {
      if (out.length >= max) break;
      // Calls of closed owners are dropped as they come to the head of their share's queue.
      while (list.length > 0 && list[0]!.owner.isClosed) {
        list.shift()!.answered(CANCELLED);
        queuedIn[cls]--;
      }
      if (list.length === 0) {
        r.delete(share);
        continue;
      }
      // A paused owner keeps its place and its calls; wake() looks again once it reads. But one
      // whose pause includes replies waiting for an earlier call, with nothing in the pool, gets its
      // oldest call run: else those replies would wait for a call that waits for them.
      const head = list[0]!.owner;
      if (head.isPaused) {
        if (head.replyWaits && head.inPool?.calls === 0 && share === head && out.length < max) {
          const oldest = oldestOf(cls, share, list);
          if (oldest >= 0) {
            const it = list.splice(oldest, 1)[0]!;
            if (!overdue(it, now)) {
              taken(it);
              out.push(it);
            }
            r.delete(share);
            if (list.length > 0) r.set(share, list);
          }
        }
        continue;
      }
      // A turn ends early at a closed or paused owner (one share may hold several: HTTP requests).
      // What a call is expected to answer counts against its owner at once, so the next call of
      // the same owner in this turn already sees it.
      for (let q = 0; q < quantum && out.length < max && list.length > 0; q++) {
        const next = list[0]!.owner;
        if (next.isClosed || next.isPaused) break;
        const it = list.shift()!;
        if (overdue(it, now)) continue;
        taken(it);
        out.push(it);
      }
      r.delete(share);
      if (list.length > 0) r.set(share, list);
    }
    queuedIn[cls] -= out.length + overdueCalls;
    return out;
  };

  /**
   * Where in `list` (the share's queue in ring `cls`) its owner's oldest waiting call is, or -1 when
   * the oldest is in the other ring (that ring's turn takes it).
   */
  const oldestOf = (cls: CostClass, share: unknown, list: readonly Waiting[]): number => {
    let at = 0;
    for (let i = 1; i < list.length; i++) if (list[i]!.order < list[at]!.order) at = i;
    const other = ring[cls === 'light' ? 'heavy' : 'light'].get(share);
    if (other) for (const it of other) if (it.order < list[at]!.order && !it.owner.isClosed) return -1;
    return at;
  };

  /** A call goes to the pool: it counts in its owner's inPool, with what it is expected to answer. */
  const taken = (it: Waiting) => {
    if (sizes) it.expected = sizes.expected(it.task);
    const inPool = it.owner.inPool;
    if (!inPool) return;
    inPool.calls++;
    inPool.expectedBytes += it.expected;
  };
  /** A call is back from the pool (answered, or to be queued again). */
  const back = (it: Waiting) => {
    const inPool = it.owner.inPool;
    if (inPool) {
      inPool.calls--;
      inPool.expectedBytes -= it.expected;
    }
    it.expected = 0;
  };

  const timing = opts.timing;
  const send = (cls: CostClass, items: Waiting[]) => {
    const sentAt = performance.now();
    if (timing) for (const it of items) timing.wait.observe((sentAt - it.at) / 1000);
    tasks++;
    if (cls === 'heavy') heavyTasks++;
    running += items.length;
    let lastDeadline = 0;
    for (const it of items) lastDeadline = Math.max(lastDeadline, it.task.deadline ?? Number.POSITIVE_INFINITY);
    const ctl = Number.isFinite(lastDeadline) ? (spare.pop() ?? new TaskSignal()) : undefined;
    if (ctl) {
      bounded.set(ctl, lastDeadline + HARD_BOUND_GRACE_MS);
      sweeper ??= setInterval(sweep, SWEEP_EVERY_MS).unref();
    }
    const tasksOut: PoolTask[] = new Array(items.length);
    const sliceMs = opts.lightSliceMs ?? 0;
    const slice = cls === 'light' && sliceMs > 0 ? sliceMs : undefined;
    for (let n = 0; n < items.length; n++) {
      const it = items[n]!;
      const slot = holdSlot(it.owner);
      if (slot !== undefined) it.task.cancelSlot = slot;
      it.task.sliceMs = slice;
      tasksOut[n] = it.task;
    }
    void pool.runTask(tasksOut, ctl, cls).then((answers) => {
      for (const it of items) {
        const slot = it.task.cancelSlot;
        if (slot !== undefined) {
          it.task.cancelSlot = undefined;
          releaseSlot(it.owner, slot);
        }
      }
      if (timing) timing.run.observe((performance.now() - sentAt) / 1000);
      if (ctl) {
        bounded.delete(ctl);
        if (!ctl.aborted) spare.push(ctl);
      }
      tasks--;
      if (cls === 'heavy') heavyTasks--;
      running -= items.length;
      // Back: what they were expected to answer no longer counts (the answers themselves do, in
      // their owners' sessions, until their clients read them). Large answers teach their shapes.
      for (let i = 0; i < items.length; i++) {
        const it = items[i]!;
        back(it);
        if (!sizes) continue;
        const a = answers[i];
        const bytes = a instanceof Uint8Array ? a.length : a && 'bytes' in a ? a.bytes.length : 0;
        // A read (a large request's, src/protocol/read-in-pool.ts) answers the front end, not a client.
        if (bytes > 0 && it.task.set !== READ_SET) sizes.note(it.task, bytes);
      }
      const slices = answers.slices;
      if (slices) {
        // A call among its worker thread's first of its method (SliceReport.cold) was slow for the
        // thread's sake (compiling): it is counted, but its shape gets no strike.
        const cold = slices.cold;
        // Calls that ran long to the end stand; their shapes get a strike.
        for (const i of slices.slow) {
          const it = items[i];
          if (!it) continue;
          if (!learnt) continue;
          if (!cold?.includes(i)) learnt.strike(shapeOfTask(it.task), false, it.at);
          learnt.ranLong++;
        }
        // Calls stopped at their slice run again from the start, as heavy: first among their
        // owner's heavy calls (they have waited once already), whatever the node-wide bound.
        for (let k = slices.sliced.length - 1; k >= 0; k--) {
          const it = items[slices.sliced[k]!];
          if (!it) continue;
          if (learnt) {
            if (!cold?.includes(slices.sliced[k]!)) learnt.strike(shapeOfTask(it.task), true, it.at);
            learnt.requeued++;
          }
          requeueHeavy(it);
        }
      }
      // Calls left unrun behind a slow one go back, light, first in their owners' queues.
      const unrun = slices?.unrun;
      if (unrun) {
        for (let k = unrun.length - 1; k >= 0; k--) {
          const it = items[unrun[k]!];
          if (!it) continue;
          const share = it.owner.share ?? it.owner;
          const list = ring.light.get(share);
          if (list) list.unshift(it);
          else ring.light.set(share, [it]);
          queuedIn.light++;
        }
      }
      for (let i = 0; i < items.length; i++) {
        if (slices && (slices.sliced.includes(i) || unrun?.includes(i))) continue;
        items[i]!.answered(answers[i] ?? { error: protocolError(RPC.INTERNAL) });
      }
      // Not at once: what else comes back or arrives in this turn travels in the same tasks.
      later();
    });
  };

  /** A call that turned out heavy goes first among its owner's heavy calls, with no slice. */
  const requeueHeavy = (it: Waiting) => {
    it.task.sliceMs = undefined;
    const share = it.owner.share ?? it.owner;
    const list = ring.heavy.get(share);
    if (list) list.unshift(it);
    else ring.heavy.set(share, [it]);
    queuedIn.heavy++;
  };

  /** Fills the free task slots at the end of this event-loop turn, once however often it is asked. */
  const later = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(fill);
  };

  /**
   * When the oldest light call that may run now was queued (performance.now()): the head of each
   * owner's queue, leaving out owners that are paused or closed (their calls wait for other reasons).
   */
  const oldestLight = (): number => {
    let at = Number.POSITIVE_INFINITY;
    for (const list of ring.light.values()) {
      const head = list[0];
      if (head && head.at < at && !head.owner.isPaused && !head.owner.isClosed) at = head.at;
    }
    return at;
  };

  /** Fills free task slots: light calls first (they are cheap and keep latency low), then heavy. */
  const fill = () => {
    scheduled = false;
    if (holdTimer) {
      clearTimeout(holdTimer);
      holdTimer = undefined;
    }
    const now = performance.now();
    while (tasks < maxTasks && ring.light.size > 0) {
      const idle = pool.workers - tasks;
      const lightTasks = tasks - heavyTasks;
      let size: number;
      if (idle <= 0) {
        // Every worker has a task: what waits goes in one task that is ready when a worker is (no
        // thread is woken for it), so the crossing is paid once for all of it.
        size = Math.min(MAX_CALLS_PER_TASK, queuedIn.light);
      } else if (lightTasks === 0) {
        // No light task out: what waits goes to one worker, or to two when there are enough calls
        // to give each SPREAD_FROM_CALLS (a few calls in one task: a wake costs both threads more
        // than a few light calls cost to run).
        const wake = Math.max(1, Math.min(idle, EAGER_LIGHT_TASKS, Math.floor(queuedIn.light / SPREAD_FROM_CALLS)));
        size = Math.min(MAX_CALLS_PER_TASK, Math.ceil(queuedIn.light / wake));
      } else {
        // Light tasks out: up to EAGER_LIGHT_TASKS of them, a next one goes as soon as
        // SPREAD_FROM_CALLS wait (two workers in turn keep the front end from waiting on one);
        // past that, what arrives goes with the next task when one comes back, rather than wake
        // another worker, until a whole task's worth waits or the oldest waiting call has waited
        // HOLD_LIGHT_MS. Each task costs a crossing and a wake whatever it carries, and spreading
        // what waited over every idle worker made each added worker raise the CPU a call costs
        // (README "Workers woken only for enough calls").
        const enough = lightTasks < EAGER_LIGHT_TASKS ? SPREAD_FROM_CALLS : MAX_CALLS_PER_TASK;
        if (queuedIn.light < enough) {
          const oldest = oldestLight();
          // Only paused owners' calls wait: nothing to send until one reads (wake()).
          if (oldest === Number.POSITIVE_INFINITY) break;
          if (now - oldest < holdLightMs) {
            holdTimer = setTimeout(later, holdLightMs - (now - oldest)).unref();
            break;
          }
        }
        size = Math.min(MAX_CALLS_PER_TASK, queuedIn.light);
      }
      let items = take('light', size);
      if (items.length === 0) break; // every owner with calls waiting is paused
      // Calls queued light before their shape was learnt heavy, or known to answer more than a
      // slice can write, go to the heavy calls instead of using up a slice each first (a thousand
      // of one shape queued at once did). Shapes are made only while the learner keeps some.
      const heavyNow = (it: Waiting) => (learnt !== undefined && learnt.kept > 0 && learnt.learntHeavy(shapeOfTask(it.task))) || it.expected >= HEAVY_REPLY_BYTES;
      if (items.some(heavyNow)) {
        const light: Waiting[] = [];
        for (const it of items) {
          if (heavyNow(it)) {
            back(it);
            requeueHeavy(it);
          } else light.push(it);
        }
        items = light;
        if (items.length === 0) continue;
      }
      send('light', items);
    }
    // While light calls are about, heavy tasks hold no more workers than the threads kept for them:
    // with none up (the heavy thread ended for a task past its hard bound and its replacement is
    // starting), piscina put the next heavy task on the light calls' thread, and a prober's light
    // calls waited 400 to 600 ms behind four transactions of 6,500 operations. They wait here instead.
    const heavyCap = now - lastLight < LIGHT_RECENT_MS ? (pool.workers > 1 && pool.heavyThreadsUp !== undefined ? Math.min(heavyCapWithLight, pool.heavyThreadsUp) : heavyCapWithLight) : maxTasks;
    while (tasks < maxTasks && heavyTasks < heavyCap && ring.heavy.size > 0) {
      const size = Math.min(HEAVY_CALLS_PER_TASK, Math.max(1, Math.ceil(queuedIn.heavy / (maxTasks - tasks))));
      const items = take('heavy', size);
      if (items.length === 0) break;
      send('heavy', items);
    }
  };

  const queue = (owner: Owner, cost: CostClass, task: PoolTask, answered: (a: PoolAnswer) => void, order?: number): void => {
    if (queuedIn.light + queuedIn.heavy + running >= opts.maxQueued) return answered({ error: protocolError(RPC.NODE_BUSY) });
    const at = performance.now();
    if (cost === 'light') lastLight = at;
    const r = ring[cost];
    const share = owner.share ?? owner;
    const list = r.get(share);
    const waiting: Waiting = { owner, task, answered, at, order: order ?? at, expected: 0 };
    if (!list) r.set(share, [waiting]);
    else {
      // In its owner's order: a call whose request was read in the pool comes back after calls that
      // arrived behind it, and goes before them. (Else those run first, and their replies wait for
      // it, held: four connections pipelining large requests made the node hold 1.8 GB.)
      let i = list.length;
      while (i > 0 && list[i - 1]!.order > waiting.order) i--;
      if (i === list.length) list.push(waiting);
      else list.splice(i, 0, waiting);
    }
    queuedIn[cost]++;
    later();
  };

  return {
    submit: (owner, cost, task) => new Promise<PoolAnswer>((resolve) => queue(owner, cost, task, resolve)),
    queue,
    wake: later,
    get queued() {
      return queuedIn.light + queuedIn.heavy;
    },
    get running() {
      return running;
    },
    get heldCalls() {
      // Counted when asked (a scrape), not kept as owners pause and go on.
      let n = 0;
      for (const r of [ring.light, ring.heavy]) for (const list of r.values()) for (const it of list) if (it.owner.isPaused && !it.owner.isClosed) n++;
      return n;
    },
  };
}
