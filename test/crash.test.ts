// kill -9 while the node produces blocks: a restart finds the last complete block and nothing of a
// partial one (each block is one LMDB write transaction, synced at commit).
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openChainStore } from '../src/chain/store.js';
import { blockId } from '../src/chain/serializer.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli.js');

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

async function startNode(dataDir: string, port: number) {
  const child = spawn(process.execPath, [cli, 'serve', '--data-dir', dataDir, '--rpc-endpoint', `127.0.0.1:${port}`, '--block-interval', '1', '--workers', '1', '--log-level', 'warn'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/rpc`;
  for (let i = 0; i < 100; i++) {
    try {
      await rpc(url, 'database', 'get_chain_id', []);
      return { child, url };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error('node did not start');
}

test('after kill -9 during block production, a restart finds a consistent store and goes on', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'graphene-rpc-crash-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  let sent = 0;
  for (let round = 0; round < 3; round++) {
    const { child, url } = await startNode(dataDir, port);
    // Keep transactions flowing, then kill at a moment that lands inside or between blocks.
    const until = Date.now() + 1500 + round * 700;
    while (Date.now() < until) {
      try {
        const dgp = (await rpc(url, 'database', 'get_dynamic_global_properties', [])).result;
        if (dgp.head_block_number > 0) {
          const trx = await signedTx(url, [op.transfer('1.2.6', '1.2.0', 1000 + sent)], [DEV_WIF]);
          if ((await rpc(url, 'network_broadcast', 'broadcast_transaction', [trx])).result === null) sent++;
        }
      } catch {
        /* the node may be between blocks; keep going */
      }
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // Inspect the store as the killed node left it.
    const store = openChainStore(dataDir);
    const dgp = JSON.parse(store.objects.get([2, 1, 0])!.toString());
    const head = dgp.head_block_number as number;
    t.true(head >= 1, `round ${round}: blocks were produced`);
    t.is(store.blocks.get(head + 1), undefined, 'nothing of a block after the head');
    let previous = '0'.repeat(40);
    for (let n = 1; n <= head; n++) {
      const block = JSON.parse(store.blocks.get(n)!.toString());
      t.is(block.previous, previous);
      previous = blockId(block, n);
    }
    t.is(dgp.head_block_id, previous, 'the head id is the last complete block');
    // Every recorded operation belongs to a block that exists.
    const lastOp = Number(store.meta.get('next_instance:1.11') ?? 0) - 1;
    if (lastOp >= 0) t.true(JSON.parse(store.objects.get([1, 11, lastOp])!.toString()).block_num <= head);
    await store.close();
  }
  // And the node serves and produces after the last kill.
  const { child, url } = await startNode(dataDir, port);
  t.teardown(() => child.kill('SIGKILL'));
  const before = (await rpc(url, 'database', 'get_dynamic_global_properties', [])).result.head_block_number;
  await new Promise((r) => setTimeout(r, 2200));
  t.true((await rpc(url, 'database', 'get_dynamic_global_properties', [])).result.head_block_number > before);
  t.true(sent > 0, 'transactions were accepted during the rounds');
});
