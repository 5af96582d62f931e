// A session: the state of one WebSocket connection, or of one HTTP request, and nothing else. It
// holds the login state (the API sets it may use), the table of API set IDs (reference §1.2-1.3),
// the connection's subscriptions, and the order of its replies: a connection's replies leave in the
// order its requests arrived (bitsharesjs-ws breaks on out-of-order replies; clients.md §1.3).
//
// It does not run calls, reach the pool or the producer, or know the transport's types: the call
// pipeline hands it each call's future reply, and the transport receives finished replies through `sink`.
import type { Logger } from '../log.js';
import type { AccessPolicy, Grant, UserLimits } from '../access.js';
import { SessionSubscriptions } from '../subscriptions/hub.js';
import { RPC, protocolError } from '../errors.js';
import { invalidReply } from '../protocol/jsonrpc.js';

/** A finished reply, or null when the request wants none (a notification). */
export type Reply = { readonly body: string | Uint8Array; readonly status: number } | null;

export type Transport = 'ws' | 'http';

interface Slot {
  reply: Reply | undefined;
  /** the reply's length once it is there (counted in waitingBytes until it leaves) */
  bytes: number;
  /** a notice rather than the reply to a request (counted in NoticeCounts) */
  readonly notice: boolean;
  /** what the caller of enqueue gave to know the request by (answerUnanswered hands it back) */
  readonly tag?: unknown;
}

/**
 * Where sessions count their notices (the node's metrics read them): handed to the transport, or
 * never sent because the connection had closed (before the notice, or while it waited its turn).
 */
export interface NoticeCounts {
  sent: number;
  dropped: number;
}

let nextConnId = 1;

const NO_LIMITS: UserLimits = Object.freeze({});
/** Sessions made without a connection's options (tests of single layers) are never paused. */
const NO_BUDGET = Object.freeze({ maxUnreadBytesPerConnection: Number.POSITIVE_INFINITY });
/** For sessions made without a node's metrics (tests of single layers): counted, never read. */
const UNREAD_COUNTS: NoticeCounts = { sent: 0, dropped: 0 };

export class Session {
  readonly connId = nextConnId++;
  private childLog: Logger | undefined;
  /** API set access names this session may use (sorted, like Core's flat_set) */
  allowed: readonly string[] = [];
  /** the access entry the session logged in under ('*' or a listed name), and its limits; none before a login succeeds */
  entry: string | undefined;
  limits: UserLimits = NO_LIMITS;
  /**
   * The logins `allowed` comes from (at connect, and by `login`: the last one in the current
   * variant; every successful one in the legacy variant, whose grants add up), with the access rules
   * they were checked under. After a reload of the access file the next accessor call checks them
   * against the new rules (handlers/login-flow.ts allowedNow).
   */
  logins: readonly { readonly user: string; readonly grant: Grant }[] = [];
  checkedUnder: AccessPolicy | undefined;
  /** API set ID → set name ("database", "login", "dummy", "history", …) */
  readonly apis: string[] = [];
  /** set name → its ID on this connection, for sets a getter has handed out */
  readonly getterIds = new Map<string, number>();
  /** database_api subscription state of this connection */
  readonly subs = new SessionSubscriptions();
  private readonly queue: Slot[] = [];
  private closed = false;
  // Made on first use: most HTTP sessions (one request each) never close with anything to clean.
  private cleanups: Set<() => void> | undefined;

  constructor(
    readonly transport: Transport,
    /** the client's address (after --trusted-proxies) */
    readonly address: string,
    private readonly loginVariant: 'current' | 'legacy',
    private readonly parentLog: Logger,
    private readonly sink: (reply: Reply) => void,
    private readonly noticeCounts: NoticeCounts = UNREAD_COUNTS,
  ) {}

  /** This connection's logger (binding `conn`), made when first used: a pino child per HTTP request would cost more than its call. */
  get log(): Logger {
    const log = (this.childLog ??= this.parentLog.child({ conn: this.connId }));
    // A child keeps the level it was made with; the root's changes on a reload (SIGHUP).
    if (log.level !== this.parentLog.level) log.level = this.parentLog.level;
    return log;
  }

