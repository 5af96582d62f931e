// kill -9 while the node produces blocks: a restart finds the last complete block and nothing of a
// partial one (each block is one LMDB write transaction, synced at commit).
import test from 'ava';
import { openChainStore } from '../src/chain/store/store.js';
import { blockId } from '../src/chain/protocol/serializer.js';
import { DEV_WIF, op } from './helpers/chain.js';
import { rpc, signedTx } from './helpers/tx.js';
import { killNode, serveChild } from './helpers/child-node.js';
import { tempDir } from './helpers/temp.js';
import { until } from './helpers/until.js';

const startNode = (dataDir: string) => serveChild(['--data-dir', dataDir, '--block-interval', '1', '--workers', '1']);

test('after kill -9 during block production, a restart finds a consistent store and goes on', async (t) => {
  const dataDir = tempDir(t, 'graphene-rpc-crash-');
  let sent = 0;
  for (let round = 0; round < 3; round++) {
    const node = await startNode(dataDir);
    const url = node.httpUrl;
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
    await killNode(node);

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
  const node = await startNode(dataDir);
  t.teardown(() => node.child.kill('SIGKILL'));
  const before = (await rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number as number;
  // The restarted node's own record of producing the next block, then what a client reads.
  await node.line((l) => l.msg === 'produced block' && (l.block as number) > before, `a block after ${before}`);
  // With serving processes (--processes) the block reaches the process that answers as a message
  // sent after the writer's log line: soon after it, not at once.
  const head = async () => (await rpc(node.httpUrl, 'database', 'get_dynamic_global_properties', [])).result.head_block_number as number;
  await until(async () => (await head()) > before, 'the block served', 10_000).catch(() => undefined);
  const after = await head();
  t.true(after > before, `head ${after}, before ${before}`);
  t.true(sent > 0, 'transactions were accepted during the rounds');
});
