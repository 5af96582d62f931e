// The conventional stack: what a user would otherwise write — Fastify for HTTP and the `ws` package
// for WebSocket on the same server, running the same API handlers inline on the main thread against
// the same LMDB store (`node dist/bench/baselines/conventional.js PORT DATA_DIR [PROCESSES]`).
//
// With PROCESSES > 1 it is the same server in cluster mode (node:cluster, one process each, sharing
// the port through the primary): how an engineer would use the cores without our design, and the
// fair peer for a multi-threaded node.
import cluster from 'node:cluster';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { buildConfig } from '../../src/config.js';
import { openChainStore } from '../../src/chain/store/store.js';
import { HANDLERS, handlerFor } from '../../workers/handlers/index.js';
import { ReplyWriter } from '../../workers/reply-writer.js';
import { toWireError } from '../../src/errors.js';
import type { WorkerContext } from '../../workers/context.js';

const port = Number(process.argv[2]);
const dataDir = process.argv[3]!;
const processes = Math.max(1, Number(process.argv[4] ?? 1));

if (cluster.isPrimary && processes > 1) {
  let listening = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('message', (m) => {
      if (m === 'listening' && ++listening === processes) process.stdout.write('listening\n');
    });
  }
  // A process that dies would leave the peer measured with fewer cores than it claims: stop instead.
  cluster.on('exit', (_w, code, signal) => {
    process.stderr.write(`a cluster process exited (${signal ?? code}); stopping\n`);
    process.exit(1);
  });
  process.on('SIGTERM', () => {
    cluster.removeAllListeners('exit');
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(0);
  });
} else serve();

function serve(): void {
  const store = openChainStore(dataDir, { readOnly: true });
  const ctx: WorkerContext = { store, config: buildConfig({ 'data-dir': dataDir }), snapshot: 0 };

  // Which set serves a method name (database first, then history), for the direct and call forms.
  const setOf = new Map<string, string>();
  for (const set of ['history', 'database']) for (const m of Object.keys(HANDLERS[set as keyof typeof HANDLERS])) setOf.set(m, set);

  async function answer(text: string): Promise<string> {
    let req: { id?: unknown; method?: string; params?: unknown[] };
    try {
      req = JSON.parse(text);
    } catch {
      return '{"id":null,"error":{"code":-32700,"message":"Invalid JSON message"}}';
    }
    let method = req.method ?? '';
    let params = req.params ?? [];
    if (method === 'call') {
      method = String(params[1]);
      params = (params[2] as unknown[]) ?? [];
    }
    if (method === 'login') return JSON.stringify({ id: req.id, result: true });
    const set = setOf.get(method);
    const handler = set ? handlerFor(set, method) : undefined;
    if (!handler) return JSON.stringify({ id: req.id, error: { code: -32601, message: 'Method not found' } });
    const out = new ReplyWriter();
    out.text(`{"id":${JSON.stringify(req.id ?? null)},"result":`);
    try {
      await handler(ctx, params, out);
    } catch (err) {
      return JSON.stringify({ id: req.id, error: toWireError(err) });
    }
    out.text('}');
    return Buffer.from(out.finish()).toString('utf8');
  }

  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/*', async (request, reply) => {
    reply.header('content-type', 'application/json');
    return answer(String(request.body));
  });
  const wss = new WebSocketServer({ server: app.server, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    ws.on('message', async (data) => ws.send(await answer(data.toString())));
  });
  app.listen({ host: '127.0.0.1', port }).then(() => (cluster.isWorker ? process.send!('listening') : process.stdout.write('listening\n')));
}
