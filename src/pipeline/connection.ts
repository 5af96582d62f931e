// A connection as the transport sees it: it opens a session (with the automatic login at connect),
// takes each message through the pipeline, and queues the reply in the session's order. The
// transport knows only this interface, never API sets or sessions' insides.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { grantFor, type AccessPolicy } from '../access.js';
import { attemptLogin, loginFailed, noteLogins, takeLogin, type LoginServices } from '../handlers/login-flow.js';
import { httpStatusFor, type WireError } from '../errors.js';
import { errorReply, invalidReply, parseInbound } from '../protocol/jsonrpc.js';
import { Session, type Reply, type Transport } from '../session/session.js';
import type { Call } from './types.js';
import type { Pipeline } from './pipeline.js';
import type { Grant } from '../access.js';
import type { NodeMetrics } from '../metrics/node-metrics.js';
import { CLOSE_AT_PENDING_MULTIPLE } from '../tuning.js';

export type { Reply, Transport };

/** Credentials from an `Authorization: Basic` header; 'malformed' when it could not be decoded. */
export type Credentials = { readonly user: string; readonly password: string } | 'malformed' | undefined;

export interface Connection {
  readonly log: Logger;
  readonly isClosed: boolean;
  /** requests whose replies have not been handed to the transport yet */
  readonly pending: number;
  /**
   * One inbound message: its text, or its bytes when it is READ_IN_POOL_FROM_BYTES or more (read in
   * the pool, src/protocol/read-in-pool.ts). Returns false when the connection should be closed (see
   * CLOSE_AT_PENDING_MULTIPLE).
   */
  receive(message: string | Uint8Array): boolean;
  /** Answers a message the transport refused before reading it (too big), in reply order, with `"id":null`. */
  refuse(error: WireError): void;
  /**
   * What the client has left unread, in bytes, as the transport counts it. While that, with the
   * replies waiting for their turn and those expected of its calls in the pool, is above
   * --max-unread-bytes-per-connection, the connection's pool calls wait until it reads.
   */
  unread(bytes: number): void;
  /**
   * Answers every call not answered yet with `error` now (shutdown, past --shutdown-drain-ms), in
   * order; what they would have answered later is dropped. Returns how many.
   */
  abandon(error: WireError): number;
  close(): void;
}

/** Opens a connection; `address` is the client's (after --trusted-proxies), for limits and logs. */
export type ConnectionFactory = (transport: Transport, credentials: Credentials, address: string, sink: (reply: Reply) => void) => Connection;

/** The automatic login's outcome: the session starts with what it grants (nothing for a failure). */
function begin(login: LoginServices, session: Session, user: string, grant: Grant | undefined): void {
  let allowed: readonly string[] = [];
  let logins: Session['logins'] = [];
  if (grant) {
    try {
      takeLogin(login, session, grant);
      allowed = grant.allowed;
      logins = [{ user, grant }];
    } catch (err) {
      session.log.warn({ err }, 'login at connect refused');
    }
  }
  // Kept so that a reload of the access file can re-check this login at the next accessor call.
  noteLogins(login, session, logins);
  session.begin(allowed);
}

/**
 * The reply of a call answered with `error` before it is done: with its id, or none for a
 * notification. A call still waiting behind a login was not read yet: it is read for its id now.
 */
function abandonedReply(call: Call, error: WireError, maxDepth: number): Reply {
  let req = call.request;
  if (!req) {
    // Only on shutdown: a large request not read yet is read here, for its id.
    const inbound = parseInbound(call.bytes ? new TextDecoder().decode(call.bytes) : call.text, maxDepth);
    if (inbound.kind === 'ignore') return null;
    if (inbound.kind === 'invalid') return { body: invalidReply(inbound.error, inbound.to), status: httpStatusFor(inbound.error) };
    req = inbound.request;
  }
  return req.wantsReply ? { body: errorReply(req, error), status: httpStatusFor(error) } : null;
}

/** One message through the pipeline; its reply, at once or when the call is done. */
function replyOf(pipeline: Pipeline, call: Call): Reply | Promise<Reply> {
  const step = pipeline.handle(call);
  return step instanceof Promise ? step.then(() => call.reply!) : call.reply!;
}

