// subscribe_transfers: the deposit feed's subscriptions (README "Deposit feed"), in the front end.
//
// A subscription is a cursor and a pump. The pump reads the next page after the cursor with the same
// worker call as get_transfers (workers/handlers/deposits.ts), sends the page as one notice
// `[callback, [[transfer, …]]]`, and moves the cursor to the page's next_cursor. The backlog is read
// page after page this way until a page comes back short; from then on the subscription is live, and
// a block that names one of its accounts in a transfer makes the pump read again. Backlog and live
// transfers are thus one sequence of reads from the store after one cursor: each transfer is sent
// once, in chain order, across the switch from backlog to live, and a block applied while the backlog
// is read is simply in a later page. Nothing is taken from this process's memory but the cursor, so
// a serving process that learns of blocks from another process, or a follower, serves the same feed.
//
// What it costs: one page in flight per subscription. Its pool calls are the session's own (the fair
// scheduler serves them in the connection's share) and wait while the client leaves more than
// --max-unread-bytes-per-connection unread, so a client that asks for a backlog of millions and reads
// slowly holds one page in the node, not millions; one that never reads is closed by the transport's
// buffered-bytes limits like any other.
//
// With irreversible_only a page reads only blocks up to the last irreversible one; a subscription
// that knows of a transfer in a block not yet irreversible reads again at each block until that block
// is. Pending transactions never reach the feed: the index is written with blocks (transfer-feed.ts).
import type { ProducedBlock } from '../chain/node/producer.js';
import { transferAccountsOf } from '../chain/plugins/transfer-index.js';
import { RPC, type WireError } from '../errors.js';
import type { Logger } from '../log.js';
import { noticeText } from './hub.js';
import { RETRY_FIRST_MS, RETRY_MAX_MS, HEAVY_ACCOUNTS } from '../tuning.js';

/** What the feed needs of a session: its notice queue, and what the fair scheduler needs of an owner. */
export interface FeedSubscriber {
  readonly isClosed: boolean;
  readonly isPaused: boolean;
  readonly share?: unknown;
  readonly log: Logger;
  sendNotice(text: string): void;
  onClose(fn: () => void): () => void;
}

/**
 * Reads a page for `owner`: deposits.get_transfers with `params`, its answer's JSON text. Throws an
 * error carrying a WireError (`wire`) when the call fails. `heavy`: a backlog page or a long account
 * list (the scheduler's cost class).
 */
export type PageReader = (owner: FeedSubscriber, params: unknown[], heavy: boolean) => Promise<string>;

/** What the node's metrics count of the feed. */
export interface FeedCounts {
  /** transfers sent in notices */
  transfers: number;
  /** pages read for subscriptions, by whether the subscription was still reading its backlog */
  pages: { backlog: number; live: number };
}

/** A page answer cut into what the pump uses, without parsing the transfers. */
export interface Page {
  /** the transfers array's content, `{…},{…}` (empty for none) */
  readonly transfers: string;
  readonly count: number;
  readonly nextCursor: string;
  readonly head: number;
  readonly lastIrreversible: number;
}

const HEAD = '{"transfers":[';
const TAIL = '],"next_cursor":"';
const ENTRY = '{"cursor":"';

/**
 * Cuts a get_transfers answer. The tail is found from the end: nothing after the transfers array
 * holds a string but the cursor. Transfers are counted by their leading `{"cursor":"`, which only a
 * transfer's start can hold: the stored fields' strings are times, hex, ids, public keys and numbers
 * (transfer-feed.ts transferBody), none with a quote in it.
 */
export function cutPage(text: string): Page {
  const at = text.lastIndexOf(TAIL);
  if (!text.startsWith(HEAD) || at < 0) throw new Error(`not a get_transfers answer: ${text.slice(0, 80)}`);
  const transfers = text.slice(HEAD.length, at);
  let count = 0;
  for (let i = transfers.indexOf(ENTRY); i >= 0; i = transfers.indexOf(ENTRY, i + ENTRY.length)) count++;
  const tail = JSON.parse(`{${text.slice(at + 2)}`) as { next_cursor: string; head_block_num: number; last_irreversible_block_num: number };
  return { transfers, count, nextCursor: tail.next_cursor, head: tail.head_block_num, lastIrreversible: tail.last_irreversible_block_num };
}

