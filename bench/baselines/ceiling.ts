// The ceiling: a bare uWebSockets.js server that answers every HTTP POST and WebSocket message with
// a canned reply of a given size, without parsing or querying anything — the most this machine can
// do with this transport. (`node dist/bench/baselines/ceiling.js PORT REPLY_BYTES`)
// The node's loader: the same build the node would use on this Node.js.
import * as uWS from '../../src/transport/uws.js';

const port = Number(process.argv[2]);
const size = Math.max(32, Number(process.argv[3] ?? 1024));
const head = '{"id":1,"result":"';
const reply = Buffer.from(`${head}${'x'.repeat(size - head.length - 2)}"}`);

uWS
  .App()
  .ws('/*', {
    maxPayloadLength: 16 * 1024 * 1024,
    idleTimeout: 0,
    maxBackpressure: 64 * 1024 * 1024,
    message: (ws) => {
      ws.send(reply, false);
    },
  })
  .any('/*', (res) => {
    res.onAborted(() => {});
    res.onData((_chunk, isLast) => {
      if (isLast) res.cork(() => res.writeHeader('Content-Type', 'application/json').end(reply));
    });
  })
  .listen('127.0.0.1', port, (s) => {
    if (!s) process.exit(1);
    process.stdout.write('listening\n');
  });
