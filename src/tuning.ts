// The node's tuning constants: the numbers that set how it behaves and could be tuned (sizes,
// shares, intervals, waits), as opposed to its options (src/config.ts, set by the operator) and to
// protocol facts (Core's field numbers, fc's limits), which stay beside the code that follows them.
// Each says why it has its value and which test pins it, or which test exercises it.
// docs/reference/tuning.md lists them all; test/tuning.test.ts keeps the two in step.
//
// The module imports nothing and does nothing when loaded, so that the front end, the pool and the
// worker threads all read the same values from it (layer rule `tuning-is-a-leaf`).

// Tunes src/sizing.ts
/** CPUs per automatic front end. Test: test/sizing.test.ts */
export const FRONT_END_CPUS = 4;

/** Workers each automatic front end gets at least. Test: test/sizing.test.ts */
export const WORKERS_PER_FRONT_END = 2;

// Tunes src/transport/routes.ts
/** Refused connections and oversized HTTP requests are logged at most this often, node-wide (ms). Exercised by: test/logs.test.ts */
export const TRANSPORT_REFUSAL_LOG_EVERY_MS = 1000;

// Tunes src/transport/ws-outbox.ts
/**
 * A WebSocket reply up to this size is handed to uWebSockets.js whole when nothing waits before it:
 * one frame, one call, as every reply in the reply slab (SLOT_BYTES). Larger ones go in fragments.
 * Test: test/ws-outbox.test.ts.
 */
export const WS_WHOLE_REPLY_BYTES = 64 * 1024;

/**
 * Fragment size of a larger reply, written a fragment at a time while uWebSockets.js holds nothing
 * unsent, the rest kept in the reply's own buffer: the front end copies what the socket takes,
 * never the part of a large reply that a client does not read. Under 16 KiB, where uWS 20.30 sends
 * a frame's header and payload apart and can write the header twice (src/transport/ws-outbox.ts).
 * Test: test/ws-outbox.test.ts.
 */
export const WS_FRAGMENT_BYTES = 16 * 1024 - 16;

/**
 * Bytes of held replies one WebSocket writes in one turn of the event loop; the rest is written in
 * later turns, after what else is ready. A client reading as fast as the loopback delivers took a
 * 9.9 MB reply in one go: 640 sends, 10 ms and more of the front end's thread, while every other
 * connection waited. 256 KiB is 16 fragments, a fraction of a millisecond.
 * Test: test/ws-outbox.test.ts.
 */
export const WS_WRITE_TURN_BYTES = 256 * 1024;

// Tunes src/transport/http.ts
/** Replies up to this size are handed to uWS whole (see `write` in src/transport/http.ts). Exercised by: test/transport.test.ts */
export const SMALL_REPLY_BYTES = 48 * 1024;

// Tunes src/transport/listen.ts
/** ms between two looks at the calls still in flight while draining on shutdown. Exercised by: test/shutdown.test.ts */
export const DRAIN_POLL_MS = 10;

// Tunes src/protocol/read-in-pool.ts
/**
 * Requests of this many bytes or more are read in the worker pool, not on the front end's thread:
 * reading one costs about 15 ns a byte there (1 MB: 15 ms on an idle 2-CPU machine, 40 under
 * load), while the extra crossing costs tens of microseconds. Below it, reading stays where it is
 * cheapest (get_accounts of 1,000 ids is about 12 KB). Test: test/read-in-pool.test.ts
 */
export const READ_IN_POOL_FROM_BYTES = 16 * 1024;

/**
 * An argument of a request read in the pool that packs to this many bytes or more stays packed
 * until the worker that runs the call unpacks it; smaller ones reach the front end as values (its
 * layers read them, and unpacking them costs less than the bookkeeping). Test: test/read-in-pool.test.ts
 */
export const PACKED_ARG_FROM_BYTES = 1024;

// Tunes src/transport/ingress.ts
/** Requests larger than this (bytes) wait their turn. Test: test/ingress.test.ts */
export const LARGE_REQUEST_BYTES = 64 * 1024;

// Tunes src/pipeline/connection.ts
/**
 * A connection that keeps sending while this many times over --max-pending-calls-per-connection
 * is closed (WebSocket close 1013, try again later): refusing each call one by one would still let
 * it make the node buffer a refusal per message.
 * Test: test/limits.test.ts.
 */
export const CLOSE_AT_PENDING_MULTIPLE = 2;

