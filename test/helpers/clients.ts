// Real clients: fetch (undici, keep-alive) for HTTP and the `ws` package for WebSocket.
import type { ExecutionContext } from 'ava';
import WebSocket from 'ws';

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export interface HttpReply {
  status: number;
  text: string;
  headers: Headers;
}

export async function httpPost(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpReply> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The text of a JSON-RPC call in the short form ({id, method, params}), for a body or a frame. */
export const callText = (id: number | string, method: string, params: unknown[]): string => JSON.stringify({ id, method, params });

/** A call in the call form ([set, method, params]) over HTTP, id 1; the reply parsed. */
export async function rpc(url: string, set: string, method: string, params: unknown[], headers: Record<string, string> = {}): Promise<any> {
  return JSON.parse((await httpPost(url, JSON.stringify({ id: 1, method: 'call', params: [set, method, params] }), headers)).text);
}

/** A POST whose reply is kept as bytes, for comparisons that must not decode anything. */
export async function httpPostBytes(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, contentType: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/**
 * The text messages `ws` receives from now on, and a promise of the first `n` of them, which fails if
 * the connection closes first: a test awaits its replies instead of polling for them.
 */
export function collectMessages(ws: WebSocket, n: number): { readonly texts: string[]; readonly all: Promise<string[]> } {
  const texts: string[] = [];
  const all = new Promise<string[]>((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      texts.push(data.toString());
      if (texts.length === n) {
        ws.off('message', onMessage);
        ws.off('close', onClose);
        resolve(texts);
      }
    };
    const onClose = (code: number) => reject(new Error(`the connection closed (${code}) after ${texts.length} of ${n} messages`));
    ws.on('message', onMessage);
    ws.once('close', onClose);
  });
  // The caller awaits `all` later; until then a close must not count as an unhandled rejection.
  all.catch(() => undefined);
  return { texts, all };
}

/** One WebSocket message as received: its bytes and whether it came in a binary frame. */
export interface Frame {
  data: Buffer;
  binary: boolean;
}

/** A WebSocket client that the test closes at its teardown. */
export async function connectWs(t: ExecutionContext, url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const ws = await WsClient.connect(url, headers);
  t.teardown(() => ws.close());
  return ws;
}

/** A WebSocket client that queues every text message it receives, in order. */
export class WsClient {
  private readonly inbox: Frame[] = [];
  private waiter: (() => void) | undefined;
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, binary) => {
      this.inbox.push({ data: Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]), binary });
      this.waiter?.();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.waiter?.();
    });
  }

  static connect(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const client = new WsClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** The next message as text, or an error after `ms`. */
  async next(ms = 5000): Promise<string> {
    return (await this.nextFrame(ms)).data.toString();
  }

  /** The next message as received, or an error after `ms`. */
  async nextFrame(ms = 5000): Promise<Frame> {
    const deadline = Date.now() + ms;
    while (this.inbox.length === 0) {
      if (this.closed) throw new Error(`connection closed (${this.closed.code} ${this.closed.reason}) while waiting for a message`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no message within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
    return this.inbox.shift()!;
  }

  /** Sends a request and returns the parsed reply. */
  async call(request: object): Promise<any> {
    this.send(JSON.stringify(request));
    return JSON.parse(await this.next());
  }

  /** Resolves with the close code once the connection is closed; an error after `ms`. */
  whenClosed(ms = 10_000): Promise<number> {
    if (this.closed) return Promise.resolve(this.closed.code);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`connection still open after ${ms} ms`)), ms);
      this.ws.once('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /**
   * Resolves true when no message is on its way: sends a probe call and checks that the next message
   * is the probe's reply (a connection answers in request order). No waiting for a silence that
   * proves nothing; use it where every message is a reply, not where an asynchronous notice may come.
   */
  async drained(): Promise<boolean> {
    if (this.inbox.length > 0) return false;
    const id = `drained-probe-${++WsClient.probes}`;
    this.send(JSON.stringify({ id, method: 'get_chain_id', params: [] }));
    const next = await this.next();
    return (JSON.parse(next) as { id?: unknown }).id === id;
  }

  private static probes = 0;

  /** Resolves true when nothing arrives within `ms`. */
  async quiet(ms = 150): Promise<boolean> {
    await new Promise((r) => setTimeout(r, ms));
    return this.inbox.length === 0;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** A JSON-RPC reply as tests read it. */
export interface RpcReply {
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * `result` and `error` over a call function: the first throws when the call failed, the second
 * when it did not, each naming the method, so a test reads what it expects in one line.
 */
export function expectingReplies<P extends unknown[]>(call: (method: string, params: P) => Promise<RpcReply>) {
  return {
    async result(method: string, params: P): Promise<any> {
      const r = await call(method, params);
      if (r.error) throw new Error(`${method}: ${r.error.message}`);
      return r.result;
    },
    async error(method: string, params: P): Promise<NonNullable<RpcReply['error']>> {
      const r = await call(method, params);
      if (!r.error) throw new Error(`${method}: expected an error, got ${JSON.stringify(r.result)}`);
      return r.error;
    },
  };
}