interface Subscription {
  readonly owner: FeedSubscriber;
  readonly callback: bigint;
  /** account ids ("1.2.x"), as the pages ask for them */
  readonly accounts: readonly string[];
  readonly instances: readonly number[];
  readonly irreversibleOnly: boolean;
  /** where the next page starts: the next_cursor of the last page sent */
  cursor: string;
  /** the highest block known to hold one of its transfers that no page has covered yet; -1: the backlog */
  dirtyUpTo: number | undefined;
  /** whether a page came back short since it began (its backlog is read) */
  live: boolean;
  running: boolean;
  /** a block came while a page was being read: read again after it */
  again: boolean;
  cancelled: boolean;
  retries: number;
  retry: NodeJS.Timeout | undefined;
}

export interface NewSubscription {
  readonly callback: bigint;
  readonly accounts: readonly number[];
  readonly irreversibleOnly: boolean;
  /** the cursor of the first page: the caller's, or the head's when it gave null */
  readonly cursor: string;
}

export class TransferFeed {
  /** account instance → subscriptions that name it */
  private readonly byAccount = new Map<number, Set<Subscription>>();
  /** subscriptions with a dirty block: read at each block until a page covers it */
  private readonly waiting = new Set<Subscription>();
  /** session → its subscriptions by callback, and the hook that ends them when it closes */
  private readonly bySession = new Map<FeedSubscriber, { readonly subs: Map<bigint, Subscription>; readonly forget: () => void }>();

  constructor(
    private readonly read: PageReader,
    private readonly opts: {
      /** transfers per page (api-limit-get-transfers), read at each page */
      readonly pageSize: () => number;
      readonly counts?: FeedCounts;
      readonly log?: Logger;
    },
  ) {}

  /** Subscriptions the session holds. */
  held(s: FeedSubscriber): number {
    return this.bySession.get(s)?.subs.size ?? 0;
  }

  /** Whether the session holds a subscription with this callback (a new one replaces it). */
  holds(s: FeedSubscriber, callback: bigint): boolean {
    return this.bySession.get(s)?.subs.has(callback) ?? false;
  }

  /**
   * Adds (or, for a callback the session holds already, replaces) a subscription and starts reading
   * its backlog. Refused (false) when the session holds `limit` others.
   */
  subscribe(s: FeedSubscriber, n: NewSubscription, limit: number): boolean {
    if (s.isClosed) return true;
    const replaced = this.bySession.get(s)?.subs.get(n.callback);
    if (!replaced && this.held(s) >= limit) return false;
    if (replaced) this.cancel(replaced);
    let mine = this.bySession.get(s);
    if (!mine) {
      mine = { subs: new Map(), forget: s.onClose(() => this.unsubscribe(s)) };
      this.bySession.set(s, mine);
    }
    const sub: Subscription = {
      owner: s,
      callback: n.callback,
      accounts: n.accounts.map((a) => `1.2.${a}`),
      instances: n.accounts,
      irreversibleOnly: n.irreversibleOnly,
      cursor: n.cursor,
      dirtyUpTo: -1,
      live: false,
      running: false,
      again: false,
      cancelled: false,
      retries: 0,
      retry: undefined,
    };
    mine.subs.set(n.callback, sub);
    for (const a of sub.instances) (this.byAccount.get(a) ?? this.byAccount.set(a, new Set()).get(a)!).add(sub);
    this.waiting.add(sub);
    // Its notices queue behind the reply to subscribe_transfers (the session keeps reply order).
    void this.pump(sub);
    return true;
  }

  /** Ends the session's subscription with `callback`, or all of them; returns how many ended. */
  unsubscribe(s: FeedSubscriber, callback?: bigint): number {
    const mine = this.bySession.get(s);
    if (!mine) return 0;
    const ending = callback === undefined ? [...mine.subs.values()] : [mine.subs.get(callback)].filter((x): x is Subscription => x !== undefined);
    for (const sub of ending) this.cancel(sub);
    return ending.length;
  }

