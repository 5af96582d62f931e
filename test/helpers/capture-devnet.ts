// The devnet a capture script drives a real client against (capture-btsdex.ts,
// capture-python-bitshares.ts): a node on an ephemeral port that makes blocks only when asked,
// each dated by the clock, one second apart at least and never ahead of it, as a live devnet's are
// (clients compute expirations and market-history windows from their own clock). Every block is
// noted in the transcript being written, as "@block <time>". The client reaches it through
// startLoggingProxy, which writes every frame into the same transcript.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startNode } from '../../src/main.js';
import { parseFcTime } from '../../src/chain/fc/fc-json.js';
import { WebSocket, WebSocketServer } from 'ws';

export async function startCaptureDevnet(lines: string[]) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-capture-'));
  const config = buildConfig({ 'rpc-endpoint': '127.0.0.1:0', workers: '1', 'log-level': 'silent', 'block-interval': '0', 'data-dir': dataDir });
  const node = await startNode(config, createLogger('silent'));
  let head = 0;
  const block = async (): Promise<void> => {
    while (Math.floor(Date.now() / 1000) <= head) await new Promise((r) => setTimeout(r, 100));
    const b = node.producer!.produce();
    head = parseFcTime(b.timestamp);
    lines.push(`@block ${head}`);
  };
  // A first block brings the head time to now.
  await block();
  return {
    node,
    dataDir,
    block,
    async close(): Promise<void> {
      await node.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A logging WebSocket proxy in front of the capture devnet: every text frame the client sends is
 * written as "--> frame" and every frame the node sends (replies and notices) as "<-- frame", byte for
 * byte, in the order the proxy sees them. A request whose method is one of `broadcasts` and that the
 * node accepts (its reply's result is null) gets a block before its reply is handed on, so the client
 * sees its transaction in a block and a replay that makes the same blocks rebuilds the same chain.
 * One client connection only: a second one would interleave two transcripts.
 */
export async function startLoggingProxy(nodePort: number, lines: string[], block: () => Promise<void>, broadcasts: ReadonlySet<string>) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  let connections = 0;
  server.on('connection', (client) => {
    if (++connections > 1) throw new Error('the client opened a second WebSocket');
    const upstream = new WebSocket(`ws://127.0.0.1:${nodePort}/ws`);
    upstream.on('error', (err) => process.stderr.write(`upstream: ${err.message}\n`));
    client.on('error', (err) => process.stderr.write(`client: ${err.message}\n`));
    const queue: string[] = [];
    // The requests that are broadcasts, by id: their accepted replies wait for a block.
    const pending = new Set<unknown>();
    upstream.on('open', () => queue.splice(0).forEach((m) => upstream.send(m)));
    client.on('message', (data) => {
      const text = data.toString();
      lines.push(`--> ${text}`);
      const request = JSON.parse(text) as { id: unknown; params?: unknown[] };
      if (broadcasts.has(String(request.params?.[1]))) pending.add(request.id);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else queue.push(text);
    });
    // Frames are handed on in order, an accepted broadcast's reply after the block it asked for.
    let handed = Promise.resolve();
    upstream.on('message', (data) => {
      const text = data.toString();
      lines.push(`<-- ${text}`);
      const frame = JSON.parse(text) as { id?: unknown; result?: unknown; method?: string };
      const accepted = frame.method === undefined && pending.delete(frame.id) && 'result' in frame && frame.result === null;
      handed = handed.then(async () => {
        if (accepted) await block();
        client.send(text);
      });
    });
    client.on('close', () => upstream.close());
  });
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}