  /**
   * Starts the session with what the automatic login at connect granted (Basic credentials, else
   * the wildcard user), before any request of it runs.
   */
  begin(allowed: readonly string[]): void {
    this.allowed = allowed;
    // ID 0: the database API if this session may use it, otherwise the dummy set. ID 1: login.
    if (allowed.includes('database_api')) this.register('database');
    else this.apis.push('dummy');
    this.apis.push('login');
    // In the legacy variant the automatic login ran after ID 0 was registered and re-created every
    // allowed API object, so asking for `database` afterwards yields a new ID (reference §1.4).
    if (this.loginVariant === 'legacy') this.getterIds.clear();
  }

  /**
   * A login in progress: the connection's later requests wait for it, as they would behind Core's
   * synchronous login, so that a client may send `login` and then its getters without waiting.
   */
  held: Promise<unknown> | undefined;

  /** Holds the connection's later requests until `p` settles; returns `p`. */
  holding<T>(p: Promise<T>): Promise<T> {
    const done = p.then(
      () => undefined,
      () => undefined,
    );
    this.held = done;
    void done.then(() => {
      if (this.held === done) this.held = undefined;
    });
    return p;
  }

  /** Registers a set under the next free ID (or returns the ID it already has). */
  register(setName: string): number {
    const known = this.getterIds.get(setName);
    if (known !== undefined) return known;
    const id = this.apis.length;
    this.apis.push(setName);
    this.getterIds.set(setName, id);
    return id;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * The share the fair scheduler serves this session's calls under: a WebSocket connection is its
   * own; HTTP requests, each a session of its own, share their client address's (after
   * --trusted-proxies), so that many requests in flight buy a client no more turns than one.
   */
  get share(): unknown {
    return this.transport === 'http' ? `http ${this.address}` : this;
  }

  /**
   * Bytes of replies the transport holds that the client has not read yet (WebSocket: what
   * uWebSockets.js has queued). Set by the transport.
   */
  unreadBytes = 0;
  /**
   * This session's calls in the worker pool, and the bytes they are expected to answer
   * (src/pool/reply-sizes.ts): the scheduler counts each call in as it hands it to the pool, and out
   * when it is back.
   */
  readonly inPool = { calls: 0, expectedBytes: 0 };
  /** Bytes of finished replies waiting for an earlier reply to be ready (the reply order). */
  private waitingBytes = 0;
  /** where isPaused reads --max-unread-bytes-per-connection (the connection gives the node's options: reloads apply) */
  replyBudget: { readonly maxUnreadBytesPerConnection: number } = NO_BUDGET;

  /**
   * True while this session's replies outstanding (unread, waiting for their turn, and expected of
   * its calls in the pool) are over --max-unread-bytes-per-connection: the scheduler then hands none
   * of its pool calls to a worker (they wait, in order) until the client reads. A call whose answer
   * is unknown counts as nothing, so a session below the limit may always start one more; a client
   * that does not read is held to about the limit plus one reply (README "Replies outstanding per
   * connection").
   */
  get isPaused(): boolean {
    return this.unreadBytes + this.waitingBytes + this.inPool.expectedBytes > this.replyBudget.maxUnreadBytesPerConnection;
  }

  /**
   * True while a finished reply waits for an earlier one and the client reads what it has: the
   * scheduler then runs this session's oldest call even while paused, as the waiting replies may be
   * waiting for it. A client that leaves more than its limit unread gets nothing more until it reads.
   */
  get replyWaits(): boolean {
    return this.waitingBytes > 0 && this.unreadBytes <= this.replyBudget.maxUnreadBytesPerConnection;
  }

  /** Bytes of replies outstanding, as isPaused counts them (metrics, logs). */
  get outstandingBytes(): number {
    return this.unreadBytes + this.waitingBytes + this.inPool.expectedBytes;
  }