// Tunes src/pipeline/record.ts
/** A connection logs its first refused call at once, then at most one line per this many ms. Exercised by: test/logs.test.ts */
export const REFUSAL_LOG_EVERY_MS = 1000;

// Tunes src/pipeline/cost.ts
/**
 * A list argument longer than this (ids, names, keys, operation types) makes a call heavy. 100, as
 * Core's usual page size: a page of that size costs well under a millisecond here, and is what
 * wallets and exchanges ask for all day; a list ten times longer is what an attacker sends.
 * Test: test/scheduler.test.ts.
 */
export const LIGHT_LIST_MAX = 100;

/** A `limit` (or range) argument above this makes a call heavy: it asks for more than a usual page. Test: test/scheduler.test.ts */
export const LIGHT_LIMIT_MAX = 100;

// Tunes src/pool/pool.ts
/**
 * Most calls in one task. The scheduler spreads waiting calls over the free task slots, but a very
 * busy moment is cut into tasks of at most this many, so one task's replies do not wait behind a
 * long tail of calls and a worker that finishes early can take the next task.
 * Test: test/scheduler.test.ts.
 */
export const MAX_CALLS_PER_TASK = 64;

/**
 * Tasks per worker the scheduler lets the pool hold at once: one running, one ready. The ready one
 * waits in piscina's queue, not in the worker (piscina never puts a task with an abort signal on a
 * busy worker): there it cannot be lost with a worker replaced for another task's sake, and it goes
 * to whichever worker is free first. README "The ready task in its worker" says what waiting in the
 * worker would save, and why the node does not.
 * Exercised by: test/scheduler.test.ts.
 */
export const TASKS_PER_WORKER = 2;

/**
 * How long close() lets a worker finish its task before terminating it, in ms. A worker must not be
 * terminated inside LMDB's native code without need, but shutdown must not hang on one stuck call.
 * Test: test/deploy.test.ts, test/pool.test.ts.
 */
export const WORKER_CLOSE_TIMEOUT_MS = 5000;

// Tunes src/pool/scheduler.ts
/**
 * ms past its calls' last deadline before a task is aborted and its worker replaced. Handlers stop
 * themselves at their deadline (they check it as they write); this only catches the ones that cannot.
 * Test: test/faults.test.ts, test/pool.test.ts.
 */
export const HARD_BOUND_GRACE_MS = 1000;

/** Heavy calls one task may carry: enough to pay the thread hop once for several, few enough that one stuck call holds back few others. Test: test/isolation.test.ts, test/scheduler.test.ts */
export const HEAVY_CALLS_PER_TASK = 4;

/**
 * ms after the last light call during which one worker stays kept for light calls. Long enough that
 * a client calling now and then (a wallet polling each second, a prober every 100 ms) always finds
 * it; only a node that has seen nothing but heavy calls for this long lets them use every worker.
 * Exercised by: test/scheduler.test.ts.
 */
export const LIGHT_RECENT_MS = 2000;

/**
 * Calls of one owner a round takes together. Light calls: a few, so that a connection's pipelined
 * calls travel in one task and their replies leave in one write (taken one per round, each went in a
 * task of its own and had a write of its own); a newcomer then waits behind at most this many of each
 * other connection's light calls. Heavy calls: one, as their cost is what fairness is about.
 * Test: test/scheduler.test.ts.
 */
export const QUANTUM: Readonly<{ light: number; heavy: number }> = Object.freeze({ light: 4, heavy: 1 });

/**
 * Light calls waiting below which an idle pool gets them in one task rather than in two; with one
 * light task out, the calls that wake a second worker. Waking a sleeping worker costs both threads
 * more than a few light calls cost to run (README "What a task's crossing costs"), so spreading
 * three calls over two workers pays the wake twice to save microseconds of waiting.
 * Test: test/scheduler.test.ts.
 */
export const SPREAD_FROM_CALLS = 8;

/**
 * Light tasks the pool may hold before light calls wait for one to come back (up to HOLD_LIGHT_MS,
 * or until a whole task's worth waits). Two workers in turn keep the front end from waiting on one,
 * which on the 2-CPU machine was worth 10–15% of small and history calls/s at 2 workers; more,
 * each woken for whatever had gathered, split the calls into ever smaller tasks: at 8 workers,
 * history calls went 9 to a task and cost 1.6× their CPU at 1 worker (docs/design/worker-wakes.md).
 * Test: test/scheduler.test.ts.
 */
