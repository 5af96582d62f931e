// The ceiling: a bare uWebSockets.js server that answers every HTTP POST and WebSocket message with
// a canned reply of a given size, without parsing or querying anything — the most this machine can
// do with this transport. (`node dist/bench/baselines/ceiling.js PORT REPLY_BYTES [PROCESSES]`)
//
// With PROCESSES > 1 it is the machine's wire limit on many cores: this process forks PROCESSES - 1
// more of itself, and every one listens on the same port (uSockets sets SO_REUSEPORT when given a
// port), so the kernel spreads connections over them as it does over the node's serving processes.
//
// A request to `/bytes/N` (HTTP POST, or a WebSocket opened on that path) gets N-byte replies
// instead, so that one process serves every scenario with its own reply size; the size is looked up
// once per HTTP request and once per WebSocket connection.
// The node's loader: the same build the node would use on this Node.js.
import { fork, type ChildProcess } from 'node:child_process';
import * as uWS from '../../src/transport/uws.js';

const port = Number(process.argv[2]);
const head = '{"id":1,"result":"';
const replies = new Map<number, Buffer>();
const replyOf = (bytes: number): Buffer => {
  const size = Math.max(32, Math.min(64 * 1024 * 1024, Number.isFinite(bytes) ? Math.round(bytes) : 1024));
  let r = replies.get(size);
  if (!r) replies.set(size, (r = Buffer.from(`${head}${'x'.repeat(size - head.length - 2)}"}`)));
  return r;
};
const fallback = replyOf(Number(process.argv[3] ?? 1024));
const sized = (url: string): Buffer => (url.startsWith('/bytes/') ? replyOf(Number(url.slice(7))) : fallback);

uWS
  .App()
  .ws<{ reply: Buffer }>('/*', {
    maxPayloadLength: 16 * 1024 * 1024,
    idleTimeout: 0,
    maxBackpressure: 64 * 1024 * 1024,
    upgrade: (res, req, context) => {
      res.upgrade({ reply: sized(req.getUrl()) }, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
    },
    message: (ws) => {
      ws.send(ws.getUserData().reply, false);
    },
  })
  .any('/*', (res, req) => {
    const reply = sized(req.getUrl());
    res.onAborted(() => {});
    res.onData((_chunk, isLast) => {
      if (isLast) res.cork(() => res.writeHeader('Content-Type', 'application/json').end(reply));
    });
  })
  .listen('127.0.0.1', port, (s) => {
    if (!s) {
      // uWS does not say why; on loopback, at a port the bench found free, it is taken meanwhile.
      process.stderr.write(`cannot listen on 127.0.0.1:${port}\n`);
      process.exit(1);
    }
    if (process.send) process.send('listening');
    else void others().then(() => process.stdout.write('listening\n'));
  });

/** The parent's siblings (PROCESSES - 1 forks of this file), each listening before it says so. */
async function others(): Promise<void> {
  const n = Math.max(1, Number(process.argv[4] ?? 1));
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const c of children) c.kill('SIGKILL');
  };
  process.once('exit', stop);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
  await Promise.all(
    Array.from({ length: n - 1 }, () => {
      const c = fork(new URL(import.meta.url), process.argv.slice(2, 4), { stdio: 'inherit' });
      children.push(c);
      return new Promise<void>((resolve, reject) => {
        c.once('message', () => resolve());
        c.once('exit', (code) => reject(new Error(`a ceiling process exited (${code})`)));
      });
    }),
  );
}