// A class rather than an object of closures: an HTTP request opens one of these per call.
class PipelineConnection implements Connection {
  constructor(
    private readonly session: Session,
    private readonly pipeline: Pipeline,
    /** the node's options, read at each use (the limits here reload on SIGHUP) */
    private readonly config: Pick<Config, 'maxPendingCallsPerConnection' | 'maxUnreadBytesPerConnection' | 'maxJsonDepth'>,
  ) {
    session.replyBudget = config;
  }

  get log(): Logger {
    return this.session.log;
  }

  get isClosed(): boolean {
    return this.session.isClosed;
  }

  get pending(): number {
    return this.session.pending;
  }

  receive(message: string | Uint8Array): boolean {
    const { session } = this;
    if (session.isClosed) return false;
    const call: Call = typeof message === 'string' ? { session, text: message, arrived: performance.now() } : { session, text: '', bytes: message, arrived: performance.now() };
    // Behind a login in progress, the request runs once it is done (in arrival order).
    const held = session.held;
    if (held) session.enqueue(held.then(() => replyOf(this.pipeline, call)), false, call);
    else {
      // The session takes the call's place after the pipeline's synchronous part (admit counts earlier calls only).
      const step = this.pipeline.handle(call);
      if (step instanceof Promise) session.enqueueWhen(step, call);
      else session.enqueue(call.reply!, false, call);
    }
    return session.transport === 'http' || session.pending < this.config.maxPendingCallsPerConnection * CLOSE_AT_PENDING_MULTIPLE;
  }

  refuse(error: WireError): void {
    this.session.enqueue({ body: invalidReply(error), status: httpStatusFor(error) });
  }

  unread(bytes: number): void {
    const { session } = this;
    const was = session.isPaused;
    const before = session.unreadBytes;
    session.unreadBytes = bytes;
    const limit = this.config.maxUnreadBytesPerConnection;
    if (bytes > limit && before <= limit) session.log.info({ unread: bytes, outstanding: session.outstandingBytes }, 'client does not read its replies; its calls wait');
    if (was && !session.isPaused) this.pipeline.scheduler.wake();
  }

  abandon(error: WireError): number {
    return this.session.answerUnanswered((call) => abandonedReply(call as Call, error, this.config.maxJsonDepth));
  }

  close(): void {
    this.session.close();
  }
}

/** What the node's metrics learn from connections as they open; tests of the pipeline alone leave it out. */
export type ConnectionMetrics = Pick<NodeMetrics, 'connectionsOpened' | 'notices' | 'sessionOpened'>;

export function connections(config: Config, login: LoginServices, pipeline: Pipeline, log: Logger, metrics?: ConnectionMetrics): ConnectionFactory {
  return (transport, credentials, address, sink) => {
    // An HTTP request is a session of its own: at debug level it gets the lines a WebSocket
    // connection gets at open and close (the transport logs those), from here, where it begins and
    // where its reply leaves. Nothing is made for them at other levels: these are the hot path.
    let answered: ((reply: Reply) => void) | undefined;
    if (transport === 'http' && log.isLevelEnabled('debug')) {
      const opened = performance.now();
      const inner = sink;
      answered = (reply) => {
        inner(reply);
        const seconds = Math.round(performance.now() - opened) / 1000;
        session.log.debug({ address, status: reply?.status ?? 204, seconds }, 'HTTP request answered');
      };
    }
    const session = new Session(transport, address, config.loginApiVariant, log, answered ?? sink, metrics?.notices);
    if (answered) session.log.debug({ address }, 'HTTP request received');
    if (metrics) {
      metrics.connectionsOpened[transport]++;
      // Sessions by login state count WebSocket sessions: an HTTP request's lasts one call.
      if (transport === 'ws') metrics.sessionOpened(session);
    }
    // Automatic login at connect (application.cpp new_connection): Basic credentials, else ("", "").
    // A malformed Authorization header counts as a failed login: the session gets no API sets.
    // Credentials are a password guess like any other: throttled, so the session's requests wait.
    if (credentials === 'malformed') {
      loginFailed(login, session, 'basic', undefined);
      begin(login, session, '', undefined);
    } else if (credentials === undefined) begin(login, session, '', grantFor(login.policy, '', ''));
    else {
      session.holding(
        attemptLogin(login, session, 'basic', credentials.user, credentials.password).then(
          (grant) => begin(login, session, credentials.user, grant),
          (err: unknown) => {
            session.log.error({ err }, 'login at connect failed');
            begin(login, session, credentials.user, undefined);
          },
        ),
      );
    }
    return new PipelineConnection(session, pipeline, config);
  };
}