export const EAGER_LIGHT_TASKS = 2;

/**
 * ms light calls may wait for a light task in the pool to come back, rather than wake a sleeping
 * worker for them. A light task is back well within this when its worker keeps up (tens of calls
 * of a few µs each); when it does not, or one of its calls is slow, the held calls go to a sleeping
 * worker after this long.
 * Test: test/scheduler.test.ts.
 */
export const HOLD_LIGHT_MS = 1;

/** ms between two looks for tasks past their hard bound, while any task is in the pool. Exercised by: test/faults.test.ts */
export const SWEEP_EVERY_MS = 100;

// Tunes src/pool/learnt-costs.ts
/** Shapes kept (learnt and still counting strikes): what a client inventing argument sizes can grow this to. Test: test/learnt-costs.test.ts */
export const LEARNT_SHAPES = 1024;

/** Strikes a shape needs before its calls are heavy from the start. Test: test/learnt-costs.test.ts */
export const STRIKES = 3;

/** Share of a shape's light calls (since its first strike) that must have struck; counted are the calls scheduled since its first strike, and a call that ran long (not stopped at its slice) scheduled before that is no strike. Test: test/learnt-costs.test.ts */
export const STRIKE_SHARE = 0.5;

/** Light calls of a shape after which its strikes and count start again, while it is not learnt: the share is a recent one. Exercised by: test/learnt-costs.test.ts */
export const STRIKE_WINDOW = 1000;

/** How long a learnt shape stays heavy, in ms. Test: test/learnt-costs.test.ts */
export const LEARNT_FOR_MS = 10 * 60_000;

/**
 * Calls of a method each worker thread runs before its calls of that method that use up their slice
 * teach the learner: a thread's first calls of a method compile its code and map its pages (in a
 * fresh thread, get_relative_account_history's first call took 3 to 11 ms of CPU, its second up to
 * 5.5 and its third 0.3, against a 5 ms slice). A call stopped so still runs again as heavy.
 * Test: test/method-warmth.test.ts, test/scheduler.test.ts
 */
export const COLD_CALLS = 3;

// Tunes src/pool/reply-sizes.ts
/**
 * Replies of at least this many bytes teach their shape's size: one reply slot's worth, past which a
 * reply crosses from its worker in a buffer of its own. Smaller replies are expected of no call:
 * --max-unread-bytes-per-connection (1 MiB) leaves room for a dozen of them in flight.
 * Test: test/reply-sizes.test.ts.
 */
export const LARGE_REPLY_BYTES = 64 * 1024;

/**
 * A call whose shape answers at least this many bytes is heavy from the start. Large replies are
 * written at about 125 MB/s (get_blocks over full blocks: 9.4 MB in 75 ms), so 1 MiB takes longer
 * than a light call's 5 ms slice (--light-slice-ms): guessed light, each would use up a slice first.
 * Test: test/reply-sizes.test.ts.
 */
export const HEAVY_REPLY_BYTES = 1024 * 1024;

/** Shapes whose reply size is kept: what a client inventing argument sizes can grow this to. Test: test/reply-sizes.test.ts */
export const REPLY_SIZE_SHAPES = 1024;

/** How long a shape's largest reply is expected of its calls, in ms (as long as a learnt cost class). Test: test/reply-sizes.test.ts */
export const REPLY_SIZE_FOR_MS = 10 * 60_000;

// Tunes src/protocol/reply-slab.ts
/** Bytes of one slot: two history pages of 100 entries; a reply larger than a slot has its own buffer. Test: test/reply-slab.test.ts */
export const SLOT_BYTES = 64 * 1024;

/**
 * Slots per worker thread: a worker has at most TASKS_PER_WORKER tasks in the pool, and a task of
 * history pages fills a slot every two calls; the rest covers replies waiting for their turn.
 * Exercised by: test/reply-slab.test.ts.
 */
export const SLOTS_PER_WORKER = 64;

/**
 * Bytes of the reply slab's large part, kept for replies larger than a slot (a run of pages each),
 * for the whole pool: a dozen block ranges of 10 MB. Memory touched only by large replies, then kept.
 * When it is full, a large reply has a buffer of its own, as before. Test: test/reply-slab.test.ts
 */
export const LARGE_PART_BYTES = 128 * 1024 * 1024;

