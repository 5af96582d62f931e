// Subscriptions and notices (database_api.cpp handle_object_changed, reference §3.6), for every
// WebSocket session, fanned out by the front end once per block.
//
// Core's rule, kept here: when a block creates or changes objects, a session with a subscribe
// callback receives those objects if it subscribed to their ids, or — for the whole batch — if one
// of its subscribed accounts is among the accounts the batch concerns (then it gets every object of
// the batch: Core decides per batch, not per object). New objects also go to sessions that asked for
// all creations (set_subscribe_callback(cb, true)). Removed objects go as id strings.
//
// Payloads are built once per block and shared: a session whose accounts are concerned gets the
// same bytes as every other such session, with its own callback id in front.
//
// Market subscriptions (subscribe_to_market) follow Core's database_api too: a session hears of each
// fill_order of its market, `[op, result]` pairs in one notice per block (on_applied_block), and of
// the market's limit orders in each batch: created and changed ones as objects, removed ones as ids
// (handle_object_changed, enqueue_if_subscribed_to_market).
//
// This module is the whole of subscriptions but their API functions (src/handlers/subscriptions.ts):
// each connection's state, the node-wide hub that fans out notices, and the notice text (also used
// by broadcast callbacks). It knows sessions only as `Subscriber`s and knows nothing of the pool:
// what a pool call subscribes to arrives as plain ids.

import type { ProducedBlock } from '../chain/node/producer.js';
import type { SignedTransactionJson } from '../chain/node/block-applier.js';

/** One session's subscription state (database_api_impl's members). */
export class SessionSubscriptions {
  callback: bigint | undefined;
  notifyRemoveCreate = false;
  autoSubscription = true;
  blockAppliedCallback: bigint | undefined;
  pendingTransactionCallback: bigint | undefined;
  /** whether the log has been told that a subscription cap left something of this session's out (once per session) */
  capLogged = false;
  // Made on first use: most sessions (every HTTP request) never subscribe to anything.
  private idSet: Set<string> | undefined;
  private accountSet: Set<number> | undefined;
  private marketMap: Map<string, bigint> | undefined;

  /** object ids this session subscribed to */
  get ids(): Set<string> {
    return (this.idSet ??= new Set());
  }

  /** account instances this session subscribed to (get_full_accounts) */
  get accounts(): Set<number> {
    return (this.accountSet ??= new Set());
  }

  /** "1.3.a:1.3.b" (the lower id first) → callback, for subscribe_to_market */
  get markets(): Map<string, bigint> {
    return (this.marketMap ??= new Map());
  }

  /** get_whether_to_subscribe: never without a callback; the argument if given; else the auto flag. */
  wants(subscribe: boolean | undefined): boolean {
    if (this.callback === undefined) return false;
    return subscribe ?? this.autoSubscription;
  }
}

/** What the hub needs of a session: its subscription state, its ordered notice queue, its close hook. */
export interface Subscriber {
  readonly subs: SessionSubscriptions;
  sendNotice(text: string): void;
  onClose(fn: () => void): () => void;
}

/**
 * The one notice text: `{"method":"notice","params":[cb,[payload]]}`, the callback id printed as fc
 * prints a uint64 (a string above 2^32-1).
 */
export const noticeText = (cb: bigint, payloadJson: string): string => `{"method":"notice","params":[${cb <= 0xffffffffn ? cb.toString() : `"${cb}"`},[${payloadJson}]]}`;
const notice = noticeText;

/** database_api calls that subscribe to what they return, and the position of their `subscribe` flag. */
const SUBSCRIBING: Readonly<Record<string, number>> = { get_objects: 1, get_accounts: 1, get_full_accounts: 1, lookup_accounts: 2, get_assets: 1 };

/** Whether a call subscribes its session to what it returns (Core's get_whether_to_subscribe). */
export function callSubscribes(subs: SessionSubscriptions, set: string, method: string, args: readonly unknown[]): boolean {
  if (set !== 'database' || subs.callback === undefined) return false;
  const at = SUBSCRIBING[method];
  if (at === undefined) return false;
  const flag = args[at];
  return subs.wants(flag === undefined || flag === null ? undefined : Boolean(flag));
}

/** What a subscription cap left out: object ids, accounts (get_full_accounts) or markets. */
export type SubscriptionKind = 'objects' | 'accounts' | 'markets';

export class SubscriptionHub {
  /** `refused` is told of every subscription a cap left out (the node's metrics count them). */
  constructor(private readonly refused: (kind: SubscriptionKind, n: number) => void = () => {}) {}

  /** object id → sessions subscribed to it */
  private readonly byId = new Map<string, Set<Subscriber>>();
  /** account instance → sessions subscribed to it */
  private readonly byAccount = new Map<number, Set<Subscriber>>();
  private readonly allCreations = new Set<Subscriber>();
  private readonly blockApplied = new Set<Subscriber>();
  private readonly pendingTransactions = new Set<Subscriber>();
  /** market ("1.3.a:1.3.b") → sessions subscribed to it */
  private readonly byMarket = new Map<string, Set<Subscriber>>();

