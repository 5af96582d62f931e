// Captures test/fixtures/btsdex-flow.txt: runs examples/btsdex-bot-flow.cjs (btsdex 0.7.11) against a
// node of this build on the bundled genesis with --block-interval 0, through a logging WebSocket proxy
// that writes every text frame the client sends (-->) and every frame the node sends (<--: replies
// and notices), byte for byte, in the order the proxy saw them. After each
// broadcast_transaction_with_callback the node accepts, the proxy produces a block ("@block T", T its
// unix time) before it hands the reply on, so the client's callback notice follows, and a replay that
// produces the same blocks rebuilds the same chain. Not run by `npm test` (btsdex is not a dependency).
// By hand, with btsdex installed outside the checkout:
//
//   mkdir -p /tmp/btsdex-flow && (cd /tmp/btsdex-flow && npm init -y && npm install btsdex@0.7.11)
//   npm run -s build && BTSDEX_MODULES=/tmp/btsdex-flow/node_modules node dist/test/helpers/capture-btsdex.js
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from './fixtures.js';
import { startCaptureDevnet, startLoggingProxy } from './capture-devnet.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const script = path.join(root, 'examples/btsdex-bot-flow.cjs');

const HEADER = `# btsdex 0.7.11 (with btsdex-api 0.7.x, on Node.js ${process.versions.node}) running examples/btsdex-bot-flow.cjs,
# a trading bot's flow, against this node over one WebSocket: every text frame the client sent (-->)
# and every frame the node sent (<--: replies and notices), byte for byte, in the order a logging
# proxy saw them. Captured by test/helpers/capture-btsdex.ts (a node on the bundled genesis with
# --block-interval 0); "@block T" marks a block the capture produced at unix time T (one after each
# accepted broadcast_transaction_with_callback, before the client got the reply), so a replay that
# produces the same blocks rebuilds the same chain and the client's TaPoS, expirations and
# signatures stay valid. Replayed by test/btsdex.test.ts. Do not edit by hand: capture again.
#
# The client's steps (see the script): login and the API set ids, block events, nathan registers
# alice, creates GOLD, issues it and funds alice; alice (logged in with her active key) follows her
# account, bids 20 BTS a GOLD for 0.5 GOLD, reads the book, her open orders and get_limit_orders;
# nathan sells 0.2 GOLD at 15 and fills her order in part; alice's account event brings the fill; she
# reads her order, the book, her history, the fill order history, the market history, the trade
# history, the ticker and the 24 h volume, and cancels the rest.`;

async function capture(modules: string, out: string): Promise<void> {
  const lines: string[] = [HEADER];
  const { node, block, close } = await startCaptureDevnet(lines);
  // btsdex broadcasts with a callback, and opens one WebSocket (it reconnects only when one is lost).
  const proxy = await startLoggingProxy(node.port, lines, block, new Set(['broadcast_transaction_with_callback']));
  const { port } = proxy;
  try {
    // Asynchronously, its output passed through: the proxy and the node run in this process's event loop.
    const child = spawn(process.execPath, [script, `ws://127.0.0.1:${port}`, node.chainId], { env: { ...process.env, NODE_PATH: modules }, stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('exit', resolve);
      child.once('error', reject);
    });
    if (code !== 0) throw new Error(`the btsdex flow exited with ${code}`);
  } finally {
    // Written also when the client failed: the frames say where.
    writeFileSync(out, `${lines.join('\n')}\n`);
    proxy.close();
    await close();
  }
}

const modules = process.env.BTSDEX_MODULES;
if (!modules) throw new Error('set BTSDEX_MODULES to a node_modules directory holding btsdex 0.7.11 (see the header of this file)');
const version = (JSON.parse(readFileSync(path.join(modules, 'btsdex/package.json'), 'utf8')) as { version: string }).version;
if (version !== '0.7.11') throw new Error(`${modules} holds btsdex ${version}; the fixture is of 0.7.11`);
await capture(modules, process.argv[2] ?? fixture('btsdex-flow.txt'));