// Tunes src/protocol/shared-copy.ts
/**
 * Bytes from which a copy into or out of shared memory goes by memcpy (Buffer.prototype.fill) rather
 * than TypedArray.prototype.set: below it, set's relaxed moves cost less than fill's call into C++
 * (measured on the 2-CPU machine: 64 bytes 64 ns against 133; 1,500 bytes 118 ns aligned and 491
 * unaligned against 138). Test: test/shared-copy.test.ts
 */
export const NATIVE_COPY_FROM_BYTES = 1024;

// Tunes src/protocol/request-buffers.ts
/** Bytes of free buffers for large requests kept for the next ones: eight requests of 1 MiB. Test: test/request-buffers.test.ts */
export const REQUEST_BUFFERS_KEPT_BYTES = 8 * 1024 * 1024;

// Tunes workers/entry.ts
/** How old a reading of a worker thread's CPU clock may be and still stand for a light task's start (ms): a read costs about 2 µs, and the older reading counts at most this much more CPU against a 5 ms slice. Exercised by: test/isolation.test.ts */
export const CLOCK_REUSE_MS = 1;

// Tunes src/protocol/codec.ts
/** The largest buffer the packer keeps between packs: one grown for a task of a 1 MiB request is kept (msgpackr grows to four times the room it needs: 4 MiB for 1 MiB of bytes, 12 MiB for 1 MB of text). Test: test/codec.test.ts */
export const PACK_BUFFER_KEPT_BYTES = 16 * 1024 * 1024;

// Tunes src/protocol/task-slab.ts
/** Bytes of one slot: a task of 64 calls with a few hundred bytes of arguments each. Test: test/task-slab.test.ts */
export const TASK_SLOT_BYTES = 32 * 1024;

/**
 * Bytes of the task slab's large part, for tasks larger than a slot (a request of up to 1 MiB read
 * in the pool, a call with a large packed argument): a run of pages each, while the task is out.
 * When it is full, a large task crosses in a buffer of its own. Test: test/task-slab.test.ts
 */
export const LARGE_TASK_BYTES = 16 * 1024 * 1024;

// Tunes workers/reply-writer.ts
/** Writes between two looks at the clock: a look costs ~25 ns, a write of a stored object ~100 ns or more. Test: test/reply-writer.test.ts, test/walk-deadline.test.ts */
export const DEADLINE_CHECK_EVERY = 64;

/**
 * Reply bytes between two looks at the clock, whatever the number of writes: a few writes of large
 * stored objects (whole blocks) are as slow as many small ones.
 * Test: test/reply-writer.test.ts.
 */
export const DEADLINE_CHECK_BYTES = 64 * 1024;

/** Bytes of an arena of its own (when no slab slot is free): a dozen small replies. Small, because a reply the front end holds (waiting for its turn) holds its whole arena. Test: test/reply-writer.test.ts */
export const ARENA_BYTES = 16 * 1024;

/** A reply starts at the arena's free end when at least this much is free (else in a fresh arena); a reply that outgrows it moves to a fresh slot, or to a buffer of its own, at least this size. Exercised by: test/reply-writer.test.ts */
export const INITIAL_BYTES = 4096;

// Tunes workers/slab-slots.ts
/** The largest staging buffer kept between tasks. Exercised by: test/task-slab.test.ts */
export const STAGING_KEPT_BYTES = 4 * 1024 * 1024;

// Tunes src/handlers/login-throttle.ts
/** How long a failure counts, in seconds. Exercised by: test/quotas.test.ts */
export const LOGIN_FAILURE_WINDOW_S = 600;

/** The first wait once the free failures are used; each further failure doubles it. Test: test/quotas.test.ts */
export const LOGIN_FIRST_DELAY_MS = 250;

/** User names are counted in this many buckets (a collision only shares a throttle, never a password). Exercised by: test/quotas.test.ts */
export const USER_BUCKETS = 65_536;

// Tunes src/handlers/confirmations.ts
/**
 * Outcomes (confirmed or dropped) kept for waiters that come after them. A push answered from
 * another process (--processes: the writer holds its reply until every serving process has read the
 * change) can be overtaken by the block that confirms the transaction or drops it, so the waiter
 * the handler registers after the reply finds its outcome here. Only a transaction this node just
 * accepted can be waited for (a duplicate is refused), so a few blocks' worth is enough.
 * Test: test/confirmations.test.ts.
 */