  /** Sessions this hub holds in an index: each is forgotten when it closes. */
  private readonly tracked = new WeakSet<Subscriber>();

  private track(s: Subscriber): void {
    if (this.tracked.has(s)) return;
    this.tracked.add(s);
    s.onClose(() => this.forget(s));
  }

  private static add<K>(index: Map<K, Set<Subscriber>>, key: K, s: Subscriber): void {
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    set.add(s);
  }

  private static remove<K>(index: Map<K, Set<Subscriber>>, key: K, s: Subscriber): void {
    const set = index.get(key);
    if (!set) return;
    set.delete(s);
    if (set.size === 0) index.delete(key);
  }

  /**
   * Adds object ids while the session holds fewer than `limit` (--max-subscribed-objects-per-connection);
   * returns how many new ones were left out. Core keeps these ids in a bloom filter of fixed size
   * (database_api.cpp set_subscribe_callback: 10,000 ids projected, 16 KiB at most), so its memory
   * per session is bounded and only its false positives grow; a Set costs memory per id, so the
   * count is bounded instead. The call that asked still answers in full: only its subscription stops.
   */
  subscribeIds(s: Subscriber, ids: Iterable<string>, limit: number): number {
    this.track(s);
    const held = s.subs.ids;
    let refused = 0;
    for (const id of ids) {
      if (held.has(id)) continue;
      if (held.size >= limit) {
        refused++;
        continue;
      }
      held.add(id);
      SubscriptionHub.add(this.byId, id, s);
    }
    if (refused > 0) this.refused('objects', refused);
    return refused;
  }

  /**
   * Adds accounts while the session holds fewer than `limit` (api_limit_get_full_accounts_subscribe,
   * Core's rule: further accounts are silently not subscribed), each with its account object within
   * `objectLimit`. Returns how many new accounts were left out.
   */
  subscribeAccounts(s: Subscriber, accounts: Iterable<number>, limit: number, objectLimit: number): number {
    this.track(s);
    let refused = 0;
    for (const a of accounts) {
      if (s.subs.accounts.has(a)) continue;
      if (s.subs.accounts.size >= limit) {
        refused++;
        continue;
      }
      s.subs.accounts.add(a);
      SubscriptionHub.add(this.byAccount, a, s);
      this.subscribeIds(s, [`1.2.${a}`], objectLimit);
    }
    if (refused > 0) this.refused('accounts', refused);
    return refused;
  }

  setCallback(s: Subscriber, cb: bigint, notifyRemoveCreate: boolean): void {
    // set_subscribe_callback first cancels the object and account subscriptions (not the markets).
    this.track(s);
    this.clearObjects(s);
    s.subs.callback = cb;
    s.subs.notifyRemoveCreate = notifyRemoveCreate;
    if (notifyRemoveCreate) this.allCreations.add(s);
  }

  setBlockApplied(s: Subscriber, cb: bigint): void {
    this.track(s);
    s.subs.blockAppliedCallback = cb;
    this.blockApplied.add(s);
  }

  setPendingTransactions(s: Subscriber, cb: bigint): void {
    this.track(s);
    s.subs.pendingTransactionCallback = cb;
    this.pendingTransactions.add(s);
  }

  /**
   * subscribe_to_market: one callback per market and session, the last one given. A market the
   * session does not hold yet is refused (false) once it holds `limit`
   * (--max-market-subscriptions-per-connection); a new callback for a market it holds never is.
   */
  subscribeMarket(s: Subscriber, market: string, cb: bigint, limit: number): boolean {
    if (!s.subs.markets.has(market) && s.subs.markets.size >= limit) {
      this.refused('markets', 1);
      return false;
    }
    this.track(s);
    s.subs.markets.set(market, cb);
    SubscriptionHub.add(this.byMarket, market, s);
    return true;
  }

  unsubscribeMarket(s: Subscriber, market: string): void {
    s.subs.markets.delete(market);
    SubscriptionHub.remove(this.byMarket, market, s);
  }

  private clearObjects(s: Subscriber): void {
    for (const id of s.subs.ids) SubscriptionHub.remove(this.byId, id, s);
    for (const a of s.subs.accounts) SubscriptionHub.remove(this.byAccount, a, s);
    s.subs.ids.clear();
    s.subs.accounts.clear();
    s.subs.notifyRemoveCreate = false;
    this.allCreations.delete(s);
  }

  /**
   * cancel_all_subscriptions: the subscribe callback, object and account subscriptions and markets.
   * As in Core, the block-applied and pending-transaction callbacks stay.
   */
  cancelAll(s: Subscriber): void {
    this.clearObjects(s);
    s.subs.callback = undefined;
    for (const market of s.subs.markets.keys()) SubscriptionHub.remove(this.byMarket, market, s);
    s.subs.markets.clear();
  }

  /** A closed session leaves every index. */
  forget(s: Subscriber): void {
    this.cancelAll(s);
    this.blockApplied.delete(s);
    this.pendingTransactions.delete(s);
  }

