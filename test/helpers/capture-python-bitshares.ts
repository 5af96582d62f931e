// Captures test/fixtures/python-bitshares-flows.txt: runs python-bitshares
// (test/fixtures/python-bitshares-flows.py) against a node of this build on the bundled genesis
// with --block-interval 0, through a logging WebSocket proxy that writes every text frame the client
// sends (-->) and the node's reply (<--), byte for byte. After each broadcast the node accepts, the
// proxy produces a block ("@block T", T its unix time) before it hands the reply on, so the client
// sees its transaction in a block, and a replay that produces the same blocks rebuilds the chain.
// Not run by `npm test`. By hand, with python-bitshares from ../shared/clients/python-bitshares
// (its README lists the Debian packages):
//
//   npm run -s build && PYBTS=/work/shared/clients/python-bitshares/lib node dist/test/helpers/capture-python-bitshares.js
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from './fixtures.js';
import { startCaptureDevnet, startLoggingProxy } from './capture-devnet.js';

/** alice's keys: worthless keys made for these captures, kept so that the flows stay comparable. */
const KEYS = {
  owner: '5HwS6w5waWMXpqaujBdJcXTyk2w7iLe5PsNkxs4LrB1UoE4t566',
  active: '5KfdeVHrPmujwD2U6pVivDbcBtijYhBcFsopLK2qkNJC89KjmiD',
  memo: '5K9iqiv1ZzaNmcujfcSdyzBX4MQfMZPfvLPUUmYxfdYo1Np3zBi',
  memo2: '5J6G31CYTy6fResAUGdoRDjJ4xNti3H3BqzmufyrTbpmJdoAkWA',
  extra: '5Hx5cqHSNzPYDxY7R3Uay34McuHJWxmCaHKLq9Ff13wkJvrich9',
};

const HEADER = `# python-bitshares 0.7.1 with python-graphenelib 1.6.1 (Debian 12: python3 3.11.2, python3-websocket 1.2.3, python3-ecdsa 0.18.0),
# driving this node over WebSocket: every text frame the client sent (-->) and the node's reply (<--),
# byte for byte. Captured by test/helpers/capture-python-bitshares.ts (a logging proxy in front of a
# node on the bundled genesis with --block-interval 0) running test/fixtures/python-bitshares-flows.py;
# "@block T" marks a block the capture produced at unix time T (one after each accepted broadcast), so
# a replay that produces the same blocks rebuilds the same chain and the client's TaPoS, expirations
# and signatures stay valid.
#
# The client's steps: read the chain (get_chain_properties, get_global_properties, the block interval,
# nathan's balances), create_account "alice" (registrar nathan, fresh owner/active/memo keys), transfer
# 10 BTS nathan → alice with the memo "hello alice", read alice's history (the client decrypted the memo), transfer 1 BTS back with a memo,
# update_memo_key, approvewitness 1.6.0 (votes), allow (a second active key), upgrade_account (which
# the devnet refuses); then a trading bot's flow: nathan creates GOLD and issues 10 GOLD to himself,
# funds alice; alice buys 0.5 GOLD at 20 BTS (Market.buy), reads the order book and her open orders;
# nathan sells 0.2 GOLD at 15 BTS and is filled at alice's 20; alice reads the book, the trades, her
# fills, the ticker, the 24 h volume and the market history, and cancels the rest of her order; last, a
# proposal of a transfer from alice, proposed by alice.
#
# The keys alice was created with, generated for these captures only (worthless test keys):`;

async function capture(pythonLib: string, out: string): Promise<void> {
  const lines: string[] = [HEADER, `@keys ${JSON.stringify(KEYS)}`];
  const { node, dataDir, block, close } = await startCaptureDevnet(lines);
  const proxy = await startLoggingProxy(node.port, lines, block, new Set(['broadcast_transaction']));
  const { port } = proxy;
  try {
    // Asynchronously: the proxy and the node run in this process's event loop.
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [fixture('python-bitshares-flows.py'), `ws://127.0.0.1:${port}`, node.chainId, JSON.stringify(KEYS)], {
      env: { ...process.env, PYTHONPATH: pythonLib, HOME: dataDir },
      encoding: 'utf8',
    });
    process.stderr.write(stdout);
  } finally {
    proxy.close();
    await close();
    // Written also when the client failed: the frames say where.
    writeFileSync(out, `${lines.join('\n')}\n`);
  }
}

const lib = process.env.PYBTS;
if (!lib) throw new Error('set PYBTS to the lib/ directory of python-bitshares (see ../shared/clients/python-bitshares)');
await capture(lib, process.argv[2] ?? fixture('python-bitshares-flows.txt'));
