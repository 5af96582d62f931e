// A session: one WebSocket connection, or one HTTP request. It owns the login state, the allowed
// API sets and the table of API set IDs (reference §1.2-1.3), and it answers a connection's requests
// in the order they arrived (bitsharesjs-ws breaks on out-of-order replies; clients.md §1.3).
// No uWS types here: the transport hands in text and receives reply bodies through `sink`.

import type { Config } from '../config.js';
import type { AccessPolicy } from '../access.js';
import { authenticate } from '../access.js';
import type { CallPool } from '../pool/pool.js';
import type { ApiSetSpec } from '../api/types.js';
import type { Logger } from '../log.js';
import { RPC, httpStatusFor, protocolError, type WireError } from '../errors.js';
import { invalidReply, parseInbound } from '../protocol/jsonrpc.js';
import { dispatch, type LocalHandler } from '../dispatch/dispatcher.js';
import type { BlockProducer } from '../chain/producer.js';
import type { Confirmations, Waiter } from './confirmations.js';
import { u64 } from '../chain/fc-json.js';
import { SessionSubscriptions, type SubscriptionHub } from './subscriptions.js';

/** A finished reply, or null when the request wants none (a notification). */
export type Reply = { readonly body: string | Uint8Array; readonly status: number } | null;

export interface SessionDeps {
  readonly config: Config;
  readonly policy: AccessPolicy;
  readonly pool: CallPool;
  /** API sets (other than login) by getter name */
  readonly poolSets: ReadonlyMap<string, ApiSetSpec>;
  /** front-end handlers of those sets, by set name; methods without one run in the pool */
  readonly localHandlers: ReadonlyMap<string, Readonly<Record<string, LocalHandler>>>;
  readonly producer: BlockProducer;
  readonly confirmations: Confirmations;
  readonly subscriptions: SubscriptionHub;
  readonly log: Logger;
}

export type Credentials = { readonly user: string; readonly password: string } | 'malformed' | undefined;

interface Slot {
  reply: Reply | undefined;
}

let nextConnId = 1;

export class Session {
  readonly connId = nextConnId++;
  readonly log: Logger;
  /** API set access names this session may use (sorted, like Core's flat_set) */
  allowed: readonly string[] = [];
  /** API set ID → set name ("database", "login", "dummy", "history", …) */
  readonly apis: string[] = [];
  /** set name → its ID on this connection, for sets a getter has handed out */
  readonly getterIds = new Map<string, number>();
  private readonly queue: Slot[] = [];
  private closed = false;
  private readonly waiters = new Set<Waiter>();
  /** database_api subscription state of this connection */
  readonly subs = new SessionSubscriptions();

  constructor(
    readonly deps: SessionDeps,
    readonly transport: 'ws' | 'http',
    credentials: Credentials,
    private readonly sink: (reply: Reply) => void,
  ) {
    this.log = deps.log.child({ conn: this.connId });
    // Automatic login at connect (application.cpp new_connection): Basic credentials, else ("", "").
    // A malformed Authorization header counts as a failed login: the session gets no API sets.
    if (credentials === 'malformed') this.allowed = [];
    else this.allowed = authenticate(deps.policy, credentials?.user ?? '', credentials?.password ?? '') ?? [];
    // ID 0: the database API if this session may use it, otherwise the dummy set. ID 1: login.
    if (this.allowed.includes('database_api')) this.register('database');
    else this.apis.push('dummy');
    this.apis.push('login');
    // In the legacy variant the automatic login ran after ID 0 was registered and re-created every
    // allowed API object, so asking for `database` afterwards yields a new ID (reference §1.4).
    if (deps.config.loginApiVariant === 'legacy') this.getterIds.clear();
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

  login(user: string, password: string): boolean {
    const allowed = authenticate(this.deps.policy, user, password);
    this.allowed = allowed ?? [];
    return allowed !== undefined;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Number of requests whose replies have not been handed to the transport yet. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * One inbound message. Replies reach `sink` in arrival order. The transport has already refused
   * messages above --max-request-bytes (it knows their byte length without re-encoding them).
   */
  receive(text: string): void {
    if (this.closed) return;
    const { config } = this.deps;
    const inbound = parseInbound(text, config.maxJsonDepth);
    if (inbound.kind === 'ignore') return this.enqueue(Promise.resolve(null));
    if (inbound.kind === 'invalid') return this.answerNow(inbound.error);
    if (this.queue.length >= config.maxPendingCallsPerConnection) return this.answerNow(protocolError(RPC.SERVER_BUSY));
    this.enqueue(dispatch(this, inbound.request));
  }

  /** A protocol-level error reply (id null), kept in order with the replies before it. */
  answerNow(error: WireError): void {
    this.enqueue(Promise.resolve({ body: invalidReply(error), status: httpStatusFor(error) }));
  }

  private enqueue(result: Promise<Reply>): void {
    const slot: Slot = { reply: undefined };
    this.queue.push(slot);
    result.then(
      (reply) => {
        slot.reply = reply;
        this.flush();
      },
      (err: unknown) => {
        // dispatch() never rejects by design; if it does, answer -32603 and log the cause.
        this.log.error({ err }, 'dispatch failed');
        slot.reply = { body: invalidReply(protocolError(RPC.INTERNAL)), status: 500 };
        this.flush();
      },
    );
  }

  private flush(): void {
    while (this.queue.length > 0 && this.queue[0]!.reply !== undefined) {
      const { reply } = this.queue.shift()!;
      if (!this.closed) this.sink(reply!);
    }
  }

  /**
   * Sends `{"method":"notice","params":[cb,[payload]]}`. It takes its place in the reply queue, so a
   * notice never overtakes the reply to the call that registered its callback.
   */
  notice(callbackId: bigint, payloadJson: string): void {
    this.sendNotice(`{"method":"notice","params":[${JSON.stringify(u64(callbackId))},[${payloadJson}]]}`);
  }

  /** A finished notice text, in reply order. */
  sendNotice(text: string): void {
    if (this.closed) return;
    this.enqueue(Promise.resolve({ body: text, status: 200 }));
  }

  /** Wraps a confirmation waiter so that it does nothing once the session is closed, and is forgotten then. */
  confirmationWaiter(fn: Waiter): Waiter {
    const w: Waiter = (c) => {
      this.waiters.delete(w);
      if (!this.closed) fn(c);
    };
    this.waiters.add(w);
    return w;
  }

  /** Marks the session dead first, so that late pool replies are dropped. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    for (const w of this.waiters) this.deps.confirmations.drop(w);
    this.waiters.clear();
    this.deps.subscriptions.forget(this);
  }
}