  onBlock(block: ProducedBlock): void {
    const { changes, market } = block;
    // Core sends a block's fills (on_applied_block) before its object changes (notify_changed_objects).
    if (this.byMarket.size > 0) this.marketFillNotices(market.fills);
    this.objectNotices(changes.created, changes.createdAccounts, changes.json, true);
    this.marketObjectNotices(changes.created, market.orders, (id) => changes.json.get(id)!);
    this.objectNotices(changes.changed, changes.changedAccounts, changes.json, false);
    this.marketObjectNotices(changes.changed, market.orders, (id) => changes.json.get(id)!);
    if (changes.removed.length > 0) this.removedNotices(changes.removed, changes.removedAccounts);
    this.marketObjectNotices(changes.removed, market.orders, (id) => JSON.stringify(id));
    if (this.blockApplied.size > 0) {
      const payload = JSON.stringify(block.blockId);
      for (const s of this.blockApplied) if (s.subs.blockAppliedCallback !== undefined) s.sendNotice(notice(s.subs.blockAppliedCallback, payload));
    }
  }

  onPendingTransaction(trx: SignedTransactionJson): void {
    if (this.pendingTransactions.size === 0) return;
    const payload = JSON.stringify(trx);
    for (const s of this.pendingTransactions) if (s.subs.pendingTransactionCallback !== undefined) s.sendNotice(notice(s.subs.pendingTransactionCallback, payload));
  }

  private objectNotices(ids: readonly string[], accounts: ReadonlySet<number>, json: ReadonlyMap<string, string>, created: boolean): void {
    if (ids.length === 0) return;
    // Sessions that get the whole batch: every account subscriber concerned, and (for creations)
    // those that asked for all creations. Their payload is built once.
    const whole = new Set<Subscriber>(created ? this.allCreations : []);
    for (const a of accounts) for (const s of this.byAccount.get(a) ?? []) whole.add(s);
    let wholePayload: string | undefined;
    for (const s of whole) {
      if (s.subs.callback === undefined) continue;
      wholePayload ??= `[${ids.map((id) => json.get(id)).join(',')}]`;
      s.sendNotice(notice(s.subs.callback, wholePayload));
    }
    // Sessions subscribed to some of the ids only.
    const partial = new Map<Subscriber, string[]>();
    for (const id of ids) {
      for (const s of this.byId.get(id) ?? []) {
        if (whole.has(s)) continue;
        let list = partial.get(s);
        if (!list) partial.set(s, (list = []));
        list.push(id);
      }
    }
    for (const [s, list] of partial) {
      if (s.subs.callback === undefined) continue;
      s.sendNotice(notice(s.subs.callback, `[${list.map((id) => json.get(id)).join(',')}]`));
    }
  }

  /** Removed objects, as ids: to sessions that asked for all removals, or for an account the batch concerns (the whole batch), or for some of the ids. */
  private removedNotices(ids: readonly string[], accounts: ReadonlySet<number>): void {
    const payload = JSON.stringify(ids);
    const whole = new Set<Subscriber>(this.allCreations);
    for (const a of accounts) for (const s of this.byAccount.get(a) ?? []) whole.add(s);
    for (const s of whole) if (s.subs.callback !== undefined) s.sendNotice(notice(s.subs.callback, payload));
    const partial = new Map<Subscriber, string[]>();
    for (const id of ids) for (const s of this.byId.get(id) ?? []) if (!whole.has(s)) (partial.get(s) ?? partial.set(s, []).get(s)!).push(id);
    for (const [s, list] of partial) if (s.subs.callback !== undefined) s.sendNotice(notice(s.subs.callback, JSON.stringify(list)));
  }

  /** One notice per subscribed market with the block's fills in it: `[[op, result], …]`. */
  private marketFillNotices(fills: readonly { market: string; json: string }[]): void {
    const byMarket = new Map<string, string[]>();
    for (const f of fills) if (this.byMarket.has(f.market)) (byMarket.get(f.market) ?? byMarket.set(f.market, []).get(f.market)!).push(f.json);
    for (const [market, list] of byMarket) this.sendToMarket(market, `[${list.join(',')}]`);
  }

  /** One notice per subscribed market with a batch's limit orders of that market (objects, or ids when removed). */
  private marketObjectNotices(ids: readonly string[], markets: ReadonlyMap<string, string>, text: (id: string) => string): void {
    if (this.byMarket.size === 0) return;
    const byMarket = new Map<string, string[]>();
    for (const id of ids) {
      const market = markets.get(id);
      if (market !== undefined && this.byMarket.has(market)) (byMarket.get(market) ?? byMarket.set(market, []).get(market)!).push(text(id));
    }
    for (const [market, list] of byMarket) this.sendToMarket(market, `[${list.join(',')}]`);
  }

  private sendToMarket(market: string, payload: string): void {
    for (const s of this.byMarket.get(market) ?? []) {
      const cb = s.subs.markets.get(market);
      if (cb !== undefined) s.sendNotice(notice(cb, payload));
    }
  }

  /** For tests and metrics. */
  get sessionsWithBlockCallback(): number {
    return this.blockApplied.size;
  }
}
