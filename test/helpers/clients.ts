// Real clients: fetch (undici, keep-alive) for HTTP and the `ws` package for WebSocket.
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

/** A WebSocket client that queues every text message it receives, in order. */
export class WsClient {
  private readonly inbox: string[] = [];
  private waiter: (() => void) | undefined;
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.inbox.push(data.toString());
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

  /** The next message, or an error after `ms`. */
  async next(ms = 5000): Promise<string> {
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