  private cancel(sub: Subscription): void {
    sub.cancelled = true;
    if (sub.retry) clearTimeout(sub.retry);
    this.waiting.delete(sub);
    for (const a of sub.instances) {
      const set = this.byAccount.get(a);
      set?.delete(sub);
      if (set?.size === 0) this.byAccount.delete(a);
    }
    const mine = this.bySession.get(sub.owner);
    if (mine?.subs.get(sub.callback) === sub) mine.subs.delete(sub.callback);
    // A session without subscriptions is not held here, nor is its close hook.
    if (mine?.subs.size === 0) {
      this.bySession.delete(sub.owner);
      mine.forget();
    }
  }

  /** A block is in the store (and the workers see it): subscriptions it concerns, or that wait for irreversibility, read again. */
  onBlock(block: ProducedBlock): void {
    if (this.bySession.size === 0) return;
    for (const a of transferAccountsOf(block.transactions)) {
      for (const sub of this.byAccount.get(a) ?? []) {
        sub.dirtyUpTo = Math.max(sub.dirtyUpTo ?? -1, block.blockNum);
        this.waiting.add(sub);
      }
    }
    for (const sub of this.waiting) void this.pump(sub);
  }

  /** For tests and metrics. */
  get subscriptions(): number {
    let n = 0;
    for (const m of this.bySession.values()) n += m.subs.size;
    return n;
  }

  private async pump(sub: Subscription): Promise<void> {
    if (sub.running) {
      sub.again = true;
      return;
    }
    if (sub.retry) return;
    sub.running = true;
    try {
      for (;;) {
        sub.again = false;
        if (sub.cancelled || sub.owner.isClosed) return;
        const pageSize = this.opts.pageSize();
        let page: Page;
        try {
          const text = await this.read(sub.owner, [sub.accounts, sub.cursor, pageSize, sub.irreversibleOnly], !sub.live || sub.accounts.length > HEAVY_ACCOUNTS);
          page = cutPage(text);
        } catch (err) {
          if (sub.cancelled || sub.owner.isClosed) return;
          this.retryLater(sub, err);
          return;
        }
        if (sub.cancelled || sub.owner.isClosed) return;
        sub.retries = 0;
        const counts = this.opts.counts;
        if (counts) {
          if (sub.live) counts.pages.live++;
          else counts.pages.backlog++;
          counts.transfers += page.count;
        }
        if (page.count > 0) sub.owner.sendNotice(noticeText(sub.callback, `[${page.transfers}]`));
        sub.cursor = page.nextCursor;
        // A full page: there may be more after it; the next read waits in the scheduler while the client does not read.
        if (page.count >= pageSize) continue;
        if (!sub.live && sub.irreversibleOnly) {
          // Blocks after the last irreversible one, up to the head, were not read: wait for them too.
          sub.dirtyUpTo = Math.max(sub.dirtyUpTo ?? -1, page.head);
        }
        sub.live = true;
        const covered = sub.irreversibleOnly ? page.lastIrreversible : page.head;
        if (sub.dirtyUpTo !== undefined && covered >= sub.dirtyUpTo) {
          sub.dirtyUpTo = undefined;
          this.waiting.delete(sub);
        }
        if (!sub.again) return;
      }
    } finally {
      sub.running = false;
    }
  }

  /** The page was refused (node busy, a budget, a fault): asked for again later, with a growing wait. */
  private retryLater(sub: Subscription, err: unknown): void {
    const wire = (err as { wire?: WireError }).wire;
    sub.retries++;
    const ms = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (sub.retries - 1));
    // Busy answers are the node's load, said elsewhere; anything else is worth a line.
    if (wire?.code !== RPC.NODE_BUSY.code) sub.owner.log.warn({ err: wire ?? err, retryMs: ms }, 'transfer feed: reading a page failed; trying again');
    sub.retry = setTimeout(() => {
      sub.retry = undefined;
      void this.pump(sub);
    }, ms);
    sub.retry.unref();
  }
}
