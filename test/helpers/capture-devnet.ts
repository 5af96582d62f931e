// The devnet a capture script drives a real client against (capture-btsdex.ts,
// capture-python-bitshares.ts): a node on an ephemeral port that makes blocks only when asked,
// each dated by the clock, one second apart at least and never ahead of it, as a live devnet's are
// (clients compute expirations and market-history windows from their own clock). Every block is
// noted in the transcript being written, as "@block <time>".
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startNode } from '../../src/main.js';
import { parseFcTime } from '../../src/chain/fc-json.js';

export async function startCaptureDevnet(lines: string[]) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-capture-'));
  const config = buildConfig({ 'rpc-endpoint': '127.0.0.1:0', workers: '1', 'log-level': 'silent', 'block-interval': '0', 'data-dir': dataDir });
  const node = await startNode(config, createLogger('silent'));
  let head = 0;
  const block = async (): Promise<void> => {
    while (Math.floor(Date.now() / 1000) <= head) await new Promise((r) => setTimeout(r, 100));
    const b = node.producer.produce();
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
