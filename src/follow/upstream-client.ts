// A follower's one connection to its upstream node: JSON-RPC over WebSocket as a Core client speaks
// it (`call` with a string API name, replies by id, `notice` messages for callbacks). Anything the
// upstream sends is untrusted: a frame over the size bound closes the connection (ws' maxPayload),
// and text that is not a JSON-RPC message is a protocol failure, not a crash.
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { isWireError, type WireError } from '../errors.js';

/** The upstream answered a call with an error: its error object, as it sent it. */
export class UpstreamCallError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

/** The connection failed or closed (or the upstream broke the protocol) before a call was answered. */
export class UpstreamConnectionError extends Error {
  /** true when the upstream, not the network, is at fault: it sent what no Core node sends */
  constructor(
    message: string,
    readonly protocolFault = false,
  ) {
    super(message);
  }
}

export interface UpstreamClientEvents {
  /** a callback notice: the callback id and its arguments */
  notice: [number, unknown[]];
  /** the connection is gone; every call in flight has been rejected */
  closed: [UpstreamConnectionError];
}

export interface UpstreamClientOptions {
  /** the largest message accepted from the upstream, in bytes */
  readonly maxFrameBytes: number;
  /** ms to wait for the connection to open, and for each call's answer */
  readonly timeoutMs: number;
}

export class UpstreamClient extends EventEmitter<UpstreamClientEvents> {
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private failure: UpstreamConnectionError | undefined;

  private constructor(
    private readonly ws: WebSocket,
    private readonly timeoutMs: number,
  ) {
    super();
    ws.on('message', (data, binary) => this.onMessage(data, binary));
    ws.on('error', (err) => this.fail(new UpstreamConnectionError(frameError(err), (err as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')));
    ws.on('close', (code, reason) => this.fail(new UpstreamConnectionError(`the upstream closed the connection (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)));
  }

  /**
   * Opens a connection; rejects with UpstreamConnectionError when it cannot. `abortable` receives a
   * function that gives up the attempt at once (a node shutting down does not wait for a handshake).
   */
  static connect(url: string, o: UpstreamClientOptions, abortable?: (abort: () => void) => void): Promise<UpstreamClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { maxPayload: o.maxFrameBytes, handshakeTimeout: o.timeoutMs, perMessageDeflate: false });
      abortable?.(() => failed(new Error('given up: the node is stopping')));
      const failed = (err: Error) => {
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
        reject(new UpstreamConnectionError(`cannot connect to ${url}: ${err.message}`));
      };
      ws.once('error', failed);
      ws.once('unexpected-response', (_req, res) => failed(new Error(`HTTP ${res.statusCode} instead of a WebSocket upgrade`)));
      ws.once('open', () => {
        ws.removeListener('error', failed);
        ws.removeAllListeners('unexpected-response');
        resolve(new UpstreamClient(ws, o.timeoutMs));
      });
    });
  }

  /** Why the connection is gone, or undefined while it is open. */
  get closedBy(): UpstreamConnectionError | undefined {
    return this.failure;
  }

  /**
   * `call(api, method, params)`: resolves with the result; rejects with UpstreamCallError when the
   * upstream answers with an error, UpstreamConnectionError when the connection fails first or the
   * answer does not come within the timeout (the connection is then closed: a node that leaves
   * calls unanswered is not followed).
   */
  call(api: string, method: string, params: unknown[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new UpstreamConnectionError(`the upstream did not answer ${api}.${method} within ${this.timeoutMs} ms`)), this.timeoutMs);
      this.calls.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'call', params: [api, method, params] }));
    });
  }

  close(): void {
    this.fail(new UpstreamConnectionError('closed by this node'));
  }

  /** Drops the connection because the upstream sent what no Core node sends (`why`). */
  refuse(why: string): void {
    this.fail(new UpstreamConnectionError(why, true));
  }

  private onMessage(data: WebSocket.RawData, binary: boolean): void {
    if (this.failure) return;
    if (binary) return this.fail(new UpstreamConnectionError('the upstream sent a binary message', true));
    let msg: unknown;
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return this.fail(new UpstreamConnectionError(`the upstream sent text that is not JSON (${data.toString().slice(0, 80)})`, true));
    }
    if (typeof msg !== 'object' || msg === null) return this.fail(new UpstreamConnectionError('the upstream sent a message that is not a JSON object', true));
    const m = msg as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (m.method === 'notice') {
      const p = m.params;
      if (!Array.isArray(p) || typeof p[0] !== 'number' || !Array.isArray(p[1])) return this.fail(new UpstreamConnectionError('the upstream sent a malformed notice', true));
      this.emit('notice', p[0], p[1] as unknown[]);
      return;
    }
    const call = typeof m.id === 'number' ? this.calls.get(m.id) : undefined;
    // A reply to no call in flight: an upstream that answers what was not asked is not trusted.
    if (!call) return this.fail(new UpstreamConnectionError(`the upstream sent a reply to no call in flight (id ${JSON.stringify(m.id)})`, true));
    this.calls.delete(m.id as number);
    clearTimeout(call.timer);
    if ('error' in m && m.error !== undefined && m.error !== null) {
      call.reject(new UpstreamCallError(isWireError(m.error) ? m.error : { code: -32603, message: `the upstream answered with an error that is not a JSON-RPC error: ${JSON.stringify(m.error).slice(0, 200)}` }));
    } else {
      call.resolve(m.result);
    }
  }

  private fail(err: UpstreamConnectionError): void {
    if (this.failure) return;
    this.failure = err;
    for (const c of this.calls.values()) {
      clearTimeout(c.timer);
      c.reject(err);
    }
    this.calls.clear();
    this.ws.removeAllListeners('message');
    // Errors after the first say nothing new (a close follows a failed frame).
    this.ws.on('error', () => undefined);
    this.ws.terminate();
    this.emit('closed', err);
  }
}

function frameError(err: Error): string {
  const code = (err as { code?: string }).code;
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return `the upstream sent a message larger than --follow-max-frame-bytes (${err.message})`;
  return `connection error: ${err.message}`;
}