export const RECENT_OUTCOMES = 2000;

// Tunes src/subscriptions/transfer-feed.ts
/** ms before a page the node refused (busy, over a budget) is asked for again; doubles to RETRY_MAX_MS. Exercised by: test/transfer-feed.test.ts */
export const RETRY_FIRST_MS = 250;

/** The longest wait before a refused page is asked for again, in ms: RETRY_FIRST_MS doubles up to it. Exercised by: test/transfer-feed.test.ts */
export const RETRY_MAX_MS = 30_000;

/** More accounts than this make every page a heavy call (as a list argument longer than a usual page does, pipeline/cost.ts). Exercised by: test/transfer-feed.test.ts */
export const HEAVY_ACCOUNTS = 100;

// Tunes src/access-watch.ts
/** How often the access file is looked at for changes, in ms. Exercised by: test/cli.test.ts */
export const ACCESS_FILE_POLL_MS = 1000;

// Tunes src/processes/serving-processes.ts (serving processes and serving threads alike, unless named)
/** A serving process that ended on its own is started again at once the first time in this window… Exercised by: test/processes.test.ts */
export const RESTART_WINDOW_MS = 60_000;

/** …and after each further end within it, after a wait that doubles from this… Exercised by: test/processes.test.ts */
export const RESTART_FIRST_DELAY_MS = 1000;

/** …up to this: a process that cannot stay up is retried, never faster than this, and logged each time. Exercised by: test/processes.test.ts */
export const RESTART_MAX_DELAY_MS = 30_000;

/** How long a scrape waits for a serving process' metrics before it uses what that process said last. Exercised by: test/processes.test.ts */
export const METRICS_WAIT_MS = 2000;

/**
 * How long a serving process may take to acknowledge a change of the store before it is killed (and
 * restarted): replies to broadcasts wait for every process' acknowledgement, so one process that
 * hangs (stopped, or its event loop stuck) must not hold every broadcast of the node. A serving
 * thread, which cannot be killed alone, is asked to stop instead, and broadcasts stop waiting for it.
 * Test: test/processes.test.ts, test/serving-threads.test.ts.
 */
export const ACK_WAIT_MS = 10_000;

/** Beyond --shutdown-drain-ms, how long a serving process may take to stop before it is killed. Exercised by: test/processes.test.ts */
export const STOP_GRACE_MS = 10_000;

/**
 * How long serving threads may take to close their sockets and end when the node must exit at once (a
 * second SIGINT or SIGTERM) before they are terminated, which aborts the process if one still holds
 * sockets. Exercised by: test/serving-threads.test.ts
 */
export const HALT_WAIT_MS = 2000;

/** How often a port picked for port 0 is picked again when another program took it first. Exercised by: test/processes.test.ts */
export const FREE_PORT_TRIES = 3;

// Tunes src/follow/follower.ts
/** The first wait after a failed connection, in ms; each further failure doubles it up to retryMaxMs. Exercised by: test/follower.test.ts */
export const FOLLOW_RETRY_FIRST_MS = 250;

/** ms to wait for the connection to open and for each answer; an upstream slower than this is dropped and reconnected. Exercised by: test/follower.test.ts */
export const UPSTREAM_TIMEOUT_MS = 30_000;

/** ms a follower waits for a block notice before it asks the upstream's head itself: a notice lost (or never sent, for blocks made just as the follower subscribed) must not leave it behind for good. Exercised by: test/follower.test.ts */
export const FOLLOW_HEAD_POLL_MS = 3_000;

// Tunes workers/handlers/database/markets.ts
/**
 * Order books a worker keeps for its read snapshot, at most. A book changes only when the store does
 * (a block, a pending transaction), while trading bots ask for the same few books many times a
 * second: a book of 50 a side costs about a millisecond to build (100 orders read, parsed and priced)
 * and a copy to send again. A new snapshot, or a full cache, starts it afresh; a book of the api
 * limit's depth is about 16 KB of JSON, so the cache holds about 1 MB a worker at the default limit.
 * Test: test/book-cache.test.ts.
 */
export const BOOK_CACHE_ENTRIES = 64;

// Tunes workers/handlers/database/store-reads.ts
/** Names kept at most; past it the cache starts again (a hostile list of distinct registrars cannot grow it). Exercised by: test/name-cache.test.ts */
export const NAME_CACHE_SIZE = 10_000;
