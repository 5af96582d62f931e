// A real WebSocket relay between a follower and its upstream, on loopback, for the faults a network
// or a broken upstream causes: messages held back (a slow upstream, so the follower lags), messages
// replaced (a hostile upstream), connections cut. It forwards frames as they are otherwise.
import type { ExecutionContext } from 'ava';
import { WebSocket, WebSocketServer } from 'ws';

export interface WsProxy {
  readonly url: string;
  /** Messages from the upstream for which this holds are kept back until release(); the others pass (replies go by id, so order does not matter to a JSON-RPC client). */
  hold: ((text: string) => boolean) | undefined;
  /** Replaces a message from the upstream (text, or a Buffer to send as is). */
  rewrite: ((text: string) => string | Buffer) | undefined;
  /** Connections made through it so far. */
  readonly connections: number;
  /** Releases every held message, in order. */
  release(): void;
  /** Cuts every open connection. */
  cut(): void;
}

export async function wsProxy(t: ExecutionContext, target: string): Promise<WsProxy> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 1024 * 1024 * 1024 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const held: { to: WebSocket; data: string | Buffer }[] = [];
  const pairs = new Set<[WebSocket, WebSocket]>();
  let connections = 0;
  const proxy: WsProxy = {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/ws`,
    hold: undefined,
    rewrite: undefined,
    get connections() {
      return connections;
    },
    release() {
      proxy.hold = undefined;
      for (const h of held.splice(0)) if (h.to.readyState === WebSocket.OPEN) h.to.send(h.data);
    },
    cut() {
      for (const [a, b] of pairs) {
        a.terminate();
        b.terminate();
      }
      pairs.clear();
    },
  };
  server.on('connection', (down) => {
    connections++;
    down.on('error', () => undefined);
    const up = new WebSocket(target, { maxPayload: 1024 * 1024 * 1024 });
    up.on('error', () => down.terminate());
    const pair: [WebSocket, WebSocket] = [down, up];
    pairs.add(pair);
    const early: string[] = [];
    up.once('open', () => {
      for (const m of early.splice(0)) up.send(m);
    });
    down.on('message', (data) => {
      const text = data.toString();
      if (up.readyState === WebSocket.OPEN) up.send(text);
      else early.push(text);
    });
    up.on('message', (data) => {
      const text = data.toString();
      const out = proxy.rewrite ? proxy.rewrite(text) : text;
      if (proxy.hold?.(text)) held.push({ to: down, data: out });
      else if (down.readyState === WebSocket.OPEN) down.send(out);
    });
    const end = () => {
      pairs.delete(pair);
      down.terminate();
      up.terminate();
    };
    down.on('close', end);
    up.on('close', end);
  });
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        proxy.cut();
        server.close(() => resolve());
      }),
  );
  return proxy;
}