  /** Number of requests whose replies have not been handed to the transport yet. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Takes the place of the next reply. The slot is taken now, when the request arrives, so the reply
   * leaves after every earlier one whatever finishes first.
   */
  enqueue(result: Reply | Promise<Reply>, notice = false, tag?: unknown): void {
    if (this.closed) return;
    const slot: Slot = { reply: undefined, bytes: 0, notice, tag };
    this.queue.push(slot);
    if (!(result instanceof Promise)) {
      this.settle(slot, result);
      return this.flush();
    }
    result.then(
      (reply) => {
        this.settle(slot, reply);
        this.flush();
      },
      (err: unknown) => {
        // The pipeline answers every call itself; a rejection here is a bug, so it is logged and
        // answered, or every later reply of this connection would wait forever.
        this.log.error({ err }, 'a call ended without a reply');
        this.settle(slot, { body: invalidReply(protocolError(RPC.INTERNAL)), status: 500 });
        this.flush();
      },
    );
  }

  /**
   * enqueue for a reply that `holder.reply` holds once `done` settles (a call still running): one
   * promise reaction fewer per call than handing enqueue a promise of the reply.
   */
  enqueueWhen(done: Promise<unknown>, holder: { readonly reply?: Reply }): void {
    if (this.closed) return;
    const slot: Slot = { reply: undefined, bytes: 0, notice: false, tag: holder };
    this.queue.push(slot);
    done.then(
      () => {
        if (holder.reply !== undefined) this.settle(slot, holder.reply);
        else {
          this.log.error('a call ended without a reply');
          this.settle(slot, { body: invalidReply(protocolError(RPC.INTERNAL)), status: 500 });
        }
        this.flush();
      },
      (err: unknown) => {
        this.log.error({ err }, 'a call ended without a reply');
        this.settle(slot, { body: invalidReply(protocolError(RPC.INTERNAL)), status: 500 });
        this.flush();
      },
    );
  }

  /** A slot's reply is there: it counts as waiting until flush hands it on. */
  private settle(slot: Slot, reply: Reply): void {
    slot.reply = reply;
    if (reply) {
      slot.bytes = reply.body.length;
      this.waitingBytes += slot.bytes;
    }
  }

  private flush(): void {
    while (this.queue.length > 0 && this.queue[0]!.reply !== undefined) {
      const { reply, notice, bytes } = this.queue.shift()!;
      this.waitingBytes -= bytes;
      if (this.closed) continue;
      this.sink(reply!);
      if (notice) this.noticeCounts.sent++;
    }
  }

  /**
   * Answers every request whose reply is not ready yet with `replyOf(tag)` now, in order (shutdown,
   * past its drain bound); the replies they would have had are dropped when they come. Returns how
   * many were answered so.
   */
  answerUnanswered(replyOf: (tag: unknown) => Reply): number {
    let n = 0;
    for (const slot of this.queue) {
      if (slot.reply !== undefined || slot.notice) continue;
      this.settle(slot, replyOf(slot.tag));
      n++;
    }
    this.flush();
    return n;
  }

  /** A finished notice text, in reply order: it never overtakes the reply to the call that asked for it. */
  sendNotice(text: string): void {
    if (this.closed) {
      this.noticeCounts.dropped++;
      return;
    }
    this.enqueue({ body: text, status: 200 }, true);
  }

  /** Runs `fn` when the session closes (forgetting its subscriptions, its waiters…); returns a way to cancel that. */
  onClose(fn: () => void): () => void {
    if (this.closed) {
      fn();
      return () => {};
    }
    const cleanups = (this.cleanups ??= new Set());
    cleanups.add(fn);
    return () => cleanups.delete(fn);
  }

  /** Marks the session dead first, so that late replies are dropped, then runs the cleanups. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const slot of this.queue) if (slot.notice) this.noticeCounts.dropped++;
    this.queue.length = 0;
    this.waitingBytes = 0;
    for (const fn of this.cleanups ?? []) {
      try {
        fn();
      } catch (err) {
        this.log.error({ err }, 'cleanup after close failed');
      }
    }
    this.cleanups = undefined;
  }
}
